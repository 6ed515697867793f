"""AUTORACE's board under the LEDs: the spaces 0 to 72 as a :class:`~toprace_pi.hardware.profile.BoardLayout`,
and where its profile is found.

The cells are the spaces by number (``"0"`` to ``"72"``); the default strip runs along the track
from the start, one LED a space: 73 LEDs, no placement spaces (the game places no cars) and no
seat lights. The shipped profile (``toprace_pi/games/autorace/data/profiles/standard.toml``) is
that default; a board file of one's own keeps its profile beside it (``my-board.profile.toml``).
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING

from toprace_pi.datafiles import shipped_names
from toprace_pi.games.autorace.data import load_board
from toprace_pi.games.autorace.rules import Board
from toprace_pi.hardware.profile import Profile, find_profile, profile_beside

if TYPE_CHECKING:
    from toprace_pi.hardware.calibrate import ProfileTarget

DEFAULT_NOTE = ("DEFAULT layout, not measured on a board: one LED per space, the strip running along the "
                "track from space 0 to the last; no placement spaces, no seat lights. Calibrate it to your board.")


class TrackLayout:
    """The track as the strip sees it (a :class:`~toprace_pi.hardware.profile.BoardLayout`); ``slug`` is
    the board's name (``"standard"``), or its file's name for a board file of one's own."""

    places = 0
    note = DEFAULT_NOTE

    def __init__(self, board: Board, slug: str) -> None:
        self.board = board
        self.slug = slug
        self.name = board.name
        self.cells = [str(space) for space in range(board.finish + 1)]

    def __repr__(self) -> str:
        return f"<TrackLayout {self.slug}>"

    def label(self, cell: str) -> str:
        space = int(cell)
        kind = ("objective" if space in self.board.bonuses else "filling station" if space in self.board.stations
                else "")
        return f"space {cell}" + (f" ({kind})" if kind else "")


def profile_names() -> list[str]:
    return shipped_names(_folder())


def board_slug(board_name: str) -> str:
    """A shipped board's name, or a board file's name without its folder and ending."""
    return board_name if board_name in profile_names() else Path(board_name).stem


def load_profile(board_name: str, board: Board, profile: str | Path | None = None) -> Profile:
    """The LED profile of ``board`` (loaded as ``board_name``, a shipped board's name or a board file's
    path): the ``profile`` file given (``[files] profile``), else the shipped one, else the one beside
    the board file, else the default layout. A profile is checked against the board."""
    return find_profile(_folder(), TrackLayout(board, board_slug(board_name)), board_name, profile)


def calibration_target(board_name: str, out: Path | None = None) -> ProfileTarget:
    """What ``toprace-pi calibrate`` walks for an AUTORACE board (a shipped one by name, or a board file):
    saved by default beside a board file (where the table finds it by itself), or as ``NAME.toml`` here."""
    from toprace_pi.hardware.calibrate import ProfileTarget  # lazily: for calibrate, not the table's start-up

    board = load_board(board_name)
    beside = profile_beside(board_name) if board_name not in profile_names() else None
    out = out or beside or Path(f"{board_name}.toml")
    found_there = beside is not None and out.resolve() == beside.resolve()
    return ProfileTarget(TrackLayout(board, board_slug(board_name)), load_profile(board_name, board), out, found_there)


def _folder() -> Traversable:
    return resources.files("toprace_pi.games.autorace.data").joinpath("profiles")
