#!/usr/bin/env python3
"""Table figures: scan-to-LED latency, the journal's fsync, and the demo's peak memory.

    python3 benchmarks/bench_table.py           # about half a minute
    python3 benchmarks/bench_table.py --quick   # a few seconds, rougher figures

* Latency: a card's tag lies on the (simulated) reader; the clock starts when the
  table's step begins polling it and stops when the strip is handed the next frame.
  That covers the reader poll, the controller, the journal's record (written, and
  fsynced on a tmpfs, where an fsync costs next to nothing: the fsync is timed
  apart, below), the rules engine, the view, the frame and the brightness cap
  (the table's default, as the demo has it): everything but the wire.
  Targets: median <= 0.15 ms, p99 <= 0.5 ms. Bots play whole games at the
  simulated table to produce the scans: Top Race's speed cards at the start of a
  turn (the frame then shows the card's first car and where it may go), and
  AUTORACE's cards laid face down (only the last of a round changes the strip:
  the reveal; the others are counted apart). Each figure is given on the wall
  clock and in the CPU time of the table's thread, which the machine's other work
  does not lengthen (on a shared machine, the wall clock's worst cases are often
  the neighbours').
* The same through the reader hub: the card lies on a reader of the hub's
  firmware (run under CPython, as in the tests); the clock starts when the hub's
  loop begins the polls that find it and report it over a pty, and the table's
  HubReader reads the line with real pyserial. On the device the PN532's own
  poll (tens of ms per reader) comes on top; it cannot be measured here.
  Target: p99 <= 1 ms.
* The journal's fsync on its own: a record appended and fsynced, again and again,
  on the filesystem of ``play``'s default journal and on /tmp's.
* Memory: the peak resident size of ``toprace-pi demo --fast --bots greedy`` run as a child
  process (of a small process of its own, which reports it). Target: <= 60 MB.

Every time is given in seconds and in yardsticks (y: ``sum(range(1000))`` timed in
the same run). A script that prints figures, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from emulators.hub import HubRig, hub_readers  # noqa: E402
from timing import both, yardstick  # noqa: E402  (beside this script)

from toprace_pi.games.autorace.table import demo as autorace_demo  # noqa: E402
from toprace_pi.games.toprace.data import load_track  # noqa: E402
from toprace_pi.games.toprace.rules import Phase, PlayCard  # noqa: E402
from toprace_pi.games.toprace.table.demo import DemoPlayers, TopRaceDemo, build_demo_table, card_uid  # noqa: E402
from toprace_pi.table.config import DEFAULT_JOURNAL  # noqa: E402
from toprace_pi.table.demo import DemoTable, TagSpot, play_demo  # noqa: E402
from toprace_pi.table.garbage import collections_between_steps  # noqa: E402

MEDIAN_TARGET_MS = 0.15
P99_TARGET_MS = 0.5
HUB_P99_TARGET_MS = 1.0
MEMORY_TARGET_MB = 60.0
#: A record as the journal appends one at each step (its size is what an fsync writes).
RECORD = b'{"by":"tag 04d00000000011 on discard","in":40,"n":12,"step":"play 17","crc":"be2050d6"}\n'


#: The :func:`now` of each frame the strip is handed during a step.
Shown = list[tuple[float, float]]


def now() -> tuple[float, float]:
    """The time on the wall clock and the CPU time of this thread (which the machine's other work
    does not lengthen), in seconds."""
    return time.perf_counter(), time.thread_time()


@dataclass
class Scans:
    """Seconds from the start of each step that read a card to the frame it caused, on the wall clock
    (``took``) and in CPU time (``cpu``); how many changed nothing the strip shows (every car on the
    card blocked, a card laid face down before the last)."""

    took: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    unchanged: int = 0

    def time_step(self, demo: DemoTable, shown: Shown) -> None:
        """One step of ``demo``, timed up to the first frame it hands the strip (``shown`` gets its :func:`now`)."""
        shown.clear()
        wall, cpu = now()
        demo.step()
        if shown:
            self.took.append(shown[0][0] - wall)
            self.cpu.append(shown[0][1] - cpu)
        else:
            self.unchanged += 1

    def timed_lay(self, demo: DemoTable, shown: Shown, spot: TagSpot, uid: bytes) -> None:
        """:meth:`DemoTable.lay`, its first step timed: the tag laid, seen, and lifted again."""
        spot.lay(uid)
        self.time_step(demo, shown)
        spot.lift()
        demo.step()


def toprace_scans(games: int, journals: Path, *, hub: bool = False) -> Scans:
    """The speed cards laid at the start of a turn in ``games`` whole bot games on Speed Street."""
    scans = Scans()
    rigs: list[HubRig] = []
    for seed in range(games):
        shown: Shown = []
        options = {"readers": hub_readers(rigs)} if hub else {}
        demo = build_demo_table(load_track("speed-street"), 4, seed, say=lambda _: None,
                                on_frame=lambda _: shown.append(now()),
                                journal=journals / f"toprace-{'hub-' if hub else ''}{seed}.jsonl", **options)
        players = DemoPlayers(["greedy"] * 4, seed)
        try:
            with collections_between_steps():  # as the demo and the table play
                while not demo.controller.game.is_over:
                    if demo.controller.game.phase is Phase.PLAY_CARD:
                        _lay_card(demo, players, scans, shown)
                    else:
                        players.act(demo)
        finally:
            demo.close()
            for rig in rigs:
                rig.close()
    return scans


def _lay_card(demo: TopRaceDemo, players: DemoPlayers, scans: Scans, shown: Shown) -> None:
    game = demo.controller.game
    action = players.bots[game.seat].choose(game)
    assert isinstance(action, PlayCard)
    scans.timed_lay(demo, shown, demo.discard, card_uid(action.number))


def autorace_scans(series: int, journals: Path) -> Scans:
    """The cards laid face down in ``series`` whole 4-player bot series of AUTORACE."""
    scans = Scans()
    for seed in range(series):
        shown: Shown = []
        demo = autorace_demo.build_demo_table(4, say=lambda _: None, journal=journals / f"autorace-{seed}.jsonl",
                                              on_frame=lambda _: shown.append(now()))
        demo.lay = functools.partial(scans.timed_lay, demo, shown)  # type: ignore[method-assign]
        try:
            play_demo(demo, autorace_demo.DemoPlayers(["sensible"] * 4, seed))
        finally:
            demo.close()
    return scans


def fsync_times(folder: Path, times: int) -> list[float]:
    """Seconds of each fsync of a journal growing by a record at a time, in a scratch folder in ``folder``."""
    took = []
    with tempfile.TemporaryDirectory(dir=folder, prefix="bench-journal-") as scratch:
        fd = os.open(Path(scratch) / "journal.jsonl", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            for _ in range(times):
                os.write(fd, RECORD)
                start = time.perf_counter()
                os.fsync(fd)
                took.append(time.perf_counter() - start)
        finally:
            os.close(fd)
    return took


def filesystem(path: Path) -> str:
    """The type of the filesystem ``path`` lies on, from /proc/self/mounts (the deepest mount above it)."""
    try:
        mounts = [line.split()[1:3] for line in Path("/proc/self/mounts").read_text().splitlines()]
    except OSError:
        return "unknown filesystem"
    resolved = path.resolve()
    points = [(Path(point.replace("\\040", " ")), kind) for point, kind in mounts]
    return max((p for p in points if resolved.is_relative_to(p[0])), key=lambda p: len(p[0].parts))[1]


def existing(path: Path) -> Path:
    """``path``, or the nearest folder above it that exists (on the same filesystem, as ``path`` is not there)."""
    while not path.exists():
        path = path.parent
    return path


@contextmanager
def scratch_on_tmpfs() -> Iterator[Path]:
    """A scratch folder for the journals of the latency figures: on /dev/shm, a tmpfs, where it is one
    (an fsync there writes nothing to a disk), else in the system's temporary folder."""
    shm = Path("/dev/shm")
    folder = shm if shm.is_dir() and filesystem(shm) == "tmpfs" else None
    with tempfile.TemporaryDirectory(dir=folder, prefix="bench-table-") as scratch:
        yield Path(scratch)


#: Runs the command it is given and prints its peak resident size (kB). The demo is started from this
#: small process, not from the benchmark's: a child's peak counts the pages of the process it was
#: started from until it runs a program of its own, and the benchmark's are many by then.
PEAK = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")


def demo_peak_mb() -> float:
    """Peak resident memory of a whole ``toprace-pi demo --fast`` in a child process."""
    demo = [sys.executable, "-m", "toprace_pi", "demo", "--fast", "--no-colour", "--bots", "greedy"]
    run = subprocess.run([sys.executable, "-c", PEAK, *demo], check=True, capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parent.parent)
    return int(run.stdout) / 1024


@dataclass(frozen=True)
class Figures:
    """The median, p99 and max of some times, in seconds."""

    median: float
    p99: float
    max: float
    count: int

    @classmethod
    def of(cls, samples: list[float]) -> Figures:
        ordered = sorted(samples)
        return cls(statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))],
                   ordered[-1], len(ordered))

    def lines(self, unit: float) -> str:
        return "\n".join(f"  {name:6} {both(value, unit)}"
                         for name, value in (("median", self.median), ("p99", self.p99), ("max", self.max)))


def report_scans(how: str, scans: Scans, unit: float) -> Figures:
    figures = Figures.of(scans.took)
    print(f"Scan to LED frame, {how}: {figures.count} scans ({scans.unchanged} more changed nothing on the strip)")
    print(figures.lines(unit))
    print("  the same in CPU time:")
    print(Figures.of(scans.cpu).lines(unit))
    return figures


def report_fsync(where: str, folder: Path, times: int, unit: float) -> None:
    figures = Figures.of(fsync_times(folder, times))
    print(f"The journal's fsync of a record, {where}: {folder} ({filesystem(folder)}), {figures.count} fsyncs")
    print(figures.lines(unit))


def verdict(what: str, value_ms: float, target_ms: float, unit: Callable[[float], str] = "{:.3f} ms".format) -> None:
    print(f"verdict: {what} {unit(value_ms)} <= {unit(target_ms)}: {'met' if value_ms <= target_ms else 'NOT MET'}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    games, fsyncs = (3, 30) if args.quick else (25, 200)
    unit = yardstick()
    print(f"yardstick (y): {unit * 1e6:.1f} us")
    with scratch_on_tmpfs() as journals:
        print(f"The latency figures' journals: in {journals} ({filesystem(journals)})")
        toprace = report_scans("Top Race, simulated reader, whole bot games on Speed Street",
                               toprace_scans(games, journals), unit)
        hub = report_scans("the same through the reader hub", toprace_scans(games, journals, hub=True), unit)
        autorace = report_scans("AUTORACE, simulated reader, whole 4-player bot series",
                                autorace_scans(games, journals), unit)
        report_fsync("on the latency figures' tmpfs", journals, fsyncs, unit)
    report_fsync("where play keeps its journal by default", existing(Path(DEFAULT_JOURNAL).expanduser().parent),
                 fsyncs, unit)
    report_fsync("in the temporary folder", Path(tempfile.gettempdir()), fsyncs, unit)
    peak = demo_peak_mb()
    print(f"Peak memory of 'toprace-pi demo --fast': {peak:.1f} MB")
    for name, figures in (("Top Race", toprace), ("AUTORACE", autorace)):
        verdict(f"{name} scan-to-frame median", figures.median * 1000, MEDIAN_TARGET_MS)
        verdict(f"{name} scan-to-frame p99", figures.p99 * 1000, P99_TARGET_MS)
    verdict("scan-to-frame p99 through the hub", hub.p99 * 1000, HUB_P99_TARGET_MS)
    verdict("demo peak memory", peak, MEMORY_TARGET_MB, "{:.1f} MB".format)
    return 0


if __name__ == "__main__":
    sys.exit(main())
