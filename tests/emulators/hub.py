"""The reader hub's own firmware on the far side of a pseudo-terminal, for the host to talk to.

:class:`HubRig` runs ``firmware/hub.py`` (the code copied to the CIRCUITPY
drive, unchanged) under CPython. It writes into the master side of a pty; the
host opens :attr:`HubRig.port` (the slave side) with real pyserial, as it opens
``/dev/ttyACM1`` at the table. The hub's readers are :class:`FieldReader` fakes
by default, or anything with ``read_passive_target`` (the firmware's
``TagReader`` on the real adafruit driver, in ``test_hub_pn532.py``).

The firmware's modules import each other by their bare names, as on the
device, so the firmware folder goes on ``sys.path``: at the end, so that
``firmware/code.py`` never shadows the standard library's ``code``.
"""

from __future__ import annotations

import os
import sys
import time
import tty
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
if str(FIRMWARE) not in sys.path:
    sys.path.append(str(FIRMWARE))

import hub as firmware_hub  # noqa: E402  (firmware/hub.py)
import protocol  # noqa: E402  (firmware/protocol.py)
import reader as firmware_reader  # noqa: E402  (firmware/reader.py)

Hub = firmware_hub.Hub
MISSES_TO_LIFT = firmware_hub.MISSES_TO_LIFT
TagReader = firmware_reader.TagReader


class FakeClock:
    """A clock that stands still until a test moves ``now`` on."""

    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class FieldReader:
    """A PN532 as the hub sees it: ``read_passive_target`` gives the uid lying in its field, or None, or
    raises like the driver when the reader is broken."""

    def __init__(self) -> None:
        self.uid: bytes | None = None
        self.broken = False
        self.reads = 0

    def __repr__(self) -> str:
        return f"<FieldReader {'broken' if self.broken else self.uid.hex() if self.uid else 'empty'}>"

    def lay(self, uid: bytes) -> None:
        self.uid = uid

    def lift(self) -> None:
        self.uid = None

    def read_passive_target(self, timeout: float = 1.0) -> bytearray | None:
        self.reads += 1
        if self.broken:
            raise RuntimeError("Did not receive expected ACK from PN532!")
        return bytearray(self.uid) if self.uid is not None else None


class HubRig:
    """The firmware's :class:`Hub` polling ``readers``, its lines going into a pty the host opens at :attr:`port`.

    :meth:`settle` is the hub's main loop run for as long as a tag change takes to be reported.
    """

    def __init__(
        self,
        readers: Sequence[Any] | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        read_record: Callable[[Any, bytes], str | None] | None = None,
        read_timeout: float = 0.0,
    ) -> None:
        self.readers = list(readers) if readers is not None else [FieldReader(), FieldReader()]
        self.clock = clock
        self._read_record = read_record
        self._read_timeout = read_timeout
        self._losing = 0
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # as a USB CDC port is: no echo, no line editing
        self.port = os.ttyname(self.slave)
        self.hub = self.restart()

    def __repr__(self) -> str:
        return f"<HubRig {self.port} {self.readers}>"

    def restart(self) -> Any:
        """A fresh Hub on the same readers and port, as after a reset: it says HELLO again."""
        self.hub = Hub(self.readers, self.write, self.clock, read_timeout=self._read_timeout,
                       read_record=self._read_record)
        return self.hub

    def write(self, line: bytes) -> None:
        if self._losing:
            self._losing -= 1
            return
        if self.master >= 0:
            os.write(self.master, line)

    def lose(self, lines: int) -> None:
        """The next ``lines`` lines the hub sends are lost on the way, as on a bad cable."""
        self._losing += lines

    def settle(self) -> None:
        """Answer the host, then run the hub's loop long enough for any tag laid or lifted to be reported."""
        self.answer()
        for _ in range(MISSES_TO_LIFT):
            self.hub.step()

    def answer(self) -> None:
        """Hand the hub every command line the host has written (as ``code.py`` does)."""
        if self.master < 0:
            return
        os.set_blocking(self.master, False)
        try:
            data = os.read(self.master, 4096)
        except BlockingIOError:
            return
        finally:
            os.set_blocking(self.master, True)
        for line in data.split(b"\n")[:-1]:
            self.hub.command(line)

    def unplug(self) -> None:
        """Close the pty's master side: to the host the port is gone, as when the USB cable is pulled."""
        if self.master >= 0:
            os.close(self.master)
            self.master = -1

    def close(self) -> None:
        for fd in (self.master, self.slave):
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self.master = self.slave = -1


def hub_readers(rigs: list[HubRig], hosts: list[Any] | None = None) -> Callable[[Callable[[], float]], Any]:
    """The demo table's readers as hub readers 0 (discard) and 1 (cars): for ``build_demo_table(readers=...)``.

    Each table made gets a rig, appended to ``rigs`` for the caller to close; the hub's loop runs before each look
    of the table at its readers, and the table reads the hub through a real HubReader on the rig's pty (each one
    opened is appended to ``hosts``, when given).
    """
    from toprace_pi.hardware.readers.hub import HubReader
    from toprace_pi.table.demo import DemoReaders
    from toprace_pi.table.run import ReaderSlot

    def make(clock: Callable[[], float]) -> DemoReaders:
        rig = HubRig([FieldReader(), FieldReader()], clock=clock)
        rigs.append(rig)
        def open_host() -> HubReader:
            host = HubReader({0: "discard", 1: "cars"}, port=rig.port, clock=clock)
            if hosts is not None:
                hosts.append(host)
            return host

        slot = ReaderSlot("hub", open_host, clock)
        slot.poll()  # the host opens the port before the hub speaks: pyserial flushes what came before
        return DemoReaders({"discard": rig.readers[0], "cars": rig.readers[1]}, [slot], before_step=rig.settle)

    return make


__all__ = ["FIRMWARE", "FakeClock", "FieldReader", "Hub", "HubRig", "MISSES_TO_LIFT", "TagReader", "hub_readers",
           "protocol"]
