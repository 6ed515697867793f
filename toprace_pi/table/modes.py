"""How the table takes a decision from the inputs, whatever the game.

A decision is either a pick from a short list shown on the board (:class:`Choice`:
NEXT moves the cursor, OK takes the option under it), or an :class:`InputMode` of
several inputs (an auction's result, a trade of stocks, a layout to scan) that
answers each input with a :class:`Step`: nothing yet, a refusal to say, or the
actions to take. The game's table side says which it is at each moment.
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

#: What a tag stands for in the game's vocabulary, e.g. ("card", 17).
Identity = tuple[str, object]


@dataclass(frozen=True)
class Refusal:
    reason: str


#: What an input leads to: nothing yet (``None``), a refusal, or actions to take in order.
Step = list[Any] | Refusal | None


@dataclass
class Choice:
    """A list of actions with a cursor; ``say`` says one in words. Only the option under the
    cursor is said aloud, so the others are worded when a screen asks for them all (``labels``)."""

    options: list[Any]
    say: Callable[[Any], str]
    cursor: int = 0

    @property
    def current(self) -> Any:
        return self.options[self.cursor]

    @property
    def label(self) -> str:
        """The option under the cursor, in words."""
        return self.say(self.options[self.cursor])

    @functools.cached_property
    def labels(self) -> list[str]:
        """Every option, in words."""
        return [self.say(option) for option in self.options]

    def next(self) -> None:
        self.cursor = (self.cursor + 1) % len(self.options)


class InputMode(ABC):
    """A decision that takes several inputs. Every input means nothing unless the
    mode says otherwise; each answers with a :data:`Step`."""

    @property
    @abstractmethod
    def prompt(self) -> str:
        """What the mode waits for, in words."""

    def tag(self, identity: Identity) -> Step:
        return Refusal(f"that is not asked for now: {self.prompt}")

    def button(self, name: str) -> Step:
        return Refusal(f"{name.upper()} means nothing now: {self.prompt}")

    def tick(self, now: float) -> Step:
        """Time passes (a window for claims may close)."""
        return None

    def time_left(self, now: float) -> float | None:
        """Seconds until the mode closes by itself (``None``: it waits for its inputs), so a screen can
        count down and the table can warn before it closes."""
        return None

    def automatic(self) -> Sequence[Any] | None:
        """The actions due without any input (a deal by hand with nothing to scan, the reveal
        once every sealed card is laid), if any."""
        return None

    #: What the actions of :meth:`automatic` are called, when the disk refuses them.
    due = "the deal"

    #: Whether what is entered here is a player's secret: the table then never says
    #: what was picked, and a refusal says only :attr:`refused`, the rule itself.
    secret = False
    refused = "that is not possible"
