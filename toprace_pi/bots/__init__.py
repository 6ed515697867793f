"""Bots that take every decision of a seat: bids, car and starting space, speed
cards, destinations, joker and Sprint/Breakdown.

A bot sees the public state and its own hand only; it never looks at another
seat's cards.
"""

from __future__ import annotations

from typing import Protocol

from toprace_pi.rules.actions import Action
from toprace_pi.rules.game import Game


class Bot(Protocol):
    """Anything that can pick an action for the seat to move."""

    def choose(self, game: Game) -> Action: ...


def make_bot(kind: str, seed: int) -> Bot:
    """A bot by name: ``"random"`` or ``"greedy"``."""
    from toprace_pi.bots.greedy import GreedyBot
    from toprace_pi.bots.random_bot import RandomBot

    kinds = {"random": RandomBot, "greedy": GreedyBot}
    if kind not in kinds:
        raise ValueError(f"unknown bot {kind!r} (one of {', '.join(kinds)})")
    return kinds[kind](seed)


BOT_KINDS = ("random", "greedy")
