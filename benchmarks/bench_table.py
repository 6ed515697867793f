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
* The same through the reader hub: the card lies on a reader of the hub's
  firmware (run under CPython, as in the tests); the clock starts when the hub's
  loop begins the polls that find it and report it over a pty, and the table's
  HubReader reads the line with real pyserial. On the device the PN532's own
  poll (tens of ms per reader) comes on top; it cannot be measured here.
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from emulators.hub import HubRig, hub_readers  # noqa: E402

from toprace_pi.games.toprace.data import load_track  # noqa: E402
from toprace_pi.games.toprace.rules import Phase, PlayCard  # noqa: E402
from toprace_pi.games.toprace.table.demo import DemoPlayers, TopRaceDemo, build_demo_table, card_uid  # noqa: E402

LATENCY_TARGET_MS = 1.0
MEMORY_TARGET_MB = 60.0


def scan_latencies(games: int, *, hub: bool = False) -> list[float]:
    """Seconds from the start of the poll that finds a card to the frame it causes."""
    samples: list[float] = []
    rigs: list[HubRig] = []
    for seed in range(games):
        shown: list[float] = []
        options = {"readers": hub_readers(rigs)} if hub else {}
        demo = build_demo_table(load_track("speed-street"), 4, seed, say=lambda _: None,
                                on_frame=lambda _: shown.append(time.perf_counter()), **options)
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
            for rig in rigs:
                rig.close()
    return samples


def _one_scan(demo: TopRaceDemo, players: DemoPlayers, shown: list[float]) -> float | None:
    """One card laid and read; ``None`` when it changed nothing the strip shows
    (every car on it blocked or finished, and the same player to move)."""
    game = demo.controller.game
    action = players.bots[game.seat].choose(game)
    assert isinstance(action, PlayCard)
    demo.discard.lay(card_uid(action.number))
    shown.clear()
    start = time.perf_counter()
    demo.step()
    took = shown[0] - start if shown else None
    demo.discard.lift()
    demo.step()
    return took


def demo_peak_mb() -> float:
    """Peak resident memory of a whole ``toprace-pi demo --fast`` in a child process."""
    subprocess.run([sys.executable, "-m", "toprace_pi", "demo", "--fast", "--no-colour"],
                   check=True, stdout=subprocess.DEVNULL, cwd=Path(__file__).resolve().parent.parent)
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def report(how: str, samples: list[float]) -> float:
    """Print the figures of sorted ``samples``; returns their p99 in ms."""
    median = statistics.median(samples) * 1000
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))] * 1000
    print(f"Scan to LED frame ({how}, {len(samples)} scans in whole bot games on Speed Street):")
    print(f"  median {median:.3f} ms   p99 {p99:.3f} ms   max {samples[-1] * 1000:.3f} ms")
    return p99


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    games = 3 if args.quick else 25
    p99 = report("simulated reader", sorted(scan_latencies(games)))
    hub_p99 = report("through the reader hub", sorted(scan_latencies(games, hub=True)))
    peak = demo_peak_mb()
    print(f"Peak memory of 'toprace-pi demo --fast': {peak:.1f} MB")
    print(f"verdict: scan-to-frame p99 {p99:.3f} ms <= {LATENCY_TARGET_MS} ms: "
          f"{'met' if p99 <= LATENCY_TARGET_MS else 'NOT MET'}")
    print(f"verdict: scan-to-frame p99 through the hub {hub_p99:.3f} ms <= {LATENCY_TARGET_MS} ms: "
          f"{'met' if hub_p99 <= LATENCY_TARGET_MS else 'NOT MET'}")
    print(f"verdict: demo peak memory {peak:.1f} MB <= {MEMORY_TARGET_MB} MB: "
          f"{'met' if peak <= MEMORY_TARGET_MB else 'NOT MET'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
