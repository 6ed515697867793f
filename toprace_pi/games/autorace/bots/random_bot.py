"""A bot that lays any card it may: the baseline, and a fuzzer."""

from __future__ import annotations

import random
from typing import Any


class RandomBot:
    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any]) -> int:
        return int(self.rng.choice(view["my_options"]))
