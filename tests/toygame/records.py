"""Dash in the table's files: its ``[game]`` section, and its settings in a journal's header."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from toprace_pi.errors import DataError, SettingsError

from .rules import Dash, Settings

#: Dash needs no card reader; a table still names its first one.
READERS = {"seats": "nothing yet: Dash is played with the buttons"}


@dataclass(frozen=True)
class TableGame:
    """The game a table is set up for."""

    players: tuple[str, ...] = ("Anna", "Ben")

    def new_game(self) -> tuple[Settings, Dash]:
        settings = Settings(self.players)
        return settings, Dash(settings)


def parse_section(section: Mapping[str, Any], problems: list[str]) -> TableGame:
    """``[game]``: its players, or the defaults with a problem named."""
    players = tuple(section.get("players", TableGame.players))
    try:
        Settings(players)
    except SettingsError as exc:
        problems.append(f"[game] players: {exc}")
        return TableGame()
    return TableGame(players)


def settings_to_dict(settings: Settings) -> dict[str, Any]:
    return {"players": list(settings.players)}


def settings_from_dict(fields: object, source: str) -> Settings:
    if not isinstance(fields, dict) or not isinstance(fields.get("players"), list):
        raise DataError(source, ["the header's settings: 'players' must be a list of names"])
    return Settings(tuple(fields["players"]))


def game_for(settings: Settings, source: str) -> Dash:
    return Dash(settings)
