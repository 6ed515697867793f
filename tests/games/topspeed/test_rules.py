"""TOP SPEED's rules, one at a time, on the shipped circuit and deck (each reading in
docs/rules-topspeed.md has its test here, named after it)."""

from __future__ import annotations

import json
import math

import pytest

from toprace_pi.errors import IllegalActionError
from toprace_pi.games.topspeed.render.palette import seat_cars
from toprace_pi.games.topspeed.rules import (
    DrawCard,
    HiddenShuffle,
    Kind,
    RoundEnd,
    Settings,
    Stage,
    StartOrder,
    TopSpeed,
    card_of,
)
from toprace_pi.games.topspeed.rules import events as ev
from toprace_pi.games.topspeed.table.minicards import Minicards

from .helpers import CIRCUIT, DECK, LAP, NAMES, conserved, place, play, play_round, race, stack

ANNA, BEN, CARLA = 0, 1, 2


def moves(game) -> list[tuple[int, int, str]]:
    """(seat, spaces moved, why) of the last round's moves."""
    return [(e.seat, e.moved, e.why) for e in game.events if isinstance(e, ev.Moved)]


def state(game) -> str:
    return json.dumps(game.to_dict(), sort_keys=True)


# --- the setup ---------------------------------------------------------------------------------

def test_the_setup_is_chance_first_the_starting_order_then_each_deck_shuffled():
    game = TopSpeed(Settings(NAMES[:3]), CIRCUIT, DECK)
    assert game.decision.chance and game.chance_outcomes().total == math.factorial(3)
    game.apply(game.chance_outcomes()[4])
    for seat in range(3):
        outcomes = game.chance_outcomes()
        assert outcomes.total == math.factorial(68) and str(outcomes[0]) == f"shuffle {seat} 0"
        game.apply(outcomes[12345])
    assert game.decision.seats == (game.race_order()[0],) and game.stage is Stage.RACE


def test_the_grid_is_single_file_the_first_car_on_the_finish_line_space():
    game = race(3, order=[BEN, CARLA, ANNA])
    assert game.race_order() == [BEN, CARLA, ANNA]
    assert [game.circuit.space(game.progress[s]) for s in (BEN, CARLA, ANNA)] == [0, LAP - 1, LAP - 2]
    assert game.turn == BEN and game.lap == 1 and game.round == 1


def test_a_normal_race_takes_a_safety_car_a_yellow_flag_an_off_track_and_the_blank_out_of_each_deck():
    normal, wet = race(2), race(2, race="wet")
    assert normal.deck_size == 68 and wet.deck_size == 71
    assert race(2, race="wet", blank_card=True).deck_size == 72
    custom = race(2, race="custom", removed=("drive_through", "drive_through", "4"))
    assert custom.deck_size == 68 and sum(c.kind is Kind.DRIVE_THROUGH for c in custom.decks[0]) == 1


# --- the draw phase -------------------------------------------------------------------------------

def test_a_turn_is_a_draw_a_pass_only_after_a_draw_or_a_pit_stop_only_before():
    game = race(2)
    assert [str(a) for a in game.legal_actions()] == ["draw 0", "pit stop 0"]
    before = state(game)
    with pytest.raises(IllegalActionError, match="must draw a card before passing"):
        game.apply(game.parse("pass 0"))
    with pytest.raises(IllegalActionError, match="not Ben's turn: Anna's turn"):
        game.apply(game.parse("draw 1"))
    assert state(game) == before
    stack(game, ANNA, "2")
    play(game, "draw 0")
    play(game, "draw 1")
    assert [str(a) for a in game.legal_actions()] == ["draw 0", "pass 0"]
    with pytest.raises(IllegalActionError, match="a pit stop only before drawing"):
        game.apply(game.parse("pit stop 0"))


def test_turns_go_round_in_race_order_until_every_round_has_ended():
    game = race(3, order=[CARLA, ANNA, BEN])
    stack(game, CARLA, "1", "2")
    stack(game, ANNA, "1")
    stack(game, BEN, "1", "2", "3")
    turns = []
    for move in ("draw", "draw", "draw", "draw", "pass", "draw", "pass", "draw", "pass"):
        turns.append(game.turn)
        play(game, f"{move} {game.turn}")
    assert turns == [CARLA, ANNA, BEN, CARLA, ANNA, BEN, CARLA, BEN, BEN]
    assert game.round == 2


def test_two_identical_trouble_cards_end_the_round_with_no_movement():
    game = race(2)
    play_round(game, {ANNA: ["3", "off_track", "4", "off_track"], BEN: ["2"]})
    assert game.progress[ANNA] == 0 and moves(game) == [(BEN, 2, "cards")]
    out = [e for e in game.events if isinstance(e, ev.OutOfRound)]
    assert out == [ev.OutOfRound(ANNA, Kind.OFF_TRACK)]
    assert len(game.discards[ANNA]) == 4 and game.damage[ANNA] == ()


def test_a_single_trouble_card_does_nothing_by_itself():
    game = race(2)
    play_round(game, {ANNA: ["tire_trouble", "engine_trouble", "drive_through", "off_track", "3"], BEN: ["1"]})
    assert moves(game)[0] == (ANNA, 3, "cards") and game.damage[ANNA] == ()


def test_a_pair_of_tire_or_engine_troubles_puts_one_in_the_damage_row_costing_a_point_each_round():
    game = race(2)
    play_round(game, {ANNA: ["tire_trouble", "tire_trouble"], BEN: ["1"]})
    play_round(game, {ANNA: ["engine_trouble", "2", "engine_trouble"], BEN: ["1"]})
    assert [c.word for c in game.damage[ANNA]] == ["tire_trouble", "engine_trouble"]
    assert game.discards[ANNA].count(card_of("engine_trouble")) == 1
    play_round(game, {ANNA: ["4", "1"], BEN: ["1"]})
    assert moves(game)[-2] == (ANNA, 3, "cards")  # 5 points less 2 for the damage row
    play_round(game, {ANNA: ["1"], BEN: ["1"]})
    assert game.points(ANNA) == 0 and moves(game)[-1][0] == BEN  # never below 0: Anna does not move


# --- the movement phase ------------------------------------------------------------------------

def test_a_car_landing_on_a_taken_space_goes_to_the_free_space_behind_and_further_if_needed():
    game = race(3)
    place(game, Anna=10, Ben=9, Carla=3)
    play_round(game, {ANNA: ["off_track", "off_track"], BEN: ["off_track", "off_track"], CARLA: ["3", "4"]})
    assert game.progress[CARLA] == 8 and moves(game) == [(CARLA, 5, "cards")]


def test_two_yellow_flags_on_the_table_stop_a_car_behind_the_car_it_would_pass():
    game = race(3)
    place(game, Anna=10, Ben=5, Carla=3)
    play_round(game, {ANNA: ["yellow_flag"], BEN: ["yellow_flag"], CARLA: ["4", "4"]})
    assert game.progress[CARLA] == 4 and moves(game) == [(CARLA, 1, "cards")]
    assert ev.TableCards(Kind.YELLOW_FLAG) in game.events
    texts = [event.text(game.names) for event in game.events if isinstance(event, ev.Moved)]
    assert texts[-1] == "Carla goes 1 space forward (of 8: held up, no overtaking under the Yellow Flags): space 3 to 4"
    play_round(game, {ANNA: ["yellow_flag"], BEN: ["yellow_flag"], CARLA: ["2"]})  # Ben stands right ahead now
    texts = [event.text(game.names) for event in game.events if isinstance(event, ev.Moved)]
    assert texts[-1] == "Carla stays on space 4 (held up, no overtaking under the Yellow Flags: 2 spaces lost)"


def test_one_yellow_flag_does_not_stop_overtaking():
    game = race(3)
    place(game, Anna=10, Ben=5, Carla=3)
    play_round(game, {ANNA: ["yellow_flag"], BEN: ["1"], CARLA: ["4", "4"]})
    assert game.progress[CARLA] == 11 and game.race_order()[0] == CARLA


def test_no_overtaking_under_yellow_flags_counts_a_lapped_car_on_the_track_too():
    circuit = race(2).circuit
    assert circuit.forward(LAP + 6, 5, [7], overtaking=False) == LAP + 6  # the lapped car is the next one
    assert circuit.forward(LAP + 6, 5, [7], overtaking=True) == LAP + 11


def test_the_lead_car_crossing_the_line_moves_the_lap_counter_on():
    game = race(2)
    place(game, Anna=LAP - 4)
    play_round(game, {ANNA: ["4", "4"], BEN: ["1"]})
    assert game.progress[ANNA] == LAP + 4 and game.lap == 3  # and once more at the next round's start
    assert ev.LeaderCrossed(ANNA, 2) in game.events


def test_the_lap_counter_and_the_line_a_car_crossing_into_a_lap_already_begun_does_not_move_it():
    game = race(2)  # Ben starts behind the line, in the lap Anna has begun
    play_round(game, {ANNA: ["1"], BEN: ["4"]})
    assert game.circuit.lap(game.progress[BEN]) == 0 and game.race_order()[0] == BEN
    assert game.lap == 2 and not any(isinstance(e, ev.LeaderCrossed) for e in game.events)


def test_a_pit_stop_takes_every_card_into_a_new_deck_and_the_car_back_8_and_2_per_engine_trouble():
    game = race(2)
    place(game, Anna=20)
    play_round(game, {ANNA: ["engine_trouble", "engine_trouble"], BEN: ["1"]})
    play_round(game, {ANNA: ["2"], BEN: ["1"]})
    assert len(game.discards[ANNA]) == 2 and len(game.damage[ANNA]) == 1
    play(game, "pit stop 0")
    assert game.decks[ANNA] and len(game.decks[ANNA]) == 68 and game.discards[ANNA] == game.damage[ANNA] == ()
    assert [e for e in game.events if isinstance(e, ev.Shuffled)][-1] == ev.Shuffled(ANNA, 68)
    stack(game, BEN, "1")
    play(game, "draw 1", "pass 1")
    assert moves(game)[-2] == (ANNA, -10, "pit stop") and game.progress[ANNA] == 20 + 1 - 10


def test_a_pit_stop_back_over_the_line_leaves_the_lap_counter_and_a_second_crossing_does_not_count():
    game = race(2)
    place(game, Anna=LAP - 4)
    play_round(game, {ANNA: ["4", "4"], BEN: ["1"]})
    assert game.lap == 3  # crossing, and the second round's start
    play_round(game, {ANNA: ["pit stop"], BEN: ["1"]})
    assert game.progress[ANNA] == LAP - 4 and game.lap == 4  # the third round's start only
    play_round(game, {ANNA: ["4", "4"], BEN: ["1"]})
    assert game.progress[ANNA] == LAP + 4 and game.lap == 5


def test_overtaking_when_moving_backwards_a_car_sent_back_drops_behind_cars_under_yellow_flags():
    game = race(3)
    place(game, Anna=20, Ben=16, Carla=12)
    play_round(game, {ANNA: ["pit stop"], BEN: ["yellow_flag"], CARLA: ["yellow_flag"]})
    assert game.progress[ANNA] == 11 and game.race_order() == [BEN, CARLA, ANNA]
    moved = [event for event in game.events if isinstance(event, ev.Moved) and event.seat == ANNA][-1]
    assert moved.text(game.names) == ("Anna goes 9 spaces back (pit stop; 8 spaces and 1 more, as a car stood there): "
                                      "space 20 to 11")


def test_drive_through_only_in_pairs_sends_the_car_5_back_whatever_its_damage():
    game = race(2)
    place(game, Anna=20)
    play_round(game, {ANNA: ["tire_trouble", "tire_trouble"], BEN: ["1"]})
    play_round(game, {ANNA: ["drive_through", "3"], BEN: ["1"]})
    assert moves(game)[-2] == (ANNA, 2, "cards")  # one Drive Through: nothing
    play_round(game, {ANNA: ["4", "drive_through", "drive_through"], BEN: ["1"]})
    assert moves(game)[-2] == (ANNA, -5, "drive through") and game.progress[ANNA] == 17


def test_played_cards_go_to_the_discard_pile_after_the_movement_phase_damage_stays():
    game = race(2)
    play_round(game, {ANNA: ["3", "tire_trouble", "2", "tire_trouble"], BEN: ["1"]})
    assert sorted(c.word for c in game.discards[ANNA]) == ["2", "3", "tire_trouble"]
    assert [c.word for c in game.damage[ANNA]] == ["tire_trouble"] and game.rows == [(), ()]


def test_a_deck_that_runs_out_must_pass_after_a_draw_or_make_a_pit_stop():
    game = race(2)
    game.discards[ANNA] += game.decks[ANNA]
    game.decks[ANNA] = ()
    stack(game, ANNA, "2")  # the one card left
    play(game, "draw 0", "draw 1")
    assert [str(a) for a in game.legal_actions()] == ["pass 0"]
    with pytest.raises(IllegalActionError, match="deck is empty: pass"):
        game.apply(game.parse("draw 0"))
    play(game, "pass 0", "pass 1")
    assert [str(a) for a in game.legal_actions()] == ["pit stop 0"]
    play(game, "pit stop 0")
    assert len(game.decks[ANNA]) == 68 and conserved(game)


def test_lapped_cars_are_marked_until_they_catch_up():
    game = race(2)
    place(game, Anna=LAP + 20, Ben=20)
    play_round(game, {ANNA: ["1"], BEN: ["1"]})
    assert game.lapped == [False, True] and ev.Lapped(BEN, True) in game.events
    play_round(game, {ANNA: ["off_track", "off_track"], BEN: ["4"]})
    assert game.lapped == [False, False] and ev.Lapped(BEN, False) in game.events


# --- the safety car -----------------------------------------------------------------------------

def test_two_safety_cars_bring_it_out_the_cars_close_up_and_three_rounds_of_one_card_and_pit_stops():
    game = race(3)
    place(game, Anna=20, Ben=12, Carla=4)
    play_round(game, {ANNA: ["safety_car", "2"], BEN: ["safety_car"], CARLA: ["1"]})
    assert game.progress == [22, 21, 20] and game.under_safety_car and game.safety_car_rounds == 2
    assert moves(game)[-2:] == [(BEN, 9, "safety car"), (CARLA, 15, "safety car")]
    assert ev.SafetyCar(out=True) in game.events
    lap = game.lap
    assert game.under_safety_car and [str(a) for a in game.legal_actions()] == ["draw 0", "pit stop 0"]
    play(game, "draw 0")  # drawn and discarded: the round is over for Anna
    assert game.rows[ANNA] == () and len(game.discards[ANNA]) == 3 and game.turn == BEN
    play(game, "pit stop 1", "draw 2")
    assert game.lap == lap + 1 and game.race_order() == [ANNA, CARLA, BEN]
    assert game.progress == [22, 20, 21]  # Ben went 8 back, then all closed up again
    play_round(game, {ANNA: ["safety_car"], BEN: ["safety_car"], CARLA: ["4"]})  # no effect under it
    play_round(game, {ANNA: ["4"], BEN: ["4"], CARLA: ["4"]})
    assert game.progress == [22, 20, 21] and not game.under_safety_car and ev.SafetyCar(out=False) in game.events
    play_round(game, {ANNA: ["1"], BEN: ["1"], CARLA: ["1"]})
    assert game.progress == [23, 21, 22]


def test_the_safety_car_keeps_a_lapped_car_lapped_closing_it_up_on_the_track():
    game = race(3)
    place(game, Anna=LAP + 10, Ben=LAP + 2, Carla=5)
    play_round(game, {ANNA: ["safety_car"], BEN: ["safety_car"], CARLA: ["1"]})
    assert game.progress == [LAP + 10, LAP + 9, 8] and game.lapped[CARLA]


def test_the_race_can_end_behind_the_safety_car():
    game = race(2, laps=3)
    play_round(game, {ANNA: ["safety_car"], BEN: ["safety_car"]})
    play_round(game, {ANNA: ["1"], BEN: ["1"]})
    assert game.is_over and game.under_safety_car and game.winners() == [ANNA]


# --- the end -------------------------------------------------------------------------------------

def test_the_race_ends_at_once_when_the_counter_reaches_the_race_laps_at_a_rounds_start():
    game = race(2, laps=2, order=[BEN, ANNA])
    play_round(game, {BEN: ["1"], ANNA: ["4"]})
    assert game.is_over and game.lap == 2 and game.decision.is_terminal and game.legal_actions() == []
    assert game.winners() == [ANNA] and game.events[-1] == ev.RaceEnded((ANNA, BEN))


def test_the_race_ends_at_once_when_the_lead_car_crossing_the_line_brings_the_counter_to_the_laps():
    game = race(2, laps=2)
    place(game, Anna=LAP - 2, Ben=LAP - 3)
    play_round(game, {ANNA: ["3"], BEN: ["4", "4"]})
    assert game.is_over and game.lap == 2 and game.progress == [LAP + 1, LAP - 3]  # Ben did not move
    assert game.winners() == [ANNA]


# --- the advanced rules --------------------------------------------------------------------------

def test_qualifying_orders_the_grid_by_fastest_lap_and_returns_every_card_to_the_decks():
    game = race(3, qualifying=True)
    assert game.stage is Stage.QUALIFYING and game.turn == ANNA
    play_round(game, {ANNA: ["4", "4"], BEN: ["2"], CARLA: ["sit out"]})
    assert game.qualifying_times == [8, 2, 0]
    play_round(game, {ANNA: ["sit out"], BEN: ["4", "4", "3"], CARLA: ["tire_trouble", "3", "tire_trouble"]})
    assert game.qualifying_times == [8, 11, 0] and len(game.damage[CARLA]) == 1
    play_round(game, {ANNA: ["sit out"], BEN: ["sit out"], CARLA: ["sit out"]})  # nobody: it ends now
    assert game.stage is Stage.RACE and game.race_order() == [BEN, ANNA, CARLA]
    assert all(len(deck) == 68 for deck in game.decks) and game.damage == [(), (), ()]
    assert ev.QualifyingEnded((8, 11, 0)) in game.events


def test_qualifying_lasts_up_to_5_laps_movement_less_damage_with_no_flag_or_safety_car():
    game = race(2, qualifying=True)
    play_round(game, {ANNA: ["safety_car", "2"], BEN: ["safety_car", "engine_trouble", "engine_trouble"]})
    play_round(game, {ANNA: ["yellow_flag", "3"], BEN: ["yellow_flag", "4"]})
    assert game.qualifying_times == [3, 3] and not any(isinstance(e, ev.TableCards) for e in game.events)
    for _ in range(2):
        play_round(game, {ANNA: ["1"], BEN: ["1"]})
    stack(game, ANNA, "1")
    stack(game, BEN, "1")
    for move in ("draw 0", "draw 1", "pass 0", "pass 1", "shuffle 0 0", "shuffle 1 0"):
        game.apply(game.parse(move))
    assert game.qualifying_lap == 5 and game.stage is Stage.SETUP
    assert game.chance_outcomes().total == 2  # a tie: chance orders the two
    with pytest.raises(IllegalActionError, match="no pit stops|not Anna's turn"):
        game.apply(game.parse("pit stop 0"))


def test_qualifying_has_no_pit_stop_a_player_makes_no_lap_instead_only_before_drawing():
    game = race(2, qualifying=True)
    assert [str(a) for a in game.legal_actions()] == ["draw 0", "sit out 0"]
    with pytest.raises(IllegalActionError, match="no pit stops in the qualifying"):
        game.apply(game.parse("pit stop 0"))
    stack(game, ANNA, "1")
    play(game, "draw 0", "draw 1")
    with pytest.raises(IllegalActionError, match="no lap is chosen before drawing"):
        game.apply(game.parse("sit out 0"))


def test_fastest_lap_moves_each_car_on_at_the_end_and_can_change_the_winner():
    game = race(3, laps=3, fastest_lap=True)
    place(game, Ben=20, Carla=10, Anna=5)
    play_round(game, {BEN: ["1"], CARLA: ["4", "4", "2"], ANNA: ["1"]})
    assert game.progress == [6, 21, 20] and game.fastest == [1, 1, 10]
    play_round(game, {BEN: ["1"], CARLA: ["1"], ANNA: ["1"]})
    assert game.is_over and game.progress == [8, 23, 31] and game.winners() == [CARLA]
    assert [m for m in moves(game) if m[2] == "fastest lap"] == [(BEN, 1, "fastest lap"),
                                                                   (CARLA, 10, "fastest lap"),
                                                                   (ANNA, 1, "fastest lap")]


def test_fastest_lap_counts_the_spaces_actually_moved():
    game = race(3, fastest_lap=True)
    place(game, Anna=10, Ben=5, Carla=3)
    play_round(game, {ANNA: ["yellow_flag"], BEN: ["yellow_flag"], CARLA: ["4", "4"]})
    assert game.fastest[CARLA] == 1


def test_kers_keeps_a_green_card_apart_in_secret_for_a_later_round():
    game = race(2, kers=True)
    stack(game, ANNA, "3", "1")
    play(game, "draw 0")
    assert [str(a) for a in game.legal_actions()] == ["keep 0", "leave 0"]
    assert game.view(ANNA)["my_drawn"] == "3" and game.view(BEN)["my_drawn"] is None
    play(game, "keep 0")
    assert ev.KeptApart(ANNA) in game.events and game.view(BEN)["keeps_a_card"] == [True, False]
    assert game.view(ANNA)["my_kept"] == "3" and game.view(BEN)["my_kept"] is None
    assert game.seen_by(BEN).kept == [None, None] and game.seen_by(ANNA).kept == [card_of("3"), None]
    play(game, "draw 1", "draw 0")  # Ben draws an Off Track, the top card of a deck in its file's order
    assert "use kept 0" not in [str(a) for a in game.legal_actions()]  # kept this round
    play(game, "pass 1", "pass 0")
    assert game.progress[ANNA] == 1
    stack(game, ANNA, "2")
    play(game, "use kept 0")
    assert [c.word for c in game.rows[ANNA]] == ["3"] and game.kept[ANNA] is None
    play(game, "draw 1", "draw 0")  # a green card, but a kept card was used this round: no keeping
    assert [c.word for c in game.rows[ANNA]] == ["3", "2"] and game.drawn[ANNA] is None
    play(game, "pass 1", "pass 0")
    assert game.progress[ANNA] == 6


def test_kers_one_card_kept_at_a_time_and_none_under_the_safety_car():
    game = race(2, kers=True)
    stack(game, ANNA, "3", "4")
    play(game, "draw 0", "keep 0", "draw 1", "draw 0")
    assert game.drawn[ANNA] is None and [c.word for c in game.rows[ANNA]] == ["4"]
    play(game, "pass 1")
    with pytest.raises(IllegalActionError, match="no green card just drawn to keep"):
        game.apply(game.parse("keep 0"))
    game.safety_car_rounds = 1
    play(game, "pass 0")
    assert game.under_safety_car and [str(a) for a in game.legal_actions()] == ["draw 0", "pit stop 0"]
    with pytest.raises(IllegalActionError, match="under the safety car"):
        game.apply(game.parse("use kept 0"))


def test_kers_a_kept_card_stays_apart_through_a_pit_stop():
    game = race(2, kers=True)
    stack(game, ANNA, "3")
    play(game, "draw 0", "keep 0", "pit stop 1", "pass 0")
    play(game, "pit stop 0")
    assert game.kept[ANNA] == card_of("3") and len(game.decks[ANNA]) == 67 and conserved(game)


def test_no_kers_no_keeping():
    game = race(2)
    stack(game, ANNA, "3")
    play(game, "draw 0")
    assert game.drawn[ANNA] is None and game.rows[ANNA] == (card_of("3"),)
    play(game, "draw 1")
    with pytest.raises(IllegalActionError, match="KERS is not played"):
        game.apply(game.parse("use kept 0"))


def test_the_blank_card_as_chaotic_weather_tire_troubles_act_as_off_track_until_two_more_blanks():
    game = race(3, blank_card=True)
    play_round(game, {ANNA: ["blank", "1"], BEN: ["blank", "1"], CARLA: ["tire_trouble", "3", "off_track"]})
    assert game.chaotic_weather and ev.TableCards(Kind.BLANK, chaotic=True) in game.events
    assert ev.OutOfRound(CARLA, Kind.OFF_TRACK) in game.events
    play_round(game, {ANNA: ["tire_trouble", "tire_trouble"], BEN: ["1"], CARLA: ["1"]})
    assert game.damage[ANNA] == ()  # a pair of "Off Tracks": out, no damage card
    play_round(game, {ANNA: ["blank", "1"], BEN: ["1"], CARLA: ["blank", "1"]})
    assert not game.chaotic_weather
    play_round(game, {ANNA: ["tire_trouble", "tire_trouble"], BEN: ["1"], CARLA: ["1"]})
    assert [c.word for c in game.damage[ANNA]] == ["tire_trouble"]


def test_the_blank_card_is_out_of_the_decks_unless_its_rule_is_played():
    assert all(card.kind is not Kind.BLANK for card in race(2).decks[0])
    assert sum(card.kind is Kind.BLANK for card in race(2, blank_card=True).decks[0]) == 1


# --- notation and the end of a turn ------------------------------------------------------------

def test_every_action_reads_back_from_its_notation():
    game = race(2, kers=True, qualifying=True)
    for text in ("draw 3", "pass 0", "pit stop 1", "keep 2", "leave 2", "use kept 7", "sit out 1",
                 "start order 5", "shuffle 1 " + "9" * 104):
        assert str(game.parse(text)) == text
    for bad in ("draw", "draw x", "pit 1", "shuffle 1", "jump 1"):
        with pytest.raises(ValueError, match="not a TOP SPEED action"):
            game.parse(bad)


def test_a_refused_action_names_why_and_changes_nothing():
    from toprace_pi.games.topspeed.rules import Shuffle, StartOrder

    game = race(2)
    game.apply(game.parse("pit stop 0"))  # the new deck's shuffle is chance's now
    before = state(game)
    for action, why in ((StartOrder(0), "chance does not decide that now: the shuffle of Anna's deck"),
                        (Shuffle(0, math.factorial(68)), "outcome 2480.* of 2480.*: out of range"),
                        (Shuffle(1, 0), "chance does not decide that now"),
                        (game.parse("draw 1"), "not Ben's turn: the shuffle of Anna's deck"),
                        (game.parse("draw 5"), "there is no seat 5")):
        with pytest.raises(IllegalActionError, match=why):
            game.apply(action)
        assert state(game) == before
    assert game.seen_by(1).decision.chance and conserved(game)


def test_round_ends_are_told():
    game = race(2)
    play(game, "pit stop 0")
    assert game.ends[ANNA] is RoundEnd.PIT_STOP and game.view(None)["round_ended"][ANNA] == "PIT_STOP"


def test_qualifying_a_player_whose_deck_runs_out_before_drawing_makes_no_lap():
    game = race(2, qualifying=True)
    game.discards[ANNA] += game.decks[ANNA]
    game.decks[ANNA] = ()
    assert [str(a) for a in game.legal_actions()] == ["sit out 0"]


def test_fastest_lap_counts_neither_closing_up_behind_the_safety_car_nor_the_qualifying():
    game = race(3, fastest_lap=True, qualifying=True)
    play_round(game, {ANNA: ["4", "4", "4"], BEN: ["1"], CARLA: ["1"]})
    play_round(game, {ANNA: ["sit out"], BEN: ["sit out"], CARLA: ["sit out"]})
    assert game.stage is Stage.RACE and game.fastest == [0, 0, 0] and game.qualifying_times == [12, 1, 1]
    place(game, Anna=20, Ben=10, Carla=2)
    play_round(game, {ANNA: ["safety_car", "1"], BEN: ["safety_car", "2"], CARLA: ["3"]})
    assert game.progress == [21, 20, 19] and game.fastest == [1, 2, 3]


def test_kers_laying_the_kept_card_counts_as_a_draw_no_pit_stop_after_it():
    game = race(2, kers=True)
    stack(game, ANNA, "3")
    play(game, "draw 0", "keep 0", "draw 1", "pass 0", "pass 1")
    play(game, "use kept 0")
    play(game, "draw 1")
    assert [str(a) for a in game.legal_actions()] == ["draw 0", "pass 0"]


def test_the_blank_card_as_an_extra_card_is_one_more_of_that_card_in_every_deck():
    """A normal race keeps one Safety Car a deck; the blank played as a Safety Car makes it two, so one
    player's row can hold a pair: it ends her round and, two on the table, brings the safety car out."""
    game = race(2, blank_as="safety_car")
    assert game.deck_size == 69 and all(card.kind is not Kind.BLANK for card in game.decks[BEN])
    assert game.composition["safety_car"] == 2 == sum(card.kind is Kind.SAFETY_CAR for card in game.decks[ANNA])
    place(game, Anna=20, Ben=10)
    play_round(game, {ANNA: ["safety_car", "3", "safety_car"], BEN: ["1"]})
    assert ev.OutOfRound(ANNA, Kind.SAFETY_CAR) in game.events and ev.SafetyCar(out=True) in game.events
    assert game.progress == [20, 19] and conserved(game)
    assert race(2, race="wet", blank_as="2").composition["2"] == DECK.composition()["2"] + 1


def test_the_blank_card_as_an_extra_card_is_where_the_blank_lies_in_the_deck_file():
    """A physical deck's minicard is known by its place in the deck file: the blank's place reads as the
    extra card, so the blank minicard laid on the reader is drawn as that card."""
    blank = DECK.cards.index(card_of("blank"))
    game = race(2, blank_as="yellow_flag")
    assert game.deck.cards[blank] == card_of("yellow_flag") and DECK.cards[blank] == card_of("blank")
    assert game.deck.cards[:blank] == DECK.cards[:blank] and game.deck.cards[blank + 1:] == DECK.cards[blank + 1:]


def test_the_blank_card_as_a_replacement_is_drawn_as_the_lost_card_and_adds_none():
    """In place of a lost 3, the blank minicard laid on the reader of a deck shuffled by hand is drawn as
    a 3; the decks hold the 3s of their file, the blank among them, and no card more."""
    game = TopSpeed(Settings(NAMES[:2], blank_as="3", blank_replaces=True), CIRCUIT, DECK)
    game.apply(StartOrder(0))
    for seat in (ANNA, BEN):
        game.apply(HiddenShuffle(seat))
    assert game.composition == race(2).composition and game.deck_size == 68
    blank_minicard = ("minicard", (seat_cars(2)[ANNA].id, DECK.cards.index(card_of("blank")) + 1))
    step = Minicards().laid(game, ANNA, blank_minicard)
    assert step == [DrawCard(ANNA, "3")]
    game.apply(step[0])
    assert game.rows[ANNA] == (card_of("3"),) and game.decks[ANNA].count(card_of("3")) == DECK.composition()["3"] - 1


def test_the_blank_card_a_third_blank_in_the_same_round_changes_nothing():
    game = race(3, blank_card=True)
    play_round(game, {ANNA: ["blank"], BEN: ["blank"], CARLA: ["blank"]})
    assert game.chaotic_weather
    assert [e for e in game.events if isinstance(e, ev.TableCards)] == [ev.TableCards(Kind.BLANK, chaotic=True)]


def test_the_blank_card_damage_taken_before_the_weather_turns_stays_and_the_qualifyings_weather_holds():
    game = race(2, blank_card=True, qualifying=True)
    play_round(game, {ANNA: ["tire_trouble", "tire_trouble"], BEN: ["1"]})
    play_round(game, {ANNA: ["blank", "1"], BEN: ["blank", "1"]})
    assert game.chaotic_weather and [c.word for c in game.damage[ANNA]] == ["tire_trouble"]
    play_round(game, {ANNA: ["sit out"], BEN: ["sit out"]})
    assert game.stage is Stage.RACE and game.chaotic_weather and game.damage == [(), ()]
