"""Human seats at the keyboard, beside the demo's bots: the keys are the buttons (``n`` NEXT, ``o``
OK, ``p`` PASS, ``U`` a held UNDO), so a human's turn reaches the controller exactly as a press of
the table's buttons does, and the table says each option as NEXT reaches it. Keys that steer the
demo itself (pause, step, quit) are kept aside for it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from toprace_pi.games.topspeed.table.turn import Turn
from toprace_pi.hardware import Device
from toprace_pi.hardware.events import DeviceStatus, Event
from toprace_pi.hardware.keyboard import DEVICE, Keyboard, KeySource
from toprace_pi.table.controller import TableController
from toprace_pi.table.demo import DEMO_KEYS, typed_ahead


@dataclass
class HumanConsole(Device):
    """The keyboard of the human ``seats``; ``changed`` is called after every key, to show its effect."""

    keys: KeySource
    seats: Sequence[int]
    changed: Callable[[], None] = lambda: None
    controller: TableController | None = None
    demo_keys: list[str] = field(default_factory=list)
    note: str = ""
    name: str = DEVICE
    _keyboard: Keyboard | None = None
    _pending: list[str] = field(default_factory=list)

    def poll(self) -> list[Event]:
        """One key for the table at a poll; what was typed while no human seat was asked is dropped."""
        typed_ahead(self._pending, self.keys, asked=self.seat_asked() is not None)
        while self._pending:
            key = self._pending.pop(0)
            self.note = ""
            if key in DEMO_KEYS:
                self.demo_keys.append(key)
                continue
            events = self.keyboard.press(key)
            self.note = next((e.message for e in events if isinstance(e, DeviceStatus)), "")
            self.changed()
            events = [e for e in events if not isinstance(e, DeviceStatus)]
            if events:
                return events
        return []

    @property
    def keyboard(self) -> Keyboard:
        if self._keyboard is None:
            assert self.controller is not None, "the console is polled by a table"
            self._keyboard = Keyboard(self.keys, self.controller.side.key_map(self.controller.game))
        return self._keyboard

    def seat_asked(self) -> int | None:
        """The human seat to move, if it is one's turn."""
        entry = self.controller.entry if self.controller is not None else None
        return entry.seat if isinstance(entry, Turn) and entry.seat in self.seats else None

    def panel(self) -> list[str]:
        """What the asked human sees: the prompt (the option under the cursor) and the keys."""
        if self.seat_asked() is None or self.controller is None:
            return [self.note] if self.note else []
        lines = [self.controller.prompt, self.keyboard.key_map.help]
        return lines + ([self.note] if self.note else [])

    def close(self) -> None:
        self.keys.close()
