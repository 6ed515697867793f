"""The ``toprace-pi`` command line: reports, JSON, tools and one-line errors."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from scenarios import CARS, OLDER
from support.cli import run as run_command

from toprace_pi.cli import main

JOURNALS = Path(tempfile.mkdtemp(prefix="toprace-cli-"))


def run(capsys, *argv: str) -> tuple[int, str, str]:
    if argv and argv[0] == "demo":  # keep the demo's journal out of the home folder
        argv = (*argv, "--journal", str(JOURNALS / f"demo-{len(list(JOURNALS.glob('*')))}.jsonl"))
    return run_command(capsys, *argv)


def test_simulate_prints_a_readable_report(capsys):
    code, out, err = run(capsys, "simulate", "--track", "speed-street", "--players", "4", "--races", "1", "--seed", "7")
    assert code == 0 and err == ""
    assert out.startswith("Top Race on Speed Street: Anna, Ben, Carla, David; 1 race")
    for expected in ("wins the auction for", "puts it on starting space", " plays #", "finishes 1st",
                     "Placings: 1st", "Prize money: Anna", "Final money: Anna"):
        assert expected in out


def test_simulate_json_holds_settings_placements_payouts_and_money(capsys):
    code, out, _ = run(capsys, "simulate", "--players", "3", "--races", "2", "--seed", "4", "--json")
    doc = json.loads(out)
    assert code == 0
    assert doc["settings"] == {"track": "Speed Street", "players": ["Anna", "Ben", "Carla"], "races": 2,
                               "seed": 4, "bots": "greedy", "variant": "base"}
    assert len(doc["races"]) == 2
    for race in doc["races"]:
        assert sorted(race["placements"]) == sorted(c.id for c in CARS)
        assert set(race["payouts"]) == {"Anna", "Ben", "Carla"}
        assert len(race["auction"]) == 6 and race["turns"]
    assert set(doc["final_money"]) == {"Anna", "Ben", "Carla"} and doc["winners"]


def test_the_same_seed_gives_the_same_report(capsys):
    first = run(capsys, "simulate", "--seed", "3", "--json")[1]
    assert run(capsys, "simulate", "--seed", "3", "--json")[1] == first


@pytest.mark.parametrize("argv, message", [
    (["simulate", "--players", "7"], "players must be a whole number from 2 to 6"),
    (["simulate", "--races", "0"], "expected a whole number from 1"),
    (["simulate", "--seed", "x"], "the seed must be a whole number"),
    (["simulate", "--track", "monaco"], "not a shipped track"),
    (["simulate", "--bots", "smart"], "invalid choice"),
    (["fly"], "invalid choice"),
    (["deck", "check", "nowhere.toml"], "not a shipped deck"),
])
def test_bad_arguments_give_one_line_and_exit_code_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_track_show_draws_the_track_and_writes_an_svg(capsys, tmp_path):
    picture = tmp_path / "lake.svg"
    code, out, _ = run(capsys, "track", "show", "lake-lane", "--svg", str(picture), "--no-colour")
    assert code == 0 and "Lake Lane" in out and "reconstructed" in out and "\x1b[" not in out
    svg = ET.parse(picture).getroot()
    assert svg.tag.endswith("svg")


def test_track_list(capsys):
    code, out, _ = run(capsys, "track", "list")
    assert code == 0 and len(out.strip().splitlines()) == 4 and "turbo-town" in out


def test_deck_check_validates_a_deck_and_reports_problems(capsys, tmp_path):
    code, out, _ = run(capsys, "deck", "check")
    assert code == 0 and "valid" in out and "fair: every car" in out
    broken = tmp_path / "deck.toml"
    broken.write_text('[deck]\nname = "mine"\ncards = [{ number = 1, moves = ["red 9"] }]\n', "utf-8")
    code, out, err = run(capsys, "deck", "check", str(broken))
    assert code == 2 and "deck.toml" in err and "'red 9' is not a colour and a value" in err


def test_deck_check_shows_the_edition_and_deck_list_the_shipped_decks(capsys):
    code, out, _ = run(capsys, "deck", "check", "older-edition")
    assert code == 0
    for expected in ("Light blue  id lightblue   letter L  rgb (90, 190, 255)", "joker: Black (id black",
                     "Sprint/Breakdown pairs: Yellow-Purple, Light blue-Red, White-Green", "fair: every car"):
        assert expected in out
    code, out, _ = run(capsys, "deck", "list")
    assert code == 0 and out.splitlines()[0].startswith("older-edition ")
    assert "cars yellow, purple, lightblue, red, white, green; joker black" in out


def test_simulate_and_demo_play_with_the_deck_asked_for(capsys):
    code, out, _ = run(capsys, "simulate", "--deck", "older-edition", "--seed", "3", "--json")
    doc = json.loads(out)
    assert code == 0 and sorted(doc["races"][0]["placements"]) == sorted(c.id for c in OLDER.cars)
    assert any(step.startswith("take lightblue") for step in doc["log"])
    code, out, _ = run(capsys, "demo", "--bots", "greedy", "--fast", "--no-colour", "--deck", "older-edition",
                       "--players", "3", "--seed", "2")
    assert code == 0 and "Light blue" in out and "Final money: Anna" in out


def test_demo_plays_a_whole_game_in_the_terminal(capsys):
    code, out, _ = run(capsys, "demo", "--bots", "greedy", "--fast", "--no-colour", "--players", "3", "--seed", "2")
    assert code == 0 and "Race 1 over" in out and "Final money: Anna" in out
    assert out.count("T1") > 3  # the track was drawn turn after turn


def test_the_module_runs_as_a_command():
    done = subprocess.run([sys.executable, "-m", "toprace_pi", "simulate", "--players", "2", "--seed", "1"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "Final money" in done.stdout


def test_simulate_and_demo_play_the_tips_variant(capsys):
    code, out, _ = run(capsys, "simulate", "--variant", "tips", "--players", "3", "--seed", "2")
    assert code == 0 and "Tips: Anna" in out and "tip: every player places a secret tip" in out
    code, out, _ = run(capsys, "demo", "--bots", "greedy", "--fast", "--no-colour", "--variant", "tips", "--players",
                       "2", "--seed", "1")
    assert code == 0 and "Tips: Anna" in out and "reveal your next tip" not in out  # prompts are for humans


def test_the_demo_plays_the_quick_rules_with_car_cards_turned_up(capsys):
    code, out, _ = run(capsys, "demo", "--bots", "greedy", "--fast", "--no-colour", "--variant", "quick",
                       "--players", "3", "--seed", "4")
    assert code == 0 and out.count("turns up") == 6 and "Tips: Anna" in out and "Game over" in out


def test_tips_check_prints_the_table_and_refuses_a_broken_one(capsys, tmp_path):
    code, out, _ = run(capsys, "tips", "check")
    assert code == 0 and "valid (reconstructed)" in out and "60,000" in out
    broken = tmp_path / "tips.toml"
    broken.write_text("[tips]\nfirst = [1]\n", "utf-8")
    code, out, err = run(capsys, "tips", "check", str(broken))
    assert code == 2 and "tips.toml" in err and "[tips] first" in err


@pytest.mark.parametrize("argv, variant", [
    (["--variant", "pitstop"], "pitstop"), (["--pitstop"], "pitstop"),
    (["--variant", "tips", "--pitstop"], "pitstop+tips"), (["--variant", "stocks", "--pitstop"], "pitstop+stocks"),
    (["--variant", "stocks"], "stocks"),
])
def test_simulate_plays_every_variant_and_allowed_combination(capsys, argv, variant):
    code, out, _ = run(capsys, "simulate", "--players", "3", "--seed", "6", "--json", *argv)
    doc = json.loads(out)
    assert code == 0 and doc["settings"]["variant"] == variant and len(doc["races"]) == 1


def test_a_combination_the_rules_do_not_allow_is_refused(capsys):
    code, out, err = run(capsys, "simulate", "--variant", "quick", "--pitstop")
    assert code == 2 and "does not go with --variant quick" in err


def test_the_demo_keeps_a_journal_that_replay_plays_back(capsys, tmp_path):
    journal = tmp_path / "demo.jsonl"
    code = main(["demo", "--bots", "greedy", "--fast", "--no-colour", "--players", "2", "--seed", "3", "--journal",
                 str(journal)])
    out = capsys.readouterr().out
    assert code == 0 and f"the game's journal: {journal}" in out
    code = main(["replay", str(journal), "--fast", "--no-colour"])
    replayed = capsys.readouterr().out
    assert code == 0 and "Race 1: speed cards dealt" in replayed and replayed.rstrip().endswith("the game is over")
    main(["demo", "--bots", "greedy", "--fast", "--no-colour", "--players", "2", "--seed", "4", "--journal",
          str(journal)])
    capsys.readouterr()
    assert len(list(tmp_path.glob("demo-*.jsonl"))) == 1  # the first journal was archived, not overwritten


@pytest.mark.parametrize("flag, level", [("-v", logging.DEBUG), ("--quiet", logging.WARNING), (None, logging.WARNING)])
def test_verbose_and_quiet_set_how_much_is_logged(flag, level, capsys):
    assert main(["simulate", "--players", "2", "--json", *([flag] if flag else [])]) == 0
    assert logging.getLogger().level == level
    capsys.readouterr()


def test_verbose_and_quiet_do_not_go_together(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["play", "-v", "-q"])
    assert stop.value.code == 2 and "not allowed with argument" in capsys.readouterr().err


def test_enrol_on_a_simulated_reader_takes_a_new_tag_at_each_enter_typed_on_the_terminal(tmp_path):
    """No reader on this machine yet: the walk runs to its end with Enter, and saves a registry the table reads."""
    from on_a_terminal import OnATerminal
    from scenarios import VOCAB

    from toprace_pi.hardware.tags import TagRegistry

    config = tmp_path / "table.toml"
    config.write_text(f'[files]\nregistry = "{tmp_path / "tags.json"}"\n', "utf-8")
    terminal = OnATerminal("enrol", "cars", "--config", str(config))
    try:
        terminal.wait_for("scan the Blue car")
        for car in CARS:
            terminal.press("\r")
            terminal.wait_for(f"enrolled the {car} car")
        terminal.wait_for("saved 6 tags")
    finally:
        code = terminal.close()
    assert code == 0 and "Enter lays a new made-up tag on it" in terminal.text and "Traceback" not in terminal.text
    saved = TagRegistry.load(tmp_path / "tags.json", VOCAB)
    assert sorted(saved.get(tag)[1].id for tag in saved) == sorted(car.id for car in CARS)


def test_enrol_on_a_simulated_reader_without_a_terminal_says_why_in_one_line(tmp_path):
    config = tmp_path / "table.toml"
    config.write_text(f'[files]\nregistry = "{tmp_path / "tags.json"}"\n', "utf-8")
    done = subprocess.run([sys.executable, "-m", "toprace_pi", "enrol", "cars", "--config", str(config)],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == ('toprace-pi: the discard reader is simulated (kind = "simulated" under [readers.discard]): '
                           "run the enrolment in a terminal, where Enter lays a tag on it\n")
    assert not (tmp_path / "tags.json").exists()
