"""TOP SPEED's demo: bots race at a simulated table with virtual decks.

Each bot makes up its mind from its own seat's view (:meth:`TopSpeed.view`) and then acts like a
person at the table: it presses NEXT until the option it wants is said, then OK (or PASS), through
gpiozero's mock pins. The rest is the table's own path on the harness of :mod:`toprace_pi.table.demo`:
the controller, the journal, the LED view; the shuffles and the starting order are the demo's
dealer's, from a generator seeded with ``seed``, so a demo race can be played again.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from toprace_pi.core.bots import shown_to
from toprace_pi.core.colour import RGB
from toprace_pi.errors import TopRaceError
from toprace_pi.games.topspeed.bots import make_bot
from toprace_pi.games.topspeed.rules import TopSpeed
from toprace_pi.games.topspeed.rules.events import Event
from toprace_pi.games.topspeed.settings import TableGame
from toprace_pi.games.topspeed.simulate import player_names, seat_kinds
from toprace_pi.games.topspeed.table.chance import chance_step
from toprace_pi.games.topspeed.table.human import human_console
from toprace_pi.games.topspeed.table.side import TopSpeedTable
from toprace_pi.games.topspeed.table.turn import Turn
from toprace_pi.hardware.keyboard import KeySource
from toprace_pi.hardware.sound import SilentSound
from toprace_pi.render.ansi import ColourMode
from toprace_pi.table.console import ButtonConsole
from toprace_pi.table.controller import TableController
from toprace_pi.table.demo import (
    Console,
    DemoReaders,
    DemoTable,
    Pages,
    await_step,
    demo_devices,
    human_seats,
    remote_seats,
    watch_demo,
)
from toprace_pi.table.journal import KEPT_ARCHIVES, Journal, archive_and_prune
from toprace_pi.table.screen import DemoScreen

REPLAY = "toprace-pi replay --game topspeed"
#: The seats' reader (physical minicards only): one reader passed round, not a pile.
READER_ROLES = {"seats": False}


def build_demo_table(
    players: int,
    *,
    laps: int = 10,
    variant: str = "normal",
    blank: str = "",
    seed: int = 0,
    names: Sequence[str] | None = None,
    say: Callable[[str], None] = print,
    ask: Callable[[str], None] | None = None,
    announce: Callable[[Event], None] | None = None,
    on_frame: Callable[[list[RGB]], None] | None = None,
    clock: Callable[[], float] = time.monotonic,
    journal: Path | None = None,
    console: Console | None = None,
    pages: Callable[[Any], Pages] | None = None,
) -> DemoTable:
    """Wire the simulated devices, the controller and the view for one demo race. News goes to
    ``say``, prompts to ``ask``, engine events to ``announce`` (by default said as the table says them);
    a journal at ``journal`` (an earlier one there is archived)."""
    setup = TableGame(players=tuple(names or player_names(players)), variant=variant, laps=laps, blank=blank)
    settings, game = setup.new_game()
    if journal is not None and journal.exists():
        archive_and_prune(journal)
    side = TopSpeedTable(setup)
    chance = random.Random(seed)
    controller = TableController(game, identify=lambda event: None, say=say, ask=ask, sound=SilentSound(),
                                 clock=clock, announce=announce, side=side,
                                 dealer=lambda g: chance_step(g, chance.randrange),
                                 journal=None if journal is None else Journal.create(journal, settings,
                                                                                    game="topspeed"))
    devices = demo_devices(controller, side.board_profile(None, game), DemoReaders.simulated(clock, READER_ROLES),
                           console=console, clock=clock, on_frame=on_frame, pages=pages)
    return DemoTable(**devices)


class DemoPlayers:
    """Each bot chooses from its seat's view alone, then presses the buttons as a person would."""

    def __init__(self, kinds: Sequence[str], seed: int, *, humans: Sequence[int] = (),
                 strength: str | None = None) -> None:
        self.bots = [make_bot(kind, seed * 100 + seat, strength) for seat, kind in enumerate(kinds)]
        #: The seats that are no bot's: at the keyboard, or on their phones.
        self.humans = frozenset(humans)

    def act(self, demo: DemoTable) -> None:
        """The one input the table waits for: NEXT until the wanted option is said, then OK (a human's:
        the table steps on, reading the keyboard, until the human's step is taken)."""
        entry = demo.controller.entry
        assert isinstance(entry, Turn), "the table waits only for the player to move"
        if entry.seat in self.humans:
            await_step(demo)
            return
        bot = self.bots[entry.seat]
        wanted = bot.choose(shown_to(bot, demo.controller.game, entry.seat))
        if wanted not in entry.options:
            raise RuntimeError(f"the bot chose {wanted}, not among {entry.options}")
        while entry.options[entry.cursor] != wanted:
            demo.press("next")
        demo.press("ok")


def run_demo(
    *,
    players: int = 4,
    laps: int = 10,
    variant: str = "normal",
    blank: str = "",
    seed: int = 0,
    bots: str | Sequence[str] = "sensible",
    strength: str | None = None,
    delay: float = 0.4,
    colour: ColourMode | bool = True,
    journal: Path | None = None,
    screen: DemoScreen | None = None,
    keys: KeySource | None = None,
    humans: Sequence[str] = (),
    remotes: Sequence[str] = (),
    pages: Callable[[Any], Pages] | None = None,
) -> TopSpeed:
    """``toprace-pi demo --game topspeed``: a whole race at a simulated table, told as it happens, the
    circuit and the standings shown after every step; the ``humans`` play at the keyboard ``keys``
    (n NEXT, o OK, p PASS, U UNDO), which also pauses (space), steps (.) and quits (q); the ``remotes``
    on their phones, through the web ``pages``."""
    screen = screen or DemoScreen(lambda text: print(text, end="", flush=True), live=False)
    kinds = seat_kinds(bots, players)
    names, seats = human_seats(player_names(players), humans)
    console = _console(keys, seats)
    remote = remote_seats(names, remotes, seats)
    side = TopSpeedTable()
    if journal is not None:
        screen.news(f"the race's journal: {journal} (the {KEPT_ARCHIVES} before it are kept beside it)")
    # No prompt is news: it is the asked seat's own (a bot's names the green card it may keep apart);
    # a human reads theirs in the panel.
    demo = build_demo_table(players, laps=laps, variant=variant, blank=blank, seed=seed, names=names, say=screen.news,
                            ask=lambda _: None, journal=journal,
                            announce=lambda event: screen.news(side.announcement(event, names) or ""),
                            console=console, pages=pages)

    def draw() -> None:
        table = demo.table
        board, scores = table.controller.side.terminal(table.controller.game, table.view.profile, table.steady(),
                                                       colour=colour, width=screen.width)
        screen.show(board, scores, console.panel() if console else [], new_turn=True)

    players_at_table = DemoPlayers(kinds, seed, humans=[*seats, *remote], strength=strength)
    game, ended = watch_demo(demo, players_at_table, draw, delay=delay, screen=screen,
                             console=console, replay=f"{REPLAY} {journal}" if journal else None)
    if not ended:
        return game
    if journal is not None:
        screen.news(f"the race's journal: {journal} ({REPLAY} {journal})")
    return game


def _console(keys: KeySource | None, seats: Sequence[int]) -> ButtonConsole | None:
    """The keyboard of the human seats, if anyone types."""
    if seats and keys is None:
        raise TopRaceError("human players need a terminal to type on")
    return None if keys is None else human_console(keys, seats)
