"""TOP SPEED's search bot: the table's search (:mod:`toprace_pi.core.search`) with the
sensible bot driving every car of each playout."""

from __future__ import annotations

import random
from collections.abc import Callable

from toprace_pi.core.search import DEFAULT_STRENGTH, SearchBot, Strength
from toprace_pi.games.topspeed.bots.sensible import ViewFacts, WorldFacts, draw_odds, sensible_choice
from toprace_pi.games.topspeed.rules.actions import SeatAction
from toprace_pi.games.topspeed.rules.game import TopSpeed

#: A playout's rounds after the one being played (``None``: to the race's end).
ROUNDS_AHEAD: int | None = 2


#: TOP SPEED's search overrules the sensible bot only at two standard errors.
CONFIDENCE = 2.0


def sensible_policy(world: TopSpeed, seat: int, rng: random.Random) -> SeatAction:
    """The sensible bot's choice, read off the world (:class:`WorldFacts`: the same as on the seat's
    view, without making the view); the sensible bot draws no luck."""
    return sensible_choice(WorldFacts(world, seat))


def search_bot(seed: int | None, strength: Strength | str = DEFAULT_STRENGTH, *,
               rounds: int | None = ROUNDS_AHEAD, confidence: float = CONFIDENCE,
               settle: bool = True) -> SearchBot:
    """A search bot for TOP SPEED, of ``strength`` (see :data:`~toprace_pi.core.search.STRENGTHS`)."""
    return SearchBot(seed, sensible_policy, strength, score=progress,
                     horizon=None if rounds is None else rounds_ahead(rounds),
                     settled=riskless if settle else None, confidence=confidence)


def riskless(seen: TopSpeed, seat: int) -> bool:
    """A draw or a pass where no card the deck can hold would pair with the row: the draw risks
    nothing (the sensible bot draws)."""
    facts = ViewFacts(seen.view(seat))
    return "draw" in facts.options and "pass" in facts.options and draw_odds(facts)[1] == 0


def rounds_ahead(rounds: int) -> Callable[[TopSpeed], Callable[[TopSpeed], bool]]:
    """Far enough: once ``rounds`` more rounds have begun (their movements made)."""
    def horizon(start: TopSpeed) -> Callable[[TopSpeed], bool]:
        last = start.round + rounds
        return lambda world: world.round > last
    return horizon


def progress(game: TopSpeed) -> list[int]:
    """How far each car has gone: the race's order."""
    return list(game.progress)
