"""Talking to systemd as a ``Type=notify`` service, without any dependency.

systemd passes the address of a datagram socket in ``$NOTIFY_SOCKET``; the
service sends short ``KEY=value`` lines to it: ``READY=1`` once started,
``STATUS=...`` for ``systemctl status``, ``WATCHDOG=1`` to show it is alive, and
``STOPPING=1`` on the way out. Outside systemd (the demo, tests, a terminal) the
variable is unset and every call here does nothing, so callers never check.

The protocol is small enough that a dependency (``sdnotify``, or
``systemd-python`` with its C build) would cost more than it saves.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable, Mapping
from typing import IO

from toprace_pi.text import printable, printable_lines

log = logging.getLogger(__name__)


def notify(message: str, *, environ: Mapping[str, str] | None = None) -> bool:
    """Send ``message`` (one or more ``KEY=value`` lines) to systemd.

    Returns whether it was sent: ``False`` when not run by systemd, or when the
    socket cannot be reached (logged; a lost notification must not stop the game).
    """
    env = os.environ if environ is None else environ
    address = env.get("NOTIFY_SOCKET", "")
    if not address:
        return False
    if not address.startswith(("/", "@")):
        log.warning("NOTIFY_SOCKET=%s is neither a path nor an abstract socket: not notifying", address)
        return False
    target = "\0" + address[1:] if address.startswith("@") else address
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.sendto(message.encode("utf-8"), target)
    except OSError as exc:
        log.warning("could not notify systemd at %s: %s", address, exc)
        return False
    return True


def ready(status: str | None = None, *, environ: Mapping[str, str] | None = None) -> bool:
    """Tell systemd the service is up (``systemctl start`` returns now), optionally with a status line."""
    message = "READY=1" if status is None else f"READY=1\n{_status_line(status)}"
    return notify(message, environ=environ)


def status(text: str, *, environ: Mapping[str, str] | None = None) -> bool:
    """Set the one line ``systemctl status`` shows under the service ("Turn 3: Anna plays a card")."""
    return notify(_status_line(text), environ=environ)


def stopping(*, environ: Mapping[str, str] | None = None) -> bool:
    """Tell systemd the service is shutting down on purpose."""
    return notify("STOPPING=1", environ=environ)


def _status_line(text: str) -> str:
    """A newline would start a new ``KEY=value`` assignment, so the text is kept on one line."""
    return "STATUS=" + " ".join(text.split())


class Watchdog:
    """Says how often to ping systemd's watchdog and pings when due.

    systemd sets ``$WATCHDOG_USEC`` (from ``WatchdogSec=``) and restarts the
    service when no ``WATCHDOG=1`` arrives within it. Pinging at half that
    interval leaves room for one slow turn. The main loop calls
    :meth:`ping_if_due` every round and may use :meth:`due_in` as its wait
    timeout. ``clock`` is injected so tests advance time instead of sleeping.
    """

    def __init__(
        self,
        *,
        environ: Mapping[str, str] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._environ = os.environ if environ is None else environ
        self._clock = clock
        self.interval = _ping_interval(self._environ)
        self._last = clock()

    @property
    def enabled(self) -> bool:
        return self.interval is not None

    def due_in(self) -> float | None:
        """Seconds until the next ping is due (0 when due now), or ``None`` without a watchdog."""
        if self.interval is None:
            return None
        return max(0.0, self._last + self.interval - self._clock())

    def ping_if_due(self) -> bool:
        """Send ``WATCHDOG=1`` if an interval has passed since the last one; returns whether it did."""
        if self.due_in() != 0.0:
            return False
        self._last = self._clock()
        notify("WATCHDOG=1", environ=self._environ)
        return True

    def __repr__(self) -> str:
        every = "off" if self.interval is None else f"every {self.interval:g} s"
        return f"<Watchdog {every}>"


def _ping_interval(environ: Mapping[str, str]) -> float | None:
    """Half of ``$WATCHDOG_USEC`` in seconds; ``None`` when unset, meant for another process, or malformed."""
    usec = environ.get("WATCHDOG_USEC")
    if usec is None:
        return None
    pid = environ.get("WATCHDOG_PID")
    if pid is not None and pid != str(os.getpid()):
        return None  # set for a parent process; a child must not ping for it
    if not usec.isdigit() or int(usec) == 0:
        log.warning("WATCHDOG_USEC=%r is not a positive number of microseconds: watchdog not pinged", usec)
        return None
    return int(usec) / 2_000_000


#: syslog priorities by logging level, for journald's "<N>" line prefixes.
_PRIORITY = {logging.DEBUG: 7, logging.INFO: 6, logging.WARNING: 4, logging.ERROR: 3, logging.CRITICAL: 2}


class LogFormat(logging.Formatter):
    """Log lines for a terminal, or for journald when stderr is its stream.

    journald reads a ``<N>`` at the start of each line of a service's output as
    its syslog priority, so ``journalctl -p warning`` shows warnings and worse
    only. A record's message is one line, made printable whole (:func:`toprace_pi.text.printable`:
    a newline in it is written ``\\n``), and the lines a traceback adds are indented: text from
    outside (a hub's error, a player's name) cannot forge a log line.
    """

    def __init__(self, *, journald: bool) -> None:
        super().__init__("%(levelname)s %(name)s: %(message)s")
        self.journald = journald

    def formatMessage(self, record: logging.LogRecord) -> str:  # noqa: N802 (logging's name)
        record.message = printable(record.message)
        return super().formatMessage(record)

    def format(self, record: logging.LogRecord) -> str:
        first, *more = printable_lines(super().format(record)).split("\n")
        lines = [first, *(f"  {line}" for line in more)]
        if not self.journald:
            return "\n".join(lines)
        prefix = f"<{_PRIORITY.get(record.levelno, 6)}>"
        return "\n".join(prefix + line for line in lines)


def logs_to_journald(stream: IO[str], *, environ: Mapping[str, str] | None = None) -> bool:
    """Whether ``stream`` is the one systemd connected to the journal: it names that
    stream's device and inode in ``$JOURNAL_STREAM``."""
    env = os.environ if environ is None else environ
    try:
        info = os.fstat(stream.fileno())
    except (AttributeError, OSError, ValueError):  # no file behind it (a test's captured stream)
        return False
    return env.get("JOURNAL_STREAM", "") == f"{info.st_dev}:{info.st_ino}"
