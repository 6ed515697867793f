"""The card readers: their protocol, their settings, and their kinds by name.

Kinds (:data:`KINDS`, by ``[readers.NAME] kind``; the hub has a section of its own, ``[hub]``):

``pn532`` -> :class:`~toprace_pi.hardware.readers.pn532.Pn532Reader`
    a PN532 on the Pi's UART, I2C or SPI, on the real adafruit driver (imported when it is opened).
``simulated`` -> :class:`~toprace_pi.hardware.readers.simulated.SimulatedReader`
    tags laid and lifted by calls: the demo and the tests.
the hub -> :class:`~toprace_pi.hardware.readers.hub.HubReader`
    a Raspberry Pi Pico polling several PN532s, reporting over USB serial (``firmware/``): one reader for all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from toprace_pi.hardware.events import Event
from toprace_pi.hardware.readers.hub import HubReader
from toprace_pi.hardware.readers.pn532 import Bus, Pn532Reader
from toprace_pi.hardware.readers.simulated import SimulatedReader
from toprace_pi.schema import Range

#: Every number of a ``[readers.NAME]`` section, and its range: a reader's I2C address has seven bits.
NUMBERS: dict[str, Range[Any]] = {"address": Range(int, 0x00, 0x7F, "an I2C address")}


class CardReader(Protocol):
    """``poll()`` is one short look at the reader (at most ~50 ms): a
    :class:`~toprace_pi.hardware.events.TagLaid` once when a tag is laid on it (a tag left lying there is not
    laid again; lifted and laid again is) and a :class:`~toprace_pi.hardware.events.TagLifted` when it is taken
    away; it raises :class:`~toprace_pi.hardware.ReaderError` when the reader cannot be reached. ``name`` is the
    reader's role (``"discard"``, ``"cars"``)."""

    name: str

    def poll(self) -> list[Event]: ...
    def close(self) -> None: ...


@dataclass(frozen=True)
class ReaderSettings:
    """One ``[readers.NAME]`` section, checked when the configuration is read: the reader named by its role in
    the game (Top Race: ``discard``, ``cars``), its kind (:data:`KINDS`) and, for a PN532, where it is."""

    name: str
    kind: str = "simulated"
    bus: Bus = "uart"
    port: str = "/dev/serial0"
    address: int = 0x24
    cs_pin: str = "D5"


@dataclass(frozen=True)
class HubSettings:
    """The ``[hub]`` section: a microcontroller polling several PN532s, on USB (``firmware/``)."""

    #: The names of the hub's readers 0, 1, ... in order: the game's readers have their roles (Top Race:
    #: ``discard``, ``cars``), other names (``seat1``) are places where any tag may be laid.
    readers: tuple[str, ...]
    #: The hub's serial device, or ``None`` to find it by its USB id at every (re)connect.
    port: str | None = None


def _pn532(settings: ReaderSettings) -> Callable[[], CardReader]:
    return lambda: Pn532Reader(settings.name, bus=settings.bus, port=settings.port, address=settings.address,
                               cs_pin=settings.cs_pin)


def _simulated(settings: ReaderSettings) -> Callable[[], CardReader]:
    reader = SimulatedReader(settings.name)
    return lambda: reader


#: Each kind of reader by name: what makes, from the settings, the function that opens the reader (called again
#: after a failure; a simulated reader is one and the same throughout).
KINDS: dict[str, Callable[[ReaderSettings], Callable[[], CardReader]]] = {"pn532": _pn532, "simulated": _simulated}


def reader_opener(settings: ReaderSettings) -> Callable[[], CardReader]:
    """A function that opens the reader ``settings`` ask for (called again after a failure)."""
    return KINDS[settings.kind](settings)


def hub_opener(settings: HubSettings) -> Callable[[], HubReader]:
    """A function that opens the reader hub (it connects, and finds the hub, at its first poll)."""
    return lambda: HubReader(dict(enumerate(settings.readers)), port=settings.port)
