"""TOP SPEED's circuit in the terminal: under a title and a key, the loop unrolled into one row of
characters (one a space, from space 0 just after the finish line ``|``), each car by its letter in its
colour above its space (lower case while lapped), the lap counter and the flags and safety car's state,
and a scoreboard. Drawn from a spectator's view (:meth:`TopSpeed.view` of ``None``): no deck, no card
kept apart reaches the screen."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toprace_pi.games.topspeed.render.palette import seat_cars
from toprace_pi.games.topspeed.rules.cards import Kind
from toprace_pi.games.topspeed.rules.events import safety_car_rounds
from toprace_pi.render.ansi import ColourMode, mode_of, paint

PLAIN, LINE = ".", "|"
#: What the marks mean (the board has no other legend): within 80 columns.
KEY = (f"Key: {PLAIN} a space, from the finish line {LINE} on; the ruler counts the spaces in tens",
       "R a car above its space; r (lower case) a lapped car, a lap behind the leader")
View = Mapping[str, Any]


def render_board(view: View, names: Sequence[str], spaces: int, *, colour: ColourMode | bool = True) -> str:
    """The title and the key, the cars' row, the track with the finish line and the state of the race."""
    mode = mode_of(colour)
    cars = [" "] * spaces
    if view["stage"] in ("RACE", "OVER"):
        for seat, car in enumerate(seat_cars(len(names))):
            letter = car.letter.lower() if view["lapped"][seat] else car.letter
            cars[view["spaces"][seat]] = paint(letter, mode, car.rgb)
    track = PLAIN * spaces
    ruler = "".join(str(space // 10) if space % 10 == 0 else " " for space in range(spaces))
    return "\n".join([
        f"TOP SPEED: the circuit unrolled into one row of {spaces} spaces",
        *KEY,
        f"{LINE} {''.join(cars)}",
        f"{LINE} {track}",
        f"{LINE} {ruler}",
        state_line(view),
    ]) + "\n"


def state_line(view: View) -> str:
    """The lap counter, and what is out on the track: Yellow Flags, the safety car, the weather."""
    parts = [f"lap {view['lap']} of {view['laps']}", f"round {view['round']}"]
    if view["stage"] == "QUALIFYING":
        parts = [f"qualifying lap {view['qualifying_lap']}"]
    if view["yellow_flags"] >= 2:
        parts.append("YELLOW FLAGS: no overtaking")
    elif view["yellow_flags"]:
        parts.append("one Yellow Flag on the table")
    if view["under_safety_car"] or view["safety_car_rounds"]:
        parts.append(f"SAFETY CAR out ({safety_car_rounds(view['safety_car_rounds'])})")
    if view["chaotic_weather"]:
        parts.append("chaotic weather")
    return "; ".join(parts)


def scoreboard(view: View, names: Sequence[str]) -> list[str]:
    """One line a car in race order: its place, row, points, deck, damage and whether it keeps a card."""
    lines = []
    for place, seat in enumerate(view["order"], 1):
        car = seat_cars(len(names))[seat]
        row = ", ".join(map(card_name, view["rows"][seat])) or "-"
        extras = [f"damage {len(view['damage'][seat])}" if view["damage"][seat] else "",
                  "lapped" if view["lapped"][seat] else "", "KERS card" if view["keeps_a_card"][seat] else "",
                  (view["round_ended"][seat] or "").lower().replace("_", " ")]
        lines.append(f"{place}. {car.letter} {names[seat]:8} space {view['spaces'][seat]:2}  deck "
                     f"{view['deck_sizes'][seat]:2}  row {row}" + "".join(f"; {e}" for e in extras if e))
    return lines


def card_name(word: str) -> str:
    """A card of a row as players call it: its value, or its kind's name ("Drive Through")."""
    return word if word.isdigit() else Kind(word).title
