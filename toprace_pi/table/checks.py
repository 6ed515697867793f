"""Small checks of configuration values, shared by the table's sections and the games' own.

Each takes the value, the key to name and the list of problems: a bad value adds
a problem in words and gives back a safe default, so every problem of a file is
found in one reading. Keys and numbers are checked by :mod:`toprace_pi.schema`,
which the games' data files share.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from toprace_pi.errors import DataError
from toprace_pi.schema import shown
from toprace_pi.text import printable


def table(data: Mapping[str, Any], key: str, problems: list[str]) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, Mapping):
        problems.append(f"[{key}] must be a table")
        return {}
    return dict(value)


def data_file(game: Mapping[str, Any], key: str, shipped: list[str], default: str, load: Callable[[str], object],
              problems: list[str]) -> str:
    """``[game] key``: one of the game's ``shipped`` data files by name, or a file of one's own, read with ``load``
    now (so that ``check`` names its problems, each with the file) and made absolute, so that the journal finds
    it again for a resume or a replay from any working directory."""
    value = game.get(key, default)
    if not isinstance(value, str) or (value not in shipped and not is_file(value)):
        problems.append(f"[game] {key}: {shown(value)} is neither a shipped {key} ({', '.join(shipped)}) nor a file")
        return default
    if value in shipped:
        return value
    path = str(Path(value).resolve())
    try:
        load(path)
    except DataError as exc:
        problems.extend(f"[game] {key}: {exc.source}: {problem}" for problem in exc.problems)
        return default
    return path


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
