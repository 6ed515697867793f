"""AUTORACE: Derek Hohls's race on a track of 0 to 72, on Knizia's card system; the
table's second game, and its first of sealed simultaneous choices.

Importing this package registers the game (:mod:`toprace_pi.core.registry`).
"""

from __future__ import annotations

from typing import Any

from toprace_pi.core.registry import GameEntry, register
from toprace_pi.games.autorace import records
from toprace_pi.games.autorace.rules import Autorace
from toprace_pi.games.autorace.settings import VARIANTS


def _new_game(settings: Any, board: Any = None) -> Autorace:
    from toprace_pi.games.autorace.data import load_board

    return Autorace(settings, board or load_board(settings.board))


def _table(setup: Any = None) -> Any:
    from toprace_pi.games.autorace.table.side import AutoraceTable

    return AutoraceTable(setup)


def _search_bot(seed: int, strength: str) -> Any:
    from toprace_pi.games.autorace.bots.search import action_search_bot

    return action_search_bot(seed, strength)


register(GameEntry(Autorace.info, lambda: list(VARIANTS), _new_game, _table, records, _search_bot))
