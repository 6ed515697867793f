"""Physical minicards (``[game] decks = "physical"``): each player shuffles and draws their own deck
by hand and lays the card drawn on their seat's reader, and the table takes it as the draw.

The table checks the card against what that deck may still hold: it must be of the deck of the
player to move (its tag names the car), not one already drawn since that deck was last shuffled
(its tag's number), and of a kind the deck still holds (the engine's own check: a normal race's
cards set aside are any copies, so only their count is known). A refusal says why and changes
nothing; the card lying on the reader read again is no new input.

The numbers drawn are the table's memory of this session: a race resumed from its journal keeps
the counts' check (the engine's) but not which copy was drawn before the cut.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from toprace_pi.games.topspeed.render.palette import cars, seat_cars
from toprace_pi.games.topspeed.rules import DrawCard, HiddenShuffle, TopSpeed
from toprace_pi.games.topspeed.table.tags import Identity
from toprace_pi.table.modes import Identity as AnyIdentity
from toprace_pi.table.modes import Refusal, Step

DRAW_HINT = "draw a minicard and lay it on your reader"


def shuffles(game: TopSpeed, seat: int) -> int:
    """How many times ``seat``'s deck was shuffled by hand: a new count is a new deck."""
    return sum(isinstance(action, HiddenShuffle) and action.seat == seat for action in game.log)


@dataclass
class Minicards:
    """The numbers of each seat's minicards drawn since its deck was last shuffled."""

    drawn: dict[tuple[int, int], list[int]] = field(default_factory=dict)
    #: The minicard taken last (car and number): the one lying on the reader.
    last: tuple[str, int] | None = None

    def laid(self, game: TopSpeed, seat: int, identity: AnyIdentity) -> Step:
        """A minicard laid on the turn of ``seat``: its draw, or a refusal saying why not."""
        car_id, number = _card(identity)
        playing = [car.id for car in seat_cars(len(game.names))]
        if car_id not in playing:
            name = next(car.name for car in cars() if car.id == car_id)
            return Refusal(f"nobody races the {name} car: that minicard is not in play")
        owner = playing.index(car_id)
        if owner != seat:
            return Refusal(f"that is {game.names[owner]}'s minicard: {game.names[seat]} is to draw")
        drawn = self.drawn.setdefault((seat, shuffles(game, seat)), [])
        if number in drawn:
            return Refusal(f"{game.names[seat]}: that minicard was already drawn, draw the next one")
        word = game.deck.cards[number - 1].word
        if DrawCard(seat, word) in game.options(seat):
            drawn.append(number)  # the engine takes it: the same check
            self.last = car_id, number
        return [DrawCard(seat, word)]

    def ignores(self, identity: AnyIdentity) -> bool:
        """The minicard taken last, read again while it lies on the reader (once another is laid, it is
        no longer there: laid again, it is refused as drawn already)."""
        return _card(identity) == self.last


def _card(identity: AnyIdentity) -> tuple[str, int]:
    card = cast(tuple[str, int], identity[1])
    return card[0], card[1]


__all__ = ["DRAW_HINT", "Identity", "Minicards", "shuffles"]
