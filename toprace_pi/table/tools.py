"""The maker's tools: enrol tags, calibrate the LEDs, and self-test the hardware."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from toprace_pi.data import load_deck, load_track, track_names
from toprace_pi.errors import TopRaceError
from toprace_pi.files import write_atomically
from toprace_pi.hardware import HardwareError
from toprace_pi.hardware.calibrate import calibrate
from toprace_pi.hardware.events import BUTTONS, ButtonPressed, DeviceStatus, Event
from toprace_pi.hardware.profile import load_profile, profile_beside
from toprace_pi.hardware.strip import open_strip
from toprace_pi.hardware.tags import Enrolment, TagRegistry
from toprace_pi.table.config import HubConfig, ReaderConfig, TableConfig
from toprace_pi.table.live import open_hub, open_reader
from toprace_pi.table.run import ReaderSlot

Say = Callable[[str], None]
#: Seconds the self-test waits for each button.
BUTTON_WAIT = 15.0
#: Seconds the self-test waits for the reader hub's answer.
HUB_WAIT = 2.5


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


def button_presses(events: queue.Queue[Event]) -> Iterator[str]:
    """The buttons pressed, one name at a time, as they come."""
    while True:
        event = events.get()
        if isinstance(event, ButtonPressed):
            yield event.button


def self_test(config: TableConfig, say: Say, *, button_wait: float = BUTTON_WAIT) -> int:
    """``toprace-pi check``: find each reader, chase the LEDs, wait for each button.
    Returns the number of problems found."""
    problems = sum(_check_reader(r, say) for r in config.readers)
    problems += _check_hub(config.hub, say) if config.hub is not None else 0
    problems += _chase(config, say)
    problems += _check_buttons(config, say, button_wait)
    say("all hardware answered" if not problems else f"{problems} problem(s) found")
    return problems


def _check_reader(config: ReaderConfig, say: Say) -> int:
    try:
        reader = open_reader(config)()
    except (TopRaceError, OSError, RuntimeError, ValueError) as exc:
        say(f"{config.name} reader: MISSING ({exc})")
        return 1
    version = getattr(reader, "firmware_version", None)
    say(f"{config.name} reader: found ({config.kind}{f', firmware {version}' if version else ''})")
    reader.close()
    return 0


def _check_hub(config: HubConfig, say: Say, *, wait: float = HUB_WAIT) -> int:
    """Find the hub, ask for its readers' state, and name each reader as configured."""
    reader = open_hub(config)()
    try:
        reader.poll()
        reader.request_status()
        deadline = time.monotonic() + wait
        while reader.status is None and time.monotonic() < deadline:
            reader.poll()
    except HardwareError as exc:
        say(f"reader hub: MISSING ({exc})")
        return 1
    finally:
        reader.close()
    if reader.status is None:
        say(f"reader hub: no answer to STATUS? within {wait:g} s (is the firmware from firmware/ installed?)")
        return 1
    if reader.hello is not None:
        version, count = reader.hello
        say(f"reader hub: found on {reader.device} (protocol {version}, {count} readers)")
    states = dict(enumerate(reader.status))
    for index, name in enumerate(config.readers):
        say(f"{name} reader (hub reader {index}): {states.get(index, 'not connected to the hub')}")
    return sum(states.get(index) != "ok" for index in range(len(config.readers)))


def _chase(config: TableConfig, say: Say) -> int:
    profile = load_profile(config.profile_name)
    strip = open_strip(config.strip, count=profile.led_count)
    try:
        for led in range(strip.count):
            strip.show([(255, 255, 255) if n == led else (0, 0, 0) for n in range(strip.count)])
            time.sleep(0.005)
        strip.show([(0, 0, 0)] * strip.count)
    except (HardwareError, OSError) as exc:
        say(f"LED strip: FAILED ({exc})")
        return 1
    finally:
        strip.close()
    say(f"LED strip: chase over {strip.count} LEDs done ({strip!r})")
    return 0


def _check_buttons(config: TableConfig, say: Say, wait: float) -> int:
    from toprace_pi.hardware.buttons import TableButtons

    events: queue.Queue[Event] = queue.Queue()
    try:
        buttons = TableButtons(config.buttons, events, hold_time=config.hold_time)
    except (TopRaceError, OSError, RuntimeError, ImportError) as exc:
        say(f"buttons: MISSING ({exc})")
        return 1
    missing = 0
    with buttons:
        for name in BUTTONS:
            say(f"press {name.upper()}{' (hold it)' if name == 'undo' else ''}")
            if _wait_for(events, name, wait):
                say(f"{name.upper()}: ok")
            else:
                say(f"{name.upper()}: no press within {wait:g} s")
                missing += 1
    return missing


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
