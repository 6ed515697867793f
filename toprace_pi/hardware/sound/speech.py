"""Spoken announcements: sentences always written to the console (the journal, under systemd) and, where
``espeak-ng`` is installed and speech is on, also spoken, one at a time, in the background."""

from __future__ import annotations

import logging
import shutil
import threading
from collections import deque
from collections.abc import Callable, Sequence

from toprace_pi.hardware import Device, SoundClosedError
from toprace_pi.text import printable

log = logging.getLogger(__name__)

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
