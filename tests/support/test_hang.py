"""The hang guard stops a call that never returns, lets a slow one finish, and leaves the signal as it was."""

import signal
import time

import pytest

from support.hang import Hung, hang_guard


def test_a_call_that_never_returns_is_stopped_with_its_name():
    with pytest.raises(Hung, match="the spin did not return within 0.2 s"):
        with hang_guard(0.2, what="the spin"):
            while True:
                pass


def test_a_call_that_returns_in_time_is_left_alone_and_the_handler_restored():
    before = signal.getsignal(signal.SIGALRM)
    with hang_guard(5.0):
        time.sleep(0.01)
    time.sleep(0.05)
    assert signal.getsignal(signal.SIGALRM) is before
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_an_exception_of_the_code_under_test_cannot_swallow_it():
    with pytest.raises(Hung):
        with hang_guard(0.2):
            try:
                time.sleep(5)
            except Exception:  # the code under test's own handler
                pass
