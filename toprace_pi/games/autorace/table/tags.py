"""AUTORACE's words for its tags: each player's number cards and banner, and the walks that enrol them.

A key is ``card red 7`` (the suit by id, the card by number) or ``card red banner``; an identity is
``("card", ("red", 7))``, the banner ``("card", ("red", 0))`` (:data:`~toprace_pi.games.autorace.rules.BANNER`).
The suit says whose card it is, so one reader passed round the table (or one a seat) reads every
player's cards. A card never says its number in a refusal: it is laid face down.
"""

from __future__ import annotations

from typing import Literal, cast

from toprace_pi.games.autorace.rules import BANNER, Board, Suit, card_word
from toprace_pi.hardware.tags import TagBook, Vocabulary, Walk

#: A suit's card: ``("card", ("red", 7))``, the banner ``("card", ("red", 0))``.
Identity = tuple[Literal["card"], tuple[str, int]]
UNKNOWN_TAG = "this tag is not one of AUTORACE's cards: run toprace-pi enrol cards"
#: ``toprace-pi enrol cards``: every card of the suits in play; a suit's id enrols that set alone.
ALL_CARDS = "cards"


def card_of(identity: tuple[str, object]) -> tuple[str, int]:
    """The suit and the card a card's identity names (the table hands identities on untyped)."""
    return cast(tuple[str, int], identity[1])


class AutoraceVocabulary(Vocabulary[Identity]):
    """The cards of every suit of ``board`` (a suit not in play is still known, to be refused by name)."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.suits = {suit.id: suit for suit in board.suits}

    def identity(self, key: str) -> Identity | None:
        words = key.split()
        if len(words) != 3 or words[0] != "card" or words[1] not in self.suits:
            return None
        value = _card_value(words[2], self.board.highest_card)
        return None if value is None else ("card", (words[1], value))

    def key(self, identity: Identity) -> str:
        suit, value = identity[1]
        return f"card {suit} {card_word(value)}"

    def describe(self, identity: Identity) -> str:
        """``"Red's 7"``, ``"Red's banner"``: for the enrolment's prompts (cards are enrolled face up)."""
        suit, value = identity[1]
        return f"{self.suits[suit].name}'s {card_word(value)}"

    def unknown(self, key_or_record: str | None) -> str:
        return UNKNOWN_TAG

    def key_forms(self) -> str:
        return (f"'card SUIT N' (SUIT one of {', '.join(self.suits)}; N 1-{self.board.highest_card} "
                "or banner)")


def _card_value(word: str, highest: int) -> int | None:
    if word == card_word(BANNER):
        return BANNER
    # The length check keeps int() from a string of thousands of digits, which it refuses.
    if word.isascii() and word.isdigit() and len(word) <= 3 and 1 <= int(word) <= highest:
        return int(word)
    return None


def suit_cards(board: Board, suit: Suit) -> tuple[Identity, ...]:
    """A player's set in the order it is enrolled: the number cards up, then the banner."""
    return tuple(("card", (suit.id, value)) for value in (*board.numbers, BANNER))


def tag_book(board: Board, players: int) -> TagBook[Identity]:
    """AUTORACE's tags at a table of ``players``: the walk of every set in play, and one a set."""
    suits = board.suits[:players]
    walks = {ALL_CARDS: Walk(tuple(card for suit in suits for card in suit_cards(board, suit)))}
    walks.update({suit.id: Walk(suit_cards(board, suit)) for suit in suits})
    return TagBook(AutoraceVocabulary(board), walks)
