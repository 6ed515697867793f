"""AUTORACE's demo: bots play whole series at a simulated table.

Each bot makes up its mind from its own seat's view of the game (:meth:`Autorace.view`), as a
player knows their own hand and what lies face up, and then acts like a person: it lays its
card face down on the simulated seats' reader (the suit's tag says whose card it is). The rest
is the table's own path, on the harness of :mod:`toprace_pi.table.demo`: the controller takes
the card, the journal keeps it, and the reveal follows the last card by itself. The board and
the scoreboard are drawn from a spectator's view after every step, so the screen never shows
a sealed card either.
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
from toprace_pi.games.autorace.bots import make_bot
from toprace_pi.games.autorace.data import DEFAULT_BOARD, load_board
from toprace_pi.games.autorace.rules import Autorace, Board
from toprace_pi.games.autorace.rules.events import Event, dollars
from toprace_pi.games.autorace.settings import TableGame
from toprace_pi.games.autorace.simulate import player_names, seat_kinds
from toprace_pi.games.autorace.table.entries import SealedChoice
from toprace_pi.games.autorace.table.keys import SEATS_READER
from toprace_pi.games.autorace.table.side import AutoraceTable
from toprace_pi.games.autorace.table.tags import AutoraceVocabulary, suit_cards
from toprace_pi.hardware.keyboard import KeySource
from toprace_pi.hardware.sound import SilentSound
from toprace_pi.hardware.tags import TagRegistry
from toprace_pi.render.ansi import ColourMode
from toprace_pi.table.controller import TableController
from toprace_pi.table.demo import (
    Console,
    DemoReaders,
    DemoTable,
    Pages,
    TagSpot,
    await_step,
    demo_devices,
    human_seats,
    remote_seats,
    watch_demo,
)
from toprace_pi.table.journal import KEPT_ARCHIVES, Journal, archive_and_prune
from toprace_pi.table.screen import DemoScreen

#: The command that plays a demo's journal back.
REPLAY = "toprace-pi replay --game autorace"
#: The seats' reader of the demo: one reader passed round, not a pile (each card is laid and lifted).
READER_ROLES = {SEATS_READER: False}


def card_uid(suit: int, card: int) -> bytes:
    """The made-up NTAG UID of the ``card`` (0: the banner) of the board's ``suit``-th set."""
    return bytes([0x04, 0xA7, 0x00, 0x00, 0x00, suit, card])


def demo_registry(board: Board) -> TagRegistry[Any]:
    """The demo's box: every card of every set enrolled."""
    registry: TagRegistry[Any] = TagRegistry(vocabulary=AutoraceVocabulary(board))
    for index, suit in enumerate(board.suits):
        for identity in suit_cards(board, suit):
            registry.add(card_uid(index, identity[1][1]), identity)
    return registry


class AutoraceDemo(DemoTable):
    """The demo's table, with AUTORACE's one reader for the cards laid face down."""

    @property
    def seats(self) -> TagSpot:
        return self.spot(SEATS_READER)


def simulated_readers(clock: Callable[[], float]) -> DemoReaders:
    return DemoReaders.simulated(clock, READER_ROLES)


def build_demo_table(
    players: int,
    *,
    games: int = 1,
    boost: int = 0,
    names: Sequence[str] | None = None,
    say: Callable[[str], None] = print,
    ask: Callable[[str], None] | None = None,
    announce: Callable[[Event], None] | None = None,
    on_frame: Callable[[list[RGB]], None] | None = None,
    clock: Callable[[], float] = time.monotonic,
    journal: Path | None = None,
    readers: Callable[[Callable[[], float]], DemoReaders] = simulated_readers,
    console: Console | None = None,
    pages: Callable[[Any], Pages] | None = None,
) -> AutoraceDemo:
    """Wire the simulated devices, the controller and the view for one demo series. News goes to
    ``say``, prompts to ``ask`` (by default ``say`` too), engine events to ``announce`` (by default
    said as the table says them); a journal at ``journal`` (an earlier one there is archived)."""
    setup = TableGame(players=tuple(names or player_names(players, load_board(DEFAULT_BOARD))), games=games,
                      boost=boost)
    settings, game = setup.new_game()
    if journal is not None and journal.exists():
        archive_and_prune(journal)
    side = AutoraceTable(setup)
    controller = TableController(game, identify=demo_registry(game.board).identify, say=say, ask=ask,
                                 sound=SilentSound(), clock=clock, announce=announce, side=side,
                                 journal=None if journal is None else Journal.create(journal, settings,
                                                                                    game="autorace"))
    devices = demo_devices(controller, side.board_profile(None, game), readers(clock), console=console,
                           clock=clock, on_frame=on_frame, pages=pages)
    return AutoraceDemo(**devices)


class DemoPlayers:
    """The players at the demo table: each bot chooses from its seat's view alone and lays its card
    face down on the seats' reader; the ``humans`` seats lay theirs at the keyboard. Who lays next is
    whoever is ready first (by the seeded ``seed``), as at a table."""

    def __init__(self, kinds: Sequence[str], seed: int, *, humans: Sequence[int] = (),
                 strength: str | None = None) -> None:
        self.bots = [make_bot(kind, seed * 100 + seat, strength) for seat, kind in enumerate(kinds)]
        #: The seats that are no bot's: at the keyboard, or on their phones.
        self.humans = frozenset(humans)
        self.ready = random.Random(seed)

    def act(self, demo: AutoraceDemo) -> None:
        """Make the one input the table waits for: a card laid face down."""
        entry = demo.controller.entry
        assert isinstance(entry, SealedChoice), "the table waits only for sealed cards"
        bots = [seat for seat in entry.waiting if seat not in self.humans]
        if not bots:
            await_step(demo)
            return
        seat = self.ready.choice(bots)
        card = self.bots[seat].choose(shown_to(self.bots[seat], demo.controller.game, seat))
        demo.lay(demo.seats, card_uid(seat, card))


def run_demo(
    *,
    players: int = 4,
    games: int = 1,
    boost: int = 0,
    seed: int = 0,
    bots: str | Sequence[str] = "random",
    strength: str | None = None,
    delay: float = 0.4,
    colour: ColourMode | bool = True,
    journal: Path | None = None,
    screen: DemoScreen | None = None,
    keys: KeySource | None = None,
    humans: Sequence[str] = (),
    remotes: Sequence[str] = (),
    pages: Callable[[Any], Pages] | None = None,
) -> Autorace:
    """``toprace-pi demo --game autorace``: a whole series at a simulated table, told as it happens,
    the board and the standings shown after every step. ``bots`` names one kind for every seat or one
    a seat (joined by commas); the ``humans`` play at the keyboard ``keys``, which also pauses (space),
    steps (.) and quits (q); the ``remotes`` on their phones, through the web ``pages``."""
    screen = screen or DemoScreen(lambda text: print(text, end="", flush=True), live=False)
    kinds = seat_kinds(bots, players)
    names, seats = human_seats(player_names(players, load_board(DEFAULT_BOARD)), humans)
    console = _console(keys, seats)
    remote = remote_seats(names, remotes, seats)
    if journal is not None:
        screen.news(f"the game's journal: {journal} (the {KEPT_ARCHIVES} before it are kept beside it)")
    demo = build_demo_table(players, games=games, boost=boost, names=names, say=screen.news, ask=lambda _: None,
                            announce=lambda event: screen.news(event.text(names)), journal=journal,
                            console=console, pages=pages)
    shown_round: tuple[int, int] | None = None

    def draw() -> None:
        nonlocal shown_round
        game = demo.controller.game
        table = demo.table
        board, scores = table.controller.side.terminal(game, table.view.profile, table.steady(), colour=colour,
                                                       width=screen.width)
        this_round = (game.game_number, game.round)
        screen.show(board, scores, console.panel() if console else [],
                    new_turn=this_round != shown_round or game.is_over)
        shown_round = this_round

    players_at_table = DemoPlayers(kinds, seed, humans=[*seats, *remote], strength=strength)
    game, ended = watch_demo(demo, players_at_table, draw, delay=delay, screen=screen,
                             console=console, replay=f"{REPLAY} {journal}" if journal else None)
    if not ended:
        return game
    screen.news("Final money: " + ", ".join(f"{n} {dollars(m)}" for n, m in zip(names, game.money, strict=True)))
    if journal is not None:
        screen.news(f"the game's journal: {journal} ({REPLAY} {journal})")
    return game


def _console(keys: KeySource | None, seats: Sequence[int]) -> Any:
    """The keyboard of the human seats, if anyone types."""
    if seats and keys is None:
        raise TopRaceError("human players need a terminal to type on")
    if keys is None:
        return None
    from toprace_pi.games.autorace.table.human import HumanConsole

    return HumanConsole(keys, seats)
