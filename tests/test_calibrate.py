"""The calibration walk: one LED lit at a time, ok/next/undo, ending in a profile that loads."""

from __future__ import annotations

import random

import pytest
from tracks import straight_dict

from toprace_pi.core.colour import WHITE as LIT
from toprace_pi.errors import DataError
from toprace_pi.games.toprace.data import load_track
from toprace_pi.games.toprace.rules import Track
from toprace_pi.games.toprace.table.board import TrackBoard, load_profile, snake_order
from toprace_pi.hardware.calibrate import Calibration, calibrate
from toprace_pi.hardware.profile import Profile, default_profile
from toprace_pi.hardware.strip import SimulatedStrip

DARK = (0, 0, 0)


@pytest.fixture
def small() -> Track:
    """3 lanes x 4 rows, 12 spaces: the default strip order is a1-a4, b4-b1, c1-c4."""
    return Track.from_dict(straight_dict(4), "small.toml")


def presses_for(walk_targets: list, wiring: dict) -> list[str]:
    """The presses of a person who knows which LED lies under what: ``wiring`` maps
    (kind, key) to an LED; LEDs not in it lie under nothing."""
    leds = [wiring[(t.kind, t.key)] for t in walk_targets if (t.kind, t.key) in wiring]
    presses, led = [], 0
    for target_led in leds:
        presses += ["next"] * (target_led - led) + ["ok"]
        led = target_led + 1
    return presses


def lit(frame: list) -> list[int]:
    return [n for n, colour in enumerate(frame) if colour != DARK]


class TestWalk:
    def test_all_ok_on_a_board_wired_as_the_default_gives_the_default(self, small):
        walk = Calibration(TrackBoard(small), 24)
        for _ in range(24):
            walk.press("ok")
        assert walk.done and walk.target is None and lit(walk.frame) == []
        profile = walk.profile()
        default = default_profile(TrackBoard(small))
        assert profile.spaces == default.spaces
        assert (profile.placements, profile.seats) == (default.placements, default.seats)
        assert profile.calibrated and profile.led_count == 24

    def test_one_led_lit_at_a_time_and_the_question_names_the_space(self, small):
        walk = Calibration(TrackBoard(small), 30)
        assert lit(walk.frame) == [0] and walk.frame[0] == LIT
        assert walk.target.key == "a1"
        assert "LED 0 of 30" in walk.prompt and "space a1 (lane a), 1 of 12" in walk.prompt
        walk.press("next")
        assert lit(walk.frame) == [1] and walk.target.key == "a1"
        walk.press("ok")
        assert lit(walk.frame) == [2] and walk.target.key == "a2" and walk.assigned == [1]
        for _ in range(11):
            walk.press("ok")
        assert "the 1st placement space" in walk.prompt
        for _ in range(6):
            walk.press("ok")
        assert "the light of seat 1" in walk.prompt

    def test_next_skips_leds_between_spaces(self, small):
        wiring = {("space", sid): led for led, sid in zip(range(0, 48, 2), snake_order(small))}
        wiring |= {("placement", n): 40 + n for n in range(1, 7)} | {("seat", n): 50 + n for n in range(6)}
        walk = Calibration(TrackBoard(small), 60)
        for button in presses_for(walk.targets, wiring):
            walk.press(button)
        assert walk.done
        profile = walk.profile()
        assert profile.spaces["a1"] == (0,) and profile.spaces["b4"] == (8,) and profile.spaces["c4"] == (22,)
        assert profile.placements[0] == (41,) and profile.seats[5] == (55,)

    def test_undo_takes_back_ok_and_next(self, small):
        walk = Calibration(TrackBoard(small), 30)
        walk.press("ok")
        walk.press("next")
        walk.press("ok")
        assert walk.assigned == [0, 2] and walk.led == 3
        walk.press("undo")
        assert walk.assigned == [0] and walk.led == 2 and walk.target.key == "a2"
        walk.press("undo")
        assert walk.led == 1
        walk.press("undo")
        walk.press("undo")  # nothing left to undo
        assert walk.assigned == [] and walk.led == 0 and walk.target.key == "a1"

    def test_seat_lights_are_optional(self, small):
        walk = Calibration(TrackBoard(small), 20)  # 12 spaces + 6 placements + 2 seat lights
        for _ in range(20):
            walk.press("ok")
        assert walk.done and "Done" in walk.prompt
        assert len(walk.profile().seats) == 2
        walk = Calibration(TrackBoard(small), 30, seats=0)
        for _ in range(18):
            walk.press("ok")
        assert walk.done and walk.profile().seats == ()

    def test_running_out_of_leds_before_the_placements_is_not_done(self, small):
        walk = Calibration(TrackBoard(small), 14)
        for _ in range(14):
            walk.press("ok")
        assert not walk.done and walk.target is None and lit(walk.frame) == []
        assert "No LEDs left, but the 3rd placement space has none yet" in walk.prompt
        walk.press("ok")  # ignored
        with pytest.raises(DataError, match="not finished"):
            walk.profile()
        walk.press("undo")
        assert walk.led == 13 and walk.target.label == "the 2nd placement space"

    def test_buttons(self, small):
        walk = Calibration(TrackBoard(small), 30)
        walk.press("pass")
        assert walk.led == 0
        with pytest.raises(ValueError, match="unknown button"):
            walk.press("OK!")
        with pytest.raises(ValueError):
            Calibration(TrackBoard(small), 30, seats=7)

    def test_asks_in_the_order_of_an_expected_profile(self, small):
        default = default_profile(TrackBoard(small))
        reversed_leds = {sid: (23 - leds[0],) for sid, leds in default.spaces.items()}
        expected = Profile(track=small.slug, led_count=24, spaces=reversed_leds, placements=default.placements)
        walk = Calibration(TrackBoard(small), 24, expected=expected)
        assert [t.key for t in walk.targets[:3]] == ["c4", "c3", "c2"]


class TestEndToEnd:
    def test_calibrate_on_a_strip_saves_a_profile_that_loads(self, tmp_path):
        track = load_track("speed-street")
        order = Calibration(TrackBoard(track), 1).targets
        rng = random.Random(7)
        wiring, led = {}, 0
        for target in order:
            led += rng.choice([0, 0, 0, 1, 2])  # LEDs between spaces now and then
            wiring[(target.kind, target.key)] = led
            led += 1
        strip = SimulatedStrip(led, keep=None)
        said = []
        buttons = presses_for(order, wiring)
        profile = calibrate(TrackBoard(track), strip, iter(buttons + ["ok", "ok"]), say=said.append)
        assert len(strip.frames) == len(buttons) + 1 and len(said) == len(buttons) + 1
        assert all(len(lit(frame)) == 1 for frame in list(strip.frames)[:-1]) and lit(strip.last) == []
        assert "Done" in said[-1]
        assert {sid: leds[0] for sid, leds in profile.spaces.items()} == {
            key: led for (kind, key), led in wiring.items() if kind == "space"}
        path = tmp_path / "speed-street.toml"
        path.write_text(profile.to_toml())
        assert load_profile(path) == profile
        assert load_profile(path).calibrated

    def test_presses_ending_early(self, small):
        with pytest.raises(DataError, match="not finished: LED 2 of 30 is lit"):
            calibrate(TrackBoard(small), SimulatedStrip(30), ["ok", "ok"], say=lambda text: None)
