"""What the table makes heard: buzzer signals and spoken announcements.

Signals (:class:`Sound`) answer a player's action at once: a low buzz for a
refusal, a click for a confirmed step, a small fanfare for a finish, two quick
beeps before a timed window closes. They play
in a background thread, so the controller never waits for a sound, and a new
signal cuts the one still playing short, because the newest one belongs to what
the player just did.

Announcements (:class:`Announcer`) are sentences. They are always written to the
console (the journal, under systemd) and, where ``espeak-ng`` is installed and
speech is on, also spoken, one at a time, in the background.
"""

from __future__ import annotations

import logging
import shutil
import threading
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from toprace_pi.errors import TopRaceError
from toprace_pi.hardware import Device
from toprace_pi.hardware.gpio import check_pins, gpio_errors
from toprace_pi.text import printable

log = logging.getLogger(__name__)

#: One step of a signal: a tone name ("A4", "C#5") or ``None`` for silence, and its length in seconds.
Note = tuple[str | None, float]
Melody = tuple[Note, ...]

#: A short low buzz: long enough to tell apart from the click on a one-pitch buzzer.
REFUSE: Melody = (("A3", 0.35),)
#: A short high click.
CONFIRM: Melody = (("E6", 0.025),)
#: Two quick high beeps: a timed window (the pit stop claims) is about to close.
HURRY: Melody = (("C6", 0.06), (None, 0.06), ("C6", 0.06))
_FANFARE = ("C5", "E5", "G5", "C6")


def fanfare(place: int) -> Melody:
    """The notes for a car finishing in ``place`` (1 = first).

    The winner gets the whole rising fanfare, second place one note less, later
    places two notes, so the table hears who won without looking. Notes are
    separated by rests so a one-pitch buzzer sounds them as separate beeps.
    """
    if isinstance(place, bool) or not isinstance(place, int) or place < 1:
        raise ValueError(f"a place is a whole number from 1, not {place!r}")
    tones = _FANFARE[: max(2, len(_FANFARE) + 1 - place)]
    melody: list[Note] = []
    for tone in tones[:-1]:
        melody += [(tone, 0.12), (None, 0.04)]
    return (*melody, (tones[-1], 0.4))


class SoundClosedError(TopRaceError, RuntimeError):
    """A sound was asked of a device already closed: a bug in the caller, not a broken device."""


class Sound(Protocol):
    """Short signals for the table; none of them blocks the caller."""

    def refuse(self) -> None: ...
    def confirm(self) -> None: ...
    def hurry(self) -> None: ...
    def finish(self, place: int) -> None: ...
    def close(self) -> None: ...


class SilentSound:
    """A :class:`Sound` that only records what it was asked to play: for tests and the demo.

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


class BuzzerSound(Device):
    """A :class:`Sound` on a buzzer at BCM GPIO ``pin``.

    With ``tonal=False`` (an active buzzer: one pitch, switched on and off by the
    pin) the signals differ by rhythm; with ``tonal=True`` (a passive piezo
    driven with PWM through gpiozero's ``TonalBuzzer``) they are tunes.
    ``tempo`` multiplies every duration (tests use a tiny one). Pins that
    cannot be opened raise :class:`~toprace_pi.hardware.HardwareError`.
    """

    def __init__(self, pin: int, *, tonal: bool = False, tempo: float = 1.0, pin_factory: Any = None) -> None:
        self.pin = check_pins("buzzer", {"pin": pin})["pin"]
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


#: Runs one spoken announcement to its end: ``runner(argv, text)``.
Runner = Callable[[Sequence[str], str], None]


def run_espeak(argv: Sequence[str], text: str) -> None:
    """Speak ``text`` with the ``espeak-ng`` command ``argv``, reading the text from stdin.

    The text goes through stdin, not the command line, so a sentence starting
    with "-" is never taken for an option. Failures are logged, never raised:
    a silent speaker must not stop the game.
    """
    import subprocess  # lazily: a table without speech runs no program, and starts a little sooner

    try:
        done = subprocess.run(
            list(argv), input=text, text=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=60
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        log.warning("espeak-ng failed: %s", exc)
        return
    if done.returncode != 0:
        log.warning("espeak-ng exited with %s: %s", done.returncode, done.stderr.strip())


def _console(text: str) -> None:
    print(text, flush=True)


class Announcer(Device):
    """Writes every announcement with ``echo`` and, when it can, speaks it.

    Speech needs ``speech=True`` and ``espeak-ng`` on ``PATH`` (looked up once,
    here). :meth:`say` never waits: sentences are spoken one at a time by a
    background thread, in the order said. News (a finish, a payout, a refusal, a
    device lost) is never dropped, however far speech falls behind; a prompt
    (what the table asks for now) goes out of date, so a prompt still waiting
    when a newer one comes is replaced by it (counted in :attr:`replaced`).
    ``runner`` speaks one sentence to its end (tests inject a fake one).
    """

    def __init__(
        self,
        *,
        speech: bool = True,
        voice: str = "en",
        words_per_minute: int = 160,
        echo: Callable[[str], None] = _console,
        runner: Runner = run_espeak,
    ) -> None:
        self.echo = echo
        self.replaced = 0
        program = shutil.which("espeak-ng") if speech else None
        self.command: tuple[str, ...] | None = (
            None if program is None else (program, "-v", voice, "-s", str(words_per_minute), "--stdin")
        )
        self._runner = runner
        #: Sentences waiting, each with whether it is a prompt.
        self._pending: deque[tuple[str, bool]] = deque()
        self._state = threading.Condition()
        self._busy = False
        self._closed = False
        self._thread: threading.Thread | None = None
        if self.command is not None:
            self._thread = threading.Thread(target=self._speak_all, name="announcer", daemon=True)
            self._thread.start()
        elif speech:
            log.info("espeak-ng is not on PATH: announcements are written only")

    @property
    def speaks(self) -> bool:
        """Whether announcements are spoken as well as written."""
        return self.command is not None

    def say(self, text: str, *, prompt: bool = False) -> None:
        """Write ``text`` now and queue it for speech; returns at once. A ``prompt``
        replaces a prompt that still waits to be spoken."""
        if self._closed:
            raise SoundClosedError(f"{text!r} said to a closed {self!r}")
        text = printable(text)  # names and device messages come from outside
        self.echo(text)
        if self.command is None:
            return
        with self._state:
            if prompt:
                waiting = [entry for entry in self._pending if entry[1]]
                for entry in waiting:
                    self._pending.remove(entry)
                self.replaced += len(waiting)
            self._pending.append((text, prompt))
            self._state.notify_all()

    def _speak_all(self) -> None:
        assert self.command is not None
        while (text := self._take()) is not None:
            try:
                self._runner(self.command, text)
            except Exception:  # a broken runner must not end speech for the rest of the game
                log.warning("speaking %r failed", text, exc_info=True)
            with self._state:
                self._busy = False
                self._state.notify_all()

    def _take(self) -> str | None:
        with self._state:
            self._state.wait_for(lambda: bool(self._pending) or self._closed)
            if self._closed:
                return None
            self._busy = True
            return self._pending.popleft()[0]

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until everything queued has been spoken; ``False`` if ``timeout`` ran out first."""
        with self._state:
            return self._state.wait_for(lambda: not self._busy and not self._pending, timeout)

    def close(self) -> None:
        """Drop what still waits, let the sentence being spoken end, stop; safe to call again."""
        with self._state:
            self._closed = True
            self._pending.clear()
            self._state.notify_all()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def __repr__(self) -> str:
        how = "spoken with " + self.command[0] if self.command else "written only"
        return f"<Announcer {how}{', closed' if self._closed else ''}>"
