"""What the benchmark scripts time with: the machine's yardstick and the median of repeated runs.

One yardstick (y) is ``sum(range(1000))``, timed in the same run as the figures it
measures, so figures from a busy or slower machine can be compared with each other.
"""

from __future__ import annotations

import statistics
import time
import timeit
from collections.abc import Callable


def yardstick(*, number: int = 2000, repeat: int = 7) -> float:
    """Seconds for ``sum(range(1000))``, the best of ``repeat`` tries of ``number`` (a shorter
    yardstick for a script that times one before each of many figures)."""
    return min(timeit.repeat("sum(range(1000))", number=number, repeat=repeat)) / number


def timed(run: Callable[[], object], times: int) -> float:
    """Median seconds of ``run``."""
    samples = []
    for _ in range(times):
        start = time.perf_counter()
        run()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def both(seconds: float, unit: float) -> str:
    """A figure in microseconds and in yardsticks (``unit``: the yardstick's seconds)."""
    return f"{seconds * 1e6:10,.1f} us {seconds / unit:9,.1f} y"
