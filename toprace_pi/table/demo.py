"""The headless demo: bots play whole games at a simulated table.

Everything between the players and the rules is the product's own path: the
bots lay tags on simulated card readers and press the NEXT/OK/PASS buttons
through gpiozero's mock pins, the :class:`~toprace_pi.table.run.Table` polls
the readers and hands the events to the controller, and the strip frames the
controller's view composes are drawn in the terminal. The bots read the game
to make up their minds, as players read the board, but never change it.
"""

from __future__ import annotations

import queue
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from toprace_pi.bots import make_bot
from toprace_pi.data import DEFAULT_DECK, load_deck, load_track
from toprace_pi.hardware.buttons import TableButtons
from toprace_pi.hardware.events import Event
from toprace_pi.hardware.profile import load_profile
from toprace_pi.hardware.simulated import SimulatedReader
from toprace_pi.hardware.sound import SilentSound
from toprace_pi.hardware.strip import SimulatedStrip
from toprace_pi.hardware.tags import MAX_SEATS, TagRegistry
from toprace_pi.render.palette import RGB
from toprace_pi.render.svg import track_svg
from toprace_pi.render.terminal import render_track
from toprace_pi.rules import Action, ChooseJoker, Deck, Game, Pass, Phase, PlayCard, Settings, TakeCar, Track
from toprace_pi.rules.actions import ClaimPitStop, TakeFromBox, TakeFromDiscard, TakeOffer, Trade
from toprace_pi.rules.cars import Car
from toprace_pi.rules.events import TipRound
from toprace_pi.rules.variants import new_game
from toprace_pi.simulate import player_names
from toprace_pi.table.controller import TableController
from toprace_pi.table.entries import ClaimWindow, GridEntry, SaleEntry
from toprace_pi.table.journal import Journal, archive_and_prune
from toprace_pi.table.run import ReaderSlot, StripSlot, Table
from toprace_pi.table.view import TableView, lights_by_space

#: The demo's buttons on gpiozero mock pins (any free GPIO numbers would do).
DEMO_PINS = {"next": 5, "ok": 6, "undo": 13, "pass": 19}
#: A bound on one game's inputs: a table that stops making progress is a bug.
MAX_INPUTS = 200_000


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
    registry = TagRegistry(cars=deck.cars)
    for number in deck.numbers:
        registry.add(card_uid(number), ("card", number))
    for seat in range(MAX_SEATS):
        registry.add(pit_uid(seat), ("pit", seat))
    for car in deck.cars:
        registry.add(car_uid(car), ("car", car))
    return registry


class TagSpot(Protocol):
    """Where a bot lays a tag: a simulated reader, or the field of a reader behind a reader hub."""

    def lay(self, uid: bytes) -> None: ...
    def lift(self) -> None: ...


@dataclass
class DemoReaders:
    """The demo's card readers: where the bots lay tags, and the slots the table polls."""

    discard: TagSpot
    cars: TagSpot
    slots: list[ReaderSlot]
    #: Runs before each look of the table at its readers: a reader hub polls its readers here.
    before_step: Callable[[], None] = lambda: None

    @classmethod
    def simulated(cls, clock: Callable[[], float]) -> DemoReaders:
        discard, cars = SimulatedReader("discard", pile=True), SimulatedReader("cars")
        slots = [ReaderSlot("discard", lambda: discard, clock), ReaderSlot("cars", lambda: cars, clock)]
        return cls(discard, cars, slots)


@dataclass
class DemoTable:
    """A table of simulated devices around a real controller."""

    table: Table
    readers: DemoReaders
    buttons: TableButtons
    strip: SimulatedStrip
    pins: dict[str, object]
    #: Speed cards lying on the discard pile, as the demo laid them.
    on_pile: int = 0

    @property
    def controller(self) -> TableController:
        return self.table.controller

    @property
    def discard(self) -> TagSpot:
        return self.readers.discard

    @property
    def cars(self) -> TagSpot:
        return self.readers.cars

    def step(self) -> None:
        self.readers.before_step()
        self.table.step()

    def lay(self, spot: TagSpot, uid: bytes) -> None:
        """Lay a tag, let the table see it, and take it away again (on the discard pile
        the card below then shows again)."""
        spot.lay(uid)
        self.step()
        spot.lift()
        self.step()

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

    def press(self, button: str) -> None:
        pin = self.pins[button]
        pin.drive_low()  # type: ignore[attr-defined]
        pin.drive_high()  # type: ignore[attr-defined]
        self.step()

    def close(self) -> None:
        self.table.close()
        self.buttons.close()
        if self.controller.journal is not None:
            self.controller.journal.close()


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
    readers: Callable[[Callable[[], float]], DemoReaders] = DemoReaders.simulated,
) -> DemoTable:
    """Wire the simulated devices, the controller and the view for one demo game with a shipped ``deck`` (or a
    deck file); ``readers`` makes the card readers (simulated ones by default) from the clock. News goes to
    ``say``, prompts to ``ask`` (by default ``say`` too)."""
    from gpiozero.pins.mock import MockFactory

    cards = load_deck(deck)
    profile = load_profile(track.slug)
    registry = demo_registry(cards)
    dealer = random.Random(seed)
    settings = Settings(player_names(players), races=races, first_opener=seed % players, track=track.slug,
                        deck=deck, variant=variant, tips_at_end=True)
    game = new_game(settings, track, cards)
    if journal is not None and journal.exists():
        archive_and_prune(journal)
    controller = TableController(game, identify=registry.identify, say=say, ask=ask, sound=SilentSound(),
                                 dealer=lambda g: g.deal(dealer), clock=clock,
                                 journal=None if journal is None else Journal.create(journal, settings))
    factory = MockFactory()
    events: queue.Queue[Event] = queue.Queue()
    buttons = TableButtons(DEMO_PINS, events, hold_time=0.5, pin_factory=factory)
    strip = SimulatedStrip(profile.led_count, keep=2, on_frame=on_frame)
    demo_readers = readers(clock)
    table = Table(controller, TableView(profile), demo_readers.slots, StripSlot(strip), events, clock=clock)
    pins = {name: factory.pin(pin) for name, pin in DEMO_PINS.items()}
    return DemoTable(table, demo_readers, buttons, strip, pins)


class DemoPlayers:
    """The bots at the table, one per seat: each decides like a rules bot and then
    acts like a person, with tags and buttons."""

    def __init__(self, kinds: list[str], seed: int) -> None:
        self.bots = [make_bot(kind, seed * 100 + seat) for seat, kind in enumerate(kinds)]
        self.tips: list[list[Car]] = [[] for _ in kinds]
        self.shuffle = random.Random(seed)
        self._seen = 0

    def act(self, demo: DemoTable) -> None:
        """Make the one input the table waits for now; when it ends a race, gather the pile."""
        race = demo.controller.game.race
        self._act_once(demo)
        if demo.controller.game.race != race:
            demo.gather()

    def _act_once(self, demo: DemoTable) -> None:
        controller = demo.controller
        game = controller.game
        self._note_tip_rounds(game)
        entry = controller.entry
        if isinstance(entry, SaleEntry):
            self._enter_sale(demo, entry, *self._auction_result(game))
        elif isinstance(entry, GridEntry):  # the car cards shuffled and turned up one by one
            demo.lay(demo.cars, car_uid(self.shuffle.choice([c for c in game.cars if c not in entry.cars])))
        elif isinstance(entry, ClaimWindow):
            self._claim(demo, entry)
        elif game.phase is Phase.TIP:  # the tips each player noted secretly, revealed in order
            demo.lay(demo.cars, car_uid(self.tips[game.seat].pop(0)))
        elif game.phase is Phase.REVEAL:  # quick rules: a car card turned up at random
            demo.lay(demo.cars, car_uid(self.shuffle.choice(game.cars_for_sale())))
        else:
            self._act(demo, game, self.bots[game.seat].choose(game))

    def _act(self, demo: DemoTable, game: Game, action: Action) -> None:
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

    def _note_tip_rounds(self, game: Game) -> None:
        """At each tip round every player secretly notes a tip on their marker."""
        for event in game.events[self._seen:]:
            if isinstance(event, TipRound):
                for seat, bot in enumerate(self.bots):
                    self.tips[seat].append(bot.tip(game))
        self._seen = len(game.events)

    def _auction_result(self, game: Game) -> tuple[int, int]:
        """Hold the auction aloud: the bots bid on a copy of the game, the table
        is told only who won and for how much."""
        aloud = type(game).replay(game.settings, game.track, game.deck, game.log)
        while aloud.phase is Phase.BID:
            aloud.apply(self.bots[aloud.seat].choose(aloud))
        assert aloud.auction is not None and aloud.auction.winner is not None
        return aloud.auction.winner, aloud.auction.high

    def _claim(self, demo: DemoTable, window: ClaimWindow) -> None:
        """Each bot asked in turn decides on a copy whether it claims; the first to
        claim lays its pit stop card, then OK closes the window."""
        game = demo.controller.game
        aloud = type(game).replay(game.settings, game.track, game.deck, game.log)
        while aloud.phase is Phase.PIT_STOP_CLAIM:
            seat = aloud.seat
            choice = self.bots[seat].choose(aloud)
            if isinstance(choice, ClaimPitStop):
                demo.lay(demo.discard, pit_uid(seat))
                break
            aloud.apply(choice)
        demo.press("ok")
        if isinstance(demo.controller.game.log[-1], ClaimPitStop):
            demo.take_top(demo.discard)  # the claimant takes the card off the pile onto their pit stop card

    @staticmethod
    def _enter_sale(demo: DemoTable, sale: SaleEntry, winner: int, price: int) -> None:
        for _ in range(sale.bidders.index(winner)):
            demo.press("next")
        demo.press("ok")
        for _ in range((price - sale.price) // 10_000):
            demo.press("next")
        demo.press("ok")

    @staticmethod
    def _pick(demo: DemoTable, action: Action) -> None:
        choice = demo.controller.choice
        assert choice is not None, f"no NEXT/OK choice for {action}"
        while choice.current != action:
            demo.press("next")
        demo.press("ok")


def play_demo(demo: DemoTable, players: DemoPlayers, *, after_step: Callable[[Game], None] | None = None) -> Game:
    """Let the bots play the whole game at ``demo``; returns the finished game."""
    steps = 0
    while not demo.controller.game.is_over:
        logged = len(demo.controller.game.log)
        players.act(demo)
        steps += 1
        if steps > MAX_INPUTS:
            raise RuntimeError("the demo table stopped making progress")
        if after_step is not None and len(demo.controller.game.log) != logged:
            after_step(demo.controller.game)
    return demo.controller.game


def run_demo(
    *,
    track_name: str = "speed-street",
    players: int = 4,
    races: int = 1,
    seed: int = 0,
    bots: str = "greedy",
    variant: str = "base",
    deck: str = DEFAULT_DECK,
    pause: float = 0.4,
    colour: bool = True,
    svg_dir: Path | None = None,
    journal: Path | None = None,
    out: Callable[[str], None] = print,
) -> Game:
    """The ``toprace-pi demo`` command: a whole game, the strip drawn after every step."""
    track = load_track(track_name)
    profile = load_profile(track.slug)
    demo = build_demo_table(track, players, seed, races=races, variant=variant, deck=deck, say=out, journal=journal)
    kinds = [("greedy", "random")[s % 2] for s in range(players)] if bots == "mixed" else [bots] * players
    frames = 0
    if svg_dir is not None:
        svg_dir.mkdir(parents=True, exist_ok=True)

    def draw(game: Game) -> None:
        nonlocal frames
        if game.phase is not Phase.PLAY_CARD and not game.is_over:
            return
        lights = lights_by_space(profile, track, demo.strip.last)
        out(render_track(track, colour=colour, lights=lights, cars=game.cars))
        if svg_dir is not None:
            frames += 1
            (svg_dir / f"frame-{frames:04d}.svg").write_text(track_svg(track, game.board), "utf-8")
        time.sleep(pause)

    try:
        game = play_demo(demo, DemoPlayers(kinds, seed), after_step=draw)
    finally:
        demo.close()
    out("Final money: " + ", ".join(f"{n} {m:,}" for n, m in zip(game.names, game.money, strict=True)))
    if journal is not None:
        out(f"the game's journal: {journal} (toprace-pi replay {journal})")
    return game
