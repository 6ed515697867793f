"""The hub's ``code.py`` itself, run on CPython: stand-ins for CircuitPython's board modules, PN532 emulators
behind the SPI chip-selects spoken to by the real ``adafruit_pn532.spi`` driver, and the host's HubReader on the
other end of the USB data port (a pty)."""

from __future__ import annotations

import ast
import runpy
import sys
import types
from collections.abc import Iterator

import pytest
from emulators.circuitpython import HubDevice, SpiBus
from emulators.hub import FIRMWARE
from emulators.pn532 import Tag

from toprace_pi.hardware.events import DeviceStatus, TagLaid, TagLifted
from toprace_pi.hardware.ndef import encode_record

CARD_17 = Tag("04a1b2c3d4e517", encode_record("toprace card 17"))


@pytest.fixture(scope="module", params=["spi", "i2c"])
def device(request: pytest.FixtureRequest) -> Iterator[HubDevice]:
    device = HubDevice(request.param)
    yield device
    device.close()
    assert [e.errors for e in device.emulators] == [[], []], "the firmware broke the PN532 protocol"


def test_code_py_reports_the_readers_that_are_not_wired(device):
    events = device.run()
    assert [(e.device, e.ok) for e in events if isinstance(e, DeviceStatus)] == [
        ("seat1 reader", False),
        ("seat2 reader", False),
    ]
    assert device.host.hello == ("1.1", 4)


def test_code_py_reads_a_card_and_its_record_over_spi(device):
    device.emulators[0].lay(CARD_17)
    assert device.run() == [TagLaid("discard", CARD_17.uid, "toprace card 17")]
    device.emulators[0].lift()
    assert device.run(3) == [TagLifted("discard", CARD_17.uid)]


def test_code_py_answers_the_status_command(device):
    device.host.request_status()
    device.run()
    assert device.host.status == ("ok", "ok", "failing", "failing")


def test_code_py_drives_its_bus_as_the_pn532_needs(device):
    (bus,) = device.board.buses
    if isinstance(bus, SpiBus):
        assert bus.settings == {"baudrate": 100000, "polarity": 0, "phase": 0}
        assert [str(pin) for pin in bus.pins] == ["board.GP18", "board.GP19", "board.GP16"]
        assert [s.pin.name for s in device.board.selects] == ["GP17", "GP20", "GP21", "GP22"]
        assert all(s.output and s.value for s in device.board.selects)  # outputs, left high (deselected)
    else:
        assert [str(pin) for pin in bus.pins] == ["board.GP5", "board.GP4"]
        assert bus.channels_on == 0  # every exchange ends with the multiplexer's channels closed again


def test_boot_py_turns_on_the_usb_data_port(monkeypatch):
    enabled: list[dict] = []
    usb_cdc = types.ModuleType("usb_cdc")
    usb_cdc.enable = lambda **ports: enabled.append(ports)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "usb_cdc", usb_cdc)
    runpy.run_path(str(FIRMWARE / "boot.py"))
    assert enabled == [{"console": True, "data": True}]


#: What the firmware may import on the device: its own files, CircuitPython's modules and the bundle's PN532 driver.
DEVICE_MODULES = {"time", "settings", "hub", "reader", "ndef", "protocol", "board", "busio", "digitalio", "usb_cdc",
                  "binascii", "adafruit_pn532.spi", "adafruit_pn532.i2c", "adafruit_tca9548a"}


@pytest.mark.parametrize("path", sorted(FIRMWARE.glob("*.py")), ids=lambda p: p.name)
def test_the_firmware_keeps_to_what_circuitpython_has(path):
    """The shared files are edited on the host side too: no typing, dataclasses or annotations may creep in."""
    tree = ast.parse(path.read_text("utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    assert imported <= DEVICE_MODULES, f"{path.name} imports {imported - DEVICE_MODULES}"
    annotated = [node.lineno for node in ast.walk(tree)
                 if isinstance(node, ast.AnnAssign) or (isinstance(node, ast.arg) and node.annotation)
                 or (isinstance(node, ast.FunctionDef) and node.returns)]
    assert annotated == [], f"{path.name} has annotations on lines {annotated}"


def test_code_py_without_its_multiplexer_reports_every_reader_and_runs_on():
    device = HubDevice("i2c")
    wired = device.board.mux
    try:
        device.board.mux = None  # the TCA9548A is not wired (or not powered)
        events = device.run()
        assert [(e.device, e.ok) for e in events if isinstance(e, DeviceStatus)] == [
            ("discard reader", False), ("cars reader", False), ("seat1 reader", False), ("seat2 reader", False)]
        assert device.host.hello == ("1.1", 4)
    finally:
        device.board.mux = wired
        device.close()
