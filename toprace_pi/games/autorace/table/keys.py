"""AUTORACE at the keyboard: a suit's letter, a number and Enter lays that player's card face
down on the seats' reader (``R7`` Enter: Red's 7; ``R0`` Enter: Red's banner)."""

from __future__ import annotations

from collections.abc import Callable

from toprace_pi.games.autorace.records import READERS
from toprace_pi.games.autorace.render.palette import seat_suits, suit_letters
from toprace_pi.games.autorace.rules import Board, Suit, card_word
from toprace_pi.hardware.keyboard import KeyMap, Laid

#: The reader the cards are laid on (the first of the game's readers, the one every table has).
SEATS_READER = next(iter(READERS))


def key_map(board: Board, players: int) -> KeyMap:
    suits = seat_suits(board, players)
    letters = suit_letters(suits)
    names = " ".join(f"{letter}={suit.name}" for letter, suit in zip(letters, suits, strict=True))
    first = letters[0]
    return KeyMap(
        number=None,
        letters={},
        seat=None,
        sets={letter: _laying(suit) for letter, suit in zip(letters, suits, strict=True)},
        help=(f"keys: n NEXT, o OK, U UNDO (held), a suit's letter, a number and Enter lays that card "
              f"face down ({names}; 0 is the banner: {first}7 Enter, {first}0 Enter)"),
    )


def _laying(suit: Suit) -> Callable[[int], Laid]:
    return lambda number: (SEATS_READER, f"card {suit.id} {card_word(number)}")
