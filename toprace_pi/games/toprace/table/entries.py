"""Top Race's inputs that take several scans or presses before they make a rule action.

Each entry takes the table's inputs one at a time (a button, a speed card, a
car token, a pit stop card) and answers with a :data:`~toprace_pi.table.modes.Step`:
nothing yet, a refusal to say, or the actions to apply. :func:`entry_for` picks
the entry a phase needs; the controller knows nothing of their inner steps.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from toprace_pi.games.toprace.rules import Action, Car, CarSet, Deal, Pass, Phase, Sold, TopRace
from toprace_pi.games.toprace.rules.auction import OPENING_BID, STEP
from toprace_pi.games.toprace.rules.events import money
from toprace_pi.games.toprace.rules.variants.pitstop import PIT_STOP_CLAIM, ClaimPitStop
from toprace_pi.games.toprace.rules.variants.stocks import GRID, TRADE, Grid, Trade
from toprace_pi.games.toprace.settings import CLAIM_WINDOW
from toprace_pi.table.modes import Identity, InputMode, Refusal, Step


class Entry(InputMode):
    """Base of Top Race's entries: a tag is a speed card, a car token or a pit stop
    card, and each means nothing unless the entry says otherwise."""

    def tag(self, identity: Identity) -> Step:
        kind, value = identity
        if isinstance(value, Car):
            return self.car(value)
        number = int(value)  # type: ignore[call-overload]
        return self.card(number) if kind == "card" else self.pit(number)

    def card(self, number: int) -> Step:
        return Refusal(f"no speed card is asked for now: {self.prompt}")

    def car(self, car: Car) -> Step:
        return Refusal(f"no car token is asked for now: {self.prompt}")

    def pit(self, seat: int) -> Step:
        return Refusal(f"no pit stop card is asked for now: {self.prompt}")


@dataclass
class SaleEntry(Entry):
    """The result of an auction held aloud: first the winner (NEXT cycles through
    the players who may bid, OK picks), then the price (NEXT adds 10,000, PASS
    takes 10,000 off, OK confirms)."""

    bidders: list[int]
    names: tuple[str, ...]
    number: int = 0
    cursor: int = 0
    winner: int | None = None
    price: int = OPENING_BID

    @classmethod
    def for_game(cls, game: TopRace) -> SaleEntry:
        assert game.auction is not None
        bidders = [s for s in range(game.player_count) if game.auction.may_bid(s)]
        return cls(bidders, game.names, game.auction.number)

    @property
    def prompt(self) -> str:
        if self.winner is None:
            who = self.names[self.bidders[self.cursor]]
            return f"auction {self.number + 1}: who won this auction? {who} (NEXT: another player, OK)"
        return f"auction {self.number + 1}: {self.names[self.winner]} pays {money(self.price)} " \
               "(NEXT +10,000, PASS -10,000, OK)"

    def button(self, name: str) -> Step:
        if name == "next":
            if self.winner is None:
                self.cursor = (self.cursor + 1) % len(self.bidders)
            else:
                self.price += STEP
        elif name == "pass":
            if self.winner is None or self.price <= OPENING_BID:
                return Refusal("the price cannot go lower")
            self.price -= STEP
        elif self.winner is None:
            self.winner = self.bidders[self.cursor]
        else:
            return [Sold(self.winner, self.price)]
        return None


@dataclass
class LayoutEntry(Entry):
    """After a deal by hand: the cards laid out face up (the Pit Stop box, the
    Stocks offer row) are scanned one by one, so the table knows them."""

    box_size: int
    offer_size: int
    fixed_offer: tuple[int, ...]
    box: list[int] = field(default_factory=list)
    offer: list[int] = field(default_factory=list)

    @property
    def prompt(self) -> str:
        if len(self.box) < self.box_size:
            return f"lay the box cards on the reader one by one ({len(self.box)} of {self.box_size})"
        return f"lay the offer row's cards on the reader one by one, not the Sprint/Breakdown cards " \
               f"({len(self.offer)} of {self.offer_size})"

    @classmethod
    def for_game(cls, game: TopRace) -> LayoutEntry:
        box, offer = game.box_size(), game.offer_size()
        fixed = tuple(game.offer_fixed())
        return cls(box, offer - len(fixed), fixed)

    def automatic(self) -> list[Action] | None:
        """Nothing to lay out (the base game dealt by hand): the deal is made at once."""
        deal = self.deal()
        return None if deal is None else [deal]

    def deal(self) -> Deal | None:
        """The deal, once every card laid out is known."""
        if len(self.box) < self.box_size or len(self.offer) < self.offer_size:
            return None
        return Deal(None, box=tuple(sorted(self.box)), offer=tuple(sorted(self.fixed_offer + tuple(self.offer))))

    def card(self, number: int) -> Step:
        if number in self.box or number in self.offer or number in self.fixed_offer:
            return Refusal(f"speed card #{number} is laid out already")
        (self.box if len(self.box) < self.box_size else self.offer).append(number)
        deal = self.deal()
        return None if deal is None else [deal]


@dataclass
class GridEntry(Entry):
    """Stocks: the car cards are shuffled and turned up; each car's token is laid on
    the reader in that order, for starting spaces 1 to 6 (one per car of the edition)."""

    spaces: int
    cars: list[Car] = field(default_factory=list)

    @property
    def prompt(self) -> str:
        return f"turn up the car cards: lay the token of the car for starting space {len(self.cars) + 1}"

    def car(self, car: Car) -> Step:
        if car in self.cars:
            return Refusal(f"{car} is on starting space {self.cars.index(car) + 1} already")
        self.cars.append(car)
        return [Grid(tuple(self.cars))] if len(self.cars) == self.spaces else None

    def button(self, name: str) -> Step:
        if name == "pass" and self.cars:
            self.cars.pop()
            return None
        return super().button(name)


@dataclass
class TradeEntry(Entry):
    """Stocks: a player's stock round, two stocks sold and two bought, each picked by
    laying a car token or with NEXT (the next of ``cars``) and OK; PASS takes a pick back."""

    name: str
    cars: CarSet
    picks: list[Car] = field(default_factory=list)
    cursor: int = 0
    secret = True
    refused = "that trade is not possible: each car's stocks stay within 0 to 15; enter the trade again"

    @property
    def prompt(self) -> str:
        """Says how far the trade has got, never which cars: everyone at the table hears it."""
        verb = "sell" if len(self.picks) < 2 else "buy"
        return f"{self.name}: {verb} a stock ({len(self.picks) % 2 + 1} of 2): lay a car token, or NEXT/OK"

    def car(self, car: Car) -> Step:
        self.picks.append(car)
        return self._done()

    def button(self, name: str) -> Step:
        if name == "next":
            self.cursor = (self.cursor + 1) % len(self.cars)
        elif name == "ok":
            self.picks.append(self.cars[self.cursor])
            return self._done()
        elif self.picks:
            self.picks.pop()
        else:
            return Refusal("nothing to take back in this trade")
        return None

    def _done(self) -> Step:
        if len(self.picks) < 4:
            return None
        picks, self.picks = self.picks, []
        return [Trade(tuple(picks[:2]), tuple(picks[2:]))]


@dataclass
class ClaimWindow(Entry):
    """Pit Stop: after a card is played, players claim it by laying one of their pit
    stop cards on the reader. When the window closes (its time is up, or OK) the
    claimant nearest in turn order gets the card: the game asks the eligible seats
    in that order, so everyone before the winner passes."""

    asked: list[int]
    player: int
    names: tuple[str, ...]
    closes: float
    claimed: set[int] = field(default_factory=set)

    @classmethod
    def for_game(cls, game: TopRace, closes: float) -> ClaimWindow:
        return cls(list(game.claimants), game.turn, game.names, closes)  # type: ignore[attr-defined]

    @property
    def prompt(self) -> str:
        return "pit stop? lay a pit stop card on the reader to claim the card just played (OK: no more claims)"

    def pit(self, seat: int) -> Step:
        if seat == self.player:
            return Refusal(f"{self.names[seat]} cannot claim the card they just played")
        if seat not in self.asked:
            return Refusal(f"{self.names[seat]} cannot make a pit stop now")
        self.claimed.add(seat)
        return None

    def button(self, name: str) -> Step:
        return self._close() if name == "ok" else super().button(name)

    def tick(self, now: float) -> Step:
        return self._close() if now >= self.closes else None

    def time_left(self, now: float) -> float:
        return max(self.closes - now, 0.0)

    def _close(self) -> Step:
        actions: list[Action] = []
        for seat in self.asked:
            if seat in self.claimed:
                return actions + [ClaimPitStop()]
            actions.append(Pass())
        return actions


def entry_for(game: TopRace, now: float, *, dealt_by_hand: bool, claim_window: float = CLAIM_WINDOW) -> Entry | None:
    """The multi-step entry the game's phase needs at the table, if any."""
    if game.phase is Phase.BID:
        return SaleEntry.for_game(game)
    if game.phase is Phase.DEAL and dealt_by_hand:
        return LayoutEntry.for_game(game)
    if game.phase is GRID:
        return GridEntry(len(game.cars))
    if game.phase is TRADE:
        return TradeEntry(game.names[game.seat], game.cars)
    if game.phase is PIT_STOP_CLAIM:
        return ClaimWindow.for_game(game, now + claim_window)
    return None
