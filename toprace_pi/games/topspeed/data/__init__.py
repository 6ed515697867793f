"""TOP SPEED's data files: the circuit (``circuits/montmelo.toml``) and the deck of
minicards (``decks/standard.toml``), shipped as TOML or read from a maker's own file,
each problem of a file named at once. Both shipped files say what in them is
reconstructed (the text gives neither the circuit's length nor a deck's composition).
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from toprace_pi.datafiles import read_toml, shipped_names
from toprace_pi.errors import DataError, IllegalActionError
from toprace_pi.games.topspeed.rules.cards import DECK_SIZE, Card, Deck, Kind, card_of, take_out
from toprace_pi.games.topspeed.rules.circuit import MIN_SPACES, Circuit
from toprace_pi.games.topspeed.rules.game import MAX_LAPS
from toprace_pi.schema import Range, number_of, unknown_keys

DEFAULT_CIRCUIT = "montmelo"
DEFAULT_DECK = "standard"
CIRCUIT_FIELDS = ("name", "spaces", "grand_prix_laps", "reconstructed", "note")
DECK_FIELDS = ("name", "cards", "races", "reconstructed", "note")
#: Every number of ``[circuit]``, and the values a real board could need: a loop of a few dozen spaces (far
#: fewer than a strip has LEDs), and a Grand Prix no longer than the longest race a table plays.
CIRCUIT_NUMBERS = {"spaces": Range(int, MIN_SPACES, 500), "grand_prix_laps": Range(int, 1, MAX_LAPS)}
#: The copies of one card in ``[deck.cards]``: never more than the deck holds.
COPIES = Range(int, 1, DECK_SIZE, "a number of copies")
#: The race types a deck file describes (a custom race names its own cards).
DECK_RACES = ("normal", "wet")


def circuit_names() -> list[str]:
    return shipped_names(_folder("circuits"))


def deck_names() -> list[str]:
    return shipped_names(_folder("decks"))


def load_circuit(name_or_path: str | Path = DEFAULT_CIRCUIT) -> Circuit:
    """A shipped circuit by name, or a circuit file by path; a :class:`DataError` naming every problem."""
    source, document = read_toml(_folder("circuits"), name_or_path, circuit_names())
    table = _table(document, "circuit", CIRCUIT_FIELDS, source)
    problems: list[str] = []
    spaces = number_of(table, "spaces", CIRCUIT_NUMBERS, "[circuit]", problems)
    laps = number_of(table, "grand_prix_laps", CIRCUIT_NUMBERS, "[circuit]", problems)
    if problems:
        raise DataError(source, problems)
    return Circuit(name=str(table.get("name", source)), spaces=spaces, grand_prix_laps=laps,
                   reconstructed=table.get("reconstructed") is True, note=str(table.get("note", "")))


def load_deck(name_or_path: str | Path = DEFAULT_DECK) -> Deck:
    """A shipped deck by name, or a deck file by path: :data:`DECK_SIZE` cards of known kinds, one of them
    the blank card, and what each race type takes out; a :class:`DataError` naming every problem."""
    source, document = read_toml(_folder("decks"), name_or_path, deck_names())
    table = _table(document, "deck", DECK_FIELDS, source)
    problems: list[str] = []
    cards = _cards(table.get("cards"), problems)
    races = _races(table.get("races"), cards, problems)
    if problems:
        raise DataError(source, problems)
    return Deck(name=str(table.get("name", source)), cards=cards, races=races,
                reconstructed=table.get("reconstructed") is True, note=str(table.get("note", "")))


def check_deck(name_or_path: str | Path = DEFAULT_DECK) -> list[str]:
    """What a deck file holds, in lines for the command line (a :class:`DataError` if it is not valid):
    its composition, its points, and the cards a player races with in each race type."""
    deck = load_deck(name_or_path)
    lines = [f"{name_or_path}: {deck.name}, {len(deck.cards)} cards: the composition is valid"
             + (" (reconstructed)" if deck.reconstructed else "")]
    for race in DECK_RACES:
        lines.append(f"{race} race: {_summary(deck, deck.for_race(race))}")
    lines.append(f"with the blank card (chaotic weather), a normal race: "
                 f"{len(deck.for_race('normal', blank_card=True))} cards")
    return lines


def _summary(deck: Deck, cards: tuple[Card, ...]) -> str:
    green = [card for card in cards if card.is_green]
    counts = deck.composition(cards)
    troubles = ", ".join(f"{Kind(word).title} x{n}" for word, n in counts.items() if not word.isdigit())
    movement = ", ".join(f"{word} x{n}" for word, n in counts.items() if word.isdigit())
    points = sum(card.points for card in green)
    return (f"{len(cards)} cards; movement {movement} ({len(green)} cards, {points} points, "
            f"{points / len(cards):.2f} a card drawn); {troubles or 'no trouble cards'}")


def _table(document: dict[str, Any], name: str, fields: tuple[str, ...], source: str) -> dict[str, Any]:
    table = document.get(name)
    if not isinstance(table, dict):
        raise DataError(source, [f"no [{name}] table"])
    problems: list[str] = []
    unknown_keys(document, (name,), "the file:", problems, what="table")
    unknown_keys(table, fields, f"[{name}]", problems)
    if problems:
        raise DataError(source, problems)
    return table


def _cards(table: object, problems: list[str]) -> tuple[Card, ...]:
    """``[deck.cards]``: card word = copies, in the order a deck lies in before its shuffles."""
    if not isinstance(table, dict):
        problems.append("[deck.cards]: each card's word = its copies (\"3\" = 12, yellow_flag = 3)")
        return ()
    cards: list[Card] = []
    for word, copies in table.items():
        try:
            card = card_of(word)
        except IllegalActionError as exc:
            problems.append(f"[deck.cards] {word}: {exc}")
            continue
        if copies not in COPIES:
            COPIES.check(copies, f"[deck.cards] {word}", problems)
            continue
        cards += [card] * copies
    if len(cards) != DECK_SIZE:
        problems.append(f"[deck.cards]: a deck has {DECK_SIZE} cards, these make {len(cards)}")
    blanks = sum(card.kind is Kind.BLANK for card in cards)
    if blanks != 1:
        problems.append(f"[deck.cards]: a deck has one blank card, not {blanks}")
    if not any(card.is_green for card in cards):
        problems.append("[deck.cards]: a deck needs movement cards")
    return tuple(cards)


def _races(table: object, cards: tuple[Card, ...], problems: list[str]) -> dict[str, tuple[Card, ...]]:
    """``[deck.races]``: each race type's cards taken out of every deck, by their words."""
    if not isinstance(table, dict) or set(table) != set(DECK_RACES):
        problems.append(f"[deck.races]: the cards each of {', '.join(DECK_RACES)} takes out, as lists of words")
        return {}
    races = {}
    for race, words in table.items():
        try:
            if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
                raise IllegalActionError("a list of card words")
            out = tuple(card_of(word) for word in words)
            if cards:
                take_out(cards, out, f"the {race} race")
            races[race] = out
        except IllegalActionError as exc:
            problems.append(f"[deck.races] {race}: {exc}")
    return races


def _folder(kind: str) -> Traversable:
    return resources.files(__package__).joinpath(kind)
