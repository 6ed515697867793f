"""The table's own chance steps: with virtual decks nobody shuffles cards, so the table makes
each shuffle and the starting order itself, at a real table as in the demo.

An outcome is picked uniformly from all those the engine lists (72! orders of a deck) with a
secure random source (:func:`secrets.randbelow`, the operating system's): a journal shows
every past shuffle, so a seeded generator would let someone who read one predict the next.
The demo passes its own seeded source, so a demo game can be played again.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from toprace_pi.games.topspeed.rules import Action, HiddenShuffle, TopSpeed
from toprace_pi.games.topspeed.rules.game import GRID
from toprace_pi.table.modes import InputMode

#: A random whole number from 0 to below its argument.
Below = Callable[[int], int]


def secure_below(total: int) -> int:
    """From the operating system's source, looked up at each call."""
    return secrets.randbelow(total)


def chance_step(game: TopSpeed, below: Below = secure_below) -> Action:
    """The outcome of the chance decision now (a shuffle, the starting order), picked by ``below``."""
    outcomes = game.chance_outcomes()
    return outcomes[below(outcomes.total)]


@dataclass
class TableShuffles(InputMode):
    """The chance steps due now: no input means anything, the table makes them by itself."""

    game: TopSpeed
    below: Below = secure_below
    #: Physical minicards: the players shuffle their decks by hand (the table only draws the grid).
    by_hand: bool = False
    due = "the table's shuffle"

    @property
    def prompt(self) -> str:
        step = self.game.chance_queue[0]
        if step == GRID:
            return "the table draws the starting order"
        return f"the table shuffles {self.game.names[step]}'s deck"

    def automatic(self) -> Sequence[Action] | None:
        step = self.game.chance_queue[0]
        if self.by_hand and step != GRID:
            return [HiddenShuffle(step)]
        return [chance_step(self.game, self.below)]
