"""Bots that take every decision of a seat: bids, car and starting space, speed
cards, destinations, joker and Sprint/Breakdown.

A bot sees the public state and its own hand only; it never looks at another
seat's cards.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from toprace_pi.core.bots import make_bot as find_bot
from toprace_pi.games.toprace.rules.actions import Action
from toprace_pi.games.toprace.rules.cars import Car
from toprace_pi.games.toprace.rules.game import TopRace


class Bot(Protocol):
    """Anything that can pick an action for the seat to move."""

    def choose(self, game: TopRace) -> Action: ...

    def tip(self, game: TopRace) -> Car:
        """The car this bot would tip on now (Tips variant), kept secret until revealed."""
        ...


def make_bot(kind: str, seed: int, strength: str | None = None) -> Bot:
    """A bot by name (one of :data:`BOT_KINDS`); ``strength`` is the search bot's."""
    return find_bot(_KINDS, kind, seed, strength)


from toprace_pi.games.toprace.bots.greedy import GreedyBot  # noqa: E402  (after Bot: no cycle, kept together)
from toprace_pi.games.toprace.bots.random_bot import RandomBot  # noqa: E402
from toprace_pi.games.toprace.bots.search import search_bot  # noqa: E402

_KINDS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "greedy": GreedyBot, "search": search_bot}
BOT_KINDS = tuple(_KINDS)
#: The bots that decide at once (no search): what the property tests play thousands of games with.
SIMPLE_KINDS = ("random", "greedy")
