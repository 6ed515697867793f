"""Variant A, Tips: bet on the cars as the leader crosses the three tip lines.

Each time the first car crosses a tip line the race pauses and every player
places a secret tip on a car. At the race's end each tip pays or costs what the
tip table says for the place that car took. Players stay in the race after
their own cars have finished and may pass instead of playing a card; the race
ends when the fifth car finishes, when every player has passed once in turn, or
at once when every hand is empty. A tip line is crossed when the leader's front
edge lies beyond it (:meth:`Track.has_crossed`), as the finish line is.
Money may go below zero: the game says so.

At a real table the tips are kept secret on the players' markers and entered
only when they are revealed at the end (``tips_at_end``): the engine then
announces each tip round, and asks for all tips once the race is over.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from toprace_pi.errors import DataError, IllegalActionError
from toprace_pi.games.toprace.rules.actions import Action, Pass, PlayCard, one_argument, register_notation
from toprace_pi.games.toprace.rules.auction import STEP
from toprace_pi.games.toprace.rules.cards import Deck
from toprace_pi.games.toprace.rules.cars import Car, CarSet
from toprace_pi.games.toprace.rules.events import TipRound, TipsSettled
from toprace_pi.games.toprace.rules.game import Phase, Settings, TopRace, handles, legal
from toprace_pi.games.toprace.rules.track import Track
from toprace_pi.schema import Range, unknown_keys

ROUNDS = ("first", "second", "third")
#: What one tip pays (or costs): the reconstructed table's largest is 100,000, the bank's largest note 1,000,000.
AMOUNT = Range(int, -1_000_000, 1_000_000, "an amount")
TIP_KEYS = ("name", "reconstructed", *ROUNDS)
#: Every player places a secret tip on a car.
TIP = Phase("TIP", "place a secret tip")


@dataclass(frozen=True, slots=True)
class Tip(Action):
    """A secret tip on ``car`` (Tips variant): the seat's next tip marker."""

    car: Car

    def __str__(self) -> str:
        return f"tip {self.car.id}"
PLACES = 6


@dataclass(frozen=True)
class TipTable:
    """What a tip pays by round (0-2) and place (1-6)."""

    name: str
    rows: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    reconstructed: bool = False

    def payout(self, round_: int, place: int) -> int:
        return self.rows[round_][place - 1]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str) -> TipTable:
        """Check a parsed tip table file; every problem is named at once."""
        table = data.get("tips")
        if not isinstance(table, Mapping):
            raise DataError(source, ["[tips]: missing table"])
        problems: list[str] = []
        unknown_keys(data, ("tips",), "the file:", problems, what="table")
        unknown_keys(table, TIP_KEYS, "[tips]", problems)
        rows = []
        for key in ROUNDS:
            row = table.get(key)
            if not isinstance(row, list) or len(row) != PLACES or not all(v in AMOUNT for v in row):
                problems.append(f"[tips] {key}: a list of {PLACES} amounts, one per place, each {AMOUNT}")
                continue
            if any(v % STEP for v in row):
                problems.append(f"[tips] {key}: amounts are whole banknotes, multiples of {STEP:,}")
            rows.append(tuple(row))
        if problems:
            raise DataError(source, problems)
        return cls(str(table.get("name", source)), (rows[0], rows[1], rows[2]),
                   bool(table.get("reconstructed", False)))


#: The reconstructed table (see ``toprace_pi/games/toprace/data/tips/standard.toml``).
STANDARD_TABLE = TipTable(
    "Top Race tip table (reconstructed)",
    ((100_000, 60_000, 30_000, -20_000, -40_000, -60_000),
     (60_000, 40_000, 20_000, -10_000, -30_000, -40_000),
     (30_000, 20_000, 10_000, 0, -10_000, -20_000)),
    reconstructed=True,
)


def settle(tips: list[list[Car]], placements: tuple[Car, ...], table: TipTable) -> list[int]:
    """Each seat's total for its tips (tip ``n`` of a seat is ``tips[seat][n]``)."""
    place = {car: n for n, car in enumerate(placements, 1)}
    return [sum(table.payout(r, place[car]) for r, car in enumerate(seat_tips)) for seat_tips in tips]


class TipsGame(TopRace):
    """Top Race with Variant A."""

    VARIANT = "tips"
    SEAT_SECRETS = TopRace.SEAT_SECRETS | {"tips"}

    def secrets(self, seat: int) -> dict[str, Any]:
        """The tips a seat has noted are its secret until they are revealed."""
        return {**super().secrets(seat), "my_tips": [car.id for car in self.tips[seat]]}

    def redraw_secrets(self, seat: int | None, rng: random.Random | None) -> None:
        """Also the other seats' tips: as many as each has noted, on cars drawn at random (stand-ins:
        on the first car)."""
        super().redraw_secrets(seat, rng)
        for other in range(self.player_count):
            if other != seat:
                self.tips[other] = [self.cars[0] if rng is None else rng.choice(self.cars) for _ in self.tips[other]]

    def __init__(self, settings: Settings, track: Track, deck: Deck, *, table: TipTable = STANDARD_TABLE) -> None:
        self.table = table
        super().__init__(settings, track, deck)

    def _begin_race(self) -> None:
        super()._begin_race()
        self.tips: list[list[Car]] = [[] for _ in range(self.player_count)]
        self.rounds_held = 0
        self.passes_in_a_row = 0
        self._tipping: list[int] = []
        self._end_reason: str | None = None

    # --- taking part and passing -------------------------------------------------

    def takes_part(self, seat: int) -> bool:
        """Everyone stays in the race to the end and may pass."""
        return True

    @handles(Phase.PLAY_CARD, Pass)
    def _apply_pass_turn(self, action: Pass) -> None:
        self.passes_in_a_row += 1
        if self.passes_in_a_row >= self.player_count:
            self._end_race("every player has passed once in turn")
        else:
            self._end_turn()

    def _apply_play(self, action: PlayCard) -> None:
        self.passes_in_a_row = 0
        super()._apply_play(action)

    # --- tip rounds ----------------------------------------------------------------

    def _after_move(self, car: Car) -> bool:
        """A tip round is due when the lead car has crossed the next tip line."""
        if self.rounds_held == len(ROUNDS) or self.settings.tips_at_end:
            self._announce_rounds()
            return False
        if not self._line_crossed(self.rounds_held):
            return False
        self.events.append(TipRound(self.rounds_held + 1))
        self._tipping = [(self.turn + n) % self.player_count for n in range(self.player_count)]
        self.phase, self.to_move = TIP, self._tipping[0]
        return True

    def _announce_rounds(self) -> None:
        """With tips entered at the end, only say when each round is due."""
        while self.rounds_held < len(ROUNDS) and self.settings.tips_at_end and self._line_crossed(self.rounds_held):
            self.rounds_held += 1
            self.events.append(TipRound(self.rounds_held))

    def _line_crossed(self, round_: int) -> bool:
        return self.board.has_crossed(self.track.tip_lines[round_])

    def _check_tip(self, action: Tip) -> None:
        if action.car not in self.cars:
            raise IllegalActionError(f"{action.car!r} is not a car")

    @handles(TIP, Tip, check="_check_tip")
    def _apply_tip(self, action: Tip) -> None:
        seat = self._tipping.pop(0)
        self.tips[seat].append(action.car)
        if self._tipping:
            self.to_move = self._tipping[0]
        elif self._end_reason is not None:
            self._finish_tips_at_end()
        else:
            self.rounds_held += 1
            if not self._after_move(action.car):
                self._continue_card()

    # --- the end ---------------------------------------------------------------------

    def _end_race(self, reason: str) -> None:
        """With tips entered at the end, ask for every seat's tips before settling."""
        if self.settings.tips_at_end and self._end_reason is None:
            self._announce_rounds()
            if self.rounds_held:
                self._end_reason = reason
                self._tipping = [s for _ in range(self.rounds_held) for s in range(self.player_count)]
                self._tipping.sort()  # each seat reveals all its tips in turn
                self.phase, self.to_move = TIP, self._tipping[0]
                return
        super()._end_race(reason)

    def _finish_tips_at_end(self) -> None:
        reason, self._end_reason = self._end_reason, "settled"
        assert reason is not None
        super()._end_race(reason)

    def _settle(self, placements: tuple[Car, ...]) -> None:
        totals = settle(self.tips, placements, self.table)
        for seat, total in enumerate(totals):
            if total > 0:
                self._pay_player(seat, total)
            elif total < 0:
                self._pay_bank(seat, -total)
        self.events.append(TipsSettled(tuple(totals), tuple(self.money)))

    @legal(TIP)
    def tip_choices(self) -> list[Action]:
        return [Tip(car) for car in self.cars]

    @legal(Phase.PLAY_CARD)
    def _legal_cards_or_pass(self) -> list[Action]:
        return [*self._legal_cards(), Pass()]


register_notation("tip", one_argument(Tip, CarSet.parse))
