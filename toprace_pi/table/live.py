"""The table on real devices: ``toprace-pi play`` and ``toprace-pi check``.

Each device is opened from the configuration; one that is missing is reported
and the table starts without it (readers are retried until they answer, the
strip falls back to a simulated one, a table without buttons says so).
"""

from __future__ import annotations

import logging
import queue
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from toprace_pi import service
from toprace_pi.core import registry
from toprace_pi.errors import TopRaceError
from toprace_pi.hardware import HardwareError
from toprace_pi.hardware.events import Event
from toprace_pi.hardware.gpio import gpio_missing
from toprace_pi.hardware.keyboard import KeyMap
from toprace_pi.hardware.simulated import SimulatedReader
from toprace_pi.hardware.sound import Announcer, BuzzerSound, SilentSound
from toprace_pi.hardware.strip import open_strip
from toprace_pi.hardware.tags import TagRegistry, Vocabulary
from toprace_pi.table.bots import BotSeats
from toprace_pi.table.config import HubConfig, ReaderConfig, TableConfig
from toprace_pi.table.controller import TableController
from toprace_pi.table.garbage import collections_between_steps
from toprace_pi.table.journal import Journal, applied_steps, archive, load
from toprace_pi.table.lock import TableLock
from toprace_pi.table.run import ReaderSlot, StripSlot, Table

log = logging.getLogger(__name__)

#: Seconds between two rounds of polling when nothing is happening.
TICK = 0.01
#: How long a table that cannot start waits for the speaker to say why (seconds).
SPEAK_BEFORE_EXIT = 15.0


def open_reader(config: ReaderConfig) -> Callable[[], Any]:
    """A function that opens the configured reader (called again after a failure)."""
    if config.kind == "simulated":
        reader = SimulatedReader(config.name)
        return lambda: reader

    def opener() -> Any:
        from toprace_pi.hardware.pn532 import Pn532Reader

        return Pn532Reader(config.name, bus=config.bus, port=config.port, address=config.address,  # type: ignore[arg-type]
                           cs_pin=config.cs_pin)

    return opener


def open_hub(config: HubConfig) -> Callable[[], Any]:
    """A function that opens the reader hub (it connects, and finds the hub, at its first poll)."""

    def opener() -> Any:
        from toprace_pi.hardware.hub import HubReader

        return HubReader(dict(enumerate(config.readers)), port=config.port)

    return opener


def reader_slots(config: TableConfig, clock: Callable[[], float]) -> list[ReaderSlot]:
    """A slot for each reader on the Pi, and one for the reader hub with all of its readers."""
    slots = [ReaderSlot(r.name, open_reader(r), clock) for r in config.readers]
    if config.hub is not None:
        slots.append(ReaderSlot("hub", open_hub(config.hub), clock))
    return slots


@dataclass
class LiveTable:
    table: Table
    announcer: Announcer
    closers: list[Callable[[], None]] = field(default_factory=list)

    def close(self) -> None:
        for close in reversed(self.closers):
            try:
                close()
            except (TopRaceError, OSError) as exc:
                log.warning("closing: %s", exc)


def open_game(config: TableConfig, say: Callable[[str], None], *, new: bool = False) -> tuple[Any, Journal, int]:
    """The game in progress from the journal, or a new one (``new``, no journal, or
    the journal's game is over); an old journal is archived, never deleted.
    Returns the game, its open journal and how many inputs it had taken."""
    path = config.journal
    if path.exists() and not new:
        loaded = load(path)
        for warning in loaded.warnings:
            say(warning)
        game = loaded.game
        for _ in applied_steps(game, loaded, path):
            pass
        if not game.is_over:
            journal, _ = Journal.resume(path, loaded)
            say(f"resumed the game from {path} after {len(loaded.steps)} steps")
            return game, journal, loaded.last_input or 0
    if path.exists():
        say(f"a new game: the old journal is kept as {archive(path)}")
    settings, game = config.settings.new_game()
    return game, Journal.create(path, settings, game=config.game), 0


#: What opens the table's web pages (``[web]``) once it is set up: ``pages(config, table, announcer, new_game=...)``
#: returns what closes them (the layer above the table brings it: :func:`toprace_pi.web.live.open_pages`).
Pages = Callable[..., list[Callable[[], None]]]


def open_table(config: TableConfig, *, clock: Callable[[], float] = time.monotonic, new: bool = False,
               pages: Pages | None = None) -> LiveTable:
    """Open every device of ``config`` and the game: the one in progress, or a new one; and the web ``pages``."""
    announcer = Announcer(speech=bool(config.sound.get("speech", True)))
    try:
        lock = TableLock(config.journal)
    except (TopRaceError, OSError) as exc:
        _cannot_start(announcer, exc)
        raise
    try:
        game, journal, inputs = open_game(config, announcer.say, new=new)
    except BaseException as exc:
        lock.close()
        if isinstance(exc, (TopRaceError, OSError)):
            _cannot_start(announcer, exc)
        raise
    side = registry.get(config.game).table(config.settings)
    profile = side.board_profile(config.profile, game)
    tags = _registry(config, side.vocabulary(game), announcer)
    events: queue.Queue[Event] = queue.Queue()
    closers: list[Callable[[], None]] = [lock.close, announcer.close]
    buttons = _buttons(config, events, announcer)
    if buttons is not None:
        closers.append(buttons.close)
    sound = _sound(config, announcer)
    closers.append(sound.close)
    closers.append(journal.close)
    controller = TableController(game, identify=tags.identify, say=announcer.say,
                                 ask=lambda text: announcer.say(text, prompt=True), sound=sound,
                                 repeat_prompt=float(config.sound.get("repeat_prompt", 0.0)),
                                 clock=clock, journal=journal, inputs=inputs, side=side)
    slots = reader_slots(config, clock)
    if config.keyboard:
        slots.extend(_keyboard(side.key_map(game), clock, announcer))
    strip = open_strip(config.strip, count=profile.led_count)
    table = Table(controller, controller.side.view(profile), slots, StripSlot(strip), events, clock=clock)
    closers.append(table.close)
    if config.bots.seats:
        table.watchers.append(_bot_seats(config, controller, events).watch)
    if pages is not None:
        closers.extend(pages(config, table, announcer, new_game=inputs == 0))
    return LiveTable(table, announcer, closers)


def _keyboard(key_map: KeyMap, clock: Callable[[], float], announcer: Announcer) -> list[ReaderSlot]:
    """``[keyboard] enabled``: the terminal's keys as one more input device, if there is a terminal."""
    from toprace_pi.hardware.keyboard import Keyboard, TerminalKeys

    keys = TerminalKeys()
    if not keys.is_terminal:
        announcer.say("the keyboard is configured, but the table does not run in a terminal: it plays on without it")
        return []
    keyboard = Keyboard(keys, key_map)
    log.info("the keyboard stands in for the buttons and readers; %s", key_map.help)
    return [ReaderSlot(keyboard.name, lambda: keyboard, clock)]


def _cannot_start(announcer: Announcer, exc: Exception) -> None:
    """Say aloud why the table cannot start (under systemd nobody reads the terminal);
    the command line prints the same and exits with code 2."""
    announcer.say(f"the table cannot start: {exc.strerror if isinstance(exc, OSError) and exc.strerror else exc}")
    announcer.wait_idle(SPEAK_BEFORE_EXIT)
    announcer.close()


def _registry(config: TableConfig, vocabulary: Vocabulary[Any], announcer: Announcer) -> TagRegistry[Any]:
    """The enrolled tags, in the words of the game's vocabulary (a resumed game keeps its own deck's)."""
    if not config.registry.exists():
        announcer.say(f"no tags are enrolled yet ({config.registry}): run toprace-pi enrol")
        return TagRegistry(vocabulary=vocabulary)
    return TagRegistry.load(config.registry, vocabulary)


def open_buttons(config: TableConfig, events: queue.Queue[Event]) -> Any:
    """The buttons on the Pi's GPIO. Off a Pi, :class:`HardwareError` (and :func:`gpio_missing` says how to go on)."""
    from toprace_pi.hardware.buttons import TableButtons

    if (missing := gpio_missing()) is not None:
        raise HardwareError(missing)
    return TableButtons(config.buttons, events, hold_time=config.hold_time)


def _buttons(config: TableConfig, events: queue.Queue[Event], announcer: Announcer) -> Any:
    """The table's buttons; none for ``[buttons] kind = "simulated"``: nobody could press them (and
    gpiozero, a seventh of the start-up on mock pins, is not imported for them)."""
    if config.button_kind == "simulated":
        return None
    try:
        return open_buttons(config, events)
    except (HardwareError, OSError, RuntimeError, ImportError) as exc:
        announcer.say(f"the buttons cannot be used ({exc}): the table plays on without them")
        return None


def _sound(config: TableConfig, announcer: Announcer) -> Any:
    pin = config.sound.get("buzzer")
    if pin is None:
        return SilentSound()
    try:
        if (missing := gpio_missing()) is not None:
            raise HardwareError(missing)
        return BuzzerSound(int(pin), tonal=bool(config.sound.get("tonal", False)))
    except (HardwareError, OSError, RuntimeError, ImportError) as exc:
        announcer.say(f"the buzzer cannot be used ({exc})")
        return SilentSound()


def _bot_seats(config: TableConfig, controller: TableController, events: queue.Queue[Event]) -> BotSeats:
    """The seats ``[bots]`` names, each played by the game's search bot."""
    make = registry.get(config.game).search_bot
    assert make is not None  # the config refuses bot seats of a game without one
    seats = [controller.game.names.index(name) for name in config.bots.seats]
    return BotSeats(controller, seats, lambda seat: make(seat + 1, config.bots.strength), events)


def run_table(config: TableConfig, *, stop: threading.Event | None = None, new: bool = False,
              pages: Pages | None = None) -> int:
    """Run the table until stopped (SIGTERM, SIGINT or ``stop``), telling systemd
    it is ready and pinging its watchdog."""
    stop = stop or threading.Event()
    if threading.current_thread() is threading.main_thread():
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: stop.set())
    live = open_table(config, new=new, pages=pages)
    watchdog = service.Watchdog()
    try:
        with collections_between_steps(freeze=True):
            service.ready("the table is ready")
            live.announcer.say("the table is ready")
            while not stop.is_set():
                live.table.step()
                watchdog.ping_if_due()
                time.sleep(TICK)
    finally:
        service.stopping()
        live.close()
    return 0
