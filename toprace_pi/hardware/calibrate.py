"""Calibrating a board profile: light one LED after another and say what lies above it.

Any game's board is walked alike, given as a :class:`~toprace_pi.hardware.profile.BoardLayout`.

The walk is pure (no strip, no terminal): :class:`Calibration` holds the LED lit
now (:attr:`~Calibration.frame`), the question for the person at the board
(:attr:`~Calibration.prompt`) and takes button presses (:meth:`~Calibration.press`):

``ok``
    the lit LED lies under the cell asked about: it is that cell's LED; the next
    LED is lit and the next cell asked about.
``next``
    the lit LED lies under no cell (a strip at a fixed pitch has LEDs between
    cells): skip it, same question.
``undo``
    take back the last press, for the slip of a finger 200 LEDs into the walk.

Cells are asked about in the order of an expected profile (the default layout,
or the board's previous profile when recalibrating), since the walk only moves
forward along the strip; then the placement spaces, then the seat lights.
Seat lights are optional: running out of LEDs after the placements ends the walk.
A cell under two LEDs is not handled by the walk: add the second LED to the
saved file by hand. :func:`calibrate` runs the walk on a strip with a stream of
button names, for the ``toprace-pi calibrate TRACK`` command.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from toprace_pi.core.colour import WHITE
from toprace_pi.errors import DataError
from toprace_pi.hardware.events import BUTTONS
from toprace_pi.hardware.profile import MAX_SEATS, BoardLayout, Profile, default_profile
from toprace_pi.hardware.strip import LedStrip
from toprace_pi.hardware.strip.frame import DARK, RGB
from toprace_pi.text import ordinal

OK, NEXT, UNDO = "ok", "next", "undo"
CHOICES = "ok = yes, next = no space here, undo = back"


@dataclass(frozen=True, slots=True)
class Target:
    """What an LED is being sought for: a cell (kind ``"space"``, ``key`` its id), a placement
    space (``key`` from 1) or a seat light (``key`` the game's seat number, from 0)."""

    kind: str
    key: str | int
    label: str


@dataclass(frozen=True)
class ProfileTarget:
    """What ``toprace-pi calibrate`` walks: a game's board, the profile expected on it (the default, or the
    board's last), where the new profile is saved, and whether the table finds it there by itself."""

    board: BoardLayout
    expected: Profile
    out: Path
    found_there: bool = False


class Calibration:
    """One walk along a strip of ``led_count`` LEDs for ``board``."""

    def __init__(
        self, board: BoardLayout, led_count: int, *, expected: Profile | None = None, seats: int = MAX_SEATS
    ) -> None:
        if not 0 <= seats <= MAX_SEATS:
            raise ValueError(f"seats must be from 0 to {MAX_SEATS}, not {seats}")
        self.board = board
        self.led_count = led_count
        self.targets = _cell_targets(board, expected or default_profile(board)) + _other_targets(board.places, seats)
        self.required = len(board.cells) + board.places
        self.led = 0
        self.assigned: list[int] = []
        self._history: list[tuple[str, int]] = []

    @property
    def target(self) -> Target | None:
        """What the lit LED is asked about; ``None`` once done or out of LEDs."""
        if self.done or self.led >= self.led_count:
            return None
        return self.targets[len(self.assigned)]

    @property
    def done(self) -> bool:
        """Every cell and placement space has its LED, and the seat lights too
        unless the strip ended before them."""
        n = len(self.assigned)
        return n == len(self.targets) or (n >= self.required and self.led >= self.led_count)

    @property
    def frame(self) -> list[RGB]:
        """What the strip shows: only the LED being asked about."""
        frame = [DARK] * self.led_count
        if self.target is not None:
            frame[self.led] = WHITE
        return frame

    @property
    def prompt(self) -> str:
        target = self.target
        if target is not None:
            return f"LED {self.led} of {self.led_count} is lit. Is it under {target.label}? ({CHOICES})"
        if self.done:
            return f"Done: {len(self.assigned)} LEDs assigned for {self.board.name}."
        missing = self.targets[len(self.assigned)].label
        return f"No LEDs left, but {missing} has none yet: undo to go back, or check the LED count ({self.led_count})."

    def press(self, button: str) -> None:
        """Act on a button of the table (see :data:`~toprace_pi.hardware.events.BUTTONS`);
        ``pass`` means nothing here, and ``ok``/``next`` nothing once the walk ended."""
        if button not in BUTTONS:
            raise ValueError(f"unknown button {button!r} (one of {', '.join(BUTTONS)})")
        if button == UNDO:
            self._undo()
        elif button in (OK, NEXT) and self.target is not None:
            self._history.append((button, self.led))
            if button == OK:
                self.assigned.append(self.led)
            self.led += 1

    @property
    def presses(self) -> tuple[str, ...]:
        """The presses that brought the walk here, those taken back left out: pressed on a new walk of the
        same board and strip, they bring it here again (so an interrupted walk goes on where it stopped)."""
        return tuple(button for button, _ in self._history)

    def _undo(self) -> None:
        if self._history:
            button, self.led = self._history.pop()
            if button == OK:
                self.assigned.pop()

    def profile(self) -> Profile:
        """The calibrated profile, once :attr:`done`."""
        if not self.done:
            raise DataError(f"calibration of {self.board.name}", [f"not finished: {self.prompt}"])
        found: dict[str, dict[str | int, tuple[int, ...]]] = {"space": {}, "placement": {}, "seat": {}}
        for target, led in zip(self.targets, self.assigned):
            found[target.kind][target.key] = (led,)
        return Profile(
            track=self.board.slug,
            led_count=self.led_count,
            spaces={str(key): leds for key, leds in found["space"].items()},
            placements=tuple(found["placement"].values()),
            seats=tuple(found["seat"].values()),
            calibrated=True,
            note=f"Calibrated on a board: {self.led_count} LEDs, {len(found['seat'])} seat lights.",
        )


def _cell_targets(board: BoardLayout, expected: Profile) -> list[Target]:
    """The board's cells in the order their LEDs come along the expected strip."""
    order = sorted(board.cells, key=lambda cell: min(expected.spaces.get(cell, (expected.led_count,))))
    return [Target("space", cell, f"{board.label(cell)}, {n} of {len(order)}") for n, cell in enumerate(order, 1)]


def _other_targets(places: int, seats: int) -> list[Target]:
    placements = [Target("placement", n, f"the {ordinal(n)} placement space") for n in range(1, places + 1)]
    lights = [Target("seat", n, f"the light of seat {n + 1} (discard pile / turn)") for n in range(seats)]
    return placements + lights


def calibrate(
    board: BoardLayout,
    strip: LedStrip,
    buttons: Iterable[str],
    *,
    say: Callable[[str], None] = print,
    expected: Profile | None = None,
    seats: int = MAX_SEATS,
    resume: Sequence[str] = (),
    pressed: Callable[[Calibration], None] = lambda walk: None,
) -> Profile:
    """Walk ``strip`` for ``board`` with the presses in ``buttons`` (``"ok"``,
    ``"next"``, ``"undo"``), showing each LED and saying each question, and return
    the profile (save it with :meth:`Profile.to_toml`). The presses of an earlier walk
    cut short (its :attr:`Calibration.presses`) are taken first, without a word, from
    ``resume``; ``pressed`` is told the walk after every press (to keep it). Raises
    :class:`~toprace_pi.errors.DataError` if the presses end before the walk does."""
    walk = Calibration(board, strip.count, expected=expected, seats=seats)
    for earlier in resume:
        walk.press(earlier)
    strip.show(walk.frame)
    say(walk.prompt)
    presses = iter(buttons)
    while not walk.done and (button := next(presses, None)) is not None:
        walk.press(button)
        pressed(walk)
        strip.show(walk.frame)
        say(walk.prompt)
    return walk.profile()
