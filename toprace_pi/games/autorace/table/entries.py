"""The round's sealed choice at the table: each player lays a card face down on the seats' reader.

The card's suit says whose it is. A card of a seat that has not chosen is its choice; another
card of a seat that has chosen is its change of mind (the engine's take-back, then the new
choice, as one step); the same card read again is no input at all (the side's ``ignores``).
Nothing the table says tells a card: a refusal names the player and the rule ("Anna: that card
cannot be played now"), whatever the engine found wrong with it, and the prompt names only who
is still to choose. Once every card is laid, the reveal follows by itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from toprace_pi.games.autorace.rules import Action, Autorace, Choose, Phase, Reveal, TakeBack
from toprace_pi.games.autorace.table.tags import card_of
from toprace_pi.table.modes import Identity, InputMode, Refusal, Step

#: What a refused card makes the table say after the player's name (the card itself is never said).
CANNOT_PLAY = "that card cannot be played now"


def listed(names: Sequence[str]) -> str:
    """``"Anna"``, ``"Anna and Ben"``, ``"Anna, Ben and Carla"``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


@dataclass
class SealedChoice(InputMode):
    """The round's choice, open while cards are awaited; with none awaited, the reveal is due."""

    names: tuple[str, ...]
    #: The suit id of each seat in play, in seat order.
    suits: tuple[str, ...]
    #: The seats whose card the round still waits for.
    waiting: tuple[int, ...]
    #: The seats whose card lies sealed (chosen, or the banner laid for a seat that has only it).
    chosen: frozenset[int]
    #: The seats that lay no card this round: out of the race, or sitting it out for an unpaid fine.
    idle: dict[int, str]
    round: int
    #: The seat of the card laid last: the one a refusal names.
    seat: int | None = None
    secret = True
    due = "the reveal"

    @classmethod
    def for_game(cls, game: Autorace) -> SealedChoice:
        seats = range(len(game.names))
        idle = {s: "is out of the series" if game.dropped[s] else "is out of the race"
                for s in seats if not game.in_race[s]}
        idle.update({s: "misses this round" for s in seats if game.in_race[s] and game.missing[s]})
        return cls(game.names, tuple(suit.id for suit in game.board.suits[:len(game.names)]),
                   tuple(game.choosing()), frozenset(s for s in seats if game.sealed[s] is not None), idle,
                   game.round)

    @property
    def prompt(self) -> str:
        if not self.waiting:
            return "every card is laid: the cards are revealed"
        who = listed([self.names[s] for s in self.waiting])
        return f"round {self.round}: {who}, lay your chosen card face down on the reader"

    @property
    def refused(self) -> str:  # type: ignore[override]
        """The engine's reason is never said: it would tell the card (past the end, on the discard pile)."""
        if self.seat is None:
            return CANNOT_PLAY
        stands = " (the card chosen before stands)" if self.seat in self.chosen else ""
        return f"{self.names[self.seat]}: {CANNOT_PLAY}{stands}"

    def tag(self, identity: Identity) -> Step:
        suit, card = card_of(identity)
        if suit not in self.suits:
            return Refusal("nobody plays that colour in this game")
        seat = self.suits.index(suit)
        if seat in self.idle:
            return Refusal(f"{self.names[seat]} {self.idle[seat]}")
        self.seat = seat
        laid: list[Action] = [Choose(seat, card)]
        return [TakeBack(seat), *laid] if seat in self.chosen else laid

    def automatic(self) -> list[Action] | None:
        return None if self.waiting else [Reveal()]


def entry_for(game: Autorace) -> SealedChoice | None:
    """The sealed choice, and the reveal it ends in; nothing once the series is over."""
    return SealedChoice.for_game(game) if game.phase in (Phase.CHOOSE, Phase.REVEAL) else None
