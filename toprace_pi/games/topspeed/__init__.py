"""TOP SPEED: a Formula 1 race on Montmeló, each player drawing minicards from a deck of their
own (push on, or pass before two identical trouble cards end the round), with pit stops, the
safety car and four advanced rules.

Importing this package registers the game (:mod:`toprace_pi.core.registry`).
"""

from __future__ import annotations

from typing import Any

from toprace_pi.core.registry import GameEntry, register
from toprace_pi.games.topspeed import records
from toprace_pi.games.topspeed.rules import TopSpeed
from toprace_pi.games.topspeed.settings import VARIANTS


def _new_game(settings: Any, circuit: Any = None, deck: Any = None) -> TopSpeed:
    from toprace_pi.games.topspeed.data import load_circuit, load_deck

    return TopSpeed(settings, circuit or load_circuit(settings.circuit), deck or load_deck(settings.deck))


def _table(setup: Any = None) -> Any:
    from toprace_pi.games.topspeed.table.side import TopSpeedTable

    return TopSpeedTable(setup)


def _search_bot(seed: int, strength: str) -> Any:
    from toprace_pi.games.topspeed.bots.search import search_bot

    return search_bot(seed, strength)


def _no_bot_seats(setup: Any) -> str | None:
    if setup.decks != "virtual":
        return "with [game] decks = \"physical\" each player shuffles their own minicards; a bot needs a virtual deck"
    return None


register(GameEntry(TopSpeed.info, lambda: list(VARIANTS), _new_game, _table, records, _search_bot, _no_bot_seats))
