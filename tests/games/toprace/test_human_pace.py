"""Whole games at a table played at human pace: what the players hear and see.

The other table tests feed inputs as fast as the machine goes. People lay a card
every second or two, and a speaker takes seconds to say a sentence, so speech
falls behind the game. Here bots play whole games through the real table loop
(readers polled, the controller's tick, gpiozero mock buttons, the LED view) with
a fake clock: after every input the loop runs 1.5 s of 10 ms ticks. Speech goes
through the real :class:`Announcer` queue to a speaker that takes time by that
clock to say each sentence. The tests check that every finish, placing and
payout is heard in order, that a prompt is heard once and never repeats while
the table waits, and that the strip shows every car in its colour on its space.
"""

from __future__ import annotations

import random

import pytest
from pace import Hearing, play_at_pace

from toprace_pi.games.toprace.data import load_track
from toprace_pi.games.toprace.rules import Breakdown, Sprint
from toprace_pi.games.toprace.table.demo import DemoPlayers, build_demo_table
from toprace_pi.games.toprace.table.view import lights_by_space


def play_at_human_pace(track: str, players: int, seed: int, variant: str = "base", *, nudges: float = 0.0):
    """A whole game; returns it, the news and the prompts the table said, and what was heard.
    After an input, with chance ``nudges``, someone nudges the discard pile: the reader
    misses it for a few polls and then reads the card lying there again."""
    hearing = Hearing()
    demo = build_demo_table(load_track(track), players, seed, variant=variant, say=hearing.say, ask=hearing.ask,
                            clock=hearing.clock)
    bots = DemoPlayers(["greedy"] * players, seed)
    hands = random.Random(seed)

    def act(demo) -> None:
        bots.act(demo)
        if hands.random() < nudges:
            demo.discard.nudge()

    try:
        play_at_pace(demo, hearing, act, check=assert_the_strip_shows_the_cars)
    finally:
        hearing.close()
        demo.close()
    assert demo.controller.refusals == 0, "a bot's input, or a card of the pile read again, was refused"
    return demo.controller.game, hearing.news, hearing.prompts, hearing.heard, hearing.announcer.replaced


def assert_the_strip_shows_the_cars(demo) -> None:
    """Every car on the track is lit in its colour on its space, except where a
    choice blinks (its options glow over what lies beneath)."""
    game, view = demo.controller.game, demo.table.view
    lights = lights_by_space(view.profile, game.track, demo.strip.last)
    blinking: set[int] = set()
    for option in demo.controller.choice.options if demo.controller.choice is not None else ():
        if isinstance(option, (Sprint, Breakdown)):
            blinking |= {game.board.at[c] for c in game.card.pair if c in game.board.at}
        elif getattr(option, "car", None) in game.board.at:
            blinking.add(game.board.at[option.car])
    for car, space in game.board.at.items():
        if space not in blinking:
            assert lights[space] == car.rgb, f"{car} on {game.track.space_id(space)} is not lit in its colour"


@pytest.mark.parametrize("track, players, seed, variant", [
    ("speed-street", 4, 1, "base"), ("turbo-town", 3, 2, "pitstop"), ("lake-lane", 4, 3, "stocks"),
])
def test_at_one_input_every_one_and_a_half_seconds_every_finish_and_payout_is_heard(
        espeak_on_path, track, players, seed, variant):
    game, news, prompts, heard, replaced = play_at_human_pace(track, players, seed, variant)
    assert game.is_over
    prompt_texts = set(prompts)
    assert [text for text in heard if text not in prompt_texts] == news  # all news heard, in order, none dropped
    finishes = [text for text in news if " finishes " in text]
    paid = any("Prize money" in text or "stocks (" in text for text in news)  # Stocks: no prize money, stocks pay
    assert len(finishes) == 6 and paid and news[-1].startswith("Game over")
    heard_prompts = [text for text in heard if text in prompt_texts]
    assert len(heard_prompts) + replaced == len(prompts)  # each prompt heard, or replaced by a newer one
    assert replaced > 0  # speech did fall behind: the pace is a test of the queue, not of an idle speaker


@pytest.mark.parametrize("variant", ["base", "pitstop", "pitstop+tips"])
def test_cards_of_the_pile_read_again_after_nudges_change_nothing(espeak_on_path, variant):
    """The same game with the pile nudged after half the inputs: every card lying there is
    read again, and the game goes exactly as without (no refusal, no pit stop taken)."""
    calm, *_ = play_at_human_pace("turbo-town", 3, 4, variant)
    nudged, *_ = play_at_human_pace("turbo-town", 3, 4, variant, nudges=0.5)
    assert nudged.log == calm.log and nudged.results == calm.results
