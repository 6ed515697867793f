"""What the keyboard seat's screen says the cursor is on is what OK then does, in every game and variant.

A seat is played through a real pseudo-terminal at a reader's pace (each key once the screen has
settled after the last, :mod:`terminal_seat`), with random keys: mostly NEXT, often OK, now and then
PASS. Before every OK the screen is read for what the cursor is on; after it, the journal (or, for a
bid held aloud, the news) says what was done, and the two must agree. A key the table refuses must
show its answer before the next key: the screen changes after every PASS. The screen used to run
one key behind (it was drawn before the table took the key), so the option shown was not the one
OK took, and refusals appeared only after the next key."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from terminal_seat import TerminalSeat

from toprace_pi.games.autorace.rules import card_word
from toprace_pi.games.toprace.rules import PlayCard
from toprace_pi.games.toprace.rules.variants.pitstop import ClaimPitStop
from toprace_pi.games.toprace.rules.variants.stocks import Trade
from toprace_pi.games.toprace.rules.variants.tips import Tip
from toprace_pi.games.toprace.table.choices import label as toprace_label
from toprace_pi.games.topspeed.table.words import label as topspeed_label
from toprace_pi.hardware.keyboard import KEY_UID
from toprace_pi.table.journal import load

NAME = "Zoe"
BY_KEYBOARD = f"tag {KEY_UID.hex()} on "
#: A game of keys may not take longer than this (seconds); a whole game takes well under a minute.
GAME_LIMIT = 300.0


@dataclass
class Cursor:
    """What the screen says the next OK does: ``kind`` of decision and the option under the cursor."""

    kind: str
    label: str


@dataclass
class Tally:
    keys: int = 0
    oks: int = 0
    checked: int = 0
    refusals_shown: int = 0
    mismatches: list[str] = field(default_factory=list)


def replayed(journal: Path, steps: int) -> Any:
    """The game as it was after the journal's first ``steps`` steps."""
    loaded = load(journal)
    game = loaded.game
    for action in loaded.steps[:steps]:
        game.apply(action)
    return game


# --- Top Race ---------------------------------------------------------------------------------------

QUESTION = re.compile(r"^(?P<text>.*?)(?: \[\d+ s left\])? \((?P<keys>NEXT n, OK o[^)]*)\)$")
CHOICE = re.compile(rf"^{NAME}: (?P<what>.+?)\? (?P<label>.+) \(NEXT, OK\)$")
TRADE = re.compile(rf"^{NAME}: (?:sell|buy) a stock")


def toprace_cursor(lines: list[str]) -> Cursor | None:
    """The panel below "Zoe (you): ...": a question (bid, tip, claim), the hand, a trade or a NEXT/OK choice."""
    top = next((i for i, line in enumerate(lines) if line.startswith(f"{NAME} (you):")), None)
    if top is None:
        return None
    panel = lines[top + 1:]
    marked = next((line[2:] for line in panel if line.startswith("> ")), None)
    for line in panel:
        if (question := QUESTION.match(line)) and marked is not None:
            return Cursor("question: " + question["text"], marked)
        if line.startswith(f"{NAME}: lay a speed card") or line.startswith(f"{NAME}: no speed card may be laid"):
            return Cursor("hand", marked) if marked is not None else None
        if TRADE.match(line) and marked is not None:
            return Cursor("trade", marked)
        if choice := CHOICE.match(line):
            return Cursor("choice", choice["label"])
    return None


class TopRaceCheck:
    """What OK did in Top Race: the step it journaled (a card, a NEXT/OK choice), the bid in the news,
    the claim or pass of a pit stop window; tips and trades are checked once they reach the journal."""

    def __init__(self) -> None:
        self.tips: list[str] = []
        self.picks: list[str] = []
        self.trades: list[list[str]] = []

    def key(self, seat: TerminalSeat, cursor: Cursor, key: str, before: int, tally: Tally) -> None:
        if cursor.kind == "trade" and key == "p" and self.picks:
            self.picks.pop()  # PASS takes the last pick back
        if key != "o":
            return
        if cursor.kind.startswith("question: auction"):
            self._bid(seat, cursor, tally)
        elif cursor.kind.startswith("question: pit stop"):
            self._claim(seat, cursor, before, tally)
        elif cursor.kind.startswith("question"):  # a tip noted in secret: it is revealed later
            self.tips.append(cursor.label)
        elif cursor.kind == "trade":
            self.picks.append(cursor.label)
            if len(self.picks) == 4:
                self.trades.append(_trade(self.picks[:2], self.picks[2:]))
                self.picks = []
        else:
            self._step(seat, cursor, before, tally)

    def _step(self, seat: TerminalSeat, cursor: Cursor, before: int, tally: Tally) -> None:
        records = seat.steps()[before:]
        mine = next((r for r in records if r.get("by") == "ok" or r.get("by", "").startswith(BY_KEYBOARD)), None)
        if mine is None:
            tally.mismatches.append(f"OK on {cursor} journaled nothing")
            return
        game = replayed(seat.journal, _steps_before(seat, records.index(mine) + before))
        action = game.parse(_texts(mine)[0])
        said = str(game.deck[action.number]) if isinstance(action, PlayCard) else toprace_label(game, action)
        tally.checked += 1
        if said != cursor.label:
            tally.mismatches.append(f"the screen said {cursor.label!r}, OK journaled {_texts(mine)[0]!r} ({said!r})")

    @staticmethod
    def _bid(seat: TerminalSeat, cursor: Cursor, tally: Tally) -> None:
        said = [line.strip() for line in seat.lines if re.match(rf"^ +{NAME} bids", line)]  # (a pass may follow
        # by itself, when the bids go beyond the seat's money)
        expected = f"{NAME} {cursor.label.replace('bid ', 'bids ')}"
        tally.checked += bool(said)
        if not said or said[-1] != expected:
            tally.mismatches.append(f"the screen said {cursor.label!r}, the news {said[-1:]}\n" + "\n".join(seat.lines))

    def _claim(self, seat: TerminalSeat, cursor: Cursor, before: int, tally: Tally) -> None:
        records = seat.steps()[before:]
        game = replayed(seat.journal, _steps_before(seat, before))
        for text in (text for record in records for text in _texts(record)):
            action = game.parse(text)
            if _moves(game):
                claimed = isinstance(action, ClaimPitStop)
                tally.checked += 1
                if claimed != cursor.label.startswith("claim"):
                    tally.mismatches.append(f"the screen said {cursor.label!r}, the window took {text!r}")
                return
            game.apply(action)
        tally.mismatches.append(f"OK on {cursor} left no claim or pass of {NAME}'s in the journal")

    def end(self, journal: Path, tally: Tally) -> None:
        """Every tip noted and every trade entered is the one the journal holds, in order."""
        loaded = load(journal)
        game = loaded.game
        tips, trades = [], []
        for action in loaded.steps:
            if _moves(game):
                if isinstance(action, Tip):
                    tips.append(str(action.car))
                elif isinstance(action, Trade):
                    trades.append(_trade(action.sell, action.buy))
            game.apply(action)
        for noted, told in ((self.tips, tips), (self.trades, trades)):
            tally.checked += len(told)
            if noted[:len(told)] != told:
                tally.mismatches.append(f"the screen's picks {noted}, the journal's {told}")


def _trade(sell: Any, buy: Any) -> list[str]:
    """A trade in words: the two cars sold and the two bought, each pair in one order."""
    return sorted(str(c) for c in sell) + sorted(str(c) for c in buy)


def _moves(game: Any) -> bool:
    """Whether the human's seat is to move in ``game``."""
    return game.current_name == NAME


def _texts(record: dict) -> list[str]:
    """The steps a journal record holds, in the game's notation (one input may take several)."""
    return list(record["steps"]) if isinstance(record.get("steps"), list) else [record["step"]]


def _steps_before(seat: TerminalSeat, record_index: int) -> int:
    """How many steps the journal's first ``record_index`` records hold."""
    return sum(len(_texts(r)) for r in seat.steps()[:record_index] if not r.get("undo"))


# --- AUTORACE and TOP SPEED ---------------------------------------------------------------------------

def autorace_cursor(lines: list[str]) -> Cursor | None:
    line = next((line for line in lines if line.startswith("your cards (NEXT n, OK o")), None)
    marked = re.search(r"\[([^\]]+)\]", line.split(":", 1)[1]) if line else None
    return Cursor("card", marked[1]) if marked else None


TURN = re.compile(rf"^{NAME}, [^:]+: (?P<label>.+)\? OK(?: \(NEXT for the other choices\))?$")


def topspeed_cursor(lines: list[str]) -> Cursor | None:
    turn = next((m for line in lines if (m := TURN.match(line))), None)
    return Cursor("turn", turn["label"]) if turn else None


class StepCheck:
    """What OK did in a game whose every OK is a step of the seat's: the journal's next step of the seat's,
    in the game's words (``say(game, action)``)."""

    def __init__(self, say: Callable[[Any, Any], str], by: Callable[[dict], bool]) -> None:
        self.say, self.by = say, by

    def key(self, seat: TerminalSeat, cursor: Cursor, key: str, before: int, tally: Tally) -> None:
        if key != "o":
            return
        records = seat.steps()[before:]
        mine = next((r for r in records if self.by(r)), None)
        if mine is None:
            tally.mismatches.append(f"OK on {cursor} journaled nothing")
            return
        game = replayed(seat.journal, _steps_before(seat, records.index(mine) + before))
        said = self.say(game, game.parse(_texts(mine)[0]))
        tally.checked += 1
        if said != cursor.label:
            tally.mismatches.append(f"the screen said {cursor.label!r}, OK journaled {_texts(mine)[0]!r} ({said!r})")

    def end(self, journal: Path, tally: Tally) -> None:
        pass


# --- the games -------------------------------------------------------------------------------------

GAMES: dict[str, tuple[list[str], Callable[[list[str]], Cursor | None], Callable[[], Any]]] = {
    **{f"toprace-{variant}": (["--bots", "greedy", "--players", "3", *args], toprace_cursor, TopRaceCheck)
       for variant, args in {"base": [], "tips": ["--variant", "tips"], "pitstop": ["--variant", "pitstop"],
                             "stocks": ["--variant", "stocks"], "quick": ["--variant", "quick"],
                             "pitstop-tips": ["--variant", "tips", "--pitstop"]}.items()},
    "autorace": (["--game", "autorace", "--players", "3"], autorace_cursor,
                 lambda: StepCheck(lambda game, action: card_word(action.card),
                                   lambda r: r.get("by", "").startswith(BY_KEYBOARD))),
    **{f"topspeed-{name}": (["--game", "topspeed", "--bots", "sensible", "--players", "3", *args],
                            topspeed_cursor, lambda: StepCheck(topspeed_label, lambda r: r.get("by") == "ok"))
       for name, args in {"kers": ["--kers", "--laps", "3"],
                          "wet-qualifying": ["--race", "wet", "--qualifying", "--fastest-lap", "--laps", "2"]}.items()},
}


def play(tmp_path: Path, game: str, seed: int) -> Tally:
    args, cursor_of, make_check = GAMES[game]
    seat = TerminalSeat([*args, "--human", NAME, "--fast", "--seed", str(seed)], tmp_path / "journal.jsonl")
    check, tally, keys = make_check(), Tally(), random.Random(seed)
    deadline = time.monotonic() + GAME_LIMIT
    try:
        seat.settle()
        while not seat.ended:
            assert time.monotonic() < deadline, f"the game did not end in {GAME_LIMIT} s:\n" + "\n".join(seat.lines)
            cursor = cursor_of(seat.lines)
            if cursor is None:
                seat.settle()  # the bots play, or the table waits for nobody at this keyboard
                continue
            press(seat, cursor, keys.choices("nop", weights=(55, 40, 5))[0], check, tally)
    finally:
        code = seat.close()
    assert code == 0, "\n".join(seat.lines)
    check.end(seat.journal, tally)
    return tally


def press(seat: TerminalSeat, cursor: Cursor, key: str, check: Any, tally: Tally) -> None:
    """One key, and what it did checked against what the screen said before it."""
    before, screen = len(seat.steps()), seat.lines
    seat.press(key)
    tally.keys += 1
    tally.oks += key == "o"
    seat.settle()
    if key == "p":  # taken, or its refusal on screen (the same words as before, if pressed again)
        shown = seat.lines != screen or len(seat.steps()) > before or any(
            "means nothing" in line for line in seat.lines[-3:])
        tally.refusals_shown += shown
        if not shown:
            tally.mismatches.append(f"PASS at {cursor} showed nothing before the next key")
    check.key(seat, cursor, key, before, tally)


@pytest.mark.parametrize("game", list(GAMES))
def test_what_the_screen_says_the_cursor_is_on_is_what_ok_does(tmp_path, game):
    tally = play(tmp_path, game, seed=11)
    print(f"{game}: {tally.keys} keys, {tally.oks} OKs, {tally.checked} checked, "
          f"{tally.refusals_shown} PASS answers shown, {len(tally.mismatches)} mismatches")
    assert tally.checked >= 5, tally
    assert tally.mismatches == [], "\n".join(tally.mismatches)
