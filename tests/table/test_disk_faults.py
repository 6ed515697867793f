"""A disk that fails for a while loses no step and stalls no table: a step the journal refuses is kept and
saved again later and later (by the table's clock), said once; the header's failure names the journal.

The OS is faked (os.write or os.fsync on the journal's file fail for chosen calls, as strace's injection does);
the table, the controller, the journal and the demos are the real ones. The last test injects the faults for
real, with strace, into whole demo games (a sample of ``disk_soak.py``'s runs)."""

from __future__ import annotations

import errno
import json
import os
import random
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import disk_soak
import pytest
from tracks import straight

from toprace_pi.cli import main
from toprace_pi.games.autorace.simulate import seat_kinds as autorace_kinds
from toprace_pi.games.autorace.table import demo as autorace_demo
from toprace_pi.games.toprace.data import load_deck, load_track
from toprace_pi.games.toprace.rules import Phase, PlayCard, Settings, TopRace
from toprace_pi.games.toprace.simulate import seat_kinds as toprace_kinds
from toprace_pi.games.toprace.table import demo as toprace_demo
from toprace_pi.games.topspeed.simulate import seat_kinds as topspeed_kinds
from toprace_pi.games.topspeed.table import demo as topspeed_demo
from toprace_pi.hardware.events import ButtonPressed
from toprace_pi.hardware.sound import SilentSound
from toprace_pi.table import demo as table_demo
from toprace_pi.table.config import parse_config
from toprace_pi.table.controller import TableController
from toprace_pi.table.demo import play_demo
from toprace_pi.table.journal import Journal, load
from toprace_pi.table.live import open_table


class Clock:
    """The table's clock, and the demo's ``time``: a sleep moves it on, nobody waits."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    monotonic = __call__

    def sleep(self, seconds: float) -> None:
        self.now += seconds


class DiskFault:
    """``os.write`` or ``os.fsync`` (``call``) fails with ``code`` on the journal at ``path`` (or the header's file
    beside it) whenever ``failing(n)`` holds for its ``n``-th call there; ``times`` notes when each came."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, call: str, code: int, path: Path,
                 failing: Callable[[int], bool], clock: Callable[[], float] = lambda: 0.0) -> None:
        self.failing = failing
        self.times: list[float] = []
        real = getattr(os, call)
        names = {str(path), f"{path}.new"}

        def faked(fd: int, *args: Any) -> Any:
            if os.readlink(f"/proc/self/fd/{fd}") in names:
                self.times.append(clock())
                if self.failing(len(self.times)):
                    raise OSError(code, os.strerror(code))
            return real(fd, *args)

        monkeypatch.setattr(os, call, faked)


def unsaved(said: list[str]) -> list[str]:
    return [s for s in said if "could not be saved" in s]


def replayed_log(path: Path) -> list[str]:
    return [str(step) for step in load(path).steps]


# --- a card laid while its save fails --------------------------------------------------------------------


def at_the_first_card(path: Path, clock: Clock, said: list[str]) -> tuple[Any, Any, PlayCard]:
    """A Top Race demo played up to its first speed card, and the card the bot to play chooses."""
    demo = toprace_demo.build_demo_table(load_track("speed-street"), 4, SEED, say=said.append, clock=clock,
                                         journal=path)
    players = toprace_demo.DemoPlayers(toprace_kinds("greedy", 4), SEED)
    while demo.controller.game.phase is not Phase.PLAY_CARD:
        players.act(demo)
    game = demo.controller.game
    card = players.bots[game.seat].choose(game.seen_by(game.seat))
    assert isinstance(card, PlayCard)
    return demo, players, card


def test_a_card_laid_on_the_pile_while_its_save_fails_is_taken_once_the_disk_works_again(tmp_path, monkeypatch):
    """The issue's stall: the card stays on the discard pile's reader, and the table takes it when it can save."""
    clock, said, path = Clock(), [], tmp_path / "journal.jsonl"
    demo, players, card = at_the_first_card(path, clock, said)
    game = demo.controller.game
    log = list(game.log)
    broken = True
    fault = DiskFault(monkeypatch, "fsync", errno.EIO, path, lambda _: broken, clock)
    demo.discard.lay(toprace_demo.card_uid(card.number))  # laid, and left on the pile
    demo.on_pile += 1
    demo.table.step()
    assert game.log == log
    assert unsaved(said) == ["the step could not be saved (Input/output error); trying again in 1 s"]
    clock.now = 0.9
    demo.table.step()
    assert len(fault.times) == 1 and game.log == log  # not tried again before its time
    broken = False
    clock.now = 1.0
    demo.table.step()
    assert game.log == [*log, card]
    assert said.count("the step is saved: the game goes on") == 1 and len(unsaved(said)) == 1
    assert demo.discard.tags[-1] == toprace_demo.card_uid(card.number)  # nobody had to lay it again
    assert replayed_log(path) == [str(step) for step in game.log]
    play_demo(demo, players)
    assert replayed_log(path) == [str(step) for step in demo.controller.game.log]
    demo.close()


def test_an_undo_the_disk_refuses_is_saved_later_and_then_taken_back(tmp_path, monkeypatch):
    clock, said, path = Clock(), [], tmp_path / "journal.jsonl"
    demo, players, card = at_the_first_card(path, clock, said)
    demo.leave(demo.discard, toprace_demo.card_uid(card.number))
    game = demo.controller.game
    assert game.log[-1] == card
    broken = True
    DiskFault(monkeypatch, "fsync", errno.EIO, path, lambda _: broken, clock)
    demo.controller.handle(ButtonPressed("undo", held=True))
    assert demo.controller.game.log[-1] == card
    assert unsaved(said) == ["the undo could not be saved (Input/output error); trying again in 1 s"]
    broken = False
    clock.now += 1.0
    demo.table.step()
    assert said[-3:-1] == ["the undo is saved: the game goes on", f"took back: {card}"]
    assert demo.controller.game.log == game.log[:-1]
    assert replayed_log(path) == [str(step) for step in demo.controller.game.log]
    demo.close()


# --- a step the table takes itself ------------------------------------------------------------------------


def test_a_deal_due_without_input_is_tried_again_later_and_later_and_said_once(tmp_path, monkeypatch):
    clock, said, path = Clock(), [], tmp_path / "journal.jsonl"
    settings = Settings(("Anna", "Ben"))
    journal = Journal.create(path, settings)
    broken = True
    fault = DiskFault(monkeypatch, "fsync", errno.EIO, path, lambda _: broken, clock)
    deck = load_deck()
    controller = TableController(TopRace(settings, straight(30), deck), identify=lambda _: None, say=said.append,
                                 sound=SilentSound(), dealer=lambda g: g.deal(random.Random(1)),
                                 clock=clock, journal=journal)
    assert said == ["the deal could not be saved (Input/output error); trying again in 1 s"]
    while clock.now < 200:
        clock.now += 0.25
        controller.tick(clock.now)
        if clock.now == 50:
            controller.handle(ButtonPressed("ok"))  # someone tries meanwhile: not taken, told why
    waits = [b - a for a, b in zip(fault.times, fault.times[1:], strict=False)]
    assert waits == [1, 2, 4, 8, 16, 30, 30, 30, 30, 30]  # twice as long each time, up to 30 s
    assert controller.game.log == [] and len(said) == 2
    assert said[1] == "wait: the deal is not saved yet (the table tries again in 11 s)"
    broken = False
    while not controller.game.log:
        clock.now += 0.25
        controller.tick(clock.now)
    assert clock.now == fault.times[-1] == 211
    assert said[2] == "the deal is saved: the game goes on"
    assert [str(step) for step in controller.game.log] == replayed_log(path) and len(replayed_log(path)) == 1
    journal.close()


def test_a_race_of_bot_seats_goes_on_after_its_start_could_not_be_saved(tmp_path, monkeypatch, capsys, pins):
    """``play`` with every seat a bot (TOP SPEED): the steps the table takes itself at the start (the order, the
    shuffles) are refused three times, and saved at the fourth try; the bots play on."""
    path = tmp_path / "journal.jsonl"
    config = parse_config({"game": {"name": "topspeed", "players": ["Anna", "Ben"]},
                           "files": {"journal": str(path), "registry": str(tmp_path / "tags.json")},
                           "buttons": {"kind": "simulated"}, "sound": {"speech": False},
                           "bots": {"seats": ["Anna", "Ben"], "strength": "easy"}}, "test")
    clock = Clock()
    DiskFault(monkeypatch, "fsync", errno.EIO, path, lambda n: 2 <= n <= 4, clock)
    live = open_table(config, clock=clock, new=True)
    try:
        controller = live.table.controller
        for _ in range(20_000):  # a tick every 10 ms of the table's clock, as run_table's loop
            live.table.step()
            if len(controller.game.log) >= 8:
                break
            clock.now += 0.01
            time.sleep(0.001)  # the bots think in threads of their own
    finally:
        live.close()
    said = capsys.readouterr().out.splitlines()
    assert len(controller.game.log) >= 8, said[-5:]
    assert len(unsaved(said)) == 1 and sum("is saved: the game goes on" in s for s in said) == 1
    assert 7 <= clock.now  # tried at 0, 1, 3 and 7 s
    assert "by" not in json.loads(path.read_text().splitlines()[1])  # a step the table took itself
    assert replayed_log(path) == [str(step) for step in controller.game.log]


# --- a full disk ------------------------------------------------------------------------------------------


class Outage:
    """From the journal's ``first`` call on, the disk fails for ``seconds`` of the table's clock."""

    def __init__(self, clock: Clock, first: int, seconds: float) -> None:
        self.clock, self.first, self.seconds = clock, first, seconds
        self.began: float | None = None

    def __call__(self, n: int) -> bool:
        if n < self.first:
            return False
        if self.began is None:
            self.began = self.clock()
        return self.clock() < self.began + self.seconds


SEED = 2


def toprace_table(path: Path, clock: Clock, say: Callable[[str], None]) -> tuple[Any, Any]:
    demo = toprace_demo.build_demo_table(load_track("speed-street"), 4, SEED, say=say, clock=clock, journal=path)
    return demo, toprace_demo.DemoPlayers(toprace_kinds("greedy", 4), SEED)


def autorace_table(path: Path, clock: Clock, say: Callable[[str], None]) -> tuple[Any, Any]:
    demo = autorace_demo.build_demo_table(4, say=say, clock=clock, journal=path)
    return demo, autorace_demo.DemoPlayers(autorace_kinds("sensible", 4), SEED)


def topspeed_table(path: Path, clock: Clock, say: Callable[[str], None]) -> tuple[Any, Any]:
    demo = topspeed_demo.build_demo_table(4, seed=SEED, say=say, clock=clock, journal=path)
    return demo, topspeed_demo.DemoPlayers(topspeed_kinds("sensible", 4), SEED)


DEMOS = {"toprace": toprace_table, "autorace": autorace_table, "topspeed": topspeed_table}


def whole_demo(game: str, path: Path, monkeypatch: pytest.MonkeyPatch,
               fault: tuple[str, int, Callable[[Clock], Callable[[int], bool]]] | None = None) -> tuple[Any, list[str]]:
    """The demo of ``game`` played to its end on the fake clock (the demo's pauses move it on), with ``fault``:
    the call that fails, its error, and when (from the clock); the game and what the table said."""
    clock, said = Clock(), []
    monkeypatch.setattr(table_demo, "time", clock)
    if fault is not None:
        call, code, when = fault
        DiskFault(monkeypatch, call, code, path, when(clock), clock)
    demo, players = DEMOS[game](path, clock, said.append)
    try:
        return play_demo(demo, players), said
    finally:
        demo.close()
        monkeypatch.undo()


def test_on_a_full_disk_the_demo_says_once_which_disk_to_free_then_waits_quietly_until_there_is_room(
        tmp_path, monkeypatch):
    expected, _ = whole_demo("autorace", tmp_path / "reference.jsonl", monkeypatch)
    path = tmp_path / "journal.jsonl"
    outage: list[Outage] = []

    def full_for_100_s(clock: Clock) -> Outage:
        outage.append(Outage(clock, 5, 100.0))
        return outage[0]

    game, said = whole_demo("autorace", path, monkeypatch, ("write", errno.ENOSPC, full_for_100_s))
    [news] = unsaved(said)  # the 5th record is a reveal, which follows the last card laid
    assert news == (f"the last step was taken, but the reveal could not be saved: the disk that holds {path} is full. "
                    "Make room on it: the table tries again by itself (next in 1 s)")
    assert said[said.index(news) + 1] == "the reveal is saved: the game goes on"  # nothing in between: it waited
    assert outage[0].began is not None and outage[0].clock.now > outage[0].began + 100
    assert game.is_over and game.snapshot() == expected.snapshot()
    assert replayed_log(path) == [str(step) for step in expected.log]


@pytest.mark.parametrize("game", list(DEMOS))
@pytest.mark.parametrize("call, code, calls", [
    pytest.param("fsync", errno.EIO, (2,), id="the first step's fsync"),  # the deal, the first card, the shuffle
    pytest.param("write", errno.ENOSPC, (40, 41, 42), id="a write mid-game, and its next two tries"),
])
def test_a_demo_with_a_failing_disk_plays_the_same_game_to_its_end(tmp_path, monkeypatch, game, call, code, calls):
    expected, _ = whole_demo(game, tmp_path / "reference.jsonl", monkeypatch)
    path = tmp_path / "journal.jsonl"
    ended, said = whole_demo(game, path, monkeypatch, (call, code, lambda _: lambda n: n in calls))
    assert ended.is_over and ended.snapshot() == expected.snapshot()
    assert replayed_log(path) == [str(step) for step in expected.log]
    assert len(unsaved(said)) == 1 and sum(s.endswith("is saved: the game goes on") for s in said) == 1


# --- the header ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("folder", [False, True], ids=["the header's fsync", "its folder's, once renamed in"])
def test_a_journal_the_disk_cannot_start_is_named(tmp_path, monkeypatch, capsys, folder):
    path = tmp_path / "journal.jsonl"
    failing = tmp_path if folder else path
    DiskFault(monkeypatch, "fsync", errno.EIO, failing, lambda n: n == 1)
    assert main(["demo", "--game", "autorace", "--bots", "sensible", "--fast", "--no-colour",
                 "--journal", str(path)]) == 2
    assert capsys.readouterr().err.startswith(f"toprace-pi: {failing}: Input/output error; ")
    assert not Path(f"{path}.new").exists() and path.exists() == folder


# --- real injection, with strace ---------------------------------------------------------------------------


def test_every_game_plays_to_its_end_through_write_and_fsync_failures_injected_by_strace(capsys):
    """A sample of ``disk_soak.py``: the header's call, the first step's, one mid-game and the last, for each
    game and each failing call; ``python3 tests/disk_soak.py`` runs every one."""
    assert shutil.which("strace"), "these tests need strace (apt install strace)"
    counts = disk_soak.soak(list(disk_soak.GAMES), SEED, jobs=2, timeout=90.0,
                            sample=lambda calls: (1, 2, calls // 2, calls))
    assert counts.ok, counts.bad
    for game in disk_soak.GAMES:
        for syscall in disk_soak.FAULTS:
            assert counts.ends[game, syscall, disk_soak.REFUSED_AT_START] == 1
            assert counts.ends[game, syscall, disk_soak.FINISHED] == 3
