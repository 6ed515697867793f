"""The game journal at the table: resume after a restart, a new game archives the old
journal, and what is written can be read back exactly."""

from __future__ import annotations

import json
import os
import random
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from support.toprace_table import demo as demo_table

from toprace_pi.cli import main
from toprace_pi.errors import DataError
from toprace_pi.games.toprace.data import load_track
from toprace_pi.games.toprace.rules import Phase, Settings
from toprace_pi.games.toprace.table.demo import DemoPlayers, build_demo_table
from toprace_pi.table import journal as journal_module
from toprace_pi.table.config import TableConfig, parse_config
from toprace_pi.table.journal import FORMAT, VERSION, Journal, load
from toprace_pi.table.live import open_game
from toprace_pi.table.lock import AlreadyRunning, TableLock


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


# --- one writer, private files, folders --------------------------------------------------


def test_a_second_table_on_the_same_journal_is_refused_naming_the_first_ones_pid(tmp_path):
    path = tmp_path / "journal.jsonl"
    first = TableLock(path)
    with pytest.raises(AlreadyRunning, match=rf"already running \(pid {os.getpid()}\)"):
        TableLock(path)
    first.close()
    TableLock(path).close()  # released: the next start takes it


def test_play_started_by_hand_beside_the_service_exits_at_once_with_code_2(tmp_path):
    """A real second process: the lock is the kernel's, not a file that could go stale."""
    config = tmp_path / "table.toml"
    journal = tmp_path / "journal.jsonl"
    config.write_text(f'[files]\njournal = "{journal}"\nregistry = "{tmp_path / "tags.json"}"\n'
                      '[sound]\nspeech = false\n', "utf-8")
    holder = TableLock(journal)
    try:
        run = subprocess.run([sys.executable, "-m", "toprace_pi", "play", "--config", str(config)],
                             capture_output=True, text=True, timeout=60)
    finally:
        holder.close()
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert f"the table is already running (pid {os.getpid()})" in run.stderr
    assert "the table cannot start: the table is already running" in run.stdout  # said aloud as well
    assert not journal.exists()  # the second process touched nothing


def test_the_journal_is_readable_by_its_owner_only(tmp_path):
    path = tmp_path / "journal.jsonl"
    Journal.create(path, Settings(("Anna", "Ben"))).close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    path.chmod(0o644)  # as an older version left it
    journal, _ = Journal.resume(path)
    journal.close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_the_folders_of_a_new_journal_are_made_as_needed(tmp_path):
    path = tmp_path / "a" / "b" / "journal.jsonl"
    Journal.create(path, Settings(("Anna", "Ben"))).close()
    assert load(path).steps == [] and stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_the_default_paths_are_in_the_users_home_not_a_folder_called_tilde():
    config = TableConfig()
    assert "~" not in str(config.journal) and "~" not in str(config.registry)
    assert config.journal.is_absolute() and str(config.journal).startswith(str(Path.home()))


def test_a_journal_that_cannot_be_created_is_a_message_and_exit_code_2_not_a_traceback(tmp_path, capsys):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x", "utf-8")
    config = tmp_path / "table.toml"
    config.write_text(f'[files]\njournal = "{blocker / "journal.jsonl"}"\n[sound]\nspeech = false\n', "utf-8")
    assert main(["play", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert str(blocker) in err and "Not a directory" in err and "Traceback" not in err
    assert set(tmp_path.iterdir()) == {blocker, config}  # no stray lock or half-made journal


# --- refuse rather than cut ------------------------------------------------------------------


@pytest.mark.parametrize("change, line, what", [
    (lambda lines: lines + [b""], "last", "damaged record"),  # an empty last line
    (lambda lines: lines[:-2] + lines[-1:], "last", "one before it is missing"),  # a record deleted before the last
    (lambda lines: lines + [b"hello"], "last", "damaged record"),  # garbage appended with a newline
])
def test_a_journal_changed_other_than_by_a_torn_write_is_refused_and_left_as_it_is(tmp_path, change, line, what):
    path = tmp_path / "journal.jsonl"
    played_some(path, steps=20)
    lines = change(path.read_bytes().split(b"\n")[:-1])
    path.write_bytes(b"\n".join(lines) + b"\n")
    before = path.read_bytes()
    with pytest.raises(DataError, match=what) as error:
        open_game(config_for(path), lambda _: None)
    assert f"{path}: line {len(lines)}:" in str(error.value)
    assert path.read_bytes() == before


def test_bytes_at_the_end_that_are_no_record_are_refused(tmp_path):
    path = tmp_path / "journal.jsonl"
    played_some(path, steps=20)
    path.write_bytes(path.read_bytes() + b"stray text")
    before = path.read_bytes()
    with pytest.raises(DataError, match="not a record, and not one cut short"):
        Journal.resume(path)
    assert path.read_bytes() == before


@pytest.mark.parametrize("tail", [b'{"n":21,"st', b'{"n":21,"step":"pass"}', b"\0" * 40, b'{"n":2\0\0\0'])
def test_a_torn_last_write_is_dropped_and_the_game_goes_on(tmp_path, tail):
    path = tmp_path / "journal.jsonl"
    played_some(path, steps=20)
    whole = path.read_bytes()
    path.write_bytes(whole + tail)
    said: list[str] = []
    game, journal, _ = open_game(config_for(path), said.append)
    journal.close()
    assert path.read_bytes() == whole and any("cut short" in s for s in said)
    assert game.log == load(path).steps


def test_a_well_formed_record_the_game_refuses_is_named_by_file_and_line(tmp_path):
    path = tmp_path / "journal.jsonl"
    played_some(path, steps=20)
    lines = path.read_bytes().split(b"\n")[:-1]
    bad, _ = journal_module._line({"n": len(lines), "step": "bid 990000000"}, int(json.loads(lines[-1])["crc"], 16))
    path.write_bytes(b"\n".join(lines) + b"\n" + bad)
    before = path.read_bytes()
    with pytest.raises(DataError) as error:
        open_game(config_for(path), lambda _: None)
    assert str(error.value).startswith(f"{path}: line {len(lines) + 1}: bid 990000000 cannot be played here")
    assert path.read_bytes() == before


# --- every record tied to its journal; journals of version 1 go on ---------------------------------------------------


def test_a_new_journal_has_an_id_of_its_own_and_the_same_records_in_two_journals_are_different_lines(tmp_path):
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    played_some(first, steps=20)
    played_some(second, steps=20)  # the same settings and seed: the same game
    lines = [path.read_bytes().splitlines() for path in (first, second)]
    headers = [json.loads(journal[0]) for journal in lines]
    assert [h["version"] for h in headers] == [VERSION, VERSION] == [2, 2]
    assert all(re.fullmatch("[0-9a-f]{32}", h["id"]) for h in headers) and headers[0]["id"] != headers[1]["id"]

    def without_crc(line: bytes) -> dict:
        return {key: value for key, value in json.loads(line).items() if key != "crc"}

    assert [without_crc(line) for line in lines[0][1:]] == [without_crc(line) for line in lines[1][1:]]
    assert all(a != b for a, b in zip(*lines, strict=True))


#: Journals of games in progress written by the version before (journal version 1: no id, no chain).
VERSION_1_JOURNALS = sorted((Path(__file__).parent / "journals").glob("v1-*.jsonl"))


@pytest.mark.parametrize("written", VERSION_1_JOURNALS, ids=lambda path: path.stem)
def test_a_game_in_a_journal_of_version_1_resumes_and_goes_on_in_that_version(tmp_path, written):
    """As a table updated mid-game finds it (after a power cut, a record cut short): the game goes on to
    its end, and every record read alone holds its CRC, as version 1 has it."""
    old = written.read_bytes()
    path = tmp_path / "journal.jsonl"
    path.write_bytes(old + b'{"in":1000,"n":')
    name = json.loads(old.splitlines()[0])["game"]["name"]
    said: list[str] = []
    game, journal, inputs = open_game(parse_config({"game": {"name": name}, "files": {"journal": str(path)}}, "test"),
                                      said.append)
    assert path.read_bytes() == old and any("cut short" in s for s in said)
    assert said[-1] == f"resumed the game from {path} after {len(load(written).steps)} steps" and not game.is_over
    rng = random.Random(1)
    while not game.is_over:
        action = game.chance_outcomes().sample(rng) if game.decision.chance else rng.choice(game.legal_actions())
        journal.append(action, input_number=inputs)
        game.apply(action)
    journal.close()
    lines = path.read_bytes().splitlines()
    assert path.read_bytes().startswith(old) and len(lines) > old.count(b"\n")
    assert all(journal_module._record(line) is not None for line in lines)
    assert load(path).steps == game.log
