#!/usr/bin/env python3
"""AUTORACE speed figures: whole bot games per second, clone(), and a sensible bot's decision.

    python3 benchmarks/bench_autorace.py           # about half a minute
    python3 benchmarks/bench_autorace.py --quick   # a few seconds, rougher figures

Why these:

* The bots' measurements and the property tests play hundreds of whole games: a whole
  4-player game must cost milliseconds, with random bots (the engine alone, nearly) and
  with sensible ones (the engine and the bots' scoring of every card).
* The table copies the game before each action (UNDO, a step tried first): ``clone()``
  must cost microseconds however far into a series, not a replay of the log (shown
  beside it for comparison).
* A sensible bot decides at the table while people wait: one decision, from a view.

Every figure is given in seconds and in yardsticks: one yardstick (y) is
``sum(range(1000))`` timed in the same run, so figures from a busy or slower machine
can be compared. A script that prints figures, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from timing import both, timed, yardstick  # noqa: E402  (beside this script)

from toprace_pi.games.autorace.bots import make_bot  # noqa: E402
from toprace_pi.games.autorace.rules import Autorace  # noqa: E402
from toprace_pi.games.autorace.simulate import simulate  # noqa: E402

PLAYERS = 4
FIELDS = {"random": "random", "sensible": "sensible", "1 sensible, 3 random": "sensible,random,random,random"}


@dataclass(frozen=True)
class Effort:
    games: int
    clones: int
    decisions: int


FULL = Effort(games=600, clones=2000, decisions=2000)
QUICK = Effort(games=60, clones=300, decisions=300)


def whole_games(bots: str, games: int, unit: float) -> str:
    """Complete 1-game, 4-player series over consecutive seeds, on one core."""
    for seed in range(3):  # warm-up: imports, caches
        simulate(players=PLAYERS, seed=10_000 + seed, bots=bots)
    rounds = actions = 0
    start = time.perf_counter()
    for seed in range(games):
        game = simulate(players=PLAYERS, seed=seed, bots=bots)
        rounds, actions = rounds + game.round, actions + len(game.log)
    seconds = (time.perf_counter() - start) / games
    return (f"{1 / seconds:7,.0f} games/s {both(seconds, unit)} a game "
            f"({rounds / games:.1f} rounds, {actions / games:.0f} actions)")


def positions() -> dict[str, Autorace]:
    """Games to copy: at the start, half way through a sensible game, late in the third game of a series."""
    finished = simulate(players=PLAYERS, games=3, boost=32, seed=1, bots="sensible")
    first_game = simulate(players=PLAYERS, seed=1, bots="sensible")
    half = first_game.replayed(first_game.log[:len(first_game.log) // 2])
    late = finished.replayed(finished.log[:len(finished.log) - 8])
    return {"at the start": finished.replayed([]), f"half a game in ({len(half.log)} actions)": half,
            f"3rd game of a series ({len(late.log)} actions)": late}


def clone_figures(effort: Effort, unit: float) -> list[str]:
    lines = [f"  {'':40} {'clone()':>26} {'replay of the log':>26}"]
    for name, game in positions().items():
        clone = timed(game.clone, effort.clones)
        replay = timed(lambda game=game: game.replayed(game.log), max(effort.clones // 50, 5))
        lines.append(f"  {name:40} {both(clone, unit):>26} {both(replay, unit):>26}")
    return lines


def decision_figure(effort: Effort, unit: float) -> str:
    """A sensible bot's choice from its view, over the views of a whole series' decisions."""
    views = []
    simulate(players=PLAYERS, games=3, boost=32, seed=2, bots="random",
             on_action=lambda game, _: views.extend(game.view(s) for s in game.decision.seats))
    bot = make_bot("sensible", 1)
    sample = [views[n % len(views)] for n in range(effort.decisions)]
    seconds = timed(lambda: [bot.choose(v) for v in sample[:50]], max(effort.decisions // 50, 3)) / 50
    return f"  {len(views)} views of a random series, 50 at a time: {both(seconds, unit)} a decision"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run with rougher figures")
    effort = QUICK if parser.parse_args(argv).quick else FULL
    unit = yardstick()
    print(f"AUTORACE benchmark (Python {sys.version.split()[0]}, one core)")
    print(f"yardstick: sum(range(1000)) = {unit * 1e6:.2f} us (1 y)")
    print(f"\nWhole {PLAYERS}-player games (simulate, {effort.games} seeds each):")
    for name, bots in FIELDS.items():
        print(f"  {name:22} {whole_games(bots, effort.games, unit)}")
    print("\nCopies of a game:")
    print("\n".join(clone_figures(effort, unit)))
    print("\nA sensible bot's decision:")
    print(decision_figure(effort, unit))
    return 0


if __name__ == "__main__":
    sys.exit(main())
