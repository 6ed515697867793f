"""Demo tables with their web pages on a free loopback port, stepped by a thread of their own as the
running table steps itself, for tests that talk to the pages over real HTTP."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from toprace_pi.web.live import TableWeb

#: Seconds between two steps of a table left to itself (the live table's tick).
TICK = 0.005


class Stepper:
    """Steps ``demo``'s table in a thread until stopped (the players act only through the pages)."""

    def __init__(self, demo: Any) -> None:
        self.demo = demo
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                self.demo.step()
            time.sleep(TICK)

    def still(self) -> Any:
        """A lock held while the test looks at the game: the table takes no step meanwhile."""
        return self._lock

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)


@contextmanager
def served(build: Any, **options: Any) -> Iterator[tuple[Any, TableWeb, Stepper]]:
    """A demo table made by ``build(pages=...)``, its pages served at 127.0.0.1 on a free port."""
    webs: list[TableWeb] = []

    def pages(table: Any) -> TableWeb:
        web = TableWeb(table, host="127.0.0.1", port=0, **options)
        web.start()
        webs.append(web)
        return web

    demo = build(pages=pages)
    stepper = Stepper(demo)
    try:
        yield demo, webs[0], stepper
    finally:
        stepper.stop()
        demo.close()


def request(url: str, *, data: bytes | None = None, kind: str = "application/json",
            method: str | None = None) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body of one request (an error status is an answer too)."""
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Content-Type": kind} if data is not None else {})
    try:
        with urllib.request.urlopen(req, timeout=10) as reply:
            return reply.status, dict(reply.headers), reply.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def act(web: TableWeb, token: str, act_text: str, step: int) -> tuple[int, dict[str, Any]]:
    status, _, body = request(f"{web.server.url}/seat/{token}/act",
                              data=json.dumps({"act": act_text, "step": step}).encode())
    return status, json.loads(body)


def posts(url: str, count: int, *, timeout: float = 10.0) -> Iterator[tuple[int, dict[str, Any]]]:
    """The first ``count`` posts of a feed, each with its number."""
    with urllib.request.urlopen(url, timeout=timeout) as stream:
        seq = 0
        got = 0
        while got < count:
            line = stream.readline().decode()
            if not line:
                return
            if line.startswith("id: "):
                seq = int(line[4:])
            elif line.startswith("data: "):
                got += 1
                yield seq, json.loads(line[6:])


def journal_size(path: Path) -> int:
    return path.stat().st_size if path.exists() else 0
