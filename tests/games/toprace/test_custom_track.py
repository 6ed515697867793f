"""A track corrected and saved under its own name works everywhere a shipped one does: ``track check``,
``demo --track FILE``, ``play`` with ``[game] track = FILE``, ``calibrate FILE`` (its profile beside it)
and ``replay`` of a journal made on it, from any working directory."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from toprace_pi.cli import main
from toprace_pi.games.toprace.data import load_track
from toprace_pi.games.toprace.table.board import calibration_target, load_profile, profile_beside
from toprace_pi.table.config import parse_config
from toprace_pi.table.journal import load
from toprace_pi.table.live import open_game
from toprace_pi.table.tools import calibrate_board

SHIPPED = (Path(__file__).resolve().parents[3] / "toprace_pi" / "games" / "toprace" / "data" / "tracks"
           / "lake-lane.toml")


@pytest.fixture
def my_track(tmp_path: Path) -> Path:
    """Lake Lane saved as a track of its own: another file name and another name inside."""
    text = SHIPPED.read_text("utf-8")
    assert 'name = "Lake Lane"' in text
    path = tmp_path / "boards" / "my-lane.toml"
    path.parent.mkdir()
    path.write_text(text.replace('name = "Lake Lane"', 'name = "My Lane"'), "utf-8")
    return path


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_track_check_summarises_a_valid_track_and_says_its_profile_is_missing(capsys, my_track):
    code, out, err = run(capsys, "track", "check", str(my_track))
    assert code == 0 and err == ""
    first, second = out.splitlines()
    assert first.startswith(f"{my_track}: My Lane: valid: ")
    assert "in 3 lanes" in first and "starting spaces 1-6" in first
    assert f"none beside it yet ({profile_beside(my_track)})" in second


def broken_copy(track_file: Path, *replacements: tuple[str, str]) -> Path:
    text = track_file.read_text("utf-8")
    for old, new in replacements:
        assert old in text
        text = text.replace(old, new, 1)
    path = track_file.with_name("broken.toml")
    path.write_text(text, "utf-8")
    return path


def test_track_check_names_wrong_starts_and_wrong_steps_in_one_pass(capsys, my_track):
    broken = broken_copy(my_track, ("start = 2,", "start = 1,"), ('next = ["a6", "b5", "b6"]', 'next = ["zz", "b5"]'))
    code, out, err = run(capsys, "track", "check", str(broken))
    assert code == 1 and err == "" and "Traceback" not in out
    assert out.splitlines() == [f"{broken}: 3 problems:",
                                "  - starting spaces: starting space 1 is given 2 times",
                                "  - starting spaces: starting space 2 is missing",
                                "  - space a5: unknown neighbour 'zz'"]


def test_track_check_names_a_bad_field_and_the_start_it_takes_away(capsys, my_track):
    broken = broken_copy(my_track, ('id = "a1"', 'id = "a1", colour = "red"'))
    code, out, _ = run(capsys, "track", "check", str(broken))
    assert code == 1
    assert "space a1: unknown key(s): colour" in out and "starting space 4 is missing" in out


def test_track_check_refuses_a_file_that_is_not_toml(capsys, tmp_path):
    path = tmp_path / "oops.toml"
    path.write_text("[track\nname = 1", "utf-8")
    code, out, _ = run(capsys, "track", "check", str(path))
    assert code == 1 and out.startswith(f"{path}: not valid TOML")


def test_a_track_file_is_recorded_by_its_absolute_path(my_track, monkeypatch):
    monkeypatch.chdir(my_track.parent)
    track = load_track("my-lane.toml")
    assert track.name == "My Lane" and track.slug == str(my_track.resolve()) and track.name_slug == "my-lane"
    assert load_track("lake-lane").slug == "lake-lane"


def test_the_demo_plays_on_a_track_file_and_replay_plays_it_back_from_elsewhere(capsys, my_track, tmp_path,
                                                                               monkeypatch, caplog):
    journal = tmp_path / "demo.jsonl"
    monkeypatch.chdir(my_track.parent)
    with caplog.at_level(logging.WARNING):
        code, out, _ = run(capsys, "demo", "--bots", "greedy", "--fast", "--no-colour", "--players", "2", "--seed", "5",
                           "--track", "my-lane.toml", "--journal", str(journal))
    assert code == 0 and "Final money" in out
    told = [r.getMessage() for r in caplog.records if "no board profile beside it" in r.getMessage()]
    assert len(told) == 1  # said once, though the demo loads the profile twice
    assert load(journal).settings.track == str(my_track.resolve())
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "replay", str(journal), "--fast", "--no-colour")
    assert code == 0 and out.rstrip().endswith("the game is over")


def test_replay_names_the_track_file_that_has_gone(capsys, my_track, tmp_path):
    journal = tmp_path / "demo.jsonl"
    run(capsys, "demo", "--bots", "greedy", "--fast", "--no-colour", "--players", "2", "--track", str(my_track),
        "--journal", str(journal))
    my_track.rename(my_track.with_name("elsewhere.toml"))
    code, _, err = run(capsys, "replay", str(journal), "--fast")
    assert code == 2 and "Traceback" not in err
    assert f"the header's track '{my_track.resolve()}' cannot be loaded" in err and "no such file" in err


def test_play_records_the_config_track_file_and_resumes_from_another_folder(my_track, tmp_path, monkeypatch):
    monkeypatch.chdir(my_track.parent)
    config = parse_config({"game": {"track": "my-lane.toml"}, "files": {"journal": str(tmp_path / "j.jsonl")}}, "t")
    said: list[str] = []
    game, journal, _ = open_game(config, said.append)
    journal.close()
    assert game.track.name == "My Lane" and game.settings.track == str(my_track.resolve())
    monkeypatch.chdir(tmp_path)
    game, journal, _ = open_game(config, said.append)
    journal.close()
    assert game.track.name == "My Lane" and said[-1].startswith("resumed the game from")


def test_calibrating_a_track_file_saves_its_profile_beside_it_where_everything_finds_it(capsys, my_track):
    track = load_track(my_track)
    presses = iter(["next"] + ["ok"] * (len(track.spaces) + 12))  # LED 0 lies under no space
    said: list[str] = []
    out = calibrate_board(calibration_target(str(my_track)), parse_config({}, "t"), presses, said.append)
    assert out == profile_beside(my_track) == my_track.with_name("my-lane.profile.toml")
    assert said[-1] == f"saved the profile to {out}, beside its track file: the table finds it there"
    profile = load_profile(track.slug)
    assert profile.calibrated and profile.track == "my-lane" and 0 not in profile.spaces.values()
    assert min(led for leds in profile.spaces.values() for led in leds) == 1
    code, text, _ = run(capsys, "track", "check", str(my_track))
    assert code == 0 and text.splitlines()[1] == f"board profile: {profile.led_count} LEDs (calibrated)"


def test_a_broken_profile_beside_the_track_fails_track_check(capsys, my_track):
    profile_beside(my_track).write_text('[profile]\ntrack = "other"\nled_count = 3\nplacements = []\n', "utf-8")
    code, out, _ = run(capsys, "track", "check", str(my_track))
    assert code == 1 and out.startswith(f"{profile_beside(my_track)}: ")
    assert "'track' is 'other', but this is 'my-lane'" in out and "[spaces]: missing table" in out


def test_the_calibrate_command_takes_a_track_file_and_typed_presses(capsys, my_track, monkeypatch):
    """``[buttons] kind = "simulated"``: the presses are typed, so the whole command runs here."""
    import io

    config = my_track.with_name("table.toml")
    config.write_text('[buttons]\nkind = "simulated"\n', "utf-8")
    spaces = len(load_track(my_track).spaces)
    monkeypatch.setattr("sys.stdin", io.StringIO("x\nn\n" + "o\n" * (spaces + 12)))
    code, out, _ = run(capsys, "calibrate", str(my_track), "--config", str(config))
    assert code == 0 and "type n, o or u" in out
    assert out.rstrip().endswith(f"saved the profile to {profile_beside(my_track)}, beside its track file: "
                                 "the table finds it there")
    assert load_profile(str(my_track.resolve())).spaces["a1"] == (1,)  # LED 0 was skipped with NEXT


def test_the_table_lights_a_track_file_by_the_profile_beside_it(my_track, tmp_path, pins):
    """``play``'s table: the calibrated profile beside the track file, with no [files] profile in the config."""
    from toprace_pi.table.live import open_table

    track = load_track(my_track)
    presses = iter(["next", "next"] + ["ok"] * (len(track.spaces) + 12))  # LEDs 0 and 1 under no space
    calibrate_board(calibration_target(str(my_track)), parse_config({}, "t"), presses, lambda _: None)
    config = parse_config({"game": {"track": str(my_track)}, "sound": {"speech": False},
                           "files": {"journal": str(tmp_path / "j.jsonl"), "registry": str(tmp_path / "t.json")}},
                          "t")
    live = open_table(config)
    try:
        profile = live.table.view.profile
        assert profile.calibrated and profile.track == "my-lane" and profile.spaces["a1"] == (2,)
        assert live.table.controller.game.track.name == "My Lane"
    finally:
        live.close()


def test_a_deck_file_is_recorded_by_its_absolute_path_so_replay_finds_it_from_elsewhere(capsys, tmp_path,
                                                                                       monkeypatch):
    deck = tmp_path / "decks" / "my-deck.toml"
    deck.parent.mkdir()
    deck.write_text((SHIPPED.parent.parent / "decks" / "standard.toml").read_text("utf-8"), "utf-8")
    journal = tmp_path / "demo.jsonl"
    monkeypatch.chdir(deck.parent)
    run(capsys, "demo", "--bots", "greedy", "--fast", "--no-colour", "--players", "2", "--deck", "my-deck.toml",
        "--journal", str(journal))
    assert load(journal).settings.deck == str(deck.resolve())
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "replay", str(journal), "--fast", "--no-colour")
    assert code == 0 and out.rstrip().endswith("the game is over")


def test_simulate_plays_a_track_file_and_its_report_names_the_track(capsys, my_track):
    import json

    code, out, _ = run(capsys, "simulate", "--track", str(my_track), "--players", "3", "--json")
    report = json.loads(out)
    assert code == 0 and report["settings"]["track"] == "My Lane" and report["races"][0]["placements"]
