"""A bot that takes any action it may: the baseline, and a fuzzer."""

from __future__ import annotations

import random
from typing import Any

from toprace_pi.games.topspeed.rules import Action, parse_action


class RandomBot:
    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any]) -> Action:
        return parse_action(self.rng.choice(view["my_options"]))
