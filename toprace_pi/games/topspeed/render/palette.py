"""TOP SPEED's cars: each seat's colour, name and letter, read from ``data/cars/standard.toml``
(the rulebook names four of the eight colours; the file says which are reconstructed), so a
car looks the same on the LEDs, in the terminal and in what the table says."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

from toprace_pi.core.colour import RGB
from toprace_pi.datafiles import parse_toml
from toprace_pi.errors import DataError

#: The Yellow Flags' wash of the whole strip, the safety car's pace light, the finish line and the lap counter.
FLAG: RGB = (255, 200, 0)
PACE: RGB = (255, 120, 0)
FINISH: RGB = (255, 255, 255)
LAPS: RGB = (0, 160, 255)


@dataclass(frozen=True)
class Car:
    id: str
    name: str
    #: The car in the terminal (Pink is K: Purple has P).
    letter: str
    rgb: RGB


@cache
def cars() -> tuple[Car, ...]:
    """The box's eight cars in seat order."""
    source = "toprace_pi/games/topspeed/data/cars/standard.toml"
    text = resources.files("toprace_pi.games.topspeed.data").joinpath("cars", "standard.toml").read_text("utf-8")
    found = parse_toml(source, text).get("car")
    if not isinstance(found, list):
        raise DataError(source, ["no [[car]] entries"])
    return tuple(Car(str(c["id"]), str(c["name"]), str(c["letter"]), _rgb(c["rgb"])) for c in found)


def _rgb(value: list[int]) -> RGB:
    red, green, blue = (int(part) for part in value)
    return red, green, blue


def seat_cars(players: int) -> tuple[Car, ...]:
    """The cars in play: one a seat, in seat order."""
    return cars()[:players]
