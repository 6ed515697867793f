"""Small checks of configuration values, shared by the table's sections and the games' own.

Each takes the value, the key to name and the list of problems: a bad value adds
a problem in words and gives back a safe default, so every problem of a file is
found in one reading.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from toprace_pi.text import printable


def table(data: Mapping[str, Any], key: str, problems: list[str]) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, Mapping):
        problems.append(f"[{key}] must be a table")
        return {}
    return dict(value)


def unknown_keys(section: Mapping[str, Any], known: Sequence[str], where: str, problems: list[str]) -> None:
    """Name the keys of ``section`` the table does not read: a misspelt key would otherwise be left out
    without a word, and its default taken instead."""
    unknown = set(section) - set(known)
    if unknown:
        problems.append(f"{where} unknown key(s): {', '.join(sorted(unknown))} (known: {', '.join(known)})")


def whole(value: object, key: str, low: int, high: int, problems: list[str]) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        problems.append(f"{key}: a whole number from {low} to {high}")
        return low
    return value


def positive(value: object, key: str, problems: list[str]) -> float:
    try:
        number = float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else math.nan
    except OverflowError:
        number = math.nan
    if not (math.isfinite(number) and number > 0):
        problems.append(f"{key}: a positive number")
        return 1.0
    return number


def is_file(value: str) -> bool:
    try:
        return Path(value).is_file()
    except OSError:  # a name too long for the file system, say
        return False


def players(value: object, most: int, default: tuple[str, ...], problems: list[str]) -> tuple[str, ...]:
    """``[game] players``: 2 to ``most`` different printable names."""
    names = tuple(value) if isinstance(value, list) else ()
    if (not 2 <= len(names) <= most or not all(isinstance(n, str) and n for n in names)
            or len(set(names)) < len(names)):
        problems.append(f"[game] players: a list of 2 to {most} different names")
        return default
    odd = [printable(n) for n in names if not n.isprintable()]
    if odd:
        problems.append(f"[game] players: a name may hold no control characters ({', '.join(odd)})")
        return default
    return names
