"""Car colours and letters shared by every output (terminal, SVG, later the LED
strip), so a car looks the same wherever it is shown."""

from __future__ import annotations

from toprace_pi.rules.cars import Car

#: A colour as red, green and blue from 0 to 255: for the terminal, SVG and LEDs alike.
RGB = tuple[int, int, int]

#: Display colour of each car. Black is a dark grey: pure black would be invisible
#: on a dark terminal and as an LED.
CAR_RGB: dict[Car, RGB] = {
    Car.BLUE: (30, 100, 255),
    Car.RED: (230, 30, 30),
    Car.YELLOW: (250, 210, 0),
    Car.BLACK: (80, 80, 80),
    Car.PURPLE: (150, 50, 200),
    Car.GREEN: (20, 170, 60),
}

_LETTERS = {Car.BLUE: "B", Car.RED: "R", Car.YELLOW: "Y", Car.BLACK: "K", Car.PURPLE: "P", Car.GREEN: "G"}


def car_letter(car: Car) -> str:
    """One letter per car; black is ``K`` because ``B`` is blue."""
    return _LETTERS[car]


def is_light(car: Car) -> bool:
    """Whether dark ink reads better than white on the car's colour."""
    r, g, b = CAR_RGB[car]
    return 0.299 * r + 0.587 * g + 0.114 * b > 140


def ordinal(n: int) -> str:
    """``1`` -> ``"1st"``; places only run to 6th."""
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n, "th")
    return f"{n}{suffix}"
