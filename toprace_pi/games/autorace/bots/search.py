"""AUTORACE's search bot: the table's search (:mod:`toprace_pi.core.search`) with the
sensible bot, a little random, laying every seat's cards in each playout."""

from __future__ import annotations

import random

from toprace_pi.core.search import DEFAULT_STRENGTH, SearchBot, Strength
from toprace_pi.games.autorace.bots.sensible import SensibleBot
from toprace_pi.games.autorace.rules.actions import Choose
from toprace_pi.games.autorace.rules.game import Autorace

#: How often a seat of a playout lays any card it may instead of the sensible one.
RANDOMNESS = 0.1


class SensiblePolicy:
    """The playouts' players: the sensible bot on the seat's view, now and then any card."""

    def __init__(self) -> None:
        self.sensible = SensibleBot(0)

    def __call__(self, world: Autorace, seat: int, rng: random.Random) -> Choose:
        if rng.random() < RANDOMNESS:
            return Choose(seat, rng.choice(world.options(seat)))
        self.sensible.rng = rng  # the playout's luck, the same for every option compared
        return Choose(seat, self.sensible.choose(world.view(seat)))


class CardSearchBot:
    """The search bot as AUTORACE's bots are: it answers with the card to lay."""

    SEES_GAME = True

    def __init__(self, seed: int | None, strength: Strength | str = DEFAULT_STRENGTH) -> None:
        self.search = action_search_bot(seed, strength)

    def choose(self, seen: Autorace) -> int:
        return int(self.search.choose(seen).card)

    @property
    def last_playouts(self) -> int:
        return self.search.last_playouts


def search_bot(seed: int | None, strength: Strength | str = DEFAULT_STRENGTH) -> CardSearchBot:
    """A search bot for AUTORACE, of ``strength`` (see :data:`~toprace_pi.core.search.STRENGTHS`)."""
    return CardSearchBot(seed, strength)


def action_search_bot(seed: int | None, strength: Strength | str = DEFAULT_STRENGTH) -> SearchBot:
    """The same search, answering with the action (``choose 2 7``): for a seat the table plays itself."""
    return SearchBot(seed, SensiblePolicy(), sensible_choice, strength, score=money)


def sensible_choice(world: Autorace, seat: int, rng: random.Random) -> Choose:
    """The sensible bot's card, its own luck (its mixed strategy) drawn from ``rng``."""
    bot = SensibleBot()
    bot.rng = rng
    return Choose(seat, bot.choose(world.view(seat)))


def money(game: Autorace) -> list[int]:
    return list(game.money)
