"""Top Race: Wolfgang Kramer's race game, the first game of the table.

Importing this package registers the game (:mod:`toprace_pi.core.registry`): its
rules engine, its variants and its side of the table, each imported when first asked for.
"""

from __future__ import annotations

from typing import Any

from toprace_pi.core.registry import GameEntry, register
from toprace_pi.games.toprace import records
from toprace_pi.games.toprace.rules.game import Game


def _new_game(*args: Any, **options: Any) -> Game:
    from toprace_pi.games.toprace.rules.variants import new_game

    return new_game(*args, **options)


def _variant_names() -> list[str]:
    from toprace_pi.games.toprace.rules.variants import variant_names

    return variant_names()


def _table(setup: Any = None) -> Any:
    from toprace_pi.games.toprace.table.side import TopRaceTable

    return TopRaceTable(setup)


def _search_bot(seed: int, strength: str) -> Any:
    from toprace_pi.games.toprace.bots.search import search_bot

    return search_bot(seed, strength)


def _no_bot_seats(setup: Any) -> str:
    return "its speed cards are dealt by hand, so the table never holds a bot's hand (its bots play in the demo)"


register(GameEntry(Game.info, _variant_names, _new_game, _table, records, _search_bot, _no_bot_seats))
