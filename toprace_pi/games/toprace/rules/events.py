"""What happened: the engine's record of consequences, for reports and announcements.

Actions are what players decide; events are what follows (a car finishing, prize
money paid, movement forfeited). Each event can say itself in words, given the
players' names.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from toprace_pi.games.toprace.rules.cars import Car

PRIZES = (200_000, 150_000, 100_000, 60_000, 30_000, 10_000)
#: Stocks variant: stocks sold, and bought, by each player in a stock round (here
#: because :class:`StockRound` says it; the variant imports it from here).
TRADE_SIZE = 2
T = TypeVar("T")


def money(amount: int) -> str:
    """Top Race Euro with thousands separators, as players say it."""
    return f"{amount:,}"


@dataclass(frozen=True, slots=True)
class RaceStarted:
    race: int
    opener: int

    def text(self, names: Sequence[str]) -> str:
        return f"Race {self.race}: speed cards dealt; {names[self.opener]} opens the first auction"


@dataclass(frozen=True, slots=True)
class AuctionWon:
    seat: int
    price: int
    forced: bool

    def text(self, names: Sequence[str]) -> str:
        how = "must buy the last car for" if self.forced else "wins the auction for"
        return f"{names[self.seat]} {how} {money(self.price)}"


@dataclass(frozen=True, slots=True)
class CarPlaced:
    seat: int
    car: Car
    start: int

    def text(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} takes {self.car} and puts it on starting space {self.start}"


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: int
    card: str

    def text(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} plays {self.card}"


@dataclass(frozen=True, slots=True)
class CarMoved:
    car: Car
    frm: str
    to: str
    steps: int
    points: int | None

    def text(self, names: Sequence[str]) -> str:
        """``Yellow moves 6 spaces: a9 -> a11``: the spaces counted are said, as the ids need not differ
        by as many (a lane change, a curve's narrowing); a sprint ends level with a car, not by a count."""
        lost = f" ({self.points - self.steps} forfeited, blocked)" if self.points and self.steps < self.points else ""
        how = "sprints" if self.points is None else f"moves {self.steps} space{'' if self.steps == 1 else 's'}"
        return f"{self.car} {how}: {self.frm} -> {self.to}{lost}"


@dataclass(frozen=True, slots=True)
class Forfeited:
    car: Car | None
    points: int
    reason: str

    def text(self, names: Sequence[str]) -> str:
        who = "the joker" if self.car is None else str(self.car)
        return f"{who}: {self.points} forfeited ({self.reason})"


@dataclass(frozen=True, slots=True)
class JokerChosen:
    car: Car

    def text(self, names: Sequence[str]) -> str:
        return f"joker moves {self.car}"


@dataclass(frozen=True, slots=True)
class BrokeDown:
    car: Car
    waits_for: Car

    def text(self, names: Sequence[str]) -> str:
        return f"{self.car} breaks down and waits beside the track for {self.waits_for}"


@dataclass(frozen=True, slots=True)
class CarReturned:
    car: Car
    to: str

    def text(self, names: Sequence[str]) -> str:
        return f"{self.car} is back on the track at {self.to}"


@dataclass(frozen=True, slots=True)
class CarFinished:
    car: Car
    place: int
    seat: int | None
    prize: int

    def text(self, names: Sequence[str]) -> str:
        owner = f": {money(self.prize)} to {names[self.seat]}" if self.seat is not None else ""
        return f"{self.car} finishes {ordinal(self.place)}{owner}"


@dataclass(frozen=True, slots=True)
class RaceEnded:
    race: int
    placements: tuple[Car, ...]
    payouts: tuple[int, ...]
    reason: str

    def text(self, names: Sequence[str]) -> str:
        order = ", ".join(f"{ordinal(i)} {car}" for i, car in enumerate(self.placements, 1))
        return f"Race {self.race} over ({self.reason}): {order}"

    def prize_money(self, names: Sequence[str]) -> str:
        """Who won prize money with their cars, and how much: ``""`` when no car had an owner (the Stocks
        variant, whose cars pay through their stocks), so that no line of zeros follows the stocks' payouts."""
        return ", ".join(f"{name} {money(paid)}" for name, paid in zip(names, self.payouts, strict=True) if paid)


@dataclass(frozen=True, slots=True)
class GameEnded:
    money: tuple[int, ...]
    winners: tuple[int, ...]

    def text(self, names: Sequence[str]) -> str:
        who = " and ".join(names[s] for s in self.winners)
        return f"Game over: {who} {'wins' if len(self.winners) == 1 else 'share the win'} with {money(max(self.money))}"


@dataclass(frozen=True, slots=True)
class TipRound:
    """The lead car crossed a tip line: every player places a secret tip."""

    round: int

    def text(self, names: Sequence[str]) -> str:
        return f"{ordinal(self.round)} tip: every player places a secret tip"


@dataclass(frozen=True, slots=True)
class TipsSettled:
    totals: tuple[int, ...]
    money: tuple[int, ...]

    def text(self, names: Sequence[str]) -> str:
        parts = [f"{n} {'+' if t >= 0 else '-'}{money(abs(t))}" for n, t in zip(names, self.totals, strict=True)]
        broke = [n for n, m in zip(names, self.money, strict=True) if m < 0]
        debt = f"; below zero: {', '.join(broke)}" if broke else ""
        return "Tips: " + ", ".join(parts) + debt


@dataclass(frozen=True, slots=True)
class CarRevealed:
    """Quick rules: the car put up for the next auction."""

    car: Car
    opener: int

    def text(self, names: Sequence[str]) -> str:
        return f"{names[self.opener]} turns up {self.car}: the next auction is for it"


@dataclass(frozen=True, slots=True)
class PitStopClaimed:
    """Pit Stop rule: ``seat`` claimed the card just played; it waits on their pit stop card."""

    seat: int
    card: str

    def text(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} claims {self.card} for a pit stop (to collect next turn)"


@dataclass(frozen=True, slots=True)
class PitStopTaken:
    """Pit Stop rule: at the start of their turn ``seat`` took ``card`` from the box or the discard pile."""

    seat: int
    card: str
    source: str

    def text(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} makes a pit stop and takes {self.card} from the {self.source}"


@dataclass(frozen=True, slots=True)
class PitStopCollected:
    """Pit Stop rule: ``seat`` took a claimed card from their pit stop card into the hand."""

    seat: int
    card: str

    def text(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} collects {self.card} from the pit stop and plays no card this turn"


@dataclass(frozen=True, slots=True)
class OfferCardTaken:
    """Stocks variant: ``seat`` takes ``card`` from the offer row (``free``: the cards left over)."""

    seat: int
    card: str
    free: bool = False

    def text(self, names: Sequence[str]) -> str:
        how = "gets the leftover" if self.free else "takes"
        return f"{names[self.seat]} {how} {self.card} from the offer row" + (" for free" if self.free else "")


@dataclass(frozen=True, slots=True)
class SeatingOrder:
    """Stocks variant: the turn order for the race, the starting player first."""

    order: tuple[int, ...]

    def text(self, names: Sequence[str]) -> str:
        return "Seating order: " + ", ".join(names[s] for s in self.order) + f" ({names[self.order[0]]} starts)"


@dataclass(frozen=True, slots=True)
class GridSet:
    """Stocks variant: the cars drawn at random for starting spaces 1, 2, ..."""

    cars: tuple[Car, ...]

    def text(self, names: Sequence[str]) -> str:
        return "Starting grid: " + ", ".join(f"{n} {car}" for n, car in enumerate(self.cars, 1))


@dataclass(frozen=True, slots=True)
class StockRound:
    """Stocks variant: a stock round begins; every player sells and buys :data:`TRADE_SIZE` stocks, in secret."""

    round: int

    def text(self, names: Sequence[str]) -> str:
        return f"Stock round {self.round}: every player secretly sells {TRADE_SIZE} stocks and buys {TRADE_SIZE}"


@dataclass(frozen=True, slots=True)
class StocksTraded:
    """Stocks variant: ``seat`` has made their trade (what it was stays secret)."""

    seat: int

    def text(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} has traded"


@dataclass(frozen=True, slots=True)
class StocksPaid:
    """Stocks variant, at the race's end: what ``seat``'s stocks pay, car by car in placement order."""

    seat: int
    holdings: tuple[tuple[Car, int], ...]
    amount: int
    money: int

    def text(self, names: Sequence[str]) -> str:
        stocks = ", ".join(f"{n} {car}" for car, n in self.holdings)
        return f"{names[self.seat]}'s stocks ({stocks}) pay {money(self.amount)}: now {money(self.money)}"


def made_once(cls: Callable[..., T]) -> Callable[..., T]:
    """A maker of ``cls``'s values that makes each once while it is kept: the events a playout records at
    most of its steps are immutable values, so one object serves every log, and a frozen dataclass is
    slow to make. It keeps the latest few thousand, so a long-running table's memory stays bounded."""
    return lru_cache(maxsize=1 << 14)(cls)


car_moved = made_once(CarMoved)
card_played = made_once(CardPlayed)
forfeited = made_once(Forfeited)


def ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


Event = (
    RaceStarted | AuctionWon | CarPlaced | CardPlayed | CarMoved | Forfeited | JokerChosen
    | BrokeDown | CarReturned | CarFinished | RaceEnded | GameEnded | TipRound | TipsSettled
    | CarRevealed
    | PitStopClaimed | PitStopTaken | PitStopCollected
    | OfferCardTaken | SeatingOrder | GridSet | StockRound | StocksTraded | StocksPaid
)
