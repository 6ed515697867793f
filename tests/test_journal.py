"""The game journal at the table: resume after a restart, a new game archives the old
journal, and what is written can be read back exactly."""

from __future__ import annotations

import json

import pytest
from test_table import demo as demo_table

from toprace_pi.data import load_track
from toprace_pi.errors import DataError
from toprace_pi.rules import Phase
from toprace_pi.table.config import parse_config
from toprace_pi.table.demo import DemoPlayers, build_demo_table
from toprace_pi.table.journal import FORMAT, VERSION, Journal, load
from toprace_pi.table.live import open_game


def config_for(path):
    return parse_config({"game": {"players": ["Anna", "Ben", "Carla"]}, "files": {"journal": str(path)}}, "test")


def played_some(path, steps: int = 40, deck: str = "standard"):
    """A demo table with a journal, played by bots for a while, then abandoned (a crash)."""
    table = build_demo_table(load_track("speed-street"), 3, 2, deck=deck, say=lambda _: None, journal=path)
    players = DemoPlayers(["greedy"] * 3, seed=2)
    while len(table.controller.game.log) < steps:
        players.act(table)
    return table


def test_the_journal_holds_every_confirmed_step_in_order(tmp_path):
    path = tmp_path / "journal.jsonl"
    table = played_some(path)
    game = table.controller.game
    lines = path.read_bytes().splitlines()
    header = json.loads(lines[0])
    assert header["format"] == FORMAT and header["version"] == VERSION
    assert [json.loads(line)["n"] for line in lines] == list(range(len(lines)))
    assert load(path).steps == game.log


def test_play_resumes_the_game_in_progress_and_says_whose_turn_it_is(tmp_path):
    path = tmp_path / "journal.jsonl"
    table = played_some(path)
    expected = table.controller.game.snapshot()
    said: list[str] = []
    game, journal, inputs = open_game(config_for(path), said.append)
    assert game.snapshot() == expected and inputs == table.controller.inputs
    assert said[-1].startswith(f"resumed the game from {path} after {len(game.log)} steps")
    journal.close()


def test_a_game_resumes_with_the_deck_its_journal_names(tmp_path):
    path = tmp_path / "journal.jsonl"
    table = played_some(path, deck="older-edition")
    assert json.loads(path.read_bytes().splitlines()[0])["settings"]["deck"] == "older-edition"
    assert load(path).steps == table.controller.game.log
    game, journal, _ = open_game(config_for(path), lambda _: None)  # the configuration's deck is the standard one
    journal.close()
    assert game.snapshot() == table.controller.game.snapshot() and game.cars.joker.id == "black"


def test_a_new_game_takes_the_configured_deck(tmp_path):
    path = tmp_path / "journal.jsonl"
    config = parse_config({"game": {"deck": "older-edition"}, "files": {"journal": str(path)}}, "test")
    game, journal, _ = open_game(config, lambda _: None)
    journal.close()
    assert game.settings.deck == "older-edition" and [c.id for c in game.cars][2] == "lightblue"
    assert load(path).settings.deck == "older-edition"


def test_a_new_game_archives_the_old_journal(tmp_path):
    path = tmp_path / "journal.jsonl"
    played_some(path)
    old = path.read_bytes()
    said: list[str] = []
    game, journal, inputs = open_game(config_for(path), said.append, new=True)
    journal.close()
    archived = [p for p in tmp_path.iterdir() if p != path]
    assert len(archived) == 1 and archived[0].read_bytes() == old
    assert game.log == [] and inputs == 0 and "the old journal is kept as" in said[-1]


def test_a_finished_game_in_the_journal_starts_a_new_one(tmp_path):
    path = tmp_path / "journal.jsonl"
    table = build_demo_table(load_track("speed-street"), 2, 1, say=lambda _: None, journal=path)
    from toprace_pi.table.demo import play_demo

    play_demo(table, DemoPlayers(["greedy"] * 2, seed=1))
    table.close()
    game, journal, _ = open_game(config_for(path), lambda _: None)
    journal.close()
    assert game.phase is Phase.DEAL and game.log == [] and len(list(tmp_path.iterdir())) == 2


def test_a_journal_from_another_version_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "journal.jsonl"
    path.write_text(json.dumps({"format": FORMAT, "version": 99, "n": 0, "crc": "0"}) + "\n", "utf-8")
    before = path.read_bytes()
    with pytest.raises(DataError, match="journal.jsonl"):
        open_game(config_for(path), lambda _: None)
    assert path.read_bytes() == before


def test_the_controller_never_shows_a_step_the_journal_did_not_take(tmp_path):
    table, said, _ = demo_table()
    path = tmp_path / "j.jsonl"
    journal = Journal.create(path, table.controller.game.settings)
    table.controller.journal = journal
    players = DemoPlayers(["greedy"] * 4, seed=3)
    for _ in range(10):
        players.act(table)
    journal.close()
    assert load(path).steps == table.controller.game.log[-load(path).records:]
