"""Scripts for the kill tests, and the kill loop itself (shared by ``test_kill.py``
and ``kill_soak.py``).

A script is recorded from a whole demo game: the bots play at a simulated table
(tags laid on simulated readers, buttons pressed on gpiozero mock pins), and
every input the controller handles is noted, in order. A few inputs are added
that the table must refuse (an unknown tag, a speed card played already, a short
press of UNDO) and an UNDO held once or twice, so a replayed script exercises
refusals and undo as well as play.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kill_runner import build_table, encode, result_of, settings_for, settings_to_json

from toprace_pi.games.toprace.data import load_deck, load_track
from toprace_pi.games.toprace.rules import Phase, PlayCard
from toprace_pi.games.toprace.rules.variants import new_game
from toprace_pi.games.toprace.simulate import seat_kinds
from toprace_pi.games.toprace.table.demo import DemoPlayers, TopRaceDemo, build_demo_table, card_uid
from toprace_pi.hardware.events import ButtonPressed, Event

RUNNER = Path(__file__).with_name("kill_runner.py")
#: A tag no box holds.
STRANGER = bytes([0x04, 0x99, 0x99, 0x99, 0x99, 0x99, 0x99])
#: A bound on one game's bot decisions.
MAX_ACTS = 20_000


@dataclass
class Script:
    settings: dict[str, Any]
    seed: int
    events: list[list[str]]
    #: The game as the recording table ended it.
    reference: dict[str, Any]
    refusals: int = 0
    undos: int = 0

    def write(self, path: Path) -> Path:
        path.write_text(json.dumps({"settings": self.settings, "seed": self.seed, "events": self.events}), "utf-8")
        return path


def record_script(players: int, seed: int, *, races: int = 1, variant: str = "base", holds: int = 2,
                  odd_inputs: float = 0.04, bots: str = "greedy") -> Script:
    """Let bots play a whole game at a demo table and note every input it handles."""
    track = load_track("speed-street")
    settings = settings_for(players, seed, races=races, variant=variant)
    demo = build_demo_table(track, players, seed, races=races, variant=variant, say=lambda _: None,
                            clock=lambda: 0.0)
    # The demo's controller, replaced by one like the runner's (its dealer is restart-safe).
    table = build_table(new_game(settings, track, load_deck()), seed)
    demo.table.controller = controller = table.controller
    events: list[list[str]] = []
    handle = controller.handle

    def recording(event: Event) -> None:
        events.append(encode(event))
        handle(event)

    controller.handle = recording  # type: ignore[method-assign]
    kinds = seat_kinds(bots, players)
    bots_at_table = DemoPlayers(kinds, seed)
    rng = random.Random(seed * 7919 + players)
    hold_at = set(rng.sample(range(10, 120), holds))
    undos = 0
    try:
        for act in range(MAX_ACTS):
            if controller.game.is_over:
                break
            if act in hold_at:
                taken_back = controller.game.log[-1]
                demo.table.buttons.put(ButtonPressed("undo", held=True))
                demo.table.step()
                if isinstance(taken_back, PlayCard) and controller.game.log[-1] != taken_back:
                    demo.take_top(demo.discard)  # the card goes back into the player's hand
                undos += 1
            elif rng.random() < odd_inputs:
                _refused_input(demo, rng)
            bots_at_table.act(demo)
        else:
            raise RuntimeError("the recorded game never ended")
    finally:
        demo.close()
    game = controller.game
    return Script(settings_to_json(settings), seed, events, result_of(game), controller.refusals, undos)


def _refused_input(demo: TopRaceDemo, rng: random.Random) -> None:
    """An input the table must refuse, or (a card of the pile read again) ignore, without
    changing the game."""
    game = demo.controller.game
    before, refusals = len(game.log), demo.controller.refusals
    kind = rng.choice(["stranger", "played", "short undo"])
    on_pile = game.discard_pile
    if kind == "played" and on_pile and game.phase is Phase.PLAY_CARD:
        demo.lay(demo.discard, card_uid(rng.choice(on_pile)))
        refused = 0  # the reader sees the pile: a re-read is no input
    elif kind == "short undo":
        demo.press("undo")
        refused = 1
    else:
        demo.lay(demo.discard, STRANGER)
        refused = 1
    assert demo.controller.game is game and len(game.log) == before, "an odd input changed the game"
    assert demo.controller.refusals == refusals + refused, "an odd input was not refused, or a re-read was"


# --- running the runner, and killing it ---------------------------------------------


@dataclass
class Run:
    finished: bool
    seconds: float
    #: Seconds from "ready" to the end (finished) or the kill.
    after_ready: float


def start(script: Path, journal: Path, result: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, str(RUNNER), str(script), str(journal), str(result)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def run_once(script: Path, journal: Path, result: Path, *, kill_after: float | None = None) -> Run:
    """Run the runner; with ``kill_after``, SIGKILL it that many seconds after it said
    "ready" (unless it finished before)."""
    began = time.perf_counter()
    process = start(script, journal, result)
    assert process.stdout is not None and process.stderr is not None
    line = process.stdout.readline()
    ready = time.perf_counter()
    try:
        process.wait(timeout=kill_after)
    except subprocess.TimeoutExpired:
        process.kill()  # SIGKILL, to this process only
        process.communicate()
        end = time.perf_counter()
        return Run(False, end - began, end - ready)
    _, err = process.communicate()
    end = time.perf_counter()
    if process.returncode != 0 or line.strip() != b"ready":
        raise RuntimeError(f"the runner failed (exit {process.returncode}):\n{err.decode(errors='replace')}")
    return Run(True, end - began, end - ready)


@dataclass
class KillStats:
    kills: int = 0
    restarts: int = 0
    #: Kills after which the journal had grown in that run (the kill fell mid-game).
    mid_game: int = 0
    #: Kills that left a record cut short at the end of the journal.
    torn: int = 0
    seconds: float = 0.0
    games: int = 0
    equal: list[bool] = field(default_factory=list)

    def add(self, other: KillStats) -> None:
        self.kills += other.kills
        self.restarts += other.restarts
        self.mid_game += other.mid_game
        self.torn += other.torn
        self.seconds += other.seconds
        self.games += other.games
        self.equal += other.equal


def killed_game(script: Path, folder: Path, rng: random.Random, *, max_delay: float,
                max_runs: int = 500) -> tuple[dict[str, Any], KillStats]:
    """Play ``script`` with a fresh journal, killing the runner a random time after it
    said "ready" (uniform from 0 to ``max_delay``, the time an uninterrupted run takes
    from there) and restarting it until it finishes. Returns its result and the figures."""
    journal, result = folder / "journal.jsonl", folder / "result.json"
    for path in (journal, result):
        path.unlink(missing_ok=True)
    stats = KillStats(games=1)
    began = time.perf_counter()
    for runs in range(max_runs):
        size = journal.stat().st_size if journal.exists() else 0
        run = run_once(script, journal, result, kill_after=rng.uniform(0.0, max_delay))
        stats.restarts += runs > 0
        if run.finished:
            break
        stats.kills += 1
        data = journal.read_bytes() if journal.exists() else b""
        stats.mid_game += len(data) > size
        stats.torn += bool(data) and not data.endswith(b"\n")
    else:
        raise RuntimeError(f"the game did not finish in {max_runs} runs")
    stats.seconds = time.perf_counter() - began
    return json.loads(result.read_text("utf-8")), stats
