"""The actions of a game: small frozen values with a log notation.

``str(action)`` is the notation used in saved games and logs (``"bid 40000"``,
``"move red b12"``) and :func:`parse_action` reads it back against the game's
cars (a car's word is its id in the deck's edition). Actions do not say who
takes them: the game knows whose decision it is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from toprace_pi.errors import NotationError
from toprace_pi.games.toprace.rules.cars import Car, CarSet


class Action:
    """The base of every action, the base game's below and each variant's own
    (defined in the variant's module, its notation registered with
    :func:`register_notation`)."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Deal(Action):
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
class Bid(Action):
    amount: int

    def __str__(self) -> str:
        return f"bid {self.amount}"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Sold(Action):
    """The auction now running was held aloud at the table: ``seat`` won it for
    ``price``. Replaces the bids and passes when the table does not enter them."""

    seat: int
    price: int

    def __str__(self) -> str:
        return f"sold {self.seat} {self.price}"


@dataclass(frozen=True, slots=True)
class TakeCar(Action):
    """The auction winner takes this car."""

    car: Car

    def __str__(self) -> str:
        return f"take {self.car.id}"


@dataclass(frozen=True, slots=True)
class PlaceCar(Action):
    """The auction winner puts their new car on this numbered starting space."""

    start: int

    def __str__(self) -> str:
        return f"start {self.start}"


@dataclass(frozen=True, slots=True)
class PlayCard(Action):
    number: int

    def __str__(self) -> str:
        return f"play {self.number}"


@dataclass(frozen=True, slots=True)
class ChooseJoker(Action):
    """The car the joker on the card in play moves."""

    car: Car

    def __str__(self) -> str:
        return f"joker {self.car.id}"


@dataclass(frozen=True, slots=True)
class Sprint(Action):
    def __str__(self) -> str:
        return "sprint"


@dataclass(frozen=True, slots=True)
class Breakdown(Action):
    def __str__(self) -> str:
        return "breakdown"


@dataclass(frozen=True, slots=True)
class MoveCar(Action):
    """Where the car being moved ends: a space id, or ``"finish"``."""

    car: Car
    to: str

    def __str__(self) -> str:
        return f"move {self.car.id} {self.to}"


@dataclass(frozen=True, slots=True)
class ReturnCar(Action):
    """Where the owner puts their broken-down car back on the track."""

    car: Car
    to: str

    def __str__(self) -> str:
        return f"return {self.car.id} {self.to}"


#: The actions the legal lists hold again and again, each made once (an action is an immutable
#: value, so one object serves every list): a playout asks for the legal actions at every step.
bid_action = cache(Bid)
play_action = cache(PlayCard)
joker_action = cache(ChooseJoker)
#: A bot's move of a car to a space (a few thousand on a track): it names the one it chooses at every move.
move_action = cache(MoveCar)


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


#: Reads an action's arguments (the words after its verb) against the game's cars.
Parser = Callable[[list[str], CarSet], Action]


def no_arguments(cls: Callable[[], Action]) -> Parser:
    def parse(args: list[str], cars: CarSet) -> Action:
        if args:
            raise ValueError("takes no arguments")
        return cls()

    return parse


def one_argument(cls: Callable[[Any], Action], convert: Callable[[CarSet, str], object]) -> Parser:
    """One argument: a whole number (``convert`` is :func:`whole_number`) or a car (:meth:`CarSet.parse`)."""

    def parse(args: list[str], cars: CarSet) -> Action:
        if len(args) != 1:
            raise ValueError("takes exactly one argument")
        return cls(convert(cars, args[0]))

    return parse


def whole_number(cars: CarSet, word: str) -> int:
    return int(word)


def _two_ints(cls: Callable[[int, int], Action]) -> Parser:
    def parse(args: list[str], cars: CarSet) -> Action:
        if len(args) != 2:
            raise ValueError("takes two whole numbers")
        return cls(int(args[0]), int(args[1]))

    return parse


def _car_then_space(cls: Callable[[Car, str], Action]) -> Parser:
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
        extra[key] = numbers(value)
    hands = None if args[0] == "hidden" else tuple(numbers(hand) for hand in args[0].split("/"))
    return Deal(hands, extra.get("out", ()), extra.get("box", ()), extra.get("offer", ()))


def car_list(text: str, cars: CarSet) -> tuple[Car, ...]:
    return tuple(cars.parse(word) for word in text.split(","))


def numbers(text: str) -> tuple[int, ...]:
    return tuple(int(n) for n in text.split(",")) if text else ()


_PARSERS: dict[str, Parser] = {
    "deal": _deal,
    "bid": one_argument(Bid, whole_number),
    "pass": no_arguments(Pass),
    "sold": _two_ints(Sold),
    "take": one_argument(TakeCar, CarSet.parse),
    "start": one_argument(PlaceCar, whole_number),
    "play": one_argument(PlayCard, whole_number),
    "joker": one_argument(ChooseJoker, CarSet.parse),
    "sprint": no_arguments(Sprint),
    "breakdown": no_arguments(Breakdown),
    "move": _car_then_space(MoveCar),
    "return": _car_then_space(ReturnCar),
}


def register_notation(verb: str, parse: Parser) -> None:
    """Teach :func:`parse_action` a variant's action: ``verb`` is its first word.
    A variant's module registers its actions when it is imported (importing
    :mod:`toprace_pi.games.toprace.rules` imports every variant)."""
    if verb in _PARSERS:
        raise ValueError(f"the action word {verb!r} is taken")
    _PARSERS[verb] = parse
