"""The table's buttons as events, and a recorder standing in for the buzzer and the speaker."""

from __future__ import annotations

from toprace_pi.hardware.events import ButtonPressed

NEXT, OK, PASS = ButtonPressed("next"), ButtonPressed("ok"), ButtonPressed("pass")
UNDO = ButtonPressed("undo", held=True)


class Recorder:
    """Stands in for the buzzer and the speaker: remembers what they were told."""

    def __init__(self) -> None:
        self.said: list[str] = []
        self.sounds: list[str] = []

    def say(self, text: str) -> None:
        self.said.append(text)

    def refuse(self) -> None:
        self.sounds.append("refuse")

    def confirm(self) -> None:
        self.sounds.append("confirm")

    def hurry(self) -> None:
        self.sounds.append("hurry")

    def finish(self, place: int) -> None:
        self.sounds.append(f"finish {place}")
