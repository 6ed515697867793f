"""The maker's tools: enrol the tags and calibrate the LEDs (the self-test is :mod:`toprace_pi.table.selftest`)."""

from __future__ import annotations

import json
import queue
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeGuard

from toprace_pi.errors import DataError, TopRaceError
from toprace_pi.files import write_atomically
from toprace_pi.hardware import HardwareError
from toprace_pi.hardware.calibrate import NEXT, OK, Calibration, ProfileTarget, calibrate
from toprace_pi.hardware.events import ButtonPressed, DeviceStatus, Event
from toprace_pi.hardware.keyboard import KeySource
from toprace_pi.hardware.readers import hub_opener, reader_opener
from toprace_pi.hardware.readers.simulated import SimulatedReader, TypedTags
from toprace_pi.hardware.strip import open_strip
from toprace_pi.hardware.tags import Enrolment, Ident, TagBook, TagRegistry
from toprace_pi.table.config import TableConfig, main_reader
from toprace_pi.table.run import ReaderSlot

Say = Callable[[str], None]
#: The version of a calibration walk's progress file.
PROGRESS_VERSION = 1


def enrol(kind: str, config: TableConfig, say: Say, *, tags: TagBook[Ident], reader: Any = None,
          keys: KeySource | None = None, tick: float = 0.02, again: bool = False,
          clock: Callable[[], float] = time.monotonic) -> TagRegistry[Ident]:
    """Walk through the game's walk ``kind`` of ``tags`` (Top Race: ``"cards"``, ``"cars"``,
    ``"pitstops"``): each tag laid on the reader is taken for the item asked for and its record
    written where the tag takes one. A simulated reader takes its tags from the ``keys``
    (:class:`~toprace_pi.hardware.readers.simulated.TypedTags`), so the walk can be tried without one.

    The registry is saved after every tag, so an interrupted walk loses nothing
    and the next one goes on where it stopped (``again``: walk everything anew).
    A reader that fails is said, retried as the table retries it, and welcomed back."""
    registry = TagRegistry.load(config.registry, tags.vocabulary)
    wanted = tags.walks[kind]
    opener = (lambda: reader) if reader is not None else _enrol_reader(wanted.reader, config, keys, say)
    walk = Enrolment(wanted.identities, tags.vocabulary, known=registry)
    skipped = 0 if again else walk.resume()
    if skipped:
        say(f"{skipped} of {walk.total} are enrolled already (in {config.registry}): going on from there")
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


def _enrol_reader(name: str | None, config: TableConfig, keys: KeySource | None, say: Say) -> Callable[[], Any]:
    """What opens the reader the walk names (if the table has it), else the game's main reader (Top Race's
    under the discard pile): on the Pi if it is there, else the hub. A simulated one lays a tag at each
    Enter typed on ``keys``; without keys (no terminal) nobody could lay one, which is said at once."""
    by_name = {r.name: r for r in config.readers}
    wanted = by_name.get(name) if name is not None else None
    wanted = wanted or by_name.get(main_reader(config.game))
    if wanted is None:
        assert config.hub is not None, "a checked configuration has the game's main reader"
        return hub_opener(config.hub)
    if wanted.kind != "simulated":
        return reader_opener(wanted)
    where = f'the {wanted.name} reader is simulated (kind = "simulated" under [readers.{wanted.name}])'
    if keys is None:
        raise TopRaceError(f"{where}: run the enrolment in a terminal, where Enter lays a tag on it")
    say(f"{where}: Enter lays a new made-up tag on it (Ctrl-C stops; the next run goes on from there)")
    typed = TypedTags(SimulatedReader(wanted.name), keys)
    return lambda: typed


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


def calibrate_board(target: ProfileTarget, config: TableConfig, buttons: Iterator[str], say: Say, *,
                    again: bool = False) -> Path:
    """Light one LED at a time, assign each with NEXT/OK, and save the profile where ``target`` says.

    Every press is kept beside it as it goes (:class:`WalkProgress`), so a walk cut short (Ctrl-C, the
    presses typed ending, a power cut) goes on where it stopped at the next run (``again``: from LED 0)."""
    strip = open_strip(config.strip, count=target.expected.led_count)
    progress = WalkProgress.of(target, strip.count)
    if again:
        progress.path.unlink(missing_ok=True)
    try:
        earlier = progress.load(say)
        profile = calibrate(target.board, strip, buttons, say=say, expected=target.expected, resume=earlier,
                            pressed=progress.save)
    except (DataError, KeyboardInterrupt):
        if progress.path.exists():
            say(f"the walk so far is kept in {progress.path}: the next run goes on from there")
        raise
    finally:
        strip.close()
    write_atomically(target.out, profile.to_toml())  # a power cut mid-write keeps the old profile
    progress.path.unlink(missing_ok=True)
    if target.found_there:
        say(f"saved the profile to {target.out}, beside its track file: the table finds it there")
    else:
        say(f"saved the profile to {target.out}; set [files] profile = \"{target.out}\" in the config to use it")
    return target.out


@dataclass(frozen=True)
class WalkProgress:
    """The presses of a calibration walk so far, kept in ``path`` (beside the profile it makes) after every
    press, written whole as every file of the table is. A walk of another board, strip length or order of
    cells (``order``, what the walk asks about) is another walk: its presses would land elsewhere."""

    path: Path
    board: str
    leds: int
    order: tuple[str, ...]

    @classmethod
    def of(cls, target: ProfileTarget, leds: int) -> WalkProgress:
        """The progress of ``target``'s walk on a strip of ``leds``, kept beside its profile as FILE.progress."""
        walk = Calibration(target.board, leds, expected=target.expected)
        return cls(target.out.with_name(f"{target.out.name}.progress"), target.board.slug, leds,
                   tuple(f"{t.kind} {t.key}" for t in walk.targets))

    def _names(self) -> dict[str, Any]:
        """What tells this walk in the file."""
        return {"version": PROGRESS_VERSION, "board": self.board, "leds": self.leds, "order": list(self.order)}

    def save(self, walk: Calibration) -> None:
        write_atomically(self.path, json.dumps(self._names() | {"presses": list(walk.presses)}) + "\n")

    def load(self, say: Say) -> list[str]:
        """The presses kept by an earlier run of this walk, said when there are any; none for a file
        that is not this walk's (said, and replaced at the first press)."""
        if not self.path.exists():
            return []
        try:
            kept = json.loads(self.path.read_text("utf-8"))
        except (OSError, ValueError) as exc:
            say(f"{self.path} cannot be read ({exc}): starting from LED 0")
            return []
        presses = kept.pop("presses", None) if isinstance(kept, dict) else None
        if kept != self._names() or not _are_presses(presses):
            say(f"{self.path} holds another walk (another board, strip length or order): starting from LED 0")
            return []
        assigned = presses.count(OK)
        say(f"going on with the walk kept in {self.path}: {len(presses)} of {self.leds} LEDs walked, {assigned} "
            "assigned (UNDO goes back into it; --again starts from LED 0)")
        return presses


def _are_presses(presses: object) -> TypeGuard[list[str]]:
    return isinstance(presses, list) and all(press in (OK, NEXT) for press in presses)


#: What a key typed for a button press means, when the buttons are simulated: ``n``, ``o`` or ``u`` and Enter.
TYPED_BUTTONS = {"n": "next", "o": "ok", "u": "undo"}


def typed_presses(lines: Iterable[str], say: Say) -> Iterator[str]:
    """The buttons typed on the keyboard, one a line: so a board is calibrated on simulated buttons (a strip
    on the Pi before its buttons are wired) as it is with real ones. How to type them is said at once,
    before the walk's first question."""
    say("the buttons are simulated: type n (NEXT), o (OK) or u (UNDO) and Enter for each press")
    return _typed(lines, say)


def _typed(lines: Iterable[str], say: Say) -> Iterator[str]:
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
