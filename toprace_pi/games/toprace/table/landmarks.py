"""A space of the track in the words players use at the board, so a phone can say where a move ends
without a space id: its lane counted from the inside of the curve, and the car it lies beside or
where it lies along the lane ("the 3rd space of the curve", "the last space before the curve").
"""

from __future__ import annotations

from toprace_pi.games.toprace.rules.board import Board
from toprace_pi.games.toprace.rules.cars import Car
from toprace_pi.games.toprace.rules.track import FINISH, LEFT, Space, Track
from toprace_pi.text import ordinal

#: The lanes' names from the inside of the curve out, by how many lanes a track has.
LANES = {2: ("inside", "outside"), 3: ("inside", "middle", "outside")}


def where(track: Track, board: Board, index: int, *, moving: Car) -> str:
    """Where space ``index`` (or :data:`FINISH`) lies, for a move of ``moving`` there: the other cars
    level with it are the landmark players look for first."""
    if index == FINISH:
        return "across the finish line"
    space = track.spaces[index]
    level = [str(car) for car, at in sorted(board.at.items()) if car != moving and track.is_level(index, at)]
    return f"{lane(track, space)}, " + (f"beside {' and '.join(level)}" if level else along(track, space))


def lane(track: Track, space: Space) -> str:
    """``"inside lane"``, ``"middle lane"``, ...: counted from the inside of the curve the space lies in
    (on a straight, of the next curve), as drivers name lanes."""
    from_inside = space.lane if space.turn == LEFT else track.lanes - 1 - space.lane
    names = LANES.get(track.lanes)
    return f"{names[from_inside]} lane" if names else f"{ordinal(from_inside + 1)} lane from the inside"


def along(track: Track, space: Space) -> str:
    """Where ``space`` lies along its lane: its place in a curve; on a straight, counted from the nearer
    end of the straight (a curve, the start or the finish line)."""
    row = sorted((s for s in track.spaces if s.lane == space.lane), key=lambda s: s.front)
    at = row.index(space)
    behind = _run(row[at::-1], curve=space.is_curve)
    if space.is_curve:
        return f"the {ordinal(behind)} space of the curve"
    ahead = _run(row[at:], curve=False)
    if ahead < behind:
        end = "the finish line" if at + ahead == len(row) else "the curve"
        return f"the last space before {end}" if ahead == 1 else f"the {ordinal(ahead)} space before {end}"
    return f"the {ordinal(behind)} space " + ("from the start" if behind == at + 1 else "after the curve")


def _run(spaces: list[Space], *, curve: bool) -> int:
    """How many of ``spaces``, from the first on, lie in a curve (``curve``) or on a straight, in a row."""
    count = 0
    for space in spaces:
        if space.is_curve != curve:
            break
        count += 1
    return count
