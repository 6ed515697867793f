"""``toprace-pi check``: every device of the table tested and said on a line of its own.

A device is ``ok``, ``missing`` (and why), ``simulated`` (a stand-in where a real device belongs: set so in
the config, a strip that fell back, gpiozero's mock pins) or ``off`` (left out on purpose). The check fails
when any is missing or simulated, since a table that plays on a stand-in is not ready for a game.
"""

from __future__ import annotations

import functools
import queue
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from toprace_pi.core import registry
from toprace_pi.errors import TopRaceError
from toprace_pi.hardware import HardwareError
from toprace_pi.hardware.buttons import open_buttons
from toprace_pi.hardware.events import BUTTONS, ButtonPressed, Event
from toprace_pi.hardware.gpio import gpio_missing, pins_simulated
from toprace_pi.hardware.readers import HubSettings, Pn532Reader, ReaderSettings, hub_opener, reader_opener
from toprace_pi.hardware.sound import BuzzerSound
from toprace_pi.hardware.sound.speech import run_espeak
from toprace_pi.hardware.strip import open_strip
from toprace_pi.table.config import TableConfig

Say = Callable[[str], None]
#: Seconds the self-test waits for each button.
BUTTON_WAIT = 15.0
#: Seconds the self-test waits for the reader hub's answer.
HUB_WAIT = 2.5
#: Seconds the self-test lets the buzzer's fanfare play.
BUZZER_WAIT = 5.0


@dataclass(frozen=True)
class Finding:
    """What the self-test found of one device. ``missing`` and ``simulated`` fail the test (a table that
    would play on a stand-in is not ready); ``off`` is a device the config leaves out on purpose."""

    device: str
    state: str
    detail: str = ""

    @property
    def fails(self) -> bool:
        return self.state in ("missing", "simulated")

    def __str__(self) -> str:
        """``discard reader: missing: why``; ``buzzer: ok (GPIO12: ...)``."""
        if not self.detail:
            return f"{self.device}: {self.state}"
        if self.fails:
            return f"{self.device}: {self.state}: {self.detail}"
        return f"{self.device}: {self.state} ({self.detail})"


Check = Callable[[], Iterator[Finding]]


def self_test(config: TableConfig, say: Say, *, button_wait: float = BUTTON_WAIT,
              simulated_pins: Callable[[], str | None] = pins_simulated) -> int:
    """``toprace-pi check``: every device of the config, each on a line of its own, however many are
    missing: the readers (and the hub's), the LED chase, each button pressed, the buzzer and speech.
    ``simulated_pins`` says why gpiozero's pins are not the Pi's (tests treat mock pins as real ones).
    Returns how many devices are missing or simulated."""
    checks: list[Check] = [functools.partial(_check_reader, r) for r in config.readers]
    if config.hub is not None:
        checks.append(functools.partial(_check_hub, config.hub))
    checks += [functools.partial(_chase, config),
               functools.partial(_check_buttons, config, say, button_wait, simulated_pins),
               functools.partial(_check_buzzer, config, simulated_pins),
               functools.partial(_check_speech, config)]
    failed = 0
    for check in checks:
        for finding in check():
            say(str(finding))
            failed += finding.fails
    say("every device answered" if not failed else f"{failed} device(s) missing or simulated: the check fails")
    return failed


def _check_reader(config: ReaderSettings) -> Iterator[Finding]:
    device = f"{config.name} reader"
    if config.kind == "simulated":
        yield Finding(device, "simulated", f"kind = \"simulated\" under [readers.{config.name}] in the config")
        return
    try:
        reader = reader_opener(config)()
        assert isinstance(reader, Pn532Reader)  # the kind is not simulated
        try:
            _, version, revision, _ = reader.firmware_version
        finally:
            reader.close()
    except (TopRaceError, OSError, RuntimeError, ValueError) as exc:
        yield Finding(device, "missing", str(exc))
        return
    yield Finding(device, "ok", f"PN532 firmware {version}.{revision} on {_link(config)}")


def _link(config: ReaderSettings) -> str:
    where = {"uart": config.port, "i2c": f"address {config.address:#04x}", "spi": f"chip select {config.cs_pin}"}
    return f"{config.bus.upper()} {where[config.bus]}"


def _check_hub(config: HubSettings, *, wait: float = HUB_WAIT) -> Iterator[Finding]:
    """Find the hub, ask for its readers' state, and name each reader as configured."""
    reader = hub_opener(config)()
    try:
        reader.poll()
        reader.request_status()
        deadline = time.monotonic() + wait
        while reader.status is None and time.monotonic() < deadline:
            reader.poll()
    except HardwareError as exc:
        yield Finding("reader hub", "missing", str(exc))
        return
    finally:
        reader.close()
    if reader.status is None:
        yield Finding("reader hub", "missing", f"no answer to STATUS? within {wait:g} s (is the firmware from "
                                               "firmware/ installed?)")
        return
    version, count = reader.hello or ("?", "?")
    yield Finding("reader hub", "ok", f"on {reader.device}, protocol {version}, {count} readers")
    states = dict(enumerate(reader.status))
    for index, name in enumerate(config.readers):
        state = states.get(index, "not connected to the hub")
        yield Finding(f"{name} reader (hub reader {index})", "ok" if state == "ok" else "missing",
                      "" if state == "ok" else state)


def _chase(config: TableConfig) -> Iterator[Finding]:
    backend = config.strip.backend
    if backend == "simulated":
        yield Finding("LED strip", "simulated", "backend = \"simulated\" under [strip] in the config")
        return
    try:
        _, game = config.settings.new_game()
        profile = registry.get(config.game).table(config.settings).board_profile(config.profile, game)
        strip = open_strip(config.strip, count=profile.led_count)
    except TopRaceError as exc:
        yield Finding("LED strip", "missing", str(exc))
        return
    try:
        stands_in = getattr(strip.strip, "stands_in", None)
        if stands_in is None:
            _light_one_by_one(strip)
    except (HardwareError, OSError) as exc:
        stands_in = str(exc)
    finally:
        strip.close()
    if stands_in is not None:
        yield Finding("LED strip", "missing", f"{stands_in} (the table would play on a simulated strip)")
    else:
        yield Finding("LED strip", "ok", f"{backend}: each of the {strip.count} LEDs lit white in turn")


def _light_one_by_one(strip: Any) -> None:
    for led in range(strip.count):
        strip.show([(255, 255, 255) if n == led else (0, 0, 0) for n in range(strip.count)])
        time.sleep(0.005)
    strip.show([(0, 0, 0)] * strip.count)


def _check_buttons(config: TableConfig, say: Say, wait: float,
                   simulated_pins: Callable[[], str | None]) -> Iterator[Finding]:
    if config.buttons.kind == "simulated":
        yield Finding("buttons", "simulated", "kind = \"simulated\" under [buttons] in the config")
        return
    events: queue.Queue[Event] = queue.Queue()
    try:
        buttons = open_buttons(config.buttons, events)
        assert buttons is not None  # the kind is not simulated
    except (TopRaceError, OSError, RuntimeError, ImportError) as exc:
        yield Finding("buttons", "missing", str(exc))
        return
    with buttons:
        if (simulated := simulated_pins()) is not None:
            yield Finding("buttons", "simulated", simulated)
            return
        for name in BUTTONS:
            say(f"press {name.upper()}{' (hold it)' if name == 'undo' else ''}")
            pressed = _wait_for(events, name, wait)
            yield Finding(f"{name.upper()} button (GPIO{config.buttons.pins[name]})", "ok" if pressed else "missing",
                          "" if pressed else f"no press within {wait:g} s")


def _check_buzzer(config: TableConfig, simulated_pins: Callable[[], str | None]) -> Iterator[Finding]:
    pin = config.sound.buzzer
    if pin is None:
        yield Finding("buzzer", "off", "no buzzer under [sound] in the config")
    elif (missing := gpio_missing()) is not None:
        yield Finding("buzzer", "missing", missing)
    elif (simulated := simulated_pins()) is not None:
        yield Finding("buzzer", "simulated", simulated)
    else:
        try:
            _play_fanfare(pin, config.sound.tonal)
        except (HardwareError, OSError, RuntimeError, ImportError) as exc:
            yield Finding("buzzer", "missing", str(exc))
            return
        yield Finding("buzzer", "ok", f"GPIO{pin}: listen for the fanfare")


def _play_fanfare(pin: int, tonal: bool) -> None:
    """The finish fanfare, a tune or a rhythm to tell by ear, played to its end."""
    with BuzzerSound(pin, tonal=tonal) as buzzer:
        buzzer.finish(1)
        buzzer.wait_idle(BUZZER_WAIT)


def _check_speech(config: TableConfig) -> Iterator[Finding]:
    if not config.sound.speech:
        yield Finding("speech", "off", "speech = false under [sound] in the config")
        return
    program = shutil.which("espeak-ng")
    if program is None:
        yield Finding("speech", "missing", "espeak-ng is not installed (sudo apt install espeak-ng)")
        return
    run_espeak([program, "--stdin"], "the table can speak")
    yield Finding("speech", "ok", f"{program}: listen for \"the table can speak\"")


def _wait_for(events: queue.Queue[Event], name: str, wait: float) -> bool:
    deadline = time.monotonic() + wait
    while (left := deadline - time.monotonic()) > 0:
        try:
            event = events.get(timeout=left)
        except queue.Empty:
            return False
        if isinstance(event, ButtonPressed) and event.button == name:
            return True
    return False
