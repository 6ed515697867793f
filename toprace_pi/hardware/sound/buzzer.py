"""A :class:`~toprace_pi.hardware.sound.Sound` on a buzzer on the Pi's GPIO, through gpiozero (imported when a
buzzer is opened). Signals play in a background thread, so the controller never waits for a sound, and a new
signal cuts the one still playing short, because the newest one belongs to what the player just did."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from toprace_pi.hardware import Device, SoundClosedError
from toprace_pi.hardware.gpio import gpio_errors
from toprace_pi.hardware.sound.melody import CONFIRM, HURRY, REFUSE, Melody, fanfare


class BuzzerSound(Device):
    """A :class:`~toprace_pi.hardware.sound.Sound` on a buzzer at BCM GPIO ``pin``.

    With ``tonal=False`` (an active buzzer: one pitch, switched on and off by the
    pin) the signals differ by rhythm; with ``tonal=True`` (a passive piezo
    driven with PWM through gpiozero's ``TonalBuzzer``) they are tunes.
    ``tempo`` multiplies every duration (tests use a tiny one). Pins that
    cannot be opened raise :class:`~toprace_pi.hardware.HardwareError`.
    """

    def __init__(self, pin: int, *, tonal: bool = False, tempo: float = 1.0, pin_factory: Any = None) -> None:
        self.pin = pin
        self.tonal = tonal
        self._device = self._open(pin_factory)
        self._player = _Player(self._output, tempo, name=f"buzzer-GPIO{self.pin}")

    def _open(self, pin_factory: Any) -> Any:
        from gpiozero import Buzzer, TonalBuzzer  # lazily: SilentSound and Announcer need no gpiozero

        with gpio_errors(f"the buzzer on GPIO{self.pin}"):
            if self.tonal:
                # Two octaves around A4 (110-1760 Hz) hold every note used here.
                return TonalBuzzer(self.pin, octaves=2, pin_factory=pin_factory)
            return Buzzer(self.pin, pin_factory=pin_factory)

    def _output(self, tone: str | None) -> None:
        if not self.tonal:
            self._device.value = tone is not None
        elif tone is None:
            self._device.stop()
        else:
            from gpiozero.tones import Tone

            self._device.play(Tone(tone))

    def refuse(self) -> None:
        self._play(REFUSE)

    def confirm(self) -> None:
        self._play(CONFIRM)

    def hurry(self) -> None:
        self._play(HURRY)

    def finish(self, place: int) -> None:
        self._play(fanfare(place))

    def _play(self, melody: Melody) -> None:
        if self._device is None:
            raise SoundClosedError(f"a sound asked of a closed {self!r}")
        self._player.play(melody)

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until nothing is playing; ``False`` if ``timeout`` ran out first. For shutdown and tests."""
        return self._player.wait_idle(timeout)

    def close(self) -> None:
        """Stop the sound and release the pin; safe to call again."""
        if self._device is None:
            return
        self._player.close()
        self._device.close()
        self._device = None

    def __repr__(self) -> str:
        kind = "tonal buzzer" if self.tonal else "buzzer"
        return f"<BuzzerSound {kind} on GPIO{self.pin}{', closed' if self._device is None else ''}>"


class _Player:
    """Plays one melody at a time through ``output`` in a background thread.

    :meth:`play` only hands the melody over and returns. A melody handed over
    while another plays cuts that one short; only the newest waiting one is kept.
    """

    def __init__(self, output: Callable[[str | None], None], tempo: float, *, name: str) -> None:
        self._output = output
        self._tempo = tempo
        self._state = threading.Condition()
        self._cut = threading.Event()
        self._next: Melody | None = None
        self._busy = False
        self._closed = False
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def play(self, melody: Melody) -> None:
        with self._state:
            self._next = melody
            self._cut.set()
            self._state.notify_all()

    def _run(self) -> None:
        while (melody := self._take()) is not None:
            self._perform(melody)
            with self._state:
                self._busy = False
                self._state.notify_all()

    def _take(self) -> Melody | None:
        with self._state:
            self._state.wait_for(lambda: self._next is not None or self._closed)
            if self._closed:
                return None
            melody, self._next = self._next, None
            self._cut.clear()
            self._busy = True
            return melody

    def _perform(self, melody: Melody) -> None:
        try:
            for tone, seconds in melody:
                self._output(tone)
                if self._cut.wait(seconds * self._tempo):
                    break
        finally:
            self._output(None)

    def wait_idle(self, timeout: float | None) -> bool:
        with self._state:
            return self._state.wait_for(lambda: not self._busy and self._next is None, timeout)

    def close(self) -> None:
        with self._state:
            self._closed = True
            self._next = None
            self._cut.set()
            self._state.notify_all()
        self._thread.join()

