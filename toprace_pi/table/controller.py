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
from collections.abc import Callable
from typing import Protocol

from toprace_pi.errors import IllegalActionError
from toprace_pi.hardware.events import ButtonPressed, DeviceStatus, Event, TagLaid
from toprace_pi.rules import Action, Car, ChooseJoker, Deal, Game, Pass, Phase, PlayCard, TakeCar
from toprace_pi.rules.actions import Reveal, Tip
from toprace_pi.rules.events import (
    AuctionWon,
    BrokeDown,
    CarFinished,
    CarReturned,
    CarRevealed,
    GameEnded,
    RaceEnded,
    TipRound,
    TipsSettled,
    money,
)
from toprace_pi.rules.events import (
    Event as GameEvent,
)
from toprace_pi.table.choices import Choice, SaleEntry, choice_for

log = logging.getLogger(__name__)

#: What a tag stands for: ("card", number) or ("car", Car).
Identity = tuple[str, object]
PLACE_WORDS = ("first", "second", "third", "fourth", "fifth", "sixth")
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
    else the players deal by hand and the game learns the cards as they are played."""

    def __init__(
        self,
        game: Game,
        *,
        identify: Callable[[TagLaid], Identity | None],
        say: Callable[[str], None],
        sound: Sound,
        dealer: Callable[[Game], Deal] | None = None,
    ) -> None:
        self.game = game
        self.dealer = dealer
        self.identify = identify
        self.say = say
        self.sound = sound
        self.choice: Choice | None = None
        self.sale: SaleEntry | None = None
        self.refusals = 0
        self._told = len(game.events)
        self._prepare()

    # --- inputs ------------------------------------------------------------------

    def handle(self, event: Event) -> None:
        """React to one thing that happened at the table."""
        if isinstance(event, TagLaid):
            self._tag(event)
        elif isinstance(event, ButtonPressed):
            self._button(event)
        elif isinstance(event, DeviceStatus):
            self.say(event.message)

    def _tag(self, event: TagLaid) -> None:
        what = self.identify(event)
        if what is None:
            self.refuse("this tag is not enrolled: run toprace-pi enrol cards")
        elif what[0] == "card":
            self._card(int(what[1]))  # type: ignore[call-overload]
        else:
            self._car(what[1])  # type: ignore[arg-type]

    def _card(self, number: int) -> None:
        phase = self.game.phase
        if phase is Phase.PLAY_CARD:
            self._apply(PlayCard(number))
        elif phase in MID_CARD:
            self.refuse(f"finish the card in play first: {self.prompt}")
        else:
            self.refuse(f"no speed card is played now: {self.prompt}")

    def _car(self, car: Car) -> None:
        phase = self.game.phase
        if phase is Phase.TAKE_CAR:
            self._apply(TakeCar(car))
        elif phase is Phase.CHOOSE_JOKER:
            self._apply(ChooseJoker(car))
        elif phase is Phase.TIP:
            self._apply(Tip(car))
        elif phase is Phase.REVEAL:
            self._apply(Reveal(car))
        else:
            self.refuse(f"no car token is asked for now: {self.prompt}")

    def _button(self, event: ButtonPressed) -> None:
        if event.button == "undo":
            self.undo() if event.held else self.refuse("hold UNDO to take back the last step")
        elif self.sale is not None:
            self._sale_button(event.button, self.sale)
        elif self.choice is not None and event.button in ("next", "ok"):
            if event.button == "next":
                self.choice.next()
            else:
                self._apply(self.choice.current)
        elif event.button == "pass" and Pass() in self.game.legal_actions():
            self._apply(Pass())
        else:
            self.refuse(f"{event.button.upper()} means nothing now: {self.prompt}")

    def _sale_button(self, button: str, sale: SaleEntry) -> None:
        if button == "next":
            sale.next()
        elif button == "pass":
            if not sale.less():
                self.refuse("the price cannot go lower")
        else:
            sold = sale.ok()
            if sold is None:
                self.say(self.prompt)
            else:
                self._apply(sold)

    # --- changing the game -------------------------------------------------------

    def _apply(self, action: Action) -> None:
        try:
            self.game.apply(action)
        except IllegalActionError as exc:
            self.refuse(str(exc))
            return
        self.sound.confirm()
        self._tell_events()
        self._prepare()

    def undo(self) -> None:
        """Take back the last confirmed step (never the deal)."""
        game = self.game
        steps = [a for a in game.log if not isinstance(a, Deal)]
        if not steps or isinstance(game.log[-1], Deal):
            self.refuse("there is nothing to take back")
            return
        last = game.log[-1]
        self.game = Game.replay(game.settings, game.track, game.deck, game.log[:-1])
        self._told = len(self.game.events)
        self.say(f"took back: {last}")
        self._prepare()

    def _prepare(self) -> None:
        """Set up the next decision: deal by hand, the sale entry, or a NEXT/OK choice."""
        game = self.game
        if game.phase is Phase.DEAL:
            game.apply(self.dealer(game) if self.dealer else Deal(None))
            self._tell_events()
        self.sale = SaleEntry.for_game(game) if game.phase is Phase.BID else None
        self.choice = choice_for(game)
        if not game.is_over:
            self.say(self.prompt)

    def refuse(self, reason: str) -> None:
        self.refusals += 1
        log.info("refused: %s", reason)
        self.sound.refuse()
        self.say(reason)

    # --- saying things -------------------------------------------------------------

    @property
    def prompt(self) -> str:
        """What the table waits for now, in words."""
        game = self.game
        if game.is_over:
            return "the game is over"
        if self.sale is not None:
            return f"auction {game.auction.number + 1}: {self.sale.prompt}" if game.auction else self.sale.prompt
        if game.phase is Phase.REVEAL:
            return "turn up the next car card at random and lay its car token on the reader"
        who = game.names[game.seat]
        if game.phase is Phase.PLAY_CARD:
            may_pass = " or press PASS" if Pass() in game.legal_actions() else ""
            return f"{who}: lay a speed card on the discard pile{may_pass}"
        assert self.choice is not None
        current = self.choice.labels[self.choice.cursor]
        if game.phase is Phase.TIP:
            return f"{who}: reveal your next tip with its car token, or NEXT/OK ({current})"
        return f"{who}: {game.phase.value}? {current} (NEXT, OK)"

    def _tell_events(self) -> None:
        events = self.game.events[self._told:]
        self._told = len(self.game.events)
        for event in events:
            sentence = announcement(event, self.game.names)
            if sentence:
                self.say(sentence)
            if isinstance(event, CarFinished):
                self.sound.finish(event.place)


def announcement(event: GameEvent, names: tuple[str, ...]) -> str | None:
    """The sentence the table speaks for an engine event, if it is worth one."""
    if isinstance(event, CarFinished):
        to = f": {money(event.prize)} to {names[event.seat]}" if event.seat is not None else ""
        return f"{event.car} finishes {PLACE_WORDS[event.place - 1]}{to}"
    if isinstance(event, RaceEnded):
        payouts = ", ".join(f"{n} {money(p)}" for n, p in zip(names, event.payouts, strict=True) if p)
        return f"{event.text(names)}. Payouts: {payouts}"
    if isinstance(event, (AuctionWon, BrokeDown, CarReturned, CarRevealed, GameEnded, TipRound, TipsSettled)):
        return event.text(names)
    return None
