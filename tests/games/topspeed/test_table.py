"""TOP SPEED at the table with virtual decks: the table's own shuffles, the turn by the buttons,
what is said, what UNDO takes back and why not, and the LED frames on a fake clock.

A race here is set up with the grid and the decks in a known order (tests/games/topspeed/helpers.py),
so the cards drawn are those a test stacks; the controller is the real one."""

from __future__ import annotations

import inspect

import pytest

from toprace_pi.core import registry
from toprace_pi.core.colour import dim
from toprace_pi.games.topspeed.render.palette import FLAG, PACE, seat_cars
from toprace_pi.games.topspeed.rules import Draw, Kind, Pass, Settings, TopSpeed
from toprace_pi.games.topspeed.table import side as table_side
from toprace_pi.games.topspeed.table.board import LoopLayout, load_profile
from toprace_pi.games.topspeed.table.chance import chance_step
from toprace_pi.games.topspeed.table.side import TopSpeedTable
from toprace_pi.games.topspeed.table.turn import Turn
from toprace_pi.games.topspeed.table.view import BLINK, PACE_STEP, WASH, TopSpeedView
from toprace_pi.hardware.events import ButtonPressed, TagLaid
from toprace_pi.hardware.sound import SilentSound
from toprace_pi.table.controller import TableController
from toprace_pi.table.side import GameTable

from .helpers import CIRCUIT, DECK, LAP, NAMES, place, race, stack

ANNA, BEN, CARLA = 0, 1, 2


class Table:
    """A controller around ``game`` with a fake clock; ``said`` is everything it said."""

    def __init__(self, game: TopSpeed) -> None:
        self.now = 0.0
        self.said: list[str] = []
        self.controller = TableController(game, identify=lambda e: ("minicard", ("red", 1)), say=self.said.append,
                                          sound=SilentSound(), clock=lambda: self.now, side=TopSpeedTable())
        self.controller.remember()

    @property
    def game(self) -> TopSpeed:
        return self.controller.game

    def press(self, button: str, *, held: bool = False) -> None:
        self.now += 1.5
        self.controller.handle(ButtonPressed(button, held=held))
        self.controller.remember()  # as the table does once its LEDs show the step: UNDO goes back to it

    def choose(self, words: str) -> None:
        """NEXT until the option ``words`` is said, then OK."""
        entry = self.controller.entry
        assert isinstance(entry, Turn)
        assert any(words in label for label in entry.labels), entry.labels
        while words not in entry.labels[entry.cursor]:
            self.press("next")
        self.press("ok")


def test_the_side_implements_every_method_the_protocol_names():
    side = registry.get("topspeed").table()
    assert isinstance(side, TopSpeedTable)
    methods = [name for name, _ in inspect.getmembers(GameTable, inspect.isfunction) if not name.startswith("_")]
    differ = [name for name in methods if inspect.signature(getattr(GameTable, name)).parameters.keys()
              != inspect.signature(getattr(side, name)).parameters.keys() | {"self"}]
    assert methods and differ == []


def test_the_table_makes_the_start_order_and_every_shuffle_itself_from_a_secure_source(monkeypatch):
    picked: list[int] = []

    def below(total: int) -> int:
        picked.append(total)
        return total - 1

    monkeypatch.setattr("secrets.randbelow", below)
    table = Table(TopSpeed(Settings(NAMES[:3]), CIRCUIT, DECK))
    game = table.game
    assert [type(a).__name__ for a in game.log] == ["StartOrder", "Shuffle", "Shuffle", "Shuffle"]
    assert len(picked) == 4 and game.turn == game.race_order()[0]
    assert table.said[:2] == ["Starting order: Carla, Ben, Anna (Carla on the finish line)",
                              "The table shuffles Anna's deck (68 cards)"]
    assert table.said[-1] == "Carla, lap 1 of 10: draw a card? OK (NEXT for the other choices)"


def test_chance_step_takes_any_source_of_whole_numbers():
    game = TopSpeed(Settings(NAMES[:2]), CIRCUIT, DECK)
    assert str(chance_step(game, lambda total: 1)) == "start order 1"


def test_ok_draws_next_says_each_option_and_pass_passes():
    table = Table(race(3))
    stack(table.game, ANNA, "3")
    table.press("ok")
    assert table.said[-2:] == ["Anna draws a 3", "Ben, lap 1 of 10: draw a card? OK (NEXT for the other choices)"]
    table.press("next")
    assert table.said[-1] == "Ben, lap 1 of 10: a pit stop (a new deck, and back in the movement)? OK " \
                             "(NEXT for the other choices)"
    table.press("next")
    assert table.said[-1].startswith("Ben, lap 1 of 10: draw a card?")
    stack(table.game, BEN, "2")
    table.press("ok")
    stack(table.game, CARLA, "2")
    table.press("ok")
    table.press("pass")
    assert table.said[-2:] == ["Anna passes", "Ben, lap 1 of 10: draw a card? OK (NEXT for the other choices)"]
    assert table.controller.refusals == 0


def test_pass_before_drawing_and_a_minicard_laid_are_refused_with_their_words():
    table = Table(race(3))
    table.press("pass")
    assert table.said[-1] == "Anna must draw a card before passing"
    table.controller.handle(TagLaid("seats", b"\x04\x01\x02\x03\x04\x05\x06"))
    assert table.said[-1] == table_side.VIRTUAL_DECKS
    assert table.controller.refusals == 2 and table.game.log[-1].__class__.__name__ == "Shuffle"


def test_undo_takes_back_a_pass_but_never_a_draw_nor_a_shuffle():
    table = Table(race(3))
    table.press("undo", held=True)
    assert table.said[-1] == table_side.SHUFFLE_STANDS
    stack(table.game, ANNA, "3")
    table.press("ok")
    table.press("undo", held=True)
    assert table.said[-1] == table_side.DRAWN_STANDS and table.game.log[-1] == Draw(ANNA)
    for seat in (BEN, CARLA):
        stack(table.game, seat, "1")
        table.press("ok")
    table.press("pass")
    assert table.game.log[-1] == Pass(ANNA)
    table.press("undo", held=True)
    assert table.game.log[-1] == Draw(CARLA) and "took back the pass" in table.said
    assert table.said[-1].startswith("Anna, lap 1 of 10: draw a card?")


def test_a_pit_stop_is_shuffled_by_the_table_and_then_stands():
    table = Table(race(3))
    table.choose("a pit stop")
    assert table.said[-3:-1] == ["Anna declares a pit stop: a new deck, and 8 spaces back",
                                 "The table shuffles Anna's deck (68 cards)"]
    table.press("undo", held=True)
    assert table.said[-1] == table_side.SHUFFLE_STANDS


def test_kers_names_the_green_card_to_its_player_and_a_card_kept_apart_may_be_taken_back():
    table = Table(race(2, kers=True))
    stack(table.game, ANNA, "4")
    table.press("ok")
    assert table.said[-1] == "Anna, lap 1 of 10: keep a 4 apart (KERS)? OK (NEXT for the other choices)"
    table.press("ok")
    assert table.said[-2] == "Anna keeps a green card apart (KERS)"
    table.press("undo", held=True)
    assert "took back the card kept apart: keep it or leave it" in table.said
    table.choose("leave a 4 in the row")
    assert "Anna draws a 4" in table.said
    table.press("undo", held=True)
    assert table.said[-1] == table_side.LAID_STANDS


def test_yellow_flags_hold_a_car_up_and_the_table_says_so():
    table = Table(race(2, order=[BEN, ANNA]))
    place(table.game, Anna=0, Ben=2)
    stack(table.game, BEN, "yellow_flag", "1")
    stack(table.game, ANNA, "yellow_flag", "4")
    for _ in range(4):
        table.press("ok")
    assert "Two Yellow Flags on the table: no overtaking this round" in table.said
    table.press("pass")
    table.press("pass")
    assert "Anna goes 2 spaces forward (of 4: held up, no overtaking under the Yellow Flags): space 0 to 2" \
        in table.said
    assert "Round 2: lap 2 of 10" in table.said


def test_the_safety_car_and_its_rounds_are_said():
    game = race(2, order=[BEN, ANNA])
    place(game, Anna=0, Ben=6)
    table = Table(game)
    stack(game, BEN, "safety_car", "2")
    stack(game, ANNA, "safety_car", "3")
    for _ in range(4):
        table.press("ok")
    table.press("pass")
    table.press("pass")
    said = " / ".join(table.said)
    assert "Two Safety Cars on the table: the safety car comes out after the movement" in said
    assert "The safety car is out: the cars close up" in said
    assert "Round 2: lap 2 of 10, behind the safety car, 2 more rounds to come" in said
    assert table.said[-1] == "Ben, lap 2 of 10, behind the safety car: draw a card? OK (NEXT for the other choices)"


# --- the LEDs -----------------------------------------------------------------------------------------

@pytest.fixture
def view():
    return TopSpeedView(load_profile("montmelo", CIRCUIT))


def test_the_profile_is_the_loop_the_finish_line_and_the_lap_counter():
    profile = load_profile("montmelo", CIRCUIT)
    assert profile.led_count == CIRCUIT.spaces + 1 + 10 and not profile.calibrated
    assert LoopLayout(CIRCUIT, "montmelo").cells[CIRCUIT.spaces] == "finish"


def test_cars_in_their_colours_the_finish_line_and_the_lap_counter(view):
    game = race(3, order=[ANNA, BEN, CARLA], laps=5)
    frame = view.frame(game, None, 0.0)
    cars = seat_cars(3)
    assert frame[0] == cars[ANNA].rgb and frame[31] == cars[BEN].rgb and frame[30] == cars[CARLA].rgb
    assert frame[32] != (0, 0, 0)
    game.lap = 3  # of 5: six tenths of the race
    lit = [led for led in range(33, 43) if view.frame(game, None, 0.0)[led] != (0, 0, 0)]
    assert lit == list(range(33, 39))


def test_the_yellow_wash_covers_the_loop_while_two_flags_lie_on_the_table(view):
    game = race(2, order=[ANNA, BEN])
    stack(game, ANNA, "yellow_flag")
    stack(game, BEN, "yellow_flag")
    game.apply(Draw(ANNA))
    assert view.frame(game, None, 0.0)[10] == (0, 0, 0)
    game.apply(Draw(BEN))
    assert game.table_count(Kind.YELLOW_FLAG) == 2
    assert view.frame(game, None, 0.0)[10] == dim(FLAG, WASH)


def test_the_pace_light_goes_round_while_the_safety_car_is_out(view):
    game = race(2, order=[ANNA, BEN])
    assert PACE not in view.frame(game, None, 0.0)
    game.safety_car_rounds = 3
    assert view.frame(game, None, 5 * PACE_STEP)[5] == PACE
    assert view.frame(game, None, 6 * PACE_STEP)[6] == PACE and view.frame(game, None, 6 * PACE_STEP)[5] != PACE


def test_a_lapped_car_blinks(view):
    game = race(2, order=[ANNA, BEN])
    place(game, Anna=LAP + 10, Ben=5)
    game.lapped[BEN] = True
    ben = seat_cars(2)[BEN].rgb
    assert view.frame(game, None, 0.0)[5] == ben
    assert view.frame(game, None, BLINK * 0.75)[5] == (0, 0, 0)
    assert view.frame(game, None, BLINK * 1.25)[5] == ben
