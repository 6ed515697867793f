"""What the table shows under the cursor is what OK takes: on the LED strip of a real table loop (the
buttons on gpiozero's mock pins, the strip's frames as the table composes them), at every NEXT of whole
games; and on the keyboard seat's panel, which shows the hand and a trade as the player would hold them."""

from __future__ import annotations

import random

import pytest

from toprace_pi.games.toprace.data import load_track
from toprace_pi.games.toprace.render.palette import OFF
from toprace_pi.games.toprace.rules import MoveCar, ReturnCar
from toprace_pi.games.toprace.rules.track import FINISH_ID
from toprace_pi.games.toprace.table.demo import DemoPlayers, build_demo_table
from toprace_pi.games.toprace.table.human import HumanConsole, Question
from toprace_pi.games.toprace.table.view import BLINK, lights_by_space


def lit_ends(demo) -> dict[int, tuple[int, int, int]]:
    """The strip's light under each end space on offer, by the space's index."""
    game, choice = demo.controller.game, demo.controller.choice
    lights = lights_by_space(demo.table.view.profile, game.track, demo.strip.last)
    return {game.track.index(o.to): lights[game.track.index(o.to)] for o in choice.options}


def ends_on_offer(demo) -> bool:
    choice = demo.controller.choice
    return choice is not None and all(isinstance(o, (MoveCar, ReturnCar)) and o.to != FINISH_ID
                                      for o in choice.options) and len(choice.options) > 1


@pytest.mark.parametrize("track", ["turbo-town", "lake-lane"])
def test_the_blinking_space_on_the_strip_is_the_end_ok_takes_at_every_next(track):
    """The cursor's space is lit in its car's full colour (the table's clock stands where the blink is on),
    every other end glows dim; the table tells the keyboard's screen of a press only once the strip shows
    it; and OK moves the car to the lit space."""
    demo = build_demo_table(load_track(track), 3, seed=5, say=lambda _: None, clock=lambda: 0.0)
    bots, presses, rng = DemoPlayers(["greedy"] * 3, 5), 0, random.Random(5)
    told: list[dict] = []
    demo.table.taken.append(lambda device: told.append(lit_ends(demo)) if ends_on_offer(demo) else None)
    try:
        while not demo.controller.game.is_over:
            if not ends_on_offer(demo):
                bots.act(demo)
                continue
            for _ in range(rng.randrange(4)):
                demo.press("next")
                presses += 1
                cursor = demo.controller.choice.current
                lit = lit_ends(demo)
                assert lit[demo.controller.game.track.index(cursor.to)] == cursor.car.rgb
                assert sum(light == cursor.car.rgb for light in lit.values()) == 1
                assert told[-1] == lit  # the screen was told once the strip showed it
            shown = demo.controller.choice.current
            demo.press("ok")
            assert demo.controller.game.log[-1] == shown
    finally:
        demo.close()
    assert presses > 20


def test_the_panel_shows_the_hand_with_each_cards_moves_while_the_human_bids():
    demo = build_demo_table(load_track("speed-street"), 3, seed=2, say=lambda _: None)
    game = demo.controller.game
    console = HumanConsole(keys=_NoKeys(), cars=game.cars, seats=[0])
    console.controller = demo.controller
    try:
        demo.step()  # the machine deals
        game = demo.controller.game
        console.question, console.question_seat = Question("auction 1: no bid yet", [1, 2], ["a", "b"]), 0
        panel = "\n".join(console.panel(width=119))
        assert all(str(game.deck[n]) in panel for n in game.hands[0])
        assert not any(str(game.deck[n]) in panel for n in game.hands[1])
    finally:
        demo.close()


class _NoKeys:
    def read(self) -> list[str]:
        return []

    def close(self) -> None:
        pass



def test_the_terminal_board_draws_the_cursor_apart_from_the_car():
    """The strip lights the cursor's space in the moving car's full colour; the terminal draws it as ``@`` in
    that colour, not as a second car's letter, and every car still once by its letter."""
    demo = build_demo_table(load_track("turbo-town"), 3, seed=5, say=lambda _: None, clock=lambda: 0.0)
    bots = DemoPlayers(["greedy"] * 3, 5)
    try:
        while not ends_on_offer(demo):
            bots.act(demo)
        controller = demo.controller
        board, _ = controller.side.terminal(controller.game, demo.table.view.profile, demo.strip.last, colour=False,
                                            width=120)
        rows = [line for line in board.splitlines() if line[:2] in ("a ", "b ", "c ", "d ")]
        cells = "".join(line[3:] for line in rows)
        assert cells.count("@") == 1
        assert all(cells.count(car.letter) == 1 for car in controller.game.board.at)
    finally:
        demo.close()


def test_the_pictures_of_the_table_show_the_cursor_whatever_the_blink():
    """A terminal or a picture is drawn once a step, not at the blink's pace: it shows the cursor lit, at
    whatever moment of the blink it is drawn (the strip itself shows it dark half the time)."""
    now = [0.0]
    demo = build_demo_table(load_track("turbo-town"), 3, seed=5, say=lambda _: None, clock=lambda: now[0])
    bots = DemoPlayers(["greedy"] * 3, 5)
    try:
        while not ends_on_offer(demo):
            bots.act(demo)
        now[0] = BLINK  # the cursor's dark half
        demo.step()
        cursor = demo.controller.choice.current
        index = demo.controller.game.track.index(cursor.to)
        assert lit_ends(demo)[index] == OFF
        lights = lights_by_space(demo.table.view.profile, demo.controller.game.track, demo.table.steady())
        assert lights[index] == cursor.car.rgb
    finally:
        demo.close()


def test_a_claim_question_takes_s_and_leaves_the_screen_when_its_window_closes():
    """At a pit stop claim the key ``s`` of docs/playing-toprace.md (lay your pit stop card) claims; a question
    whose window closes while the player thinks leaves the panel at once, so the next OK is not read against it."""
    demo = build_demo_table(load_track("speed-street"), 3, seed=2, say=lambda _: None)
    console = HumanConsole(keys=_NoKeys(), cars=demo.controller.game.cars, seats=[0])
    console.controller = demo.controller
    drawn: list[list[str]] = []
    console.changed = lambda: drawn.append(console.panel())
    try:
        question = Question("pit stop? claim #24", [True, False], ["claim it", "let it go"], passing=False,
                            shortcuts={"s": (True, "your pit stop card")}, time_left=lambda: 3.2)
        assert question.key("s", demo.controller.game.cars) is None and question.answer is True
        assert question.lines()[0] == "pit stop? claim #24 [4 s left] (NEXT n, OK o, PASS p, your pit stop card s)"
        open_for = iter([True, True, False])
        question = Question("pit stop? claim #24", [True, False], ["claim it", "let it go"], passing=False)
        assert console.ask(0, question, lambda: None, lambda: next(open_for)) is None
        assert any("pit stop? claim #24" in line for line in drawn[0])
        assert not any("pit stop?" in line for line in drawn[-1])
    finally:
        demo.close()
