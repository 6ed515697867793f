"""Shared fixtures and the markers; the tests' helper modules (tracks.py, scenarios.py, support/) import by
plain name."""

import atexit
import sys
import types
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from support.strip import FAKE_STRIP_TYPES, FakePixelStrip, fake_color  # noqa: E402 (found through the line above)


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


@pytest.fixture
def ws281x(monkeypatch):
    """A fake rpi_ws281x module; ``FakePixelStrip.begin_error`` makes begin() fail."""
    module = types.ModuleType("rpi_ws281x")
    module.PixelStrip = FakePixelStrip
    module.Color = fake_color
    module.ws = types.SimpleNamespace(**{f"WS2811_STRIP_{k}": v for k, v in FAKE_STRIP_TYPES.items()})
    monkeypatch.setitem(sys.modules, "rpi_ws281x", module)
    monkeypatch.setattr(FakePixelStrip, "begin_error", None)
    monkeypatch.setattr(FakePixelStrip, "made", [])
    yield module
    for made in FakePixelStrip.made:
        atexit.unregister(made._cleanup)


# --- markers: set here from what a test uses, so no test file names them (docs/testing.md) ---------------

#: Modules whose every test takes seconds of real time: whole games at a reader's or a speaker's pace, servers
#: and processes waited on, faults injected write by write. The fast selection (``-m "not slow"``) leaves them
#: out; the rules, the table and the web server keep quick tests of their own in it.
SLOW_MODULES = {
    "table/test_screen_tells_ok.py": "nine whole games typed on a pseudo-terminal at a reader's pace",
    "table/test_human_seat.py": "a person's seat played on a terminal emulator",
    "games/toprace/test_human_pace.py": "demo games at a speaker's pace",
    "games/autorace/test_demo.py": "whole AUTORACE series at human pace, resumed from their journals",
    "games/topspeed/test_demo.py": "whole TOP SPEED races at human pace",
    "games/toprace/test_bots_see_their_seat.py": "the search bots' worlds checked through whole games",
    "core/test_search.py": "the search bots playing whole games",
    "table/test_splice.py": "journals of whole games spliced line by line",
    "table/test_garbage.py": "whole demo games with garbage on the readers",
    "table/test_disk_faults.py": "every journal write of whole games failed in turn through strace",
    "table/test_kill.py": "tables killed at random moments and restarted",
    "web/test_posts.py": "table processes and their followers over real sockets",
    "web/test_abuse.py": "floods and slow clients against a real table, waiting out its timeouts",
    "games/toprace/test_rulebook_on_tracks.py": "every rulebook example replayed on all four boards, and random play",
    "table/test_table_config.py": "the example configs checked and their tables run",
    "games/toprace/test_table_variants.py": "whole variant games through the table's devices",
    "table/test_table_bots.py": "tables of bot seats playing whole games",
    "table/test_journal.py": "whole games journaled, cut and resumed",
    "table/test_demo_journals.py": "whole demo games keeping their journals",
    "games/toprace/test_custom_track.py": "demo games on track and deck files, replayed from elsewhere",
    "hardware/test_calibrate.py": "the calibration command stopped by signals and resumed",
    "table/test_self_test.py": "the self-test lighting every LED and waiting on every button",
    "games/toprace/test_frames.py": "every frame of a whole game drawn",
    "table/test_screen.py": "the demo's screen paced by its keys",
    "test_fingerprint.py": "the engines' fingerprints over many whole games",
}
#: The modules whose tests kill a table's process (SIGKILL) and restart it.
KILL_MODULES = {"table/test_kill.py"}
TESTS = Path(__file__).parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        for mark in _marks(item):
            item.add_marker(mark)


def _marks(item: pytest.Item) -> set[str]:
    """The markers of one test: by its module, by the libraries its module drives, by hypothesis (a
    property test searches hundreds of games; its examples stay quick tests of their own)."""
    module = getattr(item, "module", None)
    path = item.path.relative_to(TESTS).as_posix()
    marks = set()
    if module is not None and _drives(module, "playwright"):
        marks |= {"browser", "slow"}
    if module is not None and _drives(module, "pty", "pyte", "terminal_seat", "on_a_terminal"):
        marks.add("pty")
    if path in KILL_MODULES:
        marks.add("kill")
    if path in SLOW_MODULES or getattr(getattr(item, "function", None), "is_hypothesis_test", False):
        marks.add("slow")
    return marks


def _drives(module: types.ModuleType, *packages: str) -> bool:
    """Whether ``module`` imported one of ``packages`` (or something from it)."""
    for value in vars(module).values():
        name = value.__name__ if isinstance(value, types.ModuleType) else getattr(value, "__module__", None)
        if isinstance(name, str) and name.split(".")[0] in packages:
            return True
    return False
