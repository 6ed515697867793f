#!/usr/bin/env python3
"""Start-up figures: the CPU time ``toprace-pi`` takes until it is ready.

    python3 benchmarks/bench_start.py           # about half a minute
    python3 benchmarks/bench_start.py --quick   # a few seconds, rougher figures

* ``toprace-pi --help``: from the start of the process to its exit.
* ``toprace-pi play --new`` on a configuration of simulated devices (its journal
  and tag registry in a scratch folder): from the start of the process until it
  tells systemd it is ready (``READY=1`` on ``$NOTIFY_SOCKET``, sent once the
  game, its journal and every device are open, as the loop begins to wait for
  the first input). It is killed then, so nothing after that counts.
* The interpreter alone (``python -c pass``), for scale.

The CPU time is the child's user + system time (``getrusage(RUSAGE_CHILDREN)``), the
median of several runs, in ms and in yardsticks (y: ``sum(range(1000))``, timed in the
same run). Each is measured twice: with toprace_pi's bytecode cached, as an installed
package has it (in a scratch ``PYTHONPYCACHEPREFIX``, filled by a first run), and
compiled at each start, as a checkout runs under ``PYTHONDONTWRITEBYTECODE``.
Target: <= 150 ms with the bytecode cached. A script that prints figures, not a test:
it asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from timing import yardstick  # noqa: E402  (beside this script)

ROOT = Path(__file__).resolve().parent.parent
TARGET_MS = 150.0
#: Seconds to wait for the table to be ready before giving up.
READY_WAIT = 60.0
#: A table on simulated devices, without speech; ``{folder}`` is the scratch folder of its files.
CONFIG = """\
[readers.discard]
kind = "simulated"

[strip]
backend = "simulated"

[buttons]
kind = "simulated"

[sound]
speech = false

[files]
registry = "{folder}/tags.json"
journal = "{folder}/journal.jsonl"
"""


def cpu_seconds() -> float:
    """The user + system time of this process's children that have ended, so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def child_cpu(run: Callable[[], None]) -> float:
    """CPU seconds of the child process that ``run`` starts and waits for."""
    before = cpu_seconds()
    run()
    return cpu_seconds() - before


def run_to_exit(command: list[str], env: dict[str, str]) -> None:
    subprocess.run(command, env=env, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)


def run_to_ready(command: list[str], env: dict[str, str], folder: Path) -> None:
    """Start ``command`` with a ``NOTIFY_SOCKET`` of ours, and kill it once it says ``READY=1``."""
    address = folder / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify:
        notify.bind(str(address))
        notify.settimeout(READY_WAIT)
        child = subprocess.Popen(command, env={**env, "NOTIFY_SOCKET": str(address)}, cwd=ROOT,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            while b"READY=1" not in notify.recv(4096):
                pass
        finally:
            child.kill()
            child.wait()
    address.unlink()


def median_cpu(run: Callable[[], None], times: int) -> float:
    return statistics.median(child_cpu(run) for _ in range(times))


def environments(cache: Path) -> dict[str, dict[str, str]]:
    """The children's environments: every module's bytecode cached in ``cache``; and none written, so that
    what has no cache yet (a checkout's own modules; the standard library has its own) is compiled."""
    base = {key: value for key, value in os.environ.items()
            if key not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX", "NOTIFY_SOCKET")}
    return {"bytecode cached": {**base, "PYTHONPYCACHEPREFIX": str(cache)},
            "compiled at each start": {**base, "PYTHONDONTWRITEBYTECODE": "1"}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    times = 3 if parser.parse_args(argv).quick else 11
    unit = yardstick()
    python = [sys.executable]
    results: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="bench-start-") as scratch:
        folder = Path(scratch)
        (folder / "table.toml").write_text(CONFIG.format(folder=folder), "utf-8")
        play = [*python, "-m", "toprace_pi", "play", "--new", "--config", str(folder / "table.toml")]
        commands: dict[str, Callable[[dict[str, str]], None]] = {
            "python -c pass": lambda env: run_to_exit([*python, "-c", "pass"], env),
            "toprace-pi --help": lambda env: run_to_exit([*python, "-m", "toprace_pi", "--help"], env),
            "toprace-pi play, until ready": lambda env: run_to_ready(play, env, folder),
        }
        for how, env in environments(folder / "pycache").items():
            print(f"CPU time to ready, {how} (median of {times} runs):")
            for name, start in commands.items():
                start(env)  # fills the cache, and starts the rest from a warm disk cache
                seconds = median_cpu(lambda start=start, env=env: start(env), times)
                results[f"{name}, {how}"] = seconds
                print(f"  {name:30} {seconds * 1000:8.1f} ms {seconds / unit:8.1f} y")
    for name in ("toprace-pi --help", "toprace-pi play, until ready"):
        ms = results[f"{name}, bytecode cached"] * 1000
        print(f"verdict: {name} {ms:.1f} ms of CPU <= {TARGET_MS:.0f} ms: {'met' if ms <= TARGET_MS else 'NOT MET'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
