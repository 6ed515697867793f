"""The maker's tools: enrol tags, calibrate the LEDs, and self-test the hardware."""

from __future__ import annotations

import functools
import queue
import shutil
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toprace_pi.data import load_deck, load_track, track_names
from toprace_pi.errors import TopRaceError
from toprace_pi.files import write_atomically
from toprace_pi.hardware import HardwareError
from toprace_pi.hardware.calibrate import calibrate
from toprace_pi.hardware.events import BUTTONS, ButtonPressed, DeviceStatus, Event
from toprace_pi.hardware.gpio import gpio_missing, pins_simulated
from toprace_pi.hardware.profile import load_profile, profile_beside
from toprace_pi.hardware.sound import BuzzerSound, run_espeak
from toprace_pi.hardware.strip import open_strip
from toprace_pi.hardware.tags import Enrolment, TagRegistry
from toprace_pi.table.config import HubConfig, ReaderConfig, TableConfig
from toprace_pi.table.live import board_profile, open_buttons, open_hub, open_reader
from toprace_pi.table.run import ReaderSlot

Say = Callable[[str], None]
#: Seconds the self-test waits for each button.
BUTTON_WAIT = 15.0
#: Seconds the self-test waits for the reader hub's answer.
HUB_WAIT = 2.5
#: Seconds the self-test lets the buzzer's fanfare play.
BUZZER_WAIT = 5.0


def enrol(kind: str, config: TableConfig, say: Say, *, reader: Any = None, tick: float = 0.02,
          again: bool = False, clock: Callable[[], float] = time.monotonic) -> TagRegistry:
    """Walk through the configured deck (``kind="cards"``), its six car tokens
    (``"cars"``) or the pit stop cards, three per seat (``"pitstops"``): each tag
    laid on the reader is taken for the item asked for and its record written
    where the tag takes one.

    The registry is saved after every tag, so an interrupted walk loses nothing
    and the next one goes on where it stopped (``again``: walk everything anew).
    A reader that fails is said, retried as the table retries it, and welcomed back."""
    deck = load_deck(config.deck)
    registry = TagRegistry.load(config.registry, deck.cars)
    walks = {
        "cards": lambda: Enrolment.cards(deck, registry),
        "cars": lambda: Enrolment.cars(deck.cars, registry),
        "pitstops": lambda: Enrolment.pit_stops(len(config.players), registry),
    }
    walk = walks[kind]()
    skipped = 0 if again else walk.resume()
    if skipped:
        say(f"{skipped} of {walk.total} are enrolled already (in {config.registry}): going on from there")
    slot = ReaderSlot("enrolment", (lambda: reader) if reader is not None else lambda: _enrol_reader(kind, config),
                      clock)
    try:
        _walk(walk, slot, registry, config.registry, say, tick)
    finally:
        slot.close()
    say(f"saved {len(registry)} tags to {config.registry}")
    return registry


def _walk(walk: Enrolment, slot: ReaderSlot, registry: TagRegistry, path: Path, say: Say, tick: float) -> None:
    say(walk.prompt)
    while not walk.done:
        for event in slot.poll():
            if isinstance(event, DeviceStatus):
                say(event.message)
                continue
            taken = len(walk.enrolled)
            answer = walk.offer(event)
            if answer:
                say(answer)
            if len(walk.enrolled) > taken:
                entry = walk.enrolled[-1]
                registry.add(entry.uid, entry.identity)
                registry.save(path)  # as it goes: a glitch or Ctrl-C later loses nothing
                _write_record(slot.reader, entry.record, say)
                say(walk.prompt)
        time.sleep(tick)


def _enrol_reader(kind: str, config: TableConfig) -> Any:
    """The cars reader for car tokens, else the discard reader: on the Pi if it is there, else the hub."""
    by_name = {r.name: r for r in config.readers}
    wanted = by_name.get("cars") if kind == "cars" else None
    wanted = wanted or by_name.get("discard")
    if wanted is not None:
        return open_reader(wanted)()
    assert config.hub is not None, "a checked configuration has a discard reader"
    return open_hub(config.hub)()


def _write_record(reader: Any, record: str, say: Say) -> None:
    """Write the card's name onto an NTAG, so another table knows it without a registry."""
    if not hasattr(reader, "write_record"):
        say("(the reader hub writes no records: this tag is known by the registry only)")
        return
    try:
        if not reader.write_record(record):
            say("(this tag takes no record: it is known by its UID only)")
    except (HardwareError, OSError) as exc:
        say(f"(could not write the record: {exc})")


def calibrate_board(track_name: str, config: TableConfig, buttons: Iterator[str], say: Say,
                    out: Path | None = None) -> Path:
    """Light one LED at a time, assign each with NEXT/OK, and save the profile: by default beside a track
    file (where the table finds it by itself), or for a shipped track as ``TRACK.toml`` here."""
    track = load_track(track_name)
    default = load_profile(track.slug)
    beside = profile_beside(track.slug) if track_name not in track_names() else None
    out = out or beside or Path(f"{track_name}.toml")
    strip = open_strip(config.strip, count=default.led_count)
    try:
        profile = calibrate(track, strip, buttons, say=say, expected=default)
    finally:
        strip.close()
    write_atomically(out, profile.to_toml())  # a power cut mid-write keeps the old profile
    if beside is not None and out.resolve() == beside:
        say(f"saved the profile to {out}, beside its track file: the table finds it there")
    else:
        say(f"saved the profile to {out}; set [files] profile = \"{out}\" in the config to use it")
    return out


#: What a key typed for a button press means, when the buttons are simulated: ``n``, ``o`` or ``u`` and Enter.
TYPED_BUTTONS = {"n": "next", "o": "ok", "u": "undo"}


def typed_presses(lines: Iterable[str], say: Say) -> Iterator[str]:
    """The buttons typed on the keyboard, one a line: so a board is calibrated on simulated buttons (a strip
    on the Pi before its buttons are wired) as it is with real ones."""
    say("the buttons are simulated: type n (NEXT), o (OK) or u (UNDO) and Enter for each press")
    for line in lines:
        button = TYPED_BUTTONS.get(line.strip().lower()[:1])
        if button is None:
            say("type n, o or u")
        else:
            yield button


def button_presses(events: queue.Queue[Event]) -> Iterator[str]:
    """The buttons pressed, one name at a time, as they come."""
    while True:
        event = events.get()
        if isinstance(event, ButtonPressed):
            yield event.button


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
        if not self.detail:
            return f"{self.device}: {self.state}"
        return f"{self.device}: {self.state}: {self.detail}" if self.fails else f"{self.device}: {self.state} " \
            f"({self.detail})"


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


def _check_reader(config: ReaderConfig) -> Iterator[Finding]:
    device = f"{config.name} reader"
    if config.kind == "simulated":
        yield Finding(device, "simulated", f"kind = \"simulated\" under [readers.{config.name}] in the config")
        return
    try:
        reader = open_reader(config)()
        try:
            _, version, revision, _ = reader.firmware_version
        finally:
            reader.close()
    except (TopRaceError, OSError, RuntimeError, ValueError) as exc:
        yield Finding(device, "missing", str(exc))
        return
    yield Finding(device, "ok", f"PN532 firmware {version}.{revision} on {_link(config)}")


def _link(config: ReaderConfig) -> str:
    where = {"uart": config.port, "i2c": f"address {config.address:#04x}", "spi": f"chip select {config.cs_pin}"}
    return f"{config.bus.upper()} {where[config.bus]}"


def _check_hub(config: HubConfig, *, wait: float = HUB_WAIT) -> Iterator[Finding]:
    """Find the hub, ask for its readers' state, and name each reader as configured."""
    reader = open_hub(config)()
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
    backend = config.strip.get("backend", "simulated")
    if backend == "simulated":
        yield Finding("LED strip", "simulated", "backend = \"simulated\" under [strip] in the config")
        return
    try:
        profile = board_profile(config, load_track(config.track))
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
    if config.button_kind == "simulated":
        yield Finding("buttons", "simulated", "kind = \"simulated\" under [buttons] in the config")
        return
    events: queue.Queue[Event] = queue.Queue()
    try:
        buttons = open_buttons(config, events)
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
            yield Finding(f"{name.upper()} button (GPIO{config.buttons[name]})", "ok" if pressed else "missing",
                          "" if pressed else f"no press within {wait:g} s")


def _check_buzzer(config: TableConfig, simulated_pins: Callable[[], str | None]) -> Iterator[Finding]:
    pin = config.sound.get("buzzer")
    if pin is None:
        yield Finding("buzzer", "off", "no buzzer under [sound] in the config")
        return
    if (missing := gpio_missing()) is not None or (simulated := simulated_pins()) is None:
        try:
            _play_fanfare(int(pin), bool(config.sound.get("tonal", False)), missing)
        except (HardwareError, OSError, RuntimeError, ImportError) as exc:
            yield Finding("buzzer", "missing", str(exc))
            return
        yield Finding("buzzer", "ok", f"GPIO{pin}: listen for the fanfare")
    else:
        yield Finding("buzzer", "simulated", simulated)


def _play_fanfare(pin: int, tonal: bool, missing: str | None) -> None:
    """The finish fanfare, a tune or a rhythm to tell by ear, played to its end."""
    if missing is not None:
        raise HardwareError(missing)
    with BuzzerSound(pin, tonal=tonal) as buzzer:
        buzzer.finish(1)
        buzzer.wait_idle(BUZZER_WAIT)


def _check_speech(config: TableConfig) -> Iterator[Finding]:
    if not config.sound.get("speech", True):
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
