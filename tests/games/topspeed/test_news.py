"""TOP SPEED's news: the sentences its events say, read as a player hears them, each from a real round."""

from __future__ import annotations

from toprace_pi.games.topspeed.render.terminal import state_line
from toprace_pi.games.topspeed.rules import events as ev

from .helpers import LAP, place, play, play_round, race

ANNA, BEN = 0, 1


def said(game, kind: type) -> list[str]:
    return [event.text(game.names) for event in game.events if isinstance(event, kind)]


def test_a_drive_through_pair_says_the_car_goes_back_not_that_it_does_not_move():
    """The pair's line said "no movement" and the next "goes 5 spaces back": both now tell the penalty."""
    game = race(2)
    place(game, Anna=20)
    play_round(game, {ANNA: ["4", "drive_through", "drive_through"], BEN: ["1"]})
    assert said(game, ev.OutOfRound) == [
        "Anna has two Drive Through cards: done for the round, no move on the cards; "
        "the penalty takes the car 5 spaces back"]
    assert said(game, ev.Moved)[0] == "Anna goes 5 spaces back (the Drive Through penalty): space 20 to 15"


def test_a_drive_through_pair_in_the_qualifying_moves_nothing_and_says_so():
    game = race(2, qualifying=True)
    play_round(game, {ANNA: ["drive_through", "drive_through"], BEN: ["1"]})
    assert said(game, ev.OutOfRound) == ["Anna has two Drive Through cards: done for the round, no movement"]
    assert not said(game, ev.Moved)


def test_the_safety_cars_rounds_to_come_are_counted_in_words_one_round_and_its_last():
    game = race(2)
    place(game, Anna=20, Ben=12)
    play_round(game, {ANNA: ["safety_car", "2"], BEN: ["safety_car"]})
    assert said(game, ev.RoundStarted)[-1] == "Round 2: lap 2 of 10, behind the safety car, 2 more rounds to come"
    assert state_line(game.view(None)).endswith("SAFETY CAR out (2 more rounds to come)")
    play(game, "draw 0", "draw 1")
    assert said(game, ev.RoundStarted)[-1] == "Round 3: lap 3 of 10, behind the safety car, 1 more round to come"
    assert state_line(game.view(None)).endswith("SAFETY CAR out (1 more round to come)")
    play(game, "draw 0", "draw 1")
    assert said(game, ev.RoundStarted)[-1] == "Round 4: lap 4 of 10, behind the safety car, its last round"
    assert state_line(game.view(None)).endswith("SAFETY CAR out (its last round)")


def test_a_move_of_more_than_a_lap_names_the_laps_the_spaces_alone_do_not_tell():
    """33 spaces on a circuit of 32 from space 10 ends on space 11: of the next lap, not one space on."""
    assert LAP == 32
    game = race(2, race="wet")
    place(game, Anna=10, Ben=5)
    play_round(game, {ANNA: ["4"] * 8 + ["1"], BEN: ["1"]})
    assert said(game, ev.Moved)[0] == "Anna goes 33 spaces forward: space 10 to 11 of the next lap"
    place(game, Anna=10, Ben=5)
    play_round(game, {ANNA: ["3"] * 11 + ["2"] * 16, BEN: ["1"]})
    assert [t for t in said(game, ev.Moved) if t.startswith("Anna")][-1] == (
        "Anna goes 65 spaces forward: space 10 to 11, 2 laps on")


def test_a_move_back_over_the_line_names_the_lap_before_and_one_within_a_lap_names_none():
    game = race(2)
    place(game, Anna=LAP + 3, Ben=LAP + 12)
    play_round(game, {ANNA: ["pit stop"], BEN: ["2"]})
    assert said(game, ev.Moved)[-1] == "Anna goes 8 spaces back (pit stop): space 3 to 27 of the lap before"
    assert said(game, ev.Moved)[0] == "Ben goes 2 spaces forward: space 12 to 14"
