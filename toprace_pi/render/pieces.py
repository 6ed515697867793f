"""The pieces on a board: cars and figures, each a coloured disc with a letter, placed by the game's
drawing in the units of its board's picture.

A live page fetches a game's board once and then places the pieces each step from the coordinates the
server sends (:meth:`Piece.to_dict`), so :func:`piece_svg` is the one drawing of a piece in SVG and is
kept simple enough for the page's script to draw the same: a circle in the piece's colour ringed in its
ink, the label centred on it in bold.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from xml.sax.saxutils import escape

from toprace_pi.core.colour import RGB
from toprace_pi.render.svg import el, hex_colour, ink, num

Point = tuple[float, float]

#: The ring's width and the label's size, as shares of the radius; the label's baseline below the centre.
STROKE, FONT, BASELINE = 0.15, 1.1, 0.38
#: A faded piece (waiting, out of the race, lapped) is drawn at this opacity.
FADED_OPACITY = 0.55
#: Room between two pieces that share a space, in the picture's units.
GAP = 2.0


@dataclass(frozen=True, slots=True)
class Piece:
    """One car or figure where it stands, in the units of its board's picture."""

    x: float
    y: float
    r: float
    colour: str  # "#rrggbb"
    label: str  # one or two characters drawn on it
    title: str  # a tooltip in words, e.g. "Anna's red car, 2nd"
    ink: str  # the label's colour, readable on colour
    faded: bool = False

    @classmethod
    def of(cls, at: Point, r: float, rgb: RGB, label: str, title: str, faded: bool = False) -> Piece:
        """A piece in the colour ``rgb``, its label in the ink that reads on it."""
        return cls(at[0], at[1], r, hex_colour(rgb), label, title, ink(rgb), faded)

    def to_dict(self) -> dict[str, object]:
        """Plain JSON values for a page's script, the numbers rounded as the SVG rounds them."""
        return {"x": round(self.x, 2), "y": round(self.y, 2), "r": round(self.r, 2), "colour": self.colour,
                "label": self.label, "title": self.title, "ink": self.ink, "faded": self.faded}


def piece_svg(piece: Piece) -> str:
    """The piece as an SVG group: its title (shown on hover), the disc and the label."""
    x, y, r = piece.x, piece.y, piece.r
    faded = f' opacity="{num(FADED_OPACITY)}"' if piece.faded else ""
    label = {"x": x, "y": y + BASELINE * r, "font-size": FONT * r, "font-weight": "bold", "text-anchor": "middle",
             "fill": piece.ink}
    return "\n".join([
        f'<g class="piece{" faded" if piece.faded else ""}"{faded}>',
        f"<title>{escape(piece.title)}</title>",
        el("circle", {"cx": x, "cy": y, "r": r, "fill": piece.colour, "stroke": piece.ink,
                      "stroke-width": STROKE * r}),
        el("text", label, piece.label),
        "</g>",
    ])


def crowd(at: Point, count: int, r: float, room: Point) -> tuple[float, list[Point]]:
    """The radius and centres of ``count`` pieces sharing the spot ``at`` so that none covers another:
    in rows, ``GAP`` apart, each row centred, within ``room`` (how far they may reach from the spot
    across and up or down). The radius is ``r`` unless they need less to fit; of the ways to lay them
    out, the one that lets them stay largest."""
    if count <= 1:
        return r, [at] * count
    radius, columns = max((_fitting(count, columns, r, room), columns) for columns in range(count, 0, -1))
    rows = math.ceil(count / columns)
    step = 2 * radius + GAP
    spots = []
    for n in range(count):
        row, column = divmod(n, columns)
        across = min(columns, count - row * columns)  # the last row may hold fewer
        spots.append((at[0] + (column - (across - 1) / 2) * step, at[1] + (row - (rows - 1) / 2) * step))
    return radius, spots


def _fitting(count: int, columns: int, r: float, room: Point) -> float:
    """The largest radius, up to ``r``, at which ``count`` pieces in rows of ``columns`` fit in ``room``."""
    rows = math.ceil(count / columns)
    return min(r, (2 * room[0] - (columns - 1) * GAP) / (2 * columns), (2 * room[1] - (rows - 1) * GAP) / (2 * rows))
