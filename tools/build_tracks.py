"""Build the four shipped track files from short hand-written outlines.

The real Top Race boards have not been measured, so every shipped track is a
RECONSTRUCTION: a plausible layout with the right character (lap length, three
lanes, curves, chicanes), not a copy of the printed board. Writing a few hundred
spaces and their steps by hand invites mistakes, so this tool drives a turtle
along an outline of a few segments and works out every space: its front edge,
its steps and its drawing position. The files it writes are the real source
from then on: players correct them by hand to match their board, and this tool
need not reproduce such edits.

Run from the repository root::

    python3 tools/build_tracks.py           # rewrites toprace_pi/games/toprace/data/tracks/*.toml
    python3 tools/build_tracks.py FOLDER    # writes elsewhere, to try an outline

It prints, per track, the number of spaces, the lap length, the sum of turning
and how far the loop misses its start point, then loads each file with the
engine's own loader so a bad outline fails here and not at a table.

The outline language
--------------------
A track is a list of segments driven one after the other by a turtle that starts
at (0, 0) heading ``start_heading`` degrees (0 = east, counter-clockwise
positive). The track is 3 lanes wide: lane 0 is the leftmost in the direction of
travel, lane 1 the centre lane (the turtle's own line), lane 2 the rightmost;
lane centres lie 1 unit apart. One straight space is 1 unit long.

``straight(rows)``
    ``rows`` rows of three side-by-side spaces whose fronts line up.
``curve(direction, degrees, radius)``
    An arc turning ``"left"`` or ``"right"`` by ``degrees``, its centre lane on
    a circle of ``radius`` units (more than 1, so the inner lane has a radius).
    Each lane is cut into as many spaces as fit its own arc (at least one), so
    the inner lane has fewer, longer spaces and the outer lane more, shorter
    ones, and fronts do not line up across lanes.
``chicane(rows, lanes=(1, 2))``
    Straight rows on which only the listed neighbouring lanes exist: the track
    narrows there. A lane that stops steps only diagonally into the lanes that
    go on; a lane that comes back starts again on the straight after the
    chicane (so a chicane must be followed by a straight or another chicane).

Progress (a space's ``front``) is measured along the centre lane, so a curve of
angle A (radians) and radius R advances every lane by R*A. The first segment is
a straight whose first two rows hold the starting grid; the last is a straight
whose end is the finish line. The loop closes where the turtle started, so the
finish line lies just behind the grid. An outline must turn 360 degrees in all
and end within 1 unit of its start, or the tool refuses it.

Steps follow the board's rule "straight ahead or diagonally forward; sideways
only on curve spaces, and only onto a space that ends further ahead" (checked
again on loading by :mod:`toprace_pi.games.toprace.rules.track`):

* straight: the next space in the same lane, unless the lane stops (chicane);
* into a neighbouring lane that exists beside the space: the first space there
  whose front lies ahead; if that one overlaps the space (it is beside it) it is
  a sideways step, kept only on curve spaces, and the diagonal is the space after
  it; a diagonal more than ``DIAGONAL_REACH`` beyond the straight step is left
  out, so no step leaps past a long inner-curve space or a gap in a lane;
* the spaces on the finish line step to ``"finish"`` and nowhere else.
"""

from __future__ import annotations

import bisect
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TRACKS_DIR = ROOT / "toprace_pi" / "games" / "toprace" / "data" / "tracks"

LANES = 3
LANE_LETTERS = "abc"
CENTRE_LANE = 1
LEFT, RIGHT = "left", "right"
#: How far (in progress units) a diagonal target may lie beyond the straight
#: step's target (or beyond one unit ahead, where the lane stops).
DIAGONAL_REACH = 1.5
#: The most a loop may miss its start point before the tool refuses the outline.
CLOSURE_TOLERANCE = 1.0


# --- the outline language ---------------------------------------------------


@dataclass(frozen=True)
class Straight:
    rows: int


@dataclass(frozen=True)
class Curve:
    direction: str
    degrees: float
    radius: float


@dataclass(frozen=True)
class Chicane:
    rows: int
    lanes: tuple[int, ...]


Segment = Straight | Curve | Chicane


def straight(rows: int) -> Straight:
    return Straight(rows)


def curve(direction: str, degrees: float, radius: float) -> Curve:
    return Curve(direction, degrees, radius)


def chicane(rows: int, *, lanes: tuple[int, ...]) -> Chicane:
    return Chicane(rows, tuple(sorted(lanes)))


@dataclass(frozen=True)
class Outline:
    """One track as the generator sees it. ``summary`` goes into the file's
    header comment, ``note`` into ``[track] note``."""

    name: str
    summary: str
    note: str
    segments: tuple[Segment, ...]
    start_heading: float = 0.0

    @property
    def slug(self) -> str:
        return self.name.lower().replace(" ", "-")


# --- the four tracks ----------------------------------------------------------
# Each outline is a closed loop. The rectangular ones close like the polygon of
# their corners; Lake Lane is two halves of 180 degrees each, closed by symmetry.

SPEED_STREET = Outline(
    name="Speed Street",
    summary="a short, wide beginner's oval",
    note=(
        "Reconstructed layout, not measured from the real board. The beginner's track: "
        "a wide counter-clockwise oval with four easy left-hand curves and one short "
        "chicane on the back straight."
    ),
    segments=(
        straight(9),  # start: the grid in rows 1-2
        curve(LEFT, 90, 3.0),
        straight(5),
        curve(LEFT, 90, 3.0),
        straight(5),  # back straight
        chicane(3, lanes=(0, 1)),
        straight(8),
        curve(LEFT, 90, 3.0),
        straight(5),
        curve(LEFT, 90, 3.0),
        straight(7),  # finish straight
    ),
)

LAKE_LANE = Outline(
    name="Lake Lane",
    summary="a winding lap with S-bends",
    note=(
        "Reconstructed layout, not measured from the real board. A clockwise lap "
        "winding round a lake, with several S-bends and two chicanes."
    ),
    segments=(
        straight(4),  # start
        curve(RIGHT, 45, 3.0),  # S-bend along the shore
        curve(LEFT, 45, 3.0),
        straight(4),
        curve(RIGHT, 90, 3.0),
        curve(LEFT, 60, 3.0),  # S-bend round the bay
        curve(RIGHT, 150, 3.0),
        straight(3),  # halfway: the second half repeats the first
        chicane(2, lanes=(1, 2)),
        straight(3),
        curve(RIGHT, 45, 3.0),  # S-bend along the far shore
        curve(LEFT, 45, 3.0),
        straight(4),
        curve(RIGHT, 90, 3.0),
        curve(LEFT, 60, 3.0),
        curve(RIGHT, 150, 3.0),
        chicane(2, lanes=(0, 1)),
        straight(2),  # finish straight
    ),
)

DESERT_DRIVE = Outline(
    name="Desert Drive",
    summary="long straights and tight hairpins",
    note=(
        "Reconstructed layout, not measured from the real board. Long straights "
        "joined by three tight hairpins that zigzag up the board, a long back "
        "straight and two chicanes."
    ),
    segments=(
        straight(9),  # start
        curve(LEFT, 180, 2.0),  # hairpin
        straight(4),
        curve(RIGHT, 180, 2.0),  # hairpin the other way
        straight(4),
        curve(LEFT, 180, 2.0),  # hairpin
        straight(4),  # the back straight, 12 rows
        chicane(3, lanes=(1, 2)),
        straight(5),
        curve(LEFT, 90, 2.0),
        straight(3),
        chicane(2, lanes=(0, 1)),
        straight(3),
        curve(LEFT, 90, 2.0),
        straight(3),  # finish straight
    ),
)

TURBO_TOWN = Outline(
    name="Turbo Town",
    summary="the long city circuit of 90-degree corners",
    note=(
        "Reconstructed layout, not measured from the real board. The long one: a "
        "clockwise city circuit of eight 90-degree street corners (two of them "
        "left-handers) and three chicanes."
    ),
    segments=(
        straight(12),  # start
        curve(RIGHT, 90, 2.0),
        straight(4),
        curve(LEFT, 90, 2.0),
        straight(4),
        curve(RIGHT, 90, 2.0),
        straight(2),
        chicane(2, lanes=(0, 1)),
        straight(2),
        curve(RIGHT, 90, 2.0),
        straight(5),
        chicane(2, lanes=(1, 2)),  # a funnel: three lanes, two, one, three
        chicane(2, lanes=(1,)),
        straight(5),
        curve(RIGHT, 90, 2.0),
        straight(2),
        curve(LEFT, 90, 2.0),
        straight(8),
        curve(RIGHT, 90, 2.0),
        straight(3),
        chicane(2, lanes=(0, 1)),
        straight(3),
        curve(RIGHT, 90, 2.0),
        straight(6),  # finish straight
    ),
)

OUTLINES: tuple[Outline, ...] = (SPEED_STREET, LAKE_LANE, DESERT_DRIVE, TURBO_TOWN)


# --- laying out the spaces -----------------------------------------------------


@dataclass
class Cell:
    """A space being built. ``back`` is the front of the space behind it in its
    lane (or the start of its stretch of lane): it decides what lies beside what."""

    lane: int
    front: float
    back: float
    curve: str | None
    x: float
    y: float
    heading: float
    segment: int
    id: str = ""
    start: int | None = None
    next: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Pose:
    """The turtle: a point on the centre lane and a heading in degrees."""

    x: float
    y: float
    heading: float

    def ahead(self, distance: float, left: float) -> tuple[float, float]:
        """The point ``distance`` ahead of the turtle and ``left`` units to its left."""
        h = math.radians(self.heading)
        return (
            self.x + distance * math.cos(h) - left * math.sin(h),
            self.y + distance * math.sin(h) + left * math.cos(h),
        )


Laid = list[tuple[Segment, list[Cell]]]


def r3(value: float) -> float:
    """Round to the 3 decimals the files keep (never -0.0). Fronts are compared for
    equality, so every front is rounded once, here, and then only copied."""
    return round(value, 3) + 0.0


def lay_rows(
    segment: int, rows: int, lanes: Sequence[int], pose: Pose, start: float
) -> tuple[list[Cell], Pose, float]:
    """Rows of side-by-side spaces on a straight (or on a chicane's fewer lanes)."""
    heading = r3(pose.heading % 360)
    cells = []
    for row in range(1, rows + 1):
        for lane in lanes:
            x, y = pose.ahead(row - 0.5, CENTRE_LANE - lane)
            front, back = r3(start + row), r3(start + row - 1)
            cells.append(Cell(lane, front, back, None, r3(x), r3(y), heading, segment))
    x, y = pose.ahead(rows, 0.0)
    return cells, Pose(x, y, pose.heading), r3(start + rows)


def lay_curve(segment: int, seg: Curve, pose: Pose, start: float) -> tuple[list[Cell], Pose, float]:
    """An arc: each lane gets as many spaces as fit its own radius, all lanes
    spanning the same progress, so inner spaces are longer and outer ones shorter."""
    side = 1 if seg.direction == LEFT else -1
    angle = math.radians(seg.degrees)
    length = seg.radius * angle
    cx, cy = pose.ahead(0.0, side * seg.radius)
    cells = []
    for lane in range(LANES):
        radius = seg.radius - side * (CENTRE_LANE - lane)
        count = max(1, round(radius * angle))
        back = start
        for k in range(1, count + 1):
            # the same fraction of the arc gives the same float in every lane
            front = r3(start + float(Fraction(k, count)) * length)
            heading = pose.heading + side * seg.degrees * (k - 0.5) / count
            x, y = _on_circle(cx, cy, radius, heading, side)
            cells.append(
                Cell(lane, front, back, seg.direction, r3(x), r3(y), r3(heading % 360), segment)
            )
            back = front
    end_heading = pose.heading + side * seg.degrees
    x, y = _on_circle(cx, cy, seg.radius, end_heading, side)
    cells.sort(key=lambda c: (c.front, c.lane))
    return cells, Pose(x, y, end_heading), r3(start + length)


def _on_circle(
    cx: float, cy: float, radius: float, heading: float, side: int
) -> tuple[float, float]:
    """The point of the circle round (cx, cy) where a turtle turning to ``side``
    (+1 left, -1 right) has ``heading``."""
    h = math.radians(heading)
    return cx + side * radius * math.sin(h), cy - side * radius * math.cos(h)


def check_outline(outline: Outline) -> None:
    """Refuse outlines the step rules cannot serve, naming the segment."""
    segs = outline.segments
    name = outline.name
    if not segs or not isinstance(segs[0], Straight) or segs[0].rows < 2:
        raise ValueError(f"{name}: must start with a straight of at least 2 rows (the grid)")
    if not isinstance(segs[-1], Straight):
        raise ValueError(f"{name}: must end with a full-width straight (the finish)")
    for number, seg in enumerate(segs, 1):
        where = f"{name} segment {number}"
        if isinstance(seg, Chicane):
            lanes = seg.lanes
            if not lanes or lanes != tuple(range(lanes[0], lanes[-1] + 1)) or lanes[-1] >= LANES:
                raise ValueError(f"{where}: a chicane keeps one or more neighbouring lanes")
            if isinstance(segs[number], Curve):
                # a lane coming back must start on a straight: the loader takes a first
                # space's back edge to lie one unit behind its front
                raise ValueError(f"{where}: a chicane must be followed by a straight")
        elif isinstance(seg, Curve):
            if seg.direction not in (LEFT, RIGHT) or seg.radius <= 1.0 or seg.degrees <= 0:
                raise ValueError(f"{where}: a curve goes left or right, with a radius over 1")


def lay_out(outline: Outline) -> tuple[Laid, Pose, float]:
    """Drive the turtle along the outline: the cells per segment, the pose where the
    turtle ends and the lap length (the finish line)."""
    check_outline(outline)
    pose = Pose(0.0, 0.0, outline.start_heading)
    progress = 0.0
    laid: Laid = []
    for number, seg in enumerate(outline.segments):
        if isinstance(seg, Curve):
            cells, pose, progress = lay_curve(number, seg, pose, progress)
        else:
            lanes = seg.lanes if isinstance(seg, Chicane) else tuple(range(LANES))
            cells, pose, progress = lay_rows(number, seg.rows, lanes, pose, progress)
        laid.append((seg, cells))
    return laid, pose, progress


def name_spaces(cells: list[Cell]) -> None:
    """Lane letter plus running number in order of progress: a1, a2, ..., b1, ..."""
    counters = [0] * LANES
    for cell in sorted(cells, key=lambda c: c.front):
        counters[cell.lane] += 1
        cell.id = f"{LANE_LETTERS[cell.lane]}{counters[cell.lane]}"


def mark_grid(cells: list[Cell]) -> None:
    """Row 2 (the front row) holds starting spaces 1-3, row 1 holds 4-6, lane 0 first."""
    for cell in cells:
        if cell.segment == 0 and cell.front in (1.0, 2.0):
            cell.start = cell.lane + 1 + (3 if cell.front == 1.0 else 0)


def link_steps(cells: list[Cell], finish: float) -> None:
    """Fill every cell's ``next`` by the movement rule (see the module docstring)."""
    by_lane = {
        lane: sorted((c for c in cells if c.lane == lane), key=lambda c: c.front)
        for lane in range(LANES)
    }
    fronts = {lane: [c.front for c in ss] for lane, ss in by_lane.items()}
    for cell in cells:
        if cell.front == finish:
            cell.next = ["finish"]
            continue
        ahead = _straight_step(cell, by_lane[cell.lane], fronts[cell.lane])
        steps = [ahead] if ahead else []
        reach = (ahead.front if ahead else cell.front + 1.0) + DIAGONAL_REACH
        for lane in (cell.lane - 1, cell.lane + 1):
            if lane in by_lane:
                steps += _side_steps(cell, by_lane[lane], fronts[lane], reach)
        cell.next = [s.id for s in steps]


def _straight_step(cell: Cell, lane: list[Cell], fronts: list[float]) -> Cell | None:
    """The next space in the cell's own lane, unless the lane stops here (chicane)."""
    i = bisect.bisect_right(fronts, cell.front)
    if i < len(lane) and lane[i].back == cell.front:
        return lane[i]
    return None


def _side_steps(cell: Cell, lane: list[Cell], fronts: list[float], reach: float) -> list[Cell]:
    """Steps into a neighbouring lane: the sideways one (curve spaces only) and the
    diagonal one, provided the lane exists beside the cell and the target is near."""
    i = bisect.bisect_right(fronts, cell.front)
    if i == len(lane) or lane[i].back > cell.front:
        return []  # the lane is missing here (a chicane) or has ended
    found = []
    first = lane[i]
    if first.back < cell.front:  # beside the cell, ending further ahead
        if cell.curve:
            found.append(first)
        follows = i + 1 < len(lane) and lane[i + 1].back == first.front
        diagonal = lane[i + 1] if follows else None
    else:
        diagonal = first
    if diagonal is not None and diagonal.front <= reach:
        found.append(diagonal)
    return found


def tip_lines(laid: Laid, finish: float) -> list[float]:
    """Row fronts on full-width straights nearest to 25, 50 and 75 % of the lap,
    so each tip line draws straight across all three lanes."""
    rows = {c.front for seg, cells in laid if isinstance(seg, Straight) for c in cells}
    rows.discard(finish)
    return [min(sorted(rows), key=lambda f: abs(f - finish * share)) for share in (0.25, 0.5, 0.75)]


# --- writing the file ------------------------------------------------------------

HEADER = """\
# {name}: track data for toprace_pi.
#
# RECONSTRUCTED LAYOUT. The printed board of the real game has not been measured;
# this is a plausible stand-in with the track's character ({summary}),
# not a copy of the board: spaces, curves and chicanes will differ from yours.
#
# tools/build_tracks.py wrote this file from a short outline, but that was only
# the starting point: correct this file by hand to match your board. Hand edits
# are welcome and the generator need not (and will not) reproduce them, so do not
# rerun it over an edited file unless you mean to start again.
#
# Each space is one line, grouped by the segment of track it lies on:
#   id       lane letter and running number in that lane ("a" = lane 0 = the
#            leftmost lane in the direction of travel, "b" = centre, "c" = right)
#   lane     0, 1 or 2
#   front    position of the space's front edge along the lap (a straight space
#            is 1.0 long); on a straight the spaces of a row share one front, in
#            a curve they do not. The finish line is at finish_line below.
#   curve    "left" or "right" on curve spaces (sideways steps allowed there)
#   start    starting space number 1-6 (front row 1-3, second row 4-6)
#   next     the spaces a car may step to from here: straight ahead, diagonally
#            forward, and from curve spaces sideways onto a space whose front lies
#            further ahead; "finish" for the spaces on the finish line
#   x, y, heading   for drawing only: centre of the space in space units (y up)
#            and direction of travel in degrees (0 = east, counter-clockwise)
# To correct a space, change its line: a wrong step in `next`, its `front`, its
# `curve` or `start`. To add one, give it an unused id and list it in the `next`
# of the spaces that lead to it; to remove one, also remove it from every `next`.
# Loading checks every step (forward only, never across two lanes, sideways only
# from curve spaces), that every space is reachable from the grid and can reach
# the finish, and reports all problems at once:
#   python3 -c "from toprace_pi.games.toprace.data import load_track; print(load_track('{slug}'))"
"""


def num(value: float) -> str:
    return repr(r3(value))


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def space_line(cell: Cell) -> str:
    parts = [f'id = "{cell.id}"', f"lane = {cell.lane}", f"front = {num(cell.front)}"]
    if cell.curve:
        parts.append(f'curve = "{cell.curve}"')
    if cell.start is not None:
        parts.append(f"start = {cell.start}")
    steps = ", ".join(f'"{s}"' for s in cell.next)
    parts.append(f"next = [{steps}]")
    parts += [f"x = {num(cell.x)}", f"y = {num(cell.y)}", f"heading = {num(cell.heading)}"]
    return "  { " + ", ".join(parts) + " },"


def segment_comment(seg: Segment) -> str:
    if isinstance(seg, Straight):
        return f"  # straight {plural(seg.rows, 'row')}"
    if isinstance(seg, Chicane):
        lanes = ", ".join(str(lane) for lane in seg.lanes)
        kept = "lanes" if len(seg.lanes) > 1 else "lane"
        return f"  # chicane {plural(seg.rows, 'row')}, {kept} {lanes} only"
    return f"  # curve {seg.direction} {seg.degrees:g} deg, radius {seg.radius:g}"


def render(outline: Outline, laid: Laid, finish: float) -> str:
    lines = [
        HEADER.format(name=outline.name, slug=outline.slug, summary=outline.summary),
        "[track]",
        f'name = "{outline.name}"',
        f"lanes = {LANES}",
        f"finish_line = {num(finish)}",
        f"tip_lines = [{', '.join(num(t) for t in tip_lines(laid, finish))}]",
        "reconstructed = true",
        f'note = "{outline.note}"',
        "spaces = [",
    ]
    for seg, cells in laid:
        lines.append(segment_comment(seg))
        lines += [space_line(c) for c in cells]
    lines.append("]")
    return "\n".join(lines) + "\n"


# --- driving it all ------------------------------------------------------------------


@dataclass(frozen=True)
class Report:
    """What the tool prints per track, to judge an outline."""

    slug: str
    spaces: int
    lap: float
    turning: float
    closure: float

    def __str__(self) -> str:
        return (
            f"{self.slug:13} {self.spaces:4d} spaces  lap {self.lap:7.3f}  "
            f"turning {self.turning:+6.1f} deg  closure error {self.closure:.3f}"
        )


def build(outline: Outline) -> tuple[str, Report]:
    """Lay out one track: its file's text and the figures to judge it by."""
    laid, end, finish = lay_out(outline)
    cells = [c for _, cells in laid for c in cells]
    name_spaces(cells)
    mark_grid(cells)
    link_steps(cells, finish)
    curves = [s for s in outline.segments if isinstance(s, Curve)]
    turning = sum((1 if c.direction == LEFT else -1) * c.degrees for c in curves)
    closure = math.hypot(end.x, end.y)
    return render(outline, laid, finish), Report(outline.slug, len(cells), finish, turning, closure)


def outline_problems(report: Report) -> list[str]:
    """A loop that does not close would draw wrongly on the board and in the LEDs."""
    problems = []
    if abs(abs(report.turning) - 360) > 1e-9:
        problems.append(f"turns {report.turning:g} degrees in all, not 360")
    if report.closure > CLOSURE_TOLERANCE:
        problems.append(f"ends {report.closure:.3f} units from its start")
    return problems


def loading_problems(path: Path) -> list[str]:
    """Load a written file as the engine will, so a bad outline fails here."""
    from toprace_pi.errors import DataError
    from toprace_pi.games.toprace.data import load_track

    try:
        load_track(path)
    except DataError as exc:
        return exc.problems
    return []


def main(argv: Sequence[str]) -> int:
    sys.path.insert(0, str(ROOT))
    folder = Path(argv[0]) if argv else TRACKS_DIR
    folder.mkdir(parents=True, exist_ok=True)
    failed = False
    for outline in OUTLINES:
        text, report = build(outline)
        print(report)
        problems = outline_problems(report)
        if not problems:
            path = folder / f"{outline.slug}.toml"
            path.write_text(text, encoding="utf-8")
            problems = loading_problems(path)
        for problem in problems:
            print(f"  PROBLEM: {problem}")
        failed = failed or bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
