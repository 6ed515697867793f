"""Reading a game's board picture back in a test: the SVG parsed, its spaces by index, the pieces
drawn, whether a point lies on a space; and whole random games to look at step by step."""

from __future__ import annotations

import importlib
import itertools
import random
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import Any

from support.games import new_game

from toprace_pi.render.pieces import Piece

SVG = "{http://www.w3.org/2000/svg}"
Point = tuple[float, float]


def drawing(name: str) -> ModuleType:
    """A game's board pictures: ``toprace_pi.games.NAME.render.svg``."""
    return importlib.import_module(f"toprace_pi.games.{name}.render.svg")


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def view_box(root: ET.Element) -> tuple[float, float, float, float]:
    left, top, width, height = (float(n) for n in root.get("viewBox", "").split())
    return left, top, width, height


def spaces(root: ET.Element) -> dict[int, ET.Element]:
    """Each space's element by its index, after checking that no index is carried twice."""
    found = [e for e in root.iter() if e.get("data-space") is not None]
    indexes = [int(e.get("data-space", "")) for e in found]
    assert len(indexes) == len(set(indexes)), "a space index is carried by two elements"
    return dict(zip(indexes, found, strict=True))


def drawn_pieces(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if "piece" in (g.get("class") or "").split()]


def outline(element: ET.Element) -> list[Point]:
    """A space's corners: a polygon's points or a rect's four corners."""
    if element.tag == f"{SVG}rect":
        x, y, w, h = (float(element.get(k, "0")) for k in ("x", "y", "width", "height"))
        return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    return [(float(x), float(y)) for x, y in (p.split(",") for p in element.get("points", "").split())]


def inside(point: Point, polygon: Sequence[Point]) -> bool:
    """Whether ``point`` lies inside ``polygon`` (ray casting; a simple polygon)."""
    x, y = point
    crossings = 0
    for (ax, ay), (bx, by) in zip(polygon, [*polygon[1:], polygon[0]], strict=True):
        if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            crossings += 1
    return crossings % 2 == 1


def in_view(piece: Piece, box: tuple[float, float, float, float]) -> bool:
    """Whether the whole disc lies inside the picture."""
    left, top, width, height = box
    return left <= piece.x - piece.r and piece.x + piece.r <= left + width and \
        top <= piece.y - piece.r and piece.y + piece.r <= top + height


def overlapping(found: Sequence[Piece]) -> list[tuple[str, str]]:
    """The titles of pieces whose discs overlap."""
    return [(a.title, b.title) for a, b in itertools.combinations(found, 2)
            if (a.x - b.x) ** 2 + (a.y - b.y) ** 2 < (a.r + b.r) ** 2 - 1e-6]


def random_game(name: str, variant: str, seed: int, *, prefer: Sequence[str] = ()) -> Iterator[Any]:
    """The game before its first step and after each, played at random to its end (``prefer``: the
    kinds of action taken, where legal, two times in three: a race that moves on)."""
    game, rng = new_game(name, variant), random.Random(seed)
    yield game
    while not game.is_over:
        if game.decision.chance:
            game.apply(game.chance_outcomes().sample(rng))
        else:
            legal = game.legal_actions()
            liked = [a for a in legal if type(a).__name__ in prefer]
            game.apply(rng.choice(liked if liked and rng.random() < 2 / 3 else legal))
        yield game
