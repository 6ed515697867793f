#!/usr/bin/env python3
"""Table figures: scan-to-LED latency, and the demo's peak memory.

    python3 benchmarks/bench_table.py           # about half a minute
    python3 benchmarks/bench_table.py --quick   # a few seconds, rougher figures

* Latency: a speed card's tag lies on the (simulated) discard reader; the clock
  starts when the table's step begins polling it and stops when the strip is
  handed the next frame, which by then shows the card's first car and where it
  may go. That covers the reader poll, the controller, the rules engine, the
  view and the brightness cap: everything but the wire. Target: p99 <= 1 ms.
  Bots play whole games at the simulated table to produce the scans.
* Memory: the peak resident size of ``toprace-pi demo --fast`` run as a child
  process. Target: <= 60 MB.

A script that prints figures, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from toprace_pi.data import load_track  # noqa: E402
from toprace_pi.rules import Phase, PlayCard  # noqa: E402
from toprace_pi.table.demo import DemoPlayers, DemoTable, build_demo_table, card_uid  # noqa: E402

LATENCY_TARGET_MS = 1.0
MEMORY_TARGET_MB = 60.0


def scan_latencies(games: int) -> list[float]:
    """Seconds from the start of the poll that finds a card to the frame it causes."""
    samples: list[float] = []
    for seed in range(games):
        shown: list[float] = []
        demo = build_demo_table(load_track("speed-street"), 4, seed, say=lambda _: None,
                                on_frame=lambda _: shown.append(time.perf_counter()))
        players = DemoPlayers(["greedy"] * 4, seed)
        try:
            while not demo.controller.game.is_over:
                if demo.controller.game.phase is Phase.PLAY_CARD:
                    took = _one_scan(demo, players, shown)
                    if took is not None:
                        samples.append(took)
                else:
                    players.act(demo)
        finally:
            demo.close()
    return samples


def _one_scan(demo: DemoTable, players: DemoPlayers, shown: list[float]) -> float | None:
    """One card laid and read; ``None`` when it changed nothing the strip shows
    (every car on it blocked or finished, and the same player to move)."""
    game = demo.controller.game
    action = players.bots[game.seat].choose(game)
    assert isinstance(action, PlayCard)
    demo.discard.lay(card_uid(action.number))
    shown.clear()
    start = time.perf_counter()
    demo.table.step()
    took = shown[0] - start if shown else None
    demo.discard.lift()
    demo.table.step()
    return took


def demo_peak_mb() -> float:
    """Peak resident memory of a whole ``toprace-pi demo --fast`` in a child process."""
    subprocess.run([sys.executable, "-m", "toprace_pi", "demo", "--fast", "--no-colour"],
                   check=True, stdout=subprocess.DEVNULL, cwd=Path(__file__).resolve().parent.parent)
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    samples = sorted(scan_latencies(3 if args.quick else 25))
    median = statistics.median(samples) * 1000
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))] * 1000
    peak = demo_peak_mb()
    print(f"Scan to LED frame (simulated reader, {len(samples)} scans in whole bot games on Speed Street):")
    print(f"  median {median:.3f} ms   p99 {p99:.3f} ms   max {samples[-1] * 1000:.3f} ms")
    print(f"Peak memory of 'toprace-pi demo --fast': {peak:.1f} MB")
    print(f"verdict: scan-to-frame p99 {p99:.3f} ms <= {LATENCY_TARGET_MS} ms: "
          f"{'met' if p99 <= LATENCY_TARGET_MS else 'NOT MET'}")
    print(f"verdict: demo peak memory {peak:.1f} MB <= {MEMORY_TARGET_MB} MB: "
          f"{'met' if peak <= MEMORY_TARGET_MB else 'NOT MET'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
