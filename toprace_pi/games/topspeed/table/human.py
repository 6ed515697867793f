"""Human seats at the keyboard, beside the demo's bots: the table's generic
:class:`~toprace_pi.table.console.ButtonConsole`, asked whenever a human seat is to move (the table says
each option as NEXT reaches it)."""

from __future__ import annotations

from collections.abc import Sequence

from toprace_pi.games.topspeed.table.turn import Turn
from toprace_pi.hardware.keyboard import KeySource
from toprace_pi.table.console import ButtonConsole
from toprace_pi.table.controller import TableController


def seat_to_move(controller: TableController) -> int | None:
    entry = controller.entry
    return entry.seat if isinstance(entry, Turn) else None


def human_console(keys: KeySource, seats: Sequence[int]) -> ButtonConsole:
    return ButtonConsole(keys, seats, seat_to_move)
