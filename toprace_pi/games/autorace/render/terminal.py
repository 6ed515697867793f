"""AUTORACE's track in the terminal: the spaces 0 to 72 as one row of characters, or wrapped
into even bands on a narrow terminal, with the figures standing on their spaces, and a
scoreboard.

One character a space, so counting characters counts spaces: ``.`` a plain space, ``o`` a
filling station (a circled number), ``*`` an objective (a starred number) with the bonus
still to win there printed below it (``-`` once it is paid). The figures stand above the
track in their space's column, each by its suit's letter in its colour, one above another
where several share a space; a figure out of the race by its letter in lower case.

Everything drawn comes from the game as a spectator sees it (:meth:`Autorace.view` of
``None``): no seat's sealed card can reach the screen.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from toprace_pi.games.autorace.render.palette import OBJECTIVE, STATION, seat_suits, suit_letters
from toprace_pi.games.autorace.rules import Board
from toprace_pi.games.autorace.rules.events import dollars
from toprace_pi.render.ansi import ColourMode, mode_of, paint

__all__ = ["DEFAULT_WIDTH", "MIN_WIDTH", "ColourMode", "render_board", "scoreboard"]

DEFAULT_WIDTH = 80
#: The column of row names left of the track.
PREFIX = 6
#: Room right of a band for a bonus of two digits that starts in its last column (72's 12): so the
#: whole track fits one row of an 80-column terminal.
SPILL = 1
MIN_BAND = 12
MIN_WIDTH = PREFIX + MIN_BAND + SPILL
RULER_STEP = 10
PLAIN, STATION_MARK, OBJECTIVE_MARK, PAID = ".", "o", "*", "-"
LEGEND = ("Key: one character a space; o filling station, * objective with its bonus below (- paid); "
          "the figures stand above their spaces (lower case: out of the race)")

View = Mapping[str, Any]


def render_board(board: Board, view: View, names: Sequence[str], *, colour: ColourMode | bool = True,
                 width: int = DEFAULT_WIDTH) -> str:
    """The heading, the key and the track in bands no wider than ``width`` (colour codes aside),
    for the game ``view`` (a spectator's :meth:`~toprace_pi.games.autorace.rules.Autorace.view`)."""
    if width < MIN_WIDTH:
        raise ValueError(f"width {width} is too narrow to draw the track (at least {MIN_WIDTH})")
    mode = mode_of(colour)
    stacks = _stacks(board, view, names, mode)
    lines = textwrap.wrap(_heading(board), width) + textwrap.wrap(LEGEND, width)
    for start, stop in _bands(board.finish + 1, width):
        lines.append("")
        lines.extend(_band(board, view, stacks, start, stop, mode))
    return "\n".join(line.rstrip() for line in lines) + "\n"


def _heading(board: Board) -> str:
    stations = ", ".join(map(str, sorted(board.stations)))
    return f"{board.name}: the track 0 to {board.finish}; filling stations at {stations}"


def _bands(spaces: int, width: int) -> list[tuple[int, int]]:
    """Even bands of spaces, as few as fit in ``width``."""
    room = width - PREFIX - SPILL
    count = math.ceil(spaces / room)
    size = math.ceil(spaces / count)
    return [(start, min(start + size, spaces)) for start in range(0, spaces, size)]


def _stacks(board: Board, view: View, names: Sequence[str], mode: ColourMode) -> dict[int, list[str]]:
    """The figures on each space, drawn, in seat order; a figure out of the series is not on the board."""
    letters = suit_letters(seat_suits(board, len(names)))
    suits = seat_suits(board, len(names))
    stacks: dict[int, list[str]] = {}
    for seat, space in enumerate(view["positions"]):
        if view["dropped"][seat]:
            continue
        letter = letters[seat] if view["in_race"][seat] else letters[seat].lower()
        stacks.setdefault(space, []).append(paint(letter, mode, suits[seat].rgb))
    return stacks


def _band(board: Board, view: View, stacks: Mapping[int, list[str]], start: int, stop: int,
          mode: ColourMode) -> list[str]:
    spaces = range(start, stop)
    height = max((len(stacks.get(space, ())) for space in spaces), default=0)
    figures = [
        "".ljust(PREFIX) + "".join(_nth(stacks.get(space, []), height - row) for space in spaces)
        for row in range(height)
    ]
    track = "track".ljust(PREFIX) + "".join(_mark(board, space, mode) for space in spaces)
    return [_ruler(start, stop), *figures, track, "bonus".ljust(PREFIX) + _bonuses(board, view, start, stop)]


def _nth(stack: list[str], level: int) -> str:
    """The figure ``level`` from the track up (1: the lowest), or a blank."""
    return stack[level - 1] if level <= len(stack) else " "


def _mark(board: Board, space: int, mode: ColourMode) -> str:
    if space in board.bonuses:
        return paint(OBJECTIVE_MARK, mode, OBJECTIVE)
    if space in board.stations:
        return paint(STATION_MARK, mode, STATION)
    return PLAIN


def _ruler(start: int, stop: int) -> str:
    return "space".ljust(PREFIX) + _row({n - start: str(n) for n in range(start, stop) if n % RULER_STEP == 0})


def _bonuses(board: Board, view: View, start: int, stop: int) -> str:
    """Each objective's bonus still to win below it (rolled-on bonuses included), ``-`` once paid."""
    paid = set(view["paid"])
    return _row({space - start: PAID if space in paid else str(view["bonuses"][str(space)])
                 for space in board.objectives if start <= space < stop})


def _row(labels: Mapping[int, str]) -> str:
    """Labels each starting in its column (left to right; a label never overwrites an earlier one)."""
    row = ""
    for column, label in sorted(labels.items()):
        row = row.ljust(column) + label if len(row) <= column else row
    return row


def scoreboard(board: Board, view: View, names: Sequence[str]) -> list[str]:
    """The standings: the game and round, each seat's money, cards left in hand, where it stands
    and whether it is still in the race (and, while the cards are being chosen, whether it has
    chosen: never what), then the bonuses still to win."""
    suits = seat_suits(board, len(names))
    lines = [round_line(view)]
    for seat, name in enumerate(names):
        cards = len(view["hands"][seat])
        lines.append(f"  {name} ({suits[seat].name}): {dollars(view['money'][seat])}, "
                     f"{cards} card{'' if cards == 1 else 's'} and the banner in hand, "
                     f"at {view['positions'][seat]}; {standing(view, seat)}")
    still = [f"{space} {dollars(view['bonuses'][str(space)])}" for space in board.objectives
             if space not in view["paid"]]
    lines.append("  bonuses still to win: " + (", ".join(still) if still else "none"))
    return lines


def round_line(view: View) -> str:
    """The game and round, or that the series is over (a picture's caption begins with it too)."""
    if view["phase"] == "OVER":
        return f"Game {view['game']}: the series is over"
    return f"Game {view['game']}, round {view['round']}"


def standing(view: View, seat: int) -> str:
    if view["dropped"][seat]:
        return "out of the series"
    if not view["in_race"][seat]:
        return "out of the race"
    if view["phase"] != "CHOOSE":
        return "in the race"
    if view["missing"][seat]:
        return "misses this round"
    return "has chosen" if view["chosen"][seat] else "to choose"
