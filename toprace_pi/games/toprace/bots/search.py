"""Top Race's search bot: the table's search (:mod:`toprace_pi.core.search`) with the
greedy bot, a little random, playing every seat of each playout."""

from __future__ import annotations

import random

from toprace_pi.core.search import DEFAULT_STRENGTH, SearchBot, Strength
from toprace_pi.games.toprace.bots.greedy import GreedyBot
from toprace_pi.games.toprace.rules.actions import Action
from toprace_pi.games.toprace.rules.cars import Car
from toprace_pi.games.toprace.rules.game import Game

#: How often a seat of a playout takes a random action instead of the greedy one:
#: the worlds' players are not all the greedy bot, and its one line of play would
#: judge an action by a single answer to it.
RANDOMNESS = 0.0


class GreedyPolicy:
    """The playouts' players: the greedy bot, and now and then any legal action."""

    def __init__(self) -> None:
        self.greedy = GreedyBot(0)

    def __call__(self, world: Game, seat: int, rng: random.Random) -> Action:
        if rng.random() < RANDOMNESS:
            return rng.choice(world.legal_actions())
        self.greedy.rng = rng  # the playout's luck, the same for every option compared
        return self.greedy.choose(world)


class TopRaceSearchBot(SearchBot):
    """The search bot as Top Race's bots are: it also notes a tip on its marker when asked
    outside the game's own decisions (the Tips variant with markers): the greedy one."""

    def tip(self, game: Game) -> Car:
        return GreedyBot().tip(game)


def search_bot(seed: int | None, strength: Strength | str = DEFAULT_STRENGTH) -> TopRaceSearchBot:
    """A search bot for Top Race, of ``strength`` (see :data:`~toprace_pi.core.search.STRENGTHS`)."""
    return TopRaceSearchBot(seed, GreedyPolicy(), greedy_choice, strength, score=money)


def greedy_choice(world: Game, seat: int, rng: random.Random) -> Action:
    """The greedy bot's choice, its own luck (in its bids) drawn from ``rng``."""
    bot = GreedyBot()
    bot.rng = rng
    return bot.choose(world)


def money(game: Game) -> list[int]:
    return list(game.money)
