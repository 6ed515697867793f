"""Small hand-made tracks for tests, built as the same dicts a TOML file gives."""

from __future__ import annotations

from typing import Any

from toprace_pi.games.toprace.rules.track import Track

LETTERS = "abcdef"


def straight_dict(rows: int, lanes: int = 3, *, turn: str = "right") -> dict[str, Any]:
    """A straight track of ``rows`` rows; space ids are lane letter + row ("b5").
    Rows 1-2 hold the starting spaces (row 2: 1-3, row 1: 4-6); the last row
    steps to the finish. A one-space curve after the finish sets the inside lane."""
    spaces = []
    for row in range(1, rows + 1):
        for lane in range(lanes):
            nxt = ["finish"] if row == rows else [
                f"{LETTERS[to]}{row + 1}" for to in (lane - 1, lane, lane + 1) if 0 <= to < lanes
            ]
            space: dict[str, Any] = dict(
                id=f"{LETTERS[lane]}{row}", lane=lane, front=float(row), next=nxt,
                x=float(row), y=float(-lane), heading=0.0,
            )
            if row == rows and lane == 0:
                space["curve"] = turn  # tells straights which way the next curve turns
            if row in (1, 2) and lane < 3:
                space["start"] = lane + 1 + (3 if row == 1 else 0)
            spaces.append(space)
    if lanes < 3:  # a 1- or 2-lane test track still needs six starting spaces
        for n, space in enumerate((s for s in spaces if float(s["front"]) <= 6), 1):
            space["start"] = n if n <= 6 else None
            if space["start"] is None:
                del space["start"]
    return {"track": {"name": "Test Straight", "lanes": lanes, "finish_line": float(rows),
                      "tip_lines": [rows / 4, rows / 2, rows * 3 / 4], "spaces": spaces}}


def straight(rows: int, lanes: int = 3, **kw: Any) -> Track:
    return Track.from_dict(straight_dict(rows, lanes, **kw), "test straight")
