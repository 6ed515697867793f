#!/usr/bin/env python3
"""Engine speed figures: one legal-end-space query, and whole bot races per second.

    python3 benchmarks/bench_engine.py           # the full run, well under a minute
    python3 benchmarks/bench_engine.py --quick   # a few seconds, rougher figures
    python3 benchmarks/bench_engine.py --json    # the same figures as JSON

Why these two figures:

* The table asks for a car's legal end spaces (``Track.moves``) every time a
  player lifts a car, and the bots ask for it for every movement they consider,
  so it must stay far below anything a person notices: target <= 50 us here.
* Bot tuning, the ``simulate`` command and the property tests play thousands of
  complete races, so a whole 4-player race must cost about 2 ms: target
  >= 500 races/s on one core.

The move query is timed in batches (the same situation repeated, divided by the
repeats) because one call is too short for ``perf_counter_ns`` to time alone;
the median and p90 are over many random situations on the longest shipped track.
This is a script that prints figures, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import resource
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

# Run from a checkout without installing: put the repository root on the path.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from toprace_pi.games.toprace.data import load_deck, load_track, track_names  # noqa: E402
from toprace_pi.games.toprace.rules.cards import Deck, MovementCard  # noqa: E402
from toprace_pi.games.toprace.rules.track import Track  # noqa: E402
from toprace_pi.games.toprace.simulate import simulate  # noqa: E402

MOVE_TARGET_US = 50.0
RACES_TARGET = 500.0
BLOCKERS = 5
#: How far behind and ahead of the moving car the other five cars stand.
NEAR = (-2.0, 6.0)
RACE_TRACK = "speed-street"
PLAYERS = 4


@dataclass(frozen=True)
class Effort:
    """How much to measure: the full run and ``--quick`` differ only here."""

    situations: int
    repeats: int
    races: int


FULL = Effort(situations=3000, repeats=30, races=1200)
QUICK = Effort(situations=400, repeats=10, races=120)


@dataclass(frozen=True)
class RaceFigures:
    track: str
    bots: str
    races: int
    seconds: float
    races_per_s: float
    mean_actions: float


# --- the move query ---------------------------------------------------------------


def longest_track() -> Track:
    """The shipped track with the furthest finish line: the most spaces to search."""
    return max((load_track(n) for n in track_names()), key=lambda t: t.finish_line)


def card_values(deck: Deck) -> list[int]:
    """Every value printed on the movement cards, so points follow the real mix."""
    return [value for card in deck.cards if isinstance(card, MovementCard) for _, value in card.moves]


def situation(track: Track, values: list[int], rng: random.Random) -> tuple[int, int, set[int]]:
    """A random realistic query: a car, points from the deck, five cars around it.

    The board's occupied set holds the moving car's own space too, as in a game.
    """
    start = rng.randrange(len(track.spaces))
    here = track.front(start)
    near = [s.index for s in track.spaces
            if s.index != start and here + NEAR[0] <= s.front <= here + NEAR[1]]
    if len(near) < BLOCKERS:  # at the very end of the track: take the nearest spaces
        near = sorted((s.index for s in track.spaces if s.index != start),
                      key=lambda i: abs(track.front(i) - here))[:BLOCKERS * 3]
    blocked = set(rng.sample(near, BLOCKERS)) | {start}
    return start, rng.choice(values), blocked


def time_moves(track: Track, deck: Deck, effort: Effort, seed: int = 1) -> dict[str, float]:
    """Per-call time of ``Track.moves`` in microseconds, median and p90 over situations."""
    rng = random.Random(seed)
    values = card_values(deck)
    moves, clock = track.moves, time.perf_counter_ns
    per_call: list[float] = []
    for _ in range(effort.situations):
        start, points, blocked = situation(track, values, rng)
        moves(start, points, blocked)  # warm the situation's data into the caches
        began = clock()
        for _ in range(effort.repeats):
            moves(start, points, blocked)
        per_call.append((clock() - began) / effort.repeats / 1000.0)
    deciles = statistics.quantiles(per_call, n=10)
    return {"median_us": statistics.median(per_call), "p90_us": deciles[8],
            "max_us": max(per_call), "situations": effort.situations, "repeats": effort.repeats}


# --- whole races ----------------------------------------------------------------------


def time_races(track: Track, deck: Deck, bots: str, races: int) -> RaceFigures:
    """Complete 1-race, 4-player bot games over consecutive seeds, on one core."""
    for seed in range(5):  # warm-up: imports, caches, the greedy bot's first decisions
        simulate(track, deck, players=PLAYERS, seed=10_000 + seed, bots=bots)
    actions = 0
    began = time.perf_counter()
    for seed in range(races):
        actions += len(simulate(track, deck, players=PLAYERS, races=1, seed=seed, bots=bots).log)
    seconds = time.perf_counter() - began
    return RaceFigures(track.slug, bots, races, seconds, races / seconds, actions / races)


# --- report -------------------------------------------------------------------------------


def measure(effort: Effort) -> dict[str, object]:
    deck = load_deck()
    longest = longest_track()
    race_tracks = [longest] + ([load_track(RACE_TRACK)] if longest.slug != RACE_TRACK else [])
    move = time_moves(longest, deck, effort)
    races = [time_races(t, deck, bots, effort.races) for t in race_tracks for bots in ("greedy", "random")]
    return {
        "python": platform.python_version(),
        "machine": f"{platform.system()} {platform.machine()}",
        "reference_us": reference_us(),
        "move_query": {"track": longest.slug, "finish_line": longest.finish_line,
                       "spaces": len(longest.spaces), **move},
        "races": [asdict(r) for r in races],
        "max_rss_mib": max_rss_mib(),
    }


def reference_us() -> float:
    """Time of ``sum(range(1000))``: a yardstick for comparing machines (about
    5 us on a current desktop CPU with CPython 3.11)."""
    import timeit

    return min(timeit.repeat("sum(range(1000))", number=2000, repeat=5)) / 2000 * 1e6


def max_rss_mib() -> float:
    """Peak resident memory of this process (Linux reports KiB, macOS bytes)."""
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024


def verdicts(figures: dict[str, object]) -> list[str]:
    move = figures["move_query"]
    races = figures["races"]
    assert isinstance(move, dict) and isinstance(races, list)
    slowest = min(races, key=lambda r: r["races_per_s"])
    return [
        f"move query median {move['median_us']:.1f} us <= {MOVE_TARGET_US:.0f} us: "
        f"{met(move['median_us'] <= MOVE_TARGET_US)}",
        f"bot races >= {RACES_TARGET:.0f}/s (slowest: {slowest['track']} {slowest['bots']} "
        f"{slowest['races_per_s']:.0f}/s): {met(slowest['races_per_s'] >= RACES_TARGET)}",
    ]


def met(ok: bool) -> str:
    return "met" if ok else "NOT MET"


def table(figures: dict[str, object]) -> str:
    move = figures["move_query"]
    races = figures["races"]
    assert isinstance(move, dict) and isinstance(races, list)
    lines = [
        f"Top Race engine benchmark (Python {figures['python']}, {figures['machine']}, one core)",
        f"Machine yardstick: sum(range(1000)) takes {figures['reference_us']:.1f} us",
        "",
        f"Legal end spaces, Track.moves on {move['track']} "
        f"(finish line {move['finish_line']:.1f}, {move['spaces']} spaces), "
        f"{move['situations']} situations x {move['repeats']} calls:",
        f"  median {move['median_us']:7.2f} us   p90 {move['p90_us']:7.2f} us   max {move['max_us']:7.2f} us",
        "",
        f"Complete {PLAYERS}-player 1-race bot games (simulate):",
        f"  {'track':14} {'bots':7} {'races':>6} {'seconds':>8} {'races/s':>8} {'actions/race':>13}",
    ]
    for r in races:
        lines.append(f"  {r['track']:14} {r['bots']:7} {r['races']:6d} {r['seconds']:8.2f} "
                     f"{r['races_per_s']:8.0f} {r['mean_actions']:13.1f}")
    lines += ["", f"Peak resident memory: {figures['max_rss_mib']:.1f} MiB", ""]
    lines += [f"verdict: {v}" for v in verdicts(figures)]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short run with rougher figures")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    figures = measure(QUICK if args.quick else FULL)
    if args.json:
        print(json.dumps({**figures, "verdicts": verdicts(figures)}, indent=2))
    else:
        print(table(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
