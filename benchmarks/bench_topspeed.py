#!/usr/bin/env python3
"""TOP SPEED speed figures: whole bot races per second, and clone().

    python3 benchmarks/bench_topspeed.py           # about half a minute
    python3 benchmarks/bench_topspeed.py --quick   # a few seconds, rougher figures

Why these: the bots' measurements and the property tests play hundreds of whole races,
so a race must cost milliseconds, with random bots (the engine alone, nearly) and with
sensible ones (which count what their deck may still hold at every draw); the table
copies the game for UNDO, so ``clone()`` must cost microseconds however far into a race
(a replay of the log shown beside it). Every figure is in seconds and in yardsticks
(``sum(range(1000))`` timed in the same run). A script that prints figures: it asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from timing import both, timed, yardstick  # noqa: E402  (beside this script)

from toprace_pi.games.topspeed.simulate import simulate  # noqa: E402

PLAYERS, LAPS = 4, 10
FIELDS = {"random, normal": ("random", "normal"), "sensible, normal": ("sensible", "normal"),
          "sensible, wet": ("sensible", "wet"),
          "sensible, every advanced rule": ("sensible", "wet+qualifying+fastest-lap+kers+chaotic-weather")}


def whole_races(bots: str, variant: str, races: int, unit: float) -> str:
    """Complete 4-player races of 10 laps over consecutive seeds, on one core."""
    for seed in range(3):  # warm-up: imports, caches
        simulate(PLAYERS, LAPS, variant, seed=10_000 + seed, bots=bots)
    actions = 0
    start = time.perf_counter()
    for seed in range(races):
        actions += len(simulate(PLAYERS, LAPS, variant, seed=seed, bots=bots).log)
    seconds = (time.perf_counter() - start) / races
    return f"{1 / seconds:7,.0f} races/s {both(seconds, unit)} a race ({actions / races:.0f} actions)"


def clone_figures(times: int, unit: float) -> list[str]:
    race = simulate(PLAYERS, LAPS, "normal", seed=1, bots="sensible")
    lines = [f"  {'':34} {'clone()':>26} {'replay of the log':>26}"]
    ends = {"at the start": 0, "half a race in": len(race.log) // 2, "just before the end": len(race.log) - 1}
    for name, end in ends.items():
        game = race.replayed(race.log[:end])
        clone = timed(game.clone, times)
        replay = timed(lambda game=game: game.replayed(game.log), max(times // 50, 5))
        lines.append(f"  {name + f' ({end} actions)':34} {both(clone, unit):>26} {both(replay, unit):>26}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run with rougher figures")
    quick = parser.parse_args(argv).quick
    races, clones = (20, 300) if quick else (200, 2000)
    unit = yardstick()
    print(f"TOP SPEED benchmark (Python {sys.version.split()[0]}, one core)")
    print(f"yardstick: sum(range(1000)) = {unit * 1e6:.2f} us (1 y)")
    print(f"\nWhole {PLAYERS}-player races of {LAPS} laps (simulate, {races} seeds each):")
    for name, (bots, variant) in FIELDS.items():
        print(f"  {name:30} {whole_races(bots, variant, races, unit)}")
    print("\nCopies of a race:")
    print("\n".join(clone_figures(clones, unit)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
