"""The actions of a game: small frozen values with a log notation.

``str(action)`` is the notation used in saved games and logs (``"bid 40000"``,
``"move red b12"``) and :func:`parse_action` reads it back against the game's
cars (a car's word is its id in the deck's edition). Actions do not say who
takes them: the game knows whose decision it is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Union

from toprace_pi.errors import NotationError
from toprace_pi.rules.cars import Car, CarSet


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance: the shuffled speed cards dealt to the seats, and those left out.

    ``hands`` is ``None`` when the cards were dealt by hand at a real table and the
    game only learns them as they are played.
    """

    hands: tuple[tuple[int, ...], ...] | None
    left_out: tuple[int, ...] = ()
    #: The cards laid out face up beside the track as the box (Pit Stop rule only).
    box: tuple[int, ...] = ()
    #: The cards laid out face up as the offer row (Stocks variant only).
    offer: tuple[int, ...] = ()

    def __str__(self) -> str:
        hands = "hidden" if self.hands is None else "/".join(",".join(map(str, hand)) for hand in self.hands)
        offer = ",".join(map(str, self.offer))
        box = ",".join(map(str, self.box))
        out = ",".join(map(str, self.left_out))
        return (f"deal {hands}" + (f" offer {offer}" if offer else "") + (f" box {box}" if box else "")
                + (f" out {out}" if out else ""))


@dataclass(frozen=True, slots=True)
class Bid:
    amount: int

    def __str__(self) -> str:
        return f"bid {self.amount}"


@dataclass(frozen=True, slots=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Sold:
    """The auction now running was held aloud at the table: ``seat`` won it for
    ``price``. Replaces the bids and passes when the table does not enter them."""

    seat: int
    price: int

    def __str__(self) -> str:
        return f"sold {self.seat} {self.price}"


@dataclass(frozen=True, slots=True)
class TakeCar:
    """The auction winner takes this car."""

    car: Car

    def __str__(self) -> str:
        return f"take {self.car.id}"


@dataclass(frozen=True, slots=True)
class PlaceCar:
    """The auction winner puts their new car on this numbered starting space."""

    start: int

    def __str__(self) -> str:
        return f"start {self.start}"


@dataclass(frozen=True, slots=True)
class PlayCard:
    number: int

    def __str__(self) -> str:
        return f"play {self.number}"


@dataclass(frozen=True, slots=True)
class ChooseJoker:
    """The car the joker on the card in play moves."""

    car: Car

    def __str__(self) -> str:
        return f"joker {self.car.id}"


@dataclass(frozen=True, slots=True)
class Tip:
    """A secret tip on ``car`` (Tips variant): the seat's next tip marker."""

    car: Car

    def __str__(self) -> str:
        return f"tip {self.car.id}"


@dataclass(frozen=True, slots=True)
class Reveal:
    """Chance (quick rules): the car whose card the start player turns up for auction."""

    car: Car

    def __str__(self) -> str:
        return f"reveal {self.car.id}"


@dataclass(frozen=True, slots=True)
class Sprint:
    def __str__(self) -> str:
        return "sprint"


@dataclass(frozen=True, slots=True)
class Breakdown:
    def __str__(self) -> str:
        return "breakdown"


@dataclass(frozen=True, slots=True)
class MoveCar:
    """Where the car being moved ends: a space id, or ``"finish"``."""

    car: Car
    to: str

    def __str__(self) -> str:
        return f"move {self.car.id} {self.to}"


@dataclass(frozen=True, slots=True)
class ReturnCar:
    """Where the owner puts their broken-down car back on the track."""

    car: Car
    to: str

    def __str__(self) -> str:
        return f"return {self.car.id} {self.to}"


@dataclass(frozen=True, slots=True)
class ClaimPitStop:
    """Pit Stop rule: claim the speed card just played for a pit stop."""

    def __str__(self) -> str:
        return "claim"


@dataclass(frozen=True, slots=True)
class TakeFromBox:
    """Pit Stop rule: at the start of one's turn, take this card from the box."""

    number: int

    def __str__(self) -> str:
        return f"pit box {self.number}"


@dataclass(frozen=True, slots=True)
class TakeFromDiscard:
    """Pit Stop rule: at the start of one's turn, take the top card of the discard pile."""

    def __str__(self) -> str:
        return "pit discard"


@dataclass(frozen=True, slots=True)
class CollectPitStop:
    """Pit Stop rule: take this claimed card from one's pit stop card into the hand."""

    number: int

    def __str__(self) -> str:
        return f"collect {self.number}"


@dataclass(frozen=True, slots=True)
class TakeOffer:
    """Stocks variant: the winner of an offer auction takes this card of the offer row."""

    number: int

    def __str__(self) -> str:
        return f"pick {self.number}"


@dataclass(frozen=True, slots=True)
class Grid:
    """Chance (Stocks variant): the starting grid; ``cars[i]`` goes on starting space ``i + 1``."""

    cars: tuple[Car, ...]

    def __str__(self) -> str:
        return "grid " + ",".join(car.id for car in self.cars)


@dataclass(frozen=True, slots=True)
class Trade:
    """Stocks variant: in a stock round, the stocks a player sells and buys (two each).

    A car may appear twice, and in both lists. The lists are kept sorted, so
    ``Trade((RED, BLUE), ...) == Trade((BLUE, RED), ...)``.
    """

    sell: tuple[Car, ...]
    buy: tuple[Car, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "sell", tuple(sorted(self.sell)))
        object.__setattr__(self, "buy", tuple(sorted(self.buy)))

    def __str__(self) -> str:
        sell = ",".join(car.id for car in self.sell)
        buy = ",".join(car.id for car in self.buy)
        return f"trade sell {sell} buy {buy}"


Action = Union[
    Deal, Bid, Pass, Sold, TakeCar, PlaceCar, PlayCard, ChooseJoker, Tip, Reveal, Sprint, Breakdown, MoveCar, ReturnCar,
    ClaimPitStop, TakeFromBox, TakeFromDiscard, CollectPitStop, TakeOffer, Grid, Trade,
]


def parse_action(text: str, cars: CarSet) -> Action:
    """Read an action from its notation, its car words being ids of ``cars``;
    raises :class:`NotationError`."""
    words = text.split()
    if not words:
        raise NotationError("empty action")
    verb, args = words[0].lower(), words[1:]
    try:
        parse = _PARSERS[verb]
    except KeyError:
        raise NotationError(f"unknown action {verb!r} in {text!r}") from None
    try:
        return parse(args, cars)
    except ValueError as exc:
        raise NotationError(f"cannot read {text!r}: {exc}") from None


_Parser = Callable[[list[str], CarSet], Action]


def _nothing(cls: Callable[[], Action]) -> _Parser:
    def parse(args: list[str], cars: CarSet) -> Action:
        if args:
            raise ValueError("takes no arguments")
        return cls()

    return parse


def _one(cls: Callable[[Any], Action], convert: Callable[[CarSet, str], object]) -> _Parser:
    """One argument: a whole number (``convert`` is :func:`_whole`) or a car (:meth:`CarSet.parse`)."""

    def parse(args: list[str], cars: CarSet) -> Action:
        if len(args) != 1:
            raise ValueError("takes exactly one argument")
        return cls(convert(cars, args[0]))

    return parse


def _whole(cars: CarSet, word: str) -> int:
    return int(word)


def _two_ints(cls: Callable[[int, int], Action]) -> _Parser:
    def parse(args: list[str], cars: CarSet) -> Action:
        if len(args) != 2:
            raise ValueError("takes two whole numbers")
        return cls(int(args[0]), int(args[1]))

    return parse


def _car_then_space(cls: Callable[[Car, str], Action]) -> _Parser:
    def parse(args: list[str], cars: CarSet) -> Action:
        if len(args) != 2:
            raise ValueError("takes a colour and a space")
        return cls(cars.parse(args[0]), args[1])

    return parse


def _deal(args: list[str], cars: CarSet) -> Deal:
    """``deal HAND/HAND/... [offer CARDS] [box CARDS] [out CARDS]``, or ``deal hidden [offer CARDS] [box CARDS]``."""
    usage = ("expected 'deal HAND/HAND/...' (or 'deal hidden') with an optional 'offer CARDS', "
             "'box CARDS' and 'out CARDS'")
    if not args or len(args) % 2 == 0:
        raise ValueError(usage)
    extra: dict[str, tuple[int, ...]] = {}
    for key, value in zip(args[1::2], args[2::2], strict=True):
        if key not in ("offer", "box", "out") or key in extra:
            raise ValueError(usage)
        extra[key] = _numbers(value)
    hands = None if args[0] == "hidden" else tuple(_numbers(hand) for hand in args[0].split("/"))
    return Deal(hands, extra.get("out", ()), extra.get("box", ()), extra.get("offer", ()))


def _pit(args: list[str], cars: CarSet) -> Action:
    """``pit box N`` or ``pit discard``."""
    if len(args) == 2 and args[0] == "box":
        return TakeFromBox(int(args[1]))
    if args == ["discard"]:
        return TakeFromDiscard()
    raise ValueError("expected 'pit box CARD' or 'pit discard'")


def _grid(args: list[str], cars: CarSet) -> Grid:
    """``grid CAR,CAR,...``: the cars on starting spaces 1, 2, ..."""
    if len(args) != 1:
        raise ValueError("expected 'grid CAR,CAR,...' (the cars on starting spaces 1 to 6)")
    return Grid(_car_list(args[0], cars))


def _trade(args: list[str], cars: CarSet) -> Trade:
    """``trade sell CAR,CAR buy CAR,CAR``."""
    if len(args) != 4 or args[0] != "sell" or args[2] != "buy":
        raise ValueError("expected 'trade sell CAR,CAR buy CAR,CAR'")
    return Trade(_car_list(args[1], cars), _car_list(args[3], cars))


def _car_list(text: str, cars: CarSet) -> tuple[Car, ...]:
    return tuple(cars.parse(word) for word in text.split(","))


def _numbers(text: str) -> tuple[int, ...]:
    return tuple(int(n) for n in text.split(",")) if text else ()


_PARSERS: dict[str, _Parser] = {
    "deal": _deal,
    "bid": _one(Bid, _whole),
    "pass": _nothing(Pass),
    "sold": _two_ints(Sold),
    "take": _one(TakeCar, CarSet.parse),
    "start": _one(PlaceCar, _whole),
    "play": _one(PlayCard, _whole),
    "joker": _one(ChooseJoker, CarSet.parse),
    "tip": _one(Tip, CarSet.parse),
    "reveal": _one(Reveal, CarSet.parse),
    "sprint": _nothing(Sprint),
    "breakdown": _nothing(Breakdown),
    "move": _car_then_space(MoveCar),
    "return": _car_then_space(ReturnCar),
    "claim": _nothing(ClaimPitStop),
    "pit": _pit,
    "collect": _one(CollectPitStop, _whole),
    "pick": _one(TakeOffer, _whole),
    "grid": _grid,
    "trade": _trade,
}
