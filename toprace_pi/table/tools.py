"""The maker's tools: enrol the tags and calibrate the LEDs (the self-test is :mod:`toprace_pi.table.selftest`)."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from toprace_pi.files import write_atomically
from toprace_pi.hardware import HardwareError
from toprace_pi.hardware.calibrate import ProfileTarget, calibrate
from toprace_pi.hardware.events import ButtonPressed, DeviceStatus, Event
from toprace_pi.hardware.strip import open_strip
from toprace_pi.hardware.tags import Enrolment, Ident, TagBook, TagRegistry
from toprace_pi.table.config import TableConfig, main_reader
from toprace_pi.table.live import open_hub, open_reader
from toprace_pi.table.run import ReaderSlot

Say = Callable[[str], None]


def enrol(kind: str, config: TableConfig, say: Say, *, tags: TagBook[Ident], reader: Any = None, tick: float = 0.02,
          again: bool = False, clock: Callable[[], float] = time.monotonic) -> TagRegistry[Ident]:
    """Walk through the game's walk ``kind`` of ``tags`` (Top Race: ``"cards"``, ``"cars"``,
    ``"pitstops"``): each tag laid on the reader is taken for the item asked for and its record
    written where the tag takes one.

    The registry is saved after every tag, so an interrupted walk loses nothing
    and the next one goes on where it stopped (``again``: walk everything anew).
    A reader that fails is said, retried as the table retries it, and welcomed back."""
    registry = TagRegistry.load(config.registry, tags.vocabulary)
    wanted = tags.walks[kind]
    walk = Enrolment(wanted.identities, tags.vocabulary, known=registry)
    skipped = 0 if again else walk.resume()
    if skipped:
        say(f"{skipped} of {walk.total} are enrolled already (in {config.registry}): going on from there")
    opener = (lambda: reader) if reader is not None else lambda: _enrol_reader(wanted.reader, config)
    slot = ReaderSlot("enrolment", opener, clock)
    try:
        _walk(walk, slot, registry, config.registry, say, tick)
    finally:
        slot.close()
    say(f"saved {len(registry)} tags to {config.registry}")
    return registry


def _walk(
    walk: Enrolment[Ident], slot: ReaderSlot, registry: TagRegistry[Ident], path: Path, say: Say, tick: float
) -> None:
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


def _enrol_reader(name: str | None, config: TableConfig) -> Any:
    """The reader the walk names (if the table has it), else the game's main reader (Top Race's under the
    discard pile): on the Pi if it is there, else the hub."""
    by_name = {r.name: r for r in config.readers}
    wanted = by_name.get(name) if name is not None else None
    wanted = wanted or by_name.get(main_reader(config.game))
    if wanted is not None:
        return open_reader(wanted)()
    assert config.hub is not None, "a checked configuration has the game's main reader"
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


def calibrate_board(target: ProfileTarget, config: TableConfig, buttons: Iterator[str], say: Say) -> Path:
    """Light one LED at a time, assign each with NEXT/OK, and save the profile where ``target`` says."""
    strip = open_strip(config.strip, count=target.expected.led_count)
    try:
        profile = calibrate(target.board, strip, buttons, say=say, expected=target.expected)
    finally:
        strip.close()
    write_atomically(target.out, profile.to_toml())  # a power cut mid-write keeps the old profile
    if target.found_there:
        say(f"saved the profile to {target.out}, beside its track file: the table finds it there")
    else:
        say(f"saved the profile to {target.out}; set [files] profile = \"{target.out}\" in the config to use it")
    return target.out


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
