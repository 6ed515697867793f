"""AUTORACE's ``[game]`` section of the table's configuration, and the new game it makes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toprace_pi.games.autorace.data import DEFAULT_BOARD, board_names, load_board
from toprace_pi.games.autorace.rules import Autorace, Settings
from toprace_pi.table.checks import is_file, players, whole

DEFAULT_PLAYERS = ("Anna", "Ben", "Carla", "David")
KEYS = {"name", "variant", "board", "players", "games", "boost"}
#: The rules have no variants (the text's own section for them is empty).
VARIANTS = ("base",)


@dataclass(frozen=True)
class TableGame:
    """The game a table is set up for: the board, the players, the series."""

    board: str = DEFAULT_BOARD
    players: tuple[str, ...] = DEFAULT_PLAYERS
    games: int = 1
    #: Money each player receives at the start of each later game of the series (0: carried over).
    boost: int = 0

    def new_game(self) -> tuple[Settings, Autorace]:
        settings = Settings(self.players, games=self.games, boost=self.boost, board=self.board)
        return settings, Autorace(settings, load_board(self.board))


def parse_section(game: Mapping[str, Any], problems: list[str]) -> TableGame:
    """``[game]``: every problem named in ``problems``, a safe default kept for each."""
    unknown = set(game) - KEYS
    if unknown:
        problems.append(f"[game] unknown key(s): {', '.join(sorted(unknown))}")
    if game.get("variant", "base") not in VARIANTS:
        problems.append(f"[game] variant: AUTORACE has only {', '.join(VARIANTS)}, not {game.get('variant')!r}")
    board = game.get("board", DEFAULT_BOARD)
    if not isinstance(board, str) or (board not in board_names() and not is_file(board)):
        problems.append(f"[game] board: {board!r} is neither a shipped board ({', '.join(board_names())}) "
                        "nor a file")
        board = DEFAULT_BOARD
    suits = len(load_board(board).suits) if board in board_names() else 5
    return TableGame(
        board=board if board in board_names() else str(Path(board).resolve()),
        players=players(game.get("players", list(DEFAULT_PLAYERS)), suits, DEFAULT_PLAYERS, problems),
        games=whole(game.get("games", 1), "[game] games", 1, 99, problems),
        boost=whole(game.get("boost", 0), "[game] boost", 0, 1000, problems),
    )
