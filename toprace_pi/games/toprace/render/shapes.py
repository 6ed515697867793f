"""The outline of every space in track units (y up), so pictures draw curve
spaces as the annular sectors they are instead of boxes that overlap their
neighbours.

A straight space is a box round its centre, turned to its heading. The curve
spaces of one curve share a centre: it is fitted as the point closest to every
space's normal line, and the angle round it is fitted as a straight function of
the position along the track, so the edges at one position line up across lanes
and each space runs from its back edge to its front edge.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from toprace_pi.games.toprace.rules.track import LEFT, Space, Track

#: Units: a space's outline leaves this thin gap to its neighbours.
SPACE_LENGTH, SPACE_WIDTH = 0.95, 0.9
#: The largest angle one straight piece of a drawn arc spans.
ARC_STEP = math.radians(5)

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Outline:
    """A space's two sides (left and right of travel), each from back to front,
    sampled at the same fractions of the space's length."""

    left: tuple[Point, ...]
    right: tuple[Point, ...]

    def polygon(self) -> list[Point]:
        return [*self.left, *reversed(self.right)]

    def pieces(self) -> list[list[Point]]:
        """Convex quadrilaterals that together make the outline (a curve space's
        sector is not convex), for overlap checks."""
        return [[self.left[i], self.left[i + 1], self.right[i + 1], self.right[i]]
                for i in range(len(self.left) - 1)]

    def across(self, share: float) -> tuple[Point, Point]:
        """The left and right side at ``share`` (0 back, 1 front) of the space's length."""
        return _along(self.left, share), _along(self.right, share)


@dataclass(frozen=True, slots=True)
class _Curve:
    """A fitted curve: its centre and the angle round it at position ``p``."""

    cx: float
    cy: float
    angle0: float
    rate: float  # radians per unit of position

    def angle(self, position: float) -> float:
        return self.angle0 + self.rate * position


def outlines(track: Track) -> list[Outline]:
    """Every space's outline, by space index."""
    shapes = [_box(s) for s in track.spaces]
    for group in _curve_groups(track.spaces):
        curve = _fit(group)
        if curve is not None:
            for space in group:
                shapes[space.index] = _sector(space, curve)
    return shapes


def _box(space: Space) -> Outline:
    fx, fy = _unit(space.heading)
    lx, ly = -fy, fx
    half_l, half_w = SPACE_LENGTH / 2, SPACE_WIDTH / 2

    def side(w: float) -> tuple[Point, ...]:
        return tuple((space.x + fx * a + lx * w, space.y + fy * a + ly * w) for a in (-half_l, half_l))

    return Outline(side(half_w), side(-half_w))


def _sector(space: Space, curve: _Curve) -> Outline:
    radius = math.hypot(space.x - curve.cx, space.y - curve.cy)
    inset = (1 - SPACE_LENGTH) / 2 / radius * math.copysign(1, curve.rate)
    start, end = curve.angle(space.back) + inset, curve.angle(space.front) - inset
    count = max(1, math.ceil(abs(end - start) / ARC_STEP))
    angles = [start + (end - start) * k / count for k in range(count + 1)]

    def side(r: float) -> tuple[Point, ...]:
        return tuple((curve.cx + r * math.cos(a), curve.cy + r * math.sin(a)) for a in angles)

    inner, outer = side(radius - SPACE_WIDTH / 2), side(radius + SPACE_WIDTH / 2)
    return Outline(inner, outer) if space.curve == LEFT else Outline(outer, inner)


def _curve_groups(spaces: Sequence[Space]) -> list[list[Space]]:
    """Curve spaces that lie beside one another in the same direction: one curve."""
    groups: list[list[Space]] = []
    end = -math.inf
    for space in sorted((s for s in spaces if s.is_curve), key=lambda s: (s.back, s.lane)):
        if groups and space.back < end and space.curve == groups[-1][0].curve:
            groups[-1].append(space)
            end = max(end, space.front)
        else:
            groups.append([space])
            end = space.front
    return groups


def _fit(group: Sequence[Space]) -> _Curve | None:
    """The centre nearest to every space's normal line, and the angle as a straight
    function of position; ``None`` where the spaces cannot tell (all parallel)."""
    sxx = sxy = syy = bx = by = 0.0
    for s in group:
        fx, fy = _unit(s.heading)
        dot = fx * s.x + fy * s.y
        sxx, sxy, syy, bx, by = sxx + fx * fx, sxy + fx * fy, syy + fy * fy, bx + fx * dot, by + fy * dot
    det = sxx * syy - sxy * sxy
    mids = [(s.back + s.front) / 2 for s in group]
    if abs(det) < 1e-9 or max(mids) - min(mids) < 1e-9:
        return None
    cx, cy = (syy * bx - sxy * by) / det, (sxx * by - sxy * bx) / det
    angles = _unwrapped([math.atan2(s.y - cy, s.x - cx) for s in group], mids)
    rate, angle0 = _line_fit(mids, angles)
    return _Curve(cx, cy, angle0, rate)


def _unwrapped(angles: list[float], order: list[float]) -> list[float]:
    """``angles`` shifted by whole turns so that, taken in ``order``, none jumps by more than half a turn."""
    ranked = sorted(range(len(angles)), key=order.__getitem__)
    result = list(angles)
    for before, here in zip(ranked, ranked[1:]):
        turns = round((result[here] - result[before]) / math.tau)
        result[here] -= turns * math.tau
    return result


def _line_fit(xs: list[float], ys: list[float]) -> tuple[float, float]:
    """Least-squares slope and intercept."""
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return slope, my - slope * mx


def _unit(heading: float) -> Point:
    rad = math.radians(heading)
    return math.cos(rad), math.sin(rad)


def _along(side: tuple[Point, ...], share: float) -> Point:
    """The point at ``share`` of a side's samples (evenly spaced along it)."""
    at = min(max(share, 0.0), 1.0) * (len(side) - 1)
    i = min(int(at), len(side) - 2)
    t = at - i
    (ax, ay), (bx, by) = side[i], side[i + 1]
    return ax + (bx - ax) * t, ay + (by - ay) * t
