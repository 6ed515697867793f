"""The track in its real 2-D shape as a standalone SVG picture.

Each space is drawn as its outline (:mod:`.shapes`): a box on straights, an
annular sector on curves. The finish and tip lines are drawn across the spaces
beside their positions, at the fraction of the space where the position falls,
so they stay correct on curves where fronts of neighbouring lanes do not line
up; their labels stand outside the track. Chevrons show the direction of travel,
the six placement spaces stand above the track, and ``lights`` draws what the
LED strip shows under each space.

The cars are :class:`~toprace_pi.render.pieces.Piece` s (:func:`pieces`), drawn by the shared
:func:`~toprace_pi.render.pieces.piece_svg`: on their spaces, a broken-down car faded beside the
track, a finished car in its placement space. :func:`board_svg` is the track without them (what a
live page fetches once), :func:`picture` the track with them and a caption. Every space's outline
carries ``data-space``, its index, and ``data-id``, its id.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from toprace_pi.games.toprace.render.palette import OFF, RGB, WHITE, ordinal
from toprace_pi.games.toprace.render.shapes import Outline, Point, outlines
from toprace_pi.games.toprace.rules.board import Board
from toprace_pi.games.toprace.rules.cars import Car
from toprace_pi.games.toprace.rules.game import TopRace
from toprace_pi.games.toprace.rules.track import FINISH, Space, Track
from toprace_pi.render.pieces import Piece, crowd, piece_svg
from toprace_pi.render.svg import CAPTION_LINE, caption_lines, css, document, el, num

TARGET_PX = 1100  # the longer side of the layout, before margins
MIN_SCALE, MAX_SCALE = 20.0, 60.0  # px per unit: readable ids, not absurdly large boxes
MARGIN = 2.5  # units around the spaces: tip labels and waiting cars go there
HEADER_PX = 96
PLACES = 6
PLACE_PX = 46  # the side of a placement space
TIP_COLOUR = "#f2c400"
GLOW_FILTER = "glow"
BACKGROUND = "#eef4ea"
#: A car's radius on the track, in units.
CAR_RADIUS = 0.34


def board_svg(game: TopRace) -> str:
    """The game's track without its cars: the static board a live page fetches once."""
    return track_svg(game.track)


def pieces(game: TopRace) -> list[Piece]:
    """Where every car stands now, in the units of :func:`board_svg`'s picture (see :func:`track_pieces`)."""
    return track_pieces(game.track, game.board)


def picture(game: TopRace, caption: Sequence[str] = ()) -> str:
    """The track with the game's cars on it and ``caption`` under it."""
    return track_svg(game.track, game.board, caption=caption)


def track_svg(
    track: Track,
    board: Board | None = None,
    *,
    highlight: Mapping[int, Car] | None = None,
    lights: Mapping[int, RGB] | None = None,
    caption: Sequence[str] = (),
) -> str:
    """The picture as SVG text. ``highlight`` maps space indexes (or :data:`FINISH`)
    to the car whose possible move ends there; ``lights`` maps space indexes to the
    colour of the LED under them; ``caption`` is printed under the track, its
    first line in bold."""
    view = _View.fit(track, len(caption))
    shapes = outlines(track)
    body = [
        *_title(track, view),
        *(_space(track, view, s, shapes[s.index]) for s in track.spaces),
        *(_arrow(view, shape) for shape in shapes),
        *_lights(track, view, shapes, board, lights or {}),
        *_finish_line(track, view, shapes),
        *_tip_lines(track, view, shapes),
        *_highlights(track, view, shapes, highlight or {}),
        *_places(view),
        *caption_lines(view.left + 16, view.top + view.height - 12, caption),
    ]
    if board is not None:
        body.extend(piece_svg(piece) for piece in track_pieces(track, board))
    glow = (f'<defs><filter id="{GLOW_FILTER}" x="-50%" y="-50%" width="200%" height="200%">'
            f'<feGaussianBlur stdDeviation="{num(0.12 * view.scale)}"/></filter></defs>')
    return document((view.left, view.top, view.width, view.height), track.name, body, defs=glow,
                    background=BACKGROUND)


@dataclass(frozen=True, slots=True)
class _View:
    """Pixel scale and visible area; converts track coordinates (y up) to SVG (y down). Only the
    height depends on the caption, so the cars of a picture stand where they do on the bare board."""

    scale: float
    left: float
    top: float
    width: float
    height: float

    @classmethod
    def fit(cls, track: Track, caption_lines: int) -> _View:
        xs = [s.x for s in track.spaces]
        ys = [-s.y for s in track.spaces]
        span = max(max(xs) - min(xs), max(ys) - min(ys)) + 1
        scale = min(MAX_SCALE, max(MIN_SCALE, TARGET_PX / span))
        pad = MARGIN * scale
        left, right = min(xs) * scale - pad, max(xs) * scale + pad
        footer = CAPTION_LINE * caption_lines + 12
        top, bottom = min(ys) * scale - pad - HEADER_PX, max(ys) * scale + pad + footer
        return cls(scale, left, top, right - left, bottom - top)

    def point(self, x: float, y: float) -> Point:
        return x * self.scale, -y * self.scale

    def points(self, polygon: Sequence[Point]) -> str:
        """SVG ``points`` text of a polygon in track units."""
        return " ".join(f"{num(px)},{num(py)}" for px, py in (self.point(x, y) for x, y in polygon))


def _title(track: Track, view: _View) -> list[str]:
    x, y = view.left + 16, view.top + 28
    title = {"class": "title", "x": x, "y": y, "font-size": 22, "font-weight": "bold"}
    lines = [el("text", title, track.name)]
    if track.reconstructed:
        note = {"class": "note", "x": x, "y": y + 20, "font-size": 13, "font-style": "italic", "fill": "#555"}
        lines.append(el("text", note, "reconstructed layout"))
    return lines


def _lane_fill(space: Space, lanes: int) -> str:
    """Lanes get darker from left to right; curve spaces are tinted sand."""
    shade = space.lane / max(1, lanes - 1)
    if space.is_curve:
        return "rgb({},{},{})".format(*(round(c - 40 * shade) for c in (247, 224, 178)))
    grey = round(232 - 40 * shade)
    return f"rgb({grey},{grey},{grey})"


def _space(track: Track, view: _View, space: Space, shape: Outline) -> str:
    """The outline, its id, and the bold start number if it is a starting space."""
    cx, cy = view.point(space.x, space.y)
    size = 0.26 * view.scale
    id_y = cy + (0.33 * view.scale if space.start is not None else size / 3)
    parts = [
        el("polygon", {"class": "space", "data-space": space.index, "data-id": space.id,
                       "points": view.points(shape.polygon()), "fill": _lane_fill(space, track.lanes),
                       "stroke": "#777", "stroke-width": 1}),
        el("text", {"class": "space-id", "x": cx, "y": id_y, "font-size": size, "text-anchor": "middle",
                    "fill": "#333"}, space.id),
    ]
    if space.start is not None:
        start = {"class": "start", "x": cx, "y": cy + 0.04 * view.scale, "font-size": 0.44 * view.scale,
                 "font-weight": "bold", "text-anchor": "middle"}
        parts.append(el("text", start, str(space.start)))
    return "\n".join(parts)


def _arrow(view: _View, shape: Outline) -> str:
    """A small chevron near the space's front edge pointing the way the cars drive."""
    tip, (left, right) = _middle(shape.across(0.95)), shape.across(0.8)
    back = _middle((left, right))
    share = 0.1 / (math.dist(left, right) / 2)  # the wings reach 0.1 units to each side
    wings = [(back[0] + (end[0] - back[0]) * share, back[1] + (end[1] - back[1]) * share) for end in (left, right)]
    return el("polyline", {"class": "arrow", "points": view.points([wings[0], tip, wings[1]]), "fill": "none",
                           "stroke": "#8a8a8a", "stroke-width": 1.5})


def _middle(segment: tuple[Point, Point]) -> Point:
    (ax, ay), (bx, by) = segment
    return (ax + bx) / 2, (ay + by) / 2


def _segments(track: Track, view: _View, shapes: Sequence[Outline], position: float) -> list[tuple[Point, Point]]:
    """In SVG coordinates, lane 0 first: the line across each space beside ``position``."""
    segments = []
    for index in track.beside(position):
        space = track.spaces[index]
        (ax, ay), (bx, by) = shapes[index].across((position - space.back) / (space.front - space.back))
        segments.append((view.point(ax, ay), view.point(bx, by)))
    return segments


def _line(a: Point, b: Point, attrs: Mapping[str, object]) -> str:
    return el("line", {**attrs, "x1": a[0], "y1": a[1], "x2": b[0], "y2": b[1]})


def _label(track: Track, view: _View, segments: Sequence[tuple[Point, Point]], text: str,
           attrs: Mapping[str, object]) -> list[str]:
    """``text`` on a tag just beyond one end of a line, outside the track (the end
    further from every space), so it hides no space id or start number."""
    if not segments:
        return []
    size = float(attrs.get("font-size", 13))  # type: ignore[arg-type]
    width, height = 0.62 * size * len(text) + 6, size + 4
    x, y = _outside(track, view, segments[0][0], segments[-1][1], width, height)
    tag = {"class": "label-tag", "x": x - width / 2, "y": y - height / 2, "width": width, "height": height,
           "rx": 3.0, "fill": "#fffbe6", "stroke": attrs.get("fill", "#000"), "stroke-width": 1}
    label = {**attrs, "x": x, "y": y + size * 0.35, "font-weight": "bold", "text-anchor": "middle"}
    return [el("rect", tag), el("text", label, text)]


def _outside(track: Track, view: _View, a: Point, b: Point, width: float, height: float) -> Point:
    """The centre for a ``width`` x ``height`` tag beyond end ``a`` or ``b`` of the
    line from ``a`` to ``b``: whichever lies further from the nearest space."""
    length = math.dist(a, b) or 1.0
    dx, dy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    reach = 6 + abs(dx) * width / 2 + abs(dy) * height / 2
    ends = [(a[0] - dx * reach, a[1] - dy * reach), (b[0] + dx * reach, b[1] + dy * reach)]
    centres = [view.point(s.x, s.y) for s in track.spaces]
    return max(ends, key=lambda end: min(math.dist(end, c) for c in centres))


def _finish_line(track: Track, view: _View, shapes: Sequence[Outline]) -> list[str]:
    """A thick black line with white dashes over it: a checkered flag line."""
    width = 0.2 * view.scale
    dash = num(width)
    segments = _segments(track, view, shapes, track.finish_line)
    parts = []
    for a, b in segments:
        parts.append(_line(a, b, {"class": "finish-line", "stroke": "#000", "stroke-width": width}))
        parts.append(_line(a, b, {"class": "finish-checks", "stroke": "#fff", "stroke-width": width / 2,
                                  "stroke-dasharray": f"{dash} {dash}"}))
    label = {"class": "finish-label", "font-size": 14}
    return parts + _label(track, view, segments, "Finish", label)


def _tip_lines(track: Track, view: _View, shapes: Sequence[Outline]) -> list[str]:
    parts = []
    for n, position in enumerate(track.tip_lines, 1):
        segments = _segments(track, view, shapes, position)
        for a, b in segments:
            parts.append(_line(a, b, {"class": "tip-line", "data-tip": n, "stroke": TIP_COLOUR,
                                      "stroke-width": 0.12 * view.scale, "stroke-dasharray": "6 4"}))
        attrs = {"class": "tip-label", "font-size": 13, "fill": "#a07f00"}
        parts.extend(_label(track, view, segments, f"{ordinal(n)} Tip", attrs))
    return parts


def _highlights(track: Track, view: _View, shapes: Sequence[Outline], highlight: Mapping[int, Car]) -> list[str]:
    """Possible move ends outlined in the moving car's colour; the finish line too
    when the move may cross it."""
    parts: list[str] = []
    for index, car in sorted(highlight.items()):
        pen = {"class": "highlight", "stroke": css(car.rgb), "stroke-width": 0.1 * view.scale}
        if index == FINISH:
            parts.extend(_line(a, b, pen) for a, b in _segments(track, view, shapes, track.finish_line))
        else:
            outline = {**pen, "data-space": index, "fill": "none", "stroke-dasharray": "5 3"}
            parts.append(el("polygon", {**outline, "points": view.points(shapes[index].polygon())}))
    return parts


def light_kind(index: int, rgb: RGB, board: Board | None) -> str:
    """What an LED shows: ``"car"`` (the colour of the car standing there), ``"cursor"``
    (a full colour where that car does not stand: the blinking pick), or ``"glow"``
    (a dimmed colour: a legal end, a waiting car's space)."""
    if board is None:
        return "glow"
    car = next((c for c, s in board.at.items() if s == index), None)
    if car is not None and car.rgb == rgb:
        return "car"
    return "cursor" if rgb == WHITE or rgb in {c.rgb for c in board.cars} else "glow"


def _lights(track: Track, view: _View, shapes: Sequence[Outline], board: Board | None,
            lights: Mapping[int, RGB]) -> list[str]:
    """Each lit space glows in its LED's colour (a dimmed one brightened, as a lit
    LED looks); the cursor is filled with its colour and outlined in black and
    white; a car's own LED rings it."""
    parts = []
    for index, rgb in sorted(lights.items()):
        if rgb == OFF:
            continue
        kind = light_kind(index, rgb, board)
        space = track.spaces[index]
        base = {"class": f"light {kind}", "data-space": index, "data-rgb": css(rgb)}
        if kind == "car":
            x, y = view.point(space.x, space.y)
            ring = {"cx": x, "cy": y, "r": 0.42 * view.scale, "fill": "none",
                    "stroke": css(rgb), "stroke-width": 0.1 * view.scale, "filter": f"url(#{GLOW_FILTER})"}
            parts.append(el("circle", {**base, **ring}))
            continue
        points = view.points(shapes[index].polygon())
        shown = _bright(rgb)
        halo = {"points": points, "fill": "none", "stroke": shown, "stroke-width": 0.18 * view.scale,
                "filter": f"url(#{GLOW_FILTER})"}
        parts.append(el("polygon", {**base, **halo}))
        if kind == "cursor":
            parts.append(el("polygon", {"class": "cursor-rim", "points": points, "fill": "none", "stroke": "#000",
                                        "stroke-width": 0.16 * view.scale}))
        fill = {"points": points, "fill": css(rgb) if kind == "cursor" else shown,
                "fill-opacity": 0.85 if kind == "cursor" else 0.45,
                "stroke": "#fff" if kind == "cursor" else shown, "stroke-width": 0.06 * view.scale}
        parts.append(el("polygon", {"class": f"light-fill {kind}", **fill}))
    return parts


def _bright(rgb: RGB) -> str:
    """A dimmed LED colour at full brightness, the hue the eye sees."""
    top = max(rgb)
    return css(tuple(round(c * 255 / top) for c in rgb))  # type: ignore[arg-type]


def _places(view: _View) -> list[str]:
    """The six placement spaces at the top right, where finished cars stand."""
    first, top = _place_box(view, 1)
    parts = [el("text", {"class": "places-title", "x": first - 10, "y": top + PLACE_PX / 2 + 5,
                         "font-size": 14, "font-weight": "bold", "text-anchor": "end"}, "Places")]
    for n in range(1, PLACES + 1):
        x, _ = _place_box(view, n)
        parts.append(el("rect", {"class": "place", "data-place": n, "x": x, "y": top, "width": PLACE_PX,
                                 "height": PLACE_PX, "rx": 4.0, "fill": "#fff", "stroke": "#777"}))
        parts.append(el("text", {"class": "place-label", "x": x + PLACE_PX / 2, "y": top + PLACE_PX + 14,
                                 "font-size": 12, "text-anchor": "middle"}, ordinal(n)))
    return parts


def _place_box(view: _View, n: int) -> Point:
    """The top left corner of placement space ``n`` (1 to :data:`PLACES`)."""
    right = view.left + view.width - 16
    return right - (PLACES - n + 1) * (PLACE_PX + 8), view.top + 24


def track_pieces(track: Track, board: Board) -> list[Piece]:
    """Cars on their spaces, broken-down ones beside the track, finished ones in their placement spaces."""
    view = _View.fit(track, 0)
    radius = CAR_RADIUS * view.scale
    found = [_car(car, view.point(track.spaces[s].x, track.spaces[s].y), radius,
                  f"{car} car on {track.spaces[s].id}") for car, s in sorted(board.at.items())]
    found += _waiting(track, view, board, radius)
    for n, car in enumerate(board.finished[:PLACES], 1):
        x, y = _place_box(view, n)
        found.append(_car(car, (x + PLACE_PX / 2, y + PLACE_PX / 2), PLACE_PX / 2.6, f"{car} finished {ordinal(n)}"))
    return found


def _waiting(track: Track, view: _View, board: Board, radius: float) -> list[Piece]:
    """Broken-down cars, faded, just outside the track beside their space: side by side where two wait
    beside one row (both step out to the same spot)."""
    beside: dict[tuple[int, int], list[tuple[Point, Car, str]]] = {}
    for car, wait in sorted(board.waiting.items()):
        space = track.spaces[wait.space]
        rad = math.radians(space.heading)
        out = track.lanes - space.lane  # lanes to step right to clear the track
        x, y = view.point(space.x + math.sin(rad) * out, space.y - math.cos(rad) * out)
        beside.setdefault((round(x), round(y)), []).append(((x, y), car, f"{car} waits beside {space.id} for "
                                                                          f"{wait.chaser}"))
    found = []
    for group in beside.values():
        size, spots = crowd(group[0][0], len(group), radius, (2 * radius, radius))
        found += [_car(car, spot, size, note, faded=True) for (_, car, note), spot in zip(group, spots, strict=True)]
    return found


def _car(car: Car, at: Point, radius: float, note: str, faded: bool = False) -> Piece:
    """A disc in the car's colour with its letter; ``note`` shows on hover."""
    return Piece.of(at, radius, car.rgb, car.letter, note, faded)
