"""The table's buttons (NEXT, OK, UNDO, PASS): their settings, and their kinds by name.

A press becomes a :class:`~toprace_pi.hardware.events.ButtonPressed` on the controller's queue, so the buttons
have nothing for the controller to call but ``close()``. Kinds (:data:`KINDS`, by ``[buttons] kind``):

``gpio`` -> :class:`~toprace_pi.hardware.buttons.gpio.TableButtons`
    gpiozero ``Button`` devices on the Pi's GPIO (on gpiozero's ``MockFactory`` in the demo and the tests).
``simulated``
    no buttons at all: nobody could press simulated ones, and so a table runs on a computer that is not a Pi.
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Protocol, Self

from toprace_pi.hardware import HardwareError
from toprace_pi.hardware.buttons.gpio import BOUNCE_TIME, TableButtons
from toprace_pi.hardware.events import BUTTONS, Event
from toprace_pi.hardware.gpio import HEADER_GPIOS, gpio_missing
from toprace_pi.schema import Range

#: The BCM GPIO of each button unless ``[buttons]`` says otherwise (the build guide's wiring).
DEFAULT_PINS: Mapping[str, int] = MappingProxyType({"next": 5, "ok": 6, "undo": 13, "pass": 19})
#: Every number of the ``[buttons]`` section, and its range: each button's GPIO, and how long UNDO is held
#: (no shorter than the bounce of a press, and nobody holds a button for 10 s to take back a step).
NUMBERS: dict[str, Range[Any]] = {"hold_time": Range(float, BOUNCE_TIME, 10.0, "a number of seconds"),
                                  **{name: HEADER_GPIOS for name in BUTTONS}}


class Buttons(Protocol):
    """Buttons put their presses on the controller's queue; the table only lets go of them at the end
    (``close()``, or a ``with`` block)."""

    def close(self) -> None: ...
    def __enter__(self) -> Self: ...
    def __exit__(self, *exc_info: object) -> None: ...


@dataclass(frozen=True)
class ButtonSettings:
    """The ``[buttons]`` section, checked when the configuration is read: the kind (:data:`KINDS`), each
    button's GPIO, and how many seconds UNDO is held to take back a step. Without the section the buttons are
    simulated, like every other device the file leaves out; with one, they are on the GPIO."""

    kind: str = "simulated"
    pins: Mapping[str, int] = field(default_factory=lambda: DEFAULT_PINS)
    hold_time: float = 1.0


def _on_gpio(settings: ButtonSettings, events: queue.Queue[Event]) -> Buttons:
    """The buttons on the Pi's GPIO; off a Pi, :class:`HardwareError` (and :func:`gpio_missing` says how to go on)."""
    if (missing := gpio_missing()) is not None:
        raise HardwareError(missing)
    return TableButtons(settings.pins, events, hold_time=settings.hold_time)


#: Each kind of buttons by name: what opens them from the settings, onto the controller's queue (the simulated
#: kind opens nothing: nobody could press them, and gpiozero is not imported for them).
KINDS: dict[str, Callable[[ButtonSettings, queue.Queue[Event]], Buttons | None]] = {
    "gpio": _on_gpio,
    "simulated": lambda settings, events: None,
}


def open_buttons(settings: ButtonSettings, events: queue.Queue[Event]) -> Buttons | None:
    """The buttons ``settings`` ask for, their presses put on ``events``; ``None`` for the simulated kind. Pins that
    cannot be opened raise :class:`~toprace_pi.hardware.HardwareError`."""
    return KINDS[settings.kind](settings, events)
