"""TOP SPEED's entry in the registry (:mod:`toprace_pi.core.registry`): its rules engine, its records,
its side of the table, its command line, its bots and its deck's check, each imported when first asked for."""

from __future__ import annotations

from typing import Any

from toprace_pi.core.registry import GameCommandLine, GameEntry, imported
from toprace_pi.games.topspeed import records
from toprace_pi.games.topspeed.data import check_deck
from toprace_pi.games.topspeed.rules import TopSpeed
from toprace_pi.games.topspeed.settings import VARIANTS


def _new_game(settings: Any, circuit: Any = None, deck: Any = None) -> TopSpeed:
    from toprace_pi.games.topspeed.data import load_circuit, load_deck

    return TopSpeed(settings, circuit or load_circuit(settings.circuit), deck or load_deck(settings.deck))


def _command_line() -> GameCommandLine:
    from toprace_pi.games.topspeed import cli

    return cli


def _no_bot_seats(setup: Any) -> str | None:
    if setup.decks != "virtual":
        return "with [game] decks = \"physical\" each player shuffles their own minicards; a bot needs a virtual deck"
    return None


ENTRY = GameEntry(info=TopSpeed.info, variants=lambda: list(VARIANTS), new_game=_new_game,
                  records=records, command_line=_command_line,
                  table=imported("toprace_pi.games.topspeed.table.side", "TopSpeedTable"),
                  search_bot=imported("toprace_pi.games.topspeed.bots.search", "search_bot"),
                  no_bot_seats=_no_bot_seats, check_deck=check_deck)
