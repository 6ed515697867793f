"""What a tag stands for: its text record, the registry of enrolled tags, and enrolment.

A tag is known in two ways, so that a lost registry or a new table does not
strand a box of tagged cards: an NTAG carries its meaning as a text record in
its own memory (``toprace card 17``, ``toprace car red``), and the registry maps
uids to meanings for tags that cannot hold a record. The registry wins when both
speak. The record's format is in :mod:`toprace_pi.hardware.ndef`.

A car tag names its car by id, read against the cars of the deck in play
(:class:`~toprace_pi.rules.cars.CarSet`): a token of another edition's car is
refused, with a message that says so.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Union

from toprace_pi.errors import DataError
from toprace_pi.files import write_atomically
from toprace_pi.hardware.events import Event, TagLaid, TagLifted
from toprace_pi.rules.cards import DECK_SIZE, Deck
from toprace_pi.rules.cars import Car, CarSet

CardId = tuple[Literal["card"], int]
CarId = tuple[Literal["car"], Car]
PitId = tuple[Literal["pit"], int]
#: What a tag stands for: ``("card", 17)``, ``("car", red)`` (a car of the deck), or ``("pit", 2)``: one of
#: the pit stop cards of seat 2 (counted from 0; the Pit Stop rule).
Identity = Union[CardId, CarId, PitId]
#: Pit stop cards per seat (each is enrolled to its seat).
PIT_CARDS_PER_SEAT = 3
MAX_SEATS = 6

RECORD_PREFIX = "toprace"
UNKNOWN_TAG = "this tag is not enrolled: run toprace-pi enrol cards"

REGISTRY_VERSION = 1


# --- identities ---------------------------------------------------------------------------------------------------


def identity_key(identity: Identity) -> str:
    """``"card 17"`` or ``"car red"``: the words after the prefix in a record, and a registry value."""
    kind, value = identity
    if isinstance(value, Car):
        return f"car {value.id}"
    return f"{kind} {value if kind == 'card' else value + 1}"


def record_text(identity: Identity) -> str:
    """The text record written to a tag: ``"toprace card 17"``."""
    return f"{RECORD_PREFIX} {identity_key(identity)}"


def parse_record(text: str | None, cars: CarSet) -> Identity | None:
    """The identity a record names, its car one of ``cars``; ``None`` for any other
    text (another app's tag, a car of another edition)."""
    words = _record_words(text)
    return _identity(words[1], words[2], cars) if words else None


def unknown_tag(record: str | None, cars: CarSet) -> str:
    """Why a tag that names nothing here is refused: a car token of another edition, or not enrolled."""
    words = _record_words(record)
    if words and words[1] == "car":
        return f"this tag is the car token {words[2]!r}, which this deck does not have (its cars: {cars.ids})"
    return UNKNOWN_TAG


def _record_words(text: str | None) -> list[str]:
    """The three words of one of our records, else none."""
    words = text.split() if text else []
    return words if len(words) == 3 and words[0] == RECORD_PREFIX else []


def _identity(kind: str, value: str, cars: CarSet) -> Identity | None:
    # The length check keeps int() from a string of thousands of digits, which it refuses.
    number = int(value) if value.isascii() and value.isdigit() and len(value) <= 3 else None
    if kind == "card" and number is not None and 1 <= number <= DECK_SIZE:
        return ("card", number)
    if kind == "car":
        try:
            return ("car", cars.parse(value))
        except ValueError:
            return None
    if kind == "pit" and number is not None and 1 <= number <= MAX_SEATS:
        return ("pit", number - 1)
    return None


def describe(identity: Identity, deck: Deck | None = None) -> str:
    """For people: ``"speed card #1 Red 6 / Yellow 4 / Black 2 / Blue 1"`` (with a deck) or ``"the Red car"``."""
    kind, value = identity
    if isinstance(value, Car):
        return f"the {value} car"
    if kind == "pit":
        return f"a pit stop card of seat {value + 1}"
    return f"speed card {deck[value]}" if deck is not None and value in deck else f"speed card #{value}"


# --- the registry -------------------------------------------------------------------------------------------------


class TagRegistry:
    """Enrolled tags: uid -> identity, kept in a JSON file; car tags are of ``cars``, the deck's.

    File format: ``{"version": 1, "tags": {"04a1b2c3d4e580": "card 17", "04...": "car red"}}``.
    A registry holds the car tokens of one edition: a box of another keeps its own file.
    """

    def __init__(self, entries: Mapping[bytes, Identity] | None = None, *, cars: CarSet) -> None:
        self.cars = cars
        self._tags: dict[bytes, Identity] = dict(entries or {})

    def __repr__(self) -> str:
        return f"<TagRegistry: {len(self._tags)} tags>"

    def __len__(self) -> int:
        return len(self._tags)

    def __contains__(self, uid: object) -> bool:
        return uid in self._tags

    def __iter__(self) -> Iterator[bytes]:
        return iter(self._tags)

    def get(self, uid: bytes) -> Identity | None:
        return self._tags.get(uid)

    def add(self, uid: bytes, identity: Identity) -> None:
        self._tags[bytes(uid)] = identity

    def identify(self, event: TagLaid) -> Identity | None:
        """What the tag just laid stands for: from the registry, else from its record; ``None`` if unknown."""
        return self._tags.get(event.uid) or parse_record(event.record, self.cars)

    def to_dict(self) -> dict[str, object]:
        tags = {uid.hex(): identity_key(identity) for uid, identity in sorted(self._tags.items())}
        return {"version": REGISTRY_VERSION, "tags": tags}

    def save(self, path: str | Path) -> None:
        """Write the file atomically: a crash mid-write leaves the old file, never half a registry."""
        write_atomically(Path(path), json.dumps(self.to_dict(), indent=2) + "\n")

    @classmethod
    def load(cls, path: str | Path, cars: CarSet) -> TagRegistry:
        """The registry in ``path`` for a deck's ``cars``; empty when there is no such file yet (tags with
        records still work).

        Raises :class:`DataError` naming the file when it is not a valid registry.
        """
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls(cars=cars)
        except OSError as exc:  # a folder, no permission, a name too long...
            raise DataError(str(path), [f"cannot be read: {exc.strerror}"]) from None
        except UnicodeDecodeError:
            raise DataError(str(path), ["not a tag registry: the file is not UTF-8 text"]) from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DataError(str(path), [f"not valid JSON (line {exc.lineno}): {exc.msg}"]) from None
        except ValueError as exc:  # an integer of more than 4300 digits
            raise DataError(str(path), [f"not valid JSON: {exc}"]) from None
        except RecursionError:
            raise DataError(str(path), ["not valid JSON: nested too deeply"]) from None
        return cls.from_dict(data, str(path), cars)

    @classmethod
    def from_dict(cls, data: object, source: str, cars: CarSet) -> TagRegistry:
        """Build a registry from parsed JSON, reporting every problem at once."""
        if not isinstance(data, dict) or data.get("version") != REGISTRY_VERSION or not isinstance(
            data.get("tags"), dict
        ):
            raise DataError(source, [f'expected {{"version": {REGISTRY_VERSION}, "tags": {{uid: "card 17", ...}}}}'])
        problems: list[str] = []
        entries = [_entry(key, value, cars, problems) for key, value in data["tags"].items()]
        if problems:
            raise DataError(source, problems)
        return cls(dict(entry for entry in entries if entry is not None), cars=cars)


def _entry(key: str, value: object, cars: CarSet, problems: list[str]) -> tuple[bytes, Identity] | None:
    try:
        uid = bytes.fromhex(key)
    except ValueError:
        uid = b""
    words = value.split() if isinstance(value, str) else []
    identity = _identity(words[0], words[1], cars) if len(words) == 2 else None
    if len(uid) not in (4, 7, 10):
        problems.append(f"tag {key!r}: a uid is 4, 7 or 10 bytes in hex, like '04a1b2c3d4e580'")
    if identity is None:
        problems.append(f"tag {key!r}: {value!r} is not 'card N' (1-{DECK_SIZE}), 'car COLOUR' (a car of this "
                        f"deck: {cars.ids}) or 'pit SEAT' (1-6)")
    return (uid, identity) if identity is not None else None


# --- enrolment ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Enrolled:
    """One tag taken on: what it stands for, and the record to write to it if it is an NTAG."""

    uid: bytes
    identity: Identity

    @property
    def record(self) -> str:
        return record_text(self.identity)


class Enrolment:
    """The walk that asks for each card (or car) in turn and takes the next tag laid for it.

    Pure logic fed with reader events: the command line shows :attr:`prompt`,
    passes each event to :meth:`offer`, prints the answer, and in the end adds
    :attr:`enrolled` to the registry and writes each record to its tag. Tags in
    ``known`` (an earlier enrolment) are refused for anything but what they
    already stand for, so a box can be enrolled again, or added to, safely.
    """

    def __init__(self, wanted: Sequence[Identity], *, deck: Deck | None = None, known: TagRegistry | None = None):
        self.total = len(wanted)
        self._wanted = tuple(wanted)
        self._deck = deck
        self._known = known
        self._enrolled: list[Enrolled] = []
        self._lying: bytes | None = None

    @classmethod
    def cards(cls, deck: Deck, known: TagRegistry | None = None) -> Enrolment:
        """Every speed card of ``deck`` in number order."""
        return cls([("card", number) for number in sorted(deck.numbers)], deck=deck, known=known)

    @classmethod
    def pit_stops(cls, players: int, known: TagRegistry | None = None) -> Enrolment:
        """The pit stop cards: three for each seat, so a card laid names its claimant."""
        return cls([("pit", seat) for seat in range(players) for _ in range(PIT_CARDS_PER_SEAT)], known=known)

    @classmethod
    def cars(cls, cars: CarSet, known: TagRegistry | None = None) -> Enrolment:
        """The car tokens of a deck's edition, in its order."""
        return cls([("car", car) for car in cars], known=known)

    def __repr__(self) -> str:
        return f"<Enrolment: {len(self._enrolled)} of {len(self._wanted)} tags>"

    def resume(self) -> int:
        """Leave out what the known registry already holds (an interrupted walk goes on
        where it stopped); returns how many items that was. Call before the first tag."""
        assert not self._enrolled, "resume before the walk begins"
        held = Counter(self._known.get(uid) for uid in self._known) if self._known is not None else Counter()
        rest = []
        for identity in self._wanted:
            if held[identity]:
                held[identity] -= 1
            else:
                rest.append(identity)
        skipped = len(self._wanted) - len(rest)
        self._wanted = tuple(rest)
        return skipped

    @property
    def done(self) -> bool:
        return len(self._enrolled) == len(self._wanted)

    @property
    def enrolled(self) -> tuple[Enrolled, ...]:
        return tuple(self._enrolled)

    @property
    def prompt(self) -> str:
        if self.done:
            return f"all {len(self._wanted)} tags are enrolled"
        return f"scan {describe(self._wanted[len(self._enrolled)], self._deck)}"

    def offer(self, event: Event) -> str:
        """Take a reader event; answer what became of it ("" when it is ignored)."""
        if isinstance(event, TagLifted):
            self._lying = None if event.uid == self._lying else self._lying
            return ""
        if not isinstance(event, TagLaid) or event.uid == self._lying or self.done:
            return ""
        self._lying = event.uid
        return self._take(event.uid)

    def _take(self, uid: bytes) -> str:
        wanted = self._wanted[len(self._enrolled)]
        if any(e.uid == uid for e in self._enrolled):
            return f"this tag is already enrolled as {describe(self._taken_as(uid) or wanted, self._deck)}"
        taken = self._taken_as(uid)
        if taken is not None and taken != wanted:
            return f"this tag is already enrolled as {describe(taken, self._deck)}"
        self._enrolled.append(Enrolled(uid, wanted))
        return f"enrolled {describe(wanted, self._deck)}"

    def _taken_as(self, uid: bytes) -> Identity | None:
        earlier = next((e.identity for e in self._enrolled if e.uid == uid), None)
        return earlier or (self._known.get(uid) if self._known is not None else None)
