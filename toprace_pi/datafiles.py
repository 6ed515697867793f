"""Reading a game's TOML data files: a shipped one by name, or any file by path.

Every game ships its data (tracks, decks, boards) as TOML files in a folder of its
package and lets a maker point at a file of their own; both are read here, and
every failure is one :class:`~toprace_pi.errors.DataError` naming the file.
"""

from __future__ import annotations

import tomllib
from importlib.resources.abc import Traversable
from pathlib import Path

from toprace_pi.errors import DataError


def shipped_names(folder: Traversable) -> list[str]:
    """The TOML files in ``folder``, by name without ``.toml``."""
    return sorted(p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml"))


def read_toml(folder: Traversable, name_or_path: str | Path, shipped: list[str]) -> tuple[str, dict]:
    """A shipped file of ``folder`` by name, or any TOML file by path: its source (to name in
    messages) and its content."""
    source, text = _read(folder, name_or_path, shipped)
    return source, parse_toml(source, text)


def _read(folder: Traversable, name_or_path: str | Path, shipped: list[str]) -> tuple[str, str]:
    name, kind = str(name_or_path), folder.name
    if name in shipped:
        return f"{kind}/{name}.toml", folder.joinpath(f"{name}.toml").read_text("utf-8")
    path = Path(name_or_path)
    try:
        is_file = path.is_file()
    except OSError as exc:  # a name too long for the file system, say
        raise DataError(name, [f"cannot be read: {exc.strerror}"]) from None
    if not is_file:
        choices = ", ".join(shipped)
        raise DataError(name, [f"no such file, and not a shipped {kind[:-1]} ({choices})"])
    try:
        return str(path), path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(str(path), [f"cannot be read: {exc}"]) from None


def parse_toml(source: str, text: str) -> dict:
    try:
        return tomllib.loads(text)
    except ValueError as exc:  # TOMLDecodeError, or an integer of more than 4300 digits
        raise DataError(source, [f"not valid TOML: {exc}"]) from None
    except RecursionError:
        raise DataError(source, ["not valid TOML: nested too deeply"]) from None
