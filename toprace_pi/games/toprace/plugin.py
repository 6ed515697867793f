"""Top Race's entry in the registry (:mod:`toprace_pi.core.registry`): its rules engine, its
variants, its records, its side of the table, its command line and its bots, each imported when
first asked for."""

from __future__ import annotations

from typing import Any

from toprace_pi.core.registry import GameCommandLine, GameEntry, TableSetup, imported
from toprace_pi.games.toprace import records
from toprace_pi.games.toprace.commands import check_deck
from toprace_pi.games.toprace.rules.game import TopRace


def _new_game(*args: Any, **options: Any) -> TopRace:
    from toprace_pi.games.toprace.rules.variants import new_game

    return new_game(*args, **options)


def _variant_names() -> list[str]:
    from toprace_pi.games.toprace.rules.variants import variant_names

    return variant_names()


def _command_line() -> GameCommandLine:
    from toprace_pi.games.toprace import cli

    return cli


def _no_bot_seats(setup: TableSetup) -> str:
    return "its speed cards are dealt by hand, so the table never holds a bot's hand (its bots play in the demo)"


ENTRY = GameEntry(info=TopRace.info, variants=_variant_names, new_game=_new_game,
                  records=records, command_line=_command_line,
                  table=imported("toprace_pi.games.toprace.table.side", "TopRaceTable"),
                  search_bot=imported("toprace_pi.games.toprace.bots.search", "search_bot"),
                  no_bot_seats=_no_bot_seats, check_deck=check_deck)
