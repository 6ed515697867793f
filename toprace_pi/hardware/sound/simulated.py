"""The simulated sound: it plays nothing and records what it was asked, for the demo and the tests."""

from __future__ import annotations

from toprace_pi.hardware import Device, SoundClosedError
from toprace_pi.hardware.sound.melody import fanfare


class SilentSound(Device):
    """A :class:`~toprace_pi.hardware.sound.Sound` that only records what it was asked to play: for tests and the demo.

    ``calls`` holds ``"refuse"``, ``"confirm"``, ``"hurry"`` and ``"finish 2"`` style entries, in order.
    """

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.closed = False

    def refuse(self) -> None:
        self._record("refuse")

    def confirm(self) -> None:
        self._record("confirm")

    def hurry(self) -> None:
        self._record("hurry")

    def finish(self, place: int) -> None:
        fanfare(place)  # the same check as a real buzzer
        self._record(f"finish {place}")

    def _record(self, call: str) -> None:
        if self.closed:
            raise SoundClosedError(f"{call} asked of a closed {self!r}")
        self.calls.append(call)

    def close(self) -> None:
        self.closed = True

    def __repr__(self) -> str:
        return f"<SilentSound {len(self.calls)} calls{', closed' if self.closed else ''}>"
