"""AUTORACE's entry in the registry (:mod:`toprace_pi.core.registry`): its rules engine, its records,
its side of the table, its command line and its bots, each imported when first asked for."""

from __future__ import annotations

from typing import Any

from toprace_pi.core.registry import GameCommandLine, GameEntry, imported
from toprace_pi.games.autorace import records
from toprace_pi.games.autorace.rules import Autorace
from toprace_pi.games.autorace.settings import VARIANTS


def _new_game(settings: Any, board: Any = None) -> Autorace:
    from toprace_pi.games.autorace.data import load_board

    return Autorace(settings, board or load_board(settings.board))


def _command_line() -> GameCommandLine:
    from toprace_pi.games.autorace import cli

    return cli


ENTRY = GameEntry(info=Autorace.info, variants=lambda: list(VARIANTS), new_game=_new_game,
                  records=records, command_line=_command_line,
                  table=imported("toprace_pi.games.autorace.table.side", "AutoraceTable"),
                  search_bot=imported("toprace_pi.games.autorace.bots.search", "action_search_bot"))
