"""Whole TOP SPEED races at the demo table at human pace (the real controller, gpiozero's mock
buttons, the LED view, a fake clock), their journals cut, resumed and replayed, the bots measured,
and the command line's simulate, demo and replay."""

from __future__ import annotations

import json
import math
import re

import pytest
from pace import PACE, Hearing, play_at_pace, run_loop
from support.cli import run

from toprace_pi.games.topspeed.render.palette import seat_cars
from toprace_pi.games.topspeed.render.terminal import render_board
from toprace_pi.games.topspeed.rules import Keep, Leave
from toprace_pi.games.topspeed.simulate import simulate
from toprace_pi.games.topspeed.table.demo import DemoPlayers, build_demo_table, run_demo
from toprace_pi.games.topspeed.table.replay import TopSpeedReplay
from toprace_pi.games.topspeed.table.side import TopSpeedTable
from toprace_pi.games.topspeed.table.words import label
from toprace_pi.table.config import parse_config
from toprace_pi.table.live import open_game
from toprace_pi.table.replay import replay_journal
from toprace_pi.table.screen import DemoScreen


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
    replayed = replay_journal(path, TopSpeedReplay(colour=False), pause=0, out=out.append)
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


def test_simulate_and_demo_take_the_blank_card_as_an_extra_card_and_name_a_bad_one(capsys):
    code, out, err = run(capsys, "simulate", "--game", "topspeed", "--players", "2", "--blank", "safety_car",
                         "--json")
    report = json.loads(out)
    assert code == 0 and report["settings"]["blank_as"] == "safety_car" and report["winner"]
    code, out, err = run(capsys, "simulate", "--game", "topspeed", "--players", "2", "--blank", "2", "--seed", "1")
    assert code == 0 and out.startswith("TOP SPEED on Montmeló: 2 players, 10 laps, the normal race, "
                                        "the blank card as a 2 in every deck, seed 1")
    code, out, err = run(capsys, "simulate", "--game", "topspeed", "--blank", "turbo")
    assert code != 0 and "the card the blank card plays as: no card 'turbo'" in err and "Traceback" not in err
    code, out, err = run(capsys, "demo", "--game", "topspeed", "--blank", "blank", "--fast")
    assert code != 0 and "the card the blank card plays as: the blank card plays as another card" in err


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


def bots_green_cards(game, bots) -> list[str]:
    """The words a bot's turn had for each green card it drew under KERS (``keep a 3 apart (KERS)``, ``leave a 3
    in the row``): that card is the bot's to keep apart unseen, so none of them may reach the screen."""
    again = game.replayed([])
    words = []
    for action in game.log:
        seat = again.turn
        if seat in bots and again.drawn[seat] is not None:
            words += [label(again, Keep(seat)), label(again, Leave(seat))]
        again.apply(action)
    return words


def test_with_a_human_at_the_keyboard_the_news_tells_no_bots_secret(tmp_path):
    """A whole race with KERS, Zoe at the keyboard: every line naming a bot is something the table announced
    from the engine's events (which tell no deck's order and no card kept apart) or the bot's scoreboard line;
    no bot's prompt, which names the green card it may keep apart, is shown. Zoe still reads her own."""
    shown: list[str] = []
    game = run_demo(players=3, laps=4, seed=5, variant="wet+kers", delay=0.0, colour=False,
                    journal=tmp_path / "j.jsonl", screen=DemoScreen(shown.append, live=False), keys=Pressing(),
                    humans=["Zoe"])
    assert game.is_over and game.names[0] == "Zoe"
    told = "".join(shown).splitlines()
    bots = {1, 2}
    secrets = bots_green_cards(game, bots)
    assert secrets and any(isinstance(a, Keep) and a.seat in bots for a in game.log)  # bots kept cards apart
    assert not [line for line in told if any(words in line for words in secrets)]
    announced = {TopSpeedTable().announcement(event, game.names) for event in game.events}
    scores = {line for line in told if re.match(r"\d\. [A-Z] ", line)}
    naming_bots = [line for line in told if any(game.names[seat] in line for seat in bots)]
    assert naming_bots and set(naming_bots) <= announced | scores, set(naming_bots) - announced - scores
    assert "Zoe, lap 1 of 4: draw a card? OK (NEXT for the other choices)" in told


def test_the_board_has_a_title_and_a_key_for_its_marks_and_lapped_cars():
    """A race in which a car is lapped, drawn as the demo draws it: the title and key come first and say what
    a lower-case letter is; the lapped car is its letter in lower case; all within 80 columns."""
    race = simulate(4, 10, seed=0, bots=["sensible", "random", "random", "random"])
    game = race.replayed([])
    for action in race.log:
        game.apply(action)
        if any(game.lapped) and game.stage.name == "RACE":
            break
    view = game.view(None)
    lines = render_board(view, game.names, game.circuit.spaces, colour=False).splitlines()
    assert lines[0] == "TOP SPEED: the circuit unrolled into one row of 32 spaces"
    assert "lower case" in lines[2] and "lapped" in lines[2] and "finish line |" in lines[1]
    row = lines[3]
    for seat, car in enumerate(seat_cars(4)):
        if view["spaces"].count(view["spaces"][seat]) == 1:  # alone on its space
            assert row[2 + view["spaces"][seat]] == (car.letter.lower() if game.lapped[seat] else car.letter)
    assert max(map(len, lines)) <= 80


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
