"""The simulated strip: no hardware, it remembers the frames shown. The demo and the tests use it, and
:func:`~toprace_pi.hardware.strip.open_strip` falls back to it when a real strip cannot start, because the
table service must run without its strip."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence

from toprace_pi.hardware import Device, StripError
from toprace_pi.hardware.strip.frame import DARK, RGB, check_frame


class SimulatedStrip(Device):
    """A strip that only remembers: the frames shown, oldest first, in ``frames``.

    As strict as the real ones (and stricter than a real strip could be about
    use after :meth:`close`), so tests catch what would fail at the table.
    ``keep`` bounds the memory because the service may run on it for days after a
    fallback; ``None`` keeps every frame. ``on_frame`` is called with each frame
    shown, for example to draw it in a terminal.
    """

    def __init__(
        self, count: int, *, keep: int | None = 1000, on_frame: Callable[[list[RGB]], None] | None = None,
        stands_in: str | None = None,
    ) -> None:
        if count < 1:
            raise ValueError(f"a strip needs at least one LED, not {count}")
        self.count = count
        #: Why it stands in for the configured real strip (:func:`open_strip`'s fallback), for the self-test.
        self.stands_in = stands_in
        self.frames: deque[list[RGB]] = deque(maxlen=keep)
        self.on_frame = on_frame
        self.closed = False

    @property
    def last(self) -> list[RGB]:
        """The frame the LEDs would show now (all dark before the first)."""
        return self.frames[-1] if self.frames else [DARK] * self.count

    def show(self, frame: Sequence[RGB]) -> None:
        if self.closed:
            raise StripError("the simulated strip is closed")
        checked = check_frame(frame, self.count)
        self.frames.append(checked)
        if self.on_frame is not None:
            self.on_frame(checked)

    def close(self) -> None:
        """Go dark (recorded as a last frame); closing twice is harmless."""
        if not self.closed:
            self.show([DARK] * self.count)
            self.closed = True

