"""Top Race's search bot: the table's search (:mod:`toprace_pi.core.search`) with the
greedy bot playing every seat of each playout."""

from __future__ import annotations

import random

from toprace_pi.core.search import DEFAULT_STRENGTH, SearchBot, Strength
from toprace_pi.games.toprace.bots.greedy import GreedyBot
from toprace_pi.games.toprace.rules.actions import Action
from toprace_pi.games.toprace.rules.cars import Car
from toprace_pi.games.toprace.rules.game import TopRace


class GreedyPolicy:
    """The greedy bot's choice, its luck (in its bids) drawn from the playout's generator, so
    that the options compared in one world meet the same luck."""

    def __init__(self) -> None:
        self.greedy = GreedyBot(0)

    def __call__(self, world: TopRace, seat: int, rng: random.Random) -> Action:
        self.greedy.rng = rng
        return self.greedy.choose(world)


class TopRaceSearchBot(SearchBot):
    """The search bot as Top Race's bots are: it also notes a tip on its marker when asked
    outside the game's own decisions (the Tips variant with markers): the greedy one."""

    def tip(self, game: TopRace) -> Car:
        return GreedyBot().tip(game)


def search_bot(seed: int | None, strength: Strength | str = DEFAULT_STRENGTH) -> TopRaceSearchBot:
    """A search bot for Top Race, of ``strength`` (see :data:`~toprace_pi.core.search.STRENGTHS`)."""
    return TopRaceSearchBot(seed, GreedyPolicy(), strength, score=money)


def money(game: TopRace) -> list[int]:
    return list(game.money)
