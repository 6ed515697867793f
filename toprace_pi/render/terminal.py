"""The track "unrolled" as text: one row per lane, progress left to right.

This shows what the rules care about (front positions, lanes, the finish and tip
lines) rather than the board's real shape, which :mod:`toprace_pi.render.svg`
draws. A space is one character just behind the column of its front edge, so on
a curve the outer lane's extra spaces show as denser cells. Long tracks wrap into
bands, each under a ruler of positions and a row of line labels.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import pairwise

from toprace_pi.render.palette import OFF, RGB, is_dim, is_light, ordinal
from toprace_pi.rules.board import Board
from toprace_pi.rules.cars import Car
from toprace_pi.rules.track import FINISH, LEFT, Space, Track

__all__ = ["LEGEND", "render_track"]

LEGEND = "Key: . straight  ( ) curve L/R  1-6 start  * may end  | finish F, tips T1-T3"

PREFIX = 3  # the lane letter and its gap
SPILL = 2  # room right of a band for a label that starts in its last column
RULER_STEP = 10  # units between ruler numbers
RESET = "\x1b[0m"


def render_track(
    track: Track,
    board: Board | None = None,
    *,
    colour: bool = True,
    width: int = 100,
    highlight: Mapping[int, Car] | None = None,
    lights: Mapping[int, RGB] | None = None,
    cars: Iterable[Car] = (),
) -> str:
    """The whole drawing: heading, key, the bands, then waiting and finished cars.

    ``highlight`` maps space indexes (or :data:`FINISH`) to the car whose possible
    move ends there. ``lights`` maps space indexes to the colour of the LED under
    them, to show what the strip shows: an LED in the colour of one of ``cars``
    (the game's) shows as that car. ``width`` bounds every line; ``colour`` adds
    ANSI 24-bit colour.
    """
    band = width - PREFIX - SPILL
    if band < 10:
        raise ValueError(f"width {width} is too narrow to draw a track")
    scale = _Scale.fit(track)
    highlight = highlight or {}
    lit = lights or {}
    by_light = {car.rgb: car for car in cars}
    lanes = [_lane_cells(track, scale, lane, board, highlight, lit, by_light, colour) for lane in range(track.lanes)]
    labels = _labels(track, scale, highlight.get(FINISH), colour)
    numbers = _ruler(track, scale)
    lines = [_heading(track), LEGEND]
    for start in range(0, len(lanes[0]), band):
        stop = start + band
        lines.append("")
        lines.append(" " * PREFIX + _header_row(numbers, start, stop))
        lines.append(" " * PREFIX + _header_row(labels, start, stop))
        lines.extend(_lane_letter(n).ljust(PREFIX) + "".join(row[start:stop]) for n, row in enumerate(lanes))
    if board is not None:
        lines.extend(_aside(track, board))
    return "\n".join(line.rstrip() for line in lines) + "\n"


@dataclass(frozen=True, slots=True)
class _Scale:
    """Maps track positions to columns, with enough columns per unit that no two
    spaces of a lane share one."""

    origin: float
    per_unit: int

    @classmethod
    def fit(cls, track: Track) -> _Scale:
        gaps = [
            b.front - a.front
            for lane in range(track.lanes)
            for a, b in pairwise(sorted((s for s in track.spaces if s.lane == lane), key=lambda s: s.front))
            if b.front > a.front
        ]
        per_unit = max(2, math.ceil(1 / min(gaps, default=1.0) - 1e-9))
        return cls(math.floor(min(s.back for s in track.spaces)), per_unit)

    def column(self, position: float) -> int:
        # floor(x + 0.5) rather than round(): banker's rounding could put two
        # positions a column apart into the same column.
        return math.floor((position - self.origin) * self.per_unit + 0.5)

    def columns(self, track: Track) -> int:
        return self.column(track.finish_line) + 1


def _lines(track: Track) -> list[tuple[str, float]]:
    return [(f"T{n}", pos) for n, pos in enumerate(track.tip_lines, 1)] + [("F", track.finish_line)]


def _lane_cells(
    track: Track,
    scale: _Scale,
    lane: int,
    board: Board | None,
    highlight: Mapping[int, Car],
    lights: Mapping[int, RGB],
    by_light: Mapping[RGB, Car],
    colour: bool,
) -> list[str]:
    """One lane's row: line markers first, so spaces drawn over them win."""
    cells = [" "] * scale.columns(track)
    for _, pos in _lines(track):
        cells[scale.column(pos)] = "|"
    cars = {space: car for car, space in board.at.items()} if board else {}
    for space in track.spaces:
        if space.lane == lane:
            light = lights.get(space.index)
            if light is not None and light != OFF:
                drawn = _light_cell(light, by_light.get(light), colour)
            else:
                drawn = _space_cell(space, cars.get(space.index), highlight.get(space.index), colour)
            cells[scale.column(space.front) - 1] = drawn
    return cells


def _space_cell(space: Space, car: Car | None, mover: Car | None, colour: bool) -> str:
    """A car beats a highlight, which beats a start number, which beats the plain mark."""
    if car is not None:
        return _car_cell(car, colour)
    if mover is not None:
        return _paint("*", mover, background=False) if colour else "*"
    if space.start is not None:
        return str(space.start)
    if space.is_curve:
        return "(" if space.curve == LEFT else ")"
    return "."


def _car_cell(car: Car, colour: bool) -> str:
    return _paint(car.letter, car, background=True) if colour else car.letter


def _light_cell(light: RGB, car: Car | None, colour: bool) -> str:
    """An LED: in a car's colour it shows as the car's letter on it, any other light
    as a dot in its colour (a legal end space glows dimly in the moving car's colour)."""
    if car is not None:
        return _car_cell(car, colour)
    if not colour:
        return "*"
    r, g, b = (min(255, 3 * c) for c in light)  # a dim glow, brightened enough to see
    return f"\x1b[1;38;2;{r};{g};{b}m*{RESET}"


def _paint(text: str, car: Car, *, background: bool) -> str:
    """A car is its letter on its colour; a highlight is its colour on the terminal's
    background, except a dim one's (a black car's), which shows white on black."""
    r, g, b = car.rgb
    if background:
        ink = "0;0;0" if is_light(car) else "255;255;255"
        return f"\x1b[1;38;2;{ink};48;2;{r};{g};{b}m{text}{RESET}"
    if is_dim(car):
        return f"\x1b[1;38;2;255;255;255;48;2;0;0;0m{text}{RESET}"
    return f"\x1b[1;38;2;{r};{g};{b}m{text}{RESET}"


def _labels(track: Track, scale: _Scale, finisher: Car | None, colour: bool) -> list[_Mark]:
    """Each line's label, starting in the line's column; ``F*`` when a highlighted
    move may cross the finish."""
    marks = [_Mark(scale.column(pos), list(label)) for label, pos in _lines(track)]
    if finisher is not None:
        star = _paint("*", finisher, background=False) if colour else "*"
        marks.append(_Mark(scale.column(track.finish_line) + 1, [star]))
    return marks


def _ruler(track: Track, scale: _Scale) -> list[_Mark]:
    first = math.ceil(scale.origin / RULER_STEP) * RULER_STEP
    last = math.floor(track.finish_line)
    return [_Mark(scale.column(pos), list(str(pos))) for pos in range(first, last + 1, RULER_STEP)]


@dataclass(frozen=True, slots=True)
class _Mark:
    """Text in a header row, placed by the column it starts in."""

    column: int
    cells: list[str]


def _header_row(marks: list[_Mark], start: int, stop: int) -> str:
    """The marks starting inside ``start:stop``; one starting near the end may run
    on into the spill room, so it is never cut or repeated in the next band."""
    cells = [" "] * (stop - start + SPILL)
    for mark in marks:
        if start <= mark.column < stop:
            at = mark.column - start
            cells[at : at + len(mark.cells)] = mark.cells
    return "".join(cells)


def _lane_letter(lane: int) -> str:
    return "abcdefghij"[lane]


def _heading(track: Track) -> str:
    shape = " (reconstructed layout)" if track.reconstructed else ""
    finish = f"{track.finish_line:g}"
    return f"{track.name}{shape}: {len(track.spaces)} spaces in {track.lanes} lanes, finish at {finish}"


def _aside(track: Track, board: Board) -> list[str]:
    """What the rows cannot show: broken-down cars and the finishing order."""
    lines = [
        f"{car} waits beside {track.space_id(wait.space)} for {wait.chaser}"
        for car, wait in sorted(board.waiting.items())
    ]
    if board.finished:
        places = ", ".join(f"{ordinal(n)} {car}" for n, car in enumerate(board.finished, 1))
        lines.append(f"Finished: {places}")
    return lines
