"""What the table makes heard: buzzer signals (:class:`Sound`) and spoken announcements
(:class:`~toprace_pi.hardware.sound.speech.Announcer`).

Signals answer a player's action at once: a low buzz for a refusal, a click for a confirmed step, a small
fanfare for a finish, two quick beeps before a timed window closes. None of them blocks the caller.
Announcements are sentences, written always and spoken where ``espeak-ng`` is installed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from toprace_pi.hardware import HardwareError
from toprace_pi.hardware.gpio import HEADER_GPIOS, gpio_missing
from toprace_pi.hardware.sound.buzzer import BuzzerSound
from toprace_pi.hardware.sound.simulated import SilentSound
from toprace_pi.schema import Range

#: Every number of the ``[sound]`` section, and its range.
NUMBERS: dict[str, Range[Any]] = {"buzzer": HEADER_GPIOS,
                                  "repeat_prompt": Range(int, 0, 3600, "a number of seconds (0: never)")}


class Sound(Protocol):
    """Short signals for the table; none of them blocks the caller."""

    def refuse(self) -> None: ...
    def confirm(self) -> None: ...
    def hurry(self) -> None: ...
    def finish(self, place: int) -> None: ...
    def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class SoundSettings:
    """The ``[sound]`` section, checked when the configuration is read: the buzzer's GPIO (``None``: no buzzer),
    whether it is a passive piezo that plays tunes (``tonal``), whether announcements are spoken as well as
    written, and how many seconds until an unanswered prompt is said again (0: never)."""

    buzzer: int | None = None
    tonal: bool = False
    speech: bool = True
    repeat_prompt: int = 0

    @property
    def kind(self) -> str:
        """The name of the sound in :data:`KINDS` these settings ask for."""
        return "silent" if self.buzzer is None else "buzzer"


def _buzzer(settings: SoundSettings) -> Sound:
    """A buzzer on the GPIO; off a Pi, :class:`HardwareError` (and :func:`gpio_missing` says how to go on)."""
    if (missing := gpio_missing()) is not None:
        raise HardwareError(missing)
    assert settings.buzzer is not None
    return BuzzerSound(settings.buzzer, tonal=settings.tonal)


#: Each kind of sound by name: what opens it from the settings.
KINDS: dict[str, Callable[[SoundSettings], Sound]] = {"buzzer": _buzzer, "silent": lambda settings: SilentSound()}


def open_sound(settings: SoundSettings) -> Sound:
    """The sound ``settings`` ask for. A buzzer that cannot be opened raises
    :class:`~toprace_pi.hardware.HardwareError` (or gpiozero's ``ImportError`` where it is not installed)."""
    return KINDS[settings.kind](settings)
