"""tools/install_hub.py: the firmware onto a (stand-in) CIRCUITPY drive, the maker's settings kept."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parent.parent / "tools" / "install_hub.py"
spec = importlib.util.spec_from_file_location("install_hub", TOOL)
assert spec is not None and spec.loader is not None
install_hub = importlib.util.module_from_spec(spec)
spec.loader.exec_module(install_hub)


BOOT_OUT = "Adafruit CircuitPython 9.1.4 on 2024-09-17; Raspberry Pi Pico with rp2040\nBoard ID:raspberry_pi_pico\n"


@pytest.fixture
def drive(tmp_path: Path) -> Path:
    """An empty CIRCUITPY drive as CircuitPython leaves it after flashing."""
    (tmp_path / "boot_out.txt").write_text(BOOT_OUT)
    (tmp_path / "lib").mkdir()
    return tmp_path


def test_a_new_drive_gets_plain_copies_of_every_firmware_file(drive):
    said: list[str] = []
    missing = install_hub.install(drive, say=said.append)
    for name in install_hub.FILES:
        copied = drive / name
        assert copied.is_file() and not copied.is_symlink()
        assert copied.read_bytes() == (install_hub.FIRMWARE / name).resolve().read_bytes()
    assert said[0].endswith("Adafruit CircuitPython 9.1.4 on 2024-09-17; Raspberry Pi Pico with rp2040")
    assert missing == ["lib/adafruit_pn532", "lib/adafruit_bus_device"]
    assert said[-1].startswith("boot.py changed: unplug the Pico")


def test_an_update_keeps_the_makers_settings_and_asks_for_the_i2c_library_they_need(drive):
    (drive / "settings.py").write_text('BUS = "i2c"\nMUX_CHANNELS = (0, 1)\n')
    (drive / "lib" / "adafruit_pn532").mkdir()
    (drive / "lib" / "adafruit_bus_device").mkdir()
    install_hub.install(drive, say=lambda _: None)
    said: list[str] = []
    missing = install_hub.install(drive, say=said.append)  # the second time: an update
    assert (drive / "settings.py").read_text() == 'BUS = "i2c"\nMUX_CHANNELS = (0, 1)\n'
    assert missing == ["lib/adafruit_tca9548a"]
    assert not any(line.startswith("boot.py changed") for line in said)
    install_hub.install(drive, default_settings=True, say=lambda _: None)
    assert (drive / "settings.py").read_bytes() == (install_hub.FIRMWARE / "settings.py").read_bytes()


def test_a_folder_that_is_no_circuitpy_drive_is_refused(tmp_path, capsys):
    assert install_hub.main([str(tmp_path)]) == 2
    assert "is not a CIRCUITPY drive" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_the_exit_status_says_whether_libraries_are_missing(drive):
    assert install_hub.main([str(drive)]) == 1
    (drive / "lib" / "adafruit_pn532").mkdir()
    (drive / "lib" / "adafruit_bus_device.mpy").write_bytes(b"")
    assert install_hub.main([str(drive)]) == 0
