"""A bot that picks uniformly among the legal actions: the baseline, and a fuzzer."""

from __future__ import annotations

import random

from toprace_pi.games.toprace.rules.actions import Action
from toprace_pi.games.toprace.rules.cars import Car
from toprace_pi.games.toprace.rules.game import TopRace


class RandomBot:
    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def __repr__(self) -> str:
        return "RandomBot()"

    def choose(self, game: TopRace) -> Action:
        return self.rng.choice(game.legal_actions())

    def tip(self, game: TopRace) -> Car:
        """A tip on any car (Tips variant)."""
        return self.rng.choice(game.cars)
