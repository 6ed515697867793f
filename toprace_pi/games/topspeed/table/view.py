"""What TOP SPEED's LED strip shows: each car in its colour on its space (a lapped car blinking),
the finish line, the lap counter, the Yellow Flags as a dim yellow wash of the whole loop while two
or more lie on the table, and the safety car as a pace light going round while it is out.

The strip is seen by everyone, so it shows only what lies face up: no deck, no card kept apart.
"""

from __future__ import annotations

from toprace_pi.core.colour import RGB, dim
from toprace_pi.games.topspeed.render.palette import FINISH, FLAG, LAPS, PACE, seat_cars
from toprace_pi.games.topspeed.rules import Kind, Stage, TopSpeed
from toprace_pi.games.topspeed.rules.cards import ON_THE_TABLE
from toprace_pi.games.topspeed.table.board import FINISH as FINISH_CELL
from toprace_pi.games.topspeed.table.board import LAP_LEDS, lap_cell
from toprace_pi.hardware.profile import Profile
from toprace_pi.table.modes import Choice

#: The Yellow Flags' wash, the finish line and the lap counter glow at these shares of their colour.
WASH, LINE, COUNTER = 0.12, 0.5, 0.4
#: A lapped car is lit for half of each period and dark for the other half (seconds).
BLINK = 1.0
#: Seconds the pace light stays on a space before the next.
PACE_STEP = 0.25


class TopSpeedView:
    """Composes LED frames for one board profile."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile

    def frame(self, game: TopSpeed, choice: Choice | None, now: float) -> list[RGB]:
        cells: dict[str, RGB] = {}
        spaces = game.circuit.spaces
        if flags_out(game):
            cells.update({str(space): dim(FLAG, WASH) for space in range(spaces)})
        if safety_car_out(game):
            cells[str(int(now / PACE_STEP) % spaces)] = PACE
        cells[FINISH_CELL] = dim(FINISH, LINE)
        cells.update({lap_cell(n): dim(LAPS, COUNTER) for n in range(1, lap_leds(game) + 1)})
        cells.update(cars(game, now))
        return self.profile.frame_for(cells)


def flags_out(game: TopSpeed) -> bool:
    """Two Yellow Flags or more on the table this round: no overtaking."""
    return game.stage is Stage.RACE and game.table_count(Kind.YELLOW_FLAG) >= ON_THE_TABLE


def safety_car_out(game: TopSpeed) -> bool:
    """From the movement that brought it out until it comes in."""
    return game.stage is not Stage.OVER and (game.under_safety_car or game.safety_car_rounds > 0)


def lap_leds(game: TopSpeed) -> int:
    """The lap counter's LEDs lit: one for each tenth of the race's laps the counter has reached."""
    return min(LAP_LEDS, game.lap * LAP_LEDS // game.settings.laps)


def cars(game: TopSpeed, now: float) -> dict[str, RGB]:
    """Each car on its space in the race (two cars never share a space; before it, and in the
    qualifying, no car is on the grid yet); a lapped car dark in the second half of each :data:`BLINK`."""
    if game.stage not in (Stage.RACE, Stage.OVER):
        return {}
    dark_half = (now % BLINK) >= BLINK / 2
    return {str(game.circuit.space(game.progress[seat])): car.rgb
            for seat, car in enumerate(seat_cars(len(game.names)))
            if not (game.lapped[seat] and dark_half)}
