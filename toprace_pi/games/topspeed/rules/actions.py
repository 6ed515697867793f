"""TOP SPEED's actions, with their journal notation.

A seat's action names the seat (``draw 2``); chance's are the starting order and each
deck's shuffle, named by the index of their outcome (``start order 5``, ``shuffle 2 …``):
the shuffle's cards are those of the seat's deck in a known order, so the index tells
the new order, and the log (hidden from the seats) rebuilds it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TypeVar

from toprace_pi.errors import NotationError


@dataclass(frozen=True, slots=True)
class Draw:
    """``seat`` draws the top card of its deck into its row (under the safety car: draws and discards it)."""

    seat: int

    def __str__(self) -> str:
        return f"draw {self.seat}"


@dataclass(frozen=True, slots=True)
class Pass:
    """``seat`` ends its round with the cards it has drawn."""

    seat: int

    def __str__(self) -> str:
        return f"pass {self.seat}"


@dataclass(frozen=True, slots=True)
class PitStop:
    """``seat`` declares a pit stop before drawing: all its cards make a new deck."""

    seat: int

    def __str__(self) -> str:
        return f"pit stop {self.seat}"


@dataclass(frozen=True, slots=True)
class Keep:
    """KERS: ``seat`` keeps the green card it has just drawn apart, for a later round."""

    seat: int

    def __str__(self) -> str:
        return f"keep {self.seat}"


@dataclass(frozen=True, slots=True)
class Leave:
    """KERS: ``seat`` leaves the green card it has just drawn in its row."""

    seat: int

    def __str__(self) -> str:
        return f"leave {self.seat}"


@dataclass(frozen=True, slots=True)
class UseKept:
    """KERS: ``seat`` lays the card it kept apart in its row, instead of drawing."""

    seat: int

    def __str__(self) -> str:
        return f"use kept {self.seat}"


@dataclass(frozen=True, slots=True)
class SitOut:
    """Qualifying: ``seat`` makes no lap this qualifying round."""

    seat: int

    def __str__(self) -> str:
        return f"sit out {self.seat}"


@dataclass(frozen=True, slots=True)
class StartOrder:
    """Chance: the starting order, the ``index``-th of those possible (every order, or the ties of
    the qualifying broken)."""

    index: int

    def __str__(self) -> str:
        return f"start order {self.index}"


@dataclass(frozen=True, slots=True)
class Shuffle:
    """Chance: ``seat``'s deck shuffled (by its right-hand neighbour, and cut by its owner) into the
    ``index``-th ordering of its cards."""

    seat: int
    index: int

    def __str__(self) -> str:
        return f"shuffle {self.seat} {self.index}"


@dataclass(frozen=True, slots=True)
class HiddenShuffle:
    """Chance: ``seat``'s deck shuffled by hand, its order known to nobody (physical minicards): each
    draw from it then names the card that came up (:class:`DrawCard`)."""

    seat: int

    def __str__(self) -> str:
        return f"hidden shuffle {self.seat}"


@dataclass(frozen=True, slots=True)
class DrawCard:
    """``seat`` draws from a deck shuffled by hand and the card that came up is ``word`` (``"3"``,
    ``"yellow_flag"``): what a reader took of the minicard laid."""

    seat: int
    word: str

    def __str__(self) -> str:
        return f"draw card {self.word} {self.seat}"


SeatAction = Draw | DrawCard | Pass | PitStop | Keep | Leave | UseKept | SitOut
Action = SeatAction | StartOrder | Shuffle | HiddenShuffle
#: The actions that name only a seat.
OneSeat = Draw | Pass | PitStop | Keep | Leave | UseKept | SitOut
_SEAT_ACTIONS: dict[str, type[OneSeat]] = {
    "draw": Draw, "pass": Pass, "pit stop": PitStop, "keep": Keep, "leave": Leave, "use kept": UseKept,
    "sit out": SitOut}


K = TypeVar("K", bound=OneSeat)


@cache
def seat_action(kind: type[K], seat: int) -> K:
    """``kind(seat)``, made once (an action is an immutable value): a seat's options are listed at
    every step of a playout."""
    return kind(seat)


def parse_action(text: str) -> Action:
    """An action from its notation; a :class:`NotationError` for anything else."""
    words = text.split()
    cut = len(words)
    while cut and words[cut - 1].isascii() and words[cut - 1].isdigit():
        cut -= 1
    name = " ".join(words[:cut])
    try:
        numbers = [int(w) for w in words[cut:]]
    except ValueError:  # a number of more than 4300 digits
        numbers = []
    if name in _SEAT_ACTIONS and len(numbers) == 1:
        return _SEAT_ACTIONS[name](numbers[0])
    if name == "hidden shuffle" and len(numbers) == 1:
        return HiddenShuffle(numbers[0])
    if name == "draw card" and len(numbers) == 2:  # a movement card: "draw card 3 1"
        return DrawCard(numbers[1], str(numbers[0]))
    if name.startswith("draw card ") and len(numbers) == 1:
        return DrawCard(numbers[0], name.removeprefix("draw card "))
    if name == "start order" and len(numbers) == 1:
        return StartOrder(numbers[0])
    if name == "shuffle" and len(numbers) == 2:
        return Shuffle(numbers[0], numbers[1])
    raise NotationError(f"not a TOP SPEED action: {text!r} (e.g. 'draw 1', 'pass 1', 'pit stop 1', 'keep 1', "
                        "'leave 1', 'use kept 1', 'sit out 1', 'start order 5', 'shuffle 1 12345', 'hidden shuffle 1', "
                        "'draw card yellow_flag 1')")
