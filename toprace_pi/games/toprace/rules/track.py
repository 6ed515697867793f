"""Racetracks as graphs of spaces, and where a car may drive on them.

A track is a directed graph. Every space knows its lane (0 is the leftmost lane
in the direction of travel), the position of its front edge along the track, and
the spaces a car may step to from it: straight ahead, diagonally forward, and on
curve spaces also sideways, but only where the target's front edge lies further
ahead. Every step therefore goes to a space whose front edge is further ahead,
which is what makes "never backward" checkable. The last spaces before the
finish line step to :data:`FINISH`.

Positions are plain numbers; only their order matters. On a curve the lanes hold
different numbers of spaces, so fronts in neighbouring lanes do not line up,
exactly as on the printed board.

The module is pure: :meth:`Track.from_dict` validates already-parsed data and
the loaders in :mod:`toprace_pi.games.toprace.data` do the reading.
"""

from __future__ import annotations

import bisect
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from functools import reduce
from operator import or_
from typing import Any

from toprace_pi.core.clone import shared
from toprace_pi.errors import DataError
from toprace_pi.schema import Range, shown, unknown_keys

#: Index standing for "across the finish line" in step lists and move ends.
FINISH = -1
FINISH_ID = "finish"
#: The largest value on a speed card: moves up to this many points are precomputed.
LOOK_AHEAD = 10
#: How many sets of spaces a track remembers (a few thousand in hundreds of races);
#: beyond this it starts afresh, so memory stays bounded.
SETS_LIMIT = 1 << 16

LEFT, RIGHT = "left", "right"


@dataclass(frozen=True, slots=True)
class Space:
    """One space of the track.

    ``front`` is the position of the front edge, ``back`` the front of the space
    behind it in the same lane (so ``back < p <= front`` means position ``p`` lies
    beside this space). ``turn`` is the direction of the curve the space lies in,
    or for a straight the direction of the next curve: it decides which lane is
    the inside one when cars are level.
    """

    index: int
    id: str
    lane: int
    front: float
    back: float
    steps: tuple[int, ...]
    start: int | None
    curve: str | None
    turn: str
    x: float
    y: float
    heading: float

    @property
    def is_curve(self) -> bool:
        return self.curve is not None


@shared
class Track:
    """A validated racetrack. Build one with :meth:`from_dict` or the data loaders."""

    def __init__(
        self,
        *,
        name: str,
        lanes: int,
        finish_line: float,
        tip_lines: tuple[float, float, float],
        spaces: tuple[Space, ...],
        reconstructed: bool,
        note: str = "",
        slug: str | None = None,
    ) -> None:
        self.name = name
        self._slug = slug
        self.lanes = lanes
        self.finish_line = finish_line
        self.tip_lines = tip_lines
        self.spaces = spaces
        self.reconstructed = reconstructed
        self.note = note
        self._by_id = {s.id: s.index for s in spaces} | {FINISH_ID: FINISH}
        #: Space ids by index, the finish's last (:data:`FINISH` is -1, so it indexes that one).
        self._ids = (*(s.id for s in spaces), FINISH_ID)
        self._steps = [s.steps for s in spaces]
        self.starting_spaces: dict[int, int] = {
            s.start: s.index for s in spaces if s.start is not None
        }
        by_lane: dict[int, list[Space]] = {}
        for s in sorted(spaces, key=lambda s: s.front):
            by_lane.setdefault(s.lane, []).append(s)
        self._lane_fronts = {lane: [s.front for s in ss] for lane, ss in by_lane.items()}
        self._lane_spaces = {lane: [s.index for s in ss] for lane, ss in by_lane.items()}
        self._rank = [self._rank_key(s) for s in spaces]
        self._ahead = [self._look_ahead(s.index) for s in spaces]
        #: For moves past other cars, sets of spaces are bit masks (bit ``i``: space ``i``),
        #: and what one step reaches from a set is remembered per set (see :meth:`_learn`).
        self._bits = [1 << s.index for s in spaces]
        #: Per space: the spaces one step reaches from it (a bit mask), and whether it steps across the line.
        self._reach = [reduce(or_, (1 << t for t in s.steps if t != FINISH), 0) for s in spaces]
        self._crosses = [FINISH in s.steps for s in spaces]
        self._sets: dict[int, tuple[tuple[int, ...], int, bool]] = {}

    def __repr__(self) -> str:
        return f"<Track {self.name!r}: {len(self.spaces)} spaces in {self.lanes} lanes>"

    @property
    def name_slug(self) -> str:
        """The file name form of the track's name (``"Speed Street"`` -> ``"speed-street"``): what a board
        profile names its track by, so a profile stays valid when its track file is moved."""
        return self.name.lower().replace(" ", "-")

    @property
    def slug(self) -> str:
        """What :func:`~toprace_pi.games.toprace.data.load_track` finds this track by again,
        recorded in a game's settings: a shipped track's name (``"speed-street"``), a track
        file's absolute path, or for a track built in memory its :attr:`name_slug`."""
        return self._slug or self.name_slug

    # --- looking up spaces -------------------------------------------------

    def __contains__(self, space_id: object) -> bool:
        """Whether ``space_id`` names a space of this track or the finish."""
        return space_id in self._by_id

    def index(self, space_id: str) -> int:
        """The index of the space called ``space_id``; ``"finish"`` gives :data:`FINISH`."""
        try:
            return self._by_id[space_id]
        except KeyError:
            raise ValueError(f"{self.name} has no space {space_id!r}") from None

    def find(self, space_id: str) -> int | None:
        """The index of the space called ``space_id`` (``"finish"``: :data:`FINISH`), ``None`` if it names none."""
        return self._by_id.get(space_id)

    def space_id(self, index: int) -> str:
        return self._ids[index]

    def front(self, index: int) -> float:
        return self.spaces[index].front

    def rank_key(self, index: int) -> tuple[float, int]:
        """Sort key for "further ahead": the front edge, then the inside lane."""
        return self._rank[index]

    def _rank_key(self, space: Space) -> tuple[float, int]:
        inside = space.lane if space.turn == RIGHT else self.lanes - 1 - space.lane
        return (space.front, inside)

    # --- driving -------------------------------------------------------------

    def moves(
        self, start: int, points: int, blocked: Collection[int]
    ) -> tuple[int, tuple[int, ...]]:
        """Where a car on ``start`` may end with ``points`` movement points.

        Returns ``(steps, ends)``. A car must use all its points if any path of
        free spaces allows it. Crossing the finish line always does (the car drives
        on past the line), so :data:`FINISH` is among the ends whenever the line is
        within reach, beside any space reached with exactly ``points`` steps, say
        by the longer outside lane of a curve. Otherwise the car drives as far as
        the blockage lets it (``steps < points``), and if it cannot move at all
        ``ends`` is empty.
        """
        if points <= LOOK_AHEAD:
            ends, within, finishes = self._ahead[start][points]
            if within.isdisjoint(blocked):
                return points, ends + (FINISH,) if finishes else ends
        bits = self._bits
        free = ~reduce(or_, map(bits.__getitem__, blocked), 0)
        frontier = bits[start]
        finishes = False
        for step in range(1, points + 1):
            _, reached, crosses = self._sets.get(frontier) or self._learn(frontier)
            finishes = finishes or crosses
            reached &= free
            if not reached:
                if finishes:
                    return points, (FINISH,)
                return step - 1, self._spaces_of(frontier) if step > 1 else ()
            frontier = reached
        ends = self._spaces_of(frontier)
        return points, ends + (FINISH,) if finishes else ends

    def _spaces_of(self, spaces: int) -> tuple[int, ...]:
        """The space indexes of the bit mask ``spaces``, in order."""
        return (self._sets.get(spaces) or self._learn(spaces))[0]

    def _learn(self, spaces: int) -> tuple[tuple[int, ...], int, bool]:
        """For the set ``spaces`` (a bit mask): its space indexes in order, the spaces one
        step reaches from it, and whether one of them steps across the line. Remembered:
        the sets a move search meets recur (the track never changes, so this changes no answer)."""
        if len(self._sets) >= SETS_LIMIT:
            self._sets.clear()
        reach, crossing = self._reach, self._crosses
        indexes, rest, reached, crosses = [], spaces, 0, False
        while rest:
            low = rest & -rest
            here = low.bit_length() - 1
            indexes.append(here)
            reached |= reach[here]
            crosses = crosses or crossing[here]
            rest ^= low
        self._sets[spaces] = (tuple(indexes), reached, crosses)
        return self._sets[spaces]

    def _look_ahead(self, start: int) -> list[tuple[tuple[int, ...], frozenset[int], bool]]:
        """For 0..LOOK_AHEAD points on an empty track: the ends, every space within
        reach, and whether the line is within reach. ``moves`` answers from this
        table whenever no car stands within reach, which is most of the time."""
        table: list[tuple[tuple[int, ...], frozenset[int], bool]] = [((start,), frozenset(), False)]
        frontier: set[int] = {start}
        within: set[int] = set()
        finishes = False
        for _ in range(LOOK_AHEAD):
            frontier = {t for s in frontier for t in self._steps[s] if t != FINISH}
            finishes = finishes or any(FINISH in self._steps[s] for s in table[-1][0])
            within |= frontier
            table.append((tuple(sorted(frontier)), frozenset(within), finishes))
        return table

    def path(self, start: int, steps: int | None, blocked: Collection[int], end: int) -> list[int]:
        """One route over free spaces from ``start`` to ``end``, for showing a move.

        With ``steps`` the route has exactly that many steps (or fewer when ``end``
        is :data:`FINISH`); with ``None`` it is a shortest one (sprints, returns).
        The list holds the spaces driven over, ``end`` included, ``start`` not.
        """
        layers: list[dict[int, int]] = []
        frontier = {start: start}
        while frontier and (steps is None or len(layers) < steps):
            reached: dict[int, int] = {}
            for here in frontier:
                for there in self._steps[here]:
                    if there == FINISH:
                        if end == FINISH:
                            return self._unwind(layers, here) + [FINISH]
                    elif there not in blocked:
                        reached.setdefault(there, here)
            layers.append(reached)
            frontier = reached
            if steps is None and end in reached:
                break
        if end not in frontier or not layers:
            raise ValueError(f"no route from {self.space_id(start)} to {self.space_id(end)}")
        return self._unwind(layers[:-1], frontier[end]) + [end]

    @staticmethod
    def _unwind(layers: list[dict[int, int]], last: int) -> list[int]:
        route = []
        for layer in reversed(layers):
            route.append(last)
            last = layer[last]
        route.reverse()
        return route

    def is_level(self, index: int, other: int) -> bool:
        """Whether a car on ``index`` stands level with one on ``other``: its front
        edge lies beside ``other``'s space (``back < front <= front``), so it is
        neither behind that space nor beyond it. On a straight that is the same
        row; in a curve, where the lanes are staggered, it may be a space whose
        front lies a little behind ``other``'s."""
        front, there = self.spaces[index].front, self.spaces[other]
        return there.back < front <= there.front

    def has_crossed(self, index: int, line: float) -> bool:
        """Whether a car on ``index`` (or :data:`FINISH`) has crossed the line at
        position ``line``: its front edge lies beyond it. A car whose front edge
        is on the line has not crossed it; that is why the spaces on the finish
        line step to the finish instead of counting as finished, and a tip line
        drawn at a row's front is crossed only by driving past that row."""
        return index == FINISH or self.spaces[index].front > line

    def sprint_ends(self, start: int, other: int, blocked: Collection[int]) -> tuple[int, ...]:
        """Where a car on ``start`` may end a sprint to the car on ``other``: the
        free spaces level with it (:meth:`is_level`) that a route over free spaces
        reaches without passing it. When a blockage keeps it from every such
        space, the free spaces furthest ahead it can reach, all behind the other
        car. Empty when it is level already or cannot move at all."""
        if self.is_level(start, other):
            return ()
        limit = self.spaces[other].front
        seen: set[int] = set()
        frontier = [start]
        while frontier:
            nxt = []
            for here in frontier:
                for there in self._steps[here]:
                    if there == FINISH or there in blocked or there in seen or self.spaces[there].front > limit:
                        continue
                    seen.add(there)
                    nxt.append(there)
            frontier = nxt
        level = [s for s in seen if self.is_level(s, other)]
        return tuple(sorted(level)) if level else self._furthest(seen)

    def _furthest(self, spaces: Collection[int]) -> tuple[int, ...]:
        """The spaces of ``spaces`` whose front edge lies furthest ahead (ties all kept)."""
        if not spaces:
            return ()
        best = max(self.spaces[s].front for s in spaces)
        return tuple(sorted(s for s in spaces if self.spaces[s].front == best))

    def beside(self, position: float) -> list[int]:
        """The spaces, one per lane at most, that lie beside ``position`` on the track."""
        found = []
        for lane, fronts in self._lane_fronts.items():
            i = bisect.bisect_left(fronts, position)
            if i < len(fronts):
                index = self._lane_spaces[lane][i]
                if self.spaces[index].back < position:
                    found.append(index)
        return sorted(found, key=lambda s: self.spaces[s].lane)

    def return_spaces(self, waited: int, blocked: Collection[int]) -> tuple[int, ...]:
        """Where a broken-down car that waited beside space ``waited`` may be put
        back: the free spaces beside it (one per lane); if all are taken, the
        nearest free spaces behind them. Behind is looked for lane by lane (in
        each lane, the first free space behind that lane's space of the row) and
        the nearest by front edge win, so in a curve a free space directly behind
        a staggered neighbour is not skipped."""
        position = self.spaces[waited].front
        row = self.beside(position)
        free = tuple(s for s in row if s not in blocked)
        if free:
            return free
        limits = {self.spaces[s].lane: self.spaces[s].back for s in row}
        behind = []
        for lane, fronts in self._lane_fronts.items():
            limit = limits.get(lane)
            i = bisect.bisect_right(fronts, limit) if limit is not None else bisect.bisect_left(fronts, position)
            spaces = self._lane_spaces[lane]
            while i > 0 and spaces[i - 1] in blocked:
                i -= 1
            if i > 0:
                behind.append(spaces[i - 1])
        return self._furthest(behind)

    # --- building ------------------------------------------------------------

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str, *, slug: str | None = None) -> Track:
        """Build a track from parsed TOML, reporting every problem at once as a
        :class:`~toprace_pi.errors.DataError` that names ``source`` and the space.
        ``slug``: how the loader finds it again (see :attr:`Track.slug`)."""
        return _TrackBuilder(data, source).build(slug)


#: The keys of ``[track]`` and of each of its spaces.
TRACK_KEYS = ("name", "lanes", "finish_line", "tip_lines", "reconstructed", "note", "spaces")
SPACE_KEYS = ("id", "lane", "front", "next", "start", "curve", "x", "y", "heading")
#: Cars, and so lanes and starting spaces, of a race.
LANES = Range(int, 1, 6)
#: A position along the track, in space lengths: the shipped tracks' finish lines lie at 60 to 90, and a
#: thousand spaces is no board a table holds.
POSITION = Range(float, 0.0, 1000.0)
#: Every number of a space, and the values a real board could need: its front edge, where it is drawn (in
#: space units, either side of the first space) and its heading in degrees.
#: A space's front edge: starting spaces may lie behind the start line (below 0).
FRONT = Range(float, -1000.0, 1000.0)
SPACE_NUMBERS: dict[str, Range[Any]] = {"front": FRONT, "x": Range(float, -1000.0, 1000.0),
                                        "y": Range(float, -1000.0, 1000.0), "heading": Range(float, -360.0, 360.0)}


class _TrackBuilder:
    """Schema and graph checks for track data; collects problems instead of stopping."""

    def __init__(self, data: Mapping[str, Any], source: str) -> None:
        self.data = data
        self.source = source
        self.problems: list[str] = []

    def fail(self, where: str, message: str) -> None:
        self.problems.append(f"{where}: {message}")

    def build(self, slug: str | None) -> Track:
        header = self._header()
        raw = self._raw_spaces(header.pop("spaces"), header["lanes"])
        schema_ok = not self.problems
        self._check_starts(raw)
        if schema_ok:  # wrong starting numbers leave the graph checkable: name its problems in the same pass
            self._check_graph(raw, header)
        if self.problems:
            raise DataError(self.source, self.problems)
        return Track(spaces=self._spaces(raw), slug=slug, **header)

    def _header(self) -> dict[str, Any]:
        track = self.data.get("track")
        if not isinstance(track, Mapping):
            self.fail("[track]", "missing table")
            track = {}
        unknown_keys(self.data, ("track",), "the file:", self.problems, what="table")
        unknown_keys(track, TRACK_KEYS, "[track]", self.problems)
        name = track.get("name")
        if not isinstance(name, str) or not name.strip():
            self.fail("[track]", "'name' must be a non-empty string")
            name = "?"
        # A stand-in of every lane, so that no space's lane is named for the header's fault.
        lanes = LANES.check(track.get("lanes"), "[track] lanes", self.problems, stand_in=LANES.high)
        finish = POSITION.check(track.get("finish_line"), "[track] finish_line", self.problems)
        tips = track.get("tip_lines")
        if (
            not isinstance(tips, list)
            or len(tips) != 3
            or not all(t in POSITION for t in tips)
            or not all(a < b for a, b in zip([0, *tips], [*tips, finish]))
        ):
            self.fail("[track]", "'tip_lines' must be 3 increasing positions before the finish line")
            tips = [0.0, 0.0, 0.0]
        reconstructed = track.get("reconstructed", False)
        if not isinstance(reconstructed, bool):
            self.fail("[track]", "'reconstructed' must be true or false")
        note = track.get("note", "")
        if not isinstance(note, str):
            self.fail("[track]", "'note' must be a string")
            note = ""
        return dict(
            name=name,
            lanes=lanes,
            finish_line=finish,
            tip_lines=tuple(float(t) for t in tips),
            reconstructed=bool(reconstructed),
            note=note,
            spaces=track.get("spaces"),
        )

    def _raw_spaces(self, spaces: object, lanes: int) -> list[dict[str, Any]]:
        if not isinstance(spaces, list) or not spaces:
            self.fail("[track]", "'spaces' missing or empty")
            return []
        raw: list[dict[str, Any]] = []
        seen: set[str] = set()
        for n, entry in enumerate(spaces, 1):
            where = f"space #{n}"
            if not isinstance(entry, Mapping):
                self.fail(where, "must be a table")
                continue
            sid = entry.get("id")
            if not isinstance(sid, str) or not sid or sid == FINISH_ID:
                self.fail(where, f"'id' must be a non-empty string other than {FINISH_ID!r}")
                continue
            where = f"space {sid}"
            if sid in seen:
                self.fail(where, "id used twice")
                continue
            seen.add(sid)
            if self._space_fields_ok(entry, where, lanes):
                raw.append(dict(entry))
        return raw

    def _space_fields_ok(self, entry: Mapping[str, Any], where: str, lanes: int) -> bool:
        known = len(self.problems)
        unknown_keys(entry, SPACE_KEYS, f"{where}:", self.problems)
        lane = Range(int, 0, lanes - 1)
        if entry.get("lane") not in lane:
            self.fail(where, f"'lane' must be {lane}, not {shown(entry.get('lane'))}")
        for key, allowed in SPACE_NUMBERS.items():
            if entry.get(key) not in allowed:
                self.fail(where, f"{key!r} must be {allowed}, not {shown(entry.get(key))}")
        steps = entry.get("next")
        if not isinstance(steps, list) or not all(isinstance(t, str) for t in steps):
            self.fail(where, "'next' must be a list of space ids")
        start = entry.get("start")
        if start is not None and start not in LANES:
            self.fail(where, f"'start' must be a starting space number from 1 to {LANES.high}, not {shown(start)}")
        if entry.get("curve") not in (None, LEFT, RIGHT):
            self.fail(where, "'curve' must be \"left\" or \"right\"")
        return len(self.problems) == known

    def _check_graph(self, raw: list[dict[str, Any]], header: dict[str, Any]) -> None:
        by_id = {r["id"]: r for r in raw}
        finish = header["finish_line"]
        backs = _backs(raw, by_id)
        self._check_lanes(raw)
        for r in raw:
            where = f"space {r['id']}"
            if r["front"] == finish and FINISH_ID not in r["next"]:
                self.fail(where, "lies on the finish line but has no step to the finish")
            if r["front"] > finish:
                self.fail(where, f"front {r['front']} lies past the finish line {finish}")
            if not r["next"]:
                self.fail(where, "a dead end: no step forward and no step to the finish")
            for target in r["next"]:
                self._check_step(r, target, by_id, backs, finish)
        if any(r.get("start") for r in raw):  # with no starting space at all, every space would be named
            self._check_reachable(raw, by_id)

    def _check_step(self, r, target, by_id, backs, finish) -> None:
        where = f"space {r['id']}"
        if target == FINISH_ID:
            if r["front"] != finish:
                self.fail(where, "steps to the finish but its front is not on the finish line")
            return
        t = by_id.get(target)
        if t is None:
            self.fail(where, f"unknown neighbour {target!r}")
        elif t["front"] <= r["front"]:
            self.fail(where, f"the step to {target} goes sideways or backward")
        elif abs(t["lane"] - r["lane"]) > 1:
            self.fail(where, f"the step to {target} jumps over a lane")
        elif t["lane"] == r["lane"] and backs[target] != r["front"]:
            self.fail(where, f"the step to {target} skips a space of its lane")
        elif t["lane"] != r["lane"] and backs[target] < r["front"] and r.get("curve") is None:
            self.fail(where, f"the step to {target} is sideways, allowed only on curve spaces")

    def _check_lanes(self, raw: list[dict[str, Any]]) -> None:
        seen: dict[tuple[int, float], str] = {}
        for r in raw:
            other = seen.setdefault((r["lane"], float(r["front"])), r["id"])
            if other != r["id"]:
                self.fail(f"space {r['id']}", f"has the same lane and front edge as {other}")

    def _check_starts(self, raw: list[dict[str, Any]]) -> None:
        numbers = [r["start"] for r in raw if r.get("start") is not None]
        for n in range(1, 7):
            if numbers.count(n) == 0:
                self.fail("starting spaces", f"starting space {n} is missing")
            elif numbers.count(n) > 1:
                self.fail("starting spaces", f"starting space {n} is given {numbers.count(n)} times")

    def _check_reachable(self, raw: list[dict[str, Any]], by_id: dict[str, dict[str, Any]]) -> None:
        forward = {r["id"]: [t for t in r["next"] if t in by_id or t == FINISH_ID] for r in raw}
        reached = _closure([r["id"] for r in raw if r.get("start")], forward)
        for r in raw:
            if r["id"] not in reached:
                self.fail(f"space {r['id']}", "unreachable from the starting spaces")
        backward: dict[str, list[str]] = {}
        for sid, targets in forward.items():
            for t in targets:
                backward.setdefault(t, []).append(sid)
        to_finish = _closure([FINISH_ID], backward)
        for r in raw:
            if r["id"] not in to_finish:
                self.fail(f"space {r['id']}", "no route from here to the finish line")

    def _spaces(self, raw: list[dict[str, Any]]) -> tuple[Space, ...]:
        index = {r["id"]: i for i, r in enumerate(raw)}
        index[FINISH_ID] = FINISH
        by_id = {r["id"]: r for r in raw}
        backs = _backs(raw, by_id)
        turns = _turns(raw, by_id)
        return tuple(
            Space(
                index=i,
                id=r["id"],
                lane=r["lane"],
                front=float(r["front"]),
                back=backs[r["id"]],
                steps=tuple(index[t] for t in r["next"]),
                start=r.get("start"),
                curve=r.get("curve"),
                turn=turns[r["id"]],
                x=float(r["x"]),
                y=float(r["y"]),
                heading=float(r["heading"]),
            )
            for i, r in enumerate(raw)
        )


def _backs(raw: list[dict[str, Any]], by_id: dict[str, dict[str, Any]]) -> dict[str, float]:
    """Each space's back edge: the front of the space behind it in its lane, or one
    unit behind its own front where nothing in its lane leads to it."""
    behind: dict[str, float] = {}
    for r in raw:
        for t in r["next"]:
            target = by_id.get(t)
            if target is not None and target["lane"] == r["lane"]:
                behind[t] = max(behind.get(t, float("-inf")), float(r["front"]))
    return {r["id"]: behind.get(r["id"], float(r["front"]) - 1.0) for r in raw}


def _turns(raw: list[dict[str, Any]], by_id: dict[str, dict[str, Any]]) -> dict[str, str]:
    """Each space's curve direction, or for straights that of the next curve ahead
    (wrapping round to the first curve of the lap)."""
    ordered = sorted(raw, key=lambda r: r["front"])
    curves = [(r["front"], r["curve"]) for r in ordered if r.get("curve")]
    if not curves:
        return {r["id"]: RIGHT for r in raw}
    fronts = [f for f, _ in curves]
    turns = {}
    for r in raw:
        if r.get("curve"):
            turns[r["id"]] = r["curve"]
            continue
        i = bisect.bisect_left(fronts, r["front"])
        turns[r["id"]] = curves[i][1] if i < len(curves) else curves[0][1]
    return turns


def _closure(seeds: Iterable[str], edges: Mapping[str, list[str]]) -> set[str]:
    seen = set(seeds)
    todo = list(seen)
    while todo:
        for nxt in edges.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen
