"""Colour rules shared by every output (terminal, SVG, the LED strip), so a car
looks the same wherever it is shown. The colours themselves are the deck's:
each car's ``rgb`` and ``letter`` (see :class:`~toprace_pi.games.toprace.rules.cars.Car`)."""

from __future__ import annotations

from toprace_pi.core.colour import OFF, RGB, WHITE
from toprace_pi.core.colour import is_light as light_colour
from toprace_pi.games.toprace.rules.cars import Car
from toprace_pi.text import ordinal

__all__ = ["GLOW", "OFF", "RGB", "WHITE", "is_dim", "is_light", "ordinal"]

#: A space a car may end on, or one a broken-down car waits beside, is lit at this share of the car's colour.
GLOW = 0.2


def is_light(car: Car) -> bool:
    """Whether dark ink reads better than white on the car's colour (the rule every picture shares)."""
    return light_colour(car.rgb)


def is_dim(car: Car) -> bool:
    """Whether the car's colour is too dark to read as ink on a dark terminal (a black car's dark grey)."""
    return max(car.rgb) < 128
