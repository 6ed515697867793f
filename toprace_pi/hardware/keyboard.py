"""The keyboard as one more input device of the table: keys stand in for the
buttons and for tags laid on the readers.

=========================  ==============================================
key                        stands for
=========================  ==============================================
``n`` ``o`` ``p``          a press of NEXT, OK, PASS
``u`` / ``U``              a short press of UNDO / a long one (it undoes)
a number and Enter         the game's numbered tag (Top Race: a speed card)
a letter                   the game's lettered tag (Top Race: a car token;
                           upper case always, lower case unless the letter
                           is a button's: ``P`` is Purple)
a letter, a number, Enter  the numbered tag of that letter's set (AUTORACE:
                           ``R7`` Enter is Red's 7, the letter's case as above)
``s`` (and a seat number)  a seat's own tag (Top Race: a pit stop card)
=========================  ==============================================

What a key stands for is made into the same events a reader or button makes,
with the record a tag of ours carries, so the controller cannot tell a key from
a tag and whatever works at the keyboard works at the table. The game says in a
:class:`KeyMap` which tags its numbers, letters and seats are.
"""

from __future__ import annotations

import os
import select
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any, Protocol

from toprace_pi.hardware import Device
from toprace_pi.hardware.events import ButtonPressed, DeviceStatus, Event, TagLaid
from toprace_pi.hardware.profile import MAX_SEATS
from toprace_pi.hardware.tags import RECORD_PREFIX

#: The keys of the buttons; upper case U is the long press of UNDO.
BUTTON_KEYS = {"n": "next", "o": "ok", "p": "pass", "u": "undo"}
HELD_UNDO = "U"
PIT_KEY = "s"
ENTER_KEYS = ("\r", "\n")
ERASE_KEYS = ("\x7f", "\b")
ESCAPE = "\x1b"
#: The UID of every "tag" the keyboard lays: not a real NTAG UID (those start with a maker code and are 7 bytes).
KEY_UID = b"\x00keys"
DEVICE = "keyboard"
#: Where a tag goes and what it is: (reader, key in the game's vocabulary), e.g. ("discard", "card 17").
Laid = tuple[str, str]


class KeySource(Protocol):
    """Where keys come from: a terminal, or a test's list."""

    def read(self) -> list[str]: ...
    def close(self) -> None: ...


@dataclass(frozen=True)
class KeyMap:
    """What the keys lay, in a game's words: ``number(n)`` for a number and Enter,
    ``letters`` for single letters (upper case), ``seat(n)`` for ``s`` and seat ``n``
    (from 1), ``sets[letter](n)`` for a letter of a set, a number and Enter, if the game
    has such tags; ``help`` says all the keys in one line."""

    number: Callable[[int], Laid] | None
    letters: Mapping[str, Laid]
    seat: Callable[[int], Laid] | None
    help: str
    #: Upper-case letters each starting a number: the game's numbered tags of several sets (one a seat).
    sets: Mapping[str, Callable[[int], Laid]] = field(default_factory=dict)


class Keyboard(Device):
    """Turns keys from ``keys`` into table events. ``pit_seat`` is the seat whose pit
    stop card ``s`` lays at once; without one, ``s`` waits for a seat number (1-6)."""

    name = DEVICE

    def __init__(self, keys: KeySource, key_map: KeyMap, *, pit_seat: int | None = None) -> None:
        self.keys = keys
        self.key_map = key_map
        self.pit_seat = pit_seat
        self.typed = ""  # digits of a number, a set's letter and its digits, or "s" waiting for a seat number

    def poll(self) -> list[Event]:
        return [event for key in self.keys.read() for event in self.press(key)]

    def press(self, key: str) -> list[Event]:
        """The events one key stands for (none while a number is being typed)."""
        if self.typed.startswith(PIT_KEY):
            return self._pit_seat_typed(key)
        if key.isdigit():
            self.typed += key
            return []
        if key in ENTER_KEYS:
            return self._number_entered()
        if key in ERASE_KEYS or key == ESCAPE:
            self.typed = self.typed[:-1] if key != ESCAPE else ""
            return []
        self.typed = ""
        return self._letter(key)

    def _letter(self, key: str) -> list[Event]:
        if key == HELD_UNDO:
            return [ButtonPressed("undo", held=True)]
        if key in BUTTON_KEYS:
            return [ButtonPressed(BUTTON_KEYS[key])]
        seat = self.key_map.seat
        if key == PIT_KEY and seat is not None:
            if self.pit_seat is not None:
                return [_laid(seat(self.pit_seat + 1))]
            self.typed = PIT_KEY
            return []
        letter = key.upper() if key.isalpha() else ""
        if letter in self.key_map.sets:
            self.typed = letter  # its number follows
            return []
        laid = self.key_map.letters.get(letter)
        if laid is not None:
            return [_laid(laid)]
        return [DeviceStatus(DEVICE, True, f"the key {key!r} means nothing; {self.key_map.help}")]

    def _number_entered(self) -> list[Event]:
        typed, self.typed = self.typed, ""
        letter, digits = (typed[0], typed[1:]) if typed[:1].isalpha() else ("", typed)
        if not digits:
            return []
        laid = self.key_map.sets[letter] if letter else self.key_map.number
        if laid is None:
            return [DeviceStatus(DEVICE, True, f"a number alone means nothing; {self.key_map.help}")]
        return [_laid(laid(int(digits)))]

    def _pit_seat_typed(self, key: str) -> list[Event]:
        self.typed = ""
        seat = self.key_map.seat
        if seat is not None and key.isdigit() and 1 <= int(key) <= MAX_SEATS:
            return [_laid(seat(int(key)))]
        return [DeviceStatus(DEVICE, True, f"s is followed by a seat number (1-{MAX_SEATS})")]

    def close(self) -> None:
        self.keys.close()


def _laid(laid: Laid) -> TagLaid:
    reader, key = laid
    return TagLaid(reader, KEY_UID, f"{RECORD_PREFIX} {key}")


def _stdin() -> int:
    """Standard input's file descriptor; -1 when it has none (closed, or replaced by a test runner)."""
    try:
        return sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is both of the last two
        return -1


def on_a_terminal(fd: int | None = None) -> bool:
    """Whether ``fd`` (standard input by default) is a terminal that keys can be read from."""
    fd = _stdin() if fd is None else fd
    return fd >= 0 and os.isatty(fd)


class TerminalKeys:
    """Keys from a terminal, one at a time and without waiting for Enter (cbreak
    mode), read without blocking; the terminal is set back as it was on close.
    Not a terminal (a pipe, a file): nothing is read, so a piped demo plays on."""

    def __init__(self, fd: int | None = None) -> None:
        self.fd = _stdin() if fd is None else fd
        self._saved: list[Any] | None = None
        if on_a_terminal(self.fd):
            import termios
            import tty

            self._saved = termios.tcgetattr(self.fd)
            tty.setcbreak(self.fd)

    @property
    def is_terminal(self) -> bool:
        return self._saved is not None

    def read(self) -> list[str]:
        return list(self._available()) if self.is_terminal else []

    def _available(self) -> Iterator[str]:
        while select.select([self.fd], [], [], 0)[0]:
            data = os.read(self.fd, 64)
            if not data:
                return
            yield from data.decode("utf-8", "replace")

    def close(self) -> None:
        if self._saved is not None:
            import termios

            with suppress(OSError):  # the terminal went away first
                termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)
            self._saved = None
