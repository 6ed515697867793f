"""The games of the table, found by name.

The registry names each game's module as text and imports it only when the game
is asked for, so the core imports no game and no game imports another; a game
module registers its :class:`GameEntry` with :func:`register` when it is imported.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from toprace_pi.errors import TopRaceError

if TYPE_CHECKING:  # the command line reads the names here for its help, which needs no game's machinery
    from toprace_pi.core.game import GameInfo

#: The games the table knows: name -> the module that registers it.
KNOWN: dict[str, str] = {"toprace": "toprace_pi.games.toprace", "autorace": "toprace_pi.games.autorace",
                       "topspeed": "toprace_pi.games.topspeed"}
DEFAULT_GAME = "toprace"


@dataclass(frozen=True)
class GameEntry:
    """A game as the table finds it: what it is, its variants by name, and how a new game is made."""

    info: GameInfo
    variants: Callable[[], list[str]]
    #: ``new_game(settings, board, deck)``: a game of the variant ``settings`` names.
    new_game: Callable[..., Any]
    #: ``table(setup=None)``: the game's side of the table (:class:`~toprace_pi.table.side.GameTable`) for a
    #: table set up as ``setup`` (what the game read of ``[game]``), made when a table needs it.
    table: Callable[..., Any]
    #: The game in the table's files: ``parse_section(section, problems)`` reads ``[game]`` (the setup, with
    #: ``new_game() -> (settings, game)``); ``settings_to_dict(settings)``, ``settings_from_dict(fields,
    #: source)`` (raising :class:`~toprace_pi.errors.DataError` naming each problem) and ``game_for(settings,
    #: source)`` put a game in a journal and read it back; ``READERS`` names the table's card readers and what
    #: lies on each, the one every table needs first.
    records: Any = None
    #: ``search_bot(seed, strength)``: a search bot (its ``choose(seen)`` answers with an action) for a seat
    #: the table plays itself (``[bots] seats``), and ``no_bot_seats(setup)``: why a table set up so cannot
    #: play a seat itself (``None``: it can; the cards a bot plays must be the table's own, not in a hand).
    search_bot: Callable[..., Any] | None = None
    no_bot_seats: Callable[[Any], str | None] = lambda setup: None


_entries: dict[str, GameEntry] = {}


def register(entry: GameEntry) -> None:
    _entries[entry.info.name] = entry


def game_names() -> list[str]:
    return list(KNOWN)


def get(name: str = DEFAULT_GAME) -> GameEntry:
    """The game called ``name``; a :class:`TopRaceError` naming the known games for any other name."""
    if name not in KNOWN:
        raise TopRaceError(f"no game called {name!r} (the games: {', '.join(KNOWN)})")
    if name not in _entries:
        importlib.import_module(KNOWN[name])
    return _entries[name]
