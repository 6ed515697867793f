"""The table on real devices: ``toprace-pi play`` and ``toprace-pi check``.

Each device is opened from the configuration; one that is missing is reported
and the table starts without it (readers are retried until they answer, the
strip falls back to a simulated one, a table without buttons says so).
"""

from __future__ import annotations

import functools
import logging
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from toprace_pi import service
from toprace_pi.core import registry
from toprace_pi.errors import TopRaceError
from toprace_pi.hardware import HardwareError
from toprace_pi.hardware.buttons import Buttons, open_buttons
from toprace_pi.hardware.events import Event
from toprace_pi.hardware.keyboard import Keyboard, KeyMap, TerminalKeys, on_a_terminal
from toprace_pi.hardware.readers import hub_opener, reader_opener
from toprace_pi.hardware.sound import SilentSound, Sound, open_sound
from toprace_pi.hardware.sound.speech import Announcer
from toprace_pi.hardware.strip import open_strip
from toprace_pi.hardware.tags import TagRegistry, Vocabulary
from toprace_pi.render.ansi import ColourMode, colour_mode
from toprace_pi.table.bots import BotSeats
from toprace_pi.table.config import TableConfig
from toprace_pi.table.controller import TableController
from toprace_pi.table.garbage import collections_between_steps
from toprace_pi.table.journal import Journal, applied_steps, archive, load
from toprace_pi.table.lock import TableLock
from toprace_pi.table.run import ReaderSlot, StripSlot, Table
from toprace_pi.table.screen import DemoScreen
from toprace_pi.table.side import TableLights

log = logging.getLogger(__name__)

#: Seconds between two rounds of polling when nothing is happening.
TICK = 0.01
#: How long a table that cannot start waits for the speaker to say why (seconds).
SPEAK_BEFORE_EXIT = 15.0


def reader_slots(config: TableConfig, clock: Callable[[], float]) -> list[ReaderSlot]:
    """A slot for each reader on the Pi, and one for the reader hub with all of its readers."""
    slots = [ReaderSlot(r.name, reader_opener(r), clock) for r in config.readers]
    if config.hub is not None:
        slots.append(ReaderSlot("hub", hub_opener(config.hub), clock))
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
    announcer = Announcer(speech=config.sound.speech)
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
    terminal = _keyboard(side, game, profile, announcer) if config.keyboard else None
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
                                 repeat_prompt=config.sound.repeat_prompt,
                                 clock=clock, journal=journal, inputs=inputs, side=side)
    slots = reader_slots(config, clock)
    if terminal is not None:
        slots.append(terminal.keys(clock))
    strip = open_strip(config.strip, count=profile.led_count)
    table = Table(controller, controller.side.view(profile), slots, StripSlot(strip), events, clock=clock)
    closers.append(table.close)
    if terminal is not None:
        table.watchers.append(functools.partial(terminal.draw, table))
        closers.append(terminal.screen.scroll)
    if config.bots.seats:
        table.watchers.append(_bot_seats(config, controller, events).watch)
    if pages is not None:
        closers.extend(pages(config, table, announcer, new_game=inputs == 0))
    return LiveTable(table, announcer, closers)


@dataclass
class TerminalTable:
    """``[keyboard] enabled``, the table running in a terminal: its keys stand in for the buttons and
    readers, and the terminal shows the game as the demo does after every step (the board, the
    standings, what the table said, the keys), as everyone at the table may see it."""

    side: TableLights[Any]
    key_map: KeyMap
    profile: Any
    screen: DemoScreen
    colour: ColourMode
    #: What the screen last showed: the game and its length, and (redrawn in place) the sentences said.
    _shown: tuple[int, ...] = ()
    _said: int = 0

    def keys(self, clock: Callable[[], float]) -> ReaderSlot:
        """The terminal's keys as an input device, read one at a time from now on until the table closes it."""
        keyboard = Keyboard(TerminalKeys(), self.key_map)
        return ReaderSlot(keyboard.name, lambda: keyboard, clock)

    def echo(self, text: str) -> None:
        """What the table says goes below the board; until it is drawn, on a line of its own too (a table
        that cannot start says why)."""
        if self.screen.live and not self._shown:
            self.screen.write(text + "\n")
        self.screen.news(text)
        self._said += 1

    def draw(self, table: Table) -> None:
        """After a step of ``table``: the game drawn again if it moved on or took an input (a NEXT moves the
        lit cursor), or, in place, said something."""
        game = table.controller.game
        shown = (id(game), len(game.log), table.controller.inputs, self._said if self.screen.live else 0)
        if shown == self._shown:
            return
        self._shown = shown
        board, standings = self.side.terminal(game, self.profile, table.steady(), colour=self.colour,
                                              width=self.screen.width)
        self.screen.show(board, standings, [self.key_map.help], new_turn=True)


def _keyboard(side: TableLights[Any], game: Any, profile: Any, announcer: Announcer) -> TerminalTable | None:
    """``[keyboard] enabled``: the table's terminal, if it runs in one; from now on what the table says goes to
    its screen (its keys are read once the table is set up: a table that cannot start leaves the terminal
    as it was)."""
    if not on_a_terminal():
        announcer.say("the keyboard is configured, but the table does not run in a terminal: it plays on without it")
        return None
    screen = DemoScreen(lambda text: print(text, end="", flush=True), live=sys.stdout.isatty())
    terminal = TerminalTable(side, side.key_map(game), profile, screen, colour_mode(sys.stdout))
    announcer.echo = terminal.echo
    return terminal


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


def _buttons(config: TableConfig, events: queue.Queue[Event], announcer: Announcer) -> Buttons | None:
    """The table's buttons (none of the simulated kind); ones that cannot be opened are said, and the table plays
    on without them."""
    try:
        return open_buttons(config.buttons, events)
    except (HardwareError, OSError, RuntimeError, ImportError) as exc:
        announcer.say(f"the buttons cannot be used ({exc}): the table plays on without them")
        return None


def _sound(config: TableConfig, announcer: Announcer) -> Sound:
    """The table's sound; a buzzer that cannot be opened is said, and the table plays on silent."""
    try:
        return open_sound(config.sound)
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
