"""``toprace-pi check`` tests every device and says each in words, and a machine that is not a Pi is told
in one line how to run on simulated devices, instead of gpiozero's warnings."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from emulators.pn532 import Pn532Emulator
from support.strip import FakePixelStrip

from toprace_pi.hardware.gpio import HOW_TO_SIMULATE, NO_GPIO
from toprace_pi.table import selftest
from toprace_pi.table.config import parse_config
from toprace_pi.table.selftest import self_test

ROOT = Path(__file__).resolve().parents[2]
#: What a Python object's repr looks like in a message: never printed.
REPR = re.compile(r"<\w[^>]* at 0x|PosixPath\(|object at|\w+Error\(")
ON_A_PI = Path("/proc/device-tree/model").is_file() and "Raspberry Pi" in Path("/proc/device-tree/model").read_text()


def check(config: dict, **options) -> tuple[int, list[str]]:
    said: list[str] = []
    failed = self_test(parse_config(config, "test"), said.append, button_wait=0.01, **options)
    assert not any(REPR.search(line) for line in said), said
    return failed, said


def test_every_device_is_tested_and_each_missing_one_is_named(pins, monkeypatch, tmp_path):
    """A reader on a port that is not there, a strip whose library is missing, mock pins, no espeak-ng:
    every device has its line, and the count takes each one."""
    monkeypatch.setitem(sys.modules, "rpi_ws281x", None)
    monkeypatch.setattr(selftest.shutil, "which", lambda name: None)
    config = {"readers": {"discard": {"kind": "pn532", "port": str(tmp_path / "ttyNONE")}, "cars": {}},
              "strip": {"backend": "ws281x"}, "sound": {"buzzer": 12}, "buttons": {}}
    failed, said = check(config)
    assert said[0].startswith(f"discard reader: missing: the discard reader (PN532 on uart {tmp_path}/ttyNONE): "
                              "cannot open")
    assert said[1:] == [
        'cars reader: simulated: kind = "simulated" under [readers.cars] in the config',
        "LED strip: missing: rpi_ws281x cannot be imported: import of rpi_ws281x halted; None in sys.modules "
        "(pip install rpi-ws281x) (the table would play on a simulated strip)",
        "buttons: simulated: gpiozero's mock pins (GPIOZERO_PIN_FACTORY=mock, or kind = \"simulated\" under "
        "[buttons])",
        "buzzer: simulated: gpiozero's mock pins (GPIOZERO_PIN_FACTORY=mock, or kind = \"simulated\" under "
        "[buttons])",
        "speech: missing: espeak-ng is not installed (sudo apt install espeak-ng)",
        "6 device(s) missing or simulated: the check fails",
    ]
    assert failed == 6


def test_the_default_config_is_all_stand_ins_and_fails(pins):
    failed, said = check({"sound": {"speech": False}, "buttons": {"kind": "simulated"}})
    assert said == ['discard reader: simulated: kind = "simulated" under [readers.discard] in the config',
                    'LED strip: simulated: backend = "simulated" under [strip] in the config',
                    'buttons: simulated: kind = "simulated" under [buttons] in the config',
                    "buzzer: off (no buzzer under [sound] in the config)",
                    "speech: off (speech = false under [sound] in the config)",
                    "3 device(s) missing or simulated: the check fails"]
    assert failed == 3


def test_a_table_whose_devices_all_answer_passes(pins, ws281x, monkeypatch):
    """The PN532 over its emulator, a strip on (fake) rpi_ws281x, each button pressed when asked, the
    buzzer and espeak-ng: every line ok. Mock pins count as real here, as the Pi's would."""
    spoken: list[tuple[list[str], str]] = []
    monkeypatch.setattr(selftest.shutil, "which", lambda name: "/usr/bin/espeak-ng")
    monkeypatch.setattr(selftest, "run_espeak", lambda argv, text: spoken.append((argv, text)))
    said: list[str] = []

    def say(line: str) -> None:
        said.append(line)
        if line.startswith("press "):
            button = pins.pin({"NEXT": 5, "OK": 6, "UNDO": 13, "PASS": 19}[line.split()[1]])
            button.drive_low()
            button.drive_high()

    with Pn532Emulator() as emulator:
        config = parse_config({"readers": {"discard": {"kind": "pn532", "port": emulator.port}},
                               "strip": {"backend": "ws281x"}, "sound": {"buzzer": 12}, "buttons": {"hold_time": 0.05}},
                              "test")
        failed = self_test(config, say, button_wait=2.0, simulated_pins=lambda: None)
    assert failed == 0 and said[-1] == "every device answered"
    assert said[0] == "discard reader: ok (PN532 firmware 1.6 on UART " + emulator.port + ")"
    assert "LED strip: ok (ws281x: each of the 191 LEDs lit white in turn)" in said
    assert [s for s in said if " button " in s] == [f"{name} button (GPIO{pin}): ok" for name, pin in
                                                     (("NEXT", 5), ("OK", 6), ("UNDO", 13), ("PASS", 19))]
    assert "buzzer: ok (GPIO12: listen for the fanfare)" in said
    assert spoken == [(["/usr/bin/espeak-ng", "--stdin"], "the table can speak")]
    lit = [shown for strip in FakePixelStrip.made for shown in strip.shown]
    assert sum(1 for frame in lit if sum(1 for led in frame if led) == 1) == 191  # each LED alone once


def test_buttons_nobody_presses_are_each_missing(pins):
    failed, said = check({"sound": {"speech": False}, "buttons": {}}, simulated_pins=lambda: None)
    assert "NEXT button (GPIO5): missing: no press within 0.01 s" in said
    assert "PASS button (GPIO19): missing: no press within 0.01 s" in said
    assert failed == 2 + 4  # the simulated reader and strip, and four buttons


# --- a machine that is not a Pi ------------------------------------------------------------------------------------


def command(*argv: str, config: Path) -> subprocess.Popen:
    """``toprace-pi`` in a process of its own with gpiozero left to find its pins as it would here."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GPIOZERO_")}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.Popen([sys.executable, "-m", "toprace_pi", *argv, "--config", str(config)], cwd=config.parent,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.fixture
def gpio_config(tmp_path: Path) -> Path:
    path = tmp_path / "table.toml"
    path.write_text(f'[buttons]\n[sound]\nbuzzer = 12\nspeech = false\n[files]\njournal = "{tmp_path}/j.jsonl"\n'
                    f'registry = "{tmp_path}/tags.json"\n', "utf-8")
    return path


def one_hint(stderr: str) -> None:
    """gpiozero's fallback warnings are gone; one line says how to run on simulated devices."""
    assert "PinFactoryFallback" not in stderr and "Falling back" not in stderr
    assert [line for line in stderr.splitlines() if HOW_TO_SIMULATE in line] == \
        [f"WARNING toprace_pi.hardware.gpio: {NO_GPIO}: {HOW_TO_SIMULATE}"]


pytestmark_not_on_a_pi = pytest.mark.skipif(ON_A_PI, reason="this machine is a Pi: gpiozero finds its pins")


@pytestmark_not_on_a_pi
def test_check_off_a_pi_says_once_how_to_simulate(gpio_config):
    out, err = command("check", config=gpio_config).communicate(timeout=60)
    one_hint(err)
    assert f"buttons: missing: {NO_GPIO}" in out.splitlines() and f"buzzer: missing: {NO_GPIO}" in out.splitlines()


@pytestmark_not_on_a_pi
def test_calibrate_off_a_pi_says_once_how_to_simulate(gpio_config):
    process = command("calibrate", "speed-street", config=gpio_config)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 2 and "Traceback" not in err
    one_hint(err)
    assert f"toprace-pi: {NO_GPIO}" in err.splitlines()


@pytestmark_not_on_a_pi
def test_play_off_a_pi_says_once_how_to_simulate_and_plays_on(gpio_config):
    process = command("play", config=gpio_config)
    assert process.stdout is not None
    lines = []
    for line in process.stdout:
        lines.append(line.rstrip("\n"))
        if "the table is ready" in line:
            break
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    one_hint(err)
    said = "\n".join(lines)
    assert f"the buttons cannot be used ({NO_GPIO}): the table plays on without them" in said
    assert f"the buzzer cannot be used ({NO_GPIO})" in said


@pytestmark_not_on_a_pi
def test_simulated_buttons_run_check_off_a_pi_without_a_word_from_gpiozero(gpio_config):
    gpio_config.write_text('[buttons]\nkind = "simulated"\n[sound]\nspeech = false\n', "utf-8")
    out, err = command("check", config=gpio_config).communicate(timeout=60)
    assert err == ""
    assert 'buttons: simulated: kind = "simulated" under [buttons] in the config' in out.splitlines()


def test_a_button_kind_the_table_does_not_know_is_named():
    from toprace_pi.errors import DataError

    with pytest.raises(DataError, match=r"\[buttons\] kind: one of gpio, simulated, not 'usb'"):
        parse_config({"buttons": {"kind": "usb"}}, "test")
