#!/usr/bin/env python3
"""What a long match costs the table: clone, UNDO and a step of several actions,
200 and 5,000 actions into a match; and the demo's CPU for 1, 5 and 20 races.

    python3 benchmarks/bench_undo.py            # about a minute and a half
    python3 benchmarks/bench_undo.py --quick    # a few seconds: 1 and 5 races

* The match: bots play a Pit Stop match of 20 races on Speed Street; the table's
  controller is set up at the first pit stop claim window after 200 and after
  5,000 actions (a journal on disk, as at the table).
* ``clone()``: the copy the table takes before each action (and tries several
  actions on). ``replay``: what UNDO and a several-action step cost before clones
  (the whole log applied again), for comparison.
* UNDO: a held UNDO taking back the last action (from the copy the table kept once
  its LEDs showed the step before), written to the journal.
* A step of several actions: OK closing the claim window (a pass for each seat
  asked), checked on a clone, written to the journal, then taken.
* The demo: a whole Pit Stop demo of 1, 5 and 20 races at the simulated table,
  CPU seconds (target: linear in the races).

Every figure is also given in yardsticks: one yardstick is ``sum(range(1000))``
timed in the same run, so figures from a busy machine can be compared.
A script that prints figures, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from timing import timed, yardstick  # noqa: E402  (beside this script)

from toprace_pi.games.toprace.bots import make_bot  # noqa: E402
from toprace_pi.games.toprace.data import load_deck, load_track  # noqa: E402
from toprace_pi.games.toprace.rules import Settings, TopRace  # noqa: E402
from toprace_pi.games.toprace.rules.variants import new_game  # noqa: E402
from toprace_pi.games.toprace.rules.variants.pitstop import PIT_STOP_CLAIM  # noqa: E402
from toprace_pi.games.toprace.table.demo import DemoPlayers, build_demo_table  # noqa: E402
from toprace_pi.hardware.events import ButtonPressed  # noqa: E402
from toprace_pi.hardware.sound import SilentSound  # noqa: E402
from toprace_pi.table.controller import TableController  # noqa: E402
from toprace_pi.table.demo import play_demo  # noqa: E402
from toprace_pi.table.journal import Journal  # noqa: E402

PLAYERS = ("Anna", "Ben", "Carla", "David")
POINTS = (200, 5_000)


def match(races: int, seed: int = 1) -> TopRace:
    """A whole Pit Stop match of bots on the engine alone."""
    settings = Settings(PLAYERS, races=races, variant="pitstop")
    game = new_game(settings, load_track("speed-street"), load_deck("standard"))
    rng, bot = random.Random(seed), make_bot("greedy", seed)
    while not game.is_over:
        game.apply(game.chance(rng) if game.decision.chance else bot.choose(game))
    return game


def claim_window_after(game: TopRace, actions: int) -> int:
    """The length of the log at the first claim window from ``actions`` on."""
    trial = type(game).replay(game.settings, game.track, game.deck, game.log[:actions])
    for n in range(actions, len(game.log)):
        if trial.phase is PIT_STOP_CLAIM:
            return n
        trial.apply(game.log[n])
    raise SystemExit(f"no claim window after {actions} actions: play more races")


def controller_at(game: TopRace, length: int, folder: Path) -> TableController:
    """A table's controller on the match as it stood after ``length`` actions, its journal on disk."""
    position = type(game).replay(game.settings, game.track, game.deck, game.log[:length])
    journal = Journal.create(folder / f"journal-{length}-{time.monotonic_ns()}.jsonl", game.settings)
    journal.append(position.log)
    return TableController(position, identify=lambda _: None, say=lambda _: None, sound=SilentSound(),
                           journal=journal)


def long_match_figures(game: TopRace, points: tuple[int, ...], unit: float, folder: Path) -> None:
    print(f"A Pit Stop match of {game.settings.races} races: {len(game.log)} actions")
    print(f"{'':>8} {'clone':>18} {'replay (before)':>22} {'UNDO':>18} {'several actions':>22}")
    for point in points:
        length = claim_window_after(game, point)
        controller = controller_at(game, length, folder)
        position = controller.game
        clone = timed(position.clone, 200)
        replay = timed(lambda: type(position).replay(position.settings, position.track, position.deck,
                                                     position.log), 3)
        steps, undos = [], []
        controller.remember()  # the table keeps the game once its LEDs show the window open
        for _ in range(7):  # OK closes the window; UNDO takes each of its actions back again
            before = len(controller.game.log)
            steps.append(timed(lambda: controller.handle(ButtonPressed("ok")), 1))
            controller.remember()  # as the table does once its LEDs show the step
            while len(controller.game.log) > before:
                undos.append(timed(lambda: controller.handle(ButtonPressed("undo", held=True)), 1))
                controller.remember()
        several, undo = statistics.median(steps), statistics.median(undos)
        controller.journal.close()  # type: ignore[union-attr]
        print(f"{length:>8} {_both(clone, unit):>18} {_both(replay, unit):>22} {_both(undo, unit):>18} "
              f"{_both(several, unit):>22}")


def _both(seconds: float, unit: float) -> str:
    return f"{seconds * 1e6:,.0f} us ({seconds / unit:,.0f} y)"


def demo_cpu(races: int) -> float:
    """CPU seconds of a whole Pit Stop demo of ``races`` races at the simulated table."""
    start = time.process_time()
    demo = build_demo_table(load_track("speed-street"), 4, 2, races=races, variant="pitstop", say=lambda _: None)
    try:
        play_demo(demo, DemoPlayers(["greedy"] * 4, 2))
    finally:
        demo.close()
    return time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    unit = yardstick()
    print(f"yardstick: sum(range(1000)) = {unit * 1e6:.2f} us (1 y)")
    with tempfile.TemporaryDirectory() as folder:
        long_match_figures(match(2 if args.quick else 22), POINTS[:1] if args.quick else POINTS, unit, Path(folder))
    print("Demo CPU, Pit Stop, 4 bots:")
    for races in (1, 5) if args.quick else (1, 5, 20):
        cpu = demo_cpu(races)
        print(f"  {races:2} races: {cpu:6.2f} s CPU ({cpu / races:.2f} s a race; {cpu / unit:,.0f} y)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
