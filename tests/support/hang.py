"""A guard against a call that never returns, in place of a bound on how fast it returns.

A test that asserts a duration fails on a busy machine although nothing is wrong; a guard only
stops what has clearly hung, so its limit is generous and a loaded machine never reaches it.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

#: Seconds after which a call counts as hung: far beyond any call the tests make, on any machine.
HANG_LIMIT = 60.0


class Hung(BaseException):
    """Raised into a call that outlived its guard; a BaseException, so no ``except Exception`` of the
    code under test can mistake it for an error of its own."""


@contextmanager
def hang_guard(seconds: float = HANG_LIMIT, what: str = "the call") -> Iterator[None]:
    """Interrupt the block with :class:`Hung` after ``seconds`` of wall clock (SIGALRM, so only
    in the main thread of a POSIX process; elsewhere the block runs unguarded)."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: object) -> None:
        raise Hung(f"{what} did not return within {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
