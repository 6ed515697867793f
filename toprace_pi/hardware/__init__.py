"""The table's devices behind small interfaces, each with a real and a simulated kind.

Every device reports what happens as :mod:`events <toprace_pi.hardware.events>`
on one :class:`queue.Queue` that the table controller reads; the controller
never blocks on a device. A device that fails raises :class:`HardwareError` (or
a subclass) from its methods and never takes the service down: the controller
reports it, keeps looking and picks the device up again.

Real implementations import their library (adafruit_pn532, rpi_ws281x, gpiozero,
serial) lazily inside their own module, so the rules engine, the demo and the
tests never need them.

Each kind of device has its folder here (``readers``, ``strip``, ``buttons``, ``sound``): its protocol, its
settings (the config's section, checked once when the file is read), and its backends, real and simulated,
found by name in one table.
"""

from abc import ABC, abstractmethod
from typing import Self

from toprace_pi.errors import TopRaceError


class Device(ABC):
    """What every device shares: ``close()`` lets go of it (safe to call again), and ``with device:`` closes it
    at the end of the block, as gpiozero's devices do."""

    @abstractmethod
    def close(self) -> None:
        """Let go of the device; safe to call again."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class HardwareError(TopRaceError, OSError):
    """A device is missing, unplugged, or answered nonsense."""


class ReaderError(HardwareError):
    """A card reader cannot be reached or keeps failing."""


class StripError(HardwareError):
    """The LED strip cannot be started or written."""


class SoundClosedError(TopRaceError, RuntimeError):
    """A sound was asked of a device already closed: a bug in the caller, not a broken device."""
