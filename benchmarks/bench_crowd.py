"""What a crowd on the table's network costs a real table: ``python3 benchmarks/bench_crowd.py [--clients 1000]``.

A table (``toprace-pi play``, AUTORACE on simulated devices, its web pages on a loopback port) runs in a
process of its own, at the open-files limit the unit sets (1024), and is sent by raw sockets:

- a flood of requests that are no HTTP (each of them holding a seat's token): the lines and bytes it logs;
- ``--clients`` idle connections, more than the open-files limit allows: the most files it held open, and how
  those over the bound were answered;
- ``--clients`` connections that never finish their request (slowloris): how many are still open after the
  header timeout;
- ``--clients`` followers of the feed that never read: its resident memory before, with them and after.

Prints the figures; exits 1 if a bound does not hold.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from crowds import answers, connections, crowd_memory, paced, table_process  # noqa: E402

from toprace_pi.web.connections import HEADER_WITHIN, bounds  # noqa: E402

#: The open-files limit the unit sets (systemd/toprace-pi.service).
UNIT_LIMIT = 1024


def flood(folder: Path, count: int) -> bool:
    with table_process(folder, open_files=UNIT_LIMIT) as table:
        token = table.tokens[0]
        before = len(table.log_text())
        began = time.perf_counter()
        for _ in range(count):
            table.request(f"GET /seat/{token}\xff HTTP/1.1\r\nHost: {table.host}\r\n\r\n".encode("latin-1"))
        seconds = time.perf_counter() - began
        time.sleep(0.5)
        log = table.log_text()[before:]
    print(f"flood: {count:,} malformed requests in {seconds:.1f} s; the log grew by {len(log.splitlines())} "
          f"line(s), {len(log.encode()):,} bytes; a token in it: {token in log}")
    return len(log) < 1000 and token not in log


def idle(folder: Path, count: int) -> bool:
    with table_process(folder, open_files=UNIT_LIMIT) as table:
        held = connections(table, count)
        time.sleep(1.0)
        files = len(os.listdir(f"/proc/{table.process.pid}/fd"))
        served = table.status("/")
        answered = answers(held)
        for sock in held:
            sock.close()
    print(f"idle: {count:,} connections held open at a limit of {UNIT_LIMIT} files: the table held {files} files "
          f"(its bound {bounds(UNIT_LIMIT).connections} connections); answers {answered}; a page meanwhile: {served}")
    return files < UNIT_LIMIT // 2


def slow(folder: Path, count: int) -> bool:
    with table_process(folder, open_files=UNIT_LIMIT) as table:
        crowd = paced(table, count)
        for sock in crowd:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a")
        time.sleep(HEADER_WITHIN + 3.0)
        still = answers(crowd).get("waiting", 0)
        for sock in crowd:
            sock.close()
    print(f"slowloris: {count:,} connections that never finish their headers: {still} still open "
          f"{HEADER_WITHIN + 3.0:g} s after they opened")
    return still == 0


def memory(folder: Path, count: int) -> bool:
    with table_process(folder, open_files=UNIT_LIMIT) as table:
        figures = crowd_memory(table, count)
    print(f"memory: {count:,} silent followers: {figures.before:.1f} MB before, {figures.peak:.1f} MB with them, "
          f"{figures.after:.1f} MB after they left ({figures.after / figures.before - 1:+.1%}); answers "
          f"{figures.answered}")
    return figures.after <= figures.before * 1.10


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=1000, help="connections in each crowd (default 1000)")
    parser.add_argument("--flood", type=int, default=20000, help="malformed requests sent (default 20000)")
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}; the table's bounds at {UNIT_LIMIT} open files: {bounds(UNIT_LIMIT)}")
    held = []
    with tempfile.TemporaryDirectory() as name:
        for n, measure in enumerate((lambda f: flood(f, args.flood), lambda f: idle(f, args.clients),
                                     lambda f: slow(f, args.clients), lambda f: memory(f, args.clients))):
            folder = Path(name) / str(n)
            folder.mkdir()
            held.append(measure(folder))
    return 0 if all(held) else 1


if __name__ == "__main__":
    sys.exit(main())
