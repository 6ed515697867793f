"""TOP SPEED's data files: the shipped circuit and deck, what is reconstructed in them,
and a maker's file with every problem named at once."""

from __future__ import annotations

import random

import pytest

from toprace_pi.errors import DataError
from toprace_pi.games.topspeed.data import check_deck, circuit_names, deck_names, load_circuit, load_deck
from toprace_pi.games.topspeed.rules import DECK_SIZE, Card, Kind


def test_the_shipped_circuit_is_montmelo_reconstructed_with_its_grand_prix_laps():
    circuit = load_circuit()
    assert circuit_names() == ["montmelo"] and circuit.name == "Montmeló"
    assert circuit.spaces == 32 and circuit.grand_prix_laps == 66
    assert circuit.reconstructed and "3 to 5 rounds" in " ".join(circuit.note.split())


def test_the_shipped_deck_has_72_cards_one_blank_and_says_it_is_reconstructed():
    deck = load_deck()
    assert deck_names() == ["standard"] and len(deck.cards) == DECK_SIZE and deck.reconstructed
    assert deck.composition() == {"1": 14, "2": 16, "3": 12, "4": 8, "yellow_flag": 3, "drive_through": 3,
                                  "safety_car": 2, "engine_trouble": 4, "tire_trouble": 5, "off_track": 4,
                                  "blank": 1}
    assert [c.word for c in deck.races["normal"]] == ["safety_car", "yellow_flag", "off_track"]
    assert deck.races["wet"] == ()
    assert sum(c.kind is Kind.BLANK for c in deck.for_race("wet", blank_card=True)) == 1


def test_check_deck_sums_the_deck_up_for_the_command_line():
    lines = check_deck("standard")
    assert lines[0] == "standard: TOP SPEED, 72 cards: the composition is valid (reconstructed)"
    assert lines[1].startswith("normal race: 68 cards; movement 1 x14, 2 x16, 3 x12, 4 x8 (50 cards, 114 points, "
                               "1.68 a card drawn); Yellow Flag x2, Drive Through x3, Safety Car x1")
    assert lines[2].startswith("wet race: 71 cards;") and lines[3].endswith("a normal race: 69 cards")


def test_a_deck_file_with_problems_names_every_one(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text('[deck]\nname = "Mine"\n[deck.cards]\n"1" = 60\n"12" = 2\nturbo = 1\nblank = 2\n'
                    'off_track = 0\n[deck.races]\nnormal = ["safety_car"]\nwet = [3]\n', "utf-8")
    with pytest.raises(DataError) as caught:
        load_deck(path)
    problems = "\n".join(caught.value.problems)
    for words in ("[deck.cards] 12: no card '12'", "[deck.cards] turbo: no card 'turbo'",
                  "[deck.cards] off_track: a number of copies from 1", "these make 62",
                  "one blank card, not 2", "[deck.races] normal: the normal race takes out a Safety Car, but",
                  "[deck.races] wet: a list of card words"):
        assert words in problems
    assert len(caught.value.problems) == 7


def test_a_deck_file_needs_both_race_types_and_known_keys(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text('[deck]\ncolour = "red"\n', "utf-8")
    with pytest.raises(DataError, match="unknown key"):
        load_deck(path)
    path.write_text('[deck]\n[deck.cards]\n"2" = 71\nblank = 1\n[deck.races]\nnormal = []\n', "utf-8")
    with pytest.raises(DataError, match="the cards each of normal, wet takes out"):
        load_deck(path)


def test_a_circuit_file_has_enough_spaces_for_eight_cars(tmp_path):
    path = tmp_path / "short.toml"
    path.write_text('[circuit]\nname = "Kart"\nspaces = 9\ngrand_prix_laps = "many"\n', "utf-8")
    with pytest.raises(DataError) as caught:
        load_circuit(path)
    assert caught.value.problems == ["[circuit] spaces: a whole number from 16 to 500, not 9",
                                     "[circuit] grand_prix_laps: a whole number from 1 to 200, not 'many'"]
    with pytest.raises(DataError, match="no such file, and not a shipped circuit"):
        load_circuit(tmp_path / "none.toml")


def test_cards_in_any_order_come_back_in_the_deck_files_order():
    deck = load_deck()
    shuffled = list(deck.cards)
    random.Random(3).shuffle(shuffled)
    assert deck.in_file_order(shuffled) == deck.cards
    some = shuffled[:25]
    place = {card: n for n, card in enumerate(deck.distinct)}
    assert deck.in_file_order(some) == tuple(sorted(some, key=place.__getitem__))
    assert deck.in_file_order([]) == ()


def test_a_card_the_deck_does_not_hold_is_named_not_dropped():
    deck = load_deck()
    stranger = Card(Kind.MOVEMENT, 9)
    assert stranger not in deck.cards
    with pytest.raises(ValueError, match=f"not in the deck '{deck.name}': 9$"):
        deck.in_file_order([deck.cards[0], stranger])
