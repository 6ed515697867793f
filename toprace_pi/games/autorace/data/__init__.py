"""AUTORACE's board files: the track, its stations, objectives and bonuses, the money
and the card sets, shipped as TOML (``boards/standard.toml`` describes every field)
or read from a maker's own file, each problem of a file named at once."""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from toprace_pi.datafiles import read_toml, shipped_names
from toprace_pi.errors import DataError
from toprace_pi.games.autorace.rules.board import Board, Suit

DEFAULT_BOARD = "standard"
FIELDS = {"name", "finish", "stations", "start_capital", "highest_card", "speed_limit", "draw_cost",
          "reconstructed", "note", "bonuses", "suits"}


def board_names() -> list[str]:
    return shipped_names(_folder())


def load_board(name_or_path: str | Path = DEFAULT_BOARD) -> Board:
    """A shipped board by name, or a board file by path; a :class:`DataError` naming every problem."""
    source, document = read_toml(_folder(), name_or_path, board_names())
    return board_from_dict(document, source)


def board_from_dict(document: dict[str, Any], source: str) -> Board:
    problems: list[str] = []
    board = document.get("board")
    if not isinstance(board, dict):
        raise DataError(source, ["no [board] table"])
    unknown = set(board) - FIELDS
    if unknown:
        problems.append(f"[board] unknown key(s): {', '.join(sorted(unknown))}")
    finish = _whole(board, "finish", 1, problems)
    numbers = {key: _whole(board, key, low, problems) for key, low in
               (("start_capital", 0), ("highest_card", 1), ("speed_limit", 0), ("draw_cost", 0))}
    stations = board.get("stations")
    if not isinstance(stations, list) or not all(_is_whole(s) and 0 < s < finish for s in stations):
        problems.append(f"[board] stations: a list of spaces from 1 to {finish - 1}")
        stations = []
    bonuses = _bonuses(board.get("bonuses"), finish, problems)
    suits = _suits(board.get("suits"), problems)
    if problems:
        raise DataError(source, problems)
    return Board(name=str(board.get("name", source)), finish=finish, stations=frozenset(stations),
                 bonuses=bonuses, suits=suits, reconstructed=bool(board.get("reconstructed", False)),
                 note=str(board.get("note", "")), **numbers)


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _whole(board: dict[str, Any], key: str, low: int, problems: list[str]) -> int:
    value = board.get(key)
    if not _is_whole(value) or value < low:  # type: ignore[operator]
        problems.append(f"[board] {key}: a whole number from {low}, not {value!r}")
        return low
    return int(value)  # type: ignore[arg-type]


def _bonuses(table: object, finish: int, problems: list[str]) -> dict[int, int]:
    if not isinstance(table, dict) or not table:
        problems.append("[board.bonuses]: the objectives, each space = its bonus")
        return {}
    bonuses = {}
    for key, value in table.items():
        if not key.isdigit() or not 0 < int(key) <= finish or not _is_whole(value) or value < 0:
            problems.append(f"[board.bonuses] {key} = {value!r}: a space from 1 to {finish} = a bonus from 0")
        else:
            bonuses[int(key)] = value
    return dict(sorted(bonuses.items()))


def _suits(items: object, problems: list[str]) -> tuple[Suit, ...]:
    if not isinstance(items, list) or len(items) < 2:
        problems.append("[[board.suits]]: at least two card sets, each with id, name and rgb")
        return ()
    suits = []
    for number, item in enumerate(items, 1):
        item = item if isinstance(item, dict) else {}
        rgb, ident, name = item.get("rgb"), item.get("id"), item.get("name")
        if not (isinstance(rgb, list) and len(rgb) == 3 and all(_is_whole(c) and 0 <= c <= 255 for c in rgb)
                and isinstance(ident, str) and ident.isalpha() and ident.islower() and isinstance(name, str)):
            problems.append(f"suit {number}: an id (lower-case letters), a name and an rgb of three 0-255 values")
            continue
        suits.append(Suit(ident, name, (rgb[0], rgb[1], rgb[2])))
    if len({s.id for s in suits}) < len(suits):
        problems.append("[[board.suits]]: each suit needs its own id")
    return tuple(suits)


def _folder() -> Traversable:
    return resources.files(__package__).joinpath("boards")
