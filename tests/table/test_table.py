"""The table end to end on simulated devices: gpiozero mock pins for the buttons,
simulated readers, a simulated strip whose frames are checked LED by LED."""

from __future__ import annotations

import pytest
from scenarios import CARS, RED
from support.hang import HANG_LIMIT
from support.toprace_table import Clock, demo, play_until

from toprace_pi.games.toprace.data import load_deck, load_track
from toprace_pi.games.toprace.rules import MoveCar, Phase
from toprace_pi.games.toprace.rules.variants import replay_game
from toprace_pi.games.toprace.table.demo import DemoPlayers, build_demo_table, car_uid, card_uid
from toprace_pi.games.toprace.table.view import BLINK, GLOW, dim
from toprace_pi.table.demo import play_demo
from toprace_pi.table.run import RETRY

GAMES = [("speed-street", 2, "greedy"), ("lake-lane", 3, "random"), ("desert-drive", 4, "greedy"),
         ("turbo-town", 5, "random"), ("speed-street", 6, "greedy"), ("turbo-town", 2, "greedy"),
         ("lake-lane", 6, "random"), ("desert-drive", 5, "greedy")]


@pytest.mark.parametrize("track, players, bots", GAMES)
def test_bots_play_whole_games_through_the_devices(track, players, bots):
    table, said, _ = demo(track, players, seed=players)
    try:
        game = play_demo(table, DemoPlayers([bots] * players, seed=players))
    finally:
        table.close()
    assert game.is_over and sorted(game.results[0].placements) == sorted(CARS)
    assert table.controller.refusals == 0, [s for s in said if "not" in s][:3]
    assert any("finishes first" in s for s in said) and said[-1].startswith("Game over")
    again = replay_game(game.settings, game.track, game.deck, game.log)
    assert again.snapshot() == game.snapshot()


def test_every_bad_input_is_refused_through_the_devices_and_changes_nothing():
    table, said, _ = demo()
    players = DemoPlayers(["greedy"] * 4, seed=1)
    play_until(table, players, lambda g: g.phase is Phase.PLAY_CARD)
    first = table.controller.game.hands[table.controller.game.seat][0]
    table.lay(table.discard, card_uid(first))
    game = table.controller.game
    assert game.phase is Phase.MOVE_CAR
    before, steps = game.snapshot(), len(game.log)
    for act, reason in [
        (lambda: table.lay(table.discard, b"\x04\x99\x99\x99\x99\x99\x99"), "this tag is not enrolled"),
        (lambda: table.lay(table.discard, card_uid(game.hands[game.seat][0])), "finish the card in play first"),
        (lambda: table.lay(table.cars, car_uid(RED)), "no car token is asked for now"),
        (lambda: table.press("pass"), "PASS means nothing now"),
        (lambda: table.press("undo"), "hold UNDO to take back the last step"),
    ]:
        act()
        assert reason in said[-1]
        assert game.snapshot() == before and len(game.log) == steps
    play_until(table, players, lambda g: g.phase is Phase.PLAY_CARD)
    game, told = table.controller.game, len(said)
    before = game.snapshot()
    table.lay(table.discard, card_uid(first))  # a card of the pile read again: no input at all
    assert said[told:] == [] and game.snapshot() == before
    table.close()


def test_a_reader_that_vanishes_mid_game_is_reported_and_picked_up_again(caplog):
    table, said, clock = demo()
    players = DemoPlayers(["greedy"] * 4, seed=2)
    play_until(table, players, lambda g: g.phase is Phase.PLAY_CARD and len(g.played) >= 3)
    steps = len(table.controller.game.log)
    table.discard.unplug()
    table.table.step()
    assert said[-1] == "the discard reader is missing: still looking"
    table.table.step()
    assert said[-1] == "the discard reader is missing: still looking" and said.count(said[-1]) == 1
    table.discard.replug()
    clock.now += RETRY
    table.table.step()
    assert said[-1] == "the discard reader is back"
    assert len(table.controller.game.log) == steps  # nothing lost
    game = play_demo(table, players)
    assert game.is_over
    table.close()


@pytest.mark.parametrize("deck", ["standard", "older-edition"])
def test_the_strip_shows_cars_legal_ends_and_a_blinking_cursor(deck):
    table, said, clock = demo(deck=deck)
    players = DemoPlayers(["greedy"] * 4, seed=4)
    play_until(table, players, lambda g: g.phase is Phase.MOVE_CAR and len(g.moving.ends) > 1)
    game, profile = table.controller.game, table.table.view.profile
    track = game.track

    def led(space: int) -> int:
        return profile.spaces[track.space_id(space)][0]

    table.table.refresh()
    lit = table.strip.last
    moving = game.moving
    cursor, *others = [e for e in moving.ends if e >= 0]
    assert list(game.cars) == list(load_deck(deck).cars)
    for car, space in game.board.at.items():
        assert lit[led(space)] == car.rgb
    assert lit[led(cursor)] == moving.car.rgb
    for end in others:
        assert lit[led(end)] == dim(moving.car.rgb, GLOW)
    assert lit[profile.seats[game.seat][0]] == (255, 255, 255)
    clock.now += BLINK
    table.table.refresh()
    assert table.strip.last[led(cursor)] == (0, 0, 0)
    table.press("next")
    assert table.strip.last[led(others[0])] in (moving.car.rgb, (0, 0, 0))
    assert table.controller.choice.current == MoveCar(moving.car, track.space_id(others[0]))
    table.close()


def test_a_cards_lights_come_before_its_news():
    """The LEDs are the table's quick answer: a card laid changes them before a sentence is said."""
    said: list[tuple[str, int]] = []
    frames: list[object] = []
    table = build_demo_table(load_track("speed-street"), 4, 3, clock=Clock(), on_frame=frames.append,
                             say=lambda sentence: said.append((sentence, len(frames))))
    players = DemoPlayers(["greedy"] * 4, seed=3)
    try:
        play_until(table, players, lambda g: g.phase is Phase.PLAY_CARD and len(g.log) > 20)
        before, shown = len(said), len(frames)
        players.act(table)  # the bot lays its speed card on the discard reader
        news = said[before:]
        assert news, "a card laid is told"
        assert all(frames > shown for _, frames in news), (shown, news)
    finally:
        table.close()


def test_finished_cars_light_their_placement_spaces():
    table, said, _ = demo(players=2, seed=5)
    game = play_demo(table, DemoPlayers(["greedy"] * 2, seed=5))
    profile = table.table.view.profile
    lit = table.strip.last
    for place, car in enumerate(game.results[0].placements, 1):
        assert lit[profile.placements[place - 1][0]] == car.rgb
    table.close()


def test_undo_held_on_the_button_takes_back_a_step():
    table, said, _ = demo()
    players = DemoPlayers(["greedy"] * 4, seed=6)
    play_until(table, players, lambda g: g.phase is Phase.MOVE_CAR)
    before = table.controller.game.snapshot()
    table.press("ok")
    pin = table.pins["undo"]
    pin.drive_low()
    import time

    deadline = time.monotonic() + HANG_LIMIT  # a guard: the hold is seen in well under a second
    while "took back" not in " ".join(said[-2:]) and time.monotonic() < deadline:
        table.table.step()
        time.sleep(0.02)
    pin.drive_high()
    assert any(s.startswith("took back: move") for s in said[-3:])
    assert table.controller.game.snapshot() == before
    table.close()


def test_a_card_read_by_the_real_pn532_driver_is_played_at_the_table():
    """The discard reader is the adafruit driver talking to the PN532 emulator over a
    pty: a card tag carrying only its NTAG record (not in the registry) is played."""
    from emulators.pn532 import Pn532Emulator, Tag

    from toprace_pi.games.toprace.rules import PlayCard
    from toprace_pi.hardware.ndef import encode_record
    from toprace_pi.hardware.readers.pn532 import Pn532Reader
    from toprace_pi.table.run import ReaderSlot

    table, said, clock = demo()
    players = DemoPlayers(["greedy"] * 4, seed=7)
    play_until(table, players, lambda g: g.phase is Phase.PLAY_CARD)
    game = table.controller.game
    number = game.hands[game.seat][0]
    with Pn532Emulator() as emulator:
        reader = Pn532Reader("discard", port=emulator.port, poll_timeout=0.02)
        table.table.readers[0] = ReaderSlot("discard", lambda: reader, clock)
        emulator.lay(Tag("04A1B2C3D4E5F6", encode_record(f"toprace card {number}")))
        for _ in range(20):
            table.table.step()
            if game.log[-1] == PlayCard(number):
                break
        assert game.log[-1] == PlayCard(number)
        reader.close()
        assert emulator.errors == []
    table.close()


@pytest.mark.parametrize("variant", ["base", "pitstop"])
def test_a_match_of_races_is_played_on_the_pile_which_is_gathered_between_races(variant):
    """Speed cards stay on the discard pile while a race lasts; at its end the players
    take the pile off to shuffle, so no card of the last race is read in the next."""
    said: list[str] = []
    table = build_demo_table(load_track("lake-lane"), 3, 5, races=3, variant=variant, say=said.append)
    pile_at_race_start: list[int] = []
    race = 0

    def note(game) -> None:
        nonlocal race
        if game.race != race and game.phase is not Phase.DEAL:
            race = game.race
            pile_at_race_start.append(len(table.discard.tags))

    try:
        game = play_demo(table, DemoPlayers(["greedy"] * 3, seed=5), after_step=note)
    finally:
        table.close()
    assert game.is_over and len(game.results) == 3 and table.controller.refusals == 0, said[-3:]
    assert pile_at_race_start == [0, 0, 0]
    assert len(table.discard.tags) == table.on_pile > 0  # the last race's pile still lies there
