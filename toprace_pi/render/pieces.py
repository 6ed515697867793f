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


def crowd(at: Point, count: int, r: float, room: float) -> tuple[float, list[Point]]:
    """The radius and centres of ``count`` pieces sharing the spot ``at`` so that none covers another:
    one stands at the spot, several on a ring round it, ``GAP`` apart. The radius is ``r`` unless the
    ring would reach further than ``room`` from the spot; then the pieces shrink to fit."""
    if count <= 1:
        return r, [at] * count
    share = math.sin(math.pi / count)  # a ring of radius d puts neighbours 2 d sin(pi / n) apart
    radius = min(r, (room - GAP / (2 * share)) / (1 + 1 / share))
    ring = (radius + GAP / 2) / share
    start = math.pi if count == 2 else -math.pi / 2  # two side by side, more with one at the top
    return radius, [(at[0] + ring * math.cos(start + 2 * math.pi * n / count),
                     at[1] + ring * math.sin(start + 2 * math.pi * n / count)) for n in range(count)]
