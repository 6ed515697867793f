"""The command line game by game: ``simulate`` and ``demo`` take the options of the game ``--game``
names (AUTORACE's players, series, boost, bots, board), say whose options their help shows, build
only the command run (the help imports no game's machinery), and refuse in one line."""

from __future__ import annotations

import json
import subprocess
import sys
import types
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from support.cli import run

from toprace_pi.core import registry

ROOT = Path(__file__).resolve().parents[2]
SERIES = ["simulate", "--game", "autorace", "--players", "5", "--games", "3", "--boost", "32", "--bots", "sensible",
          "--seed", "4"]


def test_simulate_autorace_prints_a_report_of_the_series(capsys):
    code, out, err = run(capsys, *SERIES)
    assert code == 0 and err == ""
    assert out.startswith("AUTORACE, board standard: Anna (Red), Ben (Blue), Carla (Green), David (Yellow), "
                          "Eva (Purple); 3 games, boost $32, seed 4, bots sensible")
    for expected in ("\nGame 1\n", "  Round 1: Anna ", "Game 3 is over", "Game 2 starts; everyone receives $32",
                     "Over the series:", "Final money: Anna $", "Winner"):
        assert expected in out


def test_simulate_autorace_json_holds_plain_values_of_every_game_and_player(capsys):
    code, out, _ = run(capsys, *SERIES, "--json")
    doc = json.loads(out)
    names = ["Anna", "Ben", "Carla", "David", "Eva"]
    assert code == 0 and doc["settings"] == {
        "game": "autorace", "board": "standard", "players": names, "games": 3, "boost": 32, "seed": 4,
        "bots": "sensible", "colours": dict(zip(names, ["Red", "Blue", "Green", "Yellow", "Purple"]))}
    assert [g["game"] for g in doc["games"]] == [1, 2, 3] and doc["games"][1]["boost"] == 32
    assert all(g["reason"] in ("finish", "stuck", "stalled") and g["rounds"] > 0 for g in doc["games"])
    assert doc["games"][-1]["money"] == doc["final_money"] and set(doc["winners"]) <= set(names)
    for key in ("fines", "bonuses", "draws", "draw_costs", "outs", "out_fines", "fines_unpaid"):
        assert [p[key] for p in doc["players"]] == [sum(g["players"][n][key] for g in doc["games"]) for n in names]
    assert sum(doc["final_money"].values()) + doc["bank"] == 5 * 32 and doc["log"][-1] == "reveal"


def test_the_same_seed_gives_the_same_autorace_report(capsys):
    assert run(capsys, *SERIES, "--json")[1] == run(capsys, *SERIES, "--json")[1]


def test_each_seat_may_have_its_own_bot(capsys):
    code, out, _ = run(capsys, "simulate", "--game", "autorace", "--players", "3", "--bots", "sensible,random,random",
                       "--json")
    assert code == 0 and json.loads(out)["settings"]["bots"] == "sensible,random,random"


@pytest.mark.parametrize("argv, message", [
    (["--players", "6"], "players must be a whole number from 2 to 5, not '6'"),
    (["--players", "1"], "players must be a whole number from 2 to 5"),
    (["--games", "0"], "expected a whole number from 1"),
    (["--boost", "x"], "expected an amount of money"),
    (["--bots", "smart"], "invalid choice: 'smart'"),
    (["--bots", "random,random"], "2 bots for 4 players"),
    (["--board", "nowhere.toml"], "not a shipped board"),
    (["--track", "speed-street"], "--track speed-street: not an option of AUTORACE"),
    (["--seed", "x"], "the seed must be a whole number"),
])
def test_bad_autorace_arguments_give_one_line_and_exit_code_2(capsys, argv, message):
    code, out, err = run(capsys, "simulate", "--game", "autorace", *argv)
    assert code == 2 and out == "" and "Traceback" not in err
    assert message in err and len(err.strip().splitlines()) == 1


def test_top_races_options_are_not_autoraces(capsys):
    code, _, err = run(capsys, "simulate", "--boost", "32")
    assert code == 2 and "--boost 32: not an option of Top Race" in err


@pytest.mark.parametrize("game, title, own, other", [("autorace", "AUTORACE", "--boost", "--track"),
                                                      ("toprace", "Top Race", "--track", "--boost")])
@pytest.mark.parametrize("command", ["simulate", "demo"])
def test_the_help_says_whose_options_it_shows(capsys, command, game, title, own, other):
    code, out, _ = run(capsys, command, "--game", game, "--help")
    assert code == 0 and f"The options below are {title}'s (--game {game})" in " ".join(out.split())
    assert own in out and other not in out


def imported(*argv: str) -> list[str]:
    """The modules a fresh interpreter has imported once it has run ``argv`` (the help: it exits)."""
    probe = ("import json, sys\nfrom toprace_pi.cli import main\ntry:\n    main(sys.argv[1:])\nexcept SystemExit:\n"
             "    pass\nprint(json.dumps(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True, text=True, cwd=ROOT,
                          timeout=60)
    return list(json.loads(done.stdout.strip().splitlines()[-1]))


#: What the help lists of the games: the modules that declare their own commands, and their packages.
COMMAND_MODULES = {module for point in entry_points(group=registry.COMMANDS_GROUP)
                   for module in (point.module, point.module.rsplit(".", 1)[0], "toprace_pi.games")}


def imported_games(*argv: str) -> list[str]:
    """The games' modules ``argv`` imports, beside the light ones that declare the games' own commands."""
    return [module for module in imported(*argv) if module.startswith("toprace_pi.games")
            and module not in COMMAND_MODULES]


def test_the_help_imports_no_game_and_a_games_help_only_that_game():
    assert imported_games("--help") == []
    assert [m for m in imported("games", "--help") if m.startswith("toprace_pi.games")] == []
    assert not [m for m in imported_games("simulate", "--game", "autorace", "--help") if ".toprace" in m]


#: What the command line's help has no use for: the web server and the libraries of the table's devices.
LIBRARIES = {"aiohttp", "segno", "gpiozero", "serial", "adafruit_pn532", "rpi_ws281x", "neopixel_spi", "board",
             "busio", "digitalio", "lgpio"}
#: ... nor the games (their rules, variants, bots), the web pages, the devices and the table.
OWN = ("toprace_pi.games", "toprace_pi.web", "toprace_pi.hardware", "toprace_pi.table")


@pytest.mark.parametrize("argv", [["--help"], ["play", "--help"]])
def test_the_help_leaves_the_games_the_web_and_the_hardware_unimported(argv):
    modules = imported(*argv)
    assert "toprace_pi.cli" in modules  # the probe ran
    assert [m for m in modules if m.split(".")[0] in LIBRARIES or m.startswith(OWN) and m not in COMMAND_MODULES] == []


def fake_autorace_demo(monkeypatch, calls: list[dict]) -> None:
    """AUTORACE's demo module (the table's side, made elsewhere) stood in for by one that records its call."""
    package = types.ModuleType("toprace_pi.games.autorace.table")
    package.__path__ = []
    demo = types.ModuleType("toprace_pi.games.autorace.table.demo")
    demo.run_demo = lambda **options: calls.append(options)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "toprace_pi.games.autorace.table", package)
    monkeypatch.setitem(sys.modules, "toprace_pi.games.autorace.table.demo", demo)


def test_demo_autorace_runs_autoraces_demo_with_its_options_and_the_tables(capsys, monkeypatch, tmp_path):
    calls: list[dict] = []
    fake_autorace_demo(monkeypatch, calls)
    journal = tmp_path / "demo.jsonl"
    code, _, err = run(capsys, "demo", "--game", "autorace", "--players", "3", "--games", "2", "--boost", "32",
                       "--bots", "random", "--seed", "5", "--fast", "--no-colour", "--journal", str(journal))
    assert code == 0 and err == "" and len(calls) == 1
    options = calls[0]
    assert {k: options[k] for k in ("players", "games", "boost", "seed", "bots", "delay", "journal", "humans")} == {
        "players": 3, "games": 2, "boost": 32, "seed": 5, "bots": "random", "delay": 0.0, "journal": journal,
        "humans": []}
    assert set(options) == {"players", "games", "boost", "seed", "bots", "strength", "delay", "colour", "journal",
                            "screen", "keys", "humans"}


def test_demo_autorace_without_its_demo_module_says_so_in_one_line(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "toprace_pi.games.autorace.table.demo", None)
    code, out, err = run(capsys, "demo", "--game", "autorace", "--fast")
    assert code == 2 and "AUTORACE's demo cannot start" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("game", ["toprace", "autorace"])
def test_a_demo_without_gpiozero_says_what_to_install_in_one_line(capsys, monkeypatch, game):
    monkeypatch.setitem(sys.modules, "gpiozero", None)
    monkeypatch.setitem(sys.modules, "gpiozero.pins.mock", None)
    code, out, err = run(capsys, "demo", "--game", game, "--fast")
    assert code == 2 and out == "" and "pip install gpiozero" in err and len(err.strip().splitlines()) == 1


def test_play_refuses_a_game_its_configuration_is_not_for(capsys, tmp_path):
    config = tmp_path / "table.toml"
    config.write_text('[game]\nname = "autorace"\n')
    code, _, err = run(capsys, "play", "--game", "toprace", "--config", str(config))
    assert code == 2 and "is for AUTORACE (autorace)" in err


@pytest.mark.parametrize("game, others", [("toprace", "greedy,greedy,random"), ("autorace", "sensible,random"),
                                          ("topspeed", "sensible,random")])
def test_simulate_seats_a_search_bot_beside_others(capsys, game, others):
    players = str(len(others.split(",")) + 1)
    code, out, err = run(capsys, "simulate", "--game", game, "--players", players, "--bots", f"search,{others}",
                         "--strength", "easy", "--seed", "3", "--json")
    assert code == 0 and err == ""
    report = json.loads(out)
    assert (report["bots"] if "bots" in report else report["settings"]["bots"]) == f"search,{others}"


@pytest.mark.parametrize("game", ["toprace", "autorace", "topspeed"])
def test_the_demo_seats_search_bots_of_normal_strength_unless_told_otherwise(capsys, game):
    code, out, _ = run(capsys, "demo", "--game", game, "--help")
    text = " ".join(out.split())
    assert code == 0 and "default search)" in text and "default normal" in text
    assert "easy (16 playouts a decision)" in text and "counted, never timed" in text
    assert "the same seed plays the same game every time" in text


@pytest.mark.parametrize("argv, message", [
    (["--bots", "search,greedy"], "2 bots for 4 players"),
    (["--bots", "search,clever,greedy,greedy"], "invalid choice: 'clever'"),
    (["--strength", "genius"], "invalid choice: 'genius'"),
])
def test_bad_bots_are_refused_in_one_line(capsys, argv, message):
    code, _, err = run(capsys, "simulate", *argv)
    assert code == 2 and message in err and len(err.strip().splitlines()) <= 2


def test_enrols_help_lists_every_games_walks(capsys):
    """Each game's walks as its own tags name them, at its biggest table (every colour's set)."""
    from toprace_pi.core import registry
    from toprace_pi.games.autorace.data import load_board
    from toprace_pi.games.autorace.table.tags import tag_book as autorace_tags
    from toprace_pi.games.toprace.data import load_deck as load_top_race_deck
    from toprace_pi.games.toprace.table.tags import tag_book as top_race_tags
    from toprace_pi.games.topspeed.data import load_deck as load_top_speed_deck
    from toprace_pi.games.topspeed.table.tags import tag_book as top_speed_tags

    books = {"toprace": top_race_tags(load_top_race_deck(), 6), "autorace": autorace_tags(load_board(), 5),
             "topspeed": top_speed_tags(load_top_speed_deck(), 8)}
    code, out, _ = run(capsys, "enrol", "--help")
    said = " ".join(out.split())
    assert code == 0 and set(books) == set(registry.game_names())
    for game, book in books.items():
        assert f"{registry.get(game).info.title}: {', '.join(book.walks)}" in said
    assert "TOP SPEED: minicards, red, green, blue, yellow, orange, purple, white, pink" in said
    assert "Top Race: cards, cars, pitstops;" in said
