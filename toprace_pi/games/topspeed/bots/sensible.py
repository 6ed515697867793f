"""A push-your-luck bot, from its seat's view alone: it draws while a card's expected points
outweigh what a pair would cost, counting the cards its deck can still hold.

Its deck holds what the player races with (``composition``, known to all) less its row, its
discard pile, its damage row and a card kept apart; the order is unknown, so each card left is
as likely as any. A draw pairs when it is a trouble of a kind already in the row (in chaotic
weather a Tire trouble counts as an Off Track). A pair costs the row's points, and more for a
Drive Through (spaces back) or a Tire or Engine pair (a point a round until the next pit stop).
Under two Yellow Flags on the table a car may not pass another, so the points that would take it
past the first car ahead are worth nothing, and the row it would lose is worth only the spaces it
can go: held up, the bot stops drawing sooner (27.5% of 3,000 races won against three bots blind to
the flags; one blind bot against three of these, 23.1%: ``benchmarks/topspeed_rules.py``).
In the race's last round a car that the rows laid so far leave behind draws on whatever the risk: a
row that cannot win is worth nothing to lose (28.7% of 3,000 races won against three bots that weigh
the risk to the end; one of those against three of these, 22.8%).
It pits before drawing on a short deck only if the deck would run dry before the race's last round,
and on a heavy damage row only if the rounds left make the stop pay (:func:`pit_pays`): a stop costs a
round's movement and 8 spaces or more, and most races of 10 laps need none. The rule before pitted on
a short deck or a heavy damage row whatever the race had left (a quarter of the cars did, and 5% of
those won); one such bot against three of these wins 22.3% of 3,000 races, one of these against three
such 29.4%. It uses a card kept apart first.

The rule reads a few facts of the seat (:class:`SeatFacts`), which its view gives
(:class:`ViewFacts`, the bot at the table) and so does a full game, cheaply
(:class:`WorldFacts`, the search's playouts, a dozen times faster than making the view):
one rule, :func:`sensible_choice`, decides for both.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol, TypeVar

from toprace_pi.games.topspeed.rules import Action, parse_action
from toprace_pi.games.topspeed.rules.actions import DrawCard, SeatAction
from toprace_pi.games.topspeed.rules.cards import (
    DAMAGE,
    DRIVE_THROUGH_SPACES,
    ON_THE_TABLE,
    TROUBLES,
    Card,
    Kind,
    card_of,
    pit_stop_spaces,
    word_of,
)
from toprace_pi.games.topspeed.rules.game import RoundEnd, TopSpeed

#: A pit stop is weighed before drawing once the deck is this short, or the damage row this long.
SHORT_DECK, HEAVY_DAMAGE = 10, 2
#: A car's gain in a round, in spaces, and the cards a seat draws in a round, on average: four sensible
#: bots on the default circuit (a one-off script: 8.5 spaces over 30 races; 6.6 cards over 200 races
#: of 10 laps, 6.5 of 30 laps).
ROUND_GAIN, CARDS_A_ROUND = 8.5, 6.6
#: What a Tire or Engine pair costs beyond the row: a point a round for about this many rounds.
DAMAGE_ROUNDS = 3
#: A green card kept apart (KERS) from this many points up.
KEEP_FROM = 3
#: In the qualifying, a lap this fast is good enough: no more laps.
GOOD_LAP = 8

Option = TypeVar("Option", covariant=True)


@cache
def _card(word: str) -> Card:
    return card_of(word)


def left_in_deck(view: dict[str, Any]) -> Counter[str]:
    """The cards the seat's deck can still hold, by word."""
    seat = view["seat"]
    seen: Iterable[str | None] = [*view["rows"][seat], *view["discards"][seat], *view["damage"][seat],
                                  view["my_kept"], view["my_drawn"]]
    gone = Counter(seen)
    return Counter({word: copies - gone[word] for word, copies in view["composition"].items() if copies > gone[word]})


class SeatFacts(Protocol[Option]):
    """What the sensible rule reads of its seat: its options by name ("draw", "pass", "keep"…; a
    draw from a deck shuffled by hand: "draw card 3"), each the option itself, in the game's order."""

    @property
    def seat(self) -> int: ...

    @property
    def options(self) -> Mapping[str, Option]: ...

    @property
    def drawn(self) -> str | None:
        """The green card just drawn, by word (KERS), if any."""
        ...

    @property
    def qualifying_time(self) -> int: ...

    @property
    def deck_size(self) -> int: ...

    @property
    def damage(self) -> int:
        """Cards in the damage row."""
        ...

    @property
    def row(self) -> Sequence[str]:
        """This round's row, by word."""
        ...

    @property
    def chaotic_weather(self) -> bool: ...

    def pit_back(self) -> int:
        """The spaces a pit stop now would take the car back."""
        ...

    @property
    def room(self) -> int | None:
        """The spaces the car may go this round before it would pass a car, while two Yellow Flags on
        the table forbid overtaking; ``None`` while overtaking is allowed."""
        ...

    def left(self) -> Iterable[tuple[str, int]]:
        """The cards the deck can still hold: each word once, with its copies (the order unknown)."""
        ...

    def standing(self) -> Standing:
        """Where the cars are bound this round, and how near the race's end is."""
        ...


@dataclass(frozen=True)
class Standing:
    """Where each car is bound this round, as far as the rows laid so far tell (:func:`bound_for`), and
    how near the race's end is: what the last round's chase reads (:func:`behind_at_the_end`)."""

    bound: tuple[int, ...]
    lap: int
    laps: int
    lead_lap: int
    #: The lead car's seat, and whether its round is over (its move known).
    leader: int
    leader_done: bool
    spaces: int


def bound_for(progress: int, end: RoundEnd | None, out_by: Kind | None, back: int, points: int) -> int:
    """Where a car at ``progress`` is bound this round: ``points`` on (the round not over, or passed), or
    back for a pit stop (``back`` spaces) or a Drive Through pair."""
    if end is RoundEnd.PIT_STOP:
        return progress - back
    if end is RoundEnd.OUT:
        return progress - (DRIVE_THROUGH_SPACES if out_by is Kind.DRIVE_THROUGH else 0)
    return progress + points


def behind_at_the_end(facts: SeatFacts[Any]) -> bool:
    """In the race's last round (the lap counter ends it at the next round's start, or once the lead car,
    done, crosses the line), whether another car is bound as far as the seat's car or further."""
    standing, seat = facts.standing(), facts.seat
    last = standing.lap == standing.laps - 1 or (
        standing.lap == standing.laps - 2 and standing.leader_done
        and standing.bound[standing.leader] // standing.spaces > standing.lead_lap)
    mine = standing.bound[seat]
    return last and any(bound >= mine for other, bound in enumerate(standing.bound) if other != seat)


class ViewFacts:
    """The facts of the seat whose view this is (:meth:`TopSpeed.view`): options in notation."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.view = view
        seat = self.seat = view["seat"]
        self.options = {option.rsplit(" ", 1)[0]: option for option in view["my_options"]}
        self.drawn: str | None = view["my_drawn"]
        self.qualifying_time: int = view["qualifying_times"][seat]
        self.deck_size: int = view["deck_sizes"][seat]
        self.damage = len(view["damage"][seat])
        self.row: list[str] = view["rows"][seat]
        self.chaotic_weather: bool = view["chaotic_weather"]
        held = view["yellow_flags"] >= ON_THE_TABLE
        self.room = room_ahead(view["progress"], seat, view["circuit_spaces"]) if held else None

    def left(self) -> Iterable[tuple[str, int]]:
        return left_in_deck(self.view).items()

    def pit_back(self) -> int:
        return pit_stop_spaces(map(_card, self.view["damage"][self.seat]))

    def standing(self) -> Standing:
        view, chaotic = self.view, self.chaotic_weather

        def points(seat: int) -> int:
            green = sum(_odds(word, chaotic)[0] for word in view["rows"][seat])
            return 0 if view["under_safety_car"] else max(0, green - len(view["damage"][seat]))

        def end(seat: int) -> RoundEnd | None:
            name = view["round_ended"][seat]
            return None if name is None else RoundEnd[name]

        def out_by(seat: int) -> Kind | None:
            value = view["out_by"][seat]
            return None if value is None else Kind(value)

        bound = tuple(bound_for(progress, end(seat), out_by(seat), view["pit_stop_back"][seat], points(seat))
                      for seat, progress in enumerate(view["progress"]))
        leader = view["order"][0]
        return Standing(bound, view["lap"], view["laps"], view["lead_lap"], leader,
                        view["round_ended"][leader] is not None, view["circuit_spaces"])


def room_ahead(progress: Sequence[int], seat: int, spaces: int) -> int:
    """The spaces ``seat``'s car may go before it would pass another car on the track (a lapped one
    included), the cars standing at ``progress`` on a circuit of ``spaces``."""
    gaps = [(other - progress[seat]) % spaces for other in progress]
    return min((gap for gap in gaps if gap), default=spaces) - 1


_NAMES = {"Draw": "draw", "Pass": "pass", "PitStop": "pit stop", "Keep": "keep", "Leave": "leave",
          "UseKept": "use kept", "SitOut": "sit out"}


def _name(action: SeatAction) -> str:
    return f"draw card {action.word}" if isinstance(action, DrawCard) else _NAMES[type(action).__name__]


class WorldFacts:
    """The facts of ``seat`` read off a full game (a world of the search): the same as its view's.
    Its deck can hold just what it does hold: every card the seat has not seen is in it (a world
    of the search has the seat's secrets drawn anew, and its deck with them)."""

    __slots__ = ("chaotic_weather", "damage", "deck", "deck_size", "drawn", "game", "options", "qualifying_time",
                 "room", "row", "seat")

    def __init__(self, game: TopSpeed, seat: int) -> None:
        self.game, self.seat = game, seat
        self.options = {_name(action): action for action in game.options(seat)}
        drawn = game.drawn[seat]
        self.drawn = None if drawn is None else drawn.word
        self.qualifying_time = game.qualifying_times[seat]
        self.deck = game.decks[seat]
        self.deck_size = len(self.deck)
        self.damage = len(game.damage[seat])
        self.row = [card.word for card in game.rows[seat]]
        self.chaotic_weather = game.chaotic_weather
        held = game.table_count(Kind.YELLOW_FLAG) >= ON_THE_TABLE
        self.room = room_ahead(game.progress, seat, game.circuit.spaces) if held else None

    def left(self) -> Iterable[tuple[str, int]]:
        return Counter(map(word_of, self.deck)).items()  # counted in C: a playout asks at every draw

    def pit_back(self) -> int:
        return pit_stop_spaces(self.game.damage[self.seat])

    def standing(self) -> Standing:
        game = self.game
        bound = tuple(bound_for(progress, game.ends[seat], game.out_by[seat], game.pit_back[seat],
                                0 if game.under_safety_car else game.points(seat))
                      for seat, progress in enumerate(game.progress))
        leader = game.race_order()[0]
        return Standing(bound, game.lap, game.settings.laps, game.lead_lap, leader, game.ends[leader] is not None,
                        game.circuit.spaces)


def sensible_choice(facts: SeatFacts[Option], caution: float = 1.0) -> Option:
    """The sensible bot's option for the seat ``facts`` tell of (see the module); ``caution``
    weighs a pair's risk against a card's points (more: it stops drawing sooner)."""
    words = facts.options
    if "keep" in words:
        return words["keep" if int(facts.drawn or 0) >= KEEP_FROM else "leave"]
    if "use kept" in words:
        return words["use kept"]
    if "sit out" in words and facts.qualifying_time >= GOOD_LAP:
        return words["sit out"]
    if "pit stop" in words and pit_pays(facts):
        return words["pit stop"]
    if "draw" in words and ("pass" not in words or worth_a_draw(facts, caution) or behind_at_the_end(facts)):
        return words["draw"]
    return words["pass"] if "pass" in words else next(iter(words.values()))


def pit_pays(facts: SeatFacts[Any]) -> bool:
    """Whether a pit stop now pays. It costs the round's movement (about :data:`ROUND_GAIN`) and the
    spaces back. On a short deck it pays only if the deck will run dry before the race's last round:
    an empty deck forces a stop then anyway, and one now spares a thin round of the deck's last cards
    (with no stop due, those cards are driven). On a heavy damage row it pays only if the points the
    row takes off in the rounds after the stop outweigh the stop's cost."""
    short, heavy = facts.deck_size < SHORT_DECK, facts.damage >= HEAVY_DAMAGE
    if not (short or heavy):
        return False
    after = rounds_left(facts.standing()) - 1  # the rounds after this one
    if short and facts.deck_size < CARDS_A_ROUND * after:
        return True
    return heavy and facts.damage * after > ROUND_GAIN + facts.pit_back()


def rounds_left(standing: Standing) -> float:
    """About how many rounds the race has left, this one included: the lap counter moves on at each
    round's start, and once more each time the leader crosses the line (every ``spaces /
    ROUND_GAIN`` rounds or so)."""
    return (standing.laps - standing.lap) * standing.spaces / (standing.spaces + ROUND_GAIN)


def worth_a_draw(facts: SeatFacts[Any], caution: float = 1.0) -> bool:
    """The expected points of one more card against the chance of a pair times its cost (times
    ``caution``)."""
    gain, risk = draw_odds(facts)
    return gain > caution * risk


def draw_odds(facts: SeatFacts[Any]) -> tuple[int, int]:
    """One more card's points, and a pair's chance times its cost, each summed over the cards the
    deck can hold (so each is the expected value times the cards left: whole numbers, the same sums
    in any order); nothing from an empty deck. Held up by Yellow Flags, points count only as far as
    the car may go (:attr:`SeatFacts.room`), its damage row taken off."""
    chaotic = facts.chaotic_weather
    row = [_odds(word, chaotic) for word in facts.row]
    in_row = {pairs_as for _, pairs_as, _ in row if pairs_as is not None}
    row_points = sum(points for points, _, _ in row)
    room = facts.room
    now = row_points if room is None else _held_up(row_points, facts.damage, room)
    gain = risk = 0
    for word, copies in facts.left():
        points, pairs_as, extra = _odds(word, chaotic)
        if pairs_as in in_row:
            risk += copies * (now + extra)
        elif room is None:
            gain += copies * points
        else:
            gain += copies * (_held_up(row_points + points, facts.damage, room) - now)
    return gain, risk


def _held_up(points: int, damage: int, room: int) -> int:
    """The spaces a row of ``points`` drives with ``damage`` cards in the damage row, held up ``room``
    spaces ahead."""
    return min(max(0, points - damage), room)


@cache
def _odds(word: str, chaotic: bool) -> tuple[int, str | None, int]:
    """What the card ``word`` names means to a draw: its points, the kind it pairs as if it is a
    trouble (by name: in chaotic weather a Tire trouble is an Off Track), and what its pair costs
    beyond the row (the spaces of a Drive Through, the rounds of damage of a Tire or Engine pair).
    Worked out once: the search's playouts ask it at every draw."""
    card = _card(word)
    if card.kind not in TROUBLES:
        return card.points, None, 0
    kind = Kind.OFF_TRACK if chaotic and card.kind is Kind.TIRE_TROUBLE else card.kind
    extra = (DRIVE_THROUGH_SPACES if card.kind is Kind.DRIVE_THROUGH else 0) + (DAMAGE_ROUNDS if kind in DAMAGE else 0)
    return card.points, kind.name, extra


class SensibleBot:
    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any]) -> Action:
        return parse_action(sensible_choice(ViewFacts(view)))
