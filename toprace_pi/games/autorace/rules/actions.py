"""AUTORACE's actions, with their journal notation.

A seat's sealed choice names the seat (several seats decide at once); the reveal is
one step of its own, the table's, once every seat has chosen.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from toprace_pi.errors import NotationError
from toprace_pi.games.autorace.rules.board import BANNER


def card_word(card: int) -> str:
    return "banner" if card == BANNER else str(card)


@dataclass(frozen=True, slots=True)
class Choose:
    """``seat`` lays ``card`` face down (a number card, or :data:`BANNER`)."""

    seat: int
    card: int

    def __str__(self) -> str:
        return f"choose {self.seat} {card_word(self.card)}"


@dataclass(frozen=True, slots=True)
class TakeBack:
    """``seat`` takes its sealed card back before the reveal (to choose again)."""

    seat: int

    def __str__(self) -> str:
        return f"take back {self.seat}"


@dataclass(frozen=True, slots=True)
class Reveal:
    """Every sealed card turned up at once, and the round carried out."""

    def __str__(self) -> str:
        return "reveal"


Action = Choose | TakeBack | Reveal
#: Each seat's choice of each card, made once (an action is an immutable value): the legal actions
#: list every seat's every card at every step of a playout.
choose_action = cache(Choose)


def parse_action(text: str) -> Action:
    """An action from its notation; a :class:`NotationError` for anything else."""
    words = text.split()
    if words == ["reveal"]:
        return Reveal()
    if len(words) == 3 and words[:2] == ["take", "back"] and words[2].isdigit():
        return TakeBack(int(words[2]))
    if len(words) == 3 and words[0] == "choose" and words[1].isdigit():
        card = words[2]
        if card == "banner":
            return Choose(int(words[1]), BANNER)
        if card.isdigit() and int(card) > 0:
            return Choose(int(words[1]), int(card))
    raise NotationError(f"not an AUTORACE action: {text!r} (e.g. 'choose 1 7', 'choose 1 banner', "
                        "'take back 1', 'reveal')")
