"""AUTORACE in the table's journal: its settings as plain values, checked when read back,
and the game they make."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from toprace_pi.errors import DataError, SettingsError
from toprace_pi.games.autorace.data import load_board
from toprace_pi.games.autorace.rules import Autorace, Settings
from toprace_pi.games.autorace.settings import parse_section

__all__ = ["READERS", "game_for", "parse_section", "settings_from_dict", "settings_to_dict"]

#: The table's card readers by name: the cards are laid face down on the seats' reader (one passed
#: round, or one per seat behind a reader hub: each card's colour says whose it is).
READERS = {"seats": "the players' chosen cards, face down"}


def settings_to_dict(settings: Settings) -> dict[str, Any]:
    return asdict(settings)


def settings_from_dict(fields: object, source: str) -> Settings:
    """The settings a journal's header holds; a :class:`DataError` naming each problem."""
    if not isinstance(fields, dict):
        raise DataError(source, ["the header's settings: not a table"])
    players = fields.get("players")
    problems = []
    if not isinstance(players, list) or not all(isinstance(p, str) and p and p.isprintable() for p in players):
        problems.append("'players' must be a list of names")
    for key in ("games", "boost"):
        if not isinstance(fields.get(key), int) or isinstance(fields.get(key), bool):
            problems.append(f"{key!r} must be a whole number")
    if not isinstance(fields.get("board"), str):
        problems.append("'board' must be a name")
    if problems:
        raise DataError(source, [f"the header's settings: {p}" for p in problems])
    try:
        return Settings(**{**fields, "players": tuple(fields["players"])})
    except (TypeError, SettingsError) as exc:
        raise DataError(source, [f"the header's settings are not valid: {exc}"]) from None


def game_for(settings: Settings, source: str) -> Autorace:
    try:
        board = load_board(settings.board)
    except DataError as exc:
        raise DataError(source, [f"the header's board {settings.board!r} cannot be loaded: {exc}"]) from None
    try:
        return Autorace(settings, board)
    except SettingsError as exc:
        raise DataError(source, [f"the header's settings are not valid: {exc}"]) from None
