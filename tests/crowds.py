"""A real table (``toprace-pi play`` with simulated devices and its web pages) in a process of its own, and
crowds of raw connections to it over the loopback: the sockets are opened by hand, so that a test decides
each byte sent, sends nothing at all, or never reads; for the web abuse tests and benchmarks/bench_crowd.py."""

from __future__ import annotations

import json
import os
import resource
import selectors
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from toprace_pi.web.connections import BACKLOG

ROOT = Path(__file__).resolve().parents[1]
#: Seconds a table may take to serve its pages after it was started.
STARTS_WITHIN = 60.0


@dataclass
class TableProcess:
    """A running table: its process, its pages' port, its log (stdout and stderr) and its seats' tokens."""

    process: subprocess.Popen[bytes]
    port: int
    log: Path
    tokens: list[str]

    @property
    def host(self) -> str:
        return f"127.0.0.1:{self.port}"

    def resident_mb(self) -> float:
        """The table's resident memory now (megabytes)."""
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise AssertionError("the table's process has no resident memory: has it ended?")

    def log_text(self) -> str:
        return self.log.read_text("utf-8", errors="replace")

    def request(self, raw: bytes, *, timeout: float = 10.0) -> bytes:
        """What the table answers to ``raw`` (the first bytes of its answer; empty if it closed at once)."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as sock:
            sock.sendall(raw)
            try:
                return sock.recv(4096)
            except ConnectionResetError:
                return b""

    def get(self, path: str) -> bytes:
        return self.request(f"GET {path} HTTP/1.1\r\nHost: {self.host}\r\nConnection: close\r\n\r\n".encode())

    def status(self, path: str) -> int:
        """The status of a GET of ``path`` (0: no answer)."""
        try:
            head = self.get(path)
        except OSError:
            return 0
        return int(head.split()[1]) if head.startswith(b"HTTP/1.1 ") else 0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def table_config(folder: Path, port: int) -> Path:
    """The config of an AUTORACE table for Anna and Ben on simulated devices, its files in ``folder`` and its
    pages on loopback ``port``."""
    config = folder / "table.toml"
    config.write_text(f"""
[game]
name = "autorace"
players = ["Anna", "Ben"]
[readers.seats]
kind = "simulated"
[buttons]
kind = "simulated"
[sound]
speech = false
[files]
journal = "{folder / 'journal.jsonl'}"
registry = "{folder / 'tags.json'}"
[web]
listen = "127.0.0.1:{port}"
""")
    return config


@contextmanager
def table_process(folder: Path, *, open_files: int | None = None) -> Iterator[TableProcess]:
    """An AUTORACE table for Anna and Ben serving its pages on a free loopback port, with this worktree's
    code, its open-files limit lowered to ``open_files`` if given; killed at the end."""
    port = free_port()
    config = table_config(folder, port)

    def limit() -> None:
        if open_files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))

    log = folder / "table.log"
    with open(log, "wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "toprace_pi", "play", "--config", str(config)], cwd=ROOT,
                                   env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=out, stderr=out,
                                   preexec_fn=limit)
    table = TableProcess(process, port, log, [])
    try:
        until = time.monotonic() + STARTS_WITHIN
        while table.status("/") != 200:
            assert process.poll() is None, table.log_text()
            assert time.monotonic() < until, f"the table did not serve its pages within {STARTS_WITHIN:.0f} s"
            time.sleep(0.1)
        table.tokens = json.loads((folder / "journal.jsonl.seats").read_text())["tokens"]
        yield table
    finally:
        process.kill()
        process.wait(timeout=10)


def connections(table: TableProcess, count: int) -> list[socket.socket]:
    """``count`` connections to the table, opened all at once as a flood opens them (each waits for the
    table to take it in, as long as the system retries), in blocking mode once open."""
    crowd = []
    for _ in range(count):
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)  # a client that reads nothing holds little
        sock.setblocking(False)
        sock.connect_ex(("127.0.0.1", table.port))
        crowd.append(sock)
    with selectors.DefaultSelector() as waiting:
        for sock in crowd:
            waiting.register(sock, selectors.EVENT_WRITE)
        until = time.monotonic() + STARTS_WITHIN
        while waiting.get_map():
            assert time.monotonic() < until, f"{len(waiting.get_map())} connections still not taken in"
            for key, _ in waiting.select(timeout=1.0):
                waiting.unregister(key.fileobj)
    for sock in crowd:
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0
        sock.setblocking(True)
    return crowd


def paced(table: TableProcess, count: int) -> list[socket.socket]:
    """``count`` connections opened a few at a time, each few taken in by the table before the next: the
    kernel's queue of connections not yet taken in holds only BACKLOG, and one it drops a connection from
    (while the client believes it open) the table never sees until the client speaks."""
    crowd: list[socket.socket] = []
    while len(crowd) < count:
        crowd += connections(table, min(BACKLOG // 2, count - len(crowd)))
        time.sleep(0.05)
    return crowd


def followers(table: TableProcess, count: int, path: str = "/events") -> list[socket.socket]:
    """``count`` clients asking to follow ``path``'s feed that never read what they are sent, nor say
    anything more."""
    crowd = connections(table, count)
    for sock in crowd:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {table.host}\r\n\r\n".encode())
    return crowd


def answers(crowd: list[socket.socket]) -> dict[str, int]:
    """How many of ``crowd`` were answered so far, by the answer's status ("closed": closed unanswered,
    "waiting": nothing yet)."""
    counts: dict[str, int] = {}
    for sock in crowd:
        sock.setblocking(False)
        try:
            head = sock.recv(64)
        except BlockingIOError:
            kind = "waiting"
        except ConnectionResetError:
            kind = "closed"
        else:
            kind = head.split()[1].decode() if head.startswith(b"HTTP/1.1 ") else "closed"
        counts[kind] = counts.get(kind, 0) + 1
    return counts


@dataclass(frozen=True)
class CrowdMemory:
    """The table's resident memory (megabytes) before a crowd came, with it, and after it left; and how the
    crowd was answered."""

    before: float
    peak: float
    after: float
    answered: dict[str, int]


def crowd_memory(table: TableProcess, count: int, *, stay: float = 3.0, settle: float = 5.0) -> CrowdMemory:
    """The table's memory around ``count`` silent followers of the spectators' feed that stay ``stay``
    seconds, then leave; measured ``settle`` seconds after. Before, the table has served its board's page
    and files, and three followers that came and went, as a table whose pages were opened once."""
    for path in ("/", "/static/board.js", "/static/page.css", "/board.svg"):
        table.get(path)
    for sock in followers(table, 3):
        sock.close()
    time.sleep(settle)
    before = table.resident_mb()
    crowd = followers(table, count)
    time.sleep(stay)
    peak = table.resident_mb()
    answered = answers(crowd)
    for sock in crowd:
        sock.close()
    time.sleep(settle)
    return CrowdMemory(before, peak, table.resident_mb(), answered)
