"""TOP SPEED's search bot: the table's search (:mod:`toprace_pi.core.search`) with the
sensible bot, a little random, driving every car of each playout."""

from __future__ import annotations

import random

from toprace_pi.core.search import DEFAULT_STRENGTH, SearchBot, Strength
from toprace_pi.games.topspeed.bots.sensible import SensibleBot
from toprace_pi.games.topspeed.rules import Action
from toprace_pi.games.topspeed.rules.game import TopSpeed

#: How often a car of a playout takes any action it may instead of the sensible one.
RANDOMNESS = 0.1


class SensiblePolicy:
    """The playouts' drivers: the sensible bot on the seat's view, now and then any action."""

    def __init__(self) -> None:
        self.sensible = SensibleBot(0)

    def __call__(self, world: TopSpeed, seat: int, rng: random.Random) -> Action:
        if rng.random() < RANDOMNESS:
            return rng.choice(world.options(seat))
        self.sensible.rng = rng  # the playout's luck, the same for every option compared
        return self.sensible.choose(world.view(seat))


def search_bot(seed: int | None, strength: Strength | str = DEFAULT_STRENGTH) -> SearchBot:
    """A search bot for TOP SPEED, of ``strength`` (see :data:`~toprace_pi.core.search.STRENGTHS`)."""
    return SearchBot(seed, SensiblePolicy(), sensible_choice, strength, score=progress)


def sensible_choice(world: TopSpeed, seat: int, rng: random.Random) -> Action:
    """The sensible bot's choice, its own luck drawn from ``rng``."""
    bot = SensibleBot()
    bot.rng = rng
    return bot.choose(world.view(seat))


def progress(game: TopSpeed) -> list[int]:
    """How far each car has gone: the race's order."""
    return list(game.progress)
