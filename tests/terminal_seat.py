"""A person at the keyboard of the demo, through a real pseudo-terminal: the demo runs in a process of its
own on a terminal of a given size, its screen is read back by a terminal emulator (pyte), and keys go in
one at a time, each once the screen has settled after the one before, as a player who reads before
pressing does. What the journal then holds is read back as the table wrote it."""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import sys
import time
from pathlib import Path

import pyte

ROOT = Path(__file__).resolve().parent.parent
#: The screen has settled when nothing was drawn for this long (seconds)...
QUIET = 0.08
#: ...and the demo used at most this much processor time meanwhile (clock ticks, 10 ms each): its looks at
#: the keys every 20 ms take well under a tick each.
IDLE_TICKS = 2


class TerminalSeat:
    """``toprace-pi demo ARGS`` on a pseudo-terminal of ``columns`` x ``rows``, its journal at ``journal``."""

    def __init__(self, args: list[str], journal: Path, *, columns: int = 120, rows: int = 60) -> None:
        self.journal = journal
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.ended = False
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the demo on the terminal
            os.environ.update(COLUMNS=str(columns), LINES=str(rows), NO_COLOR="1", HOME=str(journal.parent))
            os.chdir(ROOT)
            os.execv(sys.executable, [sys.executable, "-m", "toprace_pi", "demo", *args, "--journal", str(journal)])

    @property
    def lines(self) -> list[str]:
        return [line.rstrip() for line in self.screen.display]

    def settle(self, limit: float = 60.0) -> None:
        """Read what the demo draws until it has settled (or ended): nothing drawn for :data:`QUIET` seconds,
        while the demo only waited for its next look at the keys. A quiet screen alone is not enough on a
        busy machine: a demo waiting for a core draws nothing either."""
        deadline = time.monotonic() + limit
        while not self.ended and time.monotonic() < deadline:
            if self._quiet_and_idle():
                return
        if not self.ended:
            raise AssertionError("the demo never settled:\n" + "\n".join(self.lines))

    def _quiet_and_idle(self) -> bool:
        """Watch the demo for :data:`QUIET` seconds: whether it drew nothing, was asleep whenever looked at
        (between its looks at the keys), and took next to no processor time."""
        ticks, asleep, looks = self._ticks(), 0, 0
        end = time.monotonic() + QUIET
        while (left := end - time.monotonic()) > 0:
            ready, _, _ = select.select([self.fd], [], [], min(left, 0.02))
            if ready:
                self._read()
                return False
            state = self._state()
            looks, asleep = looks + 1, asleep + (state == "S")
        return asleep == looks and self._ticks() - ticks <= IDLE_TICKS

    def _read(self) -> None:
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # the demo ended and closed the terminal
            data = b""
        if not data:
            self.ended = True
        self.stream.feed(data)

    def _stat(self) -> list[str]:
        """The fields of /proc/PID/stat after the command's name (which may hold spaces)."""
        try:
            return Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return ["X"] + ["0"] * 20

    def _state(self) -> str:
        return self._stat()[0]

    def _ticks(self) -> int:
        fields = self._stat()
        return int(fields[11]) + int(fields[12])  # utime and stime, in clock ticks

    def press(self, key: str) -> None:
        os.write(self.fd, key.encode())

    def steps(self) -> list[dict]:
        """The journal's step records so far (a line still being written is not one yet)."""
        if not self.journal.exists():
            return []
        lines = self.journal.read_text().split("\n")[1:-1]
        return [json.loads(line) for line in lines]

    def close(self) -> int:
        """The demo's exit code (it is killed if still running)."""
        if not self.ended:
            os.kill(self.pid, signal.SIGKILL)
        _, status = os.waitpid(self.pid, 0)
        os.close(self.fd)
        return os.waitstatus_to_exitcode(status)
