#!/usr/bin/env python3
"""Reader hub figures: how long a turn of the firmware's main loop takes, and what a missing reader costs.

    python3 benchmarks/bench_hub.py

The hub's own ``code.py`` runs under CPython on the emulated board of the tests
(tests/emulators/circuitpython.py): the real adafruit PN532 SPI driver, PN532
emulators on chip-selects GP17 and GP20, nothing on GP21 and GP22. What a turn
costs here is mostly the driver's waits (the tag poll's ``READ_TIMEOUT`` on each
empty reader, ``MAX_WAIT`` on a reader that does not answer); on a Pico the
Python code and the 100 kHz SPI transfers add to that, which cannot be measured
here.

A script that prints figures, not a test: it asserts nothing.
"""

from __future__ import annotations

import logging
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from emulators.circuitpython import HubDevice  # noqa: E402
from emulators.pn532 import Tag  # noqa: E402

from toprace_pi.hardware.ndef import encode_record  # noqa: E402

TURNS = 40


def timed_turn(device: HubDevice) -> float:
    started = time.perf_counter()
    device.run()
    return time.perf_counter() - started


def main() -> int:
    logging.disable(logging.WARNING)  # the host's warnings about the missing readers
    device = HubDevice()
    try:
        first = timed_turn(device)
        idle = [timed_turn(device) for _ in range(TURNS)]
        card = Tag("04a1b2c3d4e517", encode_record("toprace card 17"))
        device.emulators[0].lay(card)
        laid = timed_turn(device)
    finally:
        device.close()
    print("A turn of the hub's main loop (2 readers answering, 2 missing), code.py on the emulated board:")
    print(f"  first turn (4 readers set up, 2 of them missing): {first * 1000:.0f} ms")
    slowest = sorted(idle)[-2:]
    print(f"  a turn with no tag: median {statistics.median(idle) * 1000:.0f} ms ({TURNS} turns)")
    print(f"  the 2 slowest of them, the missing readers tried again (after 1 s, then 2 s): "
          f"{', '.join(f'{t * 1000:.0f} ms' for t in slowest)}")
    print(f"  the turn a card is laid (uid and record read): {laid * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
