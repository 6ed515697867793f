"""TOP SPEED's rules: one state object that knows what may happen next.

The setup is chance's: the starting order and each deck's shuffle are chance actions in
the log (the engine draws no random number itself), so the log rebuilds the game exactly.
A round then goes round the table in race order, leader first, each turn one draw, a pass
or a pit stop, until every player's round has ended; the movement phase follows at once,
with no decision in it. A pit stop's new deck is shuffled by chance when it is declared.
Readings of what the text leaves open are in docs/rules-topspeed.md.
"""

from __future__ import annotations

import enum
import math
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import partial
from typing import Any, ClassVar, Self, cast

from toprace_pi.core.clone import clone
from toprace_pi.core.game import CHANCE, NOBODY, ChanceOutcomes, Decision, GameInfo, nth_permutation
from toprace_pi.core.seat_view import SeatView
from toprace_pi.errors import IllegalActionError, SettingsError
from toprace_pi.games.topspeed.rules import events as ev
from toprace_pi.games.topspeed.rules.actions import (
    Action,
    Draw,
    DrawCard,
    HiddenShuffle,
    Keep,
    Leave,
    Pass,
    PitStop,
    SeatAction,
    Shuffle,
    SitOut,
    StartOrder,
    UseKept,
    parse_action,
    seat_action,
)
from toprace_pi.games.topspeed.rules.cards import (
    DAMAGE,
    DRIVE_THROUGH_SPACES,
    ON_THE_TABLE,
    QUALIFYING_LAPS,
    RACE_TYPES,
    SAFETY_CAR_ROUNDS,
    Card,
    Deck,
    Kind,
    card_of,
    extra_card,
    pit_stop_spaces,
    word_of,
)
from toprace_pi.games.topspeed.rules.circuit import Circuit

MIN_PLAYERS, MAX_PLAYERS = 2, 8
#: A short race by default (Montmeló's Grand Prix has 66 laps: ``circuit.grand_prix_laps``).
DEFAULT_LAPS = 10
MAX_LAPS = 200
#: In the chance queue: the starting order (the other entries are seats whose deck is shuffled).
GRID = -1
#: A deck, row, discard pile or damage row.
Pile = tuple[Card, ...]
#: The kinds of card whose second on the table takes effect (a tuple: its look-up is by identity,
#: where a set would hash the kind in Python at every card laid).
_ACT_FROM_THE_TABLE = (Kind.BLANK, Kind.YELLOW_FLAG, Kind.SAFETY_CAR)


class Stage(enum.Enum):
    SETUP = "the setup"
    QUALIFYING = "the qualifying"
    RACE = "the race"
    OVER = "the race is over"


class RoundEnd(enum.Enum):
    """How a player's round ended."""

    PASSED = "passed"
    OUT = "two identical trouble cards"
    PIT_STOP = "pit stop"
    SAT_OUT = "no lap"


@dataclass(frozen=True)
class Settings:
    players: tuple[str, ...]
    laps: int = DEFAULT_LAPS
    #: "normal", "wet" or "custom" (the cards ``removed`` taken out of every deck, by their words).
    race: str = "normal"
    removed: tuple[str, ...] = ()
    qualifying: bool = False
    fastest_lap: bool = False
    kers: bool = False
    #: The blank card stays in the decks, played as chaotic weather.
    blank_card: bool = False
    circuit: str = "montmelo"
    deck: str = "standard"
    #: The card the blank card plays as in every deck (its word: "safety_car", "2"), agreed before the race:
    #: one more of that card; "": the blank is not played as a card.
    blank_as: str = ""
    #: The blank stands in for a lost or damaged ``blank_as`` instead: the decks hold as many of that card
    #: as their file says (what changes is only the card a physical blank minicard is read as).
    blank_replaces: bool = False

    def __post_init__(self) -> None:
        if len(set(self.players)) < len(self.players) or not all(self.players):
            raise SettingsError("the players need different names")
        if not 2 <= self.laps <= MAX_LAPS:
            raise SettingsError(f"a race has 2 to {MAX_LAPS} laps, not {self.laps}")
        if self.race not in RACE_TYPES:
            raise SettingsError(f"the race type is one of {', '.join(RACE_TYPES)}, not {self.race!r}")
        if self.removed and self.race != "custom":
            raise SettingsError("only a custom race names the cards it takes out of the decks")
        if self.blank_as or self.blank_replaces:
            self._check_blank_as()

    def _check_blank_as(self) -> None:
        """The blank card is one thing at a time: a card (one more, or in place of a lost one), or chaotic
        weather."""
        if not self.blank_as:
            raise SettingsError("the blank card replaces a lost card only when that card is named")
        try:
            extra_card(self.blank_as)
        except IllegalActionError as exc:
            raise SettingsError(f"the card the blank card plays as: {exc}") from None
        if self.blank_card:
            raise SettingsError("the blank card is either chaotic weather or a card, not both")

    def race_deck(self, deck: Deck) -> Deck:
        """``deck`` as this race reads it: the blank card as the card it plays as, if one was agreed."""
        return deck.with_blank_as(extra_card(self.blank_as)) if self.blank_as else deck

    def race_cards(self, deck: Deck) -> tuple[Card, ...]:
        """The cards each player races with out of ``deck``: those of the race type, with the blank card as
        one card more if it is an extra card (as a replacement it adds none: it is the lost card)."""
        played = deck if self.blank_replaces else self.race_deck(deck)
        try:
            return played.for_race(self.race, self.removed, self.blank_card)
        except IllegalActionError as exc:  # the cards these settings take out do not fit the deck
            raise SettingsError(str(exc)) from None


class TopSpeed:
    """A race of TOP SPEED for ``settings.players`` on ``circuit``, each with a deck of ``deck``."""

    info: ClassVar[GameInfo] = GameInfo(
        name="topspeed", title="TOP SPEED", min_players=MIN_PLAYERS, max_players=MAX_PLAYERS, chance=True,
        secret_information=True, simultaneous=False)
    #: Per-seat secrets: the card a seat keeps apart (KERS), and the green card it has just drawn and
    #: not yet kept or left in its row.
    SEAT_SECRETS: ClassVar[frozenset[str]] = frozenset({"kept", "drawn"})
    #: What a seat's view does not show at all: the decks' order (nobody may peek, not even the owner),
    #: the log that holds the shuffles, and the copies that hold both.
    SEAT_HIDDEN: ClassVar[frozenset[str]] = frozenset({"decks", "log", "to_dict", "clone", "replayed"})
    #: Lists (and a dict) of immutable values only (numbers, flags, cards, piles): a clone copies them in one go.
    CLONE_SHALLOW = ("log", "events", "decks", "composition", "rows", "discards", "damage", "kept", "hidden",
                     "drawn", "progress", "lapped", "fastest", "qualifying_times", "chance_queue", "turn_order",
                     "ends", "drew", "out_by", "pit_back", "kept_now", "used_now")

    def __init__(self, settings: Settings, circuit: Circuit, deck: Deck) -> None:
        count = len(settings.players)
        if not MIN_PLAYERS <= count <= MAX_PLAYERS:
            raise SettingsError(f"TOP SPEED is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {count}")
        if circuit.spaces <= count:
            raise SettingsError(f"{circuit.name} has {circuit.spaces} spaces: too few for {count} cars")
        self.settings, self.circuit, self.deck = settings, circuit, settings.race_deck(deck)
        self.names = tuple(settings.players)
        cards = settings.race_cards(deck)
        seats = range(count)
        #: Each seat's draw deck, top card last (before a shuffle in the deck file's order), row, discard
        #: pile and damage row. Each is a tuple, replaced when it changes: a clone shares them.
        self.decks = [cards for _ in seats]
        self.deck_size = len(cards)
        #: What each player races with, card word -> copies: known to all (the race type is).
        self.composition = deck.composition(cards)
        self.rows: list[Pile] = [() for _ in seats]
        self.discards: list[Pile] = [() for _ in seats]
        self.damage: list[Pile] = [() for _ in seats]
        self.kept: list[Card | None] = [None for _ in seats]
        #: Decks shuffled by hand (:class:`HiddenShuffle`): their order is nobody's to know, each draw names its card.
        self.hidden = [False for _ in seats]
        self.drawn: list[Card | None] = [None for _ in seats]
        #: Spaces each car has gone since the start (see :mod:`~toprace_pi.games.topspeed.rules.circuit`).
        self.progress = [0 for _ in seats]
        self.lapped = [False for _ in seats]
        #: Most spaces each car went in one movement phase (the Fastest Lap rule), and its best qualifying lap.
        self.fastest = [0 for _ in seats]
        self.qualifying_times = [0 for _ in seats]
        self.log: list[Action] = []
        self.events: list[ev.Event] = []
        self.stage = Stage.SETUP
        self.qualified = False
        self.round = self.qualifying_lap = 0
        #: The lap counter, and the highest lap the lead car has begun (it moves the counter on).
        self.lap = self.lead_lap = 0
        self.chaotic_weather = False
        #: Safety car rounds still to come, and whether this round is one.
        self.safety_car_rounds = 0
        self.under_safety_car = False
        #: What chance decides next, in order: :data:`GRID` or a seat whose deck is shuffled.
        self.chance_queue = [*seats, GRID] if settings.qualifying else [GRID, *seats]
        self.turn: int | None = None
        self._new_round(list(seats))

    # --- rounds ------------------------------------------------------------------------

    def _new_round(self, turn_order: list[int]) -> None:
        seats = range(len(self.names))
        self.turn_order = turn_order
        self.ends: list[RoundEnd | None] = [None for _ in seats]
        self.drew = [False for _ in seats]
        self.out_by: list[Kind | None] = [None for _ in seats]
        self.pit_back = [0 for _ in seats]
        self.kept_now = [False for _ in seats]
        self.used_now = [False for _ in seats]
        self.turn = turn_order[0] if self.stage in (Stage.QUALIFYING, Stage.RACE) else None

    def _begin(self) -> None:
        """Once the setup's chance steps are done: the qualifying, or the race."""
        if self.settings.qualifying and not self.qualified:
            self.stage = Stage.QUALIFYING
            self._start_qualifying_round()
        else:
            self.stage = Stage.RACE
            self._start_round()

    def _start_qualifying_round(self) -> None:
        self.qualifying_lap += 1
        self.events.append(ev.QualifyingRoundStarted(self.qualifying_lap))
        self._new_round(list(range(len(self.names))))

    def _start_round(self) -> None:
        """The lap counter moves on (which may end the race); the turns go in race order."""
        self.round += 1
        self.lap += 1
        self.under_safety_car = self.safety_car_rounds > 0
        self.safety_car_rounds = max(0, self.safety_car_rounds - 1)
        self.events.append(ev.RoundStarted(self.round, self.lap, self.settings.laps, self.under_safety_car,
                                           self.safety_car_rounds))
        if self.lap >= self.settings.laps:
            self._end_race()
        else:
            self._new_round(self.race_order())

    def race_order(self) -> list[int]:
        """The seats, lead car first."""
        return sorted(range(len(self.names)), key=lambda seat: -self.progress[seat])

    def _next_turn(self, seat: int) -> None:
        """The next seat in turn order whose round goes on; the movement phase once none does."""
        order = self.turn_order
        at = order.index(seat)
        for step in range(1, len(order) + 1):
            following = order[(at + step) % len(order)]
            if self.ends[following] is None:
                self.turn = following
                return
        self.turn = None
        self._movement_phase()

    # --- what each seat may do ------------------------------------------------------------

    def options(self, seat: int) -> list[SeatAction]:
        """What ``seat`` may do now (nothing unless it is its turn)."""
        if seat != self.turn or self.chance_queue:
            return []
        if self.drawn[seat] is not None:
            return [seat_action(Keep, seat), seat_action(Leave, seat)]
        found: list[SeatAction] = self._draws(seat)
        if self._may_use_kept(seat):
            found.append(seat_action(UseKept, seat))
        if self.drew[seat]:
            found.append(seat_action(Pass, seat))
        else:
            found.append(seat_action(SitOut if self.stage is Stage.QUALIFYING else PitStop, seat))
        return found

    def _draws(self, seat: int) -> list[SeatAction]:
        """A draw from a known deck; from one shuffled by hand, a draw naming each card it may still hold."""
        deck = self.decks[seat]
        if not self.hidden[seat]:
            return [seat_action(Draw, seat)] if deck else []
        return [DrawCard(seat, card.word) for card in dict.fromkeys(deck)]

    def _may_keep(self, seat: int, card: Card) -> bool:
        """KERS: a green card just drawn, with none kept already and none used this round."""
        return (self.settings.kers and card.is_green and self.kept[seat] is None and not self.used_now[seat]
                and not self.under_safety_car)

    def _may_use_kept(self, seat: int) -> bool:
        return self.kept[seat] is not None and not self.kept_now[seat] and not self.under_safety_car

    def table_count(self, kind: Kind) -> int:
        """Cards of ``kind`` in this round's rows, all players' together."""
        return self._table_kinds().count(kind)

    def _table_kinds(self) -> list[Kind]:
        """The kind of every card in this round's rows (counted in C: a view counts three kinds)."""
        return [card.kind for row in self.rows for card in row]

    def acts_as(self, card: Card) -> Kind:
        """The kind a card plays as: in chaotic weather a Tire trouble is an Off Track."""
        if self.chaotic_weather and card.kind is Kind.TIRE_TROUBLE:
            return Kind.OFF_TRACK
        return card.kind

    def points(self, seat: int) -> int:
        """The row's movement points less the damage row, never below 0."""
        green = sum(card.points for card in self.rows[seat])
        return max(0, green - len(self.damage[seat]))

    # --- the game interface (toprace_pi.core.game) ---------------------------------------

    @property
    def decision(self) -> Decision:
        if self.stage is Stage.OVER:
            return NOBODY
        if self.chance_queue:
            return CHANCE
        return Decision.of(cast(int, self.turn))

    @property
    def is_over(self) -> bool:
        return self.stage is Stage.OVER

    def legal_actions(self) -> list[Action]:
        """The seat's choices on its turn; nothing at a chance decision (see :meth:`chance_outcomes`)."""
        return [] if self.turn is None else list(self.options(self.turn))

    def chance_outcomes(self) -> ChanceOutcomes[Action]:
        if not self.chance_queue:
            raise IllegalActionError(f"chance decides nothing now: {self._waiting()}")
        step = self.chance_queue[0]
        if step == GRID:
            return ChanceOutcomes(self._grid_count(), StartOrder)
        return ChanceOutcomes(math.factorial(len(self.decks[step])), partial(Shuffle, step))

    def check(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` naming why ``action`` may not be taken now."""
        if isinstance(action, StartOrder | Shuffle | HiddenShuffle):
            self._check_chance(action)
            return
        if not isinstance(action, SeatAction):
            raise IllegalActionError(f"not a TOP SPEED action: {action!r}")
        if not 0 <= action.seat < len(self.names):
            raise IllegalActionError(f"there is no seat {action.seat}")
        if action not in self.options(action.seat):
            raise IllegalActionError(self._refusal(action))

    def _check_chance(self, action: StartOrder | Shuffle | HiddenShuffle) -> None:
        step = self.chance_queue[0] if self.chance_queue else None
        wanted = GRID if isinstance(action, StartOrder) else action.seat
        if step is None or step != wanted:
            raise IllegalActionError(f"chance does not decide that now: {self._waiting()}")
        if isinstance(action, HiddenShuffle):
            return
        total = self.chance_outcomes().total
        if not 0 <= action.index < total:
            raise IllegalActionError(f"outcome {action.index} of {total}: out of range")

    def _waiting(self) -> str:
        """What the game waits for, in words."""
        if self.stage is Stage.OVER:
            return "the race is over"
        if self.chance_queue:
            step = self.chance_queue[0]
            return "the starting order" if step == GRID else f"the shuffle of {self.names[step]}'s deck"
        return f"{self.names[cast(int, self.turn)]}'s turn"

    def _refusal(self, action: SeatAction) -> str:
        """Why a seat action is not among the seat's options, in words."""
        seat, who = action.seat, self.names[action.seat]
        if self.stage is Stage.OVER or self.chance_queue or seat != self.turn:
            return f"not {who}'s turn: {self._waiting()}"
        if self.drawn[seat] is not None:
            return f"{who} first keeps the green card apart or leaves it in the row (KERS)"
        reasons = {
            DrawCard: self._draw_card_refusal(action) if isinstance(action, DrawCard) else "",
            Keep: f"{who} has no green card just drawn to keep",
            Leave: f"{who} has no green card just drawn to leave",
            Draw: (f"{who}'s deck is shuffled by hand: a draw names the card that came up" if self.hidden[seat]
                   else f"{who}'s deck is empty: {'pass' if self.drew[seat] else 'a pit stop'}"),
            Pass: ("under the safety car each player draws one card" if self.under_safety_car
                   else f"{who} must draw a card before passing"),
            PitStop: ("no pit stops in the qualifying (a player may make no lap)"
                      if self.stage is Stage.QUALIFYING else f"{who} has drawn: a pit stop only before drawing"),
            SitOut: ("only in the qualifying may a player make no lap" if self.stage is not Stage.QUALIFYING
                     else f"{who} has drawn: no lap is chosen before drawing"),
            UseKept: self._kers_refusal(seat),
        }
        return reasons[type(action)]

    def _draw_card_refusal(self, action: DrawCard) -> str:
        who = self.names[action.seat]
        if not self.hidden[action.seat]:
            return f"the order of {who}'s deck is known: a draw names no card"
        try:
            card = card_of(action.word)
        except IllegalActionError as exc:
            return str(exc)
        return f"{who}'s deck holds no more {card.kind.title if not card.is_green else f'{card.points}s'}"

    def _kers_refusal(self, seat: int) -> str:
        who = self.names[seat]
        if self.kept[seat] is None:
            return f"{who} has no card kept apart" + ("" if self.settings.kers else " (KERS is not played)")
        if self.under_safety_car:
            return "under the safety car each player only draws one card"
        return f"{who} kept a card this round: it is used in a later round"

    def apply(self, action: Action) -> None:
        """Take ``action``, or raise :class:`IllegalActionError` and change nothing."""
        self.check(action)
        if isinstance(action, StartOrder):
            self._start_order(action.index)
        elif isinstance(action, Shuffle):
            self._shuffle(action.seat, action.index)
        elif isinstance(action, HiddenShuffle):
            self._hidden_shuffle(action.seat)
        elif isinstance(action, DrawCard):
            self._draw_card(action.seat, card_of(action.word))
        else:
            self._SEAT_ACTIONS[type(action)](self, action.seat)
        self.log.append(action)

    # --- chance: the starting order and the shuffles -------------------------------------------

    def _grid_groups(self) -> list[list[int]]:
        """The seats in starting order, as groups whose order chance decides: all of them, or after
        the qualifying each set of equal fastest laps, fastest first."""
        seats = list(range(len(self.names)))
        if not self.settings.qualifying:
            return [seats]
        times = sorted(set(self.qualifying_times), reverse=True)
        return [[s for s in seats if self.qualifying_times[s] == t] for t in times]

    def _grid_count(self) -> int:
        return math.prod(math.factorial(len(group)) for group in self._grid_groups())

    def _start_order(self, index: int) -> None:
        """The cars on the grid: the first on the finish-line space, each next one on the space behind."""
        order: list[int] = []
        for group in self._grid_groups():
            index, rank = divmod(index, math.factorial(len(group)))
            order += nth_permutation(group, rank)
        for place, seat in enumerate(order):
            self.progress[seat] = -place
        self.events.append(ev.StartingOrder(tuple(order)))
        self._chance_done()

    def _shuffle(self, seat: int, index: int) -> None:
        self.hidden[seat] = False
        self.decks[seat] = tuple(nth_permutation(self.decks[seat], index))
        self.events.append(ev.Shuffled(seat, len(self.decks[seat])))
        self._chance_done()

    def _hidden_shuffle(self, seat: int) -> None:
        self.hidden[seat] = True
        self.events.append(ev.Shuffled(seat, len(self.decks[seat])))
        self._chance_done()

    def _chance_done(self) -> None:
        step = self.chance_queue.pop(0)
        if self.chance_queue:
            return
        if self.stage is Stage.SETUP:
            self._begin()
        else:  # a pit stop's new deck: the round goes on
            self._next_turn(step)

    def _new_deck(self, seat: int, cards: Pile) -> None:
        """``cards`` as ``seat``'s deck in the deck file's order, to be shuffled by chance."""
        self.decks[seat] = self.deck.in_file_order(cards)
        self.chance_queue.append(seat)

    # --- a seat's actions ---------------------------------------------------------------------

    def _draw(self, seat: int) -> None:
        *rest, card = self.decks[seat]
        self.decks[seat] = tuple(rest)
        self._drawn(seat, card)

    def _draw_card(self, seat: int, card: Card) -> None:
        """The card named, from a deck shuffled by hand (its order unknown: any copy is the same)."""
        deck = list(self.decks[seat])
        deck.remove(card)
        self.decks[seat] = tuple(deck)
        self._drawn(seat, card)

    def _drawn(self, seat: int, card: Card) -> None:
        self.drew[seat] = True
        if self.under_safety_car:
            self.discards[seat] += (card,)
            self.events.append(ev.DrewAndDiscarded(seat, card))
            self._end_turn(seat, RoundEnd.PASSED)
        elif self._may_keep(seat, card):
            self.drawn[seat] = card  # the seat decides, seeing it, whether to keep it apart
        else:
            self._lay(seat, card)

    def _keep(self, seat: int) -> None:
        self.kept[seat], self.drawn[seat] = self.drawn[seat], None
        self.kept_now[seat] = True
        self.events.append(ev.KeptApart(seat))
        self._next_turn(seat)

    def _leave(self, seat: int) -> None:
        card = cast(Card, self.drawn[seat])
        self.drawn[seat] = None
        self._lay(seat, card)

    def _use_kept(self, seat: int) -> None:
        card = cast(Card, self.kept[seat])
        self.kept[seat] = None
        self.used_now[seat] = self.drew[seat] = True
        self.events.append(ev.UsedKept(seat, card))
        self._lay(seat, card, told=True)

    def _pass(self, seat: int) -> None:
        self.events.append(ev.Passed(seat))
        self._end_turn(seat, RoundEnd.PASSED)

    def _pit_stop(self, seat: int) -> None:
        """Discard pile, deck and damage row make a new deck; the car goes back in the movement phase."""
        self.pit_back[seat] = pit_stop_spaces(self.damage[seat])
        cards = self.discards[seat] + self.decks[seat] + self.damage[seat]
        self.discards[seat] = self.damage[seat] = ()
        self.events.append(ev.PitStopDeclared(seat, self.pit_back[seat]))
        self.ends[seat] = RoundEnd.PIT_STOP
        self._new_deck(seat, cards)  # the round goes on once chance has shuffled it

    def _sit_out(self, seat: int) -> None:
        self.events.append(ev.SatOut(seat))
        self._end_turn(seat, RoundEnd.SAT_OUT)

    _SEAT_ACTIONS: ClassVar[dict[type, Any]] = {
        Draw: _draw, Keep: _keep, Leave: _leave, UseKept: _use_kept, Pass: _pass, PitStop: _pit_stop,
        SitOut: _sit_out}

    def _end_turn(self, seat: int, end: RoundEnd) -> None:
        self.ends[seat] = end
        self._next_turn(seat)

    def _lay(self, seat: int, card: Card, told: bool = False) -> None:
        """``card`` into ``seat``'s row: a second identical trouble card ends its round, and the second
        card of a kind that acts from the table takes effect."""
        row = self.rows[seat] = (*self.rows[seat], card)
        if not told:
            self.events.append(ev.Drew(seat, card))
        kind = self.acts_as(card)
        identical = card.is_trouble and any(self.acts_as(other) is kind for other in row[:-1])
        self._on_the_table(card.kind)
        if identical:
            self._out(seat, kind)
        else:
            self._next_turn(seat)

    def _on_the_table(self, kind: Kind) -> None:
        if kind not in _ACT_FROM_THE_TABLE or self.table_count(kind) != ON_THE_TABLE:
            return
        if kind is Kind.BLANK:
            self.chaotic_weather = not self.chaotic_weather
            self.events.append(ev.TableCards(kind, self.chaotic_weather))
        elif kind in (Kind.YELLOW_FLAG, Kind.SAFETY_CAR) and self.stage is Stage.RACE:
            self.events.append(ev.TableCards(kind))

    def _out(self, seat: int, kind: Kind) -> None:
        """Two identical trouble cards: no more draws and no movement; a Tire or Engine pair leaves
        one of the two in the damage row."""
        self.out_by[seat] = kind
        penalty = kind is Kind.DRIVE_THROUGH and self.stage is Stage.RACE
        self.events.append(ev.OutOfRound(seat, kind, DRIVE_THROUGH_SPACES if penalty else 0))
        if kind in DAMAGE:
            *rest, card = self.rows[seat]
            self.rows[seat] = tuple(rest)
            self.damage[seat] += (card,)
            self.events.append(ev.Damaged(seat, card, len(self.damage[seat])))
        self._end_turn(seat, RoundEnd.OUT)

    # --- the movement phase -----------------------------------------------------------------

    def _movement_phase(self) -> None:
        if self.stage is Stage.QUALIFYING:
            self._qualifying_laps()
            return
        overtaking = self.table_count(Kind.YELLOW_FLAG) < ON_THE_TABLE
        safety_car = not self.under_safety_car and self.table_count(Kind.SAFETY_CAR) >= ON_THE_TABLE
        pitted = RoundEnd.PIT_STOP in self.ends
        for seat in self.race_order():
            self._move(seat, overtaking)
            if self.stage is Stage.OVER:
                return
        self._clear_rows()
        if safety_car:
            self.events.append(ev.SafetyCar(out=True))
            self.safety_car_rounds = SAFETY_CAR_ROUNDS
        if safety_car or (self.under_safety_car and pitted):
            self._close_up()
        if self.under_safety_car and not self.safety_car_rounds:
            self.events.append(ev.SafetyCar(out=False))
        self._mark_lapped()
        self._start_round()

    def _move(self, seat: int, overtaking: bool) -> None:
        end, out_by = self.ends[seat], self.out_by[seat]
        if end is RoundEnd.PIT_STOP:
            self._drive(seat, -self.pit_back[seat], "pit stop")
        elif end is RoundEnd.OUT and out_by is Kind.DRIVE_THROUGH:
            self._drive(seat, -DRIVE_THROUGH_SPACES, "drive through")
        elif end is RoundEnd.PASSED and not self.under_safety_car and self.points(seat):
            moved = self._drive(seat, self.points(seat), "cards", overtaking)
            self.fastest[seat] = max(self.fastest[seat], moved)
            self._count_laps(seat)

    def _drive(self, seat: int, spaces: int, why: str, overtaking: bool = True) -> int:
        """Move ``seat``'s car ``spaces`` (back if negative); the spaces it actually went."""
        circuit, start = self.circuit, self.progress[seat]
        others = [p for s, p in enumerate(self.progress) if s != seat]
        flagged = False
        if spaces >= 0:
            end = circuit.forward(start, spaces, others, overtaking)
            flagged = end != circuit.forward(start, spaces, others)
        else:
            end = circuit.backward(start, -spaces, others)
        self.progress[seat] = end
        self.events.append(ev.Moved(seat, circuit.space(start), circuit.space(end), end - start, spaces, why,
                                    flagged, circuit.lap(end) - circuit.lap(start)))
        return end - start

    def _count_laps(self, seat: int) -> None:
        """The lead car into a lap no car has begun: the lap counter moves on (which may end the race)."""
        lap = self.circuit.lap(self.progress[seat])
        if lap <= self.lead_lap:
            return
        self.lap += lap - self.lead_lap
        self.lead_lap = lap
        self.events.append(ev.LeaderCrossed(seat, self.lap))
        if self.lap >= self.settings.laps:
            self._end_race()

    def _close_up(self) -> None:
        """The safety car: in race order each car moves up to the space behind the car ahead of it
        (a lapped car to the one on the track, so it stays lapped)."""
        spaces = self.circuit.spaces
        order = self.race_order()
        for ahead, seat in zip(order, order[1:], strict=False):
            start, behind = self.progress[seat], self.progress[ahead] - 1
            target = behind - (behind - start) // spaces * spaces
            others = [p for s, p in enumerate(self.progress) if s != seat]
            end = self.circuit.land(target, others)
            if end > start:
                self.progress[seat] = end
                self.events.append(ev.Moved(seat, self.circuit.space(start), self.circuit.space(end),
                                            end - start, end - start, "safety car",
                                            laps=self.circuit.lap(end) - self.circuit.lap(start)))

    def _clear_rows(self) -> None:
        """The played cards (not the damage row) onto each player's own discard pile."""
        for seat, row in enumerate(self.rows):
            self.discards[seat] += row
            self.rows[seat] = ()

    def _mark_lapped(self) -> None:
        leader = max(self.progress)
        for seat, progress in enumerate(self.progress):
            lapped = leader - progress >= self.circuit.spaces
            if lapped != self.lapped[seat]:
                self.lapped[seat] = lapped
                self.events.append(ev.Lapped(seat, lapped))

    # --- the qualifying ---------------------------------------------------------------------

    def _qualifying_laps(self) -> None:
        """Each lap is the movement points less the damage row; the fastest counts."""
        for seat, end in enumerate(self.ends):
            if end is RoundEnd.SAT_OUT:
                continue
            lap = self.points(seat) if end is RoundEnd.PASSED else 0
            self.qualifying_times[seat] = max(self.qualifying_times[seat], lap)
            self.events.append(ev.QualifyingLap(seat, lap, self.qualifying_times[seat]))
        self._clear_rows()
        if all(end is RoundEnd.SAT_OUT for end in self.ends) or self.qualifying_lap >= QUALIFYING_LAPS:
            self._end_qualifying()
        else:
            self._start_qualifying_round()

    def _end_qualifying(self) -> None:
        """Every card back to its deck and each deck shuffled; then chance breaks the ties of the grid."""
        self.events.append(ev.QualifyingEnded(tuple(self.qualifying_times)))
        self.qualified, self.stage, self.turn = True, Stage.SETUP, None
        for seat in range(len(self.names)):
            kept = tuple(c for c in (self.kept[seat], self.drawn[seat]) if c is not None)
            cards = self.decks[seat] + self.discards[seat] + self.damage[seat] + kept
            self.discards[seat] = self.damage[seat] = ()
            self.kept[seat] = self.drawn[seat] = None
            self._new_deck(seat, cards)
        self.chance_queue.append(GRID)

    # --- the end ------------------------------------------------------------------------------

    def _end_race(self) -> None:
        """The Fastest Lap rule moves each car on by its fastest lap, in race order; the first car wins."""
        self.stage, self.turn = Stage.OVER, None
        if self.settings.fastest_lap:
            for seat in self.race_order():
                if self.fastest[seat]:
                    self._drive(seat, self.fastest[seat], "fastest lap")
        self.events.append(ev.RaceEnded(tuple(self.race_order())))

    def winners(self) -> list[int]:
        """The first car in race order."""
        return self.race_order()[:1]

    # --- notation, views, copies --------------------------------------------------------------

    def parse(self, text: str) -> Action:
        return parse_action(text)

    def snapshot(self) -> dict[str, Any]:
        """The state as every player sees it: the decks' sizes, not their order; whether a seat keeps a
        card apart or is deciding on a green card just drawn, not which."""
        words, on_the_table = _pile_words, self._table_kinds()
        return {
            "stage": self.stage.name,
            "chance": self._waiting() if self.chance_queue else None,
            "round": self.round,
            "qualifying_lap": self.qualifying_lap,
            "lap": self.lap,
            "laps": self.settings.laps,
            "lead_lap": self.lead_lap,
            "order": self.race_order(),
            "turn_order": list(self.turn_order),
            "turn": self.turn,
            "progress": list(self.progress),
            "spaces": [self.circuit.space(p) for p in self.progress],
            "circuit_spaces": self.circuit.spaces,
            "lapped": list(self.lapped),
            "deck_sizes": [len(deck) for deck in self.decks],
            "hidden_decks": list(self.hidden),
            "composition": dict(self.composition),
            "rows": [words(row) for row in self.rows],
            "discards": [words(pile) for pile in self.discards],
            "damage": [words(row) for row in self.damage],
            "keeps_a_card": [card is not None for card in self.kept],
            "deciding_on_a_card": [card is not None for card in self.drawn],
            "drew": list(self.drew),
            "round_ended": [end.name if end else None for end in self.ends],
            "out_by": [kind.value if kind else None for kind in self.out_by],
            "pit_stop_back": list(self.pit_back),
            "yellow_flags": on_the_table.count(Kind.YELLOW_FLAG),
            "safety_cars": on_the_table.count(Kind.SAFETY_CAR),
            "blanks": on_the_table.count(Kind.BLANK),
            "chaotic_weather": self.chaotic_weather,
            "under_safety_car": self.under_safety_car,
            "safety_car_rounds": self.safety_car_rounds,
            "fastest_laps": list(self.fastest),
            "qualifying_times": list(self.qualifying_times),
        }

    def to_dict(self) -> dict[str, Any]:
        """Everything, the secrets too (a seat's view has no ``to_dict``)."""
        return {"format": "toprace-pi topspeed 1", "settings": asdict(self.settings),
                "log": [str(a) for a in self.log], "snapshot": self.snapshot(),
                "decks": [_pile_words(deck) for deck in self.decks],
                "kept": _words(self.kept), "drawn": _words(self.drawn)}

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator): the snapshot, and the seat's own card kept
        apart (``my_kept``), green card just drawn (``my_drawn``) and options (``my_options``, notation)."""
        snap = self.snapshot()
        snap["seat"] = seat
        if seat is not None:
            snap["my_kept"] = _word(self.kept[seat])
            snap["my_drawn"] = _word(self.drawn[seat])
            snap["my_options"] = [str(a) for a in self.options(seat)]
        return snap

    def seen_by(self, seat: int | None) -> TopSpeed:
        return cast(TopSpeed, SeatView(self, seat))

    def clone(self) -> Self:
        return clone(self)

    def conceal(self, seat: int | None) -> None:
        """Take out, in place, what ``seat`` may not see: every deck is put in the deck file's order
        (nobody knows a deck's order); each other seat's card kept apart or just drawn goes back into
        its deck and a stand-in comes out, the first green card in that order (so every count stays);
        the log, which holds the shuffles, goes. It only assigns."""
        self.log = []
        for other in range(len(self.names)):
            self._redraw_deck(other, other != seat, None)

    def determinized(self, seat: int, rng: random.Random) -> Self:
        """A game ``seat`` cannot tell from this one, for its search: a copy concealed from it
        (:meth:`conceal`), with every deck shuffled anew with ``rng`` and each other seat's card
        kept apart or just drawn drawn anew among the green cards of that deck."""
        world = self.clone()
        world.conceal(seat)
        world.events = []
        for other in range(len(self.names)):
            world._redraw_deck(other, other != seat, rng)
        return world

    def _redraw_deck(self, seat: int, secrets: bool, rng: random.Random | None) -> None:
        """``seat``'s deck shuffled with ``rng`` (``None``: in the file's order), with its kept and
        drawn cards (``secrets``) among it first and drawn again from it."""
        held = (self.kept, self.drawn) if secrets else ()
        apart = [card for secret in held if (card := secret[seat]) is not None]
        cards = list(self.deck.in_file_order([*self.decks[seat], *apart]))
        if rng is not None:
            rng.shuffle(cards)
        for secret in held:
            if secret[seat] is not None:
                secret[seat] = cards.pop(next(i for i, card in enumerate(cards) if card.is_green))
        self.decks[seat] = tuple(cards)

    def replayed(self, log: Sequence[Action | str]) -> TopSpeed:
        return self.replay(self.settings, self.circuit, self.deck, log)

    @classmethod
    def replay(cls, settings: Settings, circuit: Circuit, deck: Deck, log: Sequence[Action | str]) -> Self:
        game = cls(settings, circuit, deck)
        for entry in log:
            game.apply(game.parse(entry) if isinstance(entry, str) else entry)
        return game


def _word(card: Card | None) -> str | None:
    return None if card is None else card.word


def _words(cards: Sequence[Card | None]) -> list[str | None]:
    return [None if card is None else card.word for card in cards]


def _pile_words(cards: Sequence[Card]) -> list[str]:
    """The words of a row or pile (it holds no gaps): mapped in C, as a view names every card of every pile."""
    return list(map(word_of, cards))
