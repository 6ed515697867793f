"""What happened in AUTORACE, each event saying itself in words.

No event tells a sealed card before the reveal: :class:`Chosen` names only the seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from toprace_pi.games.autorace.rules.actions import card_word


def dollars(amount: int) -> str:
    return f"${amount}"


@dataclass(frozen=True, slots=True)
class RoundStarted:
    game: int
    round: int

    def text(self, names: Sequence[str]) -> str:
        return f"Game {self.game}, round {self.round}: choose your cards"


@dataclass(frozen=True, slots=True)
class MissesRound:
    """The seat could not pay last round's speeding fine."""

    seat: int

    def text(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} misses this round"


@dataclass(frozen=True, slots=True)
class OnlyBanner:
    """The seat has no number card it may play: it plays its banner."""

    seat: int

    def text(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} can only play the banner"


@dataclass(frozen=True, slots=True)
class Chosen:
    seat: int

    def text(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} has chosen"


@dataclass(frozen=True, slots=True)
class TakenBack:
    seat: int

    def text(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} takes the card back"


@dataclass(frozen=True, slots=True)
class Revealed:
    """Every seat's card (``None``: the seat played nothing this round)."""

    cards: tuple[int | None, ...]

    def text(self, names: Sequence[str]) -> str:
        played = [f"{names[s]} {card_word(c)}" for s, c in enumerate(self.cards) if c is not None]
        return "Revealed: " + (", ".join(played) if played else "nothing")


@dataclass(frozen=True, slots=True)
class Fined:
    seat: int
    amount: int

    def text(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} pays a speeding fine of {dollars(self.amount)}"


@dataclass(frozen=True, slots=True)
class FineUnpaid:
    seat: int
    amount: int

    def text(self, names: Sequence[str]) -> str:
        return (f"{names[self.seat]} cannot pay the speeding fine of {dollars(self.amount)} "
                "and misses the next round")


@dataclass(frozen=True, slots=True)
class Moved:
    seat: int
    start: int
    end: int

    def text(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} drives from {self.start} to {self.end}"


@dataclass(frozen=True, slots=True)
class Drew:
    """At a filling station: the top card of the seat's discard pile back to its hand."""

    seat: int
    card: int
    cost: int

    def text(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} pays {dollars(self.cost)} and takes back the {self.card}"


@dataclass(frozen=True, slots=True)
class DrawFailed:
    """A banner at a filling station that draws nothing: ``cost`` unpaid, or (0) no discard pile."""

    seat: int
    cost: int

    def text(self, names: Sequence[str]) -> str:
        if not self.cost:
            return f"{names[self.seat]} has no card on the discard pile to take back"
        return f"{names[self.seat]} cannot pay {dollars(self.cost)} and draws nothing"


@dataclass(frozen=True, slots=True)
class Stopped:
    """A banner away from a filling station: a missed turn."""

    seat: int

    def text(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} stops for a round"


@dataclass(frozen=True, slots=True)
class BonusPaid:
    seat: int
    space: int
    amount: int

    def text(self, names: Sequence[str]) -> str:
        return f"{names[self.seat]} collects {dollars(self.amount)} at {self.space}"


@dataclass(frozen=True, slots=True)
class BonusMovedOn:
    """More than two seats landed on ``space``: its bonus goes on to ``to``."""

    space: int
    to: int
    amount: int

    def text(self, names: Sequence[str]) -> str:
        return f"Nobody collects at {self.space}: its {dollars(self.amount)} go on to {self.to}"


@dataclass(frozen=True, slots=True)
class OutOfRace:
    seat: int
    position: int
    fine: int
    paid: int

    def text(self, names: Sequence[str]) -> str:
        short = f" (of {dollars(self.fine)})" if self.paid < self.fine else ""
        return (f"{names[self.seat]} is out of the race at {self.position} "
                f"and pays a fine of {dollars(self.paid)}{short}")


@dataclass(frozen=True, slots=True)
class GameEnded:
    game: int
    #: Why: "finish" (a figure on the last space), "stuck" (no player can move), "stalled" (only banners).
    reason: str
    money: tuple[int, ...]

    def text(self, names: Sequence[str]) -> str:
        why = {"finish": "a figure reached the end", "stuck": "no player can move any further",
               "stalled": "rounds went by with nobody moving"}[self.reason]
        standing = ", ".join(f"{n} {dollars(m)}" for n, m in zip(names, self.money, strict=True))
        return f"Game {self.game} is over ({why}): {standing}"


@dataclass(frozen=True, slots=True)
class GameStarted:
    game: int
    #: Each seat's boost, and the seats that dropped out of the series (no money left).
    boost: int
    dropped: tuple[int, ...]

    def text(self, names: Sequence[str]) -> str:
        out = "".join(f"; {names[s]} has no money left and drops out" for s in self.dropped)
        boost = f"; everyone receives {dollars(self.boost)}" if self.boost else ""
        return f"Game {self.game} starts{boost}{out}"


@dataclass(frozen=True, slots=True)
class SeriesEnded:
    money: tuple[int, ...]
    winners: tuple[int, ...]

    def text(self, names: Sequence[str]) -> str:
        who = " and ".join(names[s] for s in self.winners)
        return f"{who} {'wins' if len(self.winners) == 1 else 'share the win'} with {dollars(max(self.money))}"


Event = (RoundStarted | MissesRound | OnlyBanner | Chosen | TakenBack | Revealed | Fined | FineUnpaid | Moved
         | Drew | DrawFailed | Stopped | BonusPaid | BonusMovedOn | OutOfRace | GameEnded | GameStarted
         | SeriesEnded)
