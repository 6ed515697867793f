"""AUTORACE at the table: the sealed choice laid face down, what is said and what is never said.

Every test plays through the demo's table (the real controller, the simulated seats' reader,
gpiozero's mock buttons and the LED view) on a fake clock, one input a second or more apart.
"""

from __future__ import annotations

import inspect
import logging

import pytest
from pace import PACE, Clock, run_loop

from toprace_pi.core import registry
from toprace_pi.games.autorace.rules import BANNER, Choose, Reveal, TakeBack
from toprace_pi.games.autorace.table.demo import build_demo_table, card_uid
from toprace_pi.games.autorace.table.side import ROUND_STANDS, SEALED_STANDS, AutoraceTable
from toprace_pi.hardware.events import ButtonPressed
from toprace_pi.table.side import GameTable

ANNA, BEN, CARLA, DAVID = range(4)


@pytest.fixture
def table():
    """A four-player table; ``table.said`` is every sentence it said, news and prompts."""
    clock = Clock()
    said: list[str] = []
    demo = build_demo_table(4, say=said.append, clock=clock)
    demo.said, demo.clock = said, clock
    yield demo
    demo.close()


def lay(demo, seat: int, card: int) -> None:
    """The player at ``seat`` lays ``card`` face down on the reader, lifts it, and a moment passes."""
    demo.lay(demo.seats, card_uid(seat, card))
    run_loop(demo, demo.clock, PACE)


def hold_undo(demo) -> None:
    demo.table.buttons.put(ButtonPressed("undo", held=True))
    demo.step()


def round_of(demo, cards: dict[int, int]) -> None:
    for seat, card in cards.items():
        lay(demo, seat, card)


def test_the_table_implements_every_method_the_protocol_names():
    side = registry.get("autorace").table()
    assert isinstance(side, AutoraceTable)
    wanted = {name for name, _ in inspect.getmembers(GameTable, inspect.isfunction) if not name.startswith("_")}
    for name in wanted:
        ours = inspect.signature(getattr(AutoraceTable, name))
        assert list(ours.parameters) == list(inspect.signature(getattr(GameTable, name)).parameters), name


def test_each_card_laid_is_a_sealed_choice_said_only_as_chosen_and_the_last_reveals_the_round(table):
    game = table.controller.game
    assert table.said[-1] == "round 1: Anna, Ben, Carla and David, lay your chosen card face down on the reader"
    lay(table, BEN, 4)
    assert table.said[-2:] == ["Ben has chosen",
                               "round 1: Anna, Carla and David, lay your chosen card face down on the reader"]
    assert game.sealed[BEN] == 4 and not any("4" in line for line in table.said)
    round_of(table, {ANNA: 7, DAVID: BANNER, CARLA: 7})
    assert game.log == [Choose(BEN, 4), Choose(ANNA, 7), Choose(DAVID, BANNER), Choose(CARLA, 7), Reveal()]
    reveal = table.said.index("Carla has chosen") + 1
    assert table.said[reveal:] == [
        "Revealed: Anna 7, Ben 4, Carla 7, David banner",
        "Anna pays a speeding fine of $2", "Carla pays a speeding fine of $2",
        "Anna drives from 0 to 7", "Ben drives from 0 to 4", "Carla drives from 0 to 7",
        "David stops for a round",
        "round 2: Anna, Ben, Carla and David, lay your chosen card face down on the reader",
    ]
    assert table.controller.refusals == 0


def test_another_card_of_a_seat_that_has_chosen_is_its_change_of_mind(table):
    game = table.controller.game
    lay(table, ANNA, 7)
    lay(table, ANNA, 3)
    assert game.log == [Choose(ANNA, 7), TakeBack(ANNA), Choose(ANNA, 3)] and game.sealed[ANNA] == 3
    assert table.said.count("Anna has chosen") == 2 and not any("takes" in line for line in table.said)
    round_of(table, {BEN: 1, CARLA: 2, DAVID: 2})
    assert "Revealed: Anna 3, Ben 1, Carla 2, David 2" in table.said and game.positions[ANNA] == 3


def test_the_same_card_read_again_is_no_input(table):
    """Laid again, or nudged where it lies so the reader reads it twice: nothing is said or taken."""
    lay(table, ANNA, 7)
    said, log = list(table.said), list(table.controller.game.log)
    lay(table, ANNA, 7)
    table.seats.lay(card_uid(ANNA, 7))
    table.step()
    table.seats.nudge()
    run_loop(table, table.clock, PACE)
    table.seats.lift()
    run_loop(table, table.clock, PACE)
    assert table.said == said and table.controller.game.log == log and table.controller.refusals == 0


@pytest.mark.parametrize("why", ["on the discard pile", "past the end"])
def test_a_card_that_cannot_be_played_is_refused_without_a_word_of_its_value(table, caplog, why):
    game = table.controller.game
    if why == "on the discard pile":
        round_of(table, {ANNA: 9, BEN: 1, CARLA: 1, DAVID: 1})
    else:
        game.positions[ANNA] = 66  # a 9 would take Anna past 72
    before, said = game.to_dict(), len(table.said)
    with caplog.at_level(logging.DEBUG, logger="toprace_pi"):
        lay(table, ANNA, 9)
    assert table.said[said:] == ["Anna: that card cannot be played now"]
    assert game.to_dict() == before and table.controller.refusals == 1
    logged = " ".join(record.getMessage() for record in caplog.records)
    assert "9" not in logged and "9" not in " ".join(table.said[said:])


def test_a_refused_change_of_mind_keeps_the_card_chosen_before(table):
    game = table.controller.game
    game.positions[ANNA] = 66
    lay(table, ANNA, 2)
    lay(table, ANNA, 9)
    assert table.said[-1] == "Anna: that card cannot be played now (the card chosen before stands)"
    assert game.sealed[ANNA] == 2 and game.log == [Choose(ANNA, 2)]


def test_a_card_of_a_colour_nobody_plays_or_of_a_seat_sitting_out_is_refused_by_the_rule(table):
    game = table.controller.game
    lay(table, 4, 5)  # the fifth set, purple, at a table of four
    assert table.said[-1] == "nobody plays that colour in this game" and game.log == []
    game.money[BEN] = 0
    round_of(table, {ANNA: 1, BEN: 10, CARLA: 1, DAVID: 1})
    assert "Ben cannot pay the speeding fine of $5 and misses the next round" in table.said
    log = list(game.log)
    lay(table, BEN, 5)
    assert table.said[-1] == "Ben misses this round" and game.log == log


def test_held_undo_never_takes_a_sealed_card_back_nor_a_revealed_round(table):
    game = table.controller.game
    hold_undo(table)
    assert table.said[-1] == "there is nothing to take back"
    lay(table, ANNA, 7)
    hold_undo(table)
    assert table.said[-1] == SEALED_STANDS == "a chosen card is taken back by laying another of your cards"
    assert game.sealed[ANNA] == 7
    round_of(table, {BEN: 1, CARLA: 2, DAVID: 3})
    log = list(game.log)
    hold_undo(table)
    assert table.said[-1] == ROUND_STANDS == "the cards are revealed: the round stands"
    assert game.log == log and game.positions[ANNA] == 7 and table.controller.refusals == 3


def test_rounds_nobody_chooses_in_are_revealed_by_themselves_one_after_another(table):
    """Every seat fined and unable to pay sits the next round out: that round has nothing to
    choose, so the table reveals it at once and asks for the round after."""
    game = table.controller.game
    for seat in range(4):
        game.money[seat] = 0
    round_of(table, {ANNA: 10, BEN: 10, CARLA: 10, DAVID: 10})
    assert game.log[-2:] == [Reveal(), Reveal()] and game.round == 3
    assert table.said[-1] == "round 3: Anna, Ben, Carla and David, lay your chosen card face down on the reader"
    assert all(f"{name} misses this round" in table.said for name in ("Anna", "Ben", "Carla", "David"))


def test_the_leds_light_the_figures_stations_and_objectives_never_a_sealed_card(table):
    game, view = table.controller.game, table.table.view
    lay(table, ANNA, 7)
    lay(table, BEN, 3)
    frames = set()
    for cards in ((7, 3), (2, 10), (BANNER, 1)):
        trial = game.clone()
        trial.sealed[ANNA], trial.sealed[BEN] = cards
        frames.add(tuple(view.frame(trial, None, table.clock())))
        frames.add(tuple(view.frame(trial.seen_by(None), None, table.clock())))
    assert len(frames) == 1
    assert table.strip.last == list(frames.pop())
