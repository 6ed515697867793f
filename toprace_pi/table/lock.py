"""One table per journal: an exclusive lock held while the table runs.

Two ``play`` processes on one journal (the service, and someone starting it by
hand) would both append to it and leave it damaged for the next start. The
table takes an exclusive ``flock`` on a lock file beside the journal and writes
its process id into it; a second process finds the lock taken and stops at once
with the first one's pid. The kernel drops the lock when the process ends, so a
crash or a power cut never leaves a stale lock behind (the file may stay; it is
only a place to lock).
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from toprace_pi.errors import TopRaceError
from toprace_pi.files import make_folder


class AlreadyRunning(TopRaceError):
    """Another process holds the table's lock."""


class TableLock:
    """The exclusive lock on a journal; :meth:`close` (or the process's end) releases it."""

    def __init__(self, journal: str | Path) -> None:
        self.path = Path(journal).with_name(Path(journal).name + ".lock")
        make_folder(self.path.parent)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = os.read(fd, 32).decode("ascii", "replace").strip() or "unknown"
            os.close(fd)
            raise AlreadyRunning(
                f"the table is already running (pid {pid}) on {journal}: stop it first "
                "(sudo systemctl stop toprace-pi, if it is the service)"
            ) from None
        except OSError:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd: int | None = fd

    def __repr__(self) -> str:
        return f"<TableLock {self.path}{'' if self._fd is not None else ' (released)'}>"

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor releases the flock
            self._fd = None
