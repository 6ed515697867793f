"""The games of the table, found by name: one :class:`GameEntry` each, the whole of what a game brings.

A game declares its entry as a Python entry point of the group :data:`GAMES_GROUP` (the shipped
games in this package's ``pyproject.toml``; a game in a package of its own in that package's), and
any command of its own as one of :data:`COMMANDS_GROUP`. The registry reads the names without
importing anything and loads a game only when it is asked for, so the core imports no game, no game
imports another, and ``toprace-pi --help`` stays quick. :func:`register` is the same door for a game
that is not installed (a test's toy game).
"""

from __future__ import annotations

import argparse
import functools
import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Any, Protocol

from toprace_pi.core.game import GameInfo, GameState
from toprace_pi.errors import TopRaceError

#: The entry-point group whose names are the games and whose objects are their :class:`GameEntry`.
GAMES_GROUP = "toprace_pi.games"
#: The entry-point group of the commands a game adds to ``toprace-pi`` (its name -> its :class:`Command`).
COMMANDS_GROUP = "toprace_pi.commands"
DEFAULT_GAME = "toprace"


class TableSetup(Protocol):
    """The game a table is set up for, as its ``[game]`` section says."""

    def new_game(self) -> tuple[Any, GameState]:
        """A new game of this setup, and its settings (the game's own type) for the journal."""
        ...


class Records(Protocol):
    """The game in the table's files (a module fits): its ``[game]`` section, its journal header."""

    @property
    def READERS(self) -> Mapping[str, str]:  # noqa: N802  (a module's constant)
        """The table's card readers by name and what lies on each, the one every table needs first."""
        ...

    def parse_section(self, section: Mapping[str, Any], problems: list[str]) -> TableSetup:
        """``[game]`` read, each problem appended to ``problems`` and a safe default kept for it."""
        ...

    def settings_to_dict(self, settings: Any) -> dict[str, Any]: ...

    def settings_from_dict(self, fields: object, source: str) -> Any:
        """The settings a journal's header holds; a :class:`~toprace_pi.errors.DataError` naming each problem."""
        ...

    def game_for(self, settings: Any, source: str) -> GameState: ...


class Reports(Protocol):
    """A finished game's one report, as text and as plain values (JSON)."""

    def text_report(self, game: Any, extra: dict[str, object]) -> str: ...

    def json_report(self, game: Any, extra: dict[str, object]) -> dict[str, Any]: ...


class GameCommandLine(Reports, Protocol):
    """A game's part of the shared commands ``simulate``, ``demo``, ``replay`` and ``calibrate`` (a module
    fits): only what differs between games; the command line does the rest alike for every game."""

    def add_options(self, parser: argparse.ArgumentParser, command: str) -> None:
        """The game's options of ``command`` (``simulate`` or ``demo``)."""
        ...

    def simulate(self, args: argparse.Namespace) -> tuple[Any, dict[str, object]]:
        """A whole bot game of ``args``, and what its report says of it beyond the seed (its bots...)."""
        ...

    def demo(self, args: argparse.Namespace) -> Callable[..., Any]:
        """The game's demo with its own options bound (the table's are the caller's to give)."""
        ...

    def play_back(self, journal: Path, *, pause: float, colour: Any, svg_dir: Path | None, narrate: bool,
                  out: Callable[[str], None], warn: Callable[[str], None]) -> Any:
        """A journal played back step by step; the game as its report reads it (no secret still sealed)."""
        ...

    def calibration_target(self, name: str, out: Path | None) -> Any:
        """What ``toprace-pi calibrate NAME`` walks for the game's board ``name``."""
        ...


class TableMaker(Protocol):
    def __call__(self, setup: Any = None) -> Any:
        """The game's side of the table for a table set up as ``setup`` (its own :class:`TableSetup`;
        ``None``: the defaults): a :class:`~toprace_pi.table.side.GameTable`, which the core may not
        name (the table lies above it)."""
        ...


@dataclass(frozen=True)
class Command:
    """A command a game adds to ``toprace-pi`` (``toprace-pi track``): its help line, what adds its
    arguments (and, with ``set_defaults(run=...)``, what it runs), and whether it takes ``-v``/``-q``."""

    help: str
    build: Callable[[argparse.ArgumentParser], None]
    loud: bool = False


@dataclass(frozen=True, kw_only=True)
class GameEntry:
    """A game as the table finds it: everything it brings, each heavy part imported when first called."""

    info: GameInfo
    #: The variants' names, ``base`` (the plain rules) first.
    variants: Callable[[], Sequence[str]]
    #: ``new_game(settings, ...)``: a game of the variant ``settings`` names (its boards and decks loaded).
    new_game: Callable[..., GameState]
    records: Records
    table: TableMaker
    #: The game's part of the shared commands, imported when a command of the game runs.
    command_line: Callable[[], GameCommandLine]
    #: ``search_bot(seed, strength)``: a search bot (its ``choose(seen)`` answers with an action) for a seat
    #: the table plays itself (``[bots] seats``); ``None``: the game has none.
    search_bot: Callable[[int, str], Any] | None = None
    #: Why a table set up so cannot play a seat itself (``None``: it can; a bot's cards must be the table's).
    no_bot_seats: Callable[[TableSetup], str | None] = lambda setup: None
    #: ``check_deck(file)``: a deck file's check in lines (``toprace-pi deck check``); ``None``: no deck.
    check_deck: Callable[[str], list[str]] | None = None


def imported(module: str, name: str) -> Callable[..., Any]:
    """``module``'s ``name`` called with what the caller gives, the module imported at the first call: a
    heavy part of a game's entry (its table, its bots) loaded only where it is used."""

    def call(*args: Any, **options: Any) -> Any:
        return getattr(importlib.import_module(module), name)(*args, **options)

    return call


_registered: dict[str, tuple[GameEntry, Mapping[str, Command]]] = {}
_loaded: dict[str, GameEntry] = {}


def register(entry: GameEntry, commands: Mapping[str, Command] | None = None) -> None:
    """Add a game that no entry point declares (and its own commands), as an entry point would."""
    _registered[entry.info.name] = (entry, dict(commands or {}))


def unregister(name: str) -> None:
    """Take a game :func:`register` added out again, with its commands."""
    _registered.pop(name, None)


@functools.cache
def _declared() -> dict[str, EntryPoint]:
    return {point.name: point for point in entry_points(group=GAMES_GROUP)}


def game_names() -> list[str]:
    """Every game's name, the default game first; nothing is imported."""
    names = [*_declared(), *_registered]
    return sorted(dict.fromkeys(names), key=lambda name: (name != DEFAULT_GAME, name))


def modules() -> dict[str, str]:
    """Each declared game's name -> the module its entry point names."""
    return {name: point.module for name, point in _declared().items()}


def get(name: str = DEFAULT_GAME) -> GameEntry:
    """The game called ``name``; a :class:`TopRaceError` naming the known games for any other name."""
    if name in _registered:
        return _registered[name][0]
    if name not in _loaded:
        point = _declared().get(name)
        if point is None:
            raise TopRaceError(f"no game called {name!r} (the games: {', '.join(game_names())})")
        entry = point.load()
        if not isinstance(entry, GameEntry) or entry.info.name != name:
            raise TopRaceError(f"the entry point {point.value!r} of the game {name!r} is not its GameEntry")
        _loaded[name] = entry
    return _loaded[name]


def commands() -> dict[str, Command]:
    """Every command the games add, by its word (each game's command module is imported, never its rules)."""
    found = {point.name: point.load() for point in entry_points(group=COMMANDS_GROUP)}
    for _, own in _registered.values():
        found.update(own)
    return found
