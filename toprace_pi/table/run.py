"""The running table: devices kept alive, inputs to the controller, frames to the strip.

A device that is missing or fails is reported once, retried every few seconds and
picked up again when it answers, so the service starts and plays on with a
reader unplugged or no strip at all (gpiozero buttons and the buzzer are opened
once at start; a missing one is reported and the table plays on without it).
"""

from __future__ import annotations

import logging
import queue
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from toprace_pi.core.colour import RGB
from toprace_pi.hardware import HardwareError
from toprace_pi.hardware.events import DeviceStatus, Event
from toprace_pi.hardware.readers import CardReader
from toprace_pi.hardware.strip import LedStrip
from toprace_pi.table.controller import TableController
from toprace_pi.table.garbage import collect_due

if TYPE_CHECKING:
    from toprace_pi.table.side import GameView


log = logging.getLogger(__name__)

#: Seconds between attempts to reach a missing device.
RETRY = 2.0


class ReaderSlot:
    """Keeps one card reader going. A reader that cannot be opened is opened again
    every :data:`RETRY` seconds; one that fails while polled (unplugged, hung) is
    polled again after :data:`RETRY` seconds, since the readers reconnect by
    themselves. Either way the loss is said once, and the return once."""

    def __init__(self, name: str, opener: Callable[[], CardReader], clock: Callable[[], float]) -> None:
        self.name = name
        self.opener = opener
        self.clock = clock
        self.reader: CardReader | None = None
        self.missing = False
        self._next_try = 0.0

    def poll(self) -> list[Event]:
        if self.clock() < self._next_try or (self.reader is None and not self._open()):
            return self._lost_news()
        assert self.reader is not None
        try:
            events = self.reader.poll()
        except (HardwareError, OSError) as exc:
            self._failed(exc)
            return self._lost_news()
        return self._back_news() + events

    def _open(self) -> bool:
        try:
            self.reader = self.opener()
        except (HardwareError, OSError, RuntimeError, ValueError) as exc:
            self._failed(exc)
            return False
        return True

    def _failed(self, exc: Exception) -> None:
        if not self.missing:
            log.warning("the %s reader failed: %s", self.name, exc)
        self._next_try = self.clock() + RETRY

    def _lost_news(self) -> list[Event]:
        if self.missing or self._next_try <= self.clock():
            return []
        self.missing = True
        return [DeviceStatus(f"{self.name} reader", False, f"the {self.name} reader is missing: still looking")]

    def _back_news(self) -> list[Event]:
        if not self.missing:
            return []
        self.missing = False
        log.info("the %s reader is back", self.name)
        return [DeviceStatus(f"{self.name} reader", True, f"the {self.name} reader is back")]

    def close(self) -> None:
        if self.reader is not None:
            self.reader.close()
            self.reader = None


class StripSlot:
    """Shows frames on the strip; a strip that fails is logged once and written
    again when it recovers. The frame shown last is kept, so nothing is lost."""

    def __init__(self, strip: LedStrip) -> None:
        self.strip = strip
        self.failing = False
        self.last: list[RGB] | None = None

    def show(self, frame: list[RGB]) -> None:
        if frame == self.last and not self.failing:
            return
        try:
            self.strip.show(frame)
        except (HardwareError, OSError) as exc:
            if not self.failing:
                log.error("the LED strip failed: %s", exc)
            self.failing = True
            return
        if self.failing:
            log.info("the LED strip works again")
        self.failing = False
        self.last = frame


class Table:
    """One table: a controller fed by readers and an input queue (the buttons', and the seats'
    pages'), and its view on a strip."""

    def __init__(
        self,
        controller: TableController,
        view: GameView,
        readers: Sequence[ReaderSlot],
        strip: StripSlot,
        buttons: queue.Queue[Any],
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.controller = controller
        self.view = view
        self.readers = list(readers)
        self.strip = strip
        self.buttons = buttons
        self.clock = clock
        #: Called after each step, once the LEDs show it (the web pages post it).
        self.watchers: list[Callable[[], None]] = []
        #: Called with the name of the device an input came from, once the controller has taken it and
        #: the LEDs show its effect: a screen that shows the input's effect is drawn then, never before.
        self.taken: list[Callable[[str], None]] = []
        controller.show = self.refresh
        #: The controller's input count when the LEDs last showed the game (``None``: not in this step).
        self._shown: int | None = None

    def step(self) -> None:
        """Poll every reader once and take what came in, then the button presses queued meanwhile,
        then let time pass: a press made before a timed window closed is taken for that window,
        never for the decision after it. The LEDs are refreshed after every input (and once a step
        for what blinks). The garbage collection that is due comes last
        (:mod:`toprace_pi.table.garbage`)."""
        self._shown = None
        for slot in self.readers:
            for event in slot.poll():
                self._take(slot.name, event)
        while not self.buttons.empty():  # asked first: an empty queue's get raises, which costs more
            self._take("buttons", self.buttons.get_nowait())  # this thread alone takes from it
        self.controller.tick(self.clock())
        if self._shown is None:
            self.refresh()
        self.controller.remember()
        for watcher in self.watchers:
            watcher()
        collect_due()

    def _take(self, device: str, event: Any) -> None:
        """One input to the controller; the LEDs show its effect before anyone is told it was taken."""
        self.controller.handle(event)
        if self._shown != self.controller.inputs:
            self.refresh()
        for taken in self.taken:
            taken(device)

    def refresh(self) -> None:
        """The LEDs show what everyone at the table may see: the game as a spectator sees it."""
        self.strip.show(self._frame(self.clock()))
        self._shown = self.controller.inputs

    def steady(self) -> list[RGB]:
        """The strip's frame as a picture of the table shows it: what blinks or moves caught at its first
        moment (a terminal is redrawn at each step, not at the blink's pace: a cursor drawn from the
        strip itself would be there or not by chance)."""
        return self._frame(0.0)

    def _frame(self, now: float) -> list[RGB]:
        return self.view.frame(self.controller.game.seen_by(None), self.controller.choice, now)

    def close(self) -> None:
        for slot in self.readers:
            slot.close()
        self.strip.strip.close()
