"""TOP SPEED's words for its tags: each player's 72 minicards, told apart by the car's colour.

A key is ``minicard red 17`` (the deck of the red car, its 17th card in the deck file's order);
an identity is ``("minicard", ("red", 17))``. With virtual decks (the default) no minicard is
laid; these tags are the physical decks' (``[game] decks = "physical"``) and their enrolment walks.
"""

from __future__ import annotations

from typing import Literal

from toprace_pi.games.topspeed.render.palette import Car, cars, seat_cars
from toprace_pi.games.topspeed.rules import Card, Deck
from toprace_pi.hardware.tags import TagBook, Vocabulary, Walk

#: A deck's card: ``("minicard", ("red", 17))``, numbered from 1 in the deck file's order.
Identity = tuple[Literal["minicard"], tuple[str, int]]
UNKNOWN_TAG = "this tag is not one of TOP SPEED's minicards: run toprace-pi enrol minicards"
ALL_CARDS = "minicards"


class TopSpeedVocabulary(Vocabulary[Identity]):
    """The minicards of every car's deck of ``deck`` (a car not in play is still known, to be refused by name)."""

    def __init__(self, deck: Deck) -> None:
        self.deck = deck
        self.cars = {car.id: car for car in cars()}

    def identity(self, key: str) -> Identity | None:
        words = key.split()
        if len(words) != 3 or words[0] != "minicard" or words[1] not in self.cars:
            return None
        number = words[2]
        if not (number.isascii() and number.isdigit() and len(number) <= 3
                and 1 <= int(number) <= len(self.deck.cards)):
            return None
        return "minicard", (words[1], int(number))

    def key(self, identity: Identity) -> str:
        car, number = identity[1]
        return f"minicard {car} {number}"

    def describe(self, identity: Identity) -> str:
        """``"Red's 17th minicard (a 3)"``: for the enrolment's prompts (cards are enrolled face up)."""
        car, number = identity[1]
        return f"{self.cars[car].name}'s minicard {number} ({self.card(identity)})"

    def card(self, identity: Identity) -> Card:
        return self.deck.cards[identity[1][1] - 1]

    def unknown(self, key_or_record: str | None) -> str:
        return UNKNOWN_TAG

    def key_forms(self) -> str:
        return f"'minicard CAR N' (CAR one of {', '.join(self.cars)}; N 1-{len(self.deck.cards)})"


def deck_cards(deck: Deck, car: Car) -> tuple[Identity, ...]:
    return tuple(("minicard", (car.id, number)) for number in range(1, len(deck.cards) + 1))


def tag_book(deck: Deck, players: int) -> TagBook[Identity]:
    """The walks of ``toprace-pi enrol``: every deck in play (72 cards a player), or one deck by its car."""
    chosen = seat_cars(players)
    walks = {ALL_CARDS: Walk(tuple(card for car in chosen for card in deck_cards(deck, car)))}
    walks.update({car.id: Walk(deck_cards(deck, car)) for car in chosen})
    return TagBook(TopSpeedVocabulary(deck), walks)
