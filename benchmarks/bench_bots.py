#!/usr/bin/env python3
"""The search bot's strength: its win share against three of the best other bots.

    python3 benchmarks/bench_bots.py                      # every game, 100 games each (long: an hour or more)
    python3 benchmarks/bench_bots.py --games 20 --only toprace-base autorace
    python3 benchmarks/bench_bots.py --strength easy --jobs 2
    python3 benchmarks/bench_bots.py --games 100 --only topspeed-30laps --jobs 2   # a long race

Each game is a 4-player game: one search bot (its seat turns with each game, so every
seat and every opener get their share) against three of the game's best simple bots
(Top Race: greedy; AUTORACE and TOP SPEED: sensible), every bot seeded from the game's
number. Printed per game and variant: the search bot's win share (a tie shares the win)
with its 95% interval (Wilson's), which must lie above 25% (a fair share among four) for
the bot to be stronger than chance says; the seconds it took per decision it searched
(median, p90, max, and in yardsticks: ``sum(range(1000))`` timed in the same run), and
its playouts per decision. The search's budget is its strength's, in playouts (``--strength``):
the same games on every machine, which differ only in the seconds. A script that prints figures,
not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import yardstick  # noqa: E402

from toprace_pi.core.search import STRENGTHS, SearchBot  # noqa: E402
from toprace_pi.games.topspeed.rules.game import DEFAULT_LAPS  # noqa: E402

PLAYERS = 4
#: 1.96: the 95% interval of a normal distribution.
Z95 = 1.96


@dataclass(frozen=True)
class Match:
    """One game (and variant) the search bot is measured at, and its rivals' kind."""

    name: str
    rivals: str
    play: Callable[[int, Sequence[Any]], Any]
    make: Callable[[str, int, str | None], Any]


def toprace(variant: str) -> Match:
    def play(number: int, bots: Sequence[Any]) -> Any:
        from toprace_pi.games.toprace.data import load_deck, load_track
        from toprace_pi.games.toprace.rules.game import Settings
        from toprace_pi.games.toprace.rules.variants import new_game
        from toprace_pi.games.toprace.simulate import play as play_game
        from toprace_pi.games.toprace.simulate import player_names

        settings = Settings(player_names(PLAYERS), first_opener=number % PLAYERS, variant=variant)
        game = new_game(settings, load_track("speed-street"), load_deck("standard"))
        return play_game(game, bots, number)

    from toprace_pi.games.toprace.bots import make_bot
    return Match(f"toprace-{variant}", "greedy", play, make_bot)


def autorace() -> Match:
    def play(number: int, bots: Sequence[Any]) -> Any:
        from toprace_pi.games.autorace.data import DEFAULT_BOARD, load_board
        from toprace_pi.games.autorace.rules import Autorace, Settings
        from toprace_pi.games.autorace.simulate import play as play_game
        from toprace_pi.games.autorace.simulate import player_names

        board = load_board(DEFAULT_BOARD)
        return play_game(Autorace(Settings(player_names(PLAYERS, board)), board), bots, number)

    from toprace_pi.games.autorace.bots import make_bot
    return Match("autorace", "sensible", play, make_bot)


def topspeed(name: str, laps: int) -> Match:
    def play(number: int, bots: Sequence[Any]) -> Any:
        from toprace_pi.games.topspeed.data import load_circuit, load_deck
        from toprace_pi.games.topspeed.rules.game import TopSpeed
        from toprace_pi.games.topspeed.settings import TableGame
        from toprace_pi.games.topspeed.simulate import play as play_game
        from toprace_pi.games.topspeed.simulate import player_names

        settings = TableGame(players=player_names(PLAYERS), laps=laps).settings()
        game = TopSpeed(settings, load_circuit(settings.circuit), load_deck(settings.deck))
        return play_game(game, bots, number)

    from toprace_pi.games.topspeed.bots import make_bot
    return Match(name, "sensible", play, make_bot)


MATCHES: dict[str, Callable[[], Match]] = {
    **{f"toprace-{v}": (lambda v=v: toprace(v)) for v in ("base", "tips", "stocks", "quick", "pitstop")},
    "autorace": autorace, "topspeed": lambda: topspeed("topspeed", DEFAULT_LAPS),
    "topspeed-30laps": lambda: topspeed("topspeed-30laps", 30),
}
#: Played only when named: a race of 30 laps takes three times one of 10 (a search bot must not
#: be weaker than the rule in a long race, where pit stops count for more).
NAMED_ONLY = frozenset({"topspeed-30laps"})


class Timed:
    """The search bot, with the time of every decision it searched kept."""

    def __init__(self, bot: SearchBot) -> None:
        self.bot = bot
        self.seconds: list[float] = []
        self.playouts: list[int] = []

    def choose(self, seen: Any) -> Any:
        began = time.perf_counter()
        action = self.bot.choose(seen)
        if self.bot.last_playouts:
            self.seconds.append(time.perf_counter() - began)
            self.playouts.append(self.bot.last_playouts)
        return action

    def __getattr__(self, name: str) -> Any:
        return getattr(self.bot, name)


def one_game(job: tuple[str, int, str]) -> tuple[float, list[float], list[int]]:
    """Game ``number`` of ``name``: the search bot's share of the win, its decisions' seconds and playouts."""
    name, number, strength = job
    match = MATCHES[name]()
    seat = number % PLAYERS
    searcher = Timed(match.make("search", number * 100 + seat, strength))
    bots = [searcher if s == seat else match.make(match.rivals, number * 100 + s, None) for s in range(PLAYERS)]
    game = match.play(number, bots)
    winners = game.winners()
    return (1 / len(winners) if seat in winners else 0.0), searcher.seconds, searcher.playouts


def wilson(share: float, n: int) -> tuple[float, float]:
    """The 95% interval of a win share over ``n`` games (Wilson's score interval)."""
    centre = (share + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 * math.sqrt(share * (1 - share) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
    return centre - half, centre + half


def report(name: str, results: list[tuple[float, list[float], list[int]]], unit: float) -> str:
    n = len(results)
    share = sum(r[0] for r in results) / n
    low, high = wilson(share, n)
    seconds = sorted(s for r in results for s in r[1])
    playouts = [p for r in results for p in r[2]]
    p90 = seconds[int(0.9 * (len(seconds) - 1))] if seconds else 0.0
    verdict = "above chance" if low > 0.25 else "not above chance"
    return (f"{name:16} {n:4} games  win share {share:6.1%}  95% [{low:5.1%}, {high:5.1%}] {verdict:16}  "
            f"s/decision median {statistics.median(seconds):.3f} ({statistics.median(seconds) / unit:,.0f} y) "
            f"p90 {p90:.3f} max {seconds[-1]:.3f}  playouts {statistics.mean(playouts):.0f}/decision "
            f"({len(seconds)} decisions searched)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per match (default 100)")
    parser.add_argument("--strength", choices=list(STRENGTHS), default="normal")
    parser.add_argument("--only", nargs="+", choices=list(MATCHES), metavar="MATCH",
                        default=[m for m in MATCHES if m not in NAMED_ONLY],
                        help=f"the matches to play ({', '.join(MATCHES)}; the last only when named)")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (default 1: timings undisturbed)")
    parser.add_argument("--first", type=int, default=0, help="the first game's number (default 0)")
    args = parser.parse_args(argv)
    strength = STRENGTHS[args.strength]
    unit = yardstick()
    print(f"search bot {strength.name}: {strength.playouts} playouts a decision; "
          f"yardstick {unit * 1e6:.1f} us; {args.jobs} game(s) at once", flush=True)
    with multiprocessing.Pool(args.jobs) as pool:
        for name in args.only:
            jobs = [(name, number, args.strength) for number in range(args.first, args.first + args.games)]
            print(report(name, pool.map(one_game, jobs, chunksize=1), unit), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
