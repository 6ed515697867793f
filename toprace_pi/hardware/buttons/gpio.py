"""The ``gpio`` kind of buttons: the table's four buttons (NEXT, OK, UNDO, PASS) as gpiozero ``Button`` devices.

Each button is wired between its GPIO and ground and uses the Pi's internal
pull-up, so a press pulls the pin low. A press becomes a
:class:`~toprace_pi.hardware.events.ButtonPressed` on the controller's queue;
gpiozero calls us from its own threads, and the queue is how those presses
reach the controller's single thread.

UNDO acts only when held (``hold_time`` seconds), so a brush against it never
takes back a move. A short UNDO press is still reported, with ``held=False``, so
the controller can answer "hold UNDO to take back".
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Mapping
from typing import Any

from toprace_pi.hardware import Device
from toprace_pi.hardware.events import BUTTONS, ButtonPressed, Event
from toprace_pi.hardware.gpio import gpio_errors

log = logging.getLogger(__name__)

#: Seconds gpiozero ignores further edges after one, to swallow contact bounce.
BOUNCE_TIME = 0.05


class TableButtons(Device):
    """One gpiozero ``Button`` per name in ``pins`` (name -> BCM GPIO number).

    ``pins`` names each of :data:`BUTTONS` once, on GPIOs of the header (checked
    with the config: :class:`~toprace_pi.hardware.buttons.ButtonSettings`). Pins
    that cannot be opened raise :class:`~toprace_pi.hardware.HardwareError`. ``pin_factory`` is passed to
    gpiozero (a ``MockFactory`` in tests; ``None`` for gpiozero's default).
    """

    def __init__(
        self,
        pins: Mapping[str, int],
        events: queue.Queue[Event],
        *,
        hold_time: float = 1.0,
        pin_factory: Any = None,
    ) -> None:
        self.pins = {name: pins[name] for name in BUTTONS}
        self.hold_time = float(hold_time)
        self._events = events
        self._undo = _UndoPress(self._emit)
        self._devices: dict[str, Any] = {}
        try:
            for name, pin in self.pins.items():
                self._devices[name] = self._open(name, pin, pin_factory)
        except BaseException:
            self.close()
            raise

    def _open(self, name: str, pin: int, pin_factory: Any) -> Any:
        from gpiozero import Button  # lazily: importing this module needs no gpiozero

        with gpio_errors(f"the {name.upper()} button on GPIO{pin}"):
            button = Button(
                pin, pull_up=True, bounce_time=BOUNCE_TIME, hold_time=self.hold_time, pin_factory=pin_factory
            )
        if name == "undo":
            button.when_pressed = self._undo.pressed
            button.when_held = self._undo.held
            button.when_released = self._undo.released
        else:
            button.when_pressed = lambda: self._emit(ButtonPressed(name))
        return button

    def _emit(self, event: ButtonPressed) -> None:
        try:
            self._events.put_nowait(event)
        except queue.Full:
            log.warning("the event queue is full: %s dropped", event)

    @property
    def closed(self) -> bool:
        return not self._devices

    def close(self) -> None:
        """Release the pins; safe to call again."""
        devices, self._devices = self._devices, {}
        for button in devices.values():
            button.close()

    def __repr__(self) -> str:
        pins = ", ".join(f"{name}=GPIO{pin}" for name, pin in self.pins.items())
        state = "closed" if self.closed else f"hold_time={self.hold_time:g}"
        return f"<TableButtons {pins}, {state}>"


class _UndoPress:
    """Turns one press of UNDO into exactly one event: held, or short.

    gpiozero fires ``when_held`` from its hold thread and ``when_released`` from
    the pin's thread; a press released just as the hold time runs out could
    otherwise give both. The lock decides which came first.
    """

    def __init__(self, emit: Callable[[ButtonPressed], None]) -> None:
        self._emit = emit
        self._lock = threading.Lock()
        self._down = False
        self._held = False

    def pressed(self) -> None:
        with self._lock:
            self._down, self._held = True, False

    def held(self) -> None:
        with self._lock:
            if not self._down or self._held:
                return
            self._held = True
        self._emit(ButtonPressed("undo", held=True))

    def released(self) -> None:
        with self._lock:
            short = self._down and not self._held
            self._down = False
        if short:
            self._emit(ButtonPressed("undo", held=False))
