"""Human seats at the keyboard, beside the bots of the demo.

The keyboard (:class:`~toprace_pi.hardware.keyboard.Keyboard`) is one more
device the table polls, so a human's cards, tokens and button presses reach the
controller, the journal and the strip exactly as a reader's or a button's do.
:class:`HumanConsole` adds what a player's own hands and eyes do at a real table:

* on the player's turn, NEXT and OK go through the hand held in front of them
  (and the table's own NEXT/OK options, such as a pit stop), OK laying the card;
* a :class:`Question` is a decision the table does not take as input: a bid in
  the auction held aloud, a tip noted in secret, claiming a pit stop.

Keys that steer the demo itself (pause, step, quit) are kept aside for it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from toprace_pi.games.toprace.rules import Action, Phase
from toprace_pi.games.toprace.rules.cars import Car, CarSet
from toprace_pi.games.toprace.rules.events import money
from toprace_pi.games.toprace.rules.variants.quick import REVEAL
from toprace_pi.games.toprace.table.choices import label
from toprace_pi.games.toprace.table.entries import TradeEntry
from toprace_pi.games.toprace.table.keys import key_map
from toprace_pi.hardware import Device
from toprace_pi.hardware.events import ButtonPressed, DeviceStatus, Event
from toprace_pi.hardware.keyboard import BUTTON_KEYS, DEVICE, HELD_UNDO, Keyboard, KeySource
from toprace_pi.table.controller import TableController
from toprace_pi.table.demo import DEMO_KEYS, typed_ahead

#: Options of a question shown at once: a bid's many amounts must leave room for the news.
SHOWN_OPTIONS = 8
#: The panel's width when the screen does not say (the widest a line may be at the table's terminal).
PANEL_WIDTH = 119


@dataclass
class Question:
    """A pick from ``options`` (said by ``labels``) at the keyboard: NEXT moves the
    cursor, OK answers with the option under it, PASS with ``passing`` (if any), and
    a car's letter with that car when the options are cars."""

    text: str
    options: Sequence[Any]
    labels: Sequence[str]
    passing: Any = None
    #: Other keys that answer at once, each with its answer and what it says on screen (``s``: claim).
    shortcuts: Mapping[str, tuple[Any, str]] = field(default_factory=dict)
    #: Seconds left to answer, for a question with a time limit.
    time_left: Callable[[], float] | None = None
    cursor: int = 0
    answer: Any = None
    answered: bool = False

    def key(self, key: str, cars: CarSet) -> str | None:
        """Take one key; returns why it means nothing, if it does not."""
        if key == "n":
            self.cursor = (self.cursor + 1) % len(self.options)
        elif key == "o":
            self._answer(self.options[self.cursor])
        elif key == "p" and self.passing is not None:
            self._answer(self.passing)
        elif key in self.shortcuts:
            self._answer(self.shortcuts[key][0])
        elif (car := _car_of_key(key, cars)) is not None and car in self.options:
            self._answer(car)
        else:
            keys = "/".join(["n", "o", *(["p"] if self.passing is not None else []), *self.shortcuts])
            return f"the key {key!r} means nothing here: {keys}"
        return None

    def _answer(self, value: Any) -> None:
        self.answer, self.answered = value, True

    def lines(self) -> list[str]:
        """The question (with the time left to answer, if limited) and the options near the cursor,
        the cursor's marked."""
        keys = ", ".join(["NEXT n", "OK o", *(["PASS p"] if self.passing is not None else []),
                          *(f"{words} {key}" for key, (_, words) in self.shortcuts.items())])
        left = "" if self.time_left is None else f" [{math.ceil(self.time_left())} s left]"
        return [f"{self.text}{left} ({keys})", *picked_lines(self.labels, self.cursor)]


def picked_lines(labels: Sequence[str], cursor: int, rows: int = SHOWN_OPTIONS) -> list[str]:
    """Options one a line, the cursor's marked; a long list shows the ``rows`` from the
    cursor on (NEXT wraps round to the first), and says how many more there are."""
    first = min(cursor, max(len(labels) - rows, 0))
    shown = [f"{'>' if i == cursor else ' '} {labels[i]}" for i in range(first, min(first + rows, len(labels)))]
    more = len(labels) - len(shown)
    return shown + ([f"  ... and {more} more (NEXT)"] if more else [])


def trade_lines(trade: TradeEntry) -> list[str]:
    """A trade being entered, for its player's eyes alone (the prompt said aloud never names a car):
    the picks so far, and the cars NEXT goes through."""
    picks = ", ".join(f"{'sell' if n < 2 else 'buy'} {car}" for n, car in enumerate(trade.picks))
    return ([f"so far: {picks}"] if picks else []) + picked_lines([str(c) for c in trade.cars], trade.cursor)


def hand_lines(game: Any, seat: int, width: int) -> list[str]:
    """The seat's hand, each card with its moves, in as many columns as ``width`` holds."""
    hand = game.hands[seat] if game.hands is not None else []
    if not hand:
        return []
    labels = [str(game.deck[n]) for n in sorted(hand)]
    title = "your hand: "
    column = max(len(label) for label in labels) + 2
    per_line = max(1, (width - len(title)) // column)
    rows = ["".join(f"{label:<{column}}" for label in labels[i:i + per_line]).rstrip()
            for i in range(0, len(labels), per_line)]
    return [(title if i == 0 else " " * len(title)) + row for i, row in enumerate(rows)]


def _car_of_key(key: str, cars: CarSet) -> Car | None:
    if not key.isalpha() or (key in BUTTON_KEYS and key.islower()):
        return None
    return next((car for car in cars if car.letter.upper() == key.upper()), None)


@dataclass
class HandPick:
    """On a human's turn: the cards of the hand, then the table's own NEXT/OK options."""

    turn: tuple[int, int]  # the game and log length it was made for
    cards: list[int]
    actions: list[Action]
    labels: list[str]
    cursor: int = 0

    @property
    def size(self) -> int:
        return len(self.cards) + len(self.actions)


@dataclass
class HumanConsole(Device):
    """The keyboard of the human ``seats``: a card reader for the table's poll
    (what the keys stand for) that also serves the humans' questions and hands.
    ``changed`` shows a key's effect: at once for
    a key the console keeps, once the table has taken it for a key it passes on (Table.taken)."""

    keys: KeySource
    cars: CarSet
    seats: Sequence[int]
    changed: Callable[[], None] = lambda: None
    controller: TableController | None = None
    question: Question | None = None
    question_seat: int | None = None
    #: The demo's own keys, in the order pressed, for the demo to take.
    demo_keys: list[str] = field(default_factory=list)
    #: The last thing a key could not do, said on the player's panel.
    note: str = ""
    name: str = DEVICE
    _hand: HandPick | None = None
    _pending: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        pit_seat = self.seats[0] if len(self.seats) == 1 else None
        self.keyboard = Keyboard(self.keys, key_map(self.cars), pit_seat=pit_seat)

    def poll(self) -> list[Event]:
        """Keys typed ahead wait their turn: one key for the table at a poll, each read
        against the table as it is after the one before; what was typed while nobody
        at the keyboard was asked is dropped, not played into a bot's turn."""
        typed_ahead(self._pending, self.keys, asked=self.question is not None or self.seat_asked() is not None)
        while self._pending:
            key = self._pending.pop(0)
            self.note = ""
            if key in DEMO_KEYS and not self.keyboard.typed:
                self.demo_keys.append(key)
            elif self.question is not None:
                self.note = self.question.key(key, self.cars) or ""
            else:
                events = self._table_key(key)
                if events:
                    return events  # shown once the table has taken them (Table.taken)
                self.changed()
                continue
            self.changed()
            if self.question is not None and self.question.answered:
                break  # the next key is for whatever comes next
        return []

    def _table_key(self, key: str) -> list[Event]:
        if key == HELD_UNDO:  # anyone at the table may take a step back
            return self.keyboard.press(key)
        if self.seat_asked() is None:
            self.note = "wait: no human seat is asked now"
            return []
        hand = self.hand()
        if hand is not None and key in ("n", "o"):
            return self._hand_key(hand, key)
        events = self.keyboard.press(key)
        for event in events:
            if isinstance(event, DeviceStatus):
                self.note = event.message
        return [e for e in events if not isinstance(e, DeviceStatus)]

    def seat_asked(self) -> int | None:
        """The human seat whose decision the table waits for, if any."""
        if self.controller is None:
            return None
        game = self.controller.game
        entry = self.controller.entry
        if game.is_over or (entry is not None and not entry.secret) or game.phase is REVEAL:
            return None  # the table's chores (auction results, the grid) are the demo's
        return game.seat if game.seat in self.seats else None

    def hand(self) -> HandPick | None:
        """The pick through the hand on a human's turn, when the table knows the hand."""
        controller = self.controller
        if controller is None or controller.entry is not None:
            return None
        game = controller.game
        if game.phase is not Phase.PLAY_CARD or game.seat not in self.seats or game.hands is None:
            return None
        turn = (id(game), len(game.log))
        if self._hand is None or self._hand.turn != turn:
            cards = game.playable_cards()
            actions = list(controller.choice.options) if controller.choice is not None else []
            labels = [str(game.deck[n]) for n in cards] + [label(game, a) for a in actions]
            self._hand = HandPick(turn, cards, actions, labels)
        return self._hand

    def _hand_key(self, hand: HandPick, key: str) -> list[Event]:
        if hand.size == 0:
            return []
        if key == "n":
            hand.cursor = (hand.cursor + 1) % hand.size
            return []
        if hand.cursor < len(hand.cards):
            self.keyboard.typed = str(hand.cards[hand.cursor])
            return self.keyboard.press("\n")
        return self._table_option(hand.actions[hand.cursor - len(hand.cards)])

    def _table_option(self, action: Action) -> list[Event]:
        """NEXT until the table's cursor is on ``action``, then OK."""
        assert self.controller is not None and self.controller.choice is not None
        choice = self.controller.choice
        steps = (choice.options.index(action) - choice.cursor) % len(choice.options)
        presses: list[Event] = [ButtonPressed("next")] * steps
        return [*presses, ButtonPressed("ok")]

    def panel(self, width: int = PANEL_WIDTH) -> list[str]:
        """What the human sees of their own, ``width`` columns wide: money, cars and hand always (when one
        seat is played here: nobody else looks on), the question or the pick when asked, the keys."""
        asked = self.question_seat if self.question is not None else self.seat_asked()
        seat = asked if asked is not None or len(self.seats) != 1 else self.seats[0]
        if seat is None or self.controller is None:
            return [self.note] if self.note else []
        game = self.controller.game
        cars = ", ".join(str(c) for c in sorted(game.cars_of(seat))) or "no cars"
        lines = [f"{game.names[seat]} (you): {money(game.money[seat])}; {cars}"]
        hand = self.hand() if asked is not None and self.question is None else None
        if hand is None or len(hand.cards) < len(game.hands[seat]):  # (none may be laid: a pit stop to collect)
            lines.extend(hand_lines(game, seat, width))
        if self.question is not None:
            lines.extend(self.question.lines())
        elif asked is not None:
            lines.append(self.controller.prompt)
            if hand is not None:
                lines.extend(picked_lines(hand.labels, hand.cursor, rows=2 * SHOWN_OPTIONS))
            if isinstance(trade := self.controller.entry, TradeEntry):
                lines.extend(trade_lines(trade))
            if self.keyboard.typed:
                lines.append(f"typed: {self.keyboard.typed}")
            lines.append(self.keyboard.key_map.help)  # the screen wraps what is wider than the terminal
        if self.note:
            lines.append(self.note)
        return lines

    def ask(self, seat: int, question: Question, step: Callable[[], None], still: Callable[[], bool]) -> Any:
        """Put ``question`` to the human at ``seat`` and wait for the answer, the table
        stepping on meanwhile; ``None`` when ``still`` says it no longer stands."""
        self.question, self.question_seat = question, seat
        self.changed()
        shown = question.lines()
        try:
            while not question.answered and still():
                step()
                if question.lines() != shown:  # a countdown ticked
                    shown = question.lines()
                    self.changed()
        finally:
            self.question = self.question_seat = None
            self.changed()  # a question gone (answered, or its window closed) leaves the screen at once
        return question.answer if question.answered else None

    def close(self) -> None:
        self.keyboard.close()
