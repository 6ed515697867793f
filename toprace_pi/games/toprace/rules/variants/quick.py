"""The quick rules (the German "Blitzregel" sheet): a shorter game with bets.

What changes from the base game:

* The cars are auctioned in a random order: before each auction the start
  player turns up one of the cars not yet sold (a chance action), and the
  auction is for that car. The duty to open moves one seat clockwise each
  auction (not to the left of the last winner); the usual limits apply, so
  every player ends with a car and a player still without one when the last car
  comes up buys it for 30,000.
* The start player's role moves one seat clockwise with each auction, and the
  race starts with the start player (not the first auction's winner).
* Each player has a tip sheet: whenever the lead car crosses one of the three
  betting lines, every player marks the car they think will win. The marks
  are settled at the end by the tip table, as in Variant A.
* A player whose cars have all finished moves no more cars (as in the base
  game), and the race ends when the fifth car finishes, when the cards are out,
  or when no car can be moved any more: no card left in the hands of the players
  still racing shows a car on the track or a joker.

The sheet comes from an older edition, whose joker is black and whose arrow
cards pair other colours. The rules take the joker and the pairs from the deck:
that edition's deck is ``decks/older-edition.toml``, and any other works too.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from toprace_pi.core.game import ChanceOutcomes
from toprace_pi.errors import IllegalActionError
from toprace_pi.games.toprace.rules.actions import Action, Pass, TakeCar, one_argument, register_notation
from toprace_pi.games.toprace.rules.auction import AUCTIONS, Auction
from toprace_pi.games.toprace.rules.cards import MovementCard, SprintBreakdownCard
from toprace_pi.games.toprace.rules.cars import Car, CarSet
from toprace_pi.games.toprace.rules.events import CarRevealed
from toprace_pi.games.toprace.rules.game import CHANCE_SEAT, Phase, TopRace, handles, legal
from toprace_pi.games.toprace.rules.variants.tips import TipsGame

#: Chance: the start player turns up the car card of the next auction.
REVEAL = Phase("REVEAL", "reveal the next car to auction")


@dataclass(frozen=True, slots=True)
class Reveal(Action):
    """Chance (quick rules): the car whose card the start player turns up for auction."""

    car: Car

    def __str__(self) -> str:
        return f"reveal {self.car.id}"


class QuickGame(TipsGame):
    """Top Race by the quick rules."""

    VARIANT = "quick"
    #: Passing is Tips' rule, not the sheet's: a turn is a card, as in the base game.
    WITHDRAWN = ((Phase.PLAY_CARD, Pass),)

    def _begin_race(self) -> None:
        super()._begin_race()
        self.revealed: Car | None = None

    # --- the auction of cars turned up at random ------------------------------------

    def _new_auction(self, opener: int) -> Auction:
        return Auction(self.player_count, opener, rotate_openers=True)

    def _next_auction_step(self) -> None:
        auction = self.auction
        assert auction is not None
        if not auction.done and self.revealed is None:
            self.phase, self.to_move = REVEAL, CHANCE_SEAT
            return
        super()._next_auction_step()

    def chance_outcomes(self) -> ChanceOutcomes[Action]:
        """At a reveal: each car not sold yet, turned up at random."""
        if self.phase is REVEAL:
            return ChanceOutcomes.of([Reveal(car) for car in self.cars_for_sale()])
        return super().chance_outcomes()

    def chance(self, rng: random.Random) -> Action:
        if self.phase is REVEAL:
            return Reveal(rng.choice(self.cars_for_sale()))
        return super().chance(rng)

    def _check_reveal(self, action: Reveal) -> None:
        if action.car in self.owner:
            raise IllegalActionError(f"{action.car} is already sold")

    @handles(REVEAL, Reveal, check="_check_reveal")
    def _apply_reveal(self, action: Reveal) -> None:
        assert self.auction is not None
        self.revealed = action.car
        self.events.append(CarRevealed(action.car, self.auction.to_act))
        super()._next_auction_step()

    def cars_for_sale(self) -> list[Car]:
        """Once a car is turned up, it is the one for sale."""
        return [self.revealed] if self.revealed is not None else super().cars_for_sale()

    def _check_take(self, action: TakeCar) -> None:
        if action.car != self.revealed:
            raise IllegalActionError(f"this auction was for {self.revealed}, not {action.car}")

    def _apply_take(self, action: TakeCar) -> None:
        self.revealed = None
        super()._apply_take(action)

    def race_starter(self) -> int:
        """The start player: the role moves one seat clockwise with each of the
        auctions, so after the last one it has gone round :data:`AUCTIONS` seats
        from the race's first opener. The sheet never makes the first auction's
        winner the start player, as the full rules do."""
        assert self.auction is not None
        return (self.auction.first_opener + AUCTIONS) % self.player_count

    # --- taking part and the end ------------------------------------------------------

    @legal(Phase.PLAY_CARD)
    def _legal_cards_only(self) -> list[Action]:
        """No passing (see :attr:`WITHDRAWN`)."""
        return self._legal_cards()

    def takes_part(self, seat: int) -> bool:
        """As in the base game: a player whose cars have all finished moves no more cars."""
        return TopRace.takes_part(self, seat)

    def _begin_turn(self) -> None:
        if self._no_car_can_move():
            self._end_race("no car can move")
        else:
            super()._begin_turn()

    def _no_car_can_move(self) -> bool:
        """True when no card left in the hands of the players still racing can move
        a car on the track: every car on them has finished or waits broken down,
        and none is a joker. Hidden hands (a real table) never end the race this way."""
        if self.hands is None or not self.board.at:
            return False
        racing = set(self.board.at)
        for seat in range(self.player_count):
            if self.takes_part(seat) and any(self._can_move(self.deck[n], racing) for n in self.hands[seat]):
                return False
        return True

    @staticmethod
    def _can_move(card: MovementCard | SprintBreakdownCard, racing: set[Car]) -> bool:
        if isinstance(card, SprintBreakdownCard):
            return set(card.pair) <= racing
        return card.has_joker or bool(card.cars & racing)


register_notation("reveal", one_argument(Reveal, CarSet.parse))
