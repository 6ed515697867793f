#!/usr/bin/env python3
"""How well AUTORACE's bots play: win shares with 95% intervals over many seeded games.

    python3 benchmarks/autorace_bots.py                # 1000 games a field, about a minute
    python3 benchmarks/autorace_bots.py --games 400    # fewer games, wider intervals

* One sensible bot against three random ones, its seat turning with the seed (so no seat
  is favoured); a random bot in the same place for comparison (a fair share is 25%).
* Four sensible bots: each seat's share (all should be near 25%: the rules favour no seat
  and the bot none), how the games end, and what a player pays and wins in a game.

A shared win counts as that share of a win (a win shared by two: half each). The interval
is Wilson's score interval for a proportion at 95%. Seeds start at 0: the bot's weights
were tuned on seeds from 50,000 up, apart from these. A script that prints figures.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from toprace_pi.games.autorace.report import game_records  # noqa: E402
from toprace_pi.games.autorace.simulate import simulate  # noqa: E402

PLAYERS = 4
Z95 = 1.959964


def wilson(share: float, games: int) -> tuple[float, float]:
    """The 95% interval of a proportion ``share`` seen in ``games`` trials."""
    centre = (share + Z95**2 / (2 * games)) / (1 + Z95**2 / games)
    half = Z95 * math.sqrt(share * (1 - share) / games + Z95**2 / (4 * games**2)) / (1 + Z95**2 / games)
    return centre - half, centre + half


def shares(kinds_of: list[str], games: int, *, turn: bool = True) -> list[float]:
    """The win share of each of ``kinds_of``: with ``turn``, ``kinds_of[n]`` sits at seat ``(n + seed) % 4``
    (the field turns with the seed); without, at seat ``n`` (each seat's share)."""
    won = [0.0] * PLAYERS
    for seed in range(games):
        shift = seed if turn else 0
        kinds = [kinds_of[(seat - shift) % PLAYERS] for seat in range(PLAYERS)]
        winners = simulate(players=PLAYERS, seed=seed, bots=kinds).winners()
        for seat in winners:
            won[(seat - shift) % PLAYERS] += 1 / len(winners)
    return [w / games for w in won]


def line(name: str, share: float, games: int) -> str:
    low, high = wilson(share, games)
    return f"  {name:34} {share:6.1%}  (95% interval {low:5.1%} to {high:5.1%}, {games} games)"


def self_play(games: int) -> list[str]:
    """Four sensible bots: how the games end and what a player pays and wins in one."""
    reasons: Counter[str] = Counter()
    totals: Counter[str] = Counter()
    rounds = 0
    for seed in range(games):
        game = simulate(players=PLAYERS, seed=seed, bots="sensible")
        for record in game_records(game):
            reasons[record.reason] += 1
            rounds += record.rounds
            for tally in record.tallies:
                for key in ("fines", "bonuses", "draws", "draw_costs", "outs", "out_fines"):
                    totals[key] += getattr(tally, key)
    each = games * PLAYERS
    ends = ", ".join(f"{reason} {count / games:.0%}" for reason, count in reasons.most_common())
    money = ", ".join(f"{key.replace('_', ' ')} {totals[key] / each:.2f}" for key in
                      ("fines", "bonuses", "draws", "draw_costs", "outs", "out_fines"))
    return [f"  games end: {ends}; {rounds / games:.1f} rounds a game",
            f"  a player in a game, on average: {money}"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games a field (default 1000)")
    games = parser.parse_args(argv).games
    print(f"AUTORACE bots, {PLAYERS} players, one game a series, seeds 0 to {games - 1}")
    print("One bot against three random ones (the bot's win share):")
    print(line("sensible", shares(["sensible", "random", "random", "random"], games)[0], games))
    print(line("random (a fair share: 25%)", shares(["random"] * 4, games)[0], games))
    print("Four sensible bots (each seat's win share):")
    for seat, share in enumerate(shares(["sensible"] * 4, games, turn=False)):
        print(line(f"seat {seat + 1}", share, games))
    print("\n".join(self_play(games)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
