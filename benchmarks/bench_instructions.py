#!/usr/bin/env python3
"""The engine's costs in machine instructions, which a busy machine does not change.

    python3 benchmarks/bench_instructions.py            # every workload, about four minutes
    python3 benchmarks/bench_instructions.py --only greedy-race playout

Why: ``bench_engine.py`` times its figures against a yardstick in the same run, yet on this
shared machine two runs an hour apart still differ by up to half, so a change of a few per
cent cannot be seen in them. Valgrind's callgrind counts the instructions a process carries
out, within about 1% from run to run whatever else the machine does, and so tells whether a change to
the engine made it cheaper, and by how much.

How: each workload runs twice in a child process under ``valgrind --tool=callgrind``, once
with no units of work and once with ``N`` (the same set-up both times, ``PYTHONHASHSEED=0``);
the difference over ``N`` is one unit's instructions. The yardstick, ``sum(range(1000))``,
is counted the same way, so every figure is also given in instruction-yardsticks (iy).
These are not the timed yardsticks of ``bench_engine.py``: the yardstick's tight loop runs
more instructions a nanosecond than the engine's code does, so a figure is smaller in iy
than in y (a greedy race about two thirds). Needs valgrind (``apt install valgrind``). A
script that prints figures, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from itertools import chain
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_engine as engine  # noqa: E402

#: A workload: its set-up, then ``units`` units of its work (the 0-unit run is the set-up alone).
Workload = Callable[[int], object]


def yardstick(units: int) -> None:
    for _ in range(units):
        sum(range(1000))


def greedy_race(units: int) -> None:
    """One more race in a 4-player greedy match on Speed Street, as ``bench_engine.py`` measures
    it: a match of ``1 + units`` races (the 0-unit run: a 1-race match)."""
    track, deck = engine.load_track(engine.PLAYOUT_TRACK), engine.load_deck()
    engine.simulate(track, deck, players=engine.PLAYERS, races=1 + units, seed=1)


def toprace_playout(units: int) -> None:
    positions = engine.toprace_positions(engine.load_deck(), engine.QUICK)
    for number in range(units):
        engine.random_playout(positions[number % len(positions)], random.Random(number))


def whole_games(games: Callable[[str, range], Iterator[object]]) -> Workload:
    """Whole 4-player games with sensible bots, after one for warm-up (its data loaded, its caches filled)."""
    def run(units: int) -> None:
        for _ in chain(games("sensible", range(10_000, 10_001)), games("sensible", range(units))):
            pass
    return run


#: Each workload, its units of work in the counted run, and what one unit is.
WORKLOADS: dict[str, tuple[Workload, int, str]] = {
    "yardstick": (yardstick, 20_000, "sum(range(1000))"),
    "greedy-race": (greedy_race, 5, "a 4-player greedy race, Speed Street, base rules"),
    "playout": (toprace_playout, 40, "a Top Race random playout from mid-race (Speed Street)"),
    "autorace": (whole_games(engine.autorace_games), 6, "a whole AUTORACE game, 4 sensible bots"),
    "topspeed": (whole_games(engine.topspeed_games), 4, "a whole TOP SPEED race of 10 laps, 4 sensible bots"),
}
#: What ``--only`` chooses from: every workload but the yardstick, which every run counts.
MEASURED = [name for name in WORKLOADS if name != "yardstick"]


def counted(name: str, units: int) -> int:
    """The instructions of a child process doing ``units`` of workload ``name``."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
               sys.executable, __file__, "--work", name, "--units", str(units)]
    done = subprocess.run(command, capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHONHASHSEED": "0"})
    found = re.search(r"refs:\s+([\d,]+)", done.stderr)
    if done.returncode or not found:
        raise SystemExit(f"valgrind failed on {name}:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def per_unit(name: str) -> float:
    units = WORKLOADS[name][1]
    return (counted(name, units) - counted(name, 0)) / units


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", choices=MEASURED, metavar="WORKLOAD",
                        help=f"the workloads to count ({', '.join(MEASURED)})")
    parser.add_argument("--work", choices=WORKLOADS, help=argparse.SUPPRESS)
    parser.add_argument("--units", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.work:
        WORKLOADS[args.work][0](args.units)
        return 0
    if subprocess.run(["valgrind", "--version"], capture_output=True, check=False).returncode:
        raise SystemExit("valgrind is needed: apt install valgrind")
    unit = per_unit("yardstick")
    print(f"one yardstick, sum(range(1000)): {unit:,.0f} instructions (1 iy)")
    for name in args.only or MEASURED:
        count = per_unit(name)
        print(f"  {WORKLOADS[name][2]:<58} {count / 1e6:9.2f} M instructions {count / unit:8.1f} iy", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
