"""TOP SPEED's circuit as a standalone SVG picture: the loop of spaces with the finish line, the lap
counter and the garage in the infield, where the cars wait for the start.

The circuit file gives only the number of spaces, not the board's shape, so the shape is
RECONSTRUCTED: a stadium (two straights joined by half circles, the straights three times the
circles' radius), every space the same length along it, run clockwise like Montmeló's Grand Prix.
The finish line crosses the middle of the top straight; space 0 is the first after it, and each
space's number stands outside the loop beside it. A circuit of fewer than 32 spaces keeps the same
size with longer spaces.

The cars are :class:`~toprace_pi.render.pieces.Piece` s: on their spaces once the grid is set (a
lapped car faded), in the garage before; a marker on the lap counter shows the lap in the leader's
colour. Everything is read from the game's public attributes, so it draws ``game.seen_by(None)`` (a
spectator's view): no deck, no card kept apart reaches the picture.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from toprace_pi.core.colour import RGB
from toprace_pi.games.topspeed.render.palette import LAPS, seat_cars
from toprace_pi.games.topspeed.render.terminal import state_line
from toprace_pi.games.topspeed.rules import Stage, TopSpeed
from toprace_pi.games.topspeed.rules.game import GRID
from toprace_pi.render.pieces import Piece, piece_svg
from toprace_pi.render.playback import told
from toprace_pi.render.svg import caption_height, caption_lines, css, document, el, points
from toprace_pi.text import ordinal

Point = tuple[float, float]

#: The loop's length along its middle is this much a space, for at least this many spaces.
SPACE_LENGTH, FEWEST = 66.0, 32
#: The track's width, and the room outside it for the spaces' numbers.
TRACK_WIDTH, OUTSIDE = 72.0, 44.0
MARGIN, HEADER = 20.0, 70.0
#: The radius of a car, and of the lap counter's marker; the marker's colour before the race.
CAR, MARKER = 20.0, 16.0
NOBODY_YET: RGB = (119, 119, 119)
#: Corners a space's outline has along each side (more round the curves' arcs).
SAMPLES = 5
BACKGROUND, INFIELD, EDGE = "#eef4ea", "#d8ead0", "#6d6d6d"
SPACE_FILLS = ("#d9d9d9", "#e8e8e8")
#: The lap counter's bar in the infield, and the garage below it: their middles' height from the loop's centre.
COUNTER_Y, GARAGE_Y = -38.0, 62.0
GARAGE_STEP = 2 * CAR + 12
#: Stages of the race itself: the lap marker takes the lead car's colour.
RACING = (Stage.RACE, Stage.OVER)


def board_svg(game: TopSpeed) -> str:
    """The circuit without its cars: what a live page fetches once."""
    return _svg(game, [], ())


def picture(game: TopSpeed, caption: Sequence[str] = ()) -> str:
    """The circuit with every car and the lap marker on it and ``caption`` under it: one step of a replay."""
    return _svg(game, pieces(game), caption)


def pieces(game: TopSpeed) -> list[Piece]:
    """Every car in seat order, then the lap counter's marker. Once the grid is set each car stands on
    its space (two never share one), a lapped car faded; before it, the cars wait in the garage
    (:func:`on_the_grid`)."""
    loop = _Loop.of(game)
    places = {seat: place for place, seat in enumerate(game.race_order(), 1)}
    return [*(_car(game, loop, seat, places[seat]) for seat in range(len(game.names))), _lap_marker(game, loop)]


def caption(game: TopSpeed, said: Sequence[str]) -> list[str]:
    """The lines under a picture: the lap counter and what is out on the track, the race order (the
    final one once the race is over), then ``said``: what happened since the previous picture."""
    cars = seat_cars(len(game.names))
    order = " · ".join(f"{place}. {game.names[seat]} ({cars[seat].letter})"
                       for place, seat in enumerate(game.race_order(), 1))
    head = [state_line(game.view(None))]
    if on_the_grid(game):
        head.append(f"The race is over. Final order: {order}" if game.is_over else order)
    return told(head, said)


def on_the_grid(game: TopSpeed) -> bool:
    """Whether the cars stand on the circuit: once chance has set the starting order. Before it (and
    again while the order after the qualifying is drawn) they wait in the garage."""
    return GRID not in game.chance_queue


def _car(game: TopSpeed, loop: _Loop, seat: int, place: int) -> Piece:
    """``seat``'s car on its space (``place`` in the race order), or in the garage before the grid is set."""
    car = seat_cars(len(game.names))[seat]
    owner = f"{game.names[seat]}'s {car.name} car"
    if not on_the_grid(game):
        return Piece.of(loop.garage(seat), CAR, car.rgb, car.letter, f"{owner}, waiting for the start")
    space, lapped = loop.space(game.progress[seat]), game.lapped[seat]
    title = f"{owner}, {ordinal(place)}, on {space}" + (", lapped" if lapped else "")
    return Piece.of(loop.centre(space), CAR, car.rgb, car.letter, title, faded=lapped)


def _lap_marker(game: TopSpeed, loop: _Loop) -> Piece:
    """The lap counter's marker, at the lap reached, in the lead car's colour once the race is on."""
    laps, lap = game.settings.laps, game.lap
    left, right = loop.counter
    at = (left + (right - left) * min(lap, laps) / laps, COUNTER_Y)
    label = str(lap) if lap < 100 else "L"  # a label has two characters at most
    if game.stage not in RACING:
        title = f"Lap {lap} of {laps}: " + (f"qualifying lap {game.qualifying_lap}" if game.stage is Stage.QUALIFYING
                                            else "the race has not started")
        return Piece.of(at, MARKER, NOBODY_YET, label, title)
    leader = game.race_order()[0]
    car = seat_cars(len(game.names))[leader]
    title = f"Lap {lap} of {laps}: {game.names[leader]}'s {car.name} car {'won' if game.is_over else 'leads'}"
    return Piece.of(at, MARKER, car.rgb, label, title)


@dataclass(frozen=True, slots=True)
class _Loop:
    """The stadium the circuit's ``spaces`` are laid along (see the module's docstring); the loop's
    centre is at (0, 0), the finish line at the middle of the top straight."""

    spaces: int
    laps: int
    players: int

    @classmethod
    def of(cls, game: TopSpeed) -> _Loop:
        return cls(game.circuit.spaces, game.settings.laps, len(game.names))

    @property
    def length(self) -> float:
        return max(self.spaces, FEWEST) * SPACE_LENGTH

    @property
    def radius(self) -> float:
        """The curves' radius along the track's middle: the straights are three of it."""
        return self.length / (6 + 2 * math.pi)

    @property
    def straight(self) -> float:
        return 3 * self.radius

    def space(self, progress: int) -> int:
        return progress % self.spaces

    def along(self, distance: float) -> tuple[Point, Point]:
        """The point of the track's middle ``distance`` on from the finish line, and the way there."""
        r, half = self.radius, self.straight / 2
        s = distance % self.length
        for length, place in ((half, _top), (math.pi * r, _right), (2 * half, _bottom), (math.pi * r, _left)):
            if s < length:
                return place(s, r, half)
            s -= length
        return _top(s - half, r, half)

    def side(self, distance: float, offset: float) -> Point:
        """The point ``offset`` outward (inward if negative) of the track's middle at ``distance``."""
        (x, y), (tx, ty) = self.along(distance)
        return x + ty * offset, y - tx * offset

    def outline(self, space: int) -> list[Point]:
        step = self.length / self.spaces
        marks = [step * (space + k / (SAMPLES - 1)) for k in range(SAMPLES)]
        outer = [self.side(d, TRACK_WIDTH / 2) for d in marks]
        inner = [self.side(d, -TRACK_WIDTH / 2) for d in reversed(marks)]
        return outer + inner

    def centre(self, space: int) -> Point:
        return self.side(self.length / self.spaces * (space + 0.5), 0)

    @property
    def counter(self) -> tuple[float, float]:
        """The lap counter bar's left and right ends."""
        return -self.straight / 2 + 10, self.straight / 2 - 10

    def garage(self, seat: int) -> Point:
        """Where ``seat``'s car waits before the start: in a row of boxes in the infield."""
        return (seat - (self.players - 1) / 2) * GARAGE_STEP, GARAGE_Y

    def view_box(self, caption_lines: int) -> tuple[float, float, float, float]:
        reach = TRACK_WIDTH / 2 + OUTSIDE
        left, top = -(self.straight / 2 + self.radius + reach) - MARGIN, -(self.radius + reach) - HEADER
        return left, top, -2 * left, -top + self.radius + reach + MARGIN + caption_height(caption_lines)


# The stadium's four pieces, clockwise from the finish line, each ``s`` along from its own start (the
# top straight's from its middle): the point of the track's middle there and the way the cars go.


def _top(s: float, r: float, half: float) -> tuple[Point, Point]:
    return (s, -r), (1.0, 0.0)


def _right(s: float, r: float, half: float) -> tuple[Point, Point]:
    angle = s / r
    return (half + r * math.sin(angle), -r * math.cos(angle)), (math.cos(angle), math.sin(angle))


def _bottom(s: float, r: float, half: float) -> tuple[Point, Point]:
    return (half - s, r), (-1.0, 0.0)


def _left(s: float, r: float, half: float) -> tuple[Point, Point]:
    angle = s / r
    return (-half - r * math.sin(angle), r * math.cos(angle)), (-math.cos(angle), -math.sin(angle))


def _svg(game: TopSpeed, cars: Sequence[Piece], caption: Sequence[str]) -> str:
    loop = _Loop.of(game)
    left, top, width, height = loop.view_box(len(caption))
    body = [
        *_heading(game, left + MARGIN, top),
        _infield(loop),
        *(_space(loop, space) for space in range(loop.spaces)),
        *_finish_line(loop),
        *_lap_counter(loop),
        *_garage(loop),
        *caption_lines(left + MARGIN, top + height - 12, caption),
        *(piece_svg(car) for car in cars),
    ]
    return document((left, top, width, height), game.circuit.name, body, background=BACKGROUND)


def _heading(game: TopSpeed, x: float, top: float) -> list[str]:
    circuit = game.circuit
    title = {"class": "title", "x": x, "y": top + 32, "font-size": 24, "font-weight": "bold"}
    note = {"class": "note", "x": x, "y": top + 54, "font-size": 14, "font-style": "italic", "fill": "#555"}
    words = f"{circuit.spaces} spaces, {game.settings.laps} laps; reconstructed layout, run clockwise"
    return [el("text", title, f"TOP SPEED: {circuit.name}"), el("text", note, words)]


def _infield(loop: _Loop) -> str:
    """The grass inside the loop: a stadium as wide as the track's inner edge."""
    inner = loop.radius - TRACK_WIDTH / 2
    half = loop.straight / 2
    return el("rect", {"class": "infield", "x": -half - inner, "y": -inner, "width": 2 * (half + inner),
                       "height": 2 * inner, "rx": inner, "fill": INFIELD})


def _space(loop: _Loop, space: int) -> str:
    """The space's outline, a chevron the way the cars go, and its number outside the loop."""
    step = loop.length / loop.spaces
    middle = step * (space + 0.5)
    tip, wings = loop.side(middle + 8, 0), [loop.side(middle - 6, offset) for offset in (12, -12)]
    nx, ny = loop.side(middle, TRACK_WIDTH / 2 + OUTSIDE / 2)
    return "\n".join([
        el("polygon", {"class": "space", "data-space": space, "points": points(loop.outline(space)),
                       "fill": SPACE_FILLS[space % 2], "stroke": EDGE, "stroke-width": 1.5}),
        el("polyline", {"class": "arrow", "points": points([wings[0], tip, wings[1]]), "fill": "none",
                        "stroke": "#a5a5a5", "stroke-width": 2}),
        el("text", {"class": "space-number", "x": nx, "y": ny + 6, "font-size": 17, "font-weight": "bold",
                    "text-anchor": "middle", "fill": "#333"}, str(space)),
    ])


def _finish_line(loop: _Loop) -> list[str]:
    """A chequered band across the top straight just behind space 0, and its name outside the loop."""
    side = TRACK_WIDTH / 8
    top = -loop.radius - TRACK_WIDTH / 2
    frame = {"class": "finish-frame", "x": -side, "y": top, "width": 2 * side, "height": TRACK_WIDTH,
             "fill": "#ffffff", "stroke": "#111", "stroke-width": 1}
    squares = [el("rect", {"class": "finish-line", "x": (column - 1) * side, "y": top + row * side, "width": side,
                           "height": side, "fill": "#111"})
               for row in range(8) for column in range(2) if (row + column) % 2 == 0]
    label = {"class": "finish-label", "x": 0, "y": top - OUTSIDE + 12, "font-size": 15, "font-weight": "bold",
             "text-anchor": "middle"}
    return [el("rect", frame), *squares, el("text", label, "FINISH")]


def _lap_counter(loop: _Loop) -> list[str]:
    """The lap counter: a bar from lap 0 to the race's last, a tick a lap (a tick every tenth of the
    race when there are many)."""
    left, right = loop.counter
    every = 1 if loop.laps <= 30 else max(1, loop.laps // 10)
    parts = [
        el("text", {"class": "counter-title", "x": left, "y": COUNTER_Y - 30, "font-size": 16,
                    "font-weight": "bold"}, f"LAP COUNTER (0 to {loop.laps})"),
        el("rect", {"class": "lap-counter", "x": left, "y": COUNTER_Y - 6, "width": right - left, "height": 12,
                    "rx": 6.0, "fill": css(LAPS), "fill-opacity": 0.35, "stroke": css(LAPS)}),
    ]
    for lap in range(0, loop.laps + 1, every):
        x = left + (right - left) * lap / loop.laps
        parts.append(el("line", {"class": "lap-tick", "x1": x, "y1": COUNTER_Y + 8, "x2": x, "y2": COUNTER_Y + 14,
                                 "stroke": "#335", "stroke-width": 1.5}))
    for lap, anchor in ((0, "start"), (loop.laps, "end")):
        x = left + (right - left) * lap / loop.laps
        parts.append(el("text", {"class": "lap-number", "x": x, "y": COUNTER_Y + 30, "font-size": 14,
                                 "text-anchor": anchor, "fill": "#335"}, str(lap)))
    return parts


def _garage(loop: _Loop) -> list[str]:
    """A box for each car, where it waits until the grid is set. The live page draws the board once, so
    the boxes stay through the race: their title says what they are for, not that cars are waiting."""
    parts = [el("text", {"class": "garage-title", "x": 0, "y": GARAGE_Y - CAR - 10, "font-size": 14,
                         "font-weight": "bold", "text-anchor": "middle", "fill": "#555"}, "GARAGE BEFORE THE START")]
    for seat in range(loop.players):
        x, y = loop.garage(seat)
        parts.append(el("rect", {"class": "garage", "data-seat": seat, "x": x - CAR - 4, "y": y - CAR - 4,
                                 "width": 2 * CAR + 8, "height": 2 * CAR + 8, "rx": 4.0, "fill": "#ffffff",
                                 "fill-opacity": 0.6, "stroke": "#999"}))
    return parts
