"""The table survives being killed at any moment: kill -9 and restart, a journal cut
at any byte, a damaged journal, a full disk, an undo across a restart.

The kill tests run ``kill_runner.py`` (a table on simulated hardware) as a child
process fed a recorded script of inputs: once without a kill, for the reference,
then with a fresh journal, SIGKILLed after random delays and restarted until it
finishes. The game must end exactly as the reference, step for step. The full
count (hundreds of kills) is ``python3 tests/kill_soak.py``.
"""

from __future__ import annotations

import errno
import json
import random
import resource
import signal
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import asdict
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from kill_runner import build_table, feed, open_table, rebuild, result_of, settings_from_json
from kill_script import KillStats, Script, killed_game, record_script, run_once

from toprace_pi.errors import DataError
from toprace_pi.games.toprace.data import load_deck, load_track, track_names
from toprace_pi.games.toprace.rules import Deal, Settings, TopRace
from toprace_pi.games.toprace.rules.game import BANKNOTES_TOTAL
from toprace_pi.games.toprace.rules.variants import new_game, replay_game, variant_names
from toprace_pi.games.toprace.simulate import player_names
from toprace_pi.hardware.events import ButtonPressed
from toprace_pi.table import journal as journal_module
from toprace_pi.table.controller import SAVE_RETRY_FIRST
from toprace_pi.table.journal import FORMAT, VERSION, Journal, load

#: (players, seed, races): a short game, and a game of two races (a deal mid-game).
SCRIPTS = [(3, 1, 1), (4, 2, 2)]
#: Kills per test run, at least.
KILLS = 15
#: The kill test gives up (and fails) after this many rounds of both scripts without KILLS kills (a bound
#: on work, not on time: a loaded machine is slower, not wrong).
KILL_ROUNDS = 40


@cache
def script(players: int, seed: int, races: int = 1, variant: str = "base") -> Script:
    return record_script(players, seed, races=races, variant=variant)


def first_difference(got: dict[str, Any], expected: dict[str, Any]) -> str:
    for n, (a, b) in enumerate(zip(got["log"], expected["log"], strict=False)):
        if a != b:
            return f"step {n + 1}: {a!r} instead of {b!r}"
    return f"{len(got['log'])} steps instead of {len(expected['log'])}; snapshots equal: " \
           f"{got['snapshot'] == expected['snapshot']}"


@pytest.fixture(scope="module")
def references(tmp_path_factory):
    """Per script: its file, the uninterrupted runner's result and how long it ran after "ready"."""
    folder = tmp_path_factory.mktemp("kill")
    out = {}
    for key in SCRIPTS:
        path = script(*key).write(folder / f"script-{'-'.join(map(str, key))}.json")
        journal, result = folder / f"reference-{path.stem}.jsonl", folder / f"reference-{path.stem}.json"
        run = run_once(path, journal, result)
        out[key] = (path, json.loads(result.read_text("utf-8")), run.after_ready)
    return out


# --- the recorded scripts and the uninterrupted run ----------------------------------------


@pytest.mark.parametrize("key", SCRIPTS)
def test_a_script_holds_a_whole_game_with_refusals_and_undos(key):
    recorded = script(*key)
    assert recorded.reference["snapshot"]["phase"] == "GAME_OVER"
    assert recorded.refusals >= 3 and recorded.undos == 2
    assert sum(1 for e in recorded.events if e == ["hold", "undo"]) == 2
    assert {e[0] for e in recorded.events} == {"laid", "lifted", "press", "hold"}


@pytest.mark.parametrize("key", SCRIPTS)
def test_the_runner_without_kills_ends_the_game_as_the_recording_table_did(references, key):
    _, result, _ = references[key]
    assert result == script(*key).reference, first_difference(result, script(*key).reference)


# --- kill -9 and restart -----------------------------------------------------------------


def test_killed_at_random_moments_and_restarted_the_table_ends_the_game_exactly_as_without(references, tmp_path):
    rng = random.Random(20261129)
    total = KillStats()
    began = time.perf_counter()
    for _ in range(KILL_ROUNDS):
        if total.kills >= KILLS:
            break
        for key in SCRIPTS:
            path, reference, duration = references[key]
            result, stats = killed_game(path, tmp_path, rng, max_delay=duration)
            assert result == reference, f"{key} after {stats.kills} kills: {first_difference(result, reference)}"
            total.add(stats)
    assert total.kills >= KILLS, f"only {total.kills} kills in {KILL_ROUNDS} rounds of the scripts"
    print(f"\n{total.kills} kills ({total.mid_game} mid-game), {total.restarts} restarts, {total.games} games, "
          f"{time.perf_counter() - began:.1f} s")
    assert total.mid_game >= total.kills // 4, "the kills fell before the game went on"


# --- a journal cut anywhere (a power cut mid-write) ----------------------------------------


@cache
def written_journal(key: tuple[int, int, int] = SCRIPTS[1]) -> bytes:
    """The journal a whole game of the script ``key`` writes, played in this process."""
    recorded = script(*key)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "journal.jsonl"
        table, journal = open_table(settings_from_json(recorded.settings), recorded.seed, path)
        feed(table, recorded.events)
        journal.close()
        assert result_of(table.controller.game) == recorded.reference
        return path.read_bytes()


def expected_prefix(data: bytes, cut: int) -> tuple[list[str], int | None, int]:
    """From the journal's own lines: the steps (undos applied) and the last input number
    of the records wholly before ``cut``, and where the last of them ends."""
    steps: list[str] = []
    last_input, end = None, 0
    for line in data.split(b"\n")[:-1]:
        if end + len(line) + 1 > cut:
            break
        end += len(line) + 1
        record = json.loads(line)
        if record["n"] == 0:
            continue
        if record.get("undo"):
            steps.pop()
        else:
            steps.append(record["step"])
        last_input = record["in"]
    return steps, last_input, end


def test_the_reference_journal_holds_undo_records_and_a_deal_mid_game():
    records = [json.loads(line) for line in written_journal().splitlines()]
    assert sum(1 for r in records if r.get("undo")) == 2
    assert sum(1 for r in records if str(r.get("step", "")).startswith("deal")) == 2


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_a_journal_cut_at_any_byte_keeps_every_whole_record_and_the_game_goes_on(data):
    written = written_journal()
    header = written.index(b"\n") + 1
    cut = data.draw(st.integers(header, len(written)), label="cut")
    steps, last_input, whole = expected_prefix(written, cut)
    recorded = script(*SCRIPTS[1])
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "journal.jsonl"
        path.write_bytes(written[:cut])
        loaded = load(path)
        assert [str(s) for s in loaded.steps] == steps
        assert loaded.last_input == last_input and loaded.whole_bytes == whole
        assert loaded.torn == (cut != whole)
        assert bool(loaded.warnings) == (cut != whole)
        if cut != whole:
            assert "cut short" in loaded.warnings[0] and str(path) in loaded.warnings[0]
        journal, _ = Journal.resume(path)
        journal.close()
        assert path.read_bytes() == written[:whole]
        # Resume, as the table does after the power comes back, and play the rest.
        table, journal = open_table(settings_from_json(recorded.settings), recorded.seed, path)
        assert written.startswith(path.read_bytes())  # a deal made again is the same record
        assert table.controller.inputs == (last_input or 0)
        feed(table, recorded.events)
        journal.close()
        assert result_of(table.controller.game) == recorded.reference
        assert load(path).steps == table.controller.game.log


def test_a_cut_between_a_race_end_and_the_next_deal_deals_the_same_cards_again(tmp_path):
    written = written_journal()
    lines = written.split(b"\n")[:-1]
    deals = [n for n, line in enumerate(lines) if b'"step":"deal' in line]
    second = deals[1]
    cut = sum(len(line) + 1 for line in lines[:second])
    recorded = script(*SCRIPTS[1])
    path = tmp_path / "journal.jsonl"
    path.write_bytes(written[:cut])
    table, journal = open_table(settings_from_json(recorded.settings), recorded.seed, path)
    journal.close()
    assert path.read_bytes() == written[:cut + len(lines[second]) + 1]


def test_a_journal_cut_inside_its_header_is_refused(tmp_path):
    written = written_journal()
    path = tmp_path / "journal.jsonl"
    for cut in (0, 1, written.index(b"\n")):
        path.write_bytes(written[:cut])
        with pytest.raises(DataError, match="no game"):
            load(path)


# --- damaged journals ------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_damaged_record_in_the_middle_is_refused_naming_the_file_and_the_line(data):
    written = written_journal()
    lines = written.split(b"\n")[:-1]
    # Any record, the last one too, and its newline, except the file's last byte:
    # without its final newline the last record reads as a torn write.
    number = data.draw(st.integers(1, len(lines)), label="line")
    last_byte = len(lines[number - 1]) - (number == len(lines))
    offset = data.draw(st.integers(0, last_byte), label="offset")
    flip = data.draw(st.integers(1, 255), label="xor")
    where = sum(len(line) + 1 for line in lines[:number - 1]) + offset
    damaged = bytearray(written)
    damaged[where] ^= flip
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "journal.jsonl"
        path.write_bytes(damaged)
        with pytest.raises(DataError) as error:
            load(path)
        assert str(path) in str(error.value) and f"line {number}:" in str(error.value)
        with pytest.raises(DataError):
            Journal.resume(path)
        assert path.read_bytes() == damaged


def header_line(**changes: Any) -> bytes:
    settings_ = Settings(("Anna", "Ben", "Carla"))
    header = {"format": FORMAT, "version": VERSION, "settings": asdict(settings_), "n": 0, **changes}
    return journal_module._line(header)[0]


@pytest.mark.parametrize("changes, message", [({"version": VERSION + 1}, "another version"),
                                              ({"format": "something else"}, "not a toprace-pi game journal")])
def test_a_journal_of_another_version_or_format_is_refused_and_left_alone(tmp_path, changes, message):
    path = tmp_path / "journal.jsonl"
    tail = written_journal().split(b"\n", 1)[1]
    path.write_bytes(header_line(**changes) + tail)
    before = path.read_bytes()
    for read in (load, Journal.resume):
        with pytest.raises(DataError, match=message) as error:
            read(path)
        assert str(path) in str(error.value)
    assert path.read_bytes() == before


# --- a full disk ----------------------------------------------------------------------------


def started_table(tmp_path: Path, inputs: int = 120):
    """The longer script's table with a journal, some way into the game."""
    recorded = script(*SCRIPTS[1])
    table, journal = open_table(settings_from_json(recorded.settings), recorded.seed, tmp_path / "journal.jsonl")
    feed(table, recorded.events, inputs)
    return recorded, table, journal


def next_laid_step(recorded: Script, table) -> int:
    """The index of the next script input that lays a tag and takes a step with it
    (found on a replica of the table: the same inputs fed to a table without a journal)."""
    replica = build_table(new_game(settings_from_json(recorded.settings), table.controller.game.track, load_deck()),
                          recorded.seed)
    feed(replica, recorded.events, table.controller.inputs)
    assert replica.controller.game.log == table.controller.game.log
    for index in range(table.controller.inputs, len(recorded.events)):
        logged = len(replica.controller.game.log)
        feed(replica, recorded.events, index + 1)
        if len(replica.controller.game.log) != logged and recorded.events[index][0] == "laid":
            return index
    raise AssertionError("no step left")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system to stand for a full disk")
def test_on_a_full_disk_the_step_waits_with_a_word_about_saving_and_is_taken_once_there_is_room(tmp_path):
    recorded, table, journal = started_table(tmp_path)
    controller = table.controller
    said: list[str] = []
    controller.say = said.append
    # Feed up to the next tag that takes a step, then swap in a full disk.
    stop = next_laid_step(recorded, table)
    feed(table, recorded.events, stop)
    full = Journal(Path("/dev/full"), open("/dev/full", "ab"), journal.records, chain=journal._chain)  # noqa: SIM115
    controller.journal = full
    game, before, log, refusals = controller.game, controller.game.snapshot(), list(controller.game.log), \
        controller.refusals
    feed(table, recorded.events, stop + 1)
    assert controller.game is game and game.snapshot() == before and game.log == log
    assert controller.refusals == refusals + 1
    assert "could not be saved: the disk that holds /dev/full is full" in said[-1], said[-3:]
    assert full.records == journal.records
    # Space again: the step is saved when the table tries again, and the game goes on as recorded.
    full.close()
    controller.journal = journal
    controller.tick(SAVE_RETRY_FIRST)  # the table's clock: its time to try again
    assert len(controller.game.log) == len(log) + 1
    feed(table, recorded.events)
    journal.close()
    assert result_of(controller.game) == recorded.reference
    assert load(journal.path).steps == controller.game.log


@contextmanager
def disk_full_beyond(size: int):
    """Writes past ``size`` bytes fail (RLIMIT_FSIZE: EFBIG, as ENOSPC would), until the
    block ends and the disk has space again."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, handler)


def test_a_step_cut_short_by_a_full_disk_mid_record_is_written_whole_once_there_is_space_again(tmp_path):
    recorded, table, journal = started_table(tmp_path)
    controller = table.controller
    stop = next_laid_step(recorded, table)
    feed(table, recorded.events, stop)
    log, size = list(controller.game.log), journal.path.stat().st_size
    with disk_full_beyond(size + 10):  # the next record gets 10 bytes in, then the disk is full
        feed(table, recorded.events, stop + 1)
    assert controller.game.log == log and journal.path.stat().st_size == size
    controller.tick(SAVE_RETRY_FIRST)  # the table tries again to save the step the tag led to
    feed(table, recorded.events)
    journal.close()
    assert result_of(controller.game) == recorded.reference
    assert load(journal.path).steps == controller.game.log


# --- known gaps (strict xfails: they pass, and so fail, once the gap is closed) -----------------


def test_the_steps_of_one_input_are_one_record(tmp_path):
    """With the Pit Stop rule, OK closes a claim window with a Pass per seat asked
    (and a claim): one record holds them all, so a crash keeps all or none."""
    recorded = script(3, 4, 1, "pitstop")
    path = tmp_path / "journal.jsonl"
    table, journal = open_table(settings_from_json(recorded.settings), recorded.seed, path)
    feed(table, recorded.events)
    journal.close()
    records = [json.loads(line) for line in path.read_bytes().split(b"\n")[:-1]]
    inputs = [r["in"] for r in records[1:]]
    assert len(inputs) == len(set(inputs)) and any("steps" in r for r in records)
    assert result_of(table.controller.game) == recorded.reference


def test_a_crash_between_two_inputs_of_a_pit_stop_game_resumes_exactly(tmp_path):
    """Cut the journal after each record that holds several steps: the game resumes
    and, fed the inputs again from there, ends exactly as the uninterrupted one."""
    recorded = script(3, 4, 1, "pitstop")
    path = tmp_path / "journal.jsonl"
    table, journal = open_table(settings_from_json(recorded.settings), recorded.seed, path)
    feed(table, recorded.events)
    journal.close()
    written = path.read_bytes()
    lines = written.split(b"\n")[:-1]
    records = [json.loads(line) for line in lines]
    second = next(n for n in range(2, len(records)) if "steps" in records[n - 1])
    path.write_bytes(written[:sum(len(line) + 1 for line in lines[:second])])
    table, journal = open_table(settings_from_json(recorded.settings), recorded.seed, path)
    feed(table, recorded.events)
    journal.close()
    assert result_of(table.controller.game) == recorded.reference


class FullAfter(Journal):
    """A journal whose disk fills up after ``room`` more records."""

    def __init__(self, journal: Journal, room: int) -> None:
        super().__init__(journal.path, journal._file, journal.records, chain=journal._chain)
        self.room = room

    def _write(self, line: bytes) -> None:
        if self.room <= 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        self.room -= 1
        super()._write(line)


def test_a_full_disk_at_the_deal_of_the_next_race_waits_and_the_deal_is_made_when_there_is_room(tmp_path):
    recorded = script(*SCRIPTS[1])
    records = [json.loads(line) for line in written_journal().splitlines()]
    deal = [r for r in records if str(r.get("step", "")).startswith("deal")][1]
    table, journal = open_table(settings_from_json(recorded.settings), recorded.seed, tmp_path / "journal.jsonl")
    said: list[str] = []
    table.controller.say = said.append
    feed(table, recorded.events, deal["in"] - 1)
    full = table.controller.journal = FullAfter(journal, 1)  # the race's last step fits, its deal does not
    feed(table, recorded.events, deal["in"])
    game = table.controller.game
    assert game.phase.name == "DEAL" and any("could not be saved" in s for s in said)
    full.room = 10**6  # room again: the deal is made when the table tries again
    table.controller.tick(SAVE_RETRY_FIRST)
    assert table.controller.game.phase.name != "DEAL"
    feed(table, recorded.events)
    assert table.controller.game.race == 2 and table.controller.game.phase.name != "DEAL"


# --- starting a journal -----------------------------------------------------------------------


class Killed(BaseException):
    """The process dies here."""


def test_a_table_killed_while_it_creates_its_journal_starts_again(tmp_path):
    """Death at every line of ``Journal.create``: afterwards there is either no journal
    (a new game starts) or one that resumes; never a file the table refuses."""
    settings_ = Settings(("Anna", "Ben", "Carla"))
    source = journal_module.__file__
    for moment in range(1, 200):
        folder = tmp_path / str(moment)
        folder.mkdir()
        path = folder / "journal.jsonl"
        lines = 0

        def tracer(frame, event, arg):
            nonlocal lines
            if frame.f_code.co_filename != source:
                return None
            if event == "line":
                lines += 1
                if lines == moment:
                    raise Killed
            return tracer

        sys.settrace(tracer)
        try:
            Journal.create(path, settings_).close()
            finished = True
        except Killed:
            finished = False
        finally:
            sys.settrace(None)
        if path.exists():  # the next start resumes it...
            journal, loaded = Journal.resume(path)
            assert loaded.steps == [] and loaded.settings == settings_
        else:  # ...or starts a new game
            journal = Journal.create(path, settings_)
        journal.close()
        assert load(path).settings == settings_
        if finished:
            return
    raise AssertionError("Journal.create never finished")


# --- undo across a restart ---------------------------------------------------------------------


def test_an_undo_survives_a_restart(tmp_path):
    recorded, table, journal = started_table(tmp_path, inputs=150)
    controller = table.controller
    steps = list(controller.game.log)
    undone = steps[-1]
    assert not isinstance(undone, Deal)
    controller.handle(ButtonPressed("undo", held=True))
    assert controller.game.log == steps[:-1]
    journal.close()
    loaded = load(journal.path)
    assert loaded.steps == steps[:-1] and loaded.last_input == controller.inputs
    assert rebuild(loaded).snapshot() == controller.game.snapshot()
    records = [json.loads(line) for line in journal.path.read_bytes().splitlines()]
    assert records[-1]["undo"] is True and records[-2]["step"] == str(undone)
    # Restarted, a second undo takes back the step before.
    again, journal = open_table(settings_from_json(recorded.settings), recorded.seed, journal.path)
    assert again.controller.game.snapshot() == controller.game.snapshot()
    again.controller.handle(ButtonPressed("undo", held=True))
    journal.close()
    assert load(journal.path).steps == steps[:-2] == again.controller.game.log


# --- the engine with undo, as a state machine ---------------------------------------------------


class EngineWithUndo(RuleBasedStateMachine):
    """Random legal play, and undos (a replay of the log without its last step), in
    any order: the state after an undo is the state before that step, and the
    invariants hold after every action."""

    def __init__(self) -> None:
        super().__init__()
        self.game: TopRace
        self.before: list[dict[str, Any]] = []

    @initialize(players=st.integers(2, 6), variant=st.sampled_from(variant_names()),
                track=st.sampled_from(track_names()), races=st.integers(1, 2), seed=st.integers(0, 2**16))
    def new_game(self, players: int, variant: str, track: str, races: int, seed: int) -> None:
        settings_ = Settings(player_names(players), races=races, first_opener=seed % players, track=track,
                             variant=variant)
        self.game = new_game(settings_, load_track(track), load_deck())
        self.take(self.game.chance(random.Random(seed)))

    def take(self, action: Any) -> None:
        self.before.append(self.game.snapshot())
        self.game.apply(action)
        self.check_board_and_money()

    @precondition(lambda self: not self.game.is_over)
    @rule(seed=st.integers(0, 2**32), count=st.integers(1, 25))
    def play(self, seed: int, count: int) -> None:
        rng = random.Random(seed)
        for _ in range(count):
            game = self.game
            if game.is_over:
                return
            self.take(game.chance(rng) if game.decision.chance else rng.choice(game.legal_actions()))

    @precondition(lambda self: self.game.log and not isinstance(self.game.log[-1], Deal))
    @rule()
    def undo(self) -> None:
        game = self.game
        self.game = replay_game(game.settings, game.track, game.deck, game.log[:-1])
        assert self.game.snapshot() == self.before.pop()

    def check_board_and_money(self) -> None:
        board = self.game.board
        assert len(set(board.at.values())) == len(board.at), "two cars on one space"
        assert board.occupied == set(board.at.values())
        assert sum(self.game.money) + self.game.bank == BANKNOTES_TOTAL

    @invariant()
    def replaying_the_log_gives_the_same_game(self) -> None:
        game = self.game
        again = replay_game(game.settings, game.track, game.deck, [str(a) for a in game.log])
        assert again.snapshot() == game.snapshot()
        assert type(again) is type(game)


EngineWithUndo.TestCase.settings = settings(max_examples=25, stateful_step_count=50, deadline=None)
test_the_engine_with_undo = EngineWithUndo.TestCase
