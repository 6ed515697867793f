"""The six car auctions before a race: who may bid, who opens, who must buy.

Money is not moved here; the game does that when an auction is won. Where the
rulebook is silent, a player may not bid more money than they have, except that
a forced opening bid of 10,000 and the forced purchase of the last car are paid
even into debt.
"""

from __future__ import annotations

from collections.abc import Sequence

from toprace_pi.errors import IllegalActionError

#: Bids and prices go up in the smallest banknote (tip amounts are whole banknotes too).
STEP = 10_000
OPENING_BID = STEP
LAST_CAR_PRICE = 30_000
AUCTIONS = 6


class Auction:
    """One round of six auctions. ``owned[seat]`` counts the lots each seat has won.

    A *lot* is what one auction sells: here a car; in the Stocks variant's
    :class:`~toprace_pi.games.toprace.rules.variants.stocks.OfferAuction` an offer card."""

    #: Lists of numbers and flags only: a clone copies them in one go.
    CLONE_SHALLOW = ("owned", "bidding")

    def __init__(self, player_count: int, opener: int, *, rotate_openers: bool = False) -> None:
        self.player_count = player_count
        self.first_opener = opener
        #: The quick rules: the opening duty moves one seat on each auction, rather
        #: than to the left of the last winner.
        self.rotate_openers = rotate_openers
        self.owned = [0] * player_count
        self.number = 0
        self.first_winner: int | None = None
        self._begin(opener)

    @property
    def lots_left(self) -> int:
        """Lots (cars) still to be auctioned, the one now up included."""
        return AUCTIONS - self.number

    def may_bid(self, seat: int) -> bool:
        """A seat with a car may bid only while more cars are left than seats without one."""
        without = self.owned.count(0)
        return self.owned[seat] == 0 or self.lots_left > without

    def _begin(self, candidate: int) -> None:
        self.high = 0
        self.leader: int | None = None
        self.winner: int | None = None
        self.forced = False
        buyers = [s for s in range(self.player_count) if self.owned[s] == 0]
        if self.lots_left == 1 and buyers:
            self.winner, self.high, self.forced = buyers[0], LAST_CAR_PRICE, True
            self.bidding = [False] * self.player_count
            self.to_act = buyers[0]
            return
        if not self.may_bid(candidate):
            candidate = next(s for s in self._clockwise(candidate) if self.owned[s] == 0)
        self.opener = self.to_act = candidate
        self.bidding = [self.may_bid(s) for s in range(self.player_count)]

    def _clockwise(self, seat: int) -> list[int]:
        return [(seat + i) % self.player_count for i in range(1, self.player_count + 1)]

    def bid_range(self, money: Sequence[int]) -> range:
        """The amounts the seat to act may bid now (possibly none)."""
        if self.leader is None:
            return range(OPENING_BID, max(OPENING_BID, money[self.to_act]) + 1, STEP)
        return range(self.high + STEP, money[self.to_act] + 1, STEP)

    def may_pass(self) -> bool:
        return self.leader is not None

    def check_bid(self, amount: int, money: Sequence[int], name: str) -> None:
        if amount % STEP or amount <= 0:
            raise IllegalActionError(f"bids go in steps of {STEP:,}; {amount:,} is not one")
        allowed = self.bid_range(money)
        if self.leader is None and amount < OPENING_BID:
            raise IllegalActionError(f"the opening bid must be at least {OPENING_BID:,}")
        if amount not in allowed:
            if amount <= self.high:
                raise IllegalActionError(f"{name} must bid more than the {self.high:,} already bid")
            raise IllegalActionError(f"{name} has only {money[self.to_act]:,} and cannot bid {amount:,}")

    def check_sale(self, seat: int, price: int, money: Sequence[int], name: str) -> None:
        """A result announced at the table must be one the bidding could have had."""
        if not 0 <= seat < self.player_count:
            raise IllegalActionError(f"there is no seat {seat}")
        if not self.may_bid(seat):
            raise IllegalActionError(f"{name} already has a car and may not bid while other players still need one")
        if price % STEP or price < OPENING_BID:
            raise IllegalActionError(f"a car sells for a multiple of {STEP:,}, at least {OPENING_BID:,}; not {price:,}")
        if price > max(money[seat], OPENING_BID if seat == self.opener else 0):
            raise IllegalActionError(f"{name} has only {money[seat]:,} and cannot pay {price:,}")

    def sell(self, seat: int, price: int) -> None:
        self.high, self.leader, self.winner = price, seat, seat

    def bid(self, amount: int) -> None:
        self.high, self.leader = amount, self.to_act
        self._next_bidder()

    def pass_(self) -> None:
        self.bidding[self.to_act] = False
        self._next_bidder()

    def _next_bidder(self) -> None:
        others = [s for s in range(self.player_count) if self.bidding[s] and s != self.leader]
        if not others:
            self.winner = self.leader
            return
        self.to_act = next(s for s in self._clockwise(self.to_act) if self.bidding[s])

    def lot_taken(self) -> None:
        """The winner has taken the lot (a car): record it and open the next auction, if any."""
        winner = self._record_win()
        if self.number < AUCTIONS:
            after = self.first_opener + self.number - 1 if self.rotate_openers else winner
            self._begin((after + 1) % self.player_count)

    def _record_win(self) -> int:
        """Count the auction just won for its winner, and return the winner."""
        assert self.winner is not None
        winner = self.winner
        self.owned[winner] += 1
        if self.first_winner is None:
            self.first_winner = winner
        self.number += 1
        return winner

    @property
    def done(self) -> bool:
        return self.number == AUCTIONS
