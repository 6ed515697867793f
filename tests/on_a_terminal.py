"""A ``toprace-pi`` command run as a maker runs it: in a process of its own on a real pseudo-terminal, keys
typed in one at a time, what it draws read back by a terminal emulator (pyte)."""

from __future__ import annotations

import os
import pty
import select
import signal
import sys
import time
from pathlib import Path

import pyte

ROOT = Path(__file__).resolve().parent.parent


class OnATerminal:
    """``toprace-pi ARGS`` on a terminal of ``columns`` x ``rows``, without colour."""

    def __init__(self, *args: str, columns: int = 120, rows: int = 60) -> None:
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.ended = False
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the command on the terminal
            os.environ.update(COLUMNS=str(columns), LINES=str(rows), NO_COLOR="1")
            os.chdir(ROOT)
            os.execv(sys.executable, [sys.executable, "-m", "toprace_pi", *args])

    @property
    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def wait_for(self, wanted: str, limit: float = 60.0) -> None:
        """Read what the command draws until ``wanted`` is on its screen."""
        deadline = time.monotonic() + limit
        while wanted not in self.text:
            if self.ended or time.monotonic() > deadline:
                raise AssertionError(f"{wanted!r} never showed; the screen:\n{self.text}")
            self._read(0.05)

    def press(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def close(self, signum: int | None = None, limit: float = 30.0) -> int:
        """The command's exit code, once it ended (sent ``signum`` first, killed if it never ends)."""
        if signum is not None and not self.ended:
            os.kill(self.pid, signum)
        deadline = time.monotonic() + limit
        while not self.ended and time.monotonic() < deadline:
            self._read(0.05)
        if not self.ended:
            os.kill(self.pid, signal.SIGKILL)
        _, status = os.waitpid(self.pid, 0)
        os.close(self.fd)
        return os.waitstatus_to_exitcode(status)

    def _read(self, wait: float) -> None:
        if not select.select([self.fd], [], [], wait)[0]:
            return
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # the command ended and its terminal closed
            data = b""
        self.ended = not data
        self.stream.feed(data)
