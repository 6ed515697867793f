"""Top Race's ``[game]`` section of the table's configuration, and the new game it makes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toprace_pi.games.toprace.data import DEFAULT_DECK, DEFAULT_TRACK, deck_names, load_deck, load_track, track_names
from toprace_pi.games.toprace.rules.game import Game, Settings
from toprace_pi.games.toprace.rules.variants import new_game, variant_names
from toprace_pi.table.checks import is_file, players, positive, whole

DEFAULT_PLAYERS = ("Anna", "Ben", "Carla", "David")
#: Pit Stop rule: seconds the table waits for claims after a card is played, unless the section says otherwise.
CLAIM_WINDOW = 6.0
KEYS = {"name", "track", "deck", "players", "races", "variant", "claim_window", "tips"}
#: Tips variant: where the players keep their tips until the race's end: on their tip markers (entered at
#: the end, when they are revealed), or on their phones' pages (each entered in secret at its tip round).
TIPS_KEPT = ("markers", "phones")


@dataclass(frozen=True)
class TableGame:
    """The game a table is set up for: track, deck, players, races, the rules."""

    track: str = DEFAULT_TRACK
    #: The speed cards and the edition of the cars: a shipped deck or a deck file.
    deck: str = DEFAULT_DECK
    players: tuple[str, ...] = DEFAULT_PLAYERS
    races: int = 1
    variant: str = "base"
    #: Pit Stop rule: seconds the table waits for claims after a card is played.
    claim_window: float = CLAIM_WINDOW
    #: Tips variant: :data:`TIPS_KEPT`.
    tips: str = "markers"

    def new_game(self) -> tuple[Settings, Game]:
        """A new game of this setup, and its settings for the journal."""
        track = load_track(self.track)
        settings = Settings(self.players, races=self.races, track=track.slug, deck=self.deck,
                            variant=self.variant, tips_at_end=self.tips == "markers")
        return settings, new_game(settings, track, load_deck(self.deck))


def parse_section(game: Mapping[str, Any], problems: list[str]) -> TableGame:
    """``[game]``: every problem named in ``problems``, a safe default kept for each."""
    unknown = set(game) - KEYS
    if unknown:
        problems.append(f"[game] unknown key(s): {', '.join(sorted(unknown))}")
    return TableGame(
        track=_shipped(game, "track", track_names(), DEFAULT_TRACK, problems),
        deck=_shipped(game, "deck", deck_names(), DEFAULT_DECK, problems),
        players=players(game.get("players", list(DEFAULT_PLAYERS)), 6, DEFAULT_PLAYERS, problems),
        races=whole(game.get("races", 1), "[game] races", 1, 99, problems),
        variant=_variant(game.get("variant", "base"), problems),
        claim_window=positive(game.get("claim_window", CLAIM_WINDOW), "[game] claim_window", problems),
        tips=_tips(game.get("tips", "markers"), problems),
    )


def _tips(value: object, problems: list[str]) -> str:
    if value not in TIPS_KEPT:
        problems.append(f"[game] tips: where the tips are kept, {' or '.join(TIPS_KEPT)}, not {value!r}")
        return "markers"
    return str(value)


def _shipped(game: Mapping[str, Any], kind: str, shipped: list[str], default: str, problems: list[str]) -> str:
    """``[game] track`` or ``deck``: a shipped one by name, or a file (read when the game starts), made
    absolute so that the journal names it for a resume or a replay from any working directory."""
    value = game.get(kind, default)
    if not isinstance(value, str) or (value not in shipped and not is_file(value)):
        problems.append(f"[game] {kind}: {value!r} is neither a shipped {kind} ({', '.join(shipped)}) nor a file")
        return default
    return value if value in shipped else str(Path(value).resolve())


def _variant(value: object, problems: list[str]) -> str:
    if value not in variant_names():
        problems.append(f"[game] variant: one of {', '.join(variant_names())}, not {value!r}")
        return "base"
    return str(value)
