"""Board profiles: which LED of the strip lies under which cell of a game's board.

A game speaks of the cells of its board (Top Race: the track's spaces, ``"b12"``), the
strip of LED indexes; a profile joins the two for one board, so the controller composes
frames by cell with :meth:`Profile.frame_for`. Every board is wired a little differently
(LEDs skipped between cells, two LEDs under a long curve space, a strip laid the other
way round), so a profile is calibrated per board with :mod:`~toprace_pi.hardware.calibrate`
and saved with :meth:`Profile.to_toml`. This module knows no game: the board comes as a
:class:`BoardLayout`, the game's side of it (Top Race's is
:mod:`toprace_pi.games.toprace.table.board`, which also finds the shipped profiles).

File format (``toprace_pi/games/toprace/data/profiles/<track>.toml``)::

    [profile]
    track = "speed-street"        # the board's name in file name form (BoardLayout.slug)
    led_count = 191               # LEDs on the strip, 0 to led_count - 1
    calibrated = false            # false: a default layout, not yet checked on a board
    note = "..."
    placements = [179, 180, 181, 182, 183, 184]   # under the 1st to 6th placement spaces
    seats = [185, 186, 187, 188, 189, 190]        # optional: discard pile / turn light of seats 1 to 6

    [spaces]                      # every cell of the board, each with at least one LED
    a1 = 0                        # cell id = LED index,
    a2 = [1, 2]                   # or a list of LED indexes lit together

Every LED index lies on the strip and is used once at most (cells, placements
and seats together); LEDs listed nowhere stay dark (such as LEDs between
cells). Loading reports all problems of a file at once, naming the file and the
cell.

:func:`default_profile` makes the layout assumed before calibration: one LED per
cell in the order of :attr:`BoardLayout.cells` (laid so that consecutive LEDs are
neighbouring cells), then the placement spaces, then the seat lights.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Protocol, TypeGuard

from toprace_pi.datafiles import read_toml, shipped_names
from toprace_pi.errors import DataError
from toprace_pi.hardware.strip import LED_COUNT
from toprace_pi.hardware.strip.frame import RGB, CheckedFrame, compose
from toprace_pi.schema import shown, unknown_keys
from toprace_pi.text import ordinal

#: Seats around the table, each with an optional light.
MAX_SEATS = 6
#: The keys of a profile's ``[profile]``.
PROFILE_KEYS = ("track", "led_count", "calibrated", "note", "placements", "seats")


class BoardLayout(Protocol):
    """A game's board as the strip sees it: what a profile is made for and checked against."""

    @property
    def slug(self) -> str:
        """The board's name in file name form, written as the profile's ``track``."""

    @property
    def name(self) -> str:
        """The board's name for messages."""

    @property
    def cells(self) -> Sequence[str]:
        """Every cell id, in the order a strip laid by default runs under them."""

    @property
    def places(self) -> int:
        """How many placement spaces lie beside the board (lit 1st, 2nd, ...)."""

    @property
    def note(self) -> str:
        """What the default layout assumes, for its profile's note."""

    def label(self, cell: str) -> str:
        """``cell`` as the calibration asks about it ("space a1 (lane a)")."""


@dataclass(frozen=True)
class Profile:
    """Where the LEDs lie for one board (``track``: its :attr:`BoardLayout.slug`). ``spaces`` maps every
    cell id to its LEDs; ``placements[0]`` are the LEDs of the 1st placement space;
    ``seats[n]`` those of seat ``n`` (the game's seat numbers, from 0)."""

    track: str
    led_count: int
    spaces: dict[str, tuple[int, ...]]
    placements: tuple[tuple[int, ...], ...]
    seats: tuple[tuple[int, ...], ...] = ()
    calibrated: bool = False
    note: str = ""

    def frame_for(
        self,
        spaces: Mapping[str, RGB] | None = None,
        placements: Mapping[int, RGB] | None = None,
        seats: Mapping[int, RGB] | None = None,
    ) -> CheckedFrame:
        """A whole frame: ``spaces`` by cell id, ``placements`` by place (from 1),
        ``seats`` by the game's seat number (0-5); all other LEDs dark. Seats
        without a light on this board are left out, since seat lights are optional.
        The frame is checked as it is composed, so the strip takes it as it is."""
        spaces, placements, seats = spaces or {}, placements or {}, seats or {}
        if not spaces.keys() <= self.spaces.keys():
            unknown = next(space_id for space_id in spaces if space_id not in self.spaces)
            raise ValueError(f"the {self.track} profile has no space {unknown!r}")
        for place in placements:
            if not 1 <= place <= len(self.placements):
                raise ValueError(f"place {place} is not from 1 to {len(self.placements)}")
        for seat in seats:
            if not 0 <= seat < MAX_SEATS:
                raise ValueError(f"seat {seat} is not from 0 to {MAX_SEATS - 1}")
        lit = {led: colour for space_id, colour in spaces.items() for led in self.spaces[space_id]}
        lit.update({led: colour for place, colour in placements.items() for led in self.placements[place - 1]})
        lit.update({led: colour for seat, colour in seats.items() if seat < len(self.seats)
                    for led in self.seats[seat]})
        return compose(self.led_count, lit)

    def to_toml(self) -> str:
        """The profile as a file :meth:`from_dict` reads back unchanged; cells are listed in the order
        of the strip."""
        lines = [f"# LED profile for the track {self.track}: which LED of the strip lies under which space."]
        if not self.calibrated:
            lines.append("# A DEFAULT layout, not calibrated: run the calibration on your board and save its result.")
        lines += [
            "# Format: see toprace_pi/hardware/profile.py. An entry is an LED index or a list of LED indexes.",
            "",
            "[profile]",
            f"track = {json.dumps(self.track)}",
            f"led_count = {self.led_count}",
            f"calibrated = {str(self.calibrated).lower()}",
            f"note = {json.dumps(self.note)}",
            f"placements = [{', '.join(_leds_toml(leds) for leds in self.placements)}]  # "
            + (f"1st to {ordinal(len(self.placements))}" if self.placements else "none beside this board"),
            f"seats = [{', '.join(_leds_toml(leds) for leds in self.seats)}]  # "
            + (f"seats 1 to {len(self.seats)}" if self.seats else "no seat lights"),
            "",
            "[spaces]",
        ]
        for space_id, leds in sorted(self.spaces.items(), key=lambda item: item[1]):
            lines.append(f"{_key_toml(space_id)} = {_leds_toml(leds)}")
        return "\n".join(lines) + "\n"

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str, board: BoardLayout) -> Profile:
        """Build a profile for ``board`` from parsed TOML, reporting every problem
        at once as a :class:`~toprace_pi.errors.DataError` naming ``source``."""
        return _ProfileBuilder(data, source, board).build()


def profile_beside(board_file: str | Path) -> Path:
    """Where the profile of a board file of one's own lives: ``my-street.toml`` -> ``my-street.profile.toml``
    in the same folder, so the two travel together and no config needs to name the profile."""
    path = Path(board_file)
    return path.with_name(f"{path.stem}.profile.toml")


def _leds_toml(leds: tuple[int, ...]) -> str:
    return str(leds[0]) if len(leds) == 1 else f"[{', '.join(map(str, leds))}]"


def _key_toml(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key)


def default_profile(board: BoardLayout, *, seats: int = MAX_SEATS) -> Profile:
    """The layout assumed before calibration: one LED per cell in the order of
    :attr:`BoardLayout.cells`, then one per placement space, then one per seat light
    (``seats`` of them: a board may have none)."""
    first_placement = len(board.cells)
    first_seat = first_placement + board.places
    return Profile(
        track=board.slug,
        led_count=first_seat + seats,
        spaces={cell: (led,) for led, cell in enumerate(board.cells)},
        placements=tuple((first_placement + n,) for n in range(board.places)),
        seats=tuple((first_seat + n,) for n in range(seats)),
        note=board.note,
    )


class _ProfileBuilder:
    """Schema checks for profile data; collects problems instead of stopping."""

    def __init__(self, data: Mapping[str, Any], source: str, board: BoardLayout) -> None:
        self.data = data
        self.source = source
        self.board = board
        self.problems: list[str] = []
        self.led_count: int | None = None
        self.owners: dict[int, str] = {}

    def fail(self, where: str, message: str) -> None:
        self.problems.append(f"{where}: {message}")

    def build(self) -> Profile:
        unknown_keys(self.data, ("profile", "spaces"), "the file:", self.problems, what="table")
        header = self._header()
        spaces = self._spaces()
        placements = self._led_list(header.get("placements"), "placements", lambda n: f"placement {ordinal(n + 1)}")
        seats = self._led_list(header.get("seats", []), "seats", lambda n: f"seat {n + 1}")
        places = self.board.places
        if len(placements) != places and isinstance(header.get("placements"), list):
            self.fail("[profile]", f"'placements' lists {len(placements)} placement spaces, not {places} "
                                   f"(1st-{ordinal(places)})")
        if len(seats) > MAX_SEATS:
            self.fail("[profile]", f"'seats' lists {len(seats)} seats, at most {MAX_SEATS}")
        if self.problems:
            raise DataError(self.source, self.problems)
        return Profile(
            track=header["track"], led_count=header["led_count"], spaces=spaces, placements=tuple(placements),
            seats=tuple(seats), calibrated=header.get("calibrated", False), note=header.get("note", ""),
        )

    def _header(self) -> dict[str, Any]:
        header = self.data.get("profile")
        if not isinstance(header, Mapping):
            self.fail("[profile]", "missing table")
            return {}
        unknown_keys(header, PROFILE_KEYS, "[profile]", self.problems)
        if header.get("track") != self.board.slug:
            self.fail("[profile]", f"'track' is {shown(header.get('track'))}, but this is {self.board.slug!r}")
        count = header.get("led_count")
        if count in LED_COUNT:
            self.led_count = count
        else:
            self.fail("[profile]", f"'led_count' must be {LED_COUNT} (on the strip), not {shown(count)}")
        if not isinstance(header.get("calibrated", False), bool):
            self.fail("[profile]", "'calibrated' must be true or false")
        if not isinstance(header.get("note", ""), str):
            self.fail("[profile]", "'note' must be a string")
        if "placements" not in header:
            self.fail("[profile]", f"'placements' missing: the LEDs of the {self.board.places} placement spaces")
        return dict(header)

    def _spaces(self) -> dict[str, tuple[int, ...]]:
        table = self.data.get("spaces")
        if not isinstance(table, Mapping):
            self.fail("[spaces]", "missing table")
            return {}
        cells = set(self.board.cells)
        spaces = {}
        for cell, value in table.items():
            if cell not in cells:
                self.fail(f"space {cell}", f"{self.board.name} has no such space")
                continue
            leds = self._leds(value, f"space {cell}")
            if leds:
                spaces[cell] = leds
        for cell in self.board.cells:
            if cell not in table:
                self.fail(f"space {cell}", "has no LED")
        return spaces

    def _led_list(self, value: object, key: str, name: Callable[[int], str]) -> list[tuple[int, ...]]:
        if value is None:
            return []
        if not isinstance(value, list):
            self.fail("[profile]", f"{key!r} must be a list of LED indexes (or lists of them)")
            return []
        return [self._leds(entry, name(n)) for n, entry in enumerate(value)]

    def _leds(self, value: object, owner: str) -> tuple[int, ...]:
        """The LEDs of one entry, checking each lies on the strip and is not taken."""
        entries = value if isinstance(value, list) else [value]
        leds = [led for led in entries if _is_index(led)]
        if not leds or len(leds) != len(entries):
            self.fail(owner, f"{value!r} is not an LED index (from 0) or a non-empty list of them")
            return ()
        for led in leds:
            if self.led_count is not None and led >= self.led_count:
                self.fail(owner, f"LED {led} lies outside the strip (LEDs 0-{self.led_count - 1})")
            elif led in self.owners:
                self.fail(owner, f"LED {led} is already used by {self.owners[led]}")
            else:
                self.owners[led] = owner
        return tuple(leds)


def _is_index(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def find_profile(folder: Traversable, layout: BoardLayout, board_name: str, profile: str | Path | None = None,
                 *, seats: int = 0) -> Profile:
    """The profile of the board ``layout`` loaded as ``board_name`` (a shipped board's name, or its file's
    path): the ``profile`` file given (``[files] profile``), else the one shipped in ``folder``, else the
    one beside the board's file, else the default layout. Any game's boards are found the same way."""
    shipped = shipped_names(folder)
    if profile is None and board_name not in shipped:
        beside = profile_beside(board_name)
        if not beside.is_file():
            return default_profile(layout, seats=seats)
        profile = beside
    source, data = read_toml(folder, profile or board_name, shipped)
    return Profile.from_dict(data, source, layout)
