"""Top Race's demo: bots (and people at the keyboard) play whole games at a simulated table.

The bots lay tags on the simulated discard and car readers and press the buttons
through gpiozero's mock pins, on the harness of :mod:`toprace_pi.table.demo`; the
board is drawn in the terminal after every step. The bots read the game to make up
their minds, as players read the board, but never change it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toprace_pi.errors import TopRaceError
from toprace_pi.games.toprace.bots import make_bot
from toprace_pi.games.toprace.data import DEFAULT_DECK, load_deck, load_track
from toprace_pi.games.toprace.render.frames import FrameWriter
from toprace_pi.games.toprace.render.palette import RGB
from toprace_pi.games.toprace.report import event_line, event_lines
from toprace_pi.games.toprace.rules import (
    Action,
    ChooseJoker,
    Deck,
    Pass,
    Phase,
    PlayCard,
    Settings,
    TakeCar,
    TopRace,
    Track,
)
from toprace_pi.games.toprace.rules.actions import Bid
from toprace_pi.games.toprace.rules.auction import STEP as BID_STEP
from toprace_pi.games.toprace.rules.cars import Car
from toprace_pi.games.toprace.rules.events import Event as GameEvent
from toprace_pi.games.toprace.rules.events import TipRound, money
from toprace_pi.games.toprace.rules.variants import new_game
from toprace_pi.games.toprace.rules.variants.pitstop import PIT_STOP_CLAIM, ClaimPitStop, TakeFromBox, TakeFromDiscard
from toprace_pi.games.toprace.rules.variants.quick import REVEAL
from toprace_pi.games.toprace.rules.variants.stocks import TakeOffer, Trade
from toprace_pi.games.toprace.rules.variants.tips import TIP
from toprace_pi.games.toprace.simulate import player_names, seat_kinds
from toprace_pi.games.toprace.table.board import load_profile
from toprace_pi.games.toprace.table.entries import ClaimWindow, GridEntry, SaleEntry
from toprace_pi.games.toprace.table.human import HumanConsole, Question
from toprace_pi.games.toprace.table.readers import READER_ROLES
from toprace_pi.games.toprace.table.tags import MAX_SEATS, TopRaceVocabulary
from toprace_pi.games.toprace.table.view import lights_by_space
from toprace_pi.hardware.keyboard import PIT_KEY, KeySource
from toprace_pi.hardware.sound import SilentSound
from toprace_pi.hardware.tags import TagRegistry
from toprace_pi.render.ansi import ColourMode
from toprace_pi.table.controller import TableController
from toprace_pi.table.demo import (
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


def card_uid(number: int) -> bytes:
    """The made-up NTAG UID of speed card ``number`` in the demo's box."""
    return bytes([0x04, 0xD0, 0x00, 0x00, 0x00, 0x00, number])


def car_uid(car: Car) -> bytes:
    return bytes([0x04, 0xCA, 0x00, 0x00, 0x00, 0x01, car.index])


def pit_uid(seat: int) -> bytes:
    """The demo's pit stop cards: one tag per seat stands for any of its three."""
    return bytes([0x04, 0x91, 0x00, 0x00, 0x00, 0x02, seat])


def demo_registry(deck: Deck) -> TagRegistry:
    """The demo's box: every speed card, car token and seat's pit stop card enrolled."""
    registry = TagRegistry(vocabulary=TopRaceVocabulary(deck.cars))
    for number in deck.numbers:
        registry.add(card_uid(number), ("card", number))
    for seat in range(MAX_SEATS):
        registry.add(pit_uid(seat), ("pit", seat))
    for car in deck.cars:
        registry.add(car_uid(car), ("car", car))
    return registry


@dataclass
class TopRaceDemo(DemoTable):
    """The demo's table, with Top Race's readers: the discard pile and the car tokens."""

    #: Speed cards lying on the discard pile, as the demo laid them.
    on_pile: int = 0

    @property
    def discard(self) -> TagSpot:
        return self.spot("discard")

    @property
    def cars(self) -> TagSpot:
        return self.spot("cars")

    def leave(self, spot: TagSpot, uid: bytes) -> None:
        """Lay a speed card onto the discard pile and leave it there."""
        spot.lay(uid)
        self.on_pile += 1
        self.step()

    def take_top(self, spot: TagSpot) -> None:
        """Take the top card off the pile (a pit stop from the discard pile, a claim, an undo)."""
        spot.lift()
        self.on_pile = max(self.on_pile - 1, 0)
        self.step()

    def gather(self) -> None:
        """The race is over: the players take the whole pile off at once, to shuffle it."""
        for _ in range(self.on_pile):
            self.discard.lift()
        self.on_pile = 0
        self.step()


def simulated_readers(clock: Callable[[], float]) -> DemoReaders:
    return DemoReaders.simulated(clock, READER_ROLES)


def build_demo_table(
    track: Track,
    players: int,
    seed: int,
    *,
    races: int = 1,
    variant: str = "base",
    deck: str = DEFAULT_DECK,
    say: Callable[[str], None] = print,
    ask: Callable[[str], None] | None = None,
    on_frame: Callable[[list[RGB]], None] | None = None,
    clock: Callable[[], float] = time.monotonic,
    journal: Path | None = None,
    readers: Callable[[Callable[[], float]], DemoReaders] = simulated_readers,
    names: Sequence[str] | None = None,
    console: HumanConsole | None = None,
    announce: Callable[[GameEvent], None] | None = None,
    pages: Callable[[Any], Pages] | None = None,
) -> TopRaceDemo:
    """Wire the simulated devices, the controller and the view for one demo game with a shipped ``deck`` (or a
    deck file); ``readers`` makes the card readers (simulated ones by default) from the clock. News goes to
    ``say``, prompts to ``ask`` (by default ``say`` too), engine events to ``announce`` (by default said as
    the table says them). A ``console`` (the keyboard) is polled with the readers. With the web ``pages``
    each seat enters its tips on its own page at each tip round (without them, the tips are noted on the
    players' markers and entered at the end)."""
    cards = load_deck(deck)
    profile = load_profile(track.slug, track)
    registry = demo_registry(cards)
    shuffle = random.Random(seed)
    settings = Settings(tuple(names or player_names(players)), races=races, first_opener=seed % players,
                        track=track.slug, deck=deck, variant=variant, tips_at_end=pages is None)
    game = new_game(settings, track, cards)
    if journal is not None and journal.exists():
        archive_and_prune(journal)
    controller = TableController(game, identify=registry.identify, say=say, ask=ask, sound=SilentSound(),
                                 dealer=lambda g: g.deal(shuffle), clock=clock, announce=announce,
                                 journal=None if journal is None else Journal.create(journal, settings))
    devices = demo_devices(controller, profile, readers(clock), console=console, clock=clock, on_frame=on_frame,
                           pages=pages)
    return TopRaceDemo(**devices)


class DemoPlayers:
    """The players at the table, one per seat: each bot decides like a rules bot and
    then acts like a person, with tags and buttons; the ``humans`` seats decide at
    the ``console`` (the keyboard). ``tell`` hears what is said aloud (the bids),
    ``idle`` runs while a human thinks (the table steps on)."""

    def __init__(self, kinds: list[str], seed: int, *, humans: Sequence[int] = (), remote: Sequence[int] = (),
                 console: HumanConsole | None = None, tell: Callable[[str], None] = lambda _: None,
                 strength: str | None = None) -> None:
        self.bots = [make_bot(kind, seed * 100 + seat, strength) for seat, kind in enumerate(kinds)]
        self.humans = frozenset(humans)
        #: The seats played from their own pages: what is entered at the table for them (the auction's
        #: result, a pit stop claim) their bot decides, as a friend at the table would for them.
        self.remote = frozenset(remote)
        if self.humans and console is None:
            raise ValueError("human seats need a console")
        self.console = console
        self.tell = tell
        self.tips: list[list[Car]] = [[] for _ in kinds]
        self.shuffle = random.Random(seed)
        self._seen = 0

    def act(self, demo: TopRaceDemo) -> None:
        """Make the one input the table waits for now; when it ends a race, gather the pile."""
        race = demo.controller.game.race
        self._act_once(demo)
        if demo.controller.game.race != race:
            demo.gather()

    def _act_once(self, demo: TopRaceDemo) -> None:
        controller = demo.controller
        game = controller.game
        self._note_tip_rounds(demo)
        entry = controller.entry
        if isinstance(entry, SaleEntry):
            self._enter_sale(demo, entry, *self._auction_result(demo))
        elif isinstance(entry, GridEntry):  # the car cards shuffled and turned up one by one
            demo.lay(demo.cars, car_uid(self.shuffle.choice([c for c in game.cars if c not in entry.cars])))
        elif isinstance(entry, ClaimWindow):
            self._claim(demo, entry)
        elif game.phase is not REVEAL and game.seat in self.remote:
            await_step(demo)  # its page
        elif game.phase is TIP:  # the tips each player noted secretly, revealed in order
            demo.lay(demo.cars, car_uid(self.tips[game.seat].pop(0)))
        elif game.phase is REVEAL:  # quick rules: a car card turned up at random
            demo.lay(demo.cars, car_uid(self.shuffle.choice(game.cars_for_sale())))
        elif game.seat in self.humans:
            self._await_human(demo)
        else:
            self._act(demo, game, self.bots[game.seat].choose(game.seen_by(game.seat)))

    def _act(self, demo: TopRaceDemo, game: TopRace, action: Action) -> None:
        """Carry out one decision as a person at the table would."""
        if isinstance(action, Pass):
            demo.press("pass")
        elif isinstance(action, PlayCard):
            demo.leave(demo.discard, card_uid(action.number))  # it stays on the pile
        elif isinstance(action, (TakeFromBox, TakeOffer)):
            demo.lay(demo.discard, card_uid(action.number))  # shown to the reader, then into the hand
        elif isinstance(action, TakeFromDiscard):
            self._pick(demo, action)
            demo.take_top(demo.discard)
        elif isinstance(action, (TakeCar, ChooseJoker)):
            demo.lay(demo.cars, car_uid(action.car))
        elif isinstance(action, Trade):
            for car in action.sell + action.buy:
                demo.lay(demo.cars, car_uid(car))
        else:
            self._pick(demo, action)

    def _await_human(self, demo: TopRaceDemo) -> None:
        """A human seat's decision: the table steps on, reading the keyboard, until the
        game moves on (or the human's UNDO takes a step back)."""
        controller = demo.controller
        game, steps = controller.game, len(controller.game.log)
        while controller.game is game and len(game.log) == steps:
            demo.idle()
        if controller.game is game and game.log and isinstance(game.log[-1], PlayCard):
            demo.on_pile += 1  # the card the human laid stays on the pile

    def _note_tip_rounds(self, demo: TopRaceDemo) -> None:
        """At each tip round every player secretly notes a tip on their marker."""
        game = demo.controller.game
        for event in game.events[self._seen:]:
            if isinstance(event, TipRound):
                for seat, bot in enumerate(self.bots):
                    if seat in self.remote:
                        continue  # it tips on its page
                    self.tips[seat].append(self._human_tip(demo, seat, event) if seat in self.humans
                                           else bot.tip(game.seen_by(seat)))
        self._seen = len(game.events)

    def _human_tip(self, demo: TopRaceDemo, seat: int, event: TipRound) -> Car:
        cars = list(demo.controller.game.cars)
        question = Question(f"{event.text(demo.controller.game.names)}: note yours in secret", cars,
                            [str(c) for c in cars])
        return self._ask(demo, seat, question) or cars[0]

    def _ask(self, demo: TopRaceDemo, seat: int, question: Question, still: Callable[[], bool] = lambda: True) -> Any:
        assert self.console is not None
        return self.console.ask(seat, question, demo.idle, still)

    def _auction_result(self, demo: TopRaceDemo) -> tuple[int, int]:
        """Hold the auction aloud: each player bids in turn (a bot on a copy of the game,
        a human at the keyboard), and the table is told only who won and for how much."""
        game = demo.controller.game
        aloud = game.clone()
        while aloud.phase is Phase.BID:
            seat = aloud.seat
            seen = aloud.seen_by(seat)
            action = self._human_bid(demo, aloud) if seat in self.humans else self.bots[seat].choose(seen)
            self.tell(f"    {aloud.names[seat]} " + (f"bids {money(action.amount)}" if isinstance(action, Bid)
                                                       else "passes"))
            aloud.apply(action)
        assert aloud.auction is not None and aloud.auction.winner is not None
        return aloud.auction.winner, aloud.auction.high

    def _human_bid(self, demo: TopRaceDemo, aloud: TopRace) -> Action:
        legal = aloud.legal_actions()
        bids = [a for a in legal if isinstance(a, Bid)]
        passing = Pass() if Pass() in legal else None
        if not bids:
            assert passing is not None
            return passing
        assert aloud.auction is not None
        high = aloud.auction.high
        text = f"auction {aloud.auction.number + 1}: " + (f"the bid stands at {money(high)}" if high else "no bid yet")
        question = Question(text, bids, [f"bid {money(b.amount)}" for b in bids], passing=passing)
        return self._ask(demo, aloud.seat, question) or bids[0]

    def _claim(self, demo: TopRaceDemo, window: ClaimWindow) -> None:
        """Each player asked in turn decides (a bot on a copy, a human at the keyboard)
        whether it claims; the first to claim lays its pit stop card, then OK closes the window."""
        controller = demo.controller
        game = controller.game
        aloud = game.clone()
        while aloud.phase is PIT_STOP_CLAIM:
            seat = aloud.seat
            if seat in self.humans:
                question = Question(f"pit stop? claim {game.deck[game.discard_pile[-1]]}", [True, False],
                                    ["claim it (lay your pit stop card)", "let it go"], passing=False,
                                    shortcuts={PIT_KEY: (True, "your pit stop card")},
                                    time_left=lambda: window.time_left(controller.clock()))
                claims = self._ask(demo, seat, question, still=lambda: controller.entry is window)
                if controller.entry is not window:
                    return  # the window closed while the human thought
            else:
                claims = isinstance(self.bots[seat].choose(aloud.seen_by(seat)), ClaimPitStop)
            if claims:
                demo.lay(demo.discard, pit_uid(seat))
                break
            aloud.apply(Pass())
        if controller.entry is window:  # else its time ran out (with a claim laid in time, the card is taken)
            demo.press("ok")
        if isinstance(demo.controller.game.log[-1], ClaimPitStop):
            demo.take_top(demo.discard)  # the claimant takes the card off the pile onto their pit stop card

    @staticmethod
    def _enter_sale(demo: TopRaceDemo, sale: SaleEntry, winner: int, price: int) -> None:
        for _ in range(sale.bidders.index(winner)):
            demo.press("next")
        demo.press("ok")
        for _ in range((price - sale.price) // BID_STEP):
            demo.press("next")
        demo.press("ok")

    @staticmethod
    def _pick(demo: TopRaceDemo, action: Action) -> None:
        choice = demo.controller.choice
        assert choice is not None, f"no NEXT/OK choice for {action}"
        while choice.current != action:
            demo.press("next")
        demo.press("ok")


def seat_names(players: int, humans: Sequence[str]) -> tuple[tuple[str, ...], list[int]]:
    """The players' names and the human seats (:func:`~toprace_pi.table.demo.human_seats`)."""
    return human_seats(player_names(players), humans)


def run_demo(
    *,
    track_name: str = "speed-street",
    players: int = 4,
    races: int = 1,
    seed: int = 0,
    bots: str | Sequence[str] = "greedy",
    strength: str | None = None,
    variant: str = "base",
    deck: str = DEFAULT_DECK,
    delay: float = 0.4,
    colour: ColourMode | bool = True,
    svg_dir: Path | None = None,
    journal: Path | None = None,
    humans: Sequence[str] = (),
    keys: KeySource | None = None,
    screen: DemoScreen | None = None,
    remotes: Sequence[str] = (),
    pages: Callable[[Any], Pages] | None = None,
) -> TopRace:
    """The ``toprace-pi demo`` command: a whole game at a simulated table, told as it
    happens, the board and the standings shown after every step. The ``humans`` play
    at the keyboard ``keys``, which also pauses (space), steps (.) and quits (q); the ``remotes`` on
    their phones, through the web ``pages``."""
    track = load_track(track_name)
    profile = load_profile(track.slug, track)
    screen = screen or DemoScreen(lambda text: print(text, end="", flush=True), live=False)
    names, human_seats = seat_names(players, humans)
    remote = remote_seats(names, remotes, human_seats)
    if human_seats and keys is None:
        raise TopRaceError("human players need a terminal to type on")
    console = None if keys is None else HumanConsole(keys, load_deck(deck).cars, human_seats)
    if journal is not None:
        screen.news(f"the game's journal: {journal} (the {KEPT_ARCHIVES} before it are kept beside it)")
    demo: TopRaceDemo | None = None

    def narrate(event: GameEvent) -> None:
        """Every event as the report words it; a race's end with its placings and payouts."""
        lines = event_lines(demo.controller.game, [event]) if demo is not None else [event_line(event, names)]
        for line in lines:
            screen.news(line)

    demo = build_demo_table(track, players, seed, races=races, variant=variant, deck=deck, say=screen.news,
                            ask=lambda _: None, journal=journal, names=names, console=console, announce=narrate,
                            pages=pages)
    kinds = seat_kinds(bots, players)
    pictures = None if svg_dir is None else FrameWriter(svg_dir, track)
    shown_turn: tuple[int, int] | None = None

    def draw() -> None:
        nonlocal shown_turn
        game = demo.controller.game
        turn = (game.race, sum(isinstance(a, (PlayCard, Pass)) for a in game.log))
        board, scores = demo.controller.side.terminal(game, profile, demo.table.steady(), colour=colour,
                                                      width=screen.width)
        screen.show(board, scores, console.panel(screen.width - 1) if console else [],
                    new_turn=turn != shown_turn and game.phase is Phase.PLAY_CARD or game.is_over)
        shown_turn = turn if game.phase is Phase.PLAY_CARD else shown_turn

    def picture(game: TopRace) -> None:
        if pictures is not None:
            pictures.add(game, lights_by_space(profile, track, demo.table.steady()))

    players_at_table = DemoPlayers(kinds, seed, humans=human_seats, remote=remote, console=console,
                                   tell=screen.news, strength=strength)
    try:
        game, ended = watch_demo(demo, players_at_table, draw, delay=delay, screen=screen, console=console,
                                 replay=f"toprace-pi replay {journal}" if journal else None, on_step=picture)
    finally:
        if pictures is not None:
            pictures.close()
            screen.news(pictures.summary())
    if not ended:
        return game
    screen.news("Final money: " + ", ".join(f"{n} {money(m)}" for n, m in zip(game.names, game.money, strict=True)))
    if journal is not None:
        screen.news(f"the game's journal: {journal} (toprace-pi replay {journal})")
    return game
