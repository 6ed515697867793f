"""The six race cars and the white joker."""

from __future__ import annotations

from enum import IntEnum


class Car(IntEnum):
    """A race car. The integer value indexes per-car arrays."""

    BLUE = 0
    RED = 1
    YELLOW = 2
    BLACK = 3
    PURPLE = 4
    GREEN = 5

    #: Hash as the plain integer: faster than Enum's name hash, and set order then
    #: never depends on the interpreter's string-hash seed.
    __hash__ = int.__hash__

    def __str__(self) -> str:
        return self.name.capitalize()

    def __repr__(self) -> str:
        return f"Car.{self.name}"

    @classmethod
    def parse(cls, text: str) -> Car:
        """Read a colour name in any case (``"red"``, ``"Red"``)."""
        try:
            return cls[text.strip().upper()]
        except KeyError:
            names = ", ".join(c.name.lower() for c in cls)
            raise ValueError(f"unknown car colour {text!r} (one of {names})") from None


CARS: tuple[Car, ...] = tuple(Car)

#: The colour word printed on cards for the joker.
JOKER = "white"
