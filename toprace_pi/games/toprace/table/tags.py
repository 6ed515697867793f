"""Top Race's words for its tags: speed cards, car tokens and pit stop cards, and the walks that enrol them.

The table's tag layer (:mod:`toprace_pi.hardware.tags`) knows no game; this is the
:class:`~toprace_pi.hardware.tags.Vocabulary` it reads Top Race's tags with. Keys are
``card 17`` (a speed card by number), ``car red`` (a car token by id) and ``pit 2`` (a pit
stop card of seat 2, counted from 1 as players count); identities are the tuples the
controller acts on: ``("card", 17)``, ``("car", Car)`` and ``("pit", 1)`` (the seat from 0).

A car key names its car by id, read against the cars of the deck in play
(:class:`~toprace_pi.games.toprace.rules.cars.CarSet`): a token of another edition's car is refused,
with a message that says so.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, Union

from toprace_pi.games.toprace.data import load_deck
from toprace_pi.games.toprace.rules import TopRace
from toprace_pi.games.toprace.rules.cards import DECK_SIZE, Deck
from toprace_pi.games.toprace.rules.cars import Car, CarSet
from toprace_pi.hardware.tags import TagBook, Vocabulary, Walk, record_key
from toprace_pi.table.config import TableConfig

CardId = tuple[Literal["card"], int]
CarId = tuple[Literal["car"], Car]
PitId = tuple[Literal["pit"], int]
#: What a tag stands for: ``("card", 17)``, ``("car", red)`` (a car of the deck), or ``("pit", 2)``: one of
#: the pit stop cards of seat 2 (counted from 0; the Pit Stop rule).
Identity = Union[CardId, CarId, PitId]
#: Pit stop cards per seat (each is enrolled to its seat).
PIT_CARDS_PER_SEAT = 3
#: The seats a pit stop card may name.
MAX_SEATS = TopRace.info.max_players
UNKNOWN_TAG = "this tag is not enrolled: run toprace-pi enrol cards"


class TopRaceVocabulary(Vocabulary[Identity]):
    """Top Race's keys and identities, its car tokens those of ``cars``; with a ``deck``, speed cards are
    described by their faces (for the enrolment's prompts)."""

    def __init__(self, cars: CarSet, deck: Deck | None = None) -> None:
        self.cars = cars
        self.deck = deck

    def identity(self, key: str) -> Identity | None:
        words = key.split()
        if len(words) != 2:
            return None
        kind, value = words
        # The length check keeps int() from a string of thousands of digits, which it refuses.
        number = int(value) if value.isascii() and value.isdigit() and len(value) <= 3 else None
        if kind == "card" and number is not None and 1 <= number <= DECK_SIZE:
            return ("card", number)
        if kind == "car":
            return self._car(value)
        if kind == "pit" and number is not None and 1 <= number <= MAX_SEATS:
            return ("pit", number - 1)
        return None

    def _car(self, word: str) -> CarId | None:
        try:
            return ("car", self.cars.parse(word))
        except ValueError:
            return None

    def key(self, identity: Identity) -> str:
        return identity_key(identity)

    def describe(self, identity: Identity) -> str:
        """``"speed card #1 Red 6 / Yellow 4 / Black 2 / Blue 1"`` (with a deck), ``"the Red car"``,
        ``"a pit stop card of seat 2"``."""
        kind, value = identity
        if isinstance(value, Car):
            return f"the {value} car"
        if kind == "pit":
            return f"a pit stop card of seat {value + 1}"
        deck = self.deck
        return f"speed card {deck[value]}" if deck is not None and value in deck else f"speed card #{value}"

    def unknown(self, key_or_record: str | None) -> str:
        """A car token of another edition, or a tag not enrolled."""
        words = (record_key(key_or_record) or key_or_record or "").split()
        if len(words) == 2 and words[0] == "car":
            return (f"this tag is the car token {words[-1]!r}, which this deck does not have "
                    f"(its cars: {self.cars.ids})")
        return UNKNOWN_TAG

    def key_forms(self) -> str:
        return (f"'card N' (1-{DECK_SIZE}), 'car COLOUR' (a car of this deck: {self.cars.ids}) "
                f"or 'pit SEAT' (1-{MAX_SEATS})")


def identity_key(identity: Identity) -> str:
    """``"card 17"``, ``"car red"`` or ``"pit 2"``: the same words under any deck."""
    kind, value = identity
    if isinstance(value, Car):
        return f"car {value.id}"
    return f"{kind} {value if kind == 'card' else value + 1}"


def unknown_tag(record: str | None, cars: CarSet) -> str:
    """Why the table refuses a tag laid that names nothing with the deck's ``cars``."""
    return TopRaceVocabulary(cars).unknown(record)


# --- enrolment ----------------------------------------------------------------------------------------------------


def _cards(deck: Deck, players: int) -> Walk[Identity]:
    """Every speed card of the deck in number order."""
    return Walk(tuple(("card", number) for number in sorted(deck.numbers)))


def _cars(deck: Deck, players: int) -> Walk[Identity]:
    """The car tokens of the deck's edition, in its order, on the cars reader where the table has one."""
    return Walk(tuple(("car", car) for car in deck.cars), reader="cars")


def _pit_stops(deck: Deck, players: int) -> Walk[Identity]:
    """The pit stop cards: three for each seat, so a card laid names its claimant."""
    return Walk(tuple(("pit", seat) for seat in range(players) for _ in range(PIT_CARDS_PER_SEAT)))


_WALKS: dict[str, Callable[[Deck, int], Walk[Identity]]] = {"cards": _cards, "cars": _cars, "pitstops": _pit_stops}
#: ``toprace-pi enrol WHAT``: the walks by name.
WALK_NAMES = tuple(_WALKS)


def tag_book(deck: Deck, players: int) -> TagBook[Identity]:
    """Top Race's tags at a table of ``players`` with ``deck``: its vocabulary and every walk."""
    return TagBook(TopRaceVocabulary(deck.cars, deck), {name: walk(deck, players) for name, walk in _WALKS.items()})


def table_tags(config: TableConfig) -> TagBook[Identity]:
    """The tag book of the configured deck and players, for ``toprace-pi enrol``."""
    return tag_book(load_deck(config.settings.deck), len(config.settings.players))
