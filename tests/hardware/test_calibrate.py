"""The calibration walk: one LED lit at a time, ok/next/undo, ending in a profile that loads."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

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
ROOT = Path(__file__).resolve().parents[2]


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


#: A walk of Speed Street's 191 LEDs: LED 0 lies under no space, and a slip of the finger at LED 3 is taken back.
WALK = ["next", "ok", "ok", "ok", "undo", "ok"] + ["ok"] * 200
#: Where :data:`WALK` is cut short: after 40 presses, 38 LEDs are walked (the UNDO took one back), 37 assigned.
CUT = 40
RESUMED = "38 of 191 LEDs walked, 37 assigned (UNDO goes back into it; --again starts from LED 0)"


def speed_street(out):
    from toprace_pi.games.toprace.table.board import calibration_target

    return calibration_target("speed-street", out)


def whole_walk(tmp_path) -> str:
    """The profile of :data:`WALK` walked at one go."""
    from toprace_pi.table.config import parse_config
    from toprace_pi.table.tools import calibrate_board

    out = calibrate_board(speed_street(tmp_path / "whole" / "board.toml"), parse_config({}, "t"), iter(WALK),
                          lambda _: None)
    return out.read_text()


def interrupted(presses):
    yield from presses
    raise KeyboardInterrupt


class TestCutShort:
    """A walk cut short keeps its presses beside the profile it makes, and the next run goes on from there."""

    @pytest.mark.parametrize("cut_short, stop", [(interrupted, KeyboardInterrupt), (iter, DataError)],
                             ids=["ctrl-c", "presses ended"])
    def test_the_next_run_goes_on_at_the_next_led_and_saves_the_profile_of_the_whole_walk(self, tmp_path, cut_short,
                                                                                           stop):
        from toprace_pi.table.config import parse_config
        from toprace_pi.table.tools import calibrate_board

        out, config, said = tmp_path / "board.toml", parse_config({}, "t"), []
        with pytest.raises(stop):
            calibrate_board(speed_street(out), config, cut_short(WALK[:CUT]), said.append)
        progress = tmp_path / "board.toml.progress"
        assert said[-1] == f"the walk so far is kept in {progress}: the next run goes on from there"
        assert said[-2].startswith("LED 38 of 191 is lit") and not out.exists()
        said.clear()
        calibrate_board(speed_street(out), config, iter(WALK[CUT:]), said.append)
        assert said[0] == f"going on with the walk kept in {progress}: {RESUMED}"
        assert said[1].startswith("LED 38 of 191 is lit. Is it under space ")
        assert out.read_text() == whole_walk(tmp_path)
        assert sorted(os.listdir(tmp_path)) == ["board.toml", "whole"]  # nor progress nor a temporary file left

    def test_undo_goes_back_into_the_walk_of_the_run_before(self, tmp_path):
        from toprace_pi.table.config import parse_config
        from toprace_pi.table.tools import calibrate_board

        out, config, said = tmp_path / "board.toml", parse_config({}, "t"), []
        with pytest.raises(KeyboardInterrupt):
            calibrate_board(speed_street(out), config, interrupted(WALK[:CUT]), lambda _: None)
        with pytest.raises(DataError):
            calibrate_board(speed_street(out), config, iter(["undo", "undo"]), said.append)
        assert said[-2].startswith("LED 36 of 191 is lit")
        calibrate_board(speed_street(out), config, iter(WALK[CUT - 2:]), lambda _: None)
        assert out.read_text() == whole_walk(tmp_path)

    def test_again_starts_from_led_0_and_keeps_the_new_walk(self, tmp_path):
        from toprace_pi.table.config import parse_config
        from toprace_pi.table.tools import calibrate_board

        out, config, said = tmp_path / "board.toml", parse_config({}, "t"), []
        with pytest.raises(KeyboardInterrupt):
            calibrate_board(speed_street(out), config, interrupted(WALK[:CUT]), lambda _: None)
        with pytest.raises(DataError):
            calibrate_board(speed_street(out), config, iter(["next"]), said.append, again=True)
        assert said[0].startswith("LED 0 of 191 is lit") and said[1].startswith("LED 1 of 191 is lit")
        assert json.loads((tmp_path / "board.toml.progress").read_text())["presses"] == ["next"]

    @pytest.mark.parametrize("kept, why", [
        ("{not json", "cannot be read (Expecting property name"),
        ('{"version": 1, "board": "speed-street", "leds": 100, "order": [], "presses": ["ok"]}', "holds another walk"),
        ('["ok"]', "holds another walk"),
    ])
    def test_a_progress_file_of_another_walk_or_broken_is_said_and_the_walk_starts_from_led_0(self, tmp_path, kept,
                                                                                               why):
        from toprace_pi.table.config import parse_config
        from toprace_pi.table.tools import calibrate_board

        progress, said = tmp_path / "board.toml.progress", []
        progress.write_text(kept)
        with pytest.raises(DataError):
            calibrate_board(speed_street(tmp_path / "board.toml"), parse_config({}, "t"), iter(["next"]), said.append)
        assert said[0].startswith(f"{progress} {why}") and said[0].endswith("starting from LED 0")
        assert said[1].startswith("LED 0 of 191 is lit")
        assert json.loads(progress.read_text())["presses"] == ["next"]  # replaced by this walk's

    @pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, -signal.SIGTERM)])
    def test_the_command_stopped_by_a_signal_goes_on_where_it_stopped(self, tmp_path, signum, code):
        """``toprace-pi calibrate`` with the presses typed, stopped by Ctrl-C or by systemd mid-walk."""
        config = tmp_path / "table.toml"
        config.write_text('[buttons]\nkind = "simulated"\n', "utf-8")
        out = tmp_path / "board.toml"
        command = [sys.executable, "-m", "toprace_pi", "calibrate", "speed-street", "--config", str(config),
                   "--out", str(out)]
        typed = [f"{press[0]}\n" for press in WALK]
        first = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True, cwd=ROOT)
        assert first.stdin is not None and first.stdout is not None
        first.stdin.write("".join(typed[:CUT]))
        first.stdin.flush()
        for line in first.stdout:  # every press typed is taken: the walk waits for the next
            if line.startswith("LED 38 of 191 is lit"):
                break
        first.send_signal(signum)
        first.communicate(timeout=60)
        assert first.returncode == code and not out.exists()
        second = subprocess.run(command, input="".join(typed[CUT:]), capture_output=True, text=True, timeout=120,
                                cwd=ROOT)
        assert second.returncode == 0 and second.stderr == ""
        said = second.stdout.splitlines()
        resumed = said.index(f"going on with the walk kept in {out}.progress: {RESUMED}")
        assert said[resumed + 1].startswith("LED 38 of 191 is lit")
        assert said[:resumed] == ["the buttons are simulated: type n (NEXT), o (OK) or u (UNDO) and Enter for each "
                                  "press"]
        assert out.read_text() == whole_walk(tmp_path)
