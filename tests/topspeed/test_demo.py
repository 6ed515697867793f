"""Whole TOP SPEED races at the demo table at human pace (the real controller, gpiozero's mock
buttons, the LED view, a fake clock), their journals cut, resumed and replayed, the bots measured,
and the command line's simulate, demo and replay."""

from __future__ import annotations

import json
import math

import pytest
from pace import PACE, Hearing, play_at_pace, run_loop
from test_cli_games import run

from toprace_pi.games.topspeed.simulate import simulate
from toprace_pi.games.topspeed.table.demo import DemoPlayers, build_demo_table
from toprace_pi.games.topspeed.table.replay import replay_journal
from toprace_pi.table.config import parse_config
from toprace_pi.table.live import open_game


def state(game) -> str:
    return json.dumps(game.to_dict(), sort_keys=True)


def play_race(players: int, seed: int, *, variant: str = "normal", laps: int = 5, journal=None, bots="sensible"):
    """A whole race at human pace: a press every :data:`PACE` seconds, the LEDs composed all along."""
    hearing = Hearing()
    demo = build_demo_table(players, laps=laps, variant=variant, seed=seed, say=hearing.say, ask=hearing.ask,
                            clock=hearing.clock, journal=journal)
    kinds = bots.split(",") if "," in bots else [bots] * players
    bots_ = DemoPlayers(kinds, seed)

    def check(demo) -> None:
        assert demo.strip.last == demo.table.view.frame(demo.controller.game, None, demo.table.clock())

    try:
        play_at_pace(demo, hearing, bots_.act, check=check)
    finally:
        hearing.close()
        demo.close()
    return demo.controller, hearing


@pytest.mark.parametrize(("players", "seed", "variant"), [(4, 1, "normal"), (3, 2, "wet+kers+fastest-lap"),
                                                         (2, 3, "normal+qualifying+chaotic-weather")])
def test_bots_race_to_the_end_at_human_pace_and_every_event_is_said(espeak_on_path, players, seed, variant):
    controller, hearing = play_race(players, seed, variant=variant, bots="sensible,random" if players == 2
                                    else "sensible")
    game = controller.game
    assert game.is_over and controller.refusals == 0
    assert [text for text in hearing.heard if text not in set(hearing.prompts)] == hearing.news
    assert hearing.news[-1].startswith(f"{game.names[game.winners()[0]]} wins the race")
    assert sum(line.startswith("Round ") for line in hearing.news) == game.round
    assert state(game.replayed(game.log)) == state(game)


def cut_race(path, seed: int, actions: int):
    """A race with its journal at ``path``, played until ``actions`` steps are in its log, when the power is cut."""
    hearing = Hearing()
    demo = build_demo_table(3, laps=10, variant="wet+kers", seed=seed, say=hearing.say, clock=hearing.clock,
                            journal=path)
    bots = DemoPlayers(["sensible", "random", "sensible"], seed)
    try:
        while len(demo.controller.game.log) < actions and not demo.controller.game.is_over:
            bots.act(demo)
            run_loop(demo, hearing.clock, PACE)
    finally:
        demo.close()
        hearing.close()
    return demo.controller


@pytest.mark.parametrize("actions", [5, 9, 25, 60])
def test_a_race_cut_anywhere_resumes_from_its_journal_as_it_was(espeak_on_path, tmp_path, actions):
    path = tmp_path / "journal.jsonl"
    cut = cut_race(path, 4, actions).game
    assert not cut.is_over and len(cut.log) >= actions
    config = parse_config({"game": {"name": "topspeed", "players": list(cut.names), "variant": "wet+kers",
                                    "laps": 10}, "files": {"journal": str(path)}}, "test")
    said: list[str] = []
    game, journal, _ = open_game(config, said.append)
    journal.close()
    assert state(game) == state(cut)
    assert said == [f"resumed the game from {path} after {len(cut.log)} steps"]


def test_the_journal_plays_back_the_race_as_the_table_told_it(espeak_on_path, tmp_path):
    path = tmp_path / "journal.jsonl"
    controller, hearing = play_race(3, 6, journal=path)
    out: list[str] = []
    replayed = replay_journal(path, pause=0, colour=False, out=out.append)
    assert state(replayed) == state(controller.game)
    told = [line for line in out[:-1] if "\n" not in line]
    assert told == hearing.news and out[-1] == f"{path}: {len(controller.game.log)} steps; the race is over"


def test_the_sensible_bot_beats_random_bots():
    """One sensible bot against three random ones, its seat going round (the full measure, 400 races,
    is in the report's figures)."""
    races = 40
    wins = sum(simulate(4, 6, seed=n, bots=["sensible" if s == n % 4 else "random" for s in range(4)])
               .winners()[0] == n % 4 for n in range(races))
    share = wins / races
    assert share - 1.96 * math.sqrt(max(share * (1 - share), 1e-9) / races) > 0.25


def test_simulate_prints_a_text_or_a_json_report(capsys):
    code, out, err = run(capsys, "simulate", "--game", "topspeed", "--players", "4", "--laps", "10", "--race", "wet",
                         "--qualifying", "--fastest-lap", "--kers", "--chaotic-weather", "--bots", "random",
                         "--seed", "3")
    assert code == 0 and err == "" and "Starting order: " in out and "the winner: " in out
    code, out, err = run(capsys, "simulate", "--game", "topspeed", "--players", "3", "--seed", "1", "--json")
    report = json.loads(out)
    assert report["winner"] == report["final_order"][0] and report["settings"]["laps"] == 10
    assert report["rounds"][0]["heading"] == "setup" and len(report["pit_stops"]) == 3


def test_the_demo_then_its_replay_and_its_report(capsys, tmp_path):
    journal = tmp_path / "demo.jsonl"
    code, out, err = run(capsys, "demo", "--game", "topspeed", "--bots", "sensible", "--players", "3", "--laps", "4",
                         "--seed", "2",
                         "--fast", "--no-colour", "--journal", str(journal))
    assert code == 0 and err == "" and "wins the race" in out and "lap 1 of 4" in out and "\x1b[" not in out
    code, out, err = run(capsys, "replay", "--game", "topspeed", str(journal), "--fast", "--no-colour")
    assert code == 0 and out.rstrip().endswith("steps; the race is over")
    code, out, err = run(capsys, "replay", "--game", "topspeed", str(journal), "--report", "json")
    assert code == 0 and json.loads(out)["journal"] == str(journal)
    code, out, err = run(capsys, "demo", "--game", "topspeed", "--bots", "sensible", "--human", "Anna", "--fast")
    assert code != 0


class Pressing:
    """A human at the keyboard who draws twice and passes, again and again (OK, OK, PASS)."""

    def __init__(self) -> None:
        self.keys = iter(["o", "o", "p"] * 10_000)
        self.closed = False

    def read(self) -> list[str]:
        return [next(self.keys)]

    def close(self) -> None:
        self.closed = True


def test_a_human_seat_plays_at_the_keyboard_beside_the_bots(tmp_path):
    from toprace_pi.games.topspeed.table.demo import run_demo
    from toprace_pi.table.screen import DemoScreen

    shown: list[str] = []
    keys = Pressing()
    game = run_demo(players=2, laps=3, seed=5, delay=0.0, colour=False, journal=tmp_path / "j.jsonl",
                    screen=DemoScreen(shown.append, live=False), keys=keys, humans=["Zoe"])
    assert game.is_over and game.names[0] == "Zoe" and keys.closed
    zoe = [str(action) for action in game.log if str(action).endswith(" 0") and not str(action).startswith("shuffle")]
    assert "draw 0" in zoe and "pass 0" in zoe
    assert any("Zoe, lap 1 of 3: draw a card? OK" in text for text in shown)


def test_deck_check_for_top_speed_shows_each_race_types_cards(capsys):
    code, out, err = run(capsys, "deck", "check", "--game", "topspeed")
    lines = out.splitlines()
    assert code == 0 and err == "" and lines[0] == "standard: TOP SPEED, 72 cards: the composition is valid " \
                                                   "(reconstructed)"
    assert lines[1].startswith("normal race: 68 cards;") and lines[2].startswith("wet race: 71 cards;")
    code, out, err = run(capsys, "deck", "check", "--game", "autorace")
    assert code == 2 and err.strip() == "toprace-pi: AUTORACE has no deck to check"


def test_calibrate_walks_the_circuit_the_finish_line_and_the_lap_counter(capsys, tmp_path, monkeypatch):
    import io

    config = tmp_path / "table.toml"
    config.write_text('[game]\nname = "topspeed"\n[buttons]\nkind = "simulated"\n[strip]\nbackend = "simulated"\n')
    monkeypatch.setattr("sys.stdin", io.StringIO("o\n" * 43))
    code, out, err = run(capsys, "calibrate", "montmelo", "--config", str(config), "--out", str(tmp_path / "p.toml"))
    assert code == 0 and "lap counter" in out and "Done: 43 LEDs assigned for Montmeló." in out
