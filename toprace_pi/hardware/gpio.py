"""Checks shared by the devices on the Pi's GPIO header (the buttons and the buzzer).

gpiozero accepts many pin spellings and, on a real Pi, fails only when a pin is
opened ("pin already in use", permission denied). Checking the numbers from the
config first gives one message that names every wrong entry, and wrapping
gpiozero's own errors gives the controller the one :class:`HardwareError` it
knows how to report.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from toprace_pi.errors import DataError
from toprace_pi.hardware import HardwareError

#: BCM numbers of the header GPIOs a device may use: GPIO2 to GPIO27 on the 40-pin header of every Pi since
#: the B+ (3, 4 and 5 included). GPIO0 and GPIO1 are left out: they carry the HAT ID EEPROM bus.
HEADER_GPIOS = range(2, 28)


class PinConfigError(DataError):
    """Pins in the config that cannot work: not a GPIO number of the header, or one GPIO given twice."""


def check_pins(source: str, pins: Mapping[str, object]) -> dict[str, int]:
    """Return ``pins`` as role -> GPIO number, or raise :class:`PinConfigError` naming every problem.

    ``source`` says where the pins come from (``"buttons"``, ``"buzzer"``) so the
    message leads the reader to the right part of the config.
    """
    problems = pin_problems(pins)
    if problems:
        raise PinConfigError(source, problems)
    return {role: pin for role, pin in pins.items() if isinstance(pin, int)}


def pin_problems(pins: Mapping[str, object]) -> list[str]:
    """Every reason why ``pins`` (role -> GPIO number) cannot work, for a caller adding its own checks."""
    problems: list[str] = []
    valid: dict[str, int] = {}
    for role, pin in pins.items():
        if isinstance(pin, bool) or not isinstance(pin, int):
            problems.append(f"{role}: a pin is a GPIO number (BCM numbering, e.g. 17), not {pin!r}")
        elif pin not in HEADER_GPIOS:
            problems.append(f"{role}: GPIO{pin} is not one of GPIO2 to GPIO27 on the 40-pin header")
        else:
            valid[role] = pin
    return problems + _shared_pins(valid)


def _shared_pins(pins: Mapping[str, int]) -> list[str]:
    by_pin: dict[int, list[str]] = {}
    for role, pin in pins.items():
        by_pin.setdefault(pin, []).append(role)
    return [f"GPIO{pin} is given to {' and '.join(roles)}" for pin, roles in by_pin.items() if len(roles) > 1]


@contextmanager
def gpio_errors(what: str) -> Iterator[None]:
    """Re-raise gpiozero's and the OS's errors from opening pins as :class:`HardwareError` about ``what``."""
    from gpiozero.exc import GPIOZeroError  # lazily: only real GPIO devices need it

    try:
        yield
    except (GPIOZeroError, OSError) as exc:
        raise HardwareError(f"{what}: {str(exc) or type(exc).__name__}") from exc
