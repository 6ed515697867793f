"""Dash's entry: everything it brings to the table, in one place."""

from __future__ import annotations

from typing import Any

from toprace_pi.core.registry import GameCommandLine, GameEntry
from toprace_pi.errors import TopRaceError

from . import records
from .rules import Dash


def _table(setup: Any = None) -> Any:
    raise TopRaceError("Dash has no side of the table yet: it plays in simulate only")


def _command_line() -> GameCommandLine:
    from . import cli

    return cli


ENTRY = GameEntry(info=Dash.info, variants=lambda: ["base"], new_game=Dash, records=records, table=_table,
                  command_line=_command_line)
