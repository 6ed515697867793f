"""Shared fixtures; the tests' helper modules (tracks.py, scenarios.py) import by plain name."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(autouse=True)
def _home(tmp_path_factory, monkeypatch):
    """Every test gets a home folder of its own: a default path (the journal, the tag
    registry under ~/.local/share) never reaches the real one."""
    monkeypatch.setenv("HOME", str(tmp_path_factory.mktemp("home")))


def _mock_pins(**options):
    """gpiozero's MockFactory as the default pin factory for one test, reset afterwards."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    previous = Device.pin_factory
    Device.pin_factory = MockFactory(**options)
    yield Device.pin_factory
    Device.pin_factory.reset()
    Device.pin_factory = previous


@pytest.fixture
def pins():
    yield from _mock_pins()


@pytest.fixture
def pwm_pins():
    from gpiozero.pins.mock import MockPWMPin

    yield from _mock_pins(pin_class=MockPWMPin)


@pytest.fixture
def espeak_on_path(tmp_path, monkeypatch):
    """A speech program that says nothing, so the table's announcer speaks (to a test's runner)."""
    program = tmp_path / "espeak-ng"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
