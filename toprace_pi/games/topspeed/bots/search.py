"""TOP SPEED's search bot: the table's search (:mod:`toprace_pi.core.search`) with the
sensible bot driving every car of each playout."""

from __future__ import annotations

import random
from collections.abc import Callable

from toprace_pi.core.search import DEFAULT_STRENGTH, SearchBot, Strength
from toprace_pi.games.topspeed.bots.sensible import SensibleBot
from toprace_pi.games.topspeed.rules import Action
from toprace_pi.games.topspeed.rules.game import TopSpeed

#: A playout's rounds after the one being played: a whole race of ten laps would drown a draw's
#: worth in the luck of the laps after it; the cars' distances a few rounds on tell it.
ROUNDS_AHEAD = 2


#: TOP SPEED's search overrules the sensible bot only at two standard errors: at one it won 12.5% of
#: 24 races against three sensible bots, at two 20.8% (``benchmarks/bench_bots.py --only topspeed``).
CONFIDENCE = 2.0


class SensiblePolicy:
    """The sensible bot's choice on the seat's view, its luck drawn from the playout's generator."""

    def __init__(self) -> None:
        self.sensible = SensibleBot(0)

    def __call__(self, world: TopSpeed, seat: int, rng: random.Random) -> Action:
        self.sensible.rng = rng
        return self.sensible.choose(world.view(seat))


def search_bot(seed: int | None, strength: Strength | str = DEFAULT_STRENGTH) -> SearchBot:
    """A search bot for TOP SPEED, of ``strength`` (see :data:`~toprace_pi.core.search.STRENGTHS`)."""
    return SearchBot(seed, SensiblePolicy(), strength, score=progress, horizon=rounds_ahead, confidence=CONFIDENCE)


def rounds_ahead(start: TopSpeed) -> Callable[[TopSpeed], bool]:
    """Far enough: once :data:`ROUNDS_AHEAD` more rounds have begun (their movements made)."""
    last = start.round + ROUNDS_AHEAD
    return lambda world: world.round > last


def progress(game: TopSpeed) -> list[int]:
    """How far each car has gone: the race's order."""
    return list(game.progress)
