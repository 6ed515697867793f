"""What happened in TOP SPEED, each event saying itself in words.

No event tells a deck's order or a card kept apart with KERS: :class:`Shuffled` names the
deck, :class:`KeptApart` the seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from toprace_pi.games.topspeed.rules.cards import Card, Kind


def listed(names: Sequence[str], seats: Sequence[int]) -> str:
    return ", ".join(names[s] for s in seats)


def spaces(count: int) -> str:
    return f"{count} space{'' if count == 1 else 's'}"


def safety_car_rounds(after: int) -> str:
    """The safety car's rounds after the one being played, in words: for the news and the boards."""
    return f"{after} more round{'' if after == 1 else 's'} to come" if after else "its last round"


def laps_on(laps: int) -> str:
    """Where a move ends against the lap it began in (``laps`` lines crossed, backward < 0), in words."""
    if laps in (1, -1):
        return " of the next lap" if laps > 0 else " of the lap before"
    return f", {abs(laps)} laps {'on' if laps > 0 else 'back'}" if laps else ""


@dataclass(frozen=True, slots=True)
class Shuffled:
    seat: int
    cards: int

    def text(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]}'s deck is shuffled and cut ({self.cards} cards)"


@dataclass(frozen=True, slots=True)
class StartingOrder:
    """The grid: the first car on the finish-line space, each other one on the space behind."""

    order: tuple[int, ...]

    def text(self, names: Sequence[str]) -> str:
        return f"Starting order: {listed(names, self.order)} ({names[self.order[0]]} on the finish line)"


@dataclass(frozen=True, slots=True)
class QualifyingRoundStarted:
    lap: int

    def text(self, names: Sequence[str]) -> str:
        return f"Qualifying lap {self.lap}"


@dataclass(frozen=True, slots=True)
class RoundStarted:
    round: int
    #: The lap counter, moved on at the round's start, and the race's laps.
    lap: int
    laps: int
    safety_car: bool
    #: Rounds the safety car stays out after this one.
    safety_car_after: int = 0

    def text(self, names: Sequence[str]) -> str:
        behind = f", behind the safety car, {safety_car_rounds(self.safety_car_after)}" if self.safety_car else ""
        return f"Round {self.round}: lap {self.lap} of {self.laps}{behind}"


@dataclass(frozen=True, slots=True)
class Drew:
    seat: int
    card: Card

    def text(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} draws {self.card}"


@dataclass(frozen=True, slots=True)
class DrewAndDiscarded:
    """Under the safety car: the one card drawn goes straight to the discard pile."""

    seat: int
    card: Card

    def text(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} draws {self.card} and discards it"


@dataclass(frozen=True, slots=True)
class KeptApart:
    seat: int

    def text(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} keeps a green card apart (KERS)"


@dataclass(frozen=True, slots=True)
class UsedKept:
    seat: int
    card: Card

    def text(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} lays the card kept apart: {self.card} (KERS)"


@dataclass(frozen=True, slots=True)
class Passed:
    seat: int

    def text(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} passes"


@dataclass(frozen=True, slots=True)
class OutOfRound:
    """A second trouble card identical to one in the row: no more draws, and the row's points count for
    nothing; a Drive Through pair sends the car ``back`` spaces in the movement phase instead (0 in the
    qualifying, where no car moves)."""

    seat: int
    kind: Kind
    back: int = 0

    def text(self, names: Sequence[str]) -> str:
        done = f"{names[self.seat]} has two {self.kind.title} cards: done for the round"
        if self.back:
            return f"{done}, no move on the cards; the penalty takes the car {spaces(self.back)} back"
        return f"{done}, no movement"


@dataclass(frozen=True, slots=True)
class Damaged:
    """One card of a Tire or Engine trouble pair goes to the damage row."""

    seat: int
    card: Card
    damage: int

    def text(self, names: Sequence[str]) -> str:
        return (f"{names[self.seat]} puts {self.card} in the damage row "
                f"({self.damage} point{'' if self.damage == 1 else 's'} less each round until a pit stop)")


@dataclass(frozen=True, slots=True)
class PitStopDeclared:
    seat: int
    back: int

    def text(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} declares a pit stop: a new deck, and {spaces(self.back)} back"


@dataclass(frozen=True, slots=True)
class SatOut:
    seat: int

    def text(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} makes no lap this time"


@dataclass(frozen=True, slots=True)
class TableCards:
    """The second card of a kind that acts from the table: Yellow Flags (no overtaking this round),
    Safety Cars (the safety car after the movement), blanks (the weather turns)."""

    kind: Kind
    #: For blanks: whether the weather is now chaotic.
    chaotic: bool = False

    def text(self, names: Sequence[str]) -> str:
        if self.kind is Kind.YELLOW_FLAG:
            return "Two Yellow Flags on the table: no overtaking this round"
        if self.kind is Kind.SAFETY_CAR:
            return "Two Safety Cars on the table: the safety car comes out after the movement"
        if self.chaotic:
            return "Two blank cards on the table: chaotic weather, Tire troubles act as Off Track"
        return "Two blank cards on the table: the chaotic weather is over"


#: A move's reason as the news words it, where its key alone would not say it.
_WHY = {"drive through": "the Drive Through penalty"}


@dataclass(frozen=True, slots=True)
class Moved:
    """A car's move, in spaces of the circuit; ``wanted`` is how far it was to go (backward < 0)."""

    seat: int
    start: int
    end: int
    moved: int
    wanted: int
    #: "cards", "drive through", "pit stop", "safety car" (closing up), "fastest lap" (at the end).
    why: str
    #: Held up by the Yellow Flags: with overtaking allowed the car would have gone further.
    no_overtaking: bool = False
    #: The finish lines crossed on the way (backward < 0): the spaces alone do not tell a lap or more.
    laps: int = 0

    def text(self, names: Sequence[str]) -> str:
        who = names[self.seat]
        where = f"space {self.start} to {self.end}{laps_on(self.laps)}"
        if self.why == "safety car":
            return f"{who} closes up behind the safety car: {where}"
        way = "forward" if self.moved >= 0 else "back"
        notes = [_WHY.get(self.why, self.why)] if self.why != "cards" else []
        if abs(self.moved) != abs(self.wanted):
            notes.append(self._other_distance())
        said = f" ({'; '.join(notes)})" if notes else ""
        if not self.moved:
            return f"{who} stays on space {self.start}{said}"
        return f"{who} goes {spaces(abs(self.moved))} {way}{said}: {where}"

    def _other_distance(self) -> str:
        """Why the car went another distance than its cards or its penalty said: held up by a car
        ahead, or sent further back past cars standing where it would have stopped."""
        wanted, moved = abs(self.wanted), abs(self.moved)
        if moved > wanted:
            more = moved - wanted
            return f"{spaces(wanted)} and {more} more, as {'a car' if more == 1 else 'cars'} stood there"
        held = "held up, no overtaking under the Yellow Flags" if self.no_overtaking else "held up"
        return f"{held}: {spaces(wanted)} lost" if not moved else f"of {wanted}: {held}"


@dataclass(frozen=True, slots=True)
class LeaderCrossed:
    """The lead car crosses the finish line into a new lap: the lap counter moves on."""

    seat: int
    lap: int

    def text(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} leads across the finish line: lap {self.lap}"


@dataclass(frozen=True, slots=True)
class SafetyCar:
    out: bool

    def text(self, names: Sequence[str]) -> str:
        return "The safety car is out: the cars close up" if self.out else "The safety car comes in"


@dataclass(frozen=True, slots=True)
class Lapped:
    seat: int
    lapped: bool

    def text(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} is lapped" if self.lapped else f"{names[self.seat]} is no longer lapped"


@dataclass(frozen=True, slots=True)
class QualifyingLap:
    seat: int
    lap: int
    fastest: int

    def text(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]}'s qualifying lap: {self.lap} (fastest {self.fastest})"


@dataclass(frozen=True, slots=True)
class QualifyingEnded:
    fastest: tuple[int, ...]

    def text(self, names: Sequence[str]) -> str:
        laps = ", ".join(f"{n} {f}" for n, f in zip(names, self.fastest, strict=True))
        return f"Qualifying is over, the fastest laps: {laps}; every card goes back to its deck"


@dataclass(frozen=True, slots=True)
class RaceEnded:
    order: tuple[int, ...]

    def text(self, names: Sequence[str]) -> str:
        return f"{names[self.order[0]]} wins the race; the order: {listed(names, self.order)}"


Event = (Shuffled | StartingOrder | QualifyingRoundStarted | RoundStarted | Drew | DrewAndDiscarded | KeptApart
         | UsedKept | Passed | OutOfRound | Damaged | PitStopDeclared | SatOut | TableCards | Moved | LeaderCrossed
         | SafetyCar | Lapped | QualifyingLap | QualifyingEnded | RaceEnded)
