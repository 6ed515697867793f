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
from toprace_pi.schema import BYTE, Range, number_of, shown, unknown_keys, whole_in_text

DEFAULT_BOARD = "standard"
FIELDS = ("name", "finish", "stations", "start_capital", "highest_card", "speed_limit", "draw_cost",
          "reconstructed", "note", "bonuses", "suits")
SUIT_FIELDS = ("id", "name", "rgb")
#: An amount of money: the rules' own are a few dozen (a start capital of 32, bonuses up to 12).
MONEY = Range(int, 0, 1000, "an amount")
#: The highest number card of a set: the rules' sets run to 10.
HIGHEST_CARD = Range(int, 1, 50)
#: Every number of ``[board]`` but its spaces' bonuses (each :data:`MONEY`), and the values a real board could
#: need: a track of a few dozen spaces (the rules' has 72), far fewer than a strip has LEDs.
NUMBERS = {"finish": Range(int, 2, 500, "the last space"), "start_capital": MONEY, "highest_card": HIGHEST_CARD,
           "speed_limit": Range(int, 0, HIGHEST_CARD.high), "draw_cost": MONEY}


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
    unknown_keys(document, ("board",), "the file:", problems, what="table")
    unknown_keys(board, FIELDS, "[board]", problems)
    numbers = {key: number_of(board, key, NUMBERS, "[board]", problems) for key in NUMBERS}
    finish = numbers.pop("finish")
    stations = board.get("stations")
    if not isinstance(stations, list) or not all(s in Range(int, 1, finish - 1) for s in stations):
        problems.append(f"[board] stations: a list of spaces from 1 to {finish - 1}")
        stations = []
    bonuses = _bonuses(board.get("bonuses"), finish, problems)
    suits = _suits(board.get("suits"), problems)
    if problems:
        raise DataError(source, problems)
    return Board(name=str(board.get("name", source)), finish=finish, stations=frozenset(stations),
                 bonuses=bonuses, suits=suits, reconstructed=bool(board.get("reconstructed", False)),
                 note=str(board.get("note", "")), **numbers)


def _bonuses(table: object, finish: int, problems: list[str]) -> dict[int, int]:
    if not isinstance(table, dict) or not table:
        problems.append("[board.bonuses]: the objectives, each space = its bonus")
        return {}
    bonuses = {}
    for key, value in table.items():
        space = whole_in_text(key)
        if space is None or not 0 < space <= finish:
            problems.append(f"[board.bonuses] {shown(key)}: a space from 1 to {finish}")
        else:
            bonuses[space] = MONEY.check(value, f"[board.bonuses] {key}", problems)
    return dict(sorted(bonuses.items()))


def _suits(items: object, problems: list[str]) -> tuple[Suit, ...]:
    if not isinstance(items, list) or len(items) < 2:
        problems.append("[[board.suits]]: at least two card sets, each with id, name and rgb")
        return ()
    suits = []
    for number, item in enumerate(items, 1):
        item = item if isinstance(item, dict) else {}
        unknown_keys(item, SUIT_FIELDS, f"suit {number}:", problems)
        rgb, ident, name = item.get("rgb"), item.get("id"), item.get("name")
        if not (isinstance(rgb, list) and len(rgb) == 3 and all(c in BYTE for c in rgb)
                and isinstance(ident, str) and ident.isalpha() and ident.islower() and isinstance(name, str)):
            problems.append(f"suit {number}: an id (lower-case letters), a name and an rgb of three 0-255 values")
            continue
        suits.append(Suit(ident, name, (rgb[0], rgb[1], rgb[2])))
    if len({s.id for s in suits}) < len(suits):
        problems.append("[[board.suits]]: each suit needs its own id")
    return tuple(suits)


def _folder() -> Traversable:
    return resources.files(__package__).joinpath("boards")
