"""A player's turn at the table: NEXT goes through their options, each said aloud, OK takes the
one said, PASS passes.

A NEXT/OK :class:`~toprace_pi.table.modes.Choice` would move its cursor silently (Top Race shows it
on the board); here nothing on the board can show "pass" or "a pit stop", so the turn is an
:class:`~toprace_pi.table.modes.InputMode` whose every NEXT says the option now under the cursor.
The first option is always to draw: OK alone draws.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from toprace_pi.games.topspeed.rules import Action, Pass
from toprace_pi.table.modes import Identity, InputMode, Refusal, Step

#: Why a minicard laid is refused with virtual decks.
VIRTUAL_DECKS = "the table holds the decks (virtual decks): press OK to draw, no minicard is laid"


@dataclass
class Turn(InputMode):
    """The options of ``seat`` with their words, and where the race is (``where``)."""

    who: str
    seat: int
    options: list[Action]
    labels: list[str]
    where: str
    cursor: int = 0
    #: What a minicard laid does (with virtual decks: a refusal).
    laid: Callable[[Identity], Step] = lambda identity: Refusal(VIRTUAL_DECKS)
    #: With physical minicards, how to draw (the draw is a card laid, not an option).
    draw_hint: str = ""

    @property
    def prompt(self) -> str:
        others = " (NEXT for the other choices)" if len(self.options) > 1 else ""
        option = f"{self.labels[self.cursor]}? OK{others}" if self.options else ""
        if self.draw_hint:
            return f"{self.who}, {self.where}: {self.draw_hint}" + (f"; or {option}" if option else "")
        return f"{self.who}, {self.where}: {option}"

    def tag(self, identity: Identity) -> Step:
        return self.laid(identity)

    def button(self, name: str) -> Step:
        if not self.options and name in ("next", "ok"):
            return Refusal(f"{name.upper()} means nothing now: {self.prompt}")
        if name == "next":
            self.cursor = (self.cursor + 1) % len(self.options)
            return None  # the controller says the new prompt: the option now under the cursor
        if name == "ok":
            return [self.options[self.cursor]]
        if name == "pass":
            return [Pass(self.seat)]  # the engine refuses it with its reason before the first draw
        return super().button(name)
