"""The circuit: a loop of spaces with the finish line, and how a car moves on it.

A car's place is its *progress*: the spaces it has gone since the finish line at the start
(the line lies just behind space 0), so its space is ``progress % spaces`` and its lap
``progress // spaces``; race order is by progress, which tells a lapped car from one a lap
ahead on the same stretch. Two cars never share a space.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

#: The fewest spaces a circuit may have: two for each of the most cars, so that the field always
#: finds free spaces and a lapped car is a rare thing.
MIN_SPACES = 16


@dataclass(frozen=True)
class Circuit:
    """A circuit of ``spaces`` spaces (frozen: every game and copy shares it)."""

    name: str
    spaces: int
    #: The Grand Prix's length in laps, as the text gives it (a race's own length is a setting).
    grand_prix_laps: int
    #: Whether the number of spaces is reconstructed, not counted on a real board.
    reconstructed: bool = False
    note: str = ""

    def space(self, progress: int) -> int:
        return progress % self.spaces

    def lap(self, progress: int) -> int:
        return progress // self.spaces

    def ahead(self, start: int, other: int) -> int:
        """How far ``other``'s car is ahead of a car at ``start``, going forward on the track (1 to
        ``spaces - 1``): where the car would reach it, whichever lap either is on."""
        return (other - start) % self.spaces

    def land(self, target: int, others: Iterable[int]) -> int:
        """Where a car bound for ``target`` stops: there, or the first free space behind it."""
        taken = {self.space(p) for p in others}
        while self.space(target) in taken:
            target -= 1
        return target

    def forward(self, start: int, spaces: int, others: Iterable[int], overtaking: bool = True) -> int:
        """Where a car at ``start`` going ``spaces`` forward stops among the cars at ``others``: without
        ``overtaking`` (yellow flags), behind the first car it would pass."""
        others = list(others)
        target = start + spaces
        if not overtaking:
            passed = [gap for gap in (self.ahead(start, p) for p in others) if gap < spaces]
            if passed:
                target = start + min(passed) - 1
        return self.land(target, others)

    def backward(self, start: int, spaces: int, others: Iterable[int]) -> int:
        """Where a car at ``start`` sent ``spaces`` back stops: cars it drops behind never hold it up."""
        return self.land(start - spaces, others)
