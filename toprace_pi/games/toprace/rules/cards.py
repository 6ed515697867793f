"""Speed cards, the deck, and the dealing table.

A movement card lists several cars top to bottom, each with a value (1-6 or 10);
a car in the joker's colour on it is a joker. The three Sprint/Breakdown cards
each show a pair of cars. Cards are known by their number, which the deck file
assigns; the file also declares the edition's cars, joker and pairs
(:func:`~toprace_pi.games.toprace.rules.cars.read_edition`), and the cards name cars by id.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Union

from toprace_pi.core.clone import shared
from toprace_pi.errors import DataError
from toprace_pi.games.toprace.rules.cars import EDITION_KEYS, Car, CarSet, Joker, read_edition
from toprace_pi.schema import Range, shown, unknown_keys, whole_in_text

VALUES = frozenset({1, 2, 3, 4, 5, 6, 10})
DECK_SIZE = 48
#: A card's number: the cards of a deck are numbered 1 to 48, the number written on (or enrolled for) each.
CARD_NUMBER = Range(int, 1, DECK_SIZE, "a card number")
#: The keys of a deck file's ``[deck]``, and of each of its cards.
DECK_KEYS = ("name", "reconstructed", "note", *EDITION_KEYS, "cards")
CARD_KEYS = ("number", "moves", "sprint_breakdown")

#: Cards dealt to each player, by number of players (base game).
CARDS_PER_PLAYER = {2: 24, 3: 16, 4: 12, 5: 9, 6: 8}


@dataclass(frozen=True, slots=True)
class MovementCard:
    """A speed card that moves cars: ``moves`` in printed order, ``None`` for the joker."""

    number: int
    moves: tuple[tuple[Car | None, int], ...]
    #: The edition's joker, for saying the card.
    joker: Joker
    #: The cars shown on the card (the joker may not move these).
    cars: frozenset[Car] = field(init=False, repr=False, compare=False)
    #: What ``str()`` says (``"#12 Red 3 / White 2"``), worded once: every play of the card says it.
    label: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cars", frozenset(car for car, _ in self.moves if car is not None))
        parts = (f"{self.joker if car is None else car} {value}" for car, value in self.moves)
        object.__setattr__(self, "label", f"#{self.number} " + " / ".join(parts))

    def __str__(self) -> str:
        return self.label

    @property
    def has_joker(self) -> bool:
        return any(car is None for car, _ in self.moves)


@dataclass(frozen=True, slots=True)
class SprintBreakdownCard:
    """A card played as a Sprint or a Breakdown of its two cars."""

    number: int
    pair: tuple[Car, Car]
    #: What ``str()`` says, worded once (see :attr:`MovementCard.label`).
    label: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "label", f"#{self.number} Sprint/Breakdown {self.pair[0]}-{self.pair[1]}")

    def __str__(self) -> str:
        return self.label


SpeedCard = Union[MovementCard, SprintBreakdownCard]


@shared
class Deck:
    """The 48 speed cards of one box, by number, and the edition's ``cars``."""

    def __init__(
        self, name: str, cards: tuple[SpeedCard, ...], *, cars: CarSet, reconstructed: bool, note: str = ""
    ) -> None:
        self.name = name
        self.cards = cards
        self.cars = cars
        self.reconstructed = reconstructed
        self.note = note
        self._by_number = {c.number: c for c in cards}

    def __repr__(self) -> str:
        return f"<Deck {self.name!r}: {len(self.cards)} cards>"

    def __len__(self) -> int:
        return len(self.cards)

    def __getitem__(self, number: int) -> SpeedCard:
        try:
            return self._by_number[number]
        except KeyError:
            raise ValueError(f"the deck has no speed card #{number}") from None

    def __contains__(self, number: object) -> bool:
        return number in self._by_number

    @property
    def numbers(self) -> tuple[int, ...]:
        return tuple(c.number for c in self.cards)

    def colour_totals(self) -> dict[Car, tuple[int, int]]:
        """For each car: on how many movement cards it appears, and its total value."""
        totals = {car: (0, 0) for car in self.cars}
        for card in self.cards:
            if isinstance(card, MovementCard):
                for car, value in card.moves:
                    if car is not None:
                        count, points = totals[car]
                        totals[car] = (count + 1, points + value)
        return totals

    def fairness_problems(self) -> list[str]:
        """Ways in which the colours are not treated alike (empty for a fair deck)."""
        totals = self.colour_totals()
        problems = []
        if len({count for count, _ in totals.values()}) > 1:
            problems.append("the colours do not appear equally often: " + _table(totals, 0))
        if len({points for _, points in totals.values()}) > 1:
            problems.append("the colours' total values differ: " + _table(totals, 1))
        return problems

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str) -> Deck:
        """Build a deck from parsed TOML, reporting every problem at once."""
        problems: list[str] = []
        header = data.get("deck")
        if not isinstance(header, Mapping) or not isinstance(header.get("name"), str):
            problems.append("[deck]: missing table with a 'name'")
            header = {"name": "?"}
        unknown_keys(data, ("deck",), "the file:", problems, what="table")
        unknown_keys(header, DECK_KEYS, "[deck]", problems)
        cars = read_edition(header, problems)
        entries = header.get("cards")
        if not isinstance(entries, list):
            problems.append("[deck]: 'cards' missing or not a list")
            entries = []
        cards = [card for n, e in enumerate(entries, 1) if (card := _card(e, n, cars, problems))]
        _check_composition(cards, cars, problems)
        if problems:
            raise DataError(source, problems)
        return cls(
            header["name"],
            tuple(cards),
            cars=cars,
            reconstructed=bool(header.get("reconstructed", False)),
            note=str(header.get("note", "")),
        )


def _table(totals: dict[Car, tuple[int, int]], column: int) -> str:
    return ", ".join(f"{car} {values[column]}" for car, values in totals.items())


def _card(entry: object, n: int, cars: CarSet, problems: list[str]) -> SpeedCard | None:
    if not isinstance(entry, Mapping):
        problems.append(f"card #{n} in the list: must be a table")
        return None
    if entry.get("number") not in CARD_NUMBER:
        problems.append(f"card #{n} in the list: 'number' must be {CARD_NUMBER}, not {shown(entry.get('number'))}")
        return None
    number: int = entry["number"]
    where = f"card {number}"
    known = len(problems)
    unknown_keys(entry, CARD_KEYS, f"{where}:", problems)
    if len(problems) > known:
        return None
    if ("moves" in entry) == ("sprint_breakdown" in entry):
        problems.append(f"{where}: needs either 'moves' or 'sprint_breakdown'")
        return None
    if "sprint_breakdown" in entry:
        pair = _cars(entry["sprint_breakdown"], cars, where, problems)
        if pair is None:
            return None
        # Without good pairs in the edition (reported there), any two cars pass here.
        if len(pair) != 2 or cars.pairs and tuple(pair) not in cars.pairs:
            problems.append(f"{where}: sprint_breakdown must be one of the pairs {cars.pairs_text()}")
            return None
        return SprintBreakdownCard(number, (pair[0], pair[1]))
    return _movement_card(number, entry["moves"], cars, where, problems)


def _movement_card(number: int, moves: object, cars: CarSet, where: str, problems: list[str]) -> MovementCard | None:
    if not isinstance(moves, list) or not 1 <= len(moves) <= 6:
        problems.append(f"{where}: 'moves' must list 1 to 6 entries like \"red 6\"")
        return None
    parsed: list[tuple[Car | None, int]] = []
    for move in moves:
        words = move.split() if isinstance(move, str) else []
        value = whole_in_text(words[1]) if len(words) == 2 else None
        if value not in VALUES:
            problems.append(f"{where}: {move!r} is not a colour and a value (1-6 or 10)")
            return None
        assert value is not None
        colour = words[0].lower()
        if colour == cars.joker.id:
            parsed.append((None, value))
            continue
        try:
            parsed.append((cars.parse(colour), value))
        except ValueError as exc:
            problems.append(f"{where}: {exc}")
            return None
    shown = [car for car, _ in parsed if car is not None]
    if len(shown) != len(set(shown)):
        problems.append(f"{where}: a car appears twice on the card")
        return None
    return MovementCard(number, tuple(parsed), cars.joker)


def _cars(value: object, cars: CarSet, where: str, problems: list[str]) -> list[Car] | None:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        problems.append(f"{where}: expected a list of colours")
        return None
    try:
        return [cars.parse(v) for v in value]
    except ValueError as exc:
        problems.append(f"{where}: {exc}")
        return None


def _check_composition(cards: list[SpeedCard], cars: CarSet, problems: list[str]) -> None:
    numbers = [c.number for c in cards]
    for number in sorted({n for n in numbers if numbers.count(n) > 1}):
        problems.append(f"card {number}: number used twice")
    if len(cards) != DECK_SIZE:
        problems.append(f"deck: has {len(cards)} valid cards, a Top Race deck has {DECK_SIZE}")
    pairs = sorted(c.pair for c in cards if isinstance(c, SprintBreakdownCard))
    if cars.pairs and pairs != sorted(cars.pairs):
        problems.append(f"deck: needs exactly one Sprint/Breakdown card for each pair {cars.pairs_text()}")
