"""Board profiles: which LED of the strip lies under which space of a track.

The rules engine speaks of spaces (``"b12"``), the strip of LED indexes; a
profile joins the two for one track, so the controller composes frames by space
with :meth:`Profile.frame_for`. Every board is wired a little differently (LEDs
skipped between spaces, two LEDs under a long curve space, a strip laid the other
way round), so a profile is calibrated per board with
:mod:`~toprace_pi.hardware.calibrate` and saved with :meth:`Profile.to_toml`.

File format (``toprace_pi/data/profiles/<track>.toml``)::

    [profile]
    track = "speed-street"        # the track's name in file name form (Track.name_slug)
    led_count = 191               # LEDs on the strip, 0 to led_count - 1
    calibrated = false            # false: a default layout, not yet checked on a board
    note = "..."
    placements = [179, 180, 181, 182, 183, 184]   # under the 1st to 6th placement spaces
    seats = [185, 186, 187, 188, 189, 190]        # optional: discard pile / turn light of seats 1 to 6

    [spaces]                      # every space of the track, each with at least one LED
    a1 = 0                        # space id = LED index,
    a2 = [1, 2]                   # or a list of LED indexes lit together

Every LED index lies on the strip and is used once at most (spaces, placements
and seats together); LEDs listed nowhere stay dark (such as LEDs between
spaces). Loading reports all problems of a file at once, naming the file and the
space.

The shipped profiles are DEFAULTS made by :func:`default_profile`, to be
calibrated on a real board: one LED per space, the strip snaking lane by lane
(lane a from the start to the finish, lane b back, lane c forward again, so
consecutive LEDs are neighbouring spaces and the turns sit at the ends of the
lanes), then the six placement spaces, then the six seat lights.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeGuard

from toprace_pi.data import DEFAULT_TRACK, load_track, profile_names, read_document, track_names
from toprace_pi.errors import DataError
from toprace_pi.hardware.strip import DARK, MAX_LEDS, RGB
from toprace_pi.render.palette import ordinal
from toprace_pi.rules.track import Track

log = logging.getLogger(__name__)
#: The profiles found missing beside their track files, each told once.
_TOLD_DEFAULT: set[Path] = set()

PLACES = 6
MAX_SEATS = 6
DEFAULT_NOTE = (
    "DEFAULT layout, not measured on a board: one LED per space, the strip snaking lane by lane "
    "(lane a start to finish, lane b back, lane c forward again), then the placement spaces 1st-6th, "
    "then the seat lights 1-6. Calibrate it to your board."
)


@dataclass(frozen=True)
class Profile:
    """Where the LEDs lie for one track. ``spaces`` maps every space id to its
    LEDs; ``placements[0]`` are the LEDs of the 1st placement space;
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
    ) -> list[RGB]:
        """A whole frame: ``spaces`` by space id, ``placements`` by place (1-6),
        ``seats`` by the game's seat number (0-5); all other LEDs dark. Seats
        without a light on this board are left out, since seat lights are optional."""
        frame = [DARK] * self.led_count
        for space_id, colour in (spaces or {}).items():
            if space_id not in self.spaces:
                raise ValueError(f"the {self.track} profile has no space {space_id!r}")
            self._paint(frame, self.spaces[space_id], colour)
        for place, colour in (placements or {}).items():
            if not 1 <= place <= PLACES:
                raise ValueError(f"place {place} is not from 1 to {PLACES}")
            self._paint(frame, self.placements[place - 1], colour)
        for seat, colour in (seats or {}).items():
            if not 0 <= seat < MAX_SEATS:
                raise ValueError(f"seat {seat} is not from 0 to {MAX_SEATS - 1}")
            if seat < len(self.seats):
                self._paint(frame, self.seats[seat], colour)
        return frame

    @staticmethod
    def _paint(frame: list[RGB], leds: tuple[int, ...], colour: RGB) -> None:
        for led in leds:
            frame[led] = colour

    def to_toml(self) -> str:
        """The profile as a file :func:`toprace_pi.data.load_profile` reads back
        unchanged; spaces are listed in the order of the strip."""
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
            f"placements = [{', '.join(_leds_toml(leds) for leds in self.placements)}]  # 1st to 6th",
            f"seats = [{', '.join(_leds_toml(leds) for leds in self.seats)}]  # seats 1 to {len(self.seats)}",
            "",
            "[spaces]",
        ]
        for space_id, leds in sorted(self.spaces.items(), key=lambda item: item[1]):
            lines.append(f"{_key_toml(space_id)} = {_leds_toml(leds)}")
        return "\n".join(lines) + "\n"

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str, track: Track) -> Profile:
        """Build a profile for ``track`` from parsed TOML, reporting every problem
        at once as a :class:`~toprace_pi.errors.DataError` naming ``source``."""
        return _ProfileBuilder(data, source, track).build()


def _leds_toml(leds: tuple[int, ...]) -> str:
    return str(leds[0]) if len(leds) == 1 else f"[{', '.join(map(str, leds))}]"


def _key_toml(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key)


def snake_order(track: Track) -> list[str]:
    """The space ids lane by lane, every other lane run backwards: the order of a
    strip laid along lane a, back along lane b, forward along lane c."""
    order: list[str] = []
    for lane in range(track.lanes):
        ids = [s.id for s in sorted((s for s in track.spaces if s.lane == lane), key=lambda s: s.front)]
        order += reversed(ids) if lane % 2 else ids
    return order


def default_profile(track: Track) -> Profile:
    """The layout assumed before calibration: one LED per space along
    :func:`snake_order`, then one per placement space, then one per seat."""
    order = snake_order(track)
    first_placement = len(order)
    first_seat = first_placement + PLACES
    return Profile(
        track=track.name_slug,
        led_count=first_seat + MAX_SEATS,
        spaces={space_id: (led,) for led, space_id in enumerate(order)},
        placements=tuple((first_placement + n,) for n in range(PLACES)),
        seats=tuple((first_seat + n,) for n in range(MAX_SEATS)),
        note=DEFAULT_NOTE,
    )


def load_profile(name_or_path: str | Path = DEFAULT_TRACK, track: Track | None = None) -> Profile:
    """A shipped LED profile by track name (``"lake-lane"``), a profile file by path, or the profile of a
    track file given by its path (a :attr:`Track.slug`): the profile beside it (:func:`profile_beside`), or
    the default layout with a warning until the board is calibrated, as for a shipped track.

    A profile file is checked against ``track``, or when that is not given against the shipped track it
    names (a profile for a track of your own needs that track).
    """
    source, data = read_document("profiles", name_or_path, profile_names())
    if "track" in data and "profile" not in data:
        return _profile_of_track_file(Path(name_or_path))
    if track is None:
        header = data.get("profile")
        slug = header.get("track") if isinstance(header, dict) else None
        if slug not in track_names():
            choices = ", ".join(track_names())
            raise DataError(source, [f"[profile]: 'track' {slug!r} is not a shipped track ({choices}): "
                                     "load it with its track file ([game] track in the config)"])
        track = load_track(slug)
    return Profile.from_dict(data, source, track)


def profile_beside(track_file: str | Path) -> Path:
    """Where the board profile of a track file lives: ``my-street.toml`` -> ``my-street.profile.toml``
    in the same folder, so the two travel together and no config needs to name the profile."""
    path = Path(track_file)
    return path.with_name(f"{path.stem}.profile.toml")


def _profile_of_track_file(track_file: Path) -> Profile:
    track = load_track(track_file)
    beside = profile_beside(track_file)
    if beside.is_file():
        return load_profile(beside, track)
    if beside not in _TOLD_DEFAULT:  # once a file: the demo and the table each load a profile twice
        _TOLD_DEFAULT.add(beside)
        log.warning("%s has no board profile beside it (%s): the default layout is used until "
                    "toprace-pi calibrate %s saves one", track_file, beside.name, track_file)
    return default_profile(track)


class _ProfileBuilder:
    """Schema checks for profile data; collects problems instead of stopping."""

    def __init__(self, data: Mapping[str, Any], source: str, track: Track) -> None:
        self.data = data
        self.source = source
        self.track = track
        self.problems: list[str] = []
        self.led_count: int | None = None
        self.owners: dict[int, str] = {}

    def fail(self, where: str, message: str) -> None:
        self.problems.append(f"{where}: {message}")

    def build(self) -> Profile:
        unknown = set(self.data) - {"profile", "spaces"}
        if unknown:
            self.fail("file", f"unknown table(s) {', '.join(sorted(unknown))}")
        header = self._header()
        spaces = self._spaces()
        placements = self._led_list(header.get("placements"), "placements", lambda n: f"placement {ordinal(n + 1)}")
        seats = self._led_list(header.get("seats", []), "seats", lambda n: f"seat {n + 1}")
        if len(placements) != PLACES and isinstance(header.get("placements"), list):
            self.fail("[profile]", f"'placements' lists {len(placements)} placement spaces, not {PLACES} (1st-6th)")
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
        unknown = set(header) - {"track", "led_count", "calibrated", "note", "placements", "seats"}
        if unknown:
            self.fail("[profile]", f"unknown key(s) {', '.join(sorted(unknown))}")
        if header.get("track") != self.track.name_slug:
            self.fail("[profile]", f"'track' is {header.get('track')!r}, but this is {self.track.name_slug!r}")
        count = header.get("led_count")
        if _is_index(count) and 0 < count <= MAX_LEDS:
            self.led_count = count
        else:
            self.fail("[profile]", f"'led_count' must be the number of LEDs on the strip (1-{MAX_LEDS}), not {count!r}")
        if not isinstance(header.get("calibrated", False), bool):
            self.fail("[profile]", "'calibrated' must be true or false")
        if not isinstance(header.get("note", ""), str):
            self.fail("[profile]", "'note' must be a string")
        if "placements" not in header:
            self.fail("[profile]", f"'placements' missing: the LEDs of the {PLACES} placement spaces")
        return dict(header)

    def _spaces(self) -> dict[str, tuple[int, ...]]:
        table = self.data.get("spaces")
        if not isinstance(table, Mapping):
            self.fail("[spaces]", "missing table")
            return {}
        spaces = {}
        for space_id, value in table.items():
            if space_id not in self.track or space_id == "finish":
                self.fail(f"space {space_id}", f"{self.track.name} has no such space")
                continue
            leds = self._leds(value, f"space {space_id}")
            if leds:
                spaces[space_id] = leds
        for space in self.track.spaces:
            if space.id not in table:
                self.fail(f"space {space.id}", "has no LED")
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
