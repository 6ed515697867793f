"""Copy the reader hub's firmware onto a Pico's CIRCUITPY drive, keeping the settings.py already there.

    python3 tools/install_hub.py /media/$USER/CIRCUITPY              # install, or update
    python3 tools/install_hub.py /media/$USER/CIRCUITPY --settings   # also put back the default settings.py

The links in firmware/ (protocol.py, ndef.py) are copied as the files they point
to. The libraries are not copied: they must match the CircuitPython version on
the board, so they come from the Adafruit bundle for that version; the script
says which ones lib/ lacks. Exit status: 0 done, 1 done but libraries missing,
2 not a CIRCUITPY drive.
"""

from __future__ import annotations

import argparse
import ast
import filecmp
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"
FILES = ("boot.py", "code.py", "hub.py", "reader.py", "protocol.py", "ndef.py", "settings.py")
#: Library -> the bus that needs it (None: always), as found in lib/ (a folder, or one .mpy/.py file).
LIBRARIES = {"adafruit_pn532": None, "adafruit_bus_device": None, "adafruit_tca9548a": "i2c"}

Say = Callable[[str], None]


class NotADrive(Exception):
    """The folder given is not a CircuitPython board's drive."""


def install(drive: Path, *, default_settings: bool = False, say: Say = print) -> list[str]:
    """Copy the firmware to ``drive``; returns the libraries missing from its lib/ (each also said)."""
    boot_out = drive / "boot_out.txt"
    if not boot_out.is_file():
        raise NotADrive(f"{drive} is not a CIRCUITPY drive (it has no boot_out.txt; is CircuitPython flashed?)")
    say(f"{drive}: {boot_out.read_text('utf-8', errors='replace').splitlines()[0]}")
    boot_changed = not (drive / "boot.py").is_file() or not filecmp.cmp(FIRMWARE / "boot.py", drive / "boot.py")
    for name in FILES:
        if name == "settings.py" and (drive / name).is_file() and not default_settings:
            say("settings.py: kept (your pins; --settings puts back the default)")
            continue
        shutil.copyfile(FIRMWARE / name, drive / name)  # follows the links: the device gets plain files
        say(f"{name}: copied")
    missing = [f"lib/{name}" for name, bus in LIBRARIES.items()
               if (bus is None or bus == configured_bus(drive / "settings.py")) and not _has_library(drive, name)]
    for library in missing:
        say(f"{library} is missing: copy it from the Adafruit CircuitPython library bundle for the version above")
    if boot_changed:
        say("boot.py changed: unplug the Pico and plug it in again (boot.py runs only at power-up)")
    return missing


def configured_bus(settings: Path) -> str:
    """The BUS a settings.py sets ("spi" when it sets none that can be read)."""
    try:
        tree = ast.parse(settings.read_text("utf-8"))
    except (OSError, SyntaxError, ValueError):
        return "spi"
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["BUS"]:
            value = node.value
            return value.value if isinstance(value, ast.Constant) and isinstance(value.value, str) else "spi"
    return "spi"


def _has_library(drive: Path, name: str) -> bool:
    lib = drive / "lib"
    return (lib / name).is_dir() or (lib / f"{name}.mpy").is_file() or (lib / f"{name}.py").is_file()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("drive", type=Path, help="the mounted CIRCUITPY drive, such as /media/$USER/CIRCUITPY")
    parser.add_argument("--settings", action="store_true", help="overwrite settings.py with the default one")
    args = parser.parse_args(argv)
    try:
        missing = install(args.drive, default_settings=args.settings)
    except NotADrive as exc:
        print(exc, file=sys.stderr)
        return 2
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
