"""AUTORACE's table from the command line: ``demo --game autorace`` plays a series at the simulated
table through the real ``run_demo``, and ``replay`` plays its journal back or reports it."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

from boards import SVG
from support.autorace import cut_mid_round

from toprace_pi.cli import main
from toprace_pi.games.autorace.rules import Choose


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_the_demo_then_its_replay_and_its_report(capsys, tmp_path):
    journal = tmp_path / "demo.jsonl"
    code, out, err = run(capsys, "demo", "--game", "autorace", "--players", "3", "--bots", "sensible,random,random",
                         "--seed", "2", "--fast", "--no-colour", "--journal", str(journal))
    assert code == 0 and err == "" and "Revealed: " in out and "Final money: " in out and journal.exists()
    assert "space 0" in out and "\x1b[" not in out
    code, out, err = run(capsys, "replay", "--game", "autorace", str(journal), "--fast", "--no-colour")
    assert code == 0 and err == "" and out.rstrip().endswith("steps; the series is over")
    assert "has chosen" in out and "Revealed: " in out
    code, out, err = run(capsys, "replay", "--game", "autorace", str(journal), "--report", "json")
    assert code == 0 and json.loads(out)["settings"]["journal"] == str(journal)
    code, out, err = run(capsys, "replay", "--game", "autorace", str(journal), "--report", "text")
    assert code == 0 and out.strip()


def test_a_replay_with_svg_dir_draws_every_step_and_the_page_that_plays_them(capsys, tmp_path):
    journal, folder = tmp_path / "demo.jsonl", tmp_path / "pictures"
    assert run(capsys, "demo", "--game", "autorace", "--bots", "sensible", "--players", "3", "--seed", "4", "--fast",
               "--journal", str(journal))[0] == 0
    code, out, err = run(capsys, "replay", "--game", "autorace", str(journal), "--fast", "--no-colour",
                         "--svg-dir", str(folder))
    steps = int(re.search(r"(\d+) steps; the series is over", out)[1])
    assert code == 0 and err == "" and f"pictures of {steps + 1} steps: {folder / 'index.html'}" in out
    frames = sorted(folder.glob("frame-*.svg"))
    assert len(frames) == steps + 1  # the start, then one a step
    captions = [[t.text for t in ET.parse(f).getroot().iter(f"{SVG}text") if t.get("class") == "caption"]
                for f in (frames[0], frames[-1])]
    assert captions[0][0] == "Game 1, round 1" and captions[-1][0] == "Game 1: the series is over"
    last = ET.parse(frames[-1]).getroot()
    assert len([g for g in last.iter(f"{SVG}g") if "piece" in g.get("class", "")]) == 3
    page = (folder / "index.html").read_text("utf-8")
    assert "<title>AUTORACE: the game step by step</title>" in page and frames[-1].name in page


def test_the_report_of_a_journal_cut_mid_round_holds_no_card_still_sealed(espeak_on_path, capsys, tmp_path):
    journal = tmp_path / "cut.jsonl"
    cut = cut_mid_round(journal, 14, rounds=2).game
    sealed = [str(Choose(seat, card)) for seat, card in enumerate(cut.sealed) if card is not None]
    assert sealed and set(sealed) <= {str(action) for action in cut.log}
    code, out, err = run(capsys, "replay", "--game", "autorace", str(journal), "--report", "json")
    report = json.loads(out)
    assert code == 0 and report["log"][-1] == "reveal" and len(report["log"]) < len(cut.log)
    code, out, err = run(capsys, "replay", "--game", "autorace", str(journal), "--fast", "--no-colour")
    assert code == 0 and out.rstrip().endswith("steps; the game goes on")
    assert not any(text in out for text in sealed)


def autorace_config(tmp_path):
    config = tmp_path / "table.toml"
    config.write_text('[game]\nname = "autorace"\nplayers = ["Anna", "Ben", "Carla"]\n'
                      f'[files]\nregistry = "{tmp_path / "tags.json"}"\n'
                      '[buttons]\nkind = "simulated"\n[strip]\nbackend = "simulated"\n', "utf-8")
    return config


def test_calibrate_walks_the_73_leds_of_an_autorace_board(capsys, tmp_path, monkeypatch):
    """The config's game says whose board is calibrated: each LED under its space, the presses typed."""
    import io

    from toprace_pi.games.autorace.data import load_board
    from toprace_pi.games.autorace.table.board import load_profile

    out_file = tmp_path / "board.toml"
    monkeypatch.setattr("sys.stdin", io.StringIO("o\n" * 70 + "u\n" + "o\n" * 4))  # LED 69 taken back
    code, out, err = run(capsys, "calibrate", "standard", "--config", str(autorace_config(tmp_path)),
                         "--out", str(out_file))
    assert code == 0 and err == "" and "Done: 73 LEDs assigned for AUTORACE." in out
    profile = load_profile("standard", load_board(), out_file)
    assert profile.led_count == 73 and profile.seats == () and profile.spaces["72"] == (72,)


def test_enrol_names_the_games_walks_for_one_it_has_not(capsys, tmp_path):
    code, out, err = run(capsys, "enrol", "cars", "--config", str(autorace_config(tmp_path)))
    assert code == 2 and out == "" and "Traceback" not in err
    assert err.strip() == "toprace-pi: AUTORACE has no tags called 'cars' to enrol (its walks: cards, red, blue, green)"
