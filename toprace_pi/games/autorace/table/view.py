"""What AUTORACE's LED strip shows: each figure in its suit's colour on its space, the filling
stations and the objectives whose bonus is still to win in dim colours beneath.

The strip is seen by everyone, so it shows the game as a spectator knows it and nothing of any
player's choice: no space a player could reach is ever lit (it would tell the others the card
in hand), and the frame is drawn from a spectator's view of the game, which holds no sealed card.
"""

from __future__ import annotations

from collections.abc import Mapping

from toprace_pi.core.colour import RGB, dim
from toprace_pi.games.autorace.render.palette import OBJECTIVE, STATION, seat_suits
from toprace_pi.games.autorace.rules import Autorace
from toprace_pi.hardware.profile import Profile
from toprace_pi.table.modes import Choice

#: The stations and objectives glow at this share of their colour, well below a figure's.
GLOW = 0.12
#: A figure out of the race stays on its space at this share of its colour.
OUT = 0.3
#: Seconds each of several figures on one space is shown before the next.
ALTERNATE = 0.6
#: What a filling station and an objective still to win show.
STATION_GLOW, OBJECTIVE_GLOW = dim(STATION, GLOW), dim(OBJECTIVE, GLOW)


class AutoraceView:
    """Composes LED frames for one board profile."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile

    def frame(self, game: Autorace, choice: Choice | None, now: float) -> list[RGB]:
        """The frame of ``game`` (a spectator's view, whose every attribute read costs a lookup: each
        is read once) at time ``now``."""
        board, paid = game.board, game.paid
        spaces: dict[str, RGB] = dict.fromkeys(map(str, board.stations), STATION_GLOW)
        spaces.update({str(space): OBJECTIVE_GLOW for space in board.objectives if space not in paid})
        spaces.update(figures(game, now))
        return self.profile.frame_for(spaces)


def figures(game: Autorace, now: float) -> Mapping[str, RGB]:
    """The colour shown on each space with figures: several figures on one space take turns."""
    suits = seat_suits(game.board, len(game.names))
    dropped, in_race = game.dropped, game.in_race
    standing: dict[int, list[RGB]] = {}
    for seat, space in enumerate(game.positions):
        if not dropped[seat]:
            rgb = suits[seat].rgb
            standing.setdefault(space, []).append(rgb if in_race[seat] else dim(rgb, OUT))
    turn = int(now / ALTERNATE)
    return {str(space): colours[turn % len(colours)] for space, colours in standing.items()}
