"""Python's cyclic garbage collector, kept out of the way between a card laid and its light.

CPython starts a collection whenever enough objects have been made since the last one, in
the middle of whatever runs then; in a table's step, a collection of an older generation
costs more than the whole step (``benchmarks/bench_table.py``: the p99 of a scan to its frame
0.75-0.80 ms of CPU with collections where they fell, 0.52-0.53 ms with none). So while a
table runs, automatic collection is off, and each step ends with the collection that fell due
meanwhile (in the step, or in the thought of a bot, the pages' thread, the speaker's), after
the LEDs, the news and the prompt: the next step begins with none due.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collections_off() -> Iterator[None]:
    """Automatic collection off for the block, on again after it if it was on: for a table's start-up,
    whose objects (the modules, the track, the devices) live as long as it does, so that collections
    there would look at them again and again for nothing (the freeze's one collection finds the rest)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


@contextmanager
def collections_between_steps(*, freeze: bool = False) -> Iterator[None]:
    """Automatic collection off for the block (a table's loop, whose steps end with
    :func:`collect_due`), on again after it if it was on. ``freeze``: for a table that runs
    until the machine stops, every object made before the block (the modules, the track,
    the open devices) is set aside for it, as they live as long as the table: no collection
    looks at them again, so each stays short."""
    if freeze:
        gc.collect()
        gc.freeze()
    try:
        with collections_off():
            yield
    finally:
        if freeze:
            gc.unfreeze()


def collect_due() -> None:
    """The collection CPython would have started by itself by now, if any: that of the oldest
    generation whose count has passed its threshold (the youngest counts the objects made, each
    older one the collections of the generation below it). The oldest is collected without
    CPython's further wait for a quarter of its objects to be new: that saves long collections
    of a big heap, and a table's heap past its start-up is small (frozen, see above)."""
    counts, thresholds = gc.get_count(), gc.get_threshold()
    for generation in (2, 1, 0):
        if thresholds[generation] and counts[generation] > thresholds[generation]:
            gc.collect(generation)
            return
