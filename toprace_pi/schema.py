"""What a file the table reads may hold: its keys, and a range for each of its numbers.

The table's configuration and the games' data files (tracks, decks, boards, profiles) are
TOML tables of known keys. A key the reader does not know is most often a misspelt one
whose default would be taken without a word (``jounral``), so it is named with the known
key it is closest to. A number outside what a real table could need (a claim window of
1e308 seconds, a card numbered 10**20, a power supply of ``inf`` amperes, ``nan``) is named
with its range before it reaches a game or a device.

Each check adds a problem in words to the caller's list and gives back a stand-in, so that
every problem of a file is found in one reading and named in one error.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from toprace_pi.text import printable

N = TypeVar("N", int, float)
#: The longest a wrong value is quoted in a message: a TOML integer may have thousands of digits.
SHOWN = 40


@dataclass(frozen=True)
class Range(Generic[N]):
    """The values a number read from a file may take: ``kind`` (``int``: whole numbers only; ``float``: any
    finite number) from ``low`` to ``high``, both included; ``noun`` says what it is in messages ("a number of
    seconds"), by default "a whole number" or "a number"."""

    kind: type[N]
    low: N
    high: N
    noun: str = ""

    def __str__(self) -> str:
        noun = self.noun or ("a whole number" if self.kind is int else "a number")
        return f"{noun} from {_plain(self.low)} to {_plain(self.high)}"

    def __contains__(self, value: object) -> bool:
        """NaN, the infinities, a bool (TOML's ``true``) and, in a whole range, a float are never in it."""
        kinds = (int,) if self.kind is int else (int, float)
        return isinstance(value, kinds) and not isinstance(value, bool) and self.low <= value <= self.high

    def check(self, value: object, key: str, problems: list[str], *, stand_in: N | None = None) -> N:
        """``value`` as a number of this range; else a problem naming ``key`` and the range, and ``stand_in``
        (by default :attr:`low`) for the checks that go on."""
        if isinstance(value, (int, float)) and value in self:
            return self.kind(value)
        problems.append(f"{key}: {self}, not {shown(value)}")
        return self.low if stand_in is None else stand_in


def number_of(section: Mapping[str, Any], key: str, ranges: Mapping[str, Range[Any]], where: str,
              problems: list[str], default: object = None) -> Any:
    """``section``'s ``key`` (``default`` when it is left out) checked against its range in ``ranges``, a file
    part's list of numbers; a problem names it ``{where} {key}``."""
    return ranges[key].check(section.get(key, default), f"{where} {key}", problems)


def whole_in_text(text: str) -> int | None:
    """The whole number ``text`` writes in ASCII digits (a TOML key, a port), else ``None``: ``str.isdigit()``
    also takes "²", which ``int()`` refuses, and a few digits keep ``int()`` from a string of thousands."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else None


def _plain(number: float) -> str:
    """``10.0`` -> ``"10"``, ``0.05`` -> ``"0.05"``: a bound as a person writes it."""
    return str(int(number)) if float(number).is_integer() else str(number)


def shown(value: object) -> str:
    """``value`` as a message quotes it, cut short if it is long."""
    return _cut(repr(value))


def _cut(text: str) -> str:
    return text if len(text) <= SHOWN else f"{text[:SHOWN - 3]}..."


#: A colour channel or a brightness, as LEDs and pictures take it.
BYTE = Range(int, 0, 255)


def unknown_keys(section: Mapping[str, object], known: Sequence[str], where: str, problems: list[str], *,
                 what: str = "key") -> None:
    """Name the keys of ``section`` that are not ``known`` (``what``: ``"key"``, ``"table"``, ``"field"``),
    each with the known one it is closest to, if any: a misspelt key would otherwise be left out without a
    word, and its default taken instead."""
    unknown = sorted(str(key) for key in section if key not in known)
    if unknown:
        named = ", ".join(_with_guess(key, known) for key in unknown)
        problems.append(f"{where} unknown {what}(s): {named}; known: {', '.join(known)}")


def _with_guess(key: str, known: Sequence[str]) -> str:
    close = difflib.get_close_matches(key, known, n=1)
    named = printable(_cut(key))
    return f"{named} (did you mean {close[0]}?)" if close else named
