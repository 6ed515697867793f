"""The edition as data of the deck: the cars, the joker and the Sprint/Breakdown pairs.

Two decks are shipped: the 2008 box (blue, red, yellow, black, purple, green; a white
joker) and an older edition (yellow, purple, light blue, red, white, green; a black
joker; arrow cards yellow/purple, light blue/red, white/green).
"""

from __future__ import annotations

import copy
import tomllib
from importlib import resources
from typing import Any

import pytest
from scenarios import CARS, DECK, OLDER, VOCAB, assert_played_with_its_edition, enrolment, race_ready
from tracks import straight

from toprace_pi.cli import main
from toprace_pi.errors import DataError, NotationError
from toprace_pi.games.toprace.data import load_deck, load_track
from toprace_pi.games.toprace.render.svg import track_svg
from toprace_pi.games.toprace.render.terminal import render_track
from toprace_pi.games.toprace.rules import (
    Breakdown,
    Car,
    ChooseJoker,
    MoveCar,
    MovementCard,
    Phase,
    PlayCard,
    Settings,
    Sprint,
    TakeCar,
    TopRace,
)
from toprace_pi.games.toprace.rules.actions import ReturnCar, parse_action
from toprace_pi.games.toprace.rules.board import Board
from toprace_pi.games.toprace.rules.cards import Deck, SprintBreakdownCard
from toprace_pi.games.toprace.rules.events import BrokeDown
from toprace_pi.games.toprace.rules.variants import replay_game
from toprace_pi.games.toprace.rules.variants.quick import Reveal
from toprace_pi.games.toprace.rules.variants.stocks import Grid, Trade
from toprace_pi.games.toprace.rules.variants.tips import Tip
from toprace_pi.games.toprace.simulate import simulate
from toprace_pi.games.toprace.table.tags import TopRaceVocabulary, identity_key, unknown_tag
from toprace_pi.hardware.events import TagLaid
from toprace_pi.hardware.tags import TagRegistry, parse_record, record_text
from toprace_pi.table.controller import TableController

O_YELLOW, O_PURPLE, LIGHTBLUE, O_RED, WHITE, O_GREEN = OLDER.cars
#: How the older deck was reconstructed from the standard one (its header says so too).
MAPPING = {"blue": "lightblue", "red": "red", "yellow": "yellow", "black": "purple", "purple": "white",
           "green": "green"}


def older(car: Car | None) -> Car | None:
    return None if car is None else OLDER.cars.parse(MAPPING[car.id])


# --- the shipped decks ------------------------------------------------------------------------------------------


def test_the_older_deck_declares_its_edition():
    cars = OLDER.cars
    assert [(c.id, c.name, c.letter) for c in cars] == [
        ("yellow", "Yellow", "Y"), ("purple", "Purple", "P"), ("lightblue", "Light blue", "L"), ("red", "Red", "R"),
        ("white", "White", "W"), ("green", "Green", "G")]
    assert (cars.joker.id, str(cars.joker)) == ("black", "Black")
    assert cars.pairs == ((O_YELLOW, O_PURPLE), (LIGHTBLUE, O_RED), (WHITE, O_GREEN))
    assert OLDER.reconstructed and "reconstructed" in OLDER.name.lower() and OLDER.note
    assert min(WHITE.rgb) >= 200  # a light grey: it shows on a dark terminal and as an LED


def test_the_older_deck_is_the_standard_one_with_its_colours_mapped():
    assert OLDER.numbers == DECK.numbers
    for card in DECK.cards:
        other = OLDER[card.number]
        if isinstance(card, MovementCard):
            assert isinstance(other, MovementCard)
            assert other.moves == tuple((older(car), value) for car, value in card.moves)
        else:
            assert isinstance(other, SprintBreakdownCard) and other.pair == tuple(map(older, card.pair))
    assert sorted(tuple(map(older, pair)) for pair in CARS.pairs) == sorted(OLDER.cars.pairs)
    assert OLDER.fairness_problems() == [] and set(OLDER.colour_totals().values()) == {(24, 84)}
    assert str(OLDER[7]) == "#7 White 6 / Yellow 4 / Black 2 / Light blue 1"
    assert str(OLDER[46]) == "#46 Sprint/Breakdown Light blue-Red"


def test_cars_of_two_loads_of_a_deck_are_equal_and_of_two_editions_not():
    again = load_deck("older-edition")
    assert list(again.cars) == list(OLDER.cars) and again.cars[2] is not LIGHTBLUE
    assert CARS.parse("red") != O_RED and CARS.parse("yellow") != O_YELLOW
    assert sorted([O_GREEN, LIGHTBLUE, O_YELLOW]) == [O_YELLOW, LIGHTBLUE, O_GREEN]
    assert repr(LIGHTBLUE) == "Car('lightblue')" and str(LIGHTBLUE) == "Light blue"
    assert [0, 1, 2][LIGHTBLUE] == 2  # a car indexes per-car lists


# --- validation -------------------------------------------------------------------------------------------------

def shipped(name: str) -> str:
    return resources.files("toprace_pi.games.toprace.data").joinpath("decks", f"{name}.toml").read_text("utf-8")


DOC = tomllib.loads(shipped("standard"))


def problems(**header: Any) -> list[str]:
    """The problems of the standard deck file with ``header``'s keys of ``[deck]`` replaced."""
    doc = copy.deepcopy(DOC)
    doc["deck"].update(header)
    with pytest.raises(DataError) as caught:
        Deck.from_dict(doc, "my-deck.toml")
    assert str(caught.value).startswith("my-deck.toml:")
    return caught.value.problems


def cars_with(n: int, **fields: Any) -> list[dict[str, Any]]:
    """The standard cars with car ``n``'s fields changed."""
    cars = copy.deepcopy(DOC["deck"]["cars"])
    cars[n].update(fields)
    return cars


@pytest.mark.parametrize("header, expected", [
    ({"cars": "blue red"}, "[deck] cars: missing, or not a list of the edition's 6 cars"),
    ({"cars": DOC["deck"]["cars"][:5]}, "[deck] cars: an edition has 6 cars, not 5"),
    ({"cars": cars_with(1, id="blue")}, "[deck] cars: two cars have the id 'blue'"),
    ({"cars": cars_with(2, letter="B")}, "[deck] cars: two cars have the letter 'B'"),
    ({"cars": cars_with(2, name="Blue")}, "[deck] cars: two cars have the name 'Blue'"),
    ({"cars": cars_with(2, rgb=[30, 100, 255])}, "[deck] cars: two cars have the rgb [30, 100, 255]"),
    ({"cars": cars_with(0, id="Light Blue")}, "[deck] cars #1: must be a table like"),
    ({"cars": cars_with(3, letter="k")}, "[deck] car 'black': 'letter' must be one capital letter A-Z"),
    ({"cars": cars_with(3, name=" ")}, "[deck] car 'black': 'name' must be the name people read"),
    ({"cars": cars_with(3, rgb=[80, 80, 256])}, "[deck] car 'black': 'rgb' must be the display colour"),
    ({"cars": cars_with(3, rgb=[80, True, 80])}, "[deck] car 'black': 'rgb' must be the display colour"),
    ({"cars": cars_with(3, rgb="grey")}, "[deck] car 'black': 'rgb' must be the display colour"),
    ({"joker": "white"}, "[deck] joker: must be a table like"),
    ({"joker": {"id": "green", "name": "Green", "rgb": [0, 0, 0]}},
     "[deck] joker: its id 'green' is also a car's; the cards could not tell them apart"),
    ({"joker": {"id": "white", "name": "White", "rgb": [255, 255]}}, "[deck] joker: 'rgb' must be the display"),
    ({"sprint_breakdown_pairs": [["blue", "red"], ["yellow", "black"]]},
     "[deck] sprint_breakdown_pairs: must list 3 pairs of car ids"),
    ({"sprint_breakdown_pairs": [["blue", "red"], ["yellow", "pink"], ["purple", "green"]]},
     "[deck] sprint_breakdown_pairs #2: unknown car colour 'pink' (one of blue, red, yellow, black, purple, green)"),
    ({"sprint_breakdown_pairs": [["blue", "red"], ["yellow", "black"], ["purple", "purple"]]},
     "[deck] sprint_breakdown_pairs: every car is in exactly one pair; not so for purple (2), green (0)"),
    ({"sprint_breakdown_pairs": [["blue", "red"], ["yellow", "black"], ["green"]]},
     "[deck] sprint_breakdown_pairs #3: must be two car ids"),
])
def test_each_edition_problem_is_named(header, expected):
    found = problems(**header)
    assert any(p.startswith(expected) for p in found), found


def test_every_problem_of_a_deck_file_is_reported_at_once():
    cars = cars_with(2, letter="B")
    cars[3]["rgb"] = [80, 80, -1]
    cars.append({"id": "blue", "name": "Sky", "rgb": [0, 0, 9], "letter": "S"})
    cards = copy.deepcopy(DOC["deck"]["cards"])
    cards[0]["moves"][0] = "pink 6"
    found = problems(cars=cars, cards=cards, sprint_breakdown_pairs=[["blue", "red"], ["yellow", "pink"],
                                                                      ["purple", "purple"]])
    for expected in ("[deck] car 'black': 'rgb' must be", "[deck] cars: an edition has 6 cars, not 7",
                     "[deck] cars: two cars have the id 'blue'", "[deck] cars: two cars have the letter 'B'",
                     "[deck] sprint_breakdown_pairs #2: unknown car colour 'pink'",
                     "card 1: unknown car colour 'pink'", "card 47: sprint_breakdown must be one of the pairs"):
        assert any(p.startswith(expected) for p in found), (expected, found)


def test_a_card_must_name_the_cars_and_joker_of_its_own_edition():
    cards = copy.deepcopy(DOC["deck"]["cards"])
    cards[6]["moves"][0:3] = ["black 6", "yellow 4", "black 2"]  # the older joker's word is a car here
    cards[7]["moves"][0] = "lightblue 6"
    found = problems(cards=cards)
    assert "card 7: a car appears twice on the card" in found
    assert any(p.startswith("card 8: unknown car colour 'lightblue'") for p in found)


def test_a_broken_deck_file_gives_a_clear_message_not_a_traceback(capsys, tmp_path):
    path = tmp_path / "deck.toml"
    path.write_text(shipped("older-edition").replace('id = "black"', 'id = "white"'), "utf-8")
    assert main(["deck", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and "its id 'white' is also a car's" in err and "Traceback" not in err


# --- notation -----------------------------------------------------------------------------------------------------

OLDER_ACTIONS = [
    (TakeCar(LIGHTBLUE), "take lightblue"), (ChooseJoker(WHITE), "joker white"), (Tip(O_RED), "tip red"),
    (Reveal(O_PURPLE), "reveal purple"), (MoveCar(LIGHTBLUE, "b12"), "move lightblue b12"),
    (ReturnCar(LIGHTBLUE, "a7"), "return lightblue a7"),
    (Grid(tuple(OLDER.cars)), "grid yellow,purple,lightblue,red,white,green"),
    (Trade((WHITE, LIGHTBLUE), (O_GREEN, O_GREEN)), "trade sell lightblue,white buy green,green"),
]


@pytest.mark.parametrize("action, text", OLDER_ACTIONS, ids=lambda a: str(a))
def test_the_older_editions_notation_round_trips(action, text):
    assert str(action) == text
    assert parse_action(text, OLDER.cars) == action
    assert parse_action(text.replace("lightblue", "LightBlue"), OLDER.cars) == action


def test_a_car_of_the_other_edition_is_unknown_notation():
    with pytest.raises(NotationError, match=r"unknown car colour 'lightblue' \(one of blue, red, yellow, black"):
        parse_action("move lightblue b12", CARS)
    with pytest.raises(NotationError, match=r"unknown car colour 'black' \(one of yellow, purple, lightblue"):
        parse_action("joker black", OLDER.cars)  # the older edition's joker is no car


def test_the_game_reads_notation_with_its_own_cars():
    track = load_track("speed-street")
    game = simulate(track, OLDER, players=3, seed=4, deck_name="older-edition")
    assert game.settings.deck == "older-edition"
    assert game.parse("take LightBlue") == TakeCar(LIGHTBLUE)
    again = replay_game(game.settings, track, load_deck(game.settings.deck), [str(a) for a in game.log])
    assert again.snapshot() == game.snapshot() and again.log == game.log


# --- whole games --------------------------------------------------------------------------------------------------

VARIANTS = ["base", "tips", "quick", "stocks", "pitstop", "pitstop+tips", "pitstop+stocks"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_whole_games_of_every_variant_with_the_older_deck(variant):
    game = simulate(load_track("speed-street"), OLDER, players=4, seed=3, variant=variant,
                    deck_name="older-edition")
    assert_played_with_its_edition(game)


OWNERS = {O_RED: 0, LIGHTBLUE: 1, O_YELLOW: 0, WHITE: 1, O_PURPLE: 0, O_GREEN: 1}
POSITIONS = {LIGHTBLUE: "b10", O_RED: "b20", O_YELLOW: "a5", O_PURPLE: "b5", WHITE: "c5", O_GREEN: "c10"}


def test_a_breakdown_of_the_older_pair_light_blue_and_red():
    game = race_ready(straight(40), OWNERS, hands=((46,),), positions=POSITIONS, deck="older-edition")
    game.apply(PlayCard(46))
    assert game.sprint_pair() == (LIGHTBLUE, O_RED)
    game.apply(Breakdown())
    assert game.events[-1] == BrokeDown(O_RED, LIGHTBLUE)
    assert game.events[-1].text(game.names) == "Red breaks down and waits beside the track for Light blue"


def test_a_sprint_of_the_older_pair_light_blue_and_red():
    game = race_ready(straight(40), OWNERS, hands=((46,),), positions=POSITIONS, deck="older-edition")
    game.apply(PlayCard(46))
    game.apply(Sprint())
    assert game.moving.car == LIGHTBLUE and set(game.move_ends()) == {"a20", "c20"}
    game.apply(MoveCar(LIGHTBLUE, "c20"))
    assert game.board.at[LIGHTBLUE] == game.track.index("c20")


def test_the_black_joker_moves_a_car_not_on_its_card():
    game = race_ready(straight(40), OWNERS, hands=((7,),), positions=POSITIONS, deck="older-edition")
    game.apply(PlayCard(7))  # White 6 / Yellow 4 / Black 2 / Light blue 1
    while game.phase is Phase.MOVE_CAR:
        game.apply(game.legal_actions()[0])
    assert game.joker_choices() == [O_PURPLE, O_RED, O_GREEN]


# --- drawing and the strip ----------------------------------------------------------------------------------------


def older_board() -> Board:
    track = straight(20)
    board = Board(track, OLDER.cars)
    board.place(LIGHTBLUE, track.index("b7"))
    board.place(WHITE, track.index("c3"))
    return board


def lanes(text: str) -> dict[str, str]:
    """The lane rows of a drawing by lane letter (one band)."""
    return {line[0]: line[1:] for line in text.splitlines() if line[:1] in "abc" and line[1:3] == "  "}


def test_the_terminal_draws_the_older_cars_in_the_decks_colours_and_letters():
    board = older_board()
    track = board.track
    plain = lanes(render_track(track, board, colour=False))
    assert "L" in plain["b"] and "W" in plain["c"]
    coloured = render_track(track, board, highlight={track.index("a9"): LIGHTBLUE})
    assert "\x1b[1;38;2;0;0;0;48;2;90;190;255mL" in coloured  # dark ink on light blue
    assert "\x1b[1;38;2;0;0;0;48;2;225;225;225mW" in coloured
    assert "38;2;90;190;255m*" in coloured
    lights = {track.index("a9"): LIGHTBLUE.rgb}
    assert "L" in lanes(render_track(track, colour=False, lights=lights, cars=OLDER.cars))["a"]
    assert "L" not in lanes(render_track(track, colour=False, lights=lights, cars=CARS))["a"]  # a glow, not a car


def test_the_svg_draws_the_older_cars_in_the_decks_colours():
    svg = track_svg(older_board().track, older_board())
    assert "<title>Light blue car on " in svg and 'fill="#5abeff"' in svg and ">L</text>" in svg  # (90, 190, 255)
    assert "<title>White car on " in svg and 'fill="#e1e1e1"' in svg  # (225, 225, 225)


# --- tags ---------------------------------------------------------------------------------------------------------


def test_a_light_blue_car_token_is_read_with_the_older_deck_only():
    record = "toprace car lightblue"
    assert record_text(identity_key(("car", LIGHTBLUE))) == record
    assert parse_record(record, TopRaceVocabulary(OLDER.cars)) == ("car", LIGHTBLUE)
    assert parse_record(record, VOCAB) is None
    assert unknown_tag(record, CARS) == ("this tag is the car token 'lightblue', which this deck does not have "
                                         "(its cars: blue, red, yellow, black, purple, green)")
    assert unknown_tag("some other app", CARS).startswith("this tag is not enrolled")


def test_a_registry_of_the_older_cars_is_refused_under_the_standard_deck(tmp_path):
    path = tmp_path / "tags.json"
    TagRegistry({b"\x04\x01\x02\x03": ("car", LIGHTBLUE)}, vocabulary=TopRaceVocabulary(OLDER.cars)).save(path)
    assert TagRegistry.load(path, TopRaceVocabulary(OLDER.cars)).get(b"\x04\x01\x02\x03") == ("car", LIGHTBLUE)
    with pytest.raises(DataError) as caught:
        TagRegistry.load(path, VOCAB)
    assert caught.value.problems == ["tag '04010203': 'car lightblue' is not 'card N' (1-48), 'car COLOUR' (a car "
                                     "of this deck: blue, red, yellow, black, purple, green) or 'pit SEAT' (1-6)"]


def test_enrolment_walks_the_decks_cars():
    walk = enrolment("cars", OLDER)
    assert walk.prompt == "scan the Yellow car"
    for n in range(6):
        walk.offer(TagLaid("cars", bytes([4, 0, 0, n])))
    assert [e.record for e in walk.enrolled] == [f"toprace car {c.id}" for c in OLDER.cars]


class Quiet:
    def __init__(self) -> None:
        self.said: list[str] = []

    def refuse(self) -> None:
        pass

    def confirm(self) -> None:
        pass

    def finish(self, place: int) -> None:
        pass


def test_the_table_refuses_a_car_token_of_another_edition_and_says_why():
    game = TopRace(Settings(("Anna", "Ben")), load_track("speed-street"), DECK)
    registry = TagRegistry(vocabulary=TopRaceVocabulary(game.cars))
    sound = Quiet()
    controller = TableController(game, identify=registry.identify, say=sound.said.append, sound=sound)
    controller.handle(TagLaid("cars", b"\x04\x09\x09\x09", "toprace car lightblue"))
    assert controller.refusals == 1 and "'lightblue', which this deck does not have" in sound.said[-1]
