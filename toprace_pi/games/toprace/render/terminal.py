"""The track "unrolled" as text: one row per lane, progress left to right.

This shows what the rules care about (who is ahead, the lanes, the start spaces,
the finish and tip lines) rather than the board's real shape, which
:mod:`toprace_pi.games.toprace.render.svg` draws.

Every space is exactly one character of its lane's row, so counting characters
counts spaces. The columns are shared by the lanes and follow progress:

* The track is cut wherever every lane has a space ending (the rows of a
  straight) and at every line. A straight row is one column, its spaces level.
* A stretch between two cuts (a curve) gets as many columns as its longest lane
  has spaces there, so that lane's spaces stand side by side and the shorter
  lanes' spaces stand apart, each in the column its front edge lies in: the
  stretch is shared out evenly among the columns. So a space further ahead is
  never drawn left of one behind it, and one ahead by a column's share or more
  (at most a row on the shipped tracks) is drawn right of it: cars in one
  column are level to within a space of the longest lane (which of them leads
  is the rules' call: the front edge, then the inside lane). Only uneven
  spaces that would share a column are nudged apart, within their stretch.
* A line (finish ``F``, tips ``T1``-``T3``) is a column of its own, ``|``, right
  of the spaces whose front edge is on it: cars there have not crossed it yet.

Long tracks wrap into even bands no wider than the given width (80 columns
unless the caller passes the terminal's, :func:`board_width`), each under a
ruler of track positions and a row of line labels. Colour comes in the modes of
:mod:`toprace_pi.render.ansi`; without it the letters and marks say it all.
"""

from __future__ import annotations

import math
import shutil
import textwrap
import weakref
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from toprace_pi.core.colour import dim
from toprace_pi.games.toprace.render.palette import GLOW, OFF, RGB, WHITE, is_dim, is_light, ordinal
from toprace_pi.games.toprace.rules.board import Board
from toprace_pi.games.toprace.rules.cars import Car
from toprace_pi.games.toprace.rules.track import FINISH, LEFT, Space, Track
from toprace_pi.render.ansi import ColourMode, mode_of, paint

__all__ = ["DEFAULT_WIDTH", "LEGEND", "ColourMode", "board_width", "render_track"]

LEGEND = (
    "Key: one character a space, level ones share a column; R a car, r broken down",
    ". straight  ( ) curve L/R  1-6 start  | F finish, T1-T3 tips",
    "* the car may end here, lit  @ the cursor: where OK moves it",
)

DEFAULT_WIDTH = 80
PREFIX = 3  # the lane letter and its gap
SPILL = 2  # room right of a band for a label that starts in its last column
MIN_BAND = 10  # the narrowest band worth drawing
MIN_WIDTH = PREFIX + MIN_BAND + SPILL
RULER_STEP = 10  # track units between ruler numbers
EPS = 1e-9  # keeps a front exactly on a column's edge in that column despite rounding


def board_width() -> int:
    """The width to draw at on this terminal: ``COLUMNS`` or the terminal's size
    (:data:`DEFAULT_WIDTH` when neither is known), but never too narrow to draw."""
    return max(MIN_WIDTH, shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns)


def render_track(
    track: Track,
    board: Board | None = None,
    *,
    colour: ColourMode | bool = ColourMode.TRUECOLOR,
    width: int = DEFAULT_WIDTH,
    highlight: Mapping[int, Car] | None = None,
    lights: Mapping[int, RGB] | None = None,
    cars: Iterable[Car] = (),
) -> str:
    """The whole drawing: heading, key, the bands, then waiting and finished cars.

    ``highlight`` maps space indexes (or :data:`FINISH`) to the car whose possible
    move ends there. ``lights`` maps space indexes to the colour of the LED under
    them, to show what the strip shows: an LED in the colour of one of ``cars``
    (the game's) shows as that car. No line is longer than ``width`` (escape codes
    aside). ``colour`` is a :class:`ColourMode`; ``True`` stands for 24-bit colour
    and ``False`` for none.
    """
    if width < MIN_WIDTH:
        raise ValueError(f"width {width} is too narrow to draw a track (at least {MIN_WIDTH})")
    mode = mode_of(colour)
    layout = _layout(track)
    highlight = highlight or {}
    draw = _Cells(
        None if board is None else {space: car for car, space in board.at.items()},
        {wait.space: car for car, wait in board.waiting.items()} if board else {},
        highlight,
        lights or {},
        {car.rgb: car for car in cars},
        mode,
    )
    lanes = [_lane_row(track, layout, lane, draw) for lane in range(track.lanes)]
    headers = [_ruler(track, layout), _labels(layout, highlight.get(FINISH), mode)]
    lines = _wrapped([_heading(track), *LEGEND], width)
    band = _band(layout.width, width)
    for start in range(0, layout.width, band):
        lines.append("")
        lines.extend(" " * PREFIX + _header_row(marks, start, start + band) for marks in headers)
        lines.extend(_lane_letter(n).ljust(PREFIX) + "".join(row[start : start + band]) for n, row in enumerate(lanes))
    if board is not None:
        lines.extend(_wrapped(_aside(track, board), width))
    return "\n".join(line.rstrip() for line in lines) + "\n"


def _band(columns: int, width: int) -> int:
    """How many columns a band holds: as many as fit, evened out over the bands
    needed, so a long track does not end in a stub of a few columns."""
    most = width - PREFIX - SPILL
    return math.ceil(columns / math.ceil(columns / most))


@dataclass(frozen=True, slots=True)
class _Stretch:
    """The track between two cuts, ``lo < position <= hi``, drawn in ``cells``
    columns from column ``first``; column k of it holds the k-th equal share."""

    lo: float
    hi: float
    first: int
    cells: int

    def column(self, position: float) -> int:
        """The column the position lies in (clamped to the stretch)."""
        share = (position - self.lo) / (self.hi - self.lo)
        return self.first + min(max(math.ceil(share * self.cells - EPS), 1), self.cells) - 1

    def spread(self, fronts: list[float]) -> list[int]:
        """One lane's spaces in the stretch, by their fronts in order: each in the
        column its front lies in, nudged apart where uneven spaces would share one
        (there is room: no lane has more spaces here than the stretch has columns)."""
        columns = [self.column(front) for front in fronts]
        for n in range(1, len(columns)):
            columns[n] = max(columns[n], columns[n - 1] + 1)
        limit = self.first + self.cells - 1
        for n in reversed(range(len(columns))):
            columns[n] = limit = min(columns[n], limit)
            limit -= 1
        return columns


@dataclass(frozen=True, slots=True)
class _Layout:
    """Where everything is drawn: the column of each space (by index) and of each
    line's marker, in a drawing ``width`` columns wide."""

    columns: dict[int, int]
    lines: list[tuple[str, int]]
    stretches: list[_Stretch]
    width: int

    @classmethod
    def of(cls, track: Track) -> _Layout:
        lanes = [sorted((s for s in track.spaces if s.lane == n), key=lambda s: s.front) for n in range(track.lanes)]
        labels = {pos: label for label, pos in _lines(track)}
        level = set.intersection(*({s.front for s in lane} for lane in lanes))
        cuts = sorted(level | labels.keys() | {max(s.front for s in track.spaces)})
        columns: dict[int, int] = {}
        lines: list[tuple[str, int]] = []
        stretches: list[_Stretch] = []
        lo, at = min(s.back for s in track.spaces), 0
        for hi in cuts:
            inside = [[s for s in lane if lo < s.front <= hi] for lane in lanes]
            stretch = _Stretch(lo, hi, at, max(map(len, inside)))
            if stretch.cells:
                stretches.append(stretch)
                for spaces in inside:
                    columns.update(zip((s.index for s in spaces), stretch.spread([s.front for s in spaces])))
            at += stretch.cells
            if hi in labels:
                lines.append((labels[hi], at))
                at += 1
            lo = hi
        return cls(columns, lines, stretches, at)

    def column(self, position: float) -> int:
        """The column a front edge at ``position`` would be drawn in."""
        stretch = next((s for s in self.stretches if position <= s.hi), self.stretches[-1])
        return stretch.column(position)


#: Each track's layout, worked out once: the demo draws the board after every step.
_LAYOUTS: weakref.WeakKeyDictionary[Track, _Layout] = weakref.WeakKeyDictionary()


def _layout(track: Track) -> _Layout:
    layout = _LAYOUTS.get(track)
    if layout is None:
        layout = _LAYOUTS[track] = _Layout.of(track)
    return layout


def _lines(track: Track) -> list[tuple[str, float]]:
    return [(f"T{n}", pos) for n, pos in enumerate(track.tip_lines, 1)] + [("F", track.finish_line)]


@dataclass(frozen=True, slots=True)
class _Cells:
    """What each space shows: its light, else a car, a highlight, a broken-down car or its mark."""

    #: The cars on their spaces, when the board is known (``None``: only the lights tell where cars are).
    cars: Mapping[int, Car] | None
    waiting: Mapping[int, Car]
    highlight: Mapping[int, Car]
    lights: Mapping[int, RGB]
    by_light: Mapping[RGB, Car]
    mode: ColourMode

    def of(self, space: Space) -> str:
        light = self.lights.get(space.index)
        if light is None or light == OFF or self._is_waiting_glow(space.index, light):
            return self._space(space)
        car = self.by_light.get(light)
        if car is not None and self.cars is not None and space.index not in self.cars:
            return _ink("@", car, self.mode)  # a car's full colour on an empty space: the cursor, where OK moves it
        return self._light(light)

    def _is_waiting_glow(self, index: int, light: RGB) -> bool:
        """Whether the LED glows for the broken-down car waiting beside the space, which the strip
        lights as it lights a legal end (a glow in the car's colour), so it is drawn as that car."""
        waiting = self.waiting.get(index)
        return waiting is not None and light == dim(waiting.rgb, GLOW)

    def _space(self, space: Space) -> str:
        """A car beats a highlight, which beats a broken-down car beside the space (its letter in
        lower case), which beats a start number, which beats the plain mark."""
        if self.cars is not None and (car := self.cars.get(space.index)) is not None:
            return _car_cell(car, self.mode)
        if (mover := self.highlight.get(space.index)) is not None:
            return _ink("*", mover, self.mode)
        if (waiting := self.waiting.get(space.index)) is not None:
            return _ink(waiting.letter.lower(), waiting, self.mode)
        if space.start is not None:
            return str(space.start)
        if space.is_curve:
            return "(" if space.curve == LEFT else ")"
        return "."

    def _light(self, light: RGB) -> str:
        """An LED: in a car's colour it shows as the car's letter on it, any other
        light as a star in its colour (a legal end glows dimly in the moving car's
        colour, so it is brightened enough to see)."""
        if (car := self.by_light.get(light)) is not None:
            return _car_cell(car, self.mode)
        r, g, b = (min(255, 3 * c) for c in light)
        return paint("*", self.mode, (r, g, b))


def _lane_row(track: Track, layout: _Layout, lane: int, draw: _Cells) -> list[str]:
    """One lane's row, a character a column."""
    cells = [" "] * layout.width
    for _, column in layout.lines:
        cells[column] = "|"
    for space in track.spaces:
        if space.lane == lane:
            cells[layout.columns[space.index]] = draw.of(space)
    return cells


def _car_cell(car: Car, mode: ColourMode) -> str:
    """A car is its letter in dark or white ink, whichever reads on its colour."""
    return paint(car.letter, mode, OFF if is_light(car) else WHITE, car.rgb)


def _ink(text: str, car: Car, mode: ColourMode) -> str:
    """A possible end (a star) or a broken-down car (its letter in lower case): ``text``
    in the car's colour, or white on black for a car too dark to read on a dark
    terminal (the black car)."""
    return paint(text, mode, WHITE, OFF) if is_dim(car) else paint(text, mode, car.rgb)


@dataclass(frozen=True, slots=True)
class _Mark:
    """Text in a header row, placed by the column it starts in."""

    column: int
    cells: list[str]


def _labels(layout: _Layout, finisher: Car | None, mode: ColourMode) -> list[_Mark]:
    """Each line's label above its marker; ``F*`` when a highlighted move may
    cross the finish."""
    star = [] if finisher is None else [_ink("*", finisher, mode)]
    return [_Mark(column, list(label) + (star if label == "F" else [])) for label, column in layout.lines]


def _ruler(track: Track, layout: _Layout) -> list[_Mark]:
    """Track positions every :data:`RULER_STEP` units, each above the space whose
    front edge is there (on a straight, the space numbered so)."""
    first = math.ceil(layout.stretches[0].lo / RULER_STEP) * RULER_STEP
    last = math.floor(track.finish_line)
    return [_Mark(layout.column(pos), list(str(pos))) for pos in range(first, last + 1, RULER_STEP)]


def _header_row(marks: list[_Mark], start: int, stop: int) -> str:
    """The marks starting inside ``start:stop``; one starting near the end may run
    on into the spill room, so it is never cut or repeated in the next band."""
    cells = [" "] * (stop - start + SPILL)
    for mark in marks:
        if start <= mark.column < stop:
            at = mark.column - start
            cells[at : at + len(mark.cells)] = mark.cells
    return "".join(cells[: stop - start + SPILL])


def _lane_letter(lane: int) -> str:
    return "abcdefghij"[lane]


def _wrapped(texts: list[str], width: int) -> list[str]:
    return [line for text in texts for line in textwrap.wrap(text, width)]


def _heading(track: Track) -> str:
    """The track's name and how many spaces each lane has up to the finish line (the spaces a
    car counts: a curve gives its lanes different numbers): ``to the finish, a 54 spaces, b 62``."""
    shape = " (reconstructed layout)" if track.reconstructed else ""
    counts = [sum(s.lane == lane and s.front <= track.finish_line + EPS for s in track.spaces)
              for lane in range(track.lanes)]
    lanes = ", ".join(f"{_lane_letter(lane)} {count}{' spaces' if lane == 0 else ''}"
                      for lane, count in enumerate(counts))
    return f"{track.name}{shape}: to the finish, {lanes}"


def _aside(track: Track, board: Board) -> list[str]:
    """What the rows cannot show: whom each broken-down car waits for, and the finishing order."""
    lines = [
        f"{car} waits beside {track.space_id(wait.space)} for {wait.chaser}"
        for car, wait in sorted(board.waiting.items())
    ]
    if board.finished:
        places = ", ".join(f"{ordinal(n)} {car}" for n, car in enumerate(board.finished, 1))
        lines.append(f"Finished: {places}")
    return lines
