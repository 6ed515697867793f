"""A keyboard console for the human seats of any game's demo whose players act with the buttons
alone: the keys are the buttons (``n`` NEXT, ``o`` OK, ``p`` PASS, ``U`` a held UNDO) and the game's
key map (:meth:`~toprace_pi.table.side.GameTable.key_map`), so a human's step reaches the controller
exactly as a press of the table's buttons does. Keys that steer the demo (pause, step, quit) are
kept aside for it; keys typed while no human seat is asked are dropped (never a bot's move)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from toprace_pi.hardware import Device
from toprace_pi.hardware.events import DeviceStatus, Event
from toprace_pi.hardware.keyboard import DEVICE, Keyboard, KeySource
from toprace_pi.table.controller import TableController
from toprace_pi.table.demo import DEMO_KEYS, typed_ahead


@dataclass
class ButtonConsole(Device):
    """The keyboard of the human ``seats``; ``asked(controller)`` is the seat the table waits for, if it is
    one the console knows; ``changed`` shows a key's effect: at once for
    a key the console keeps, once the table has taken it for a key it passes on (Table.taken)."""

    keys: KeySource
    seats: Sequence[int]
    asked: Callable[[TableController], int | None]
    changed: Callable[[], None] = lambda: None
    controller: TableController | None = None
    demo_keys: list[str] = field(default_factory=list)
    note: str = ""
    name: str = DEVICE
    _keyboard: Keyboard | None = None
    _pending: list[str] = field(default_factory=list)

    def poll(self) -> list[Event]:
        """One key for the table at a poll."""
        typed_ahead(self._pending, self.keys, asked=self.seat_asked() is not None)
        while self._pending:
            key = self._pending.pop(0)
            if key in DEMO_KEYS:
                self.demo_keys.append(key)
                continue
            events = self.keyboard.press(key)
            self.note = next((e.message for e in events if isinstance(e, DeviceStatus)), "")
            events = [e for e in events if not isinstance(e, DeviceStatus)]
            if events:
                return events  # shown once the table has taken them (Table.taken)
            self.changed()
        return []

    @property
    def keyboard(self) -> Keyboard:
        if self._keyboard is None:
            assert self.controller is not None, "the console is polled by a table"
            self._keyboard = Keyboard(self.keys, self.controller.side.key_map(self.controller.game))
        return self._keyboard

    def seat_asked(self) -> int | None:
        seat = self.asked(self.controller) if self.controller is not None else None
        return seat if seat in self.seats else None

    def panel(self) -> list[str]:
        """What the asked human sees: the prompt and the keys."""
        if self.seat_asked() is None or self.controller is None:
            return [self.note] if self.note else []
        return [self.controller.prompt, self.keyboard.key_map.help] + ([self.note] if self.note else [])

    def close(self) -> None:
        self.keys.close()
