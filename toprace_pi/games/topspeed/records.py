"""TOP SPEED in the table's journal: its settings as plain values, checked when read back,
and the game they make."""

from __future__ import annotations

from dataclasses import asdict, fields
from typing import Any

from toprace_pi.errors import DataError, SettingsError
from toprace_pi.games.topspeed.data import load_circuit, load_deck
from toprace_pi.games.topspeed.rules import Settings, TopSpeed
from toprace_pi.games.topspeed.settings import parse_section

__all__ = ["READERS", "game_for", "parse_section", "settings_from_dict", "settings_to_dict"]

#: The table's card readers by name: each player lays the minicard drawn on the reader of their seat
#: (one reader a seat, or one behind a reader hub: the card's tag says whose deck it is from).
READERS = {"seats": "the minicards each player draws, laid on the reader of their seat"}
_TYPES = {"players": list, "laps": int, "race": str, "removed": list, "qualifying": bool, "fastest_lap": bool,
          "kers": bool, "blank_card": bool, "circuit": str, "deck": str, "blank_as": str,
          "blank_replaces": bool}


def settings_to_dict(settings: Settings) -> dict[str, Any]:
    return asdict(settings)


def settings_from_dict(fields_: object, source: str) -> Settings:
    """The settings a journal's header holds; a :class:`DataError` naming each problem."""
    if not isinstance(fields_, dict):
        raise DataError(source, ["the header's settings: not a table"])
    problems = [f"{key!r} must be a {kind.__name__}" for key, kind in _TYPES.items()
                if key in fields_ and not _is(fields_[key], kind)]
    unknown = set(fields_) - {f.name for f in fields(Settings)}
    if unknown:
        problems.append(f"unknown field(s): {', '.join(sorted(unknown))}")
    for key in ("players", "removed"):
        if isinstance(fields_.get(key), list) and not all(isinstance(w, str) and w.isprintable()
                                                           for w in fields_[key]):
            problems.append(f"{key!r} must be a list of words")
    if problems:
        raise DataError(source, [f"the header's settings: {p}" for p in problems])
    try:
        return Settings(**{**fields_, "players": tuple(fields_.get("players", ())),
                           "removed": tuple(fields_.get("removed", ()))})
    except (TypeError, SettingsError) as exc:
        raise DataError(source, [f"the header's settings are not valid: {exc}"]) from None


def _is(value: object, kind: type) -> bool:
    return isinstance(value, kind) and (kind is bool or not isinstance(value, bool))


def game_for(settings: Settings, source: str) -> TopSpeed:
    try:
        circuit, deck = load_circuit(settings.circuit), load_deck(settings.deck)
    except DataError as exc:
        raise DataError(source, [f"the header's circuit or deck cannot be loaded: {exc}"]) from None
    try:
        return TopSpeed(settings, circuit, deck)
    except SettingsError as exc:
        raise DataError(source, [f"the header's settings are not valid: {exc}"]) from None
