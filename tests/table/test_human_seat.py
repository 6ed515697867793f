"""A human seat at the keyboard, beside the bots: played with nothing but OK
through whole games of every variant, at a typist's pace, through a real
pseudo-terminal; and the demo's narration checked against the journal."""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyte
import pytest

from toprace_pi.games.toprace.rules import MoveCar, PlayCard
from toprace_pi.games.toprace.rules.events import CardPlayed
from toprace_pi.games.toprace.table.demo import run_demo, seat_names
from toprace_pi.hardware.keyboard import KEY_UID
from toprace_pi.table import demo as table_demo
from toprace_pi.table.journal import load
from toprace_pi.table.screen import DemoScreen

ROOT = Path(__file__).resolve().parents[2]
KEYBOARD_CARD = f"tag {KEY_UID.hex()} on discard"


@pytest.fixture(autouse=True)
def quick_looks(monkeypatch):
    """While a human thinks, the demo table looks at its devices and sleeps 20 ms
    (``IDLE_TICK``) before it looks again. A typist here types by those looks, not by the
    clock, so the games below sleep 1 ms a look instead: every look is still taken, in the
    same order; only the waiting is shorter (some 36 s of the slow typist's game, 2 s of each
    other game). The demo repeats no prompt, and the one timed step, a pit stop's 6 s claim
    window, is answered by the typist long before it runs out at either pace: each variant's
    game has the same log and the same count of looks at 20 ms and at 1 ms. The
    pseudo-terminal test runs the demo in a process of its own, at the real pace."""
    monkeypatch.setattr(table_demo, "IDLE_TICK", 0.001)


class Typist:
    """Presses ``key`` once every ``every`` looks of the table at the keyboard: with a
    look every 20 ms (the demo's pace), ``every=25`` is a key each half second."""

    def __init__(self, key: str = "o", every: int = 1) -> None:
        self.key, self.every, self.looks, self.pressed = key, every, 0, 0

    def read(self) -> list[str]:
        self.looks += 1
        if self.looks % self.every:
            return []
        self.pressed += 1
        return [self.key]

    def close(self) -> None:
        pass


def play(tmp_path: Path, variant: str, typist: Typist, players: int = 3, seed: int = 4):
    news: list[str] = []
    screen = DemoScreen(news.append, live=False)
    journal = tmp_path / "journal.jsonl"
    game = run_demo(players=players, seed=seed, variant=variant, delay=0.0, colour=False, journal=journal,
                    humans=["Zoe"], keys=typist, screen=screen)
    return game, "".join(news), journal


def steps_by(journal: Path) -> list[dict]:
    return [json.loads(line) for line in journal.read_text().splitlines()[1:]]


@pytest.mark.parametrize("variant", ["base", "tips", "pitstop", "stocks", "quick", "pitstop+tips"])
def test_pressing_ok_over_and_over_plays_a_human_seat_through_a_whole_game(tmp_path, variant):
    game, told, journal = play(tmp_path, variant, Typist("o"))
    assert game.is_over and "Final money: Zoe" in told
    human = game.names.index("Zoe")
    played = [e for e in game.events if isinstance(e, CardPlayed) and e.seat == human]
    from_keyboard = [s for s in steps_by(journal) if s.get("by") == KEYBOARD_CARD and s["step"].startswith("play")]
    assert played and len(from_keyboard) == len(played)  # every card of the human's was laid from the hand by OK
    assert "Zoe (you)" in told  # the human's own panel: money, cars, hand


def test_a_human_typing_a_key_every_half_second_plays_the_same_game(tmp_path):
    fast, _, _ = play(tmp_path / "fast", "base", Typist("o"))
    slow, _, _ = play(tmp_path / "slow", "base", Typist("o", every=25))
    assert slow.log == fast.log  # the bots wait for the human, however slow; nothing is typed ahead into their turns


def test_keys_typed_while_the_bots_play_are_not_played_into_their_turns(tmp_path):
    typist = Typist("o")
    game, told, journal = play(tmp_path, "base", typist)
    assert "OK means nothing now" not in told
    human = game.names.index("Zoe")
    bots_cards = [s for s in steps_by(journal) if s["step"].startswith("play") and s.get("by") != KEYBOARD_CARD]
    bot_plays = [e for e in game.events if isinstance(e, CardPlayed) and e.seat != human]
    assert len(bots_cards) == len(bot_plays)


def test_the_narration_tells_what_the_journal_says_action_by_action(tmp_path):
    news: list[str] = []
    journal = tmp_path / "bots.jsonl"
    game = run_demo(players=4, seed=3, delay=0.0, colour=False, journal=journal,
                    screen=DemoScreen(news.append, live=False))
    told = [line for chunk in news for line in chunk.splitlines()]
    assert [str(a) for a in load(journal).steps] == [str(a) for a in game.log]
    cards = [line.strip() for line in told if " plays #" in line]
    assert cards == [f"{game.names[e.seat]} plays {e.card}" for e in game.events if isinstance(e, CardPlayed)]
    assert [c.split(" plays ")[1] for c in cards] == [str(game.deck[a.number]) for a in game.log
                                                       if isinstance(a, PlayCard)]
    moves = iter(line.strip() for line in told if " -> " in line)
    for action in (a for a in game.log if isinstance(a, MoveCar)):  # each chosen move told, in order, as chosen
        assert any(line.startswith(f"{action.car} ") and line.endswith(f"-> {action.to}") for line in moves), action
    assert not any("(NEXT, OK)" in line for line in told)  # a bot's cursor is never told as what happened


def test_human_names_take_their_seats():
    assert seat_names(3, ["Ben"]) == (("Anna", "Ben", "Carla"), [1])
    assert seat_names(3, ["Zoe", "Yan"]) == (("Zoe", "Yan", "Carla"), [0, 1])
    for humans, why in ((["A", "B", "C", "D"], "do not fit"), (["Zoe", "Zoe"], "two human players"),
                        (["bad\x1bname"], "printable")):
        with pytest.raises(Exception, match=why):
            seat_names(3, humans)


def test_a_human_seat_without_a_terminal_is_refused_in_one_line():
    done = subprocess.run([sys.executable, "-m", "toprace_pi", "demo", "--bots", "greedy", "--human", "Zoe",
                           "--fast"], cwd=ROOT,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "needs a terminal" in done.stderr and "Traceback" not in done.stderr


def test_a_human_plays_a_whole_game_through_a_pseudo_terminal(tmp_path):
    """Keys in through the terminal, the screen read back by a terminal emulator."""
    screen = pyte.Screen(100, 45)
    stream = pyte.ByteStream(screen)
    journal = tmp_path / "pty.jsonl"
    pid, fd = pty.fork()
    if pid == 0:  # the child: the demo on the terminal
        os.environ.update(COLUMNS="100", LINES="45", NO_COLOR="1", HOME=str(tmp_path))
        os.chdir(ROOT)
        os.execv(sys.executable, [sys.executable, "-m", "toprace_pi", "demo", "--bots", "greedy", "--human", "Zoe",
                                  "--fast",
                                  "--players", "3", "--seed", "5", "--journal", str(journal)])
    seen_panel = False
    deadline = time.monotonic() + 240
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                try:
                    data = os.read(fd, 65536)
                except OSError:  # the demo ended and closed the terminal
                    break
                if not data:
                    break
                stream.feed(data)
                seen_panel = seen_panel or any("Zoe (you)" in line for line in screen.display)
            if any("Zoe (you)" in line for line in screen.display):
                os.write(fd, b"o")  # the panel asks the human: OK
    finally:
        if time.monotonic() >= deadline:
            os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    text = "\n".join(screen.display)
    assert os.waitstatus_to_exitcode(status) == 0, text
    assert seen_panel and "Final money: " in text and "Zoe" in text
    assert "\x1b" not in text  # NO_COLOR: plain text on the screen
    assert any(s.get("by") == KEYBOARD_CARD for s in steps_by(journal))
