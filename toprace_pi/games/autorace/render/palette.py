"""AUTORACE's colours and letters, shared by the terminal, the keyboard and the LED strip, so a
suit looks the same wherever it is shown: each suit's colour is the board file's, and its letter
is worked out here (the board file gives none)."""

from __future__ import annotations

from toprace_pi.core.colour import RGB
from toprace_pi.games.autorace.rules import Board, Suit

#: A filling station's colour (the circled numbers of the board).
STATION: RGB = (0, 190, 230)
#: An objective's colour while its bonus is still to win (the starred numbers).
OBJECTIVE: RGB = (255, 170, 0)


def suit_letters(suits: tuple[Suit, ...]) -> tuple[str, ...]:
    """One capital letter a suit, different for each: the first letter of its id that no suit
    before it took (``red, blue, green, yellow, purple`` -> ``R B G Y P``), else the first free
    letter of the alphabet, so a maker's board of ``brown`` and ``blue`` still gets two."""
    taken: list[str] = []
    for suit in suits:
        word = suit.id.upper() + "ABCDEFGHIJKLMNOPQRSTVWXYZ"  # no U: the keyboard's held UNDO
        taken.append(next(letter for letter in word if letter not in taken and letter != "U"))
    return tuple(taken)


def seat_suits(board: Board, players: int) -> tuple[Suit, ...]:
    """The suits in play: one a seat, in seat order."""
    return board.suits[:players]
