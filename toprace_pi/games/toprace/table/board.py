"""Top Race's board under the LEDs: a track as a :class:`~toprace_pi.hardware.profile.BoardLayout`, and
where its profile is found.

The cells are the track's spaces by id (``"a12"``; the finish line is no cell), and the
default strip snakes lane by lane (lane a from the start to the finish, lane b back, lane c
forward again, so consecutive LEDs are neighbouring spaces and the turns sit at the ends of
the lanes); six placement spaces lie beside the track. The shipped profiles
(``toprace_pi/games/toprace/data/profiles``) are these defaults, one per shipped track; a track file of
one's own keeps its profile beside it.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from toprace_pi.errors import DataError
from toprace_pi.games.toprace.data import DEFAULT_TRACK, load_track, profile_names, read_document, track_names
from toprace_pi.games.toprace.rules.track import Track
from toprace_pi.hardware.profile import Profile, default_profile, profile_beside
from toprace_pi.table import boards

if TYPE_CHECKING:
    from toprace_pi.hardware.calibrate import ProfileTarget

__all__ = ["TrackBoard", "calibration_target", "load_profile", "profile_beside", "snake_order"]

log = logging.getLogger(__name__)
#: The profiles found missing beside their track files, each told once.
_TOLD_DEFAULT: set[Path] = set()

#: The placement spaces beside the track, 1st to 6th.
PLACES = 6
DEFAULT_NOTE = (
    "DEFAULT layout, not measured on a board: one LED per space, the strip snaking lane by lane "
    "(lane a start to finish, lane b back, lane c forward again), then the placement spaces 1st-6th, "
    "then the seat lights 1-6. Calibrate it to your board."
)


def snake_order(track: Track) -> list[str]:
    """The space ids lane by lane, every other lane run backwards: the order of a
    strip laid along lane a, back along lane b, forward along lane c."""
    order: list[str] = []
    for lane in range(track.lanes):
        ids = [s.id for s in sorted((s for s in track.spaces if s.lane == lane), key=lambda s: s.front)]
        order += reversed(ids) if lane % 2 else ids
    return order


class TrackBoard:
    """A track as the strip sees it (a :class:`~toprace_pi.hardware.profile.BoardLayout`)."""

    places = PLACES
    note = DEFAULT_NOTE

    def __init__(self, track: Track) -> None:
        self.track = track
        self.cells = snake_order(track)
        self._lanes = {space.id: space.lane for space in track.spaces}

    def __repr__(self) -> str:
        return f"<TrackBoard {self.slug}>"

    @property
    def slug(self) -> str:
        return self.track.name_slug

    @property
    def name(self) -> str:
        return self.track.name

    def label(self, cell: str) -> str:
        return f"space {cell} (lane {chr(ord('a') + self._lanes[cell])})"


def load_profile(name_or_path: str | Path = DEFAULT_TRACK, track: Track | None = None) -> Profile:
    """A shipped LED profile by track name (``"lake-lane"``), a profile file by path, or the profile of a
    track file given by its path (a :attr:`Track.slug`): the profile beside it (:func:`profile_beside`), or
    the default layout with a warning until the board is calibrated, as for a shipped track.

    A profile file is checked against ``track``, or when that is not given against the shipped track it
    names (a profile for a track of your own needs that track).
    """
    source, data = read_document("profiles", name_or_path, profile_names())
    if "track" in data and "profile" not in data:
        return _profile_of_track_file(Path(name_or_path), track)
    if track is None:
        header = data.get("profile")
        slug = header.get("track") if isinstance(header, dict) else None
        if slug not in track_names():
            choices = ", ".join(track_names())
            raise DataError(source, [f"[profile]: 'track' {slug!r} is not a shipped track ({choices}): "
                                     "load it with its track file ([game] track in the config)"])
        track = load_track(slug)
    return Profile.from_dict(data, source, TrackBoard(track))


def _profile_of_track_file(track_file: Path, track: Track | None) -> Profile:
    """The profile of the track file (``track``, when the caller has it read already)."""
    track = track or load_track(track_file)
    beside = profile_beside(track_file)
    if beside.is_file():
        return load_profile(beside, track)
    if beside not in _TOLD_DEFAULT:  # once a file: the demo and the table each load a profile twice
        _TOLD_DEFAULT.add(beside)
        log.warning("%s has no board profile beside it (%s): the default layout is used until "
                    "toprace-pi calibrate %s saves one", track_file, beside.name, track_file)
    return default_profile(TrackBoard(track))


def calibration_target(track_name: str, out: Path | None = None) -> ProfileTarget:
    """What ``toprace-pi calibrate TRACK`` walks, expecting the track's profile (a shipped track by name,
    or a track file)."""
    track = load_track(track_name)
    return boards.calibration_target(TrackBoard(track), load_profile(track.slug, track), track.slug,
                                     shipped=track_name in track_names(), out=out)
