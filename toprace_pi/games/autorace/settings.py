"""AUTORACE's ``[game]`` section of the table's configuration, and the new game it makes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from toprace_pi.games.autorace.data import DEFAULT_BOARD, MONEY, board_names, load_board
from toprace_pi.games.autorace.rules import Autorace, Settings
from toprace_pi.schema import Range, number_of, shown, unknown_keys
from toprace_pi.table.checks import data_file, players

DEFAULT_PLAYERS = ("Anna", "Ben", "Carla", "David")
KEYS = ("name", "variant", "board", "players", "games", "boost")
#: Every number of ``[game]``, and the values a real table could need.
NUMBERS = {"games": Range(int, 1, 99), "boost": MONEY}
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
    unknown_keys(game, KEYS, "[game]", problems)
    if game.get("variant", "base") not in VARIANTS:
        problems.append(f"[game] variant: AUTORACE has only {', '.join(VARIANTS)}, not {shown(game.get('variant'))}")
    board = data_file(game, "board", board_names(), DEFAULT_BOARD, load_board, problems)
    return TableGame(
        board=board,
        players=players(game.get("players", list(DEFAULT_PLAYERS)), len(load_board(board).suits), DEFAULT_PLAYERS,
                        problems),
        games=number_of(game, "games", NUMBERS, "[game]", problems, 1),
        boost=number_of(game, "boost", NUMBERS, "[game]", problems, 0),
    )
