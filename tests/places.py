"""The board geometry the rulebook speaks of, worked out afresh from the Space fields,
and searches for places on a track where the lanes are staggered.

The rules tests compare the engine with these answers, so nothing here asks the
Track methods they check (``moves``, ``sprint_ends``, ``return_spaces``,
``beside``, ``rank_key``): every expectation comes from ``lane``, ``front``,
``back``, ``steps`` and ``curve`` alone. A space covers ``(back, front]`` of the
lap; a car has crossed a line at ``L`` once its front edge lies beyond ``L``.

A search that finds no fitting place raises AssertionError naming the track, so
an edit of the track data that removes the last such place fails loudly.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass

from toprace_pi.games.toprace.rules.track import FINISH, LEFT, Space, Track

#: Scenarios keep clear of the starting grid, where the spare cars are parked: one
#: move of a parked car (10 points at most, over spaces up to 1.6 long) stays behind this.
CLEAR_OF_GRID = 20.0


# --- geometry -------------------------------------------------------------------------------


def lanes_of(track: Track) -> dict[int, list[Space]]:
    """The spaces of each lane, from the start to the finish."""
    lanes: dict[int, list[Space]] = {}
    for space in sorted(track.spaces, key=lambda s: s.front):
        lanes.setdefault(space.lane, []).append(space)
    return lanes


def row_beside(track: Track, position: float) -> dict[int, Space]:
    """Per lane, the space whose stretch of the lap holds ``position``."""
    return {s.lane: s for s in track.spaces if s.back < position <= s.front}


def overlapping(track: Track, space: Space) -> list[Space]:
    """The spaces of the neighbouring lanes that lie (partly) beside ``space``."""
    return [s for s in track.spaces
            if abs(s.lane - space.lane) == 1 and s.back < space.front and s.front > space.back]


def is_staggered(track: Track, space: Space) -> bool:
    """Whether a neighbouring lane has a front edge elsewhere than ``space`` along its
    stretch, its own or the one behind it (the back): true in curves, false in the
    rows of a straight."""
    return any((s.front, s.back) != (space.front, space.back) for s in overlapping(track, space))


def is_level(space: Space, other: Space) -> bool:
    """Whether ``space``'s front edge lies within ``other``'s stretch (never past it)."""
    return other.back < space.front <= other.front


def free_steps(track: Track, start: int, blocked: Collection[int]) -> set[int]:
    return {t for t in track.spaces[start].steps if t != FINISH and t not in blocked}


def reachable_up_to(track: Track, start: int, limit: float, blocked: Collection[int]) -> set[int]:
    """Every space a car on ``start`` can drive to over free spaces none of which lies
    beyond ``limit`` (however many steps it takes)."""
    seen: set[int] = set()
    todo = [start]
    while todo:
        for there in free_steps(track, todo.pop(), blocked):
            if there not in seen and track.spaces[there].front <= limit:
                seen.add(there)
                todo.append(there)
    return seen


def furthest(track: Track, spaces: Iterable[int]) -> set[int]:
    """Those of ``spaces`` with the greatest front edge (several when they tie)."""
    spaces = set(spaces)
    if not spaces:
        return set()
    best = max(track.spaces[s].front for s in spaces)
    return {s for s in spaces if track.spaces[s].front == best}


def sprint_ends(track: Track, start: int, other: int, blocked: Collection[int]) -> set[int]:
    """Where the rear car on ``start`` may end a Sprint towards the car on ``other``:
    the free spaces level with it that it can reach without passing its front edge,
    or if none, the furthest free spaces it can reach (all behind it)."""
    target = track.spaces[other]
    reach = reachable_up_to(track, start, target.front, blocked)
    level = {s for s in reach if is_level(track.spaces[s], target)}
    return level or furthest(track, reach)


def return_spaces(track: Track, waiting: int, blocked: Collection[int]) -> set[int]:
    """Where a car that broke down on ``waiting`` goes back: the free spaces beside its
    place, or if all are taken, the nearest free spaces behind them (judged in each
    lane from the back of that lane's space beside the place)."""
    place = track.spaces[waiting]
    row = row_beside(track, place.front)
    free = {s.index for s in row.values() if s.index not in blocked}
    if free:
        return free
    behind = [
        s.index
        for lane, spaces in lanes_of(track).items()
        for s in spaces
        if s.index not in blocked and (s.front <= row[lane].back if lane in row else s.front < place.front)
    ]
    return furthest(track, behind)


def curve_of(track: Track, space: Space) -> str:
    """The direction of the curve ``space`` lies in, or on a straight of the next curve
    ahead (round the lap to the first curve after the last one)."""
    if space.curve is not None:
        return space.curve
    curves = sorted((s for s in track.spaces if s.curve is not None), key=lambda s: s.front)
    ahead = [s for s in curves if s.front > space.front]
    return str((ahead or curves)[0].curve)


def inside(track: Track, space: Space) -> int:
    """How far inside ``space``'s lane lies (greater is further inside)."""
    return track.lanes - 1 - space.lane if curve_of(track, space) == LEFT else space.lane


def placing(track: Track, space: int) -> tuple[float, int]:
    """Sort key of a car on ``space`` at the race's end: front edge, then inside lane."""
    s = track.spaces[space]
    return (s.front, inside(track, s))


def has_crossed(track: Track, space: int | None, line: float) -> bool:
    """Whether a car on ``space`` (``None``: finished) has crossed the line at ``line``."""
    return space is None or track.spaces[space].front > line


# --- driving, as the rulebook counts it -------------------------------------------------------


def layers(track: Track, start: int, points: int, blocked: Collection[int]) -> list[set[int]]:
    """The spaces reached after 0, 1, 2, ... steps over free spaces (no finish)."""
    found = [{start}]
    for _ in range(points):
        found.append({t for s in found[-1] for t in free_steps(track, s, blocked)})
    return found


def step_kind(track: Track, frm: int, to: int) -> str:
    """``"straight"``, ``"diagonal"``, ``"sideways"`` or ``"illegal"``, judged from the
    two spaces' lanes and edges as the rulebook describes a step."""
    a, b = track.spaces[frm], track.spaces[to]
    if b.front <= a.front or abs(a.lane - b.lane) > 1:
        return "illegal"
    if a.lane == b.lane:
        return "straight" if b.back == a.front else "illegal"
    if b.back >= a.front:
        return "diagonal"
    return "sideways" if a.is_curve else "illegal"


# --- searching a track --------------------------------------------------------------------------


def spaces_between(track: Track, lo: float, hi: float) -> Iterator[Space]:
    """Spaces with their front edge in ``[lo, hi]``, from the start onward."""
    return iter(sorted((s for s in track.spaces if lo <= s.front <= hi), key=lambda s: (s.front, s.lane)))


def open_stretch(track: Track) -> Iterator[Space]:
    """Staggered spaces away from the grid and the finish, where scenarios are set."""
    return (s for s in spaces_between(track, CLEAR_OF_GRID, track.finish_line - 8) if is_staggered(track, s))


def parking(track: Track, count: int) -> list[int]:
    """Starting spaces for the cars a scenario does not use."""
    return [track.starting_spaces[n] for n in sorted(track.starting_spaces)][:count]


@dataclass(frozen=True)
class Sideways:
    """A curve space with a neighbour beside it that ends further ahead (``ahead``) and
    one that ends level or behind (``behind``)."""

    start: int
    ahead: int
    behind: int


def find_sideways(track: Track) -> Sideways:
    for s in open_stretch(track):
        if not s.is_curve:
            continue
        beside = overlapping(track, s)
        ahead = [u for u in beside if u.back < s.front < u.front]
        behind = [u for u in beside if u.front <= s.front]
        if ahead and behind:
            return Sideways(s.index, ahead[0].index, behind[0].index)
    raise AssertionError(f"{track.name}: no curve space with spaces beside it ending ahead and behind")


@dataclass(frozen=True)
class Boxed:
    """A car on ``start`` with ``points`` to drive among cars on ``blockers``; ``trap``
    is a free space it can reach but not drive on from (the rest of its routes use
    the full value), where there is one."""

    start: int
    points: int
    blockers: frozenset[int]
    trap: int | None = None


def find_dead_end(track: Track, points: int) -> Boxed:
    """The start lies on a straight just before a curve, and some of the ends in it."""
    for s in spaces_between(track, CLEAR_OF_GRID, track.finish_line - 10):
        if s.is_curve or not any(track.spaces[t].is_curve for t in s.steps if t != FINISH):
            continue
        free = layers(track, s.index, points, ())
        for depth in range(2, points):
            for trap in sorted(free[depth]):
                blockers = frozenset(free_steps(track, trap, ()))
                if len(blockers) > 4 or s.index in blockers:
                    continue
                now = layers(track, s.index, points, blockers)
                staggered = any(is_staggered(track, track.spaces[e]) for e in now[points])
                if staggered and trap in now[depth] and trap not in now[points]:
                    return Boxed(s.index, points, blockers, trap)
    raise AssertionError(f"{track.name}: no straight before a curve with a dead end within {points}")


def find_blockage(track: Track, points: int, steps: int) -> Boxed:
    """A staggered start where the cars on the blockers let a car use only ``steps``."""
    for s in open_stretch(track):
        free = layers(track, s.index, steps + 1, ())
        nearer = set().union(*free[:steps + 1])
        blockers = frozenset(free[steps + 1] - nearer)
        if len(blockers) > 5:
            continue
        now = layers(track, s.index, points, blockers)
        if now[steps] and not now[steps + 1]:
            return Boxed(s.index, points, blockers)
    raise AssertionError(f"{track.name}: no staggered place where a car is stopped after {steps} steps")


@dataclass(frozen=True)
class Pair:
    """Two spaces for two cars: ``rear`` behind, ``front`` ahead."""

    rear: int
    front: int


def find_sprint(track: Track) -> Pair:
    """A curve space for the car ahead and a space behind it in another lane from which
    the rear car can get level on spaces of more than one front edge, and could also
    drive on past the car ahead."""
    for r in open_stretch(track):
        for b in spaces_between(track, r.front - 3, r.back):
            if b.lane == r.lane or b.front > r.back:
                continue
            ends = sprint_ends(track, b.index, r.index, {r.index})
            fronts = {track.spaces[e].front for e in ends}
            past = any(track.spaces[t].front > r.front for e in ends for t in free_steps(track, e, {r.index}))
            if len(fronts) > 1 and all(is_level(track.spaces[e], r) for e in ends) and past:
                return Pair(b.index, r.index)
    raise AssertionError(f"{track.name}: no staggered place for a Sprint")


def find_blocked_sprint(track: Track) -> tuple[Pair, frozenset[int]]:
    """A Sprint whose level spaces are all taken (at most four blockers), so the rear car
    can only get up behind them, where the spaces it can reach have several front edges."""
    for r in open_stretch(track):
        for b in spaces_between(track, r.front - 4, r.back):
            level = sprint_ends(track, b.index, r.index, {r.index})
            if not level or len(level) > 4 or not all(is_level(track.spaces[e], r) for e in level):
                continue
            blockers = frozenset(level)
            rest = sprint_ends(track, b.index, r.index, blockers | {r.index})
            if rest and len({track.spaces[e].front for e in reachable_up_to(track, b.index, r.back, blockers)}) > 1:
                return Pair(b.index, r.index), blockers
    raise AssertionError(f"{track.name}: no staggered place for a blocked Sprint")


@dataclass(frozen=True)
class Approach:
    """The rear car starts on ``start``, drives ``points`` to ``to`` (overlapping the
    waiting place but not level with it), then one step to ``level``."""

    start: int
    points: int
    to: int
    level: int


def find_approach(track: Track, waiting: int, points: int) -> Approach:
    w = track.spaces[waiting]
    for x in overlapping(track, w):
        if not w.back < x.front < w.front:
            continue
        on = [y for y in free_steps(track, x.index, ()) if track.spaces[y].front >= w.front]
        if not on:
            continue
        for b in spaces_between(track, x.front - 12, x.front):
            if b.index != waiting and b.front < w.back and x.index in layers(track, b.index, points, ())[points]:
                return Approach(b.index, points, x.index, on[0])
    raise AssertionError(f"{track.name}: no way to drive beside {w.id} short of level with {points}")


def find_waiting_place(track: Track, points: int) -> tuple[int, Approach]:
    for w in open_stretch(track):
        if not w.is_curve:
            continue
        try:
            return w.index, find_approach(track, w.index, points)
        except AssertionError:
            continue
    raise AssertionError(f"{track.name}: no curve space to wait beside that a car can drive up to")


def find_level_pair(track: Track) -> Pair:
    """Two spaces with the same front edge in different lanes of a curve whose backs
    differ (the lanes are staggered behind them); ``front`` is the inside one."""
    for a in open_stretch(track):
        for b in track.spaces:
            if b.lane != a.lane and b.front == a.front and b.back != a.back and a.is_curve and b.is_curve:
                ahead, behind = sorted((a, b), key=lambda s: inside(track, s), reverse=True)
                return Pair(behind.index, ahead.index)
    raise AssertionError(f"{track.name}: no level spaces in a staggered curve")


@dataclass(frozen=True)
class Return:
    """A car waits on ``waiting``; the chaser drives from ``start`` with ``points`` onto
    ``onto``, one of the spaces beside the waiting place; ``row`` are all of those."""

    waiting: int
    row: frozenset[int]
    start: int
    points: int
    onto: int


def find_return(track: Track, points: int) -> Return:
    """The spaces beside the waiting place have different backs, so once they are all
    taken the nearest space behind lies in one lane only."""
    for w in open_stretch(track):
        row = row_beside(track, w.front)
        if len(row) < track.lanes or len({s.back for s in row.values()}) < 2:
            continue
        cells = frozenset(s.index for s in row.values())
        for onto in sorted(cells):
            others = cells - {onto}
            for b in spaces_between(track, w.front - 12, w.back):
                if b.index in cells or b.front >= w.front:
                    continue
                if onto in layers(track, b.index, points, others)[points]:
                    return Return(w.index, cells, b.index, points, onto)
    raise AssertionError(f"{track.name}: no staggered row to return to")


@dataclass(frozen=True)
class Order:
    """The first car of a card drives from ``first`` onto ``onto``, a space the second
    car on ``second`` could otherwise end on, and that cuts off more than itself."""

    first: int
    second: int
    onto: int


def find_order(track: Track, first_points: int, second_points: int) -> Order:
    for r in open_stretch(track):
        alone = layers(track, r.index, second_points, ())[second_points]
        for y in spaces_between(track, r.front - 3, r.front):
            if y.index == r.index:
                continue
            options = layers(track, y.index, first_points, {r.index})[first_points]
            for onto in sorted(options & layers(track, r.index, second_points, {y.index})[second_points]):
                after = layers(track, r.index, second_points, {onto})[second_points]
                if after and after != alone - {onto} and is_staggered(track, track.spaces[onto]):
                    return Order(y.index, r.index, onto)
    raise AssertionError(f"{track.name}: no staggered place where one car can block the next")


def crosses_within(track: Track, start: int, points: int, blocked: Collection[int]) -> bool:
    """Whether a car on ``start`` can cross the finish line with ``points``."""
    return any(FINISH in track.spaces[s].steps for layer in layers(track, start, points, blocked)[:points]
               for s in layer)


def find_finish(track: Track, first_points: int, second_points: int) -> Pair:
    """Two spaces near the line, one of them staggered, for two cars that both finish
    with one card: ``rear`` for the first car, ``front`` for the second, which stands
    ahead of it."""
    near = list(spaces_between(track, track.finish_line - 12, track.finish_line))
    for y in near:
        for r in near:
            if r.lane == y.lane or not (is_staggered(track, y) or is_staggered(track, r)):
                continue
            if (placing(track, r.index) > placing(track, y.index)
                    and crosses_within(track, y.index, first_points, {r.index})
                    and crosses_within(track, r.index, second_points, ())):
                return Pair(y.index, r.index)
    raise AssertionError(f"{track.name}: no two spaces near the finish for {first_points} and {second_points}")


def find_level_row(track: Track) -> list[int]:
    """Six spaces for the ranking example, best placed first: the row beside a pair of
    level curve spaces and the space behind its most forward back, then two spaces of
    one row of a straight, where only the next curve tells inside from outside."""
    pair = find_level_pair(track)
    tie = track.spaces[pair.front]
    row = sorted(row_beside(track, tie.front).values(), key=lambda s: s.back)
    behind = [s for s in track.spaces if s.lane == row[-1].lane and s.front == row[-1].back]
    straight = [s for s in spaces_between(track, CLEAR_OF_GRID, track.finish_line - 8)
                if not s.is_curve and s.lane in (0, track.lanes - 1) and not tie.back - 2 < s.front < tie.front + 2
                and not any(u.is_curve for u in overlapping(track, s))]
    rows = {}
    for s in straight:
        rows.setdefault(s.front, []).append(s.index)
    pairs = [cells for cells in rows.values() if len(cells) == 2]
    if not behind or not pairs:
        raise AssertionError(f"{track.name}: no place for the ranking example")
    return [s.index for s in row] + [behind[0].index] + pairs[-1]


def find_tip_approach(track: Track, line: float, points: int, blocked: Collection[int],
                      on_line: bool) -> tuple[int, int]:
    """A start short of the tip line at ``line`` and an end ``points`` steps on: on the
    line (``on_line``: the end's front edge is the line) or beyond it. Staggered
    starts come first, the nearest to the line first."""
    starts = [s for s in spaces_between(track, line - 12, line) if s.front < line and s.index not in blocked]
    starts.sort(key=lambda s: (not is_staggered(track, s), -s.front))
    for s in starts:
        for end in sorted(layers(track, s.index, points, blocked)[points]):
            front = track.spaces[end].front
            if (front == line) if on_line else (front > line):
                return s.index, end
    raise AssertionError(f"{track.name}: no start {points} steps short of the tip line at {line}")
