"""Top Race's ``[game]`` section of the table's configuration, and the new game it makes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from toprace_pi.games.toprace.data import DEFAULT_DECK, DEFAULT_TRACK, deck_names, load_deck, load_track, track_names
from toprace_pi.games.toprace.rules.game import Settings, TopRace
from toprace_pi.games.toprace.rules.variants import new_game, variant_names
from toprace_pi.schema import Range, number_of, shown, unknown_keys
from toprace_pi.table.checks import data_file, players

DEFAULT_PLAYERS = ("Anna", "Ben", "Carla", "David")
#: Pit Stop rule: seconds the table waits for claims after a card is played, unless the section says otherwise.
CLAIM_WINDOW = 6.0
KEYS = ("name", "track", "deck", "players", "races", "variant", "claim_window", "tips")
#: Every number of ``[game]``, and the values a real table could need.
NUMBERS: dict[str, Range[Any]] = {
    "races": Range(int, 1, 99),
    # A second is the least a hand needs to lay a card on a reader; a minute's wait would stall the race.
    "claim_window": Range(float, 1.0, 60.0, "a number of seconds"),
}
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

    def new_game(self) -> tuple[Settings, TopRace]:
        """A new game of this setup, and its settings for the journal."""
        track = load_track(self.track)
        settings = Settings(self.players, races=self.races, track=track.slug, deck=self.deck,
                            variant=self.variant, tips_at_end=self.tips == "markers")
        return settings, new_game(settings, track, load_deck(self.deck))


def parse_section(game: Mapping[str, Any], problems: list[str]) -> TableGame:
    """``[game]``: every problem named in ``problems``, a safe default kept for each."""
    unknown_keys(game, KEYS, "[game]", problems)
    return TableGame(
        track=data_file(game, "track", track_names(), DEFAULT_TRACK, load_track, problems),
        deck=data_file(game, "deck", deck_names(), DEFAULT_DECK, load_deck, problems),
        players=players(game.get("players", list(DEFAULT_PLAYERS)), 6, DEFAULT_PLAYERS, problems),
        races=number_of(game, "races", NUMBERS, "[game]", problems, 1),
        variant=_variant(game.get("variant", "base"), problems),
        claim_window=number_of(game, "claim_window", NUMBERS, "[game]", problems, CLAIM_WINDOW),
        tips=_tips(game.get("tips", "markers"), problems),
    )


def _tips(value: object, problems: list[str]) -> str:
    if value not in TIPS_KEPT:
        problems.append(f"[game] tips: where the tips are kept, {' or '.join(TIPS_KEPT)}, not {shown(value)}")
        return "markers"
    return str(value)


def _variant(value: object, problems: list[str]) -> str:
    if value not in variant_names():
        problems.append(f"[game] variant: one of {', '.join(variant_names())}, not {shown(value)}")
        return "base"
    return str(value)
