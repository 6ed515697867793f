"""The Pit Stop rule: a face-up box of spare speed cards and three pit stop cards each.

At the deal fewer cards go to each player and some are laid out face up as the
box (table :data:`DEAL`). Every player starts each race with
:data:`PIT_STOPS` pit stop cards; each pit stop uses one up. There are two
moments for a pit stop:

1. **Claim.** Once a player's card is resolved and lies on the discard pile,
   every other player with a free pit stop card may claim it. They are asked in
   turn order from the player after them (``TopRace.seats_after``: clockwise from
   the player's left; in Stocks, the seating order) in phase ``PIT_STOP_CLAIM``
   (actions :class:`ClaimPitStop` or :class:`Pass`); the first to claim gets it, which is
   exactly the rule that the claimant nearest in turn order wins. The card
   leaves the discard pile and waits on one of the claimant's pit stop cards.
   On each of their following turns the claimant plays no card and collects one
   waiting card (:class:`CollectPitStop`), and that pit stop card is used up.
2. **Turn start.** Instead of playing, a player may take any card of the box
   (:class:`TakeFromBox`) or the top card of the discard pile
   (:class:`TakeFromDiscard`, even one they played themselves), using up a pit
   stop card. This ends the turn and does not collect a waiting card.

A player without speed cards who still has a pit stop card stays in the race
(while one of their cars is racing) and on their turn makes a pit stop or
passes. Once nobody holds speed cards, the race ends when every player still
taking part has passed once in turn, or at once when nobody can do anything
but pass (no pit stop card left, or nothing to take). A Sprint/Breakdown card played while one
of its cars is broken down is void; the base engine already forfeits it (in the
base game the situation cannot arise, as each pair's card is played only once).

Where every speed card is: in a hand, in the box, on the discard pile (the card
being played lies on top of it), on a pit stop card, or left out. ``played``
lists every play of the race in order, so a card that came back into a hand and
was played again appears twice; what may not be played is a card that is not in
the player's hand.

Interpretations the rulebook leaves open (decided here):

- The three pit stop cards are dealt anew for every race of a match.
- Only a player still taking part in the race may claim (a player whose cars
  have all finished has no more turns to collect on); a claim needs a free pit
  stop card, i.e. one without a claimed card on it, and so does a turn-start pit
  stop.
- With claimed cards waiting, the player must collect one (choosing which) or
  make a turn-start pit stop instead; they may neither play a card nor pass.
- A player who still holds speed cards may not pass (with Tips they may).
- The claim window also follows a Sprint/Breakdown card, a void one included:
  the card lies on the discard pile like any other. It does not open when the
  race ends during the card (fifth car finished).
- With a hidden deal (cards dealt by hand) the box still lies face up, so the
  deal must name it (``deal hidden box 3,17,...``). Cards that reach a hand by a
  pit stop are then known to be there: no other player may play them, and a
  player whose other cards are all played may play only those.
- Pit Stop with Tips (``"pitstop+tips"``): everyone keeps all three pit stop
  cards (the tip table is printed on their backs), everyone stays in the race
  and may pass, and the race ends when all players passed once in turn.
- Pit Stop with Stocks (``"pitstop+stocks"``) is
  :mod:`toprace_pi.games.toprace.rules.variants.pitstop_stocks`.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, replace
from typing import Any

from toprace_pi.errors import IllegalActionError
from toprace_pi.games.toprace.rules.actions import (
    Action,
    Deal,
    Pass,
    PlayCard,
    no_arguments,
    one_argument,
    play_action,
    register_notation,
    whole_number,
)
from toprace_pi.games.toprace.rules.cars import CarSet
from toprace_pi.games.toprace.rules.events import PitStopClaimed, PitStopCollected, PitStopTaken
from toprace_pi.games.toprace.rules.game import Phase, TopRace, handles, legal
from toprace_pi.games.toprace.rules.hands import KnownCards
from toprace_pi.games.toprace.rules.variants.tips import TipsGame

#: Cards per player and cards in the box, by number of players (Pit Stop table).
DEAL = {2: (21, 6), 3: (14, 6), 4: (10, 8), 5: (8, 8), 6: (7, 6)}
#: Pit stop cards each player has at the start of a race.
PIT_STOPS = 3
#: The others are asked in turn whether they claim the card just played.
PIT_STOP_CLAIM = Phase("PIT_STOP_CLAIM", "claim the card just played for a pit stop, or pass")


@dataclass(frozen=True, slots=True)
class ClaimPitStop(Action):
    """Pit Stop rule: claim the speed card just played for a pit stop."""

    def __str__(self) -> str:
        return "claim"


@dataclass(frozen=True, slots=True)
class TakeFromBox(Action):
    """Pit Stop rule: at the start of one's turn, take this card from the box."""

    number: int

    def __str__(self) -> str:
        return f"pit box {self.number}"


@dataclass(frozen=True, slots=True)
class TakeFromDiscard(Action):
    """Pit Stop rule: at the start of one's turn, take the top card of the discard pile."""

    def __str__(self) -> str:
        return "pit discard"


@dataclass(frozen=True, slots=True)
class CollectPitStop(Action):
    """Pit Stop rule: take this claimed card from one's pit stop card into the hand."""

    number: int

    def __str__(self) -> str:
        return f"collect {self.number}"


class PitStopGame(TopRace):
    """Top Race with the Pit Stop rule.

    The hooks a combined variant may also override (``_begin_race``,
    ``takes_part``, ``_apply_play``, ``_card_done``, ``_end_turn``, ``snapshot``,
    the deal's check and application) call ``super()``, so the class combines
    with others placed after it (see :class:`PitStopTipsGame` and
    :class:`~toprace_pi.games.toprace.rules.variants.pitstop_stocks.PitStopStocksGame`). The
    turn order comes from the base game's ``turn_order`` hook."""

    VARIANT = "pitstop"
    #: May a player who still holds speed cards pass? (Tips: yes.)
    PASS_WITH_CARDS = False

    def _begin_race(self) -> None:
        super()._begin_race()
        self.box: list[int] = []
        #: Bottom to top; the card being played lies on top.
        self.discard: list[int] = []
        #: Pit stop cards in front of each seat, free or with a claimed card on them.
        self.pit_stops = [PIT_STOPS] * self.player_count
        #: Claimed cards lying on each seat's pit stop cards, in the order claimed.
        self.pit_waiting: list[list[int]] = [[] for _ in range(self.player_count)]
        #: Cards known to be in a hand because a pit stop put them there.
        self.known = KnownCards(self.player_count)
        self.claimants: list[int] = []
        self.passed: set[int] = set()
        self._resolved = False

    # --- dealing -----------------------------------------------------------------

    def cards_per_player(self) -> int:
        return DEAL[self.player_count][0]

    def box_size(self) -> int:
        return DEAL[self.player_count][1]

    def _check_deal(self, action: Deal) -> None:
        n = self.box_size()
        if len(action.box) != n:
            raise IllegalActionError(f"with pit stops and {self.player_count} players the box holds {n} speed cards")
        # The base check of the hands, with the box counted among the cards not dealt.
        super()._check_deal(replace(action, box=(), left_out=action.left_out + action.box))
        if action.hands is None:
            unknown = [c for c in action.box if c not in self.deck]
            if unknown:
                raise IllegalActionError(f"there is no speed card #{unknown[0]} in this deck")
            if len(set(action.box)) != n or set(action.box) & set(action.left_out):
                raise IllegalActionError("a deal must lay out every box card once")

    def _apply_deal(self, action: Deal) -> None:
        self.box = list(action.box)
        super()._apply_deal(action)

    # --- whose turn, what may be done ----------------------------------------------

    def takes_part(self, seat: int) -> bool:
        """Also a seat without speed cards that has a pit stop card and a racing car."""
        if super().takes_part(seat):
            return True
        return self.pit_stops[seat] > 0 and self.owns_unfinished_car(seat)

    def can_act(self, seat: int) -> bool:
        """Also a seat with a claimed card to collect, or with a free pit stop card
        and a card to take (from the box or the discard pile)."""
        if super().can_act(seat) or self.pit_waiting[seat]:
            return True
        return bool(self.free_pit_stops(seat) and (self.box or self.discard))

    @property
    def discard_pile(self) -> list[int]:
        return self.discard

    def free_pit_stops(self, seat: int) -> int:
        """Pit stop cards of ``seat`` with no claimed card on them."""
        return self.pit_stops[seat] - len(self.pit_waiting[seat])

    def playable_cards(self) -> list[int]:
        seat = self.turn
        if self.pit_waiting[seat]:
            return []
        if self.hands is not None:
            return list(self.hands[seat])
        if self.hand_size[seat] == 0:
            return []
        if not self._unknown_left(seat):
            return sorted(self.known.of(seat))
        return [n for n in self.deck.numbers if self._where(n, seat) is None]

    def _unknown_left(self, seat: int) -> int:
        """Hidden deal: how many of the seat's cards are not known from pit stops."""
        return self.known.unknown(seat, self.hand_size[seat])

    @legal(Phase.PLAY_CARD)
    def turn_actions(self) -> list[Action]:
        """Legal at the start of a turn: collect a claimed card, or play a card (or
        pass), or make a pit stop from the box or the discard pile."""
        seat = self.turn
        actions: list[Action]
        if self.pit_waiting[seat]:
            actions = [CollectPitStop(n) for n in self.pit_waiting[seat]]
        else:
            actions = [play_action(n) for n in self.playable_cards()]
            if self.hand_size[seat] == 0 or self.PASS_WITH_CARDS:
                actions.append(Pass())
        if self.free_pit_stops(seat):
            actions += [TakeFromBox(n) for n in self.box]
            if self.discard:
                actions.append(TakeFromDiscard())
        return actions

    def _where(self, number: int, seat: int) -> str | None:
        """Where a card lies that ``seat`` cannot play, in words (``None``: it may)."""
        if number in self.discard:
            return "is on the discard pile"
        if number in self.box:
            return "is in the box"
        for other in range(self.player_count):
            if number in self.pit_waiting[other]:
                return f"lies on {self.names[other]}'s pit stop card"
            if other != seat and self.known.holds(other, number):
                return f"is in {self.names[other]}'s hand"
        return None

    # --- playing a card ------------------------------------------------------------

    def _check_play(self, action: PlayCard) -> None:
        """A card is playable when it is in the player's hand; it may have been
        played before in this race and come back by a pit stop."""
        seat, number = self.turn, action.number
        name = self.names[seat]
        if number not in self.deck:
            raise IllegalActionError(f"there is no speed card #{number} in this deck")
        if self.pit_waiting[seat]:
            raise IllegalActionError(f"{name} collects a card from the pit stop this turn and plays none")
        card = self.deck[number]
        if self.hands is not None:
            if number not in self.hands[seat]:
                where = self._where(number, seat)
                raise IllegalActionError(f"{name} does not hold speed card {card}" + (f": it {where}" if where else ""))
            return
        if self.hand_size[seat] == 0:
            raise IllegalActionError(f"{name} has no speed card left")
        where = self._where(number, seat)
        if where is not None:
            raise IllegalActionError(f"{name} cannot play speed card {card}: it {where}")
        if not self.known.holds(seat, number) and not self._unknown_left(seat):
            known = ", ".join(str(self.deck[n]) for n in sorted(self.known.of(seat)))
            raise IllegalActionError(f"{name} holds only the cards taken at pit stops: {known}")

    def _apply_play(self, action: PlayCard) -> None:
        self.passed.clear()
        self._resolved = False
        self.known.played(self.turn, action.number)
        self.discard.append(action.number)  # before the card is worked through: it may end the turn
        super()._apply_play(action)

    # --- moment 1: claiming the card just played ----------------------------------------

    def _card_done(self) -> None:
        """The card lies on the discard pile: ask the others in turn order whether
        they claim it."""
        self._resolved = True
        self.claimants = [
            seat for seat in self.seats_after(self.turn) if self.free_pit_stops(seat) and self.takes_part(seat)
        ]
        if self.claimants:
            self.phase, self.to_move = PIT_STOP_CLAIM, self.claimants[0]
            return
        super()._card_done()

    def _end_turn(self) -> None:
        # The base game ends the turn directly after some Sprint/Breakdown cards
        # (void, no space to sprint to, breakdown); route those through _card_done.
        if self.card is not None and not self._resolved:
            self._card_done()
            return
        self._resolved = False
        super()._end_turn()

    @property
    def claim_card(self) -> int:
        """The card up for claims: the top of the discard pile."""
        return self.discard[-1]

    @legal(PIT_STOP_CLAIM)
    def _legal_claims(self) -> list[Action]:
        return [ClaimPitStop(), Pass()]

    @handles(PIT_STOP_CLAIM, ClaimPitStop)
    def _apply_claim(self, action: ClaimPitStop) -> None:
        seat, number = self.seat, self.discard.pop()
        self.pit_waiting[seat].append(number)
        self.events.append(PitStopClaimed(seat, str(self.deck[number])))
        self.claimants = []
        super()._card_done()

    @handles(PIT_STOP_CLAIM, Pass)
    def _apply_claim_pass(self, action: Pass) -> None:
        self.claimants.pop(0)
        if self.claimants:
            self.to_move = self.claimants[0]
        else:
            super()._card_done()

    # --- the claimant's next turn, and moment 2 -------------------------------------------

    def _check_collect(self, action: CollectPitStop) -> None:
        waiting = self.pit_waiting[self.turn]
        if action.number not in waiting:
            name = self.names[self.turn]
            if not waiting:
                raise IllegalActionError(f"no card lies on {name}'s pit stop cards")
            cards = ", ".join(str(self.deck[n]) for n in waiting)
            raise IllegalActionError(f"{name} may collect {cards}, not #{action.number}")

    @handles(Phase.PLAY_CARD, CollectPitStop, check="_check_collect")
    def _apply_collect(self, action: CollectPitStop) -> None:
        seat = self.turn
        self.pit_waiting[seat].remove(action.number)
        self.events.append(PitStopCollected(seat, str(self.deck[action.number])))
        self._pit_stop_done(seat, action.number)

    def _check_pit_stop(self) -> None:
        seat = self.turn
        if not self.pit_stops[seat]:
            raise IllegalActionError(f"{self.names[seat]} has no pit stop card left")
        if not self.free_pit_stops(seat):
            raise IllegalActionError(f"each of {self.names[seat]}'s pit stop cards holds a claimed card already")

    def _check_from_box(self, action: TakeFromBox) -> None:
        self._check_pit_stop()
        if action.number not in self.box:
            card = f"#{action.number}" if action.number not in self.deck else str(self.deck[action.number])
            raise IllegalActionError(f"speed card {card} is not in the box")

    @handles(Phase.PLAY_CARD, TakeFromBox, check="_check_from_box")
    def _apply_from_box(self, action: TakeFromBox) -> None:
        self.box.remove(action.number)
        self.events.append(PitStopTaken(self.turn, str(self.deck[action.number]), "box"))
        self._pit_stop_done(self.turn, action.number)

    def _check_from_discard(self, action: TakeFromDiscard) -> None:
        self._check_pit_stop()
        if not self.discard:
            raise IllegalActionError("the discard pile is empty")

    @handles(Phase.PLAY_CARD, TakeFromDiscard, check="_check_from_discard")
    def _apply_from_discard(self, action: TakeFromDiscard) -> None:
        number = self.discard.pop()
        self.events.append(PitStopTaken(self.turn, str(self.deck[number]), "discard pile"))
        self._pit_stop_done(self.turn, number)

    def _pit_stop_done(self, seat: int, number: int) -> None:
        """The card goes into the hand, a pit stop card into the game box; the turn ends."""
        self.pit_stops[seat] -= 1
        self.hand_size[seat] += 1
        if self.hands is not None:
            bisect.insort(self.hands[seat], number)
        self.known.add(seat, number)
        self.passed.clear()
        self._end_turn()

    # --- passing ---------------------------------------------------------------------

    def _check_pass_turn(self, action: Pass) -> None:
        seat = self.turn
        name = self.names[seat]
        if self.pit_waiting[seat]:
            raise IllegalActionError(f"{name} must collect the card waiting on the pit stop card (or make a pit stop)")
        if self.hand_size[seat] and not self.PASS_WITH_CARDS:
            raise IllegalActionError(f"{name} still holds speed cards and must play one (or make a pit stop)")

    @handles(Phase.PLAY_CARD, Pass, check="_check_pass_turn")
    def _apply_pass_turn(self, action: Pass) -> None:
        self.passed.add(self.turn)
        if all(seat in self.passed for seat in range(self.player_count) if self.takes_part(seat)):
            self._end_race("every player has passed once in turn")
        else:
            self._end_turn()

    # --- worlds for a search bot ---------------------------------------------------------

    def placed_cards(self, seat: int | None) -> set[int]:
        """Also the box, the discard pile and the claimed cards."""
        waiting = (n for cards in self.pit_waiting for n in cards)
        return super().placed_cards(seat) | set(self.box) | set(self.discard) | set(waiting)

    def known_in_hand(self, seat: int) -> list[int]:
        """The cards ``seat`` took at its pit stops and has not played yet."""
        return sorted(set(super().known_in_hand(seat)) | set(self.known.of(seat)))

    # --- display ---------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        state = super().snapshot()
        state.update(
            box=list(self.box),
            discard=list(self.discard),
            pit_stops=list(self.pit_stops),
            pit_waiting=[list(w) for w in self.pit_waiting],
        )
        return state


class PitStopTipsGame(PitStopGame, TipsGame):
    """Pit Stop together with Variant A (Tips): the hooks of both run through ``super()``.

    Everyone stays in the race and may pass even with speed cards in hand (Tips);
    passing is counted by the Pit Stop rule, which gives the same end: when all
    players have passed once in turn.
    """

    VARIANT = "pitstop+tips"
    PASS_WITH_CARDS = True


def _pit(args: list[str], cars: CarSet) -> Action:
    """``pit box N`` or ``pit discard``."""
    if len(args) == 2 and args[0] == "box":
        return TakeFromBox(int(args[1]))
    if args == ["discard"]:
        return TakeFromDiscard()
    raise ValueError("expected 'pit box CARD' or 'pit discard'")


register_notation("claim", no_arguments(ClaimPitStop))
register_notation("pit", _pit)
register_notation("collect", one_argument(CollectPitStop, whole_number))
