"""TOP SPEED's board under the LEDs: the loop of the circuit's spaces, the finish line and the
lap counter as a :class:`~toprace_pi.hardware.profile.BoardLayout`, and where its profile is found.

The cells are the spaces by number (``"0"`` to ``"31"`` on Montmeló), then ``"finish"`` (an LED
on the line, which lies between the last space and space 0) and ``"lap 1"`` to ``"lap 10"``
(beside the board's lap counting track, each a tenth of the race). The default strip runs along
the loop from space 0, then the finish line, then the lap counter: 43 LEDs on Montmeló, no
placement spaces and no seat lights. The shipped profile (``data/profiles/montmelo.toml``) is that
default; a circuit file of one's own keeps its profile beside it (``my-circuit.profile.toml``).
"""

from __future__ import annotations

from toprace_pi.games.topspeed.data import load_circuit
from toprace_pi.games.topspeed.rules import Circuit
from toprace_pi.table.boards import BoardProfiles

#: LEDs of the lap counter, each a tenth of the race.
LAP_LEDS = 10
FINISH = "finish"
DEFAULT_NOTE = ("DEFAULT layout, not measured on a board: one LED per space along the loop from space 0, "
                "then one on the finish line, then ten beside the lap counting track; no placement spaces, "
                "no seat lights. Calibrate it to your board.")


def lap_cell(tenth: int) -> str:
    return f"lap {tenth}"


class LoopLayout:
    """The circuit as the strip sees it (a :class:`~toprace_pi.hardware.profile.BoardLayout`)."""

    places = 0
    note = DEFAULT_NOTE

    def __init__(self, circuit: Circuit, slug: str) -> None:
        self.circuit = circuit
        self.slug = slug
        self.name = circuit.name
        self.cells = [*(str(space) for space in range(circuit.spaces)), FINISH,
                      *(lap_cell(n) for n in range(1, LAP_LEDS + 1))]

    def __repr__(self) -> str:
        return f"<LoopLayout {self.slug}>"

    def label(self, cell: str) -> str:
        if cell == FINISH:
            return "the finish line"
        if cell.startswith("lap "):
            return f"the lap counter, tenth {cell.split()[1]} of the race"
        return f"space {cell}" + (" (the first after the finish line)" if cell == "0" else "")


#: Where this game's boards find their LED profiles, and where calibrate saves one.
PROFILES = BoardProfiles("toprace_pi.games.topspeed.data", load_circuit, LoopLayout)
profile_names = PROFILES.names
circuit_slug = PROFILES.slug
load_profile = PROFILES.profile
calibration_target = PROFILES.calibration_target
