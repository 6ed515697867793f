"""AUTORACE's rules: one state object that knows what may happen next.

A round is a sealed simultaneous choice: every seat still in the race (and not
sitting the round out for an unpaid fine) lays one card face down; a seat with
no number card it may play lays its banner without being asked. Each choice is
one action of its seat, hidden from the others until the :class:`Reveal`, the
table's own step (a chance decision with one outcome: nothing is left to
chance), which carries the round out in the order of the rules: speeding fines,
moves, draws at the filling stations, objective bonuses, discards, and who is
out of the race. Readings of what the text leaves open are in docs/rules-autorace.md.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import cache
from typing import Any, ClassVar, Self, cast

from toprace_pi.core.clone import clone
from toprace_pi.core.game import CHANCE, NOBODY, ChanceOutcomes, Decision, GameInfo
from toprace_pi.core.seat_view import SeatView
from toprace_pi.errors import IllegalActionError, SettingsError
from toprace_pi.games.autorace.rules import events as ev
from toprace_pi.games.autorace.rules.actions import Action, Choose, Reveal, TakeBack, choose_action, parse_action
from toprace_pi.games.autorace.rules.board import BANNER, Board

#: Rounds in a row that change nothing at all (every seat in the race lays its banner to no effect)
#: after which nobody is taken to move any more: the game ends (a reading: the rules end it only
#: when nobody *can* move, and a race of banners would never end).
STALLED_ROUNDS = 3
#: The decision of each set of seats choosing at once, made once: a playout asks at every step.
_seats_decision = cache(Decision)
#: In a copy made for a seat (:meth:`Autorace.conceal`), another seat's card laid face down: chosen, not shown.
FACE_DOWN = -1


class Phase(enum.Enum):
    CHOOSE = "choose a card"
    REVEAL = "reveal the cards"
    OVER = "the series is over"


@dataclass(frozen=True)
class Settings:
    players: tuple[str, ...]
    #: Games in the series.
    games: int = 1
    #: Money each player receives at the start of every game after the first; 0: money is carried
    #: over, and a player with none left drops out.
    boost: int = 0
    #: The board file: a shipped board's name or a file's absolute path.
    board: str = "standard"

    def __post_init__(self) -> None:
        if self.games < 1:
            raise SettingsError("a series has at least one game")
        if self.boost < 0:
            raise SettingsError("the boost is an amount of money, 0 or more")
        if len(set(self.players)) < len(self.players) or not all(self.players):
            raise SettingsError("the players need different names")


class Autorace:
    """A series of AUTORACE games (one by default) for ``settings.players`` on ``board``."""

    info: ClassVar[GameInfo] = GameInfo(
        name="autorace", title="AUTORACE", min_players=2, max_players=5, chance=False,
        secret_information=True, simultaneous=True)
    #: Per-seat secrets: a seat's view holds its own sealed card only.
    SEAT_SECRETS: ClassVar[frozenset[str]] = frozenset({"sealed"})
    #: What a seat's view of the game does not show at all: the log and the copies that hold sealed cards.
    SEAT_HIDDEN: ClassVar[frozenset[str]] = frozenset({"log", "to_dict", "clone", "replayed"})
    #: Lists (a dict, a set) of numbers and flags only, and lists of such containers (the hands, the
    #: discard piles): a clone copies them in one go.
    CLONE_SHALLOW = ("log", "events", "results", "money", "dropped", "positions", "in_race", "missing", "bonuses",
                     "paid", "sealed")
    CLONE_NESTED = ("hands", "discards")

    def __init__(self, settings: Settings, board: Board) -> None:
        if not 2 <= len(settings.players) <= len(board.suits):
            raise SettingsError(f"AUTORACE is for 2 to {len(board.suits)} players (one card set each), "
                                     f"not {len(settings.players)}")
        self.settings = settings
        self.board = board
        self.names = tuple(settings.players)
        seats = range(len(self.names))
        self.money = [board.start_capital for _ in seats]
        #: Net money the bank took in (fines, draws) less what it paid out (bonuses, boosts).
        self.bank = 0
        #: Seats out of the series (no money left when a game ended, money carried over).
        self.dropped = [False for _ in seats]
        #: Each game's money at its end.
        self.results: list[tuple[int, ...]] = []
        self.log: list[Action] = []
        self.events: list[ev.Event] = []
        self.game_number = 0
        self._start_game(boost=0)

    # --- a game and its rounds -------------------------------------------------------

    def _start_game(self, *, boost: int) -> None:
        board, seats = self.board, range(len(self.names))
        self.game_number += 1
        self.round = 0
        #: Rounds in a row that changed nothing (see :data:`STALLED_ROUNDS`).
        self.still_rounds = 0
        self.positions = [0 for _ in seats]
        #: Each seat's number cards in hand (the banner never leaves it).
        self.hands = [set(board.numbers) for _ in seats]
        #: Each seat's discard pile, bottom first.
        self.discards: list[list[int]] = [[] for _ in seats]
        self.in_race = [not out for out in self.dropped]
        #: Seats that sit this round out, and those that will sit the next one out (an unpaid fine).
        self.missing = [False for _ in seats]
        self.bonuses = dict(board.bonuses)
        self.paid: set[int] = set()
        self._start_round()

    def _start_round(self) -> None:
        self.round += 1
        self.phase = Phase.CHOOSE
        self.events.append(ev.RoundStarted(self.game_number, self.round))
        #: The card each seat laid face down this round (``None``: none yet, or none this round).
        self.sealed: list[int | None] = [None for _ in self.names]
        for seat in self.racing():
            if self.missing[seat]:
                self.events.append(ev.MissesRound(seat))
            elif not self.playable(seat):
                self.sealed[seat] = BANNER
                self.events.append(ev.OnlyBanner(seat))
        if not self.choosing():
            self.phase = Phase.REVEAL

    def racing(self) -> list[int]:
        return [seat for seat, racing in enumerate(self.in_race) if racing]

    def playable(self, seat: int) -> list[int]:
        """The number cards ``seat`` may play: those in hand that do not take it past the end
        (all of them while the end is further than the highest card: most of a game)."""
        room, hand = self.board.finish - self.positions[seat], self.hands[seat]
        return sorted(hand) if room >= self.board.highest_card else sorted(card for card in hand if card <= room)

    def choosing(self) -> list[int]:
        """The seats whose sealed card the round still waits for."""
        if self.phase is not Phase.CHOOSE:
            return []
        seats = zip(self.in_race, self.missing, self.sealed, strict=True)
        return [s for s, (racing, missing, sealed) in enumerate(seats) if racing and not missing and sealed is None]

    def options(self, seat: int) -> list[int]:
        """The cards ``seat`` may lay this round: its playable number cards and its banner."""
        return [*self.playable(seat), BANNER]

    # --- the game interface (toprace_pi.core.game) -------------------------------------

    @property
    def decision(self) -> Decision:
        if self.phase is Phase.CHOOSE:
            return _seats_decision(tuple(self.choosing()))
        return CHANCE if self.phase is Phase.REVEAL else NOBODY

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def legal_actions(self) -> list[Action]:
        """Every seat's choices at a sealed choice (a seat's taking back is not listed: it is a
        second thought, not a move, and a bot never needs it); nothing at the reveal (chance's)."""
        return [choose_action(seat, card) for seat in self.choosing() for card in self.options(seat)]

    def chance_outcomes(self) -> ChanceOutcomes[Action]:
        if self.phase is not Phase.REVEAL:
            raise IllegalActionError(f"chance decides nothing now: {self.phase.value}")
        return ChanceOutcomes.of([Reveal()])

    def check(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` naming why ``action`` may not be taken now."""
        if isinstance(action, Reveal):
            if self.phase is not Phase.REVEAL:
                waiting = ", ".join(self.names[s] for s in self.choosing())
                raise IllegalActionError(f"not every card is chosen yet (waiting for {waiting or 'nobody'})"
                                         if self.phase is Phase.CHOOSE else "the series is over")
            return
        if not isinstance(action, Choose | TakeBack):
            raise IllegalActionError(f"not an AUTORACE action: {action!r}")
        seat = action.seat
        if not 0 <= seat < len(self.names):
            raise IllegalActionError(f"there is no seat {seat}")
        who = self.names[seat]
        if self.phase is not Phase.CHOOSE:
            raise IllegalActionError(f"no card is chosen now: {self.phase.value}")
        if not self.in_race[seat]:
            raise IllegalActionError(f"{who} is out of the race")
        if self.missing[seat]:
            raise IllegalActionError(f"{who} misses this round (an unpaid speeding fine)")
        if isinstance(action, TakeBack):
            if self.sealed[seat] is None:
                raise IllegalActionError(f"{who} has no card chosen to take back")
            if not self.playable(seat):
                raise IllegalActionError(f"{who} can only play the banner")
            return
        if self.sealed[seat] is not None:
            raise IllegalActionError(f"{who} has chosen already (take the card back first)")
        self._check_card(seat, action.card)

    def _check_card(self, seat: int, card: int) -> None:
        who, board = self.names[seat], self.board
        if card == BANNER:
            return
        if card not in board.numbers:
            raise IllegalActionError(f"there is no card {card} (the cards are 1 to {board.highest_card} "
                                     "and the banner)")
        if card not in self.hands[seat]:
            raise IllegalActionError(f"{who}'s {card} is on the discard pile, not in hand")
        if self.positions[seat] + card > board.finish:
            raise IllegalActionError(f"a {card} would take {who} past {board.finish}")

    def apply(self, action: Action) -> None:
        """Take ``action``, or raise :class:`IllegalActionError` and change nothing."""
        self.check(action)
        if isinstance(action, Choose):
            self.sealed[action.seat] = action.card
            self.events.append(ev.Chosen(action.seat))
            if not self.choosing():
                self.phase = Phase.REVEAL
        elif isinstance(action, TakeBack):
            self.sealed[action.seat] = None
            self.events.append(ev.TakenBack(action.seat))
        else:
            self._play_round()
        self.log.append(action)

    # --- the round, once revealed -----------------------------------------------------------

    def _play_round(self) -> None:
        before = self._state_key()
        cards = tuple(self.sealed)
        self.events.append(ev.Revealed(cards))
        starts = list(self.positions)
        missing_next = self._fines(cards)
        self._moves(cards)
        self._draws(cards, starts)
        self._objectives(cards, starts)
        for seat, card in enumerate(cards):
            if card:  # a number card onto the seat's own discard pile; the banner stays in hand
                self.hands[seat].discard(card)
                self.discards[seat].append(card)
        self._outs()
        self.missing = missing_next
        ended = self._ended(before)
        if ended:
            self._end_game(ended)
        else:
            self._start_round()

    def _fines(self, cards: Sequence[int | None]) -> list[bool]:
        """Speeding fines; which seats miss the next round, having no money to pay one."""
        missing = [False for _ in self.names]
        numbers = [c for c in cards if c]
        top = max(numbers, default=0)
        if top <= self.board.speed_limit:
            return missing
        fine = top - self.board.speed_limit
        for seat, card in enumerate(cards):
            if card == top:
                if self.money[seat] >= fine:
                    self._pay_bank(seat, fine)
                    self.events.append(ev.Fined(seat, fine))
                else:
                    missing[seat] = True
                    self.events.append(ev.FineUnpaid(seat, fine))
        return missing

    def _moves(self, cards: Sequence[int | None]) -> None:
        for seat, card in enumerate(cards):
            if card:
                start = self.positions[seat]
                self.positions[seat] = start + card
                self.events.append(ev.Moved(seat, start, start + card))

    def _draws(self, cards: Sequence[int | None], starts: Sequence[int]) -> None:
        """Banners: at a filling station the seat takes back its discard pile's top card, paying the
        draw cost times the number of seats drawing at that station; elsewhere a missed turn."""
        drawing: dict[int, list[int]] = {}
        for seat, card in enumerate(cards):
            if card != BANNER:
                continue
            if starts[seat] not in self.board.stations:
                self.events.append(ev.Stopped(seat))
            elif not self.discards[seat]:
                self.events.append(ev.DrawFailed(seat, 0))
            else:
                drawing.setdefault(starts[seat], []).append(seat)
        for seats in drawing.values():
            cost = self.board.draw_cost * len(seats)
            for seat in seats:
                if self.money[seat] < cost:
                    self.events.append(ev.DrawFailed(seat, cost))
                    continue
                self._pay_bank(seat, cost)
                card = self.discards[seat].pop()
                self.hands[seat].add(card)
                self.events.append(ev.Drew(seat, card, cost))

    def _objectives(self, cards: Sequence[int | None], starts: Sequence[int]) -> None:
        """Bonuses of the objectives landed on this round, largest first. A bonus moving on passes by
        every objective landed on this round as well as those paid before (the rules' "had just, or
        previously, landed"), whichever is taken first: a bonus grown by an earlier roll-on can be
        larger than the next one's."""
        landed: dict[int, list[int]] = {}
        for seat, card in enumerate(cards):
            space = self.positions[seat]
            if card and space in self.bonuses and space not in self.paid:
                landed.setdefault(space, []).append(seat)
        passed = self.paid | set(landed)
        while landed:
            space = max(landed, key=lambda s: (self.bonuses[s], s))
            self._objective(space, landed.pop(space), cards, passed)

    def _objective(self, space: int, seats: list[int], cards: Sequence[int | None], passed: set[int]) -> None:
        amount = self.bonuses[space]
        self.paid.add(space)
        self.bonuses[space] = 0
        if len(seats) > 2:
            onward = self.board.next_objective(space, passed)
            if onward is not None:
                self.bonuses[onward] += amount
                self.events.append(ev.BonusMovedOn(space, onward, amount))
                return
            shares = self._divided(amount, seats, cards)
        else:  # the faster of two takes it; two as fast split it (an odd dollar, never printed, to the bank)
            fastest = max(cast(int, cards[s]) for s in seats)
            seats = [s for s in seats if cards[s] == fastest]
            shares = [amount // len(seats)] * len(seats)
        for seat, share in zip(seats, shares, strict=True):
            if share:
                self._pay_player(seat, share)
                self.events.append(ev.BonusPaid(seat, space, share))

    @staticmethod
    def _divided(amount: int, seats: list[int], cards: Sequence[int | None]) -> list[int]:
        """Each of ``seats``' share of ``amount`` on the last objective, divided as evenly as possible:
        all of it goes out, shares differ by $1 at most. The odd dollars go to the fastest (the highest
        card, the rules' own measure of who takes an objective), then in seat order (a reading: the rules
        give the seats no order of their own)."""
        share, odd = divmod(amount, len(seats))
        first = sorted(seats, key=lambda seat: (-cast(int, cards[seat]), seat))[:odd]
        return [share + (seat in first) for seat in seats]

    def _outs(self) -> None:
        """Seats with no number card left they may play, away from a filling station, are out of the
        race and pay the distance to the end (what they can)."""
        board = self.board
        for seat in self.racing():
            position = self.positions[seat]
            if position == board.finish or position in board.stations or self.playable(seat):
                continue
            self.in_race[seat] = False
            fine = board.finish - position
            paid = min(fine, self.money[seat])
            self._pay_bank(seat, paid)
            self.events.append(ev.OutOfRace(seat, position, fine, paid))

    def _ended(self, before: tuple[Any, ...]) -> str | None:
        """Why the game ends after this round, if it does."""
        if self.board.finish in self.positions:
            return "finish"
        if not any(self._can_move(seat) for seat in self.racing()):
            return "stuck"
        self.still_rounds = self.still_rounds + 1 if self._state_key() == before else 0
        return "stalled" if self.still_rounds >= STALLED_ROUNDS else None

    def _can_move(self, seat: int) -> bool:
        """Whether ``seat`` may still move: a card it may play, or one it may draw back and pay for."""
        if self.playable(seat):
            return True
        return (self.positions[seat] in self.board.stations and bool(self.discards[seat])
                and self.money[seat] >= self.board.draw_cost)

    def _state_key(self) -> tuple[Any, ...]:
        """All that a round can change, to tell a round that changed nothing."""
        return (tuple(self.positions), tuple(self.money), tuple(map(len, self.discards)), tuple(self.in_race),
                tuple(self.missing), tuple(sorted(self.paid)))

    def _end_game(self, reason: str) -> None:
        self.results.append(tuple(self.money))
        self.events.append(ev.GameEnded(self.game_number, reason, tuple(self.money)))
        boost = self.settings.boost
        dropped = () if boost else tuple(s for s, m in enumerate(self.money) if m <= 0 and not self.dropped[s])
        for seat in dropped:
            self.dropped[seat] = True
        staying = self.dropped.count(False)
        if self.game_number >= self.settings.games or staying < 2:
            self.phase = Phase.OVER
            self.sealed = [None for _ in self.names]
            self.events.append(ev.SeriesEnded(tuple(self.money), tuple(self.winners())))
            return
        for seat in range(len(self.names)):
            if not self.dropped[seat]:
                self._pay_player(seat, boost)
        self.events.append(ev.GameStarted(self.game_number + 1, boost, dropped))
        self._start_game(boost=boost)

    def _pay_bank(self, seat: int, amount: int) -> None:
        self.money[seat] -= amount
        self.bank += amount

    def _pay_player(self, seat: int, amount: int) -> None:
        self.money[seat] += amount
        self.bank -= amount

    def winners(self) -> list[int]:
        """The richest seat(s)."""
        best = max(self.money)
        return [seat for seat, money in enumerate(self.money) if money == best]

    # --- notation, views, copies ----------------------------------------------------------------

    def parse(self, text: str) -> Action:
        return parse_action(text)

    def snapshot(self) -> dict[str, Any]:
        """The state as plain values, every seat's sealed card left out (only whether it has chosen)."""
        return {
            "game": self.game_number,
            "round": self.round,
            "still_rounds": self.still_rounds,
            "phase": self.phase.name,
            "positions": list(self.positions),
            "money": list(self.money),
            "bank": self.bank,
            "hands": [sorted(hand) for hand in self.hands],
            "discards": [list(pile) for pile in self.discards],
            "in_race": list(self.in_race),
            "dropped": list(self.dropped),
            "missing": list(self.missing),
            "chosen": [card is not None for card in self.sealed],
            "bonuses": {str(space): amount for space, amount in sorted(self.bonuses.items())},
            "paid": sorted(self.paid),
            "results": [list(r) for r in self.results],
        }

    def to_dict(self) -> dict[str, Any]:
        return {"format": "toprace-pi autorace 1", "settings": asdict(self.settings),
                "log": [str(a) for a in self.log], "snapshot": self.snapshot()}

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator): everything but the sealed cards, the board's
        numbers (``board``), and the seat's own: ``my_sealed`` (``None`` before it chooses; the banner
        is 0) and ``my_options``, the cards it may lay now (none once it has chosen). What a bot
        decides on."""
        snap = self.snapshot()
        snap["board"] = self.board_facts()
        snap["seat"] = seat
        if seat is not None:
            snap["my_sealed"] = self.sealed[seat]
            snap["my_options"] = self.options(seat) if seat in self.choosing() else []
        return snap

    def board_facts(self) -> dict[str, Any]:
        """The board's numbers a player reads off the board and the rules, as plain values: a bot
        decides on its view alone, so the view carries them (a made board may change any)."""
        board = self.board
        return {"finish": board.finish, "stations": sorted(board.stations), "speed_limit": board.speed_limit,
                "draw_cost": board.draw_cost, "highest_card": board.highest_card,
                "start_capital": board.start_capital}

    def seen_by(self, seat: int | None) -> Autorace:
        return cast(Autorace, SeatView(self, seat))

    def conceal(self, seat: int | None) -> None:
        """Take out, in place, what ``seat`` may not see: every other seat's card laid face down becomes
        :data:`FACE_DOWN` (which card it is is all the seat does not see; a banner the rules laid for a
        seat stays), and the log, which holds those cards, goes. It only assigns."""
        self.log = []
        for other, card in enumerate(self.sealed):
            if other != seat and card is not None and self.playable(other):
                self.sealed[other] = FACE_DOWN

    def clone(self) -> Self:
        return clone(self)

    def determinized(self, seat: int, rng: random.Random) -> Self:
        """A game ``seat`` cannot tell from this one, for its search: a copy concealed from it
        (:meth:`conceal`), with every card laid face down taken back, to be chosen again (the round
        waits for those seats, even if every card was laid); ``rng`` is not needed."""
        world = self.clone()
        world.conceal(seat)
        world.events = []
        for other, card in enumerate(world.sealed):
            if card == FACE_DOWN:
                world.sealed[other] = None
                world.phase = Phase.CHOOSE
        return world

    def replayed(self, log: Sequence[Action | str]) -> Autorace:
        return self.replay(self.settings, self.board, log)

    @classmethod
    def replay(cls, settings: Settings, board: Board, log: Sequence[Action | str]) -> Self:
        game = cls(settings, board)
        for entry in log:
            game.apply(game.parse(entry) if isinstance(entry, str) else entry)
        return game
