"""Top Race in the table's journal: its settings as plain values, checked when read
back, and the game they make (its deck and track loaded, naming the file when one
cannot be)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from toprace_pi.errors import DataError, SettingsError
from toprace_pi.games.toprace.data import load_deck, load_track
from toprace_pi.games.toprace.rules.game import Settings, TopRace
from toprace_pi.games.toprace.rules.variants import new_game, variant_names
from toprace_pi.games.toprace.settings import parse_section
from toprace_pi.games.toprace.table.readers import CARS_READER, DISCARD_READER

__all__ = ["READERS", "game_for", "parse_section", "settings_from_dict", "settings_to_dict"]

#: The table's card readers by name, the one every table needs first: what lies on each.
READERS = {DISCARD_READER: "the discard pile", CARS_READER: "the car tokens"}


def settings_to_dict(settings: Settings) -> dict[str, Any]:
    return asdict(settings)


def settings_from_dict(fields: object, source: str) -> Settings:
    """The settings a journal's header holds; a :class:`DataError` naming each problem."""
    problems = _problems(fields)
    if problems:
        raise DataError(source, [f"the header's settings: {p}" for p in problems])
    assert isinstance(fields, dict)
    try:
        return Settings(**{**fields, "players": tuple(fields["players"])})
    except (TypeError, SettingsError) as exc:
        raise DataError(source, [f"the header's settings are not valid: {exc}"]) from None


def game_for(settings: Settings, source: str) -> TopRace:
    """A new game of ``settings``, with the deck and the track they name (a shipped one,
    or the file the game was played on, by its absolute path)."""
    try:
        deck = load_deck(settings.deck)
    except DataError as exc:
        raise DataError(source, [f"the header's deck {settings.deck!r} cannot be loaded: {exc}"]) from None
    try:
        track = load_track(settings.track)
    except DataError as exc:
        raise DataError(source, [f"the header's track {settings.track!r} cannot be loaded (a track file moved "
                                 f"or deleted? put it back there): {exc}"]) from None
    return new_game(settings, track, deck)


def _problems(fields: object) -> list[str]:
    """Type checks the Settings constructor does not make itself."""
    if not isinstance(fields, dict):
        return ["not a table"]
    problems = []
    players = fields.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
        problems.append("'players' must be a list of names")
    elif not all(p.isprintable() for p in players):
        problems.append("'players': a name may hold no control characters")
    for key in ("races", "first_opener"):
        if not isinstance(fields.get(key), int) or isinstance(fields.get(key), bool):
            problems.append(f"{key!r} must be a whole number")
    for key in ("track", "deck"):
        if not isinstance(fields.get(key), str):
            problems.append(f"{key!r} must be a name")
    if fields.get("variant") not in variant_names():
        problems.append(f"'variant' must be one of {', '.join(variant_names())}")
    if not isinstance(fields.get("tips_at_end", False), bool):
        problems.append("'tips_at_end' must be true or false")
    return problems
