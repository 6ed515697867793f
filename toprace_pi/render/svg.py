"""The track in its real 2-D shape as a standalone SVG picture.

Each space is drawn from its ``x``, ``y`` (its centre, in space units, y up) and
``heading`` (degrees counter-clockwise from east). The finish and tip lines are
drawn across the spaces beside their positions, at the fraction of the space
where the position falls, so they stay correct on curves where fronts of
neighbouring lanes do not line up.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from xml.sax.saxutils import escape

from toprace_pi.render.palette import is_light, ordinal
from toprace_pi.rules.board import Board
from toprace_pi.rules.cars import Car
from toprace_pi.rules.track import FINISH, Space, Track

TARGET_PX = 1100  # the longer side of the layout, before margins
MIN_SCALE, MAX_SCALE = 20.0, 60.0  # px per unit: readable ids, not absurdly large boxes
SPACE_LENGTH, SPACE_WIDTH = 0.95, 0.9  # units: leaves a thin gap between spaces
MARGIN = 2.5  # units around the spaces: tip labels and waiting cars go there
TITLE_PX, FOOTER_PX = 56, 30
TIP_COLOUR = "#f2c400"

Point = tuple[float, float]


def track_svg(track: Track, board: Board | None = None, *, highlight: Mapping[int, Car] | None = None) -> str:
    """The picture as SVG text; ``highlight`` maps space indexes (or :data:`FINISH`)
    to the car whose possible move ends there."""
    view = _View.fit(track)
    highlight = highlight or {}
    body = [
        _el("rect", {"class": "background", "x": view.left, "y": view.top, "width": view.width,
                     "height": view.height, "fill": "#eef4ea"}),
        *_title(track, view),
        *(_space(track, view, s) for s in track.spaces),
        *_finish_line(track, view),
        *_tip_lines(track, view),
        *_highlights(track, view, highlight),
    ]
    if board is not None:
        body.extend(_cars(track, view, board))
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{_num(view.left)} {_num(view.top)} '
        f'{_num(view.width)} {_num(view.height)}" width="{_num(view.width)}" height="{_num(view.height)}" '
        f'font-family="sans-serif">'
    )
    return "\n".join([head, f"<title>{escape(track.name)}</title>", *body, "</svg>"]) + "\n"


@dataclass(frozen=True, slots=True)
class _View:
    """Pixel scale and visible area; converts track coordinates (y up) to SVG (y down)."""

    scale: float
    left: float
    top: float
    width: float
    height: float

    @classmethod
    def fit(cls, track: Track) -> _View:
        xs = [s.x for s in track.spaces]
        ys = [-s.y for s in track.spaces]
        span = max(max(xs) - min(xs), max(ys) - min(ys)) + 1
        scale = min(MAX_SCALE, max(MIN_SCALE, TARGET_PX / span))
        pad = MARGIN * scale
        left, right = min(xs) * scale - pad, max(xs) * scale + pad
        top, bottom = min(ys) * scale - pad - TITLE_PX, max(ys) * scale + pad + FOOTER_PX
        return cls(scale, left, top, right - left, bottom - top)

    def point(self, x: float, y: float) -> Point:
        return x * self.scale, -y * self.scale


def _el(tag: str, attrs: Mapping[str, object], text: str | None = None) -> str:
    """One element with escaped attributes and text; floats are rounded to keep
    the output small and deterministic."""
    parts = "".join(f' {k}="{_attr(v)}"' for k, v in attrs.items())
    return f"<{tag}{parts}/>" if text is None else f"<{tag}{parts}>{escape(text)}</{tag}>"


def _attr(value: object) -> str:
    return escape(_num(value) if isinstance(value, float) else str(value), {'"': "&quot;"})


def _num(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _rgb(car: Car) -> str:
    return "rgb({},{},{})".format(*car.rgb)


def _ink(car: Car) -> str:
    return "#000" if is_light(car) else "#fff"


def _title(track: Track, view: _View) -> list[str]:
    x, y = view.left + 16, view.top + 28
    title = {"class": "title", "x": x, "y": y, "font-size": 22, "font-weight": "bold"}
    lines = [_el("text", title, track.name)]
    if track.reconstructed:
        note = {"class": "note", "x": x, "y": y + 20, "font-size": 13, "font-style": "italic", "fill": "#555"}
        lines.append(_el("text", note, "reconstructed layout"))
    return lines


def _lane_fill(space: Space, lanes: int) -> str:
    """Lanes get darker from left to right; curve spaces are tinted sand."""
    shade = space.lane / max(1, lanes - 1)
    if space.is_curve:
        return "rgb({},{},{})".format(*(round(c - 40 * shade) for c in (247, 224, 178)))
    grey = round(232 - 40 * shade)
    return f"rgb({grey},{grey},{grey})"


def _space(track: Track, view: _View, space: Space) -> str:
    """The rotated box, its id, and the bold start number if it is a starting space."""
    box = _box(view, space, 1.0)
    cx, cy = view.point(space.x, space.y)
    size = 0.26 * view.scale
    id_y = cy + (0.33 * view.scale if space.start is not None else size / 3)
    parts = [
        _el("rect", {"class": "space", "data-space": space.id, **box, "fill": _lane_fill(space, track.lanes),
                     "stroke": "#777", "stroke-width": 1}),
        _el("text", {"class": "space-id", "x": cx, "y": id_y, "font-size": size, "text-anchor": "middle",
                     "fill": "#333"}, space.id),
    ]
    if space.start is not None:
        start = {"class": "start", "x": cx, "y": cy + 0.04 * view.scale, "font-size": 0.44 * view.scale,
                 "font-weight": "bold", "text-anchor": "middle"}
        parts.append(_el("text", start, str(space.start)))
    return "\n".join(parts)


def _box(view: _View, space: Space, size: float) -> dict[str, object]:
    """Geometry of a rect ``size`` times a space's box, turned to the space's heading
    (negated: SVG's y axis points down)."""
    cx, cy = view.point(space.x, space.y)
    w, h = SPACE_LENGTH * view.scale * size, SPACE_WIDTH * view.scale * size
    turn = f"translate({_num(cx)} {_num(cy)}) rotate({_num(-space.heading)})"
    return {"x": -w / 2, "y": -h / 2, "width": w, "height": h, "transform": turn}


def _across(space: Space, position: float) -> tuple[Point, Point]:
    """The segment across ``space`` (track units) where ``position`` falls between
    its back and front edge."""
    along = (position - space.back) / (space.front - space.back) - 0.5
    rad = math.radians(space.heading)
    fx, fy = math.cos(rad), math.sin(rad)
    cx, cy = space.x + fx * along, space.y + fy * along
    rx, ry = fy / 2, -fx / 2  # half a lane towards the right of travel
    return (cx - rx, cy - ry), (cx + rx, cy + ry)


def _segments(track: Track, view: _View, position: float) -> list[tuple[Point, Point]]:
    """In SVG coordinates, lane 0 first."""
    segments = []
    for index in track.beside(position):
        (ax, ay), (bx, by) = _across(track.spaces[index], position)
        segments.append((view.point(ax, ay), view.point(bx, by)))
    return segments


def _line(a: Point, b: Point, attrs: Mapping[str, object]) -> str:
    return _el("line", {**attrs, "x1": a[0], "y1": a[1], "x2": b[0], "y2": b[1]})


def _label(track: Track, view: _View, position: float, text: str, attrs: Mapping[str, object]) -> list[str]:
    """``text`` on a tag in the middle of the line at ``position``, so it cannot be
    taken for the label of a neighbouring stretch of track."""
    segments = _segments(track, view, position)
    if not segments:
        return []
    (ax, ay), (bx, by) = segments[0][0], segments[-1][1]
    x, y = (ax + bx) / 2, (ay + by) / 2
    size = float(attrs.get("font-size", 13))  # type: ignore[arg-type]
    width, height = 0.62 * size * len(text) + 6, size + 4
    tag = {"class": "label-tag", "x": x - width / 2, "y": y - height / 2, "width": width, "height": height,
           "rx": 3.0, "fill": "#fffbe6", "stroke": attrs.get("fill", "#000"), "stroke-width": 1}
    label = {**attrs, "x": x, "y": y + size * 0.35, "font-weight": "bold", "text-anchor": "middle"}
    return [_el("rect", tag), _el("text", label, text)]


def _finish_line(track: Track, view: _View) -> list[str]:
    """A thick black line with white dashes over it: a checkered flag line."""
    width = 0.2 * view.scale
    dash = _num(width)
    parts = []
    for a, b in _segments(track, view, track.finish_line):
        parts.append(_line(a, b, {"class": "finish-line", "stroke": "#000", "stroke-width": width}))
        parts.append(_line(a, b, {"class": "finish-checks", "stroke": "#fff", "stroke-width": width / 2,
                                  "stroke-dasharray": f"{dash} {dash}"}))
    label = {"class": "finish-label", "font-size": 14}
    return parts + _label(track, view, track.finish_line, "Finish", label)


def _tip_lines(track: Track, view: _View) -> list[str]:
    parts = []
    for n, position in enumerate(track.tip_lines, 1):
        for a, b in _segments(track, view, position):
            parts.append(_line(a, b, {"class": "tip-line", "data-tip": n, "stroke": TIP_COLOUR,
                                      "stroke-width": 0.12 * view.scale, "stroke-dasharray": "6 4"}))
        attrs = {"class": "tip-label", "font-size": 13, "fill": "#a07f00"}
        parts.extend(_label(track, view, position, f"{ordinal(n)} Tip", attrs))
    return parts


def _highlights(track: Track, view: _View, highlight: Mapping[int, Car]) -> list[str]:
    """Possible move ends outlined in the moving car's colour; the finish line too
    when the move may cross it."""
    parts: list[str] = []
    for index, car in sorted(highlight.items()):
        pen = {"class": "highlight", "stroke": _rgb(car), "stroke-width": 0.1 * view.scale}
        if index == FINISH:
            parts.extend(_line(a, b, pen) for a, b in _segments(track, view, track.finish_line))
        else:
            space = track.spaces[index]
            outline = {**pen, "data-space": space.id, "fill": "none", "stroke-dasharray": "5 3"}
            parts.append(_el("rect", {**outline, **_box(view, space, 0.85)}))
    return parts


def _cars(track: Track, view: _View, board: Board) -> list[str]:
    """Cars on spaces; broken-down ones faded, just outside the track beside their
    space; the finishing order as a footer line."""
    parts = [
        _car(view, car, view.point(track.spaces[s].x, track.spaces[s].y), str(car), waiting=False)
        for car, s in sorted(board.at.items())
    ]
    for car, wait in sorted(board.waiting.items()):
        space = track.spaces[wait.space]
        rad = math.radians(space.heading)
        out = track.lanes - space.lane  # lanes to step right to clear the track
        x, y = space.x + math.sin(rad) * out, space.y - math.cos(rad) * out
        note = f"{car} waits beside {space.id} for {wait.chaser}"
        parts.append(_car(view, car, view.point(x, y), note, waiting=True))
    if board.finished:
        places = ", ".join(f"{ordinal(n)} {car}" for n, car in enumerate(board.finished, 1))
        footer = {"class": "finished", "x": view.left + 16, "y": view.top + view.height - 10, "font-size": 15}
        parts.append(_el("text", footer, f"Finished: {places}"))
    return parts


def _car(view: _View, car: Car, at: Point, note: str, *, waiting: bool) -> str:
    """A circle in the car's colour with its letter; ``note`` shows on hover."""
    x, y = at
    kind, opacity = ("car waiting", 0.6) if waiting else ("car", 1.0)
    letter = {"x": x, "y": y + 0.13 * view.scale, "font-size": 0.38 * view.scale, "font-weight": "bold",
              "text-anchor": "middle", "fill": _ink(car)}
    return "\n".join([
        f'<g class="{kind}" data-car="{car.id}" opacity="{_num(opacity)}">',
        f"<title>{escape(note)}</title>",
        _el("circle", {"cx": x, "cy": y, "r": 0.34 * view.scale, "fill": _rgb(car), "stroke": _ink(car),
                       "stroke-width": 2}),
        _el("text", letter, car.letter),
        "</g>",
    ])
