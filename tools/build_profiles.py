"""Write the DEFAULT LED profile of every shipped track (Top Race), board (AUTORACE) and circuit (TOP SPEED).

Top Race's defaults assume one LED per space with the strip snaking lane by lane, then
the six placement spaces and the six seat lights; AUTORACE's one LED per space from 0
to 72 and nothing else; TOP SPEED's one a space of the loop, the finish line and ten for
the lap counter (see :mod:`toprace_pi.hardware.profile`). They are starting points: a real board is
calibrated and its profile saved over the default. Do not rerun this over
calibrated profiles unless you mean to start again.

Run from the repository root::

    python3 tools/build_profiles.py           # rewrites toprace_pi/games/*/data/profiles/*.toml
    python3 tools/build_profiles.py FOLDER    # writes elsewhere (the games' files side by side)

Each file written is loaded back with the package's own loader.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(ROOT))
    from toprace_pi.games.toprace.data import load_track, track_names
    from toprace_pi.games.toprace.table.board import TrackBoard, load_profile
    from toprace_pi.hardware.profile import default_profile

    folder = Path(argv[0]) if argv else ROOT / "toprace_pi" / "games" / "toprace" / "data" / "profiles"
    folder.mkdir(parents=True, exist_ok=True)
    for name in track_names():
        track = load_track(name)
        path = folder / f"{name}.toml"
        path.write_text(default_profile(TrackBoard(track)).to_toml(), "utf-8")
        report(path, load_profile(path, track))
    autorace_boards(Path(argv[0]) if argv else ROOT / "toprace_pi" / "games" / "autorace" / "data" / "profiles")
    topspeed_circuits(Path(argv[0]) if argv else ROOT / "toprace_pi" / "games" / "topspeed" / "data" / "profiles")
    return 0


def autorace_boards(folder: Path) -> None:
    from toprace_pi.games.autorace.data import board_names, load_board
    from toprace_pi.games.autorace.table.board import TrackLayout, load_profile

    boards(folder, board_names(), load_board, TrackLayout, load_profile)


def topspeed_circuits(folder: Path) -> None:
    """TOP SPEED's loop: one LED a space from space 0, then the finish line, then the lap counter's ten."""
    from toprace_pi.games.topspeed.data import circuit_names, load_circuit
    from toprace_pi.games.topspeed.table.board import LoopLayout, load_profile

    boards(folder, circuit_names(), load_circuit, LoopLayout, load_profile)


def boards(folder: Path, names: list[str], load: Any, layout: Any, load_profile: Any) -> None:
    """The default profile (no seat lights) of each board ``names`` lists, written and loaded back."""
    from toprace_pi.hardware.profile import default_profile

    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        board = load(name)
        path = folder / f"{name}.toml"
        path.write_text(default_profile(layout(board, name), seats=0).to_toml(), "utf-8")
        report(path, load_profile(name, board, path))


def report(path: Path, profile: Any) -> None:
    print(f"{path}: {len(profile.spaces)} spaces, {profile.led_count} LEDs")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
