"""AUTORACE's search bot: the table's search (:mod:`toprace_pi.core.search`) with the
sensible bot laying every seat's cards in each playout."""

from __future__ import annotations

import random

from toprace_pi.core.search import DEFAULT_STRENGTH, SearchBot, Strength
from toprace_pi.games.autorace.bots.sensible import SensibleBot
from toprace_pi.games.autorace.rules.actions import Choose
from toprace_pi.games.autorace.rules.game import Autorace


class SensiblePolicy:
    """The sensible bot's card on the seat's view, its luck (its mixed strategy) drawn from the
    playout's generator, so that the options compared in one world meet the same luck."""

    def __init__(self) -> None:
        self.sensible = SensibleBot(0)

    def __call__(self, world: Autorace, seat: int, rng: random.Random) -> Choose:
        self.sensible.rng = rng
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
    return SearchBot(seed, SensiblePolicy(), strength, score=money)


def money(game: Autorace) -> list[int]:
    return list(game.money)
