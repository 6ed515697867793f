"""Bots that take every decision of a seat: bids, car and starting space, speed
cards, destinations, joker and Sprint/Breakdown.

A bot sees the public state and its own hand only; it never looks at another
seat's cards.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from toprace_pi.games.toprace.rules.actions import Action
from toprace_pi.games.toprace.rules.cars import Car
from toprace_pi.games.toprace.rules.game import Game


class Bot(Protocol):
    """Anything that can pick an action for the seat to move."""

    def choose(self, game: Game) -> Action: ...

    def tip(self, game: Game) -> Car:
        """The car this bot would tip on now (Tips variant), kept secret until revealed."""
        ...


def make_bot(kind: str, seed: int) -> Bot:
    """A bot by name: ``"random"`` or ``"greedy"``."""
    if kind not in _KINDS:
        raise ValueError(f"unknown bot {kind!r} (one of {', '.join(_KINDS)})")
    return _KINDS[kind](seed)


from toprace_pi.games.toprace.bots.greedy import GreedyBot  # noqa: E402  (after Bot: no cycle, kept together)
from toprace_pi.games.toprace.bots.random_bot import RandomBot  # noqa: E402

_KINDS: dict[str, Callable[[int], Bot]] = {"random": RandomBot, "greedy": GreedyBot}
BOT_KINDS = tuple(_KINDS)
