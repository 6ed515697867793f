"""What the LED strip shows: the cars in their colours, where the car being moved
may go, a blinking cursor, the placements, and whose turn it is."""

from __future__ import annotations

from toprace_pi.core.colour import dim
from toprace_pi.games.toprace.render.palette import GLOW, OFF, RGB, WHITE
from toprace_pi.games.toprace.rules import (
    Breakdown,
    Car,
    ChooseJoker,
    MoveCar,
    Phase,
    PlaceCar,
    ReturnCar,
    Sprint,
    TopRace,
)
from toprace_pi.games.toprace.rules.track import FINISH_ID, Track
from toprace_pi.games.toprace.table.choices import Choice
from toprace_pi.hardware.profile import Profile

#: How long the cursor stays lit, then dark (seconds).
BLINK = 0.4


class TableView:
    """Composes LED frames for one track's board profile."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile

    def frame(self, game: TopRace, choice: Choice | None, now: float) -> list[RGB]:
        """The frame of ``game`` (a spectator's view, whose every attribute read costs a lookup: each
        is read once) with ``choice``'s options at time ``now``."""
        track, board = game.track, game.board
        spaces = {track.space_id(wait.space): dim(car.rgb, GLOW) for car, wait in board.waiting.items()}
        spaces.update({track.space_id(space): car.rgb for car, space in board.at.items()})
        if choice is not None:
            spaces.update(self._options(game, choice, now))
        placements = {n: car.rgb for n, car in enumerate(board.finished, 1)}
        seats = dict.fromkeys(game.decision.seats, WHITE)
        return self.profile.frame_for(spaces, placements, seats)

    @staticmethod
    def _options(game: TopRace, choice: Choice, now: float) -> dict[str, RGB]:
        """The spaces on offer glow; the one under the cursor blinks."""
        lit = int(now / BLINK) % 2 == 0
        shown: dict[str, RGB] = {}
        for n, option in enumerate(choice.options):
            target = _space_of(game, option)
            if target is None:
                continue
            colour = _colour_of(game, option)
            shown[target] = (colour if lit else OFF) if n == choice.cursor else dim(colour, GLOW)
        return shown


def _space_of(game: TopRace, option: object) -> str | None:
    """The space that stands for ``option`` on the track, if any."""
    if isinstance(option, (MoveCar, ReturnCar)):
        return None if option.to == FINISH_ID else option.to
    if isinstance(option, PlaceCar):
        return game.track.space_id(game.track.starting_spaces[option.start])
    car = _car_of(game, option)
    return game.track.space_id(game.board.at[car]) if car in game.board.at else None


def _car_of(game: TopRace, option: object) -> Car | None:
    """The car an option is about: the joker's pick, the car that would sprint or break down."""
    if isinstance(option, ChooseJoker):
        return option.car
    if isinstance(option, (Sprint, Breakdown)):
        rear, front = game.sprint_pair()
        return rear if isinstance(option, Sprint) else front
    return None


def _colour_of(game: TopRace, option: object) -> RGB:
    if isinstance(option, (MoveCar, ReturnCar)):
        return option.car.rgb
    if game.phase is Phase.PLACE_CAR:
        return game.car_to_place.rgb
    car = _car_of(game, option)
    return WHITE if car is None else car.rgb


def lights_by_space(profile: Profile, track: Track, frame: list[RGB]) -> dict[int, RGB]:
    """What the strip shows under each space (its first LED), for drawing a frame."""
    return {track.index(space): frame[leds[0]] for space, leds in profile.spaces.items()}
