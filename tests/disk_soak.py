"""The disk-fault soak: ``python3 tests/disk_soak.py [--seed 2] [--jobs 2] [--timeout 120] [GAME ...]``.

Each game's demo (``toprace-pi demo --fast``) is played once under strace to count its journal's writes
and fsyncs, then once more for every N, with strace making the journal's Nth write fail (ENOSPC: a full
disk) and, in a run of its own, its Nth fsync (EIO: a disk that failed). Only the journal's calls are
hit (``-P``), the real process and the real code run: no mock. Every run must play its game to the end
(exit 0), leave a journal that loads and replays to the same steps and the same final state as the run
without a fault, and say once that a step could not be saved and once that it was. The first call is
the header's: that run must stop before the game with the journal named, and leave no journal.
Prints the counts; exits 1 on any crash, stall (no end within ``--timeout`` seconds) or step lost.
Not a pytest module (``test_disk_faults.py`` runs a sample of N for each game in CI).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from toprace_pi.table.journal import applied_steps, load  # noqa: E402

#: The demos played, by name: the game and its bots (quick ones: a search bot would spend minutes a game).
GAMES: dict[str, tuple[str, ...]] = {
    "toprace": ("--game", "toprace", "--bots", "greedy"),
    "toprace-pitstop": ("--game", "toprace", "--bots", "greedy", "--variant", "pitstop"),
    "autorace": ("--game", "autorace", "--bots", "sensible"),
    "topspeed": ("--game", "topspeed", "--bots", "sensible"),
}
#: The system calls made to fail, with the error each returns.
FAULTS = {"write": "ENOSPC", "fsync": "EIO"}
#: What a run ends as: the good ends first.
FINISHED, REFUSED_AT_START = "finished", "header refused, journal named"
CRASHED, STALLED, LOST, UNTOLD = "crashed", "stalled", "steps lost", "not told once"
GOOD = (FINISHED, REFUSED_AT_START)
#: What the table says when a save fails, and when it succeeds again.
UNSAVED, SAVED = "could not be saved", "is saved: the game goes on"


@dataclass(frozen=True)
class Fault:
    syscall: str
    n: int

    def __str__(self) -> str:
        return f"{self.syscall} {self.n} ({FAULTS[self.syscall]})"


@dataclass
class Run:
    returncode: int | None  # None: timed out
    out: str
    err: str
    journal: Path


@dataclass
class Reference:
    """The game as the demo plays it without a fault, and how many journal calls it made."""

    calls: dict[str, int]
    steps: list[str]
    state: dict[str, Any]


def strace_command(journal: Path, fault: Fault | None, trace_to: Path | None = None) -> list[str]:
    """strace on the journal's own calls (its path and the header's file beside it), injecting ``fault``."""
    syscalls = ",".join(FAULTS) if fault is None else fault.syscall
    command = ["strace", "-f", "-qq", "-o", str(trace_to or os.devnull), "-e", f"trace={syscalls}",
               "-P", str(journal), "-P", f"{journal}.new"]
    if fault is not None:
        command += ["-e", f"inject={fault.syscall}:error={FAULTS[fault.syscall]}:when={fault.n}"]
    return command


def play(game: str, seed: int, folder: Path, fault: Fault | None, *, timeout: float,
         trace_to: Path | None = None) -> Run:
    """One demo of ``game`` under strace, its journal in a folder of its own under ``folder``."""
    own = Path(tempfile.mkdtemp(dir=folder, prefix=f"{game}-"))
    journal = own / "journal.jsonl"
    demo = [sys.executable, "-m", "toprace_pi", "demo", "--fast", "--no-colour", "--seed", str(seed),
            *GAMES[game], "--journal", str(journal)]
    # A session of its own: a run that stalls is ended with its demo (which strace's end would leave running).
    with subprocess.Popen(strace_command(journal, fault, trace_to) + demo, cwd=ROOT, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, start_new_session=True) as process:
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            out, err = process.communicate()
            return Run(None, out, err, journal)
    return Run(process.returncode, out, err, journal)


def replayed(journal: Path) -> tuple[list[str], dict[str, Any]]:
    """The steps of ``journal`` and the game they play to, as a table resuming it would read them."""
    loaded = load(journal)
    game = loaded.game
    for _ in applied_steps(game, loaded, journal):
        pass
    return [str(step) for step in loaded.steps], game.snapshot()


def reference(game: str, seed: int, folder: Path, *, timeout: float) -> Reference:
    trace = folder / f"{game}-trace.txt"
    run = play(game, seed, folder, None, timeout=timeout, trace_to=trace)
    if run.returncode != 0:
        raise RuntimeError(f"{game}: the demo failed without a fault (exit {run.returncode}):\n{run.err}")
    lines = trace.read_text().splitlines()
    calls = {syscall: sum(line.split(maxsplit=1)[-1].startswith(f"{syscall}(") for line in lines)
             for syscall in FAULTS}  # a line is "PID call(...)"; one cut by another thread's goes on "<... resumed>"
    steps, state = replayed(run.journal)
    shutil.rmtree(run.journal.parent)
    return Reference(calls, steps, state)


def judge(run: Run, fault: Fault, expected: Reference) -> tuple[str, str]:
    """What the run ended as, and why (empty for a good end)."""
    if run.returncode is None:
        return STALLED, "no end in time"
    if "Traceback" in run.err or run.returncode not in (0, 2):
        return CRASHED, run.err.strip().splitlines()[-1] if run.err.strip() else f"exit {run.returncode}"
    if run.returncode == 2:
        named = fault.n == 1 and str(run.journal) in run.err and not run.journal.exists()
        return (REFUSED_AT_START, "") if named else (CRASHED, run.err.strip())
    try:
        steps, state = replayed(run.journal)
    except Exception as exc:  # noqa: BLE001  (any failure to read it back is a step lost)
        return LOST, f"the journal does not play back: {exc}"
    if steps != expected.steps or state != expected.state:
        same = sum(1 for _ in zip(steps, expected.steps, strict=False))
        first = next((i for i, (a, b) in enumerate(zip(steps, expected.steps, strict=False)) if a != b), same)
        return LOST, f"{len(steps)} steps against {len(expected.steps)}, the first difference at step {first + 1}"
    told = (run.out.count(UNSAVED), run.out.count(SAVED))
    if told != (1, 1):
        return UNTOLD, f"said {told[0]} time(s) that a step could not be saved and {told[1]} that it was"
    return FINISHED, ""


@dataclass
class Counts:
    """The soak's outcome: each end by game and fault, and the runs that ended badly."""

    ends: Counter[tuple[str, str, str]]
    bad: list[str]
    seconds: float

    @property
    def ok(self) -> bool:
        return not self.bad


def soak(games: Sequence[str], seed: int, *, jobs: int = 1, timeout: float = 120.0,
         sample: Callable[[int], Iterable[int]] | None = None, out: Callable[[str], None] = print) -> Counts:
    """Every fault of every game's whole demo (``sample(calls)``: only those N), ``jobs`` runs at a time."""
    began = time.perf_counter()
    ends: Counter[tuple[str, str, str]] = Counter()
    bad: list[str] = []
    with tempfile.TemporaryDirectory(prefix="disk-soak-") as name:
        folder = Path(name)
        for game in games:
            expected = reference(game, seed, folder, timeout=timeout)
            out(f"{game} (seed {seed}): {len(expected.steps)} steps; the journal's "
                + ", ".join(f"{calls} {syscall}s" for syscall, calls in expected.calls.items()))
            faults = [Fault(syscall, n) for syscall, calls in expected.calls.items()
                      for n in (sample(calls) if sample else range(1, calls + 1))]

            def one(fault: Fault, game: str = game, expected: Reference = expected) -> tuple[Fault, str, str]:
                run = play(game, seed, folder, fault, timeout=timeout)
                end, why = judge(run, fault, expected)
                if end in GOOD:
                    shutil.rmtree(run.journal.parent)
                return fault, end, why

            with ThreadPoolExecutor(max_workers=jobs) as pool:
                for fault, end, why in pool.map(one, faults):
                    ends[game, fault.syscall, end] += 1
                    if end not in GOOD:
                        bad.append(f"{game}, {fault}: {end}: {why}")
                        out(bad[-1])
    counts = Counts(ends, bad, time.perf_counter() - began)
    report(counts, games, out)
    return counts


def report(counts: Counts, games: Sequence[str], out: Callable[[str], None]) -> None:
    for game in games:
        for syscall in FAULTS:
            line = ", ".join(f"{number} {end}" for (g, s, end), number in sorted(counts.ends.items())
                             if (g, s) == (game, syscall))
            out(f"{game}, {syscall} failing ({FAULTS[syscall]}): {line}")
    total = Counter()
    for (_, _, end), number in counts.ends.items():
        total[end] += number
    out(f"{sum(total.values())} runs in {counts.seconds:.0f} s: {total[FINISHED]} finished, "
        f"{total[REFUSED_AT_START]} with the header refused (the journal named), {total[CRASHED]} crashed, "
        f"{total[STALLED]} stalled, {total[LOST]} with steps lost, {total[UNTOLD]} not saying once that a step "
        "could not be saved and once that it was")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"the demos to play (default all: {', '.join(GAMES)})")
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=1, help="runs at a time (default 1)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds a run may take (default 120)")
    args = parser.parse_args()
    if unknown := set(args.games) - set(GAMES):
        parser.error(f"no demo called {', '.join(sorted(unknown))} (the demos: {', '.join(GAMES)})")
    if shutil.which("strace") is None:
        print("disk_soak: strace is needed (apt install strace)", file=sys.stderr)
        return 2
    return 0 if soak(args.games or list(GAMES), args.seed, jobs=args.jobs, timeout=args.timeout).ok else 1


if __name__ == "__main__":
    sys.exit(main())
