"""TOP SPEED's ``[game]`` section of the table's configuration, and the new game it makes.

A variant names the race type and the advanced rules played, joined by ``+``:
``normal``, ``wet``, ``custom`` (with ``removed``, the cards taken out of every deck),
then any of ``qualifying``, ``fastest-lap``, ``kers`` and ``chaotic-weather`` (the
blank card's rule): ``wet+kers+qualifying``. ``base`` is the table's word for a game's
plain rules: here the normal race. Instead of chaotic weather the blank card may be a
card: ``blank``, that card's word (``"safety_car"``, ``"2"``), one more of it in every
deck, or with ``blank_replaces`` the stand-in for one that was lost or damaged.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from toprace_pi.errors import IllegalActionError, SettingsError
from toprace_pi.games.topspeed.data import (
    DEFAULT_CIRCUIT,
    DEFAULT_DECK,
    circuit_names,
    deck_names,
    load_circuit,
    load_deck,
)
from toprace_pi.games.topspeed.rules import RACE_TYPES, Settings, TopSpeed, card_of
from toprace_pi.games.topspeed.rules.cards import extra_card
from toprace_pi.games.topspeed.rules.game import DEFAULT_LAPS, MAX_LAPS, MAX_PLAYERS
from toprace_pi.schema import Range, number_of, shown, unknown_keys
from toprace_pi.table.checks import data_file, players

DEFAULT_PLAYERS = ("Anna", "Ben", "Carla", "David")
KEYS = ("name", "variant", "players", "laps", "removed", "blank", "blank_replaces", "circuit", "deck", "decks")
#: Every number of ``[game]``, and the values a real table could need.
NUMBERS = {"laps": Range(int, 2, MAX_LAPS)}
#: Who holds the decks: the table (virtual, the default), or the players, each their own minicards.
DECKS = ("virtual", "physical")
#: Each advanced rule's word in a variant's name -> its field of :class:`Settings`.
RULES = {"qualifying": "qualifying", "fastest-lap": "fastest_lap", "kers": "kers", "chaotic-weather": "blank_card"}
#: The variants a table lists (any other combination is accepted too).
VARIANTS = ("normal", "wet", "normal+qualifying", "normal+fastest-lap", "normal+kers", "normal+chaotic-weather",
            "wet+qualifying+fastest-lap+kers+chaotic-weather")


def variant_fields(name: str) -> dict[str, Any]:
    """The :class:`Settings` fields a variant's name sets; a :class:`SettingsError` for a name
    that is no race type followed by advanced rules."""
    race, *rules = ("normal" if name == "base" else name).split("+")
    unknown = [rule for rule in rules if rule not in RULES]
    if race not in RACE_TYPES or unknown or len(set(rules)) < len(rules):
        raise SettingsError(f"a variant is a race type ({', '.join(RACE_TYPES)}) and any advanced rules "
                                 f"({', '.join(RULES)}) joined by '+', not {name!r}")
    return {"race": race, **{RULES[rule]: True for rule in rules}}


def variant_name(settings: Settings) -> str:
    return "+".join([settings.race, *(rule for rule, key in RULES.items() if getattr(settings, key))])


@dataclass(frozen=True)
class TableGame:
    """The race a table is set up for: the players, the variant, the laps, the circuit and the deck."""

    players: tuple[str, ...] = DEFAULT_PLAYERS
    variant: str = "normal"
    laps: int = DEFAULT_LAPS
    #: A custom race: the cards taken out of every deck, by their words.
    removed: tuple[str, ...] = ()
    #: The card the blank card plays as, by its word ("": not played as a card): one more in every deck,
    #: or (``blank_replaces``) in place of one that was lost or damaged.
    blank: str = ""
    blank_replaces: bool = False
    circuit: str = DEFAULT_CIRCUIT
    deck: str = DEFAULT_DECK
    #: One of :data:`DECKS`.
    decks: str = "virtual"

    def settings(self) -> Settings:
        return Settings(self.players, laps=self.laps, removed=self.removed, circuit=self.circuit, deck=self.deck,
                        blank_as=self.blank, blank_replaces=self.blank_replaces, **variant_fields(self.variant))

    def new_game(self) -> tuple[Settings, TopSpeed]:
        settings = self.settings()
        return settings, TopSpeed(settings, load_circuit(self.circuit), load_deck(self.deck))


def parse_section(game: Mapping[str, Any], problems: list[str]) -> TableGame:
    """``[game]``: every problem named in ``problems``, a safe default kept for each."""
    unknown_keys(game, KEYS, "[game]", problems)
    setup = TableGame(
        players=players(game.get("players", list(DEFAULT_PLAYERS)), MAX_PLAYERS, DEFAULT_PLAYERS, problems),
        variant=_variant(game.get("variant", "normal"), problems),
        laps=number_of(game, "laps", NUMBERS, "[game]", problems, DEFAULT_LAPS),
        removed=_removed(game.get("removed", []), problems),
        blank=_blank(game.get("blank", ""), problems),
        blank_replaces=_flag(game, "blank_replaces", problems),
        circuit=data_file(game, "circuit", circuit_names(), DEFAULT_CIRCUIT, load_circuit, problems),
        deck=data_file(game, "deck", deck_names(), DEFAULT_DECK, load_deck, problems),
        decks=_decks(game.get("decks", "virtual"), problems),
    )
    try:
        setup.settings().race_cards(load_deck(setup.deck))
    except SettingsError as exc:
        problems.append(f"[game] {exc}")
        return TableGame(players=setup.players, laps=setup.laps, decks=setup.decks)
    return setup


def _decks(value: object, problems: list[str]) -> str:
    if value not in DECKS:
        problems.append(f"[game] decks: one of {', '.join(DECKS)}, not {shown(value)}")
        return "virtual"
    return str(value)


def _variant(value: object, problems: list[str]) -> str:
    try:
        variant_fields(value if isinstance(value, str) else "")
    except SettingsError as exc:
        problems.append(f"[game] variant: {exc}")
        return "normal"
    return "normal" if value == "base" else str(value)


def _removed(value: object, problems: list[str]) -> tuple[str, ...]:
    try:
        if not isinstance(value, list) or not all(isinstance(word, str) for word in value):
            raise SettingsError("a list of card words")
        return tuple(card_of(word).word for word in value)
    except IllegalActionError as exc:
        problems.append(f"[game] removed: {exc}")
        return ()


def _blank(value: object, problems: list[str]) -> str:
    try:
        if not isinstance(value, str):
            raise SettingsError(f"the word of the card the blank card plays as, not {shown(value)}")
        return extra_card(value).word if value else ""
    except IllegalActionError as exc:
        problems.append(f"[game] blank: {exc}")
        return ""


def _flag(game: Mapping[str, Any], key: str, problems: list[str]) -> bool:
    value = game.get(key, False)
    if not isinstance(value, bool):
        problems.append(f"[game] {key}: true or false, not {shown(value)}")
        return False
    return value
