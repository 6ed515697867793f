"""The interface every game of the table implements.

A game is one state object that knows what may happen next. The table, the bots
and the displays only use what is declared here, so a new game joins the table by
implementing it:

* :attr:`GameState.info`: the game's name and nature (players, chance, secrets,
  simultaneous moves);
* :attr:`GameState.decision`: whose decision it is now — one seat, several seats
  choosing in secret at once, chance, or nobody (the game is over);
* ``legal_actions()``, ``check(action)`` and ``apply(action)``, which raises
  :class:`~toprace_pi.errors.IllegalActionError` and then leaves the state as it was;
* ``chance_outcomes()``: at a chance decision, every outcome with its probability,
  listable (not only sampled), however many there are;
* ``events``: what happened, each event saying itself with ``text(names)``;
* ``parse(text)`` / ``str(action)``: the notation of the journal;
* ``snapshot()``, ``to_dict()`` and ``replayed(log)`` (the same game rebuilt from a log);
* ``view(seat)``: exactly what that seat may see — its own secrets, never another's —
  as plain values, and ``seen_by(seat)`` the same as a read-only game for its bot, made on a
  copy that ``conceal(seat)`` left holding nothing else (another seat's secret, a deck's
  order: a stand-in made from what the seat sees; the log gone), so no way through it
  reaches a secret;
* ``clone()``: an independent copy in microseconds, to try actions on or to go back to.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, Self, TypeVar

A = TypeVar("A")


@dataclass(frozen=True)
class GameInfo:
    """What a game is, before any state: for the registry, the table and the bots."""

    #: The registry's key and the journal's name for the game ("toprace").
    name: str
    #: As players call it ("Top Race").
    title: str
    min_players: int
    max_players: int
    #: Whether chance decides anything (a shuffle, a draw).
    chance: bool
    #: Whether a seat knows things others do not (a hand, a secret tip).
    secret_information: bool
    #: Whether several seats choose at once, in secret, revealed together.
    simultaneous: bool
    #: The version of the game's rules and notation, written into each journal.
    version: int = 1


@dataclass(frozen=True)
class Decision:
    """Whose decision the game waits for: ``seats`` (one, or several at once for a
    sealed simultaneous choice), or ``chance``, or nobody once the game is over."""

    seats: tuple[int, ...] = ()
    chance: bool = False

    @classmethod
    def of(cls, seat: int) -> Decision:
        """One seat's decision, made once per seat (a game is asked at every step of a playout)."""
        found = _ONE_SEAT.get(seat)
        if found is None:
            found = _ONE_SEAT[seat] = cls((seat,))
        return found

    @property
    def is_terminal(self) -> bool:
        return not self.seats and not self.chance

    @property
    def is_simultaneous(self) -> bool:
        return len(self.seats) > 1


CHANCE = Decision(chance=True)
NOBODY = Decision()
_ONE_SEAT: dict[int, Decision] = {}


class ChanceOutcomes(Sequence[A]):
    """The outcomes of a chance decision, all equally likely, listed lazily: the
    ``i``-th is made when asked for, so a shuffle of 48 cards (more outcomes than
    could ever be stored) can still be counted, indexed, walked and sampled."""

    def __init__(self, count: int, outcome: Callable[[int], A]) -> None:
        self.total = count
        self._outcome = outcome

    def __len__(self) -> int:
        if self.total > 2**62:
            raise OverflowError("too many outcomes for len(): use .total")
        return self.total

    def __getitem__(self, index: int) -> A:  # type: ignore[override]
        if not -self.total <= index < self.total:
            raise IndexError(f"outcome {index} of {self.total}")
        return self._outcome(index % self.total)

    def __iter__(self) -> Iterator[A]:
        return (self._outcome(i) for i in range(self.total))

    @property
    def probability(self) -> float:
        """Of each outcome."""
        return 1 / self.total

    def sample(self, rng: random.Random) -> A:
        return self._outcome(rng.randrange(self.total))

    @classmethod
    def of(cls, outcomes: Sequence[A]) -> ChanceOutcomes[A]:
        """A short list given in full."""
        return cls(len(outcomes), outcomes.__getitem__)


def nth_combination(items: Sequence[A], size: int, index: int) -> list[A]:
    """The ``index``-th of the ``size``-subsets of ``items`` (in lexicographic order of
    positions): how a shuffle's outcomes are listed without being stored."""
    chosen: list[A] = []
    start = 0
    for left in range(size, 0, -1):
        for position in range(start, len(items)):
            below = math.comb(len(items) - position - 1, left - 1)
            if index < below:
                chosen.append(items[position])
                start = position + 1
                break
            index -= below
    return chosen


def nth_permutation(items: Sequence[A], index: int) -> list[A]:
    """The ``index``-th ordering of ``items`` (in lexicographic order of positions). The index's
    digits in the factorial number system are the positions picked, the last digit first; they
    are read off by dividing by small numbers (a deck's shuffle is some fifty picks, and a
    division of its large index by as large a factorial for each cost most of a shuffle)."""
    left = list(items)
    if not left:
        return []
    positions = []
    for size in range(1, len(left)):
        index, position = divmod(index, size)
        positions.append(position)
    positions.append(index)
    return [left.pop(position) for position in reversed(positions)]


class GameState(Protocol):
    """The state of one game (see the module's docstring)."""

    info: ClassVar[GameInfo]
    names: tuple[str, ...]
    log: list[Any]
    events: list[Any]

    @property
    def decision(self) -> Decision: ...
    @property
    def is_over(self) -> bool: ...
    def legal_actions(self) -> list[Any]: ...
    def check(self, action: Any) -> None: ...
    def apply(self, action: Any) -> None: ...
    def chance_outcomes(self) -> ChanceOutcomes[Any]: ...
    def parse(self, text: str) -> Any: ...
    def snapshot(self) -> dict[str, Any]: ...
    def to_dict(self) -> dict[str, Any]: ...
    def view(self, seat: int | None) -> dict[str, Any]: ...
    def seen_by(self, seat: int | None) -> Self: ...
    def conceal(self, seat: int | None) -> None:
        """In place (on a copy): take out what ``seat`` may not see (``None``: a spectator). It only
        assigns, to attributes and to items of the lists the game names in ``SEAT_SECRETS`` and
        ``SEAT_HIDDEN``: a seat's view conceals a shallow copy that owns only those lists."""
        ...
    def clone(self) -> Self: ...
    def replayed(self, log: Sequence[Any]) -> Self: ...
    def winners(self) -> list[int]: ...


def seat_actions(game: GameState, seat: int) -> list[Any]:
    """What ``seat`` may do now: the legal actions when the decision is its own alone; at a
    sealed choice of several seats, those that name it (each such action has a ``seat``)."""
    decision = game.decision
    if game.is_over or decision.chance:
        return []
    if decision.seats == (seat,):
        return game.legal_actions()
    if not decision.is_simultaneous and seat not in decision.seats:
        return []
    return [a for a in game.legal_actions() if getattr(a, "seat", None) == seat]
