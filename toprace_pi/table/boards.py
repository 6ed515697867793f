"""A game's boards under the LEDs, the same way for every game: where a board's profile is found (shipped
with the game, or beside a board file of one's own) and where ``toprace-pi calibrate`` saves a new one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeVar

from toprace_pi.datafiles import shipped_names
from toprace_pi.hardware.profile import BoardLayout, Profile, find_profile, profile_beside

if TYPE_CHECKING:
    from toprace_pi.hardware.calibrate import ProfileTarget

#: A game's board (a track, a circuit), as its rules read it.
B = TypeVar("B")


@dataclass(frozen=True)
class BoardProfiles(Generic[B]):
    """The boards of a game whose shipped profiles lie in ``package``'s ``profiles`` folder: ``load`` reads
    a board by name or path, ``layout`` makes the strip's view of it (a board and its slug)."""

    package: str
    load: Callable[[str], B]
    layout: Callable[[B, str], BoardLayout]

    def names(self) -> list[str]:
        """The boards with a shipped profile."""
        return shipped_names(resources.files(self.package).joinpath("profiles"))

    def slug(self, name: str) -> str:
        """A shipped board's name, or a board file's name without its folder and ending."""
        return name if name in self.names() else Path(name).stem

    def profile(self, name: str, board: B, profile: str | Path | None = None) -> Profile:
        """The LED profile of ``board`` (loaded as ``name``): the ``profile`` file given (``[files] profile``),
        else the shipped one, else the one beside the board file, else the default layout."""
        folder = resources.files(self.package).joinpath("profiles")
        return find_profile(folder, self.layout(board, self.slug(name)), name, profile)

    def calibration_target(self, name: str, out: Path | None = None) -> ProfileTarget:
        """What ``toprace-pi calibrate NAME`` walks for the board ``name``."""
        board = self.load(name)
        return calibration_target(self.layout(board, self.slug(name)), self.profile(name, board), name,
                                  shipped=name in self.names(), out=out)


def calibration_target(layout: BoardLayout, expected: Profile, board: str, *, shipped: bool,
                       out: Path | None = None) -> ProfileTarget:
    """The walk along ``layout`` expecting ``expected``, for the board loaded as ``board`` (a shipped
    board's name, or a board file's path). Saved to ``out`` if given; else beside a board file, where
    the table finds it by itself, or for a ``shipped`` board as ``NAME.toml`` in this folder."""
    from toprace_pi.hardware.calibrate import ProfileTarget  # for calibrate, not the table's start-up

    beside = None if shipped else profile_beside(board)
    out = out or beside or Path(f"{board}.toml")
    found_there = beside is not None and out.resolve() == beside.resolve()
    return ProfileTarget(layout, expected, out, found_there)
