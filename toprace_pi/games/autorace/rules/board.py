"""The AUTORACE board and card sets: numbers the rules give, as one value loaded from data."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from toprace_pi.core.colour import RGB

#: The stop card, kept in hand when played; in notation and events the card ``0``.
BANNER = 0


@dataclass(frozen=True)
class Suit:
    """One player's card set and figure: its colour."""

    id: str
    name: str
    rgb: RGB


@dataclass(frozen=True)
class Board:
    """The track 0..``finish``, its filling stations and objectives, and the game's numbers
    (frozen: every copy of a game shares it)."""

    name: str
    finish: int
    stations: frozenset[int]
    #: Objective space -> its bonus, as printed.
    bonuses: dict[int, int]
    start_capital: int
    #: The highest number card of each set (cards 1 to this).
    highest_card: int
    #: A card above this, when it is the highest of the round, pays its value less this.
    speed_limit: int
    #: Each player drawing at a station pays this times the number drawing there.
    draw_cost: int
    #: The card sets, one per player, in seat order.
    suits: tuple[Suit, ...]
    #: Whether part of it (the suits' colours) is reconstructed, not read from a real box.
    reconstructed: bool = False
    note: str = ""

    @cached_property
    def numbers(self) -> tuple[int, ...]:
        """The number cards of a set, 1 to :attr:`highest_card` (made once: each card laid is checked against them)."""
        return tuple(range(1, self.highest_card + 1))

    @property
    def objectives(self) -> tuple[int, ...]:
        return tuple(sorted(self.bonuses))

    def next_objective(self, space: int, paid: set[int] | frozenset[int]) -> int | None:
        """The first objective beyond ``space`` whose bonus is not yet paid."""
        return next((s for s in self.objectives if s > space and s not in paid), None)
