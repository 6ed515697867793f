"""What NEXT and OK choose between at each moment of the game.

At the table most decisions are a pick from a short list shown on the track: a
car's legal end spaces, the free starting spaces, the cars the joker may move.
:class:`Choice` holds such a list and a cursor; NEXT moves the cursor, OK takes
the action under it. The auction, held aloud, is entered as the winner and the
price (:class:`SaleEntry`).
"""

from __future__ import annotations

from dataclasses import dataclass

from toprace_pi.rules import Action, Breakdown, ChooseJoker, Game, MoveCar, Phase, PlaceCar, ReturnCar, Sold, TakeCar
from toprace_pi.rules.actions import Tip
from toprace_pi.rules.auction import OPENING_BID, STEP
from toprace_pi.rules.events import money

#: Phases whose legal actions are offered one by one under the cursor.
PICKED = (Phase.TAKE_CAR, Phase.PLACE_CAR, Phase.CHOOSE_JOKER, Phase.SPRINT_OR_BREAKDOWN,
          Phase.MOVE_CAR, Phase.RETURN_CAR, Phase.TIP)


@dataclass
class Choice:
    """A list of actions with a cursor; ``labels`` say each one in words."""

    options: list[Action]
    labels: list[str]
    cursor: int = 0

    @property
    def current(self) -> Action:
        return self.options[self.cursor]

    def next(self) -> None:
        self.cursor = (self.cursor + 1) % len(self.options)

    def point_at(self, action: Action) -> bool:
        """Move the cursor to ``action`` if it is on offer."""
        if action in self.options:
            self.cursor = self.options.index(action)
            return True
        return False


def choice_for(game: Game) -> Choice | None:
    """The NEXT/OK choice for the game's current decision, if it is one."""
    if game.phase not in PICKED:
        return None
    options = game.legal_actions()
    return Choice(options, [label(game, a) for a in options])


def label(game: Game, action: Action) -> str:
    """An action as the table says it."""
    if isinstance(action, TakeCar):
        return f"take {action.car}"
    if isinstance(action, PlaceCar):
        return f"starting space {action.start}"
    if isinstance(action, ChooseJoker):
        return f"the joker moves {action.car}"
    if isinstance(action, (MoveCar, ReturnCar)):
        return f"{action.car} to {action.to}"
    if isinstance(action, Tip):
        return f"a tip on {action.car}"
    return "Breakdown" if isinstance(action, Breakdown) else "Sprint"


@dataclass
class SaleEntry:
    """The result of an auction held aloud: first the winner (NEXT cycles through
    the players who may bid, OK picks), then the price (NEXT adds 10,000, PASS
    takes 10,000 off, OK confirms)."""

    bidders: list[int]
    names: tuple[str, ...]
    cursor: int = 0
    winner: int | None = None
    price: int = OPENING_BID

    @classmethod
    def for_game(cls, game: Game) -> SaleEntry:
        assert game.auction is not None
        bidders = [s for s in range(game.players) if game.auction.may_bid(s)]
        return cls(bidders, game.names)

    @property
    def prompt(self) -> str:
        if self.winner is None:
            return f"who won this auction? {self.names[self.bidders[self.cursor]]} (NEXT: another player, OK)"
        return f"{self.names[self.winner]} pays {money(self.price)} (NEXT +10,000, PASS -10,000, OK)"

    def next(self) -> None:
        if self.winner is None:
            self.cursor = (self.cursor + 1) % len(self.bidders)
        else:
            self.price += STEP

    def less(self) -> bool:
        """PASS while entering the price; False when there is nothing to take off."""
        if self.winner is None or self.price <= OPENING_BID:
            return False
        self.price -= STEP
        return True

    def ok(self) -> Sold | None:
        """The sale once both parts are entered."""
        if self.winner is None:
            self.winner = self.bidders[self.cursor]
            return None
        return Sold(self.winner, self.price)
