"""TOP SPEED's minicards and a deck's composition: what each card is and does, and the
numbers the rules give (kept here, in one place).

A deck's composition is data (:mod:`toprace_pi.games.topspeed.data`): the rules name the
kinds of card but not how many of each a deck of 72 holds.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import chain, repeat
from operator import attrgetter

from toprace_pi.errors import IllegalActionError

#: Minicards in each player's deck, as the box has them.
DECK_SIZE = 72
#: Copies of a table-wide trouble card (Yellow Flag, Safety Car, blank) on the table, all rows
#: together, that make it take effect.
ON_THE_TABLE = 2
#: Spaces a car goes back for a pair of Drive Through cards.
DRIVE_THROUGH_SPACES = 5
#: Spaces a car goes back for a pit stop, and more for each Engine trouble in its damage row.
PIT_STOP_SPACES = 8
PIT_STOP_SPACES_PER_ENGINE = 2
#: Rounds the safety car stays out once deployed.
SAFETY_CAR_ROUNDS = 3
#: Laps the qualifying lasts at the most.
QUALIFYING_LAPS = 5
#: The highest movement card a deck file may hold.
HIGHEST_MOVEMENT = 9


class Kind(enum.Enum):
    """A kind of minicard, by its name in the data files and the notation."""

    MOVEMENT = "movement"
    YELLOW_FLAG = "yellow_flag"
    DRIVE_THROUGH = "drive_through"
    SAFETY_CAR = "safety_car"
    ENGINE_TROUBLE = "engine_trouble"
    TIRE_TROUBLE = "tire_trouble"
    OFF_TRACK = "off_track"
    BLANK = "blank"

    @property
    def title(self) -> str:
        return _TITLES[self]


_TITLES = {Kind.MOVEMENT: "movement card", Kind.YELLOW_FLAG: "Yellow Flag", Kind.DRIVE_THROUGH: "Drive Through",
           Kind.SAFETY_CAR: "Safety Car", Kind.ENGINE_TROUBLE: "Engine trouble", Kind.TIRE_TROUBLE: "Tire trouble",
           Kind.OFF_TRACK: "Off Track", Kind.BLANK: "blank card"}
#: The trouble cards: two identical ones in a row end the player's round.
TROUBLES = frozenset({Kind.YELLOW_FLAG, Kind.DRIVE_THROUGH, Kind.SAFETY_CAR, Kind.ENGINE_TROUBLE, Kind.TIRE_TROUBLE,
                      Kind.OFF_TRACK})
#: The troubles whose pair leaves one card in the damage row.
DAMAGE = frozenset({Kind.ENGINE_TROUBLE, Kind.TIRE_TROUBLE})


@dataclass(frozen=True, slots=True)
class Card:
    """One minicard: a movement ("green") card of ``points``, a trouble card or the blank."""

    kind: Kind
    points: int = 0
    #: Its name in data files and the notation: the points of a movement card, else its kind. Made
    #: once: every view of a race names every card of every row and discard pile.
    word: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "word", str(self.points) if self.kind is Kind.MOVEMENT else self.kind.value)

    def __hash__(self) -> int:
        """The word's (which equal cards share): a string keeps its hash, where the fields' tuple and the
        kind (an Enum hashes in Python) were worked out again at every look-up of a deck's order."""
        return hash(self.word)

    @property
    def is_green(self) -> bool:
        return self.kind is Kind.MOVEMENT

    @property
    def is_trouble(self) -> bool:
        return self.kind in TROUBLES

    def __str__(self) -> str:
        return f"a {self.points}" if self.is_green else f"{'an' if self.word[0] in 'eo' else 'a'} {self.kind.title}"


def card_of(word: str) -> Card:
    """The card a word names ("3", "yellow_flag"); an :class:`IllegalActionError` for any other word."""
    if word.isdigit() and 1 <= int(word) <= HIGHEST_MOVEMENT:
        return Card(Kind.MOVEMENT, int(word))
    try:
        kind = Kind(word)
    except ValueError:
        kind = Kind.MOVEMENT
    if kind is Kind.MOVEMENT:
        names = ", ".join(k.value for k in Kind if k is not Kind.MOVEMENT)
        raise IllegalActionError(f"no card {word!r}: a movement card 1 to {HIGHEST_MOVEMENT} or one of {names}")
    return Card(kind)


def extra_card(word: str) -> Card:
    """The card a word names for the blank card to play as; an :class:`IllegalActionError` for a word that
    names no card, or the blank itself."""
    card = card_of(word)
    if card.kind is Kind.BLANK:
        raise IllegalActionError("the blank card plays as another card, not as a blank")
    return card


def pit_stop_spaces(damage: Iterable[Card]) -> int:
    """The spaces a pit stop takes a car back with the damage row ``damage``."""
    return PIT_STOP_SPACES + PIT_STOP_SPACES_PER_ENGINE * sum(card.kind is Kind.ENGINE_TROUBLE for card in damage)


#: A card's word, read in C (for ``map``: a view names every card of every pile).
word_of = attrgetter("word")
#: The race types the rules name; each deck file says what a race of each type takes out of every deck.
RACE_TYPES = ("normal", "wet", "custom")


@dataclass(frozen=True)
class Deck:
    """One player's deck of :data:`DECK_SIZE` minicards, as its file lists it (frozen: every game
    and every copy of a game share it), and what each race type takes out of it."""

    name: str
    #: The cards in the file's order: the order a deck is in before each shuffle.
    cards: tuple[Card, ...]
    #: Race type -> the cards it takes out of every deck ("custom" takes the players' own list).
    races: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)
    reconstructed: bool = False
    note: str = ""

    @cached_property
    def distinct(self) -> tuple[Card, ...]:
        """Each card of the file once, in the file's order."""
        return tuple(dict.fromkeys(self.cards))

    def in_file_order(self, cards: Iterable[Card]) -> tuple[Card, ...]:
        """``cards`` in the file's order, the order a deck is put in before a shuffle: counted by word (in
        C) and laid out kind by kind, not sorted by a look-up of each card (a pit stop's new deck is some
        sixty cards, and a search's every world redraws four decks)."""
        counts = Counter(map(word_of, cards))
        ordered = tuple(chain.from_iterable(repeat(card, counts[card.word]) for card in self.distinct))
        if len(ordered) != counts.total():
            strangers = sorted(counts - Counter(map(word_of, ordered)))
            raise ValueError(f"cards that are not in the deck {self.name!r}: {', '.join(strangers)}")
        return ordered

    def for_race(self, race: str, removed: Sequence[str] = (), blank_card: bool = False) -> tuple[Card, ...]:
        """The cards each player races with: the race type's cards taken out (``removed``, card words, for a
        custom race), and the blank card too unless the blank-card rule is played."""
        out = [card_of(word) for word in removed] if race == "custom" else list(self.races.get(race, ()))
        if not blank_card:
            out += [card for card in self.cards if card.kind is Kind.BLANK]
        return take_out(self.cards, out, f"the {race} race")

    def with_blank_as(self, card: Card) -> Deck:
        """This deck with its blank card played as ``card`` (an extra card agreed before the race), in the
        blank's place: a physical deck's blank minicard, known by its place in the file, reads as ``card``."""
        return replace(self, cards=tuple(card if kept.kind is Kind.BLANK else kept for kept in self.cards))

    def composition(self, cards: Iterable[Card] | None = None) -> dict[str, int]:
        """Card word -> copies, in the file's order."""
        counts = Counter(self.cards if cards is None else cards)
        return {card.word: counts[card] for card in dict.fromkeys(self.cards) if counts[card]}


def take_out(cards: Sequence[Card], out: Iterable[Card], why: str) -> tuple[Card, ...]:
    """``cards`` less one copy of each of ``out``; an :class:`IllegalActionError` naming what is missing."""
    left = list(cards)
    for card in out:
        if card not in left:
            raise IllegalActionError(f"{why} takes out {card}, but the deck has no more of them")
        left.remove(card)
    if not any(card.is_green for card in left):
        raise IllegalActionError(f"{why} leaves no movement card in the deck")
    return tuple(left)
