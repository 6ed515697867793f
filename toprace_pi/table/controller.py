"""The table controller: turns scans and button presses into rule actions, and says
what follows.

It owns the :class:`~toprace_pi.rules.Game` and is the only thing that changes it.
Every input is an :mod:`event <toprace_pi.hardware.events>`; :meth:`handle` never
raises for bad input: it refuses with a spoken reason and a buzz, and the game
stays exactly as it was. UNDO (held) takes back the last confirmed step by
replaying the log without it, so an undo is as exact as a replay.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Protocol

from toprace_pi.errors import IllegalActionError
from toprace_pi.hardware.events import ButtonPressed, DeviceStatus, Event, TagLaid
from toprace_pi.hardware.tags import unknown_tag
from toprace_pi.rules import Action, Car, ChooseJoker, Deal, Game, Pass, Phase, PlayCard, TakeCar
from toprace_pi.rules.events import (
    AuctionWon,
    BrokeDown,
    CarFinished,
    CarReturned,
    CarRevealed,
    GameEnded,
    GridSet,
    OfferCardTaken,
    PitStopClaimed,
    PitStopCollected,
    PitStopTaken,
    RaceEnded,
    SeatingOrder,
    StockRound,
    StocksPaid,
    StocksTraded,
    TipRound,
    TipsSettled,
    money,
)
from toprace_pi.rules.events import (
    Event as GameEvent,
)
from toprace_pi.rules.variants.pitstop import TakeFromBox
from toprace_pi.rules.variants.quick import REVEAL, Reveal
from toprace_pi.rules.variants.stocks import TAKE_OFFER, TakeOffer, Trade
from toprace_pi.rules.variants.tips import TIP, Tip
from toprace_pi.table.choices import Choice, choice_for
from toprace_pi.table.entries import CLAIM_WINDOW, Entry, LayoutEntry, Refusal, Step, entry_for
from toprace_pi.table.journal import Journal

log = logging.getLogger(__name__)

#: What a tag stands for: ("card", number), ("car", a Car of the game's deck) or ("pit", seat).
Identity = tuple[str, object]
PLACE_WORDS = ("first", "second", "third", "fourth", "fifth", "sixth")
#: The reader under the discard pile: speed cards are played on it.
DISCARD_READER = "discard"
#: Phases in which a car on the card still waits for a decision.
MID_CARD = (Phase.CHOOSE_JOKER, Phase.SPRINT_OR_BREAKDOWN, Phase.MOVE_CAR, Phase.RETURN_CAR)


class Sound(Protocol):
    def refuse(self) -> None: ...
    def confirm(self) -> None: ...
    def finish(self, place: int) -> None: ...


class TableController:
    """Runs one game at the table. ``identify`` says what a tag stands for (or
    ``None`` for a tag not enrolled); ``say`` speaks or prints a sentence;
    ``dealer`` deals the speed cards where a machine shuffles them (the demo),
    else the players deal by hand and the game learns the cards as they are played.

    What the table asks for (the prompt) goes to ``ask`` (by default ``say``),
    once each time it changes: a speaker may replace a prompt not yet spoken by a
    newer one, while news goes to ``say`` and is never dropped. A short press of
    NEXT that means nothing else asks for the prompt again, and so does a quiet
    time of ``repeat_prompt`` seconds without input (0: never).

    Each engine event goes to ``announce``; by default the events worth a sentence
    aloud (:func:`announcement`) are said. A narrator (the demo) tells them all."""

    def __init__(
        self,
        game: Game,
        *,
        identify: Callable[[TagLaid], Identity | None],
        say: Callable[[str], None],
        ask: Callable[[str], None] | None = None,
        sound: Sound,
        dealer: Callable[[Game], Deal] | None = None,
        clock: Callable[[], float] = time.monotonic,
        claim_window: float = CLAIM_WINDOW,
        journal: Journal | None = None,
        inputs: int = 0,
        repeat_prompt: float = 0.0,
        announce: Callable[[GameEvent], None] | None = None,
    ) -> None:
        self.game = game
        self.claim_window = claim_window
        self.journal = journal
        #: How many inputs (scans, presses) the table has handled; the journal notes
        #: which one led to each step.
        self.inputs = inputs
        self._input: str | None = None
        self.dealer = dealer
        self.identify = identify
        self.say = say
        self.ask = ask or say
        self.announce = announce or self._say_event
        self.repeat_prompt = repeat_prompt
        self.sound = sound
        self.clock = clock
        self._said_prompt: str | None = None
        self._quiet_since = clock()
        self.choice: Choice | None = None
        self.entry: Entry | None = None
        self.refusals = 0
        self._told = len(game.events)
        self._prepare()

    # --- inputs ------------------------------------------------------------------

    def handle(self, event: Event) -> None:
        """React to one thing that happened at the table."""
        self.inputs += 1
        self._input = _describe(event)
        self._quiet_since = self.clock()
        if self.game.phase is Phase.DEAL and self.dealer is not None or self._deal_waits():
            self._prepare()  # a deal the disk refused before: try again first
        if isinstance(event, TagLaid):
            self._tag(event)
        elif isinstance(event, ButtonPressed):
            self._button(event)
        elif isinstance(event, DeviceStatus):
            self.say(event.message)

    def _deal_waits(self) -> bool:
        """A deal by hand with nothing to scan, not yet saved (the disk was full)."""
        game = self.game
        return game.phase is Phase.DEAL and self.entry is None and LayoutEntry.for_game(game).deal() is not None

    def tick(self, now: float) -> None:
        """Time passes: an entry with a time limit (the pit stop claim window) may
        close, and after a quiet time the prompt is said again."""
        step = self.entry.tick(now) if self.entry is not None else None
        if step is not None:
            self._step(step)
        elif self.repeat_prompt and now - self._quiet_since >= self.repeat_prompt and not self.game.is_over:
            self._say_prompt(again=True)

    def _tag(self, event: TagLaid) -> None:
        what = self.identify(event)
        if what is None:
            self.refuse(unknown_tag(event.record, self.game.cars))
            return
        kind, value = what
        if event.reader == DISCARD_READER and kind == "card" and value in self.game.discard_pile:
            # The reader sees the pile: the card lying there read again (a missed poll, a nudge,
            # the top card lifted off to show the one below) is no new input.
            log.debug("speed card #%s lies on the discard pile already: read again, ignored", value)
            return
        if self.entry is not None:
            self._step(self._entry_input(self.entry, kind, value))
        elif kind == "card":
            self._card(int(value))  # type: ignore[call-overload]
        elif isinstance(value, Car):
            self._car(value)
        else:
            self.refuse(f"no pit stop card is asked for now: {self.prompt}")

    @staticmethod
    def _entry_input(entry: Entry, kind: str, value: object) -> Step:
        if isinstance(value, Car):
            return entry.car(value)
        number = int(value)  # type: ignore[call-overload]
        return entry.card(number) if kind == "card" else entry.pit(number)

    def _card(self, number: int) -> None:
        phase = self.game.phase
        if phase is Phase.PLAY_CARD:
            self._apply(self._card_on_turn(number))
        elif phase is TAKE_OFFER:
            self._apply(TakeOffer(number))
        elif phase in MID_CARD:
            self.refuse(f"finish the card in play first: {self.prompt}")
        else:
            self.refuse(f"no speed card is played now: {self.prompt}")

    def _card_on_turn(self, number: int) -> Action:
        """A card laid at the start of a turn: played from the hand, or with the Pit
        Stop rule taken from the box (a pit stop). A pit stop off the discard pile
        is never a scan (the reader sees the pile's top card all the time): it is
        chosen with NEXT/OK."""
        if number in getattr(self.game, "box", ()):
            return TakeFromBox(number)
        return PlayCard(number)

    def _car(self, car: Car) -> None:
        phase = self.game.phase
        if phase is Phase.TAKE_CAR:
            self._apply(TakeCar(car))
        elif phase is Phase.CHOOSE_JOKER:
            self._apply(ChooseJoker(car))
        elif phase is TIP:
            self._apply(Tip(car))
        elif phase is REVEAL:
            self._apply(Reveal(car))
        else:
            self.refuse(f"no car token is asked for now: {self.prompt}")

    def _button(self, event: ButtonPressed) -> None:
        if event.button == "undo":
            self.undo() if event.held else self.refuse("hold UNDO to take back the last step")
        elif self.entry is not None:
            step = self.entry.button(event.button)
            if isinstance(step, Refusal) and event.button == "next" and not event.held:
                self._say_prompt(again=True)  # NEXT means nothing else here: the player asks what is wanted
            else:
                self._step(step)
        elif self.choice is not None and event.button in ("next", "ok"):
            if event.button == "next":
                self.choice.next()
            else:
                self._apply(self.choice.current)
        elif event.button == "pass" and Pass() in self.game.legal_actions():
            self._apply(Pass())
        elif event.button == "next" and not event.held:
            self._say_prompt(again=True)
        else:
            self.refuse(f"{event.button.upper()} means nothing now: {self.prompt}")

    def _step(self, step: Step) -> None:
        if isinstance(step, Refusal):
            self.refuse(step.reason)
        elif step is None:
            self._say_prompt()  # one part entered: say what comes next
        else:
            self._apply_all(step)

    # --- changing the game -------------------------------------------------------

    def _apply(self, action: Action) -> None:
        self._apply_all([action])

    def _apply_all(self, actions: list[Action]) -> None:
        """Take the steps one input leads to, all or none: checked (on a copy of the
        game when there are several), made durable together, then applied."""
        try:
            self._commit(actions)
        except (IllegalActionError, OSError) as exc:
            self.refuse(self._unsaved(exc) if isinstance(exc, OSError) else self._refusal(exc))
            if self.choice is None:
                self._prepare(quiet=True)  # an entry starts again; a NEXT/OK choice keeps its cursor
            return
        self.sound.confirm()
        self._prepare()

    def _refusal(self, exc: IllegalActionError) -> str:
        """The engine's reason, unless it would tell a secret (a player's holdings)."""
        if self.entry is not None and self.entry.secret:
            return self.entry.refused
        return str(exc)

    def _commit(self, actions: list[Action], *, automatic: bool = False) -> None:
        """Check ``actions``, make them durable in the journal, then take them: a step
        the disk refuses is never shown."""
        if self.journal is not None:
            if len(actions) == 1:
                self.game.check(actions[0])
            else:
                trial = type(self.game).replay(self.game.settings, self.game.track, self.game.deck, self.game.log)
                for action in actions:
                    trial.apply(action)
            self.journal.append(actions, input_number=self.inputs, by=None if automatic else self._input)
        for action in actions:
            self.game.apply(action)
            self._tell_events()

    @staticmethod
    def _unsaved(exc: OSError) -> str:
        return f"the step could not be saved ({exc.strerror or exc}): it was not taken, try again"

    def undo(self) -> None:
        """Take back the last confirmed step (never the deal)."""
        game = self.game
        steps = [a for a in game.log if not isinstance(a, Deal)]
        if not steps or isinstance(game.log[-1], Deal):
            self.refuse("there is nothing to take back")
            return
        if self.journal is not None:
            try:
                self.journal.append_undo(input_number=self.inputs)
            except OSError as exc:
                self.refuse(self._unsaved(exc))
                return
        last = game.log[-1]
        self.game = type(game).replay(game.settings, game.track, game.deck, game.log[:-1])
        self._told = len(self.game.events)
        self.say("took back a trade" if isinstance(last, Trade) else f"took back: {last}")  # a trade is secret
        self._prepare()

    def _prepare(self, *, quiet: bool = False) -> None:
        """Set up the next decision: the deal, an entry of several inputs, or a NEXT/OK choice."""
        game = self.game
        if game.phase is Phase.DEAL:
            # A machine's deal (the demo), or by hand with nothing laid out to scan.
            deal = self.dealer(game) if self.dealer is not None else LayoutEntry.for_game(game).deal()
            if deal is not None:
                try:
                    self._commit([deal], automatic=True)  # a deal follows the race's end, not an input
                except OSError as exc:  # tried again with the next input
                    taken = "the last step was taken, but " if game.log else ""
                    self.refuse(f"{taken}the deal could not be saved ({exc.strerror or exc}): "
                                "it is tried again at the next input")
                    self.entry = self.choice = None
                    return
        self.entry = entry_for(game, self.clock(), dealt_by_hand=self.dealer is None, claim_window=self.claim_window)
        self.choice = None if self.entry is not None else choice_for(game)
        if not game.is_over and not quiet:
            self._say_prompt(again=True)  # a new decision, even if in the same words as the last

    def refuse(self, reason: str) -> None:
        self.refusals += 1
        log.info("refused: %s", reason)
        self.sound.refuse()
        self.say(reason)

    # --- saying things -------------------------------------------------------------

    def _say_prompt(self, *, again: bool = False) -> None:
        """Say what the table waits for, if it changed since it was last said (or ``again``)."""
        prompt = self.prompt
        if again or prompt != self._said_prompt:
            self._said_prompt = prompt
            self.ask(prompt)
        self._quiet_since = self.clock()

    @property
    def prompt(self) -> str:
        """What the table waits for now, in words."""
        game = self.game
        if game.is_over:
            return "the game is over"
        if self.entry is not None:
            return self.entry.prompt
        if game.phase is REVEAL:
            return "turn up the next car card at random and lay its car token on the reader"
        who = game.names[game.seat]
        current = self.choice.labels[self.choice.cursor] if self.choice is not None else ""
        if game.phase is Phase.PLAY_CARD:
            may_pass = " or press PASS" if Pass() in game.legal_actions() else ""
            other = f"; or NEXT/OK for {current}" if self.choice is not None else ""
            return f"{who}: lay a speed card on the discard pile{may_pass}{other}"
        if game.phase is TIP:
            return f"{who}: reveal your next tip with its car token, or NEXT/OK ({current})"
        return f"{who}: {game.phase.value}? {current} (NEXT, OK)"

    def _tell_events(self) -> None:
        events = self.game.events[self._told:]
        self._told = len(self.game.events)
        for event in events:
            self.announce(event)
            if isinstance(event, CarFinished):
                self.sound.finish(event.place)

    def _say_event(self, event: GameEvent) -> None:
        sentence = announcement(event, self.game.names)
        if sentence:
            self.say(sentence)


def _describe(event: Event) -> str:
    """An input in a few words, as the journal notes it."""
    if isinstance(event, TagLaid):
        return f"tag {event.uid.hex()} on {event.reader}"
    if isinstance(event, ButtonPressed):
        return f"{event.button}{' held' if event.held else ''}"
    return type(event).__name__


#: Events the table reads out as the engine words them.
SAID = (AuctionWon, BrokeDown, CarReturned, CarRevealed, GameEnded, TipRound, TipsSettled, PitStopClaimed,
        PitStopTaken, PitStopCollected, OfferCardTaken, SeatingOrder, GridSet, StockRound, StocksTraded, StocksPaid)


def announcement(event: GameEvent, names: tuple[str, ...]) -> str | None:
    """The sentence the table speaks for an engine event, if it is worth one."""
    if isinstance(event, CarFinished):
        to = f": {money(event.prize)} to {names[event.seat]}" if event.seat is not None else ""
        return f"{event.car} finishes {PLACE_WORDS[event.place - 1]}{to}"
    if isinstance(event, RaceEnded):
        payouts = ", ".join(f"{n} {money(p)}" for n, p in zip(names, event.payouts, strict=True) if p)
        return f"{event.text(names)}. Payouts: {payouts}"
    if isinstance(event, SAID):
        return event.text(names)
    return None
