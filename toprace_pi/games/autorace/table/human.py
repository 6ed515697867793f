"""Human seats at the keyboard, beside the demo's bots.

The keyboard (:class:`~toprace_pi.hardware.keyboard.Keyboard`) is one more device the table
polls, so a human's card reaches the controller, the journal and the strip exactly as a card
laid on the seats' reader does. :class:`HumanConsole` adds what a player's own hands and eyes
do at a real table: NEXT and OK go through the cards the player may lay (held in front of
them), and OK lays the one under the cursor face down; a suit's letter, a number and Enter
lays that card at once (a change of mind, too: lay another of your cards). Keys that steer the
demo itself (pause, step, quit) are kept aside for it.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from toprace_pi.games.autorace.render.palette import seat_suits, suit_letters
from toprace_pi.games.autorace.rules import Autorace, card_word
from toprace_pi.games.autorace.rules.events import dollars
from toprace_pi.games.autorace.table.entries import SealedChoice
from toprace_pi.games.autorace.table.keys import key_map
from toprace_pi.hardware import Device
from toprace_pi.hardware.events import DeviceStatus, Event
from toprace_pi.hardware.keyboard import DEVICE, HELD_UNDO, Keyboard, KeySource
from toprace_pi.table.controller import TableController
from toprace_pi.table.demo import DEMO_KEYS, typed_ahead

#: The panel's lines are wrapped to fit the narrowest terminal the demo draws on.
PANEL_WIDTH = 79


@dataclass
class HumanConsole(Device):
    """The keyboard of the human ``seats``; ``changed`` shows a key's effect: at once for
    a key the console keeps, once the table has taken it for a key it passes on (Table.taken)."""

    keys: KeySource
    seats: Sequence[int]
    changed: Callable[[], None] = lambda: None
    controller: TableController | None = None
    #: The demo's own keys, in the order pressed, for the demo to take.
    demo_keys: list[str] = field(default_factory=list)
    #: The last thing a key could not do, said on the player's panel.
    note: str = ""
    name: str = DEVICE
    cursor: int = 0
    _keyboard: Keyboard | None = None
    _asked: tuple[int, int, int] | None = None  # (seat, game, round) the cursor was set for
    _pending: list[str] = field(default_factory=list)

    def poll(self) -> list[Event]:
        """Keys typed ahead wait their turn: one key for the table at a poll, each read against the
        table as it is after the one before; what was typed while no human seat was asked is dropped."""
        typed_ahead(self._pending, self.keys, asked=self.seat_asked() is not None)
        while self._pending:
            key = self._pending.pop(0)
            self.note = ""
            if key in DEMO_KEYS and not self.keyboard.typed:
                self.demo_keys.append(key)
                continue
            events = self._table_key(key)
            if events:
                return events  # shown once the table has taken them (Table.taken)
            self.changed()
        return []

    @property
    def keyboard(self) -> Keyboard:
        """The keys of the game in play (made when the table is there to say which)."""
        if self._keyboard is None:
            assert self.controller is not None, "the console is polled by a table"
            game = self.controller.game
            self._keyboard = Keyboard(self.keys, key_map(game.board, len(game.names)))
        return self._keyboard

    def seat_asked(self) -> int | None:
        """The first human seat whose card the round still waits for, if any."""
        entry = self.controller.entry if self.controller is not None else None
        if not isinstance(entry, SealedChoice):
            return None
        return next((seat for seat in entry.waiting if seat in self.seats), None)

    def _table_key(self, key: str) -> list[Event]:
        seat = self.seat_asked()
        if key == HELD_UNDO:  # anyone at the table may press UNDO
            return self.keyboard.press(key)
        if seat is not None and key in ("n", "o") and not self.keyboard.typed:
            return self._pick(seat, key)
        if key.upper() in self._others() and not self.keyboard.typed:
            self.note = "that is another player's colour: lay one of your own cards"
            return []
        events = self.keyboard.press(key)
        for event in events:
            if isinstance(event, DeviceStatus):
                self.note = event.message
        return [e for e in events if not isinstance(e, DeviceStatus)]

    def _others(self) -> set[str]:
        """The letters of the seats the bots play."""
        assert self.controller is not None
        game = self.controller.game
        letters = suit_letters(seat_suits(game.board, len(game.names)))
        return {letter for seat, letter in enumerate(letters) if seat not in self.seats}

    def options(self, seat: int) -> list[int]:
        """The cards ``seat`` may lay now, as its own view says (the cursor goes through them)."""
        assert self.controller is not None
        game = self.controller.game
        asked = (seat, game.game_number, game.round)
        if asked != self._asked:
            self._asked, self.cursor = asked, 0
        return list(game.view(seat)["my_options"])

    def _pick(self, seat: int, key: str) -> list[Event]:
        cards = self.options(seat)
        if key == "n":
            self.cursor = (self.cursor + 1) % len(cards)
            return []
        assert self.controller is not None
        game: Autorace = self.controller.game
        letter = suit_letters(seat_suits(game.board, len(game.names)))[seat]
        self.keyboard.typed = f"{letter}{cards[self.cursor]}"
        return self.keyboard.press("\n")

    def panel(self) -> list[str]:
        """What the asked human sees of their own: money, place, the cards they may lay, the keys."""
        seat = self.seat_asked()
        if seat is None or self.controller is None:
            return [line for line in (self.note, self._typed()) if line]
        game = self.controller.game
        suit = seat_suits(game.board, len(game.names))[seat]
        cards = " ".join(f"[{card_word(c)}]" if n == self.cursor else card_word(c)
                         for n, c in enumerate(self.options(seat)))
        lines = [f"{game.names[seat]} (you, {suit.name}): {dollars(game.money[seat])}, at {game.positions[seat]}",
                 f"your cards (NEXT n, OK o lays it face down): {cards}", self.controller.prompt,
                 *textwrap.wrap(self.keyboard.key_map.help, PANEL_WIDTH)]
        return lines + [line for line in (self._typed(), self.note) if line]

    def _typed(self) -> str:
        return f"typed: {self._keyboard.typed}" if self._keyboard is not None and self._keyboard.typed else ""

    def close(self) -> None:
        self.keys.close()
