"""Where the cars are during one race: on a space, waiting beside the track after a
breakdown, or finished and on a placement space."""

from __future__ import annotations

from dataclasses import dataclass

from toprace_pi.games.toprace.rules.cars import Car, CarSet
from toprace_pi.games.toprace.rules.track import FINISH, Track


@dataclass(frozen=True, slots=True)
class Waiting:
    """A broken-down car beside ``space`` until ``chaser`` is level with it."""

    space: int
    chaser: Car


class Board:
    """The positions of an edition's ``cars`` on one track. Knows geometry, not turns or money."""

    #: Containers of immutable values only (cars, space indexes, :class:`Waiting`): a clone copies them in one go.
    CLONE_SHALLOW = ("at", "occupied", "waiting", "finished")

    def __init__(self, track: Track, cars: CarSet) -> None:
        self.track = track
        self.cars = cars
        self.at: dict[Car, int] = {}
        self.occupied: set[int] = set()
        self.waiting: dict[Car, Waiting] = {}
        self.finished: list[Car] = []

    def copy(self) -> Board:
        other = Board(self.track, self.cars)
        other.at = dict(self.at)
        other.occupied = set(self.occupied)
        other.waiting = dict(self.waiting)
        other.finished = list(self.finished)
        return other

    def set_up(self, positions: dict[Car, int]) -> None:
        """Put cars on given spaces, as players do to set up a position to study."""
        for car in positions:
            if car in self.at:
                self.occupied.discard(self.at.pop(car))
        for car, space in positions.items():
            if space in self.occupied:
                raise ValueError(f"two cars on space {self.track.space_id(space)}")
            self.place(car, space)

    def is_racing(self, car: Car) -> bool:
        """On the track (not finished, not broken down, and placed)."""
        return car in self.at

    def place(self, car: Car, space: int) -> None:
        self.at[car] = space
        self.occupied.add(space)

    def move_options(self, car: Car, points: int) -> tuple[int, tuple[int, ...]]:
        """``(steps, ends)`` for ``car`` with ``points``; see :meth:`Track.moves`."""
        return self.track.moves(self.at[car], points, self.occupied)

    def sprint_options(self, car: Car, leader: Car) -> tuple[int, ...]:
        """Where ``car`` may end a sprint level with ``leader``; see :meth:`Track.sprint_ends`."""
        return self.track.sprint_ends(self.at[car], self.at[leader], self.occupied)

    def is_level(self, car: Car, other: Car) -> bool:
        return self.track.is_level(self.at[car], self.at[other])

    def move(self, car: Car, end: int) -> bool:
        """Move ``car`` to ``end``; returns whether it crossed the finish line."""
        at, occupied = self.at, self.occupied
        occupied.discard(at.pop(car))
        if end == FINISH:
            self.finished.append(car)
            return True
        at[car] = end
        occupied.add(end)
        return False

    def ahead(self, a: Car, b: Car) -> bool:
        """Whether ``a`` is placed better than ``b`` (front edge, then inside lane)."""
        return self._key(a) > self._key(b)

    def break_down(self, car: Car, chaser: Car) -> None:
        space = self.at.pop(car)
        self.occupied.discard(space)
        self.waiting[car] = Waiting(space, chaser)

    def caught_up(self, car: Car) -> bool:
        """Whether the chaser of waiting ``car`` has reached or passed its position."""
        wait = self.waiting[car]
        if wait.chaser in self.finished:
            return True
        chaser = self.at.get(wait.chaser)
        return chaser is not None and self.track.front(chaser) >= self.track.front(wait.space)

    def return_options(self, car: Car) -> tuple[int, ...]:
        return self.track.return_spaces(self.waiting[car].space, self.occupied)

    def put_back(self, car: Car, space: int) -> None:
        del self.waiting[car]
        self.place(car, space)

    def place_last(self, car: Car) -> None:
        """At the end of a race: take ``car`` off the track (or from beside it) to
        its placement space, behind those already placed."""
        if car in self.at:
            self.occupied.discard(self.at.pop(car))
        self.waiting.pop(car, None)
        self.finished.append(car)

    def has_crossed(self, line: float) -> bool:
        """Whether the leading car has crossed the line at position ``line`` (a tip
        line): it has finished, or its front edge lies beyond the line. A car that
        waits broken down beside the track does not count."""
        return bool(self.finished) or any(self.track.has_crossed(s, line) for s in self.at.values())

    def standings(self) -> list[Car]:
        """All cars in placement order: finished ones in finishing order, then the
        rest by front edge and inside lane (a waiting car counts at its space,
        behind a car on the track there)."""
        rest = [c for c in self.cars if c not in self.finished]
        rest.sort(key=self._key, reverse=True)
        return self.finished + rest

    def _key(self, car: Car) -> tuple[float, int, int]:
        if car in self.at:
            return (*self.track.rank_key(self.at[car]), 1)
        if car in self.waiting:
            return (*self.track.rank_key(self.waiting[car].space), 0)
        return (float("-inf"), 0, 0)
