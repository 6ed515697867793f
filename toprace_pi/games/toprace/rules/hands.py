"""Cards the table knows are in a hand it cannot see.

When the speed cards are dealt by hand at a real table the engine does not see
the hands (``TopRace.hands`` is ``None``), but a card that reaches a hand face up
(taken from the Stocks offer row, or by a Pit Stop) is known to be there until
it is played: nobody else may play it, and a player whose other cards are all
played may play only those. The Stocks variant and the Pit Stop rule (and the
two combined) keep that record in one :class:`KnownCards`.
"""

from __future__ import annotations


class KnownCards:
    """Per seat, the cards known to be in its hidden hand, in the order they came."""

    def __init__(self, player_count: int) -> None:
        self.by_seat: list[list[int]] = [[] for _ in range(player_count)]

    def add(self, seat: int, number: int) -> None:
        self.by_seat[seat].append(number)

    def played(self, seat: int, number: int) -> None:
        """``seat`` played ``number``: it is no longer known to be in the hand (if it was)."""
        if number in self.by_seat[seat]:
            self.by_seat[seat].remove(number)

    def of(self, seat: int) -> list[int]:
        return list(self.by_seat[seat])

    def holds(self, seat: int, number: int) -> bool:
        return number in self.by_seat[seat]

    def elsewhere(self, seat: int) -> set[int]:
        """The cards known to be in the other seats' hands."""
        return {n for other, cards in enumerate(self.by_seat) if other != seat for n in cards}

    def unknown(self, seat: int, hand_size: int) -> int:
        """How many of the ``hand_size`` cards of ``seat`` are not known."""
        return hand_size - len(self.by_seat[seat])
