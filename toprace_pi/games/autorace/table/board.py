"""AUTORACE's board under the LEDs: the spaces 0 to 72 as a :class:`~toprace_pi.hardware.profile.BoardLayout`,
and where its profile is found.

The cells are the spaces by number (``"0"`` to ``"72"``); the default strip runs along the track
from the start, one LED a space: 73 LEDs, no placement spaces (the game places no cars) and no
seat lights. The shipped profile (``toprace_pi/games/autorace/data/profiles/standard.toml``) is
that default; a board file of one's own keeps its profile beside it (``my-board.profile.toml``).
"""

from __future__ import annotations

from toprace_pi.games.autorace.data import load_board
from toprace_pi.games.autorace.rules import Board
from toprace_pi.table.boards import BoardProfiles

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


#: Where this game's boards find their LED profiles, and where calibrate saves one.
PROFILES = BoardProfiles("toprace_pi.games.autorace.data", load_board, TrackLayout)
profile_names = PROFILES.names
board_slug = PROFILES.slug
load_profile = PROFILES.profile
calibration_target = PROFILES.calibration_target
