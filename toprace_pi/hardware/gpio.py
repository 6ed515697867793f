"""Checks shared by the devices on the Pi's GPIO header (the buttons and the buzzer).

gpiozero accepts many pin spellings and, on a real Pi, fails only when a pin is
opened ("pin already in use", permission denied). The config's numbers are checked
against :data:`HEADER_GPIOS` when the file is read; wrapping gpiozero's own errors
gives the controller the one :class:`HardwareError` it knows how to report.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

from toprace_pi.hardware import HardwareError
from toprace_pi.schema import Range

log = logging.getLogger(__name__)

#: BCM numbers of the header GPIOs a device may use: GPIO2 to GPIO27 on the 40-pin header of every Pi since
#: the B+ (3, 4 and 5 included). GPIO0 and GPIO1 are left out: they carry the HAT ID EEPROM bus.
HEADER_GPIOS = Range(int, 2, 27, "a GPIO number (BCM numbering)")
#: Why a device on the GPIO header cannot be opened on a machine where gpiozero finds no pins.
NO_GPIO = "no GPIO pins here (not a Raspberry Pi?)"
#: Said once, instead of gpiozero's warnings (one per pin library it tried), where there are no pins.
HOW_TO_SIMULATE = ("to run on simulated devices instead, set kind = \"simulated\" under [buttons] and "
                   "[readers.NAME] and backend = \"simulated\" under [strip] in the config, and leave out "
                   "[sound] buzzer")
_told: set[str] = set()


@contextmanager
def gpio_errors(what: str) -> Iterator[None]:
    """Re-raise gpiozero's and the OS's errors from opening pins as :class:`HardwareError` about ``what``."""
    from gpiozero.exc import GPIOZeroError  # lazily: only real GPIO devices need it

    try:
        yield
    except (GPIOZeroError, OSError) as exc:
        raise HardwareError(f"{what}: {str(exc) or type(exc).__name__}") from exc


def gpio_missing() -> str | None:
    """Why gpiozero has no pins to open here (:data:`NO_GPIO`), or ``None`` when it has; the first time,
    a warning says :data:`HOW_TO_SIMULATE`.

    gpiozero picks its pin factory at the first device: it tries lgpio, RPi.GPIO, pigpio and its own
    native one, warns for each that fails, and off a Pi ends with ``BadPinFactory``. Choosing it here
    first, with those warnings silenced, lets the table say one line that helps instead. A factory set
    by ``GPIOZERO_PIN_FACTORY`` or by a test counts as pins.
    """
    try:
        from gpiozero import Device
        from gpiozero.exc import BadPinFactory, PinFactoryFallback
    except ImportError:
        return "gpiozero is not installed (pip install gpiozero)"
    if Device.pin_factory is not None:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PinFactoryFallback)
        try:
            Device.ensure_pin_factory()
        except BadPinFactory:
            if not _told:
                _told.add(NO_GPIO)
                log.warning("%s: %s", NO_GPIO, HOW_TO_SIMULATE)
            return NO_GPIO
    return None


def pins_simulated() -> str | None:
    """Why gpiozero's pins in use are simulated ones (its mock pins), or ``None`` for a Pi's real pins."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    if isinstance(Device.pin_factory, MockFactory):
        return "gpiozero's mock pins (GPIOZERO_PIN_FACTORY=mock, or kind = \"simulated\" under [buttons])"
    return None
