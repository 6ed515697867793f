"""Top Race at the keyboard: a number and Enter is a speed card laid on the discard
pile, a car's letter its token on the car reader, ``s`` and a seat a pit stop card."""

from __future__ import annotations

from toprace_pi.games.toprace.rules.cars import CarSet
from toprace_pi.games.toprace.table.readers import CARS_READER, DISCARD_READER
from toprace_pi.hardware.keyboard import KeyMap


def key_map(cars: CarSet) -> KeyMap:
    letters = " ".join(f"{car.letter}={car.name}" for car in cars)
    return KeyMap(
        number=lambda n: (DISCARD_READER, f"card {n}"),
        letters={car.letter.upper(): (CARS_READER, f"car {car.id}") for car in cars},
        seat=lambda n: (DISCARD_READER, f"pit {n}"),
        help=(f"keys: n NEXT, o OK, p PASS, U UNDO (held), a card number and Enter lays that speed card, "
              f"a car letter lays its token ({letters}), s lays a pit stop card"),
    )
