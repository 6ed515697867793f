"""The demo harness, for any game: a table of simulated devices around a real controller.

Everything between the players and the rules is the product's own path: players
(bots, or people at the keyboard) lay tags on simulated card readers and press the
buttons through gpiozero's mock pins, the :class:`~toprace_pi.table.run.Table`
polls the readers and hands the events to the controller, and the strip shows the
frames the game's view composes. A game brings its readers' roles, its tags, its
players and how it is drawn (see ``games/*/table/demo.py``); this module wires the
devices, paces the play and stops it when asked.
"""

from __future__ import annotations

import functools
import queue
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from toprace_pi.errors import TopRaceError
from toprace_pi.hardware.buttons import DEFAULT_PINS, TableButtons
from toprace_pi.hardware.events import Event
from toprace_pi.hardware.keyboard import HELD_UNDO, KeySource
from toprace_pi.hardware.readers.simulated import SimulatedReader
from toprace_pi.hardware.strip import SimulatedStrip, StripSettings, capped
from toprace_pi.table.controller import TableController
from toprace_pi.table.garbage import collections_between_steps
from toprace_pi.table.run import ReaderSlot, StripSlot, Table

#: The demo's buttons on gpiozero mock pins: the table's default GPIOs.
DEMO_PINS = DEFAULT_PINS
#: A bound on one game's inputs: a table that stops making progress is a bug.
MAX_INPUTS = 200_000
#: Seconds between two looks at the devices while a human thinks or the demo is paused.
IDLE_TICK = 0.02
#: Keys of the demo, never the table's: pause or go on, one step while paused, quit.
PAUSE, STEP, QUIT = " ", ".", "q"
DEMO_KEYS = (PAUSE, STEP, QUIT)


class TagSpot(Protocol):
    """Where a player lays a tag: a simulated reader, or the field of a reader behind a reader hub."""

    def lay(self, uid: bytes) -> None: ...
    def lift(self) -> None: ...


class Console(Protocol):
    """The keyboard of the demo, as the harness sees it: the demo's own keys, and a note to show."""

    name: str
    demo_keys: list[str]
    note: str
    controller: TableController | None

    def changed(self) -> None: ...
    def poll(self) -> list[Event]: ...
    def close(self) -> None: ...


@dataclass
class Pages(Protocol):
    """The web pages of a table (a :class:`~toprace_pi.web.live.TableWeb`), as the demo sees them."""

    def close(self) -> None: ...


@dataclass
class DemoReaders:
    """The demo's card readers by role: where the players lay tags, and the slots the table polls."""

    spots: dict[str, TagSpot]
    slots: list[ReaderSlot]
    #: Runs before each look of the table at its readers: a reader hub polls its readers here.
    before_step: Callable[[], None] = lambda: None

    @classmethod
    def simulated(cls, clock: Callable[[], float], roles: Mapping[str, bool]) -> DemoReaders:
        """A simulated reader for each role, ``True`` for a reader under a pile of cards."""
        readers = {name: SimulatedReader(name, pile=pile) for name, pile in roles.items()}
        slots = [ReaderSlot(name, functools.partial(_same, reader), clock) for name, reader in readers.items()]
        return cls(dict(readers), slots)


def _same(reader: SimulatedReader) -> SimulatedReader:
    return reader


class DemoStopped(Exception):
    """The watcher pressed the quit key."""


@dataclass
class DemoTable:
    """A table of simulated devices around a real controller."""

    table: Table
    readers: DemoReaders
    buttons: TableButtons
    strip: SimulatedStrip
    pins: dict[str, Any]
    #: The keyboard, for human seats and the demo's own keys; ``None`` when nobody types.
    console: Console | None = None
    #: The table's web pages (``demo --web``), closed with the table.
    web: Pages | None = None

    @property
    def controller(self) -> TableController:
        return self.table.controller

    def spot(self, role: str) -> TagSpot:
        return self.readers.spots[role]

    def step(self) -> None:
        """The table looks at its devices once, and the players wait as long as it tries to save a step."""
        self._look()
        self.wait_while_saving()

    def wait_while_saving(self) -> None:
        """While the table tries again to save a step its journal refused, the players wait, as people
        do when the table says so (a card laid stays where it is), and the table looks at its devices."""
        while self.controller.unsaved is not None:
            self._pause()
            self._look()

    def _look(self) -> None:
        self.readers.before_step()
        self.table.step()

    def idle(self) -> None:
        """A moment passes while someone thinks: the table looks at its devices (and
        the watcher may quit)."""
        self.step()
        self._pause()

    def _pause(self) -> None:
        if self.console is not None and QUIT in self.console.demo_keys:
            raise DemoStopped
        time.sleep(IDLE_TICK)

    def lay(self, spot: TagSpot, uid: bytes) -> None:
        """Lay a tag, let the table see it, and take it away again."""
        spot.lay(uid)
        self.step()
        spot.lift()
        self.step()

    def press(self, button: str) -> None:
        pin = self.pins[button]
        pin.drive_low()
        pin.drive_high()
        self.step()

    def close(self) -> None:
        if self.console is not None:
            self.console.close()
        if self.web is not None:
            self.web.close()
        self.table.close()
        self.buttons.close()
        if self.controller.journal is not None:
            self.controller.journal.close()


def demo_devices(controller: TableController, profile: Any, readers: DemoReaders, *,
                 console: Console | None = None, clock: Callable[[], float] = time.monotonic,
                 on_frame: Callable[[list[Any]], None] | None = None,
                 pages: Callable[[Table], Pages] | None = None) -> dict[str, Any]:
    """The simulated devices around ``controller``, as the keyword arguments of a
    :class:`DemoTable` (or of a game's subclass of it): the mock buttons, the strip
    for the board ``profile`` under the table's default brightness cap, the readers
    and the ``console``, polled with them, and the web ``pages`` opened on the table
    if asked for."""
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    events: queue.Queue[Event] = queue.Queue()
    buttons = TableButtons(DEMO_PINS, events, hold_time=0.5, pin_factory=factory)
    strip = SimulatedStrip(profile.led_count, keep=2, on_frame=on_frame)
    slots = readers.slots
    if console is not None:
        console.controller = controller
        slots = [*slots, ReaderSlot(console.name, lambda: console, clock)]
    table = Table(controller, controller.side.view(profile), slots,
                  StripSlot(capped(strip, StripSettings(profile.led_count))), events, clock=clock)
    if console is not None:
        table.taken.append(functools.partial(_show_key, console))
    pins = {name: factory.pin(pin) for name, pin in DEMO_PINS.items()}
    return {"table": table, "readers": readers, "buttons": buttons, "strip": strip, "pins": pins,
            "console": console, "web": pages(table) if pages is not None else None}


def _show_key(console: Console, device: str) -> None:
    """A key the table has taken is shown with its effect (the cursor moved, a refusal said)."""
    if device == console.name:
        console.changed()


def human_seats(default_names: Sequence[str], humans: Sequence[str]) -> tuple[tuple[str, ...], list[int]]:
    """The players' names and the human seats: a human named like a default player
    takes that seat, any other name the first seat left to the bots."""
    names, players = list(default_names), len(default_names)
    if len(humans) > players:
        raise TopRaceError(f"{len(humans)} human players do not fit at a table of {players}")
    seats: list[int] = []
    for name in humans:
        if not name or not name.isprintable() or len(name) > 20:
            raise TopRaceError(f"a player's name is 1 to 20 printable characters, not {name!r}")
        if name in (names[s] for s in seats):
            raise TopRaceError(f"two human players are called {name}")
        seat = names.index(name) if name in names else next(s for s in range(players) if s not in seats)
        names[seat] = name
        seats.append(seat)
    return tuple(names), seats


def remote_seats(names: Sequence[str], remotes: Sequence[str], humans: Sequence[int]) -> list[int]:
    """The seats played from their pages (``demo --remote NAME``): each must be a player's name, and
    not a seat taken at the keyboard."""
    seats = []
    for name in remotes:
        if name not in names:
            raise TopRaceError(f"no player called {name!r} to play from a phone (the players: {', '.join(names)})")
        seat = names.index(name)
        if seat in humans or seat in seats:
            raise TopRaceError(f"{name} cannot be played both from the keyboard and a phone, or twice")
        seats.append(seat)
    return seats


def await_step(demo: DemoTable) -> None:
    """A seat that is not a bot decides (at the keyboard, on its phone): the table steps on, looking at
    its devices and inputs, until the game moves on (or an UNDO takes a step back)."""
    controller = demo.controller
    game, steps = controller.game, len(controller.game.log)
    while controller.game is game and len(game.log) == steps:
        demo.idle()


def typed_ahead(pending: list[str], keys: KeySource, *, asked: bool) -> None:
    """Keys typed ahead wait their turn in ``pending``; what was typed while nobody at the keyboard
    is asked is dropped, not played into a bot's move (but the demo's own keys and a held UNDO)."""
    pending.extend(keys.read())
    if pending and not asked:
        pending[:] = [key for key in pending if key in DEMO_KEYS or key == HELD_UNDO]


class Players(Protocol):
    """The players at a demo table: each call makes the one input the table waits for."""

    def act(self, demo: Any) -> None: ...


def play_demo(demo: DemoTable, players: Players, *, after_step: Callable[[Any], None] | None = None) -> Any:
    """Let the players play the whole game at ``demo``; returns the finished game."""
    steps = 0
    with collections_between_steps():
        while not demo.controller.game.is_over:
            demo.wait_while_saving()  # a step due without input that the table is to save first (the deal)
            logged = len(demo.controller.game.log)
            players.act(demo)
            steps += 1
            if steps > MAX_INPUTS:
                raise RuntimeError("the demo table stopped making progress")
            if after_step is not None and len(demo.controller.game.log) != logged:
                after_step(demo.controller.game)
    return demo.controller.game


class Pace:
    """How fast the bots play: ``delay`` seconds after each step; the pause key stops
    the game until it is pressed again, the step key lets one step through."""

    def __init__(self, demo: DemoTable, delay: float) -> None:
        self.demo = demo
        self.delay = delay
        self.paused = False

    def wait(self) -> None:
        """The pause after a step; the table goes on looking at its inputs meanwhile when someone may give
        one (a key, a tap on a seat's page: it is taken at once, not after the pause)."""
        console = self.demo.console
        if console is None and self.demo.web is None:
            time.sleep(self.delay)
            return
        until = time.monotonic() + self.delay
        while True:
            stepped = self._keys(console) if console is not None else False
            if (stepped and self.paused) or (not self.paused and time.monotonic() >= until):
                return
            self.demo.idle()

    def _keys(self, console: Console) -> bool:
        """Take the demo's keys pressed so far; whether one of them was the step key."""
        keys, console.demo_keys[:] = list(console.demo_keys), []
        if QUIT in keys:
            raise DemoStopped
        if keys.count(PAUSE) % 2:
            self.paused = not self.paused
            console.note = "paused: space goes on, . takes one step, q quits" if self.paused else ""
            console.changed()
        return STEP in keys


class NewsScreen(Protocol):
    """Where a demo tells its news (a :class:`~toprace_pi.table.screen.DemoScreen`)."""

    def news(self, text: str) -> None: ...
    def scroll(self) -> None: ...


def watch_demo(demo: DemoTable, players: Players, draw: Callable[[], None], *, delay: float,
               screen: NewsScreen, console: Any = None, replay: str | None = None,
               on_step: Callable[[Any], None] | None = None) -> tuple[Any, bool]:
    """Play the demo to its end for a watcher: the board ``draw``\\ n after every step and whenever the
    ``console`` changes, then ``on_step`` given the game (a picture of the step), ``delay`` seconds
    between steps (the watcher's keys pause, step or quit); the table closed whatever happens. The
    game, and whether it ran to its end (``False``: the watcher quit, and is told the ``replay``
    command of its journal)."""
    pace = Pace(demo, delay)

    def after_step(game: Any) -> None:
        draw()
        if on_step is not None:
            on_step(game)
        pace.wait()

    if console is not None:
        console.changed = draw
    try:
        draw()
        return play_demo(demo, players, after_step=after_step), True
    except DemoStopped:
        screen.news("the demo was stopped" + (f"; replay it with: {replay}" if replay else ""))
        return demo.controller.game, False
    finally:
        demo.close()
        screen.scroll()
