"""The table controller: turns scans and button presses into rule actions, and says
what follows.

It owns the game (any game of the registry) and is the only thing that changes it,
and knows none of its rules: the game's :class:`~toprace_pi.table.side.GameTable`
says how each decision is entered. Every input is an :mod:`event
<toprace_pi.hardware.events>`; :meth:`handle` never raises for bad input: it
refuses with a spoken reason and a buzz, and the game stays exactly as it was.
UNDO (held) takes back the last confirmed step: the game as it was before it,
kept as a clone (or rebuilt from the log), so an undo is as exact as a replay.

A step the journal cannot save (a full disk, a write that failed) is kept, not
dropped: the table says so once and tries to save it again, later and later (by
its clock), while it takes no other input; once saved, the game goes on as if
the disk had never failed. A card laid meanwhile need not be laid again, nor
does anyone have to give an input for a deal or a reveal the table makes itself.
"""

from __future__ import annotations

import errno
import logging
import math
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from toprace_pi.core import registry
from toprace_pi.errors import IllegalActionError
from toprace_pi.hardware.events import ButtonPressed, DeviceStatus, Event, TagLaid
from toprace_pi.hardware.sound import Sound
from toprace_pi.table.journal import Journal
from toprace_pi.table.modes import Choice, Identity, InputMode, Refusal, Step
from toprace_pi.table.remote import MOVED_ON, NOT_YOURS, SeatInput
from toprace_pi.table.side import NOTHING_TO_UNDO, GameTable

log = logging.getLogger(__name__)

#: How many actions back UNDO finds the game kept in memory; further back it is rebuilt from the log.
UNDO_DEPTH = 32
#: A bound on the steps due one after another without input: a game that never waits for anyone is a bug.
MAX_DUE = 10_000
#: Seconds before a timed window (the pit stop claims) closes when the table beeps that time is nearly up.
HURRY_BEFORE = 2.0
#: Seconds after a timed window closed in which NEXT or OK is taken as meant for it, and refused: a press
#: that came too late must not act on the decision that followed.
LATE_PRESS = 1.0
#: Seconds before a step the journal refused is tried again; doubled after each failure, up to SAVE_RETRY_MOST.
SAVE_RETRY_FIRST = 1.0
SAVE_RETRY_MOST = 30.0
#: The errors of a disk with no room left: the table says which disk to make room on.
DISK_FULL = (errno.ENOSPC, errno.EDQUOT)


@dataclass
class Unsaved:
    """A step the journal refused, kept to be saved again at ``due`` (the table's clock): its actions
    (``None``: an undo), the input that led to it, as the journal notes it, and what it is called aloud."""

    actions: Sequence[Any] | None
    input_number: int
    by: str | None = None
    what: str = "the step"
    #: A step due without input (a deal, a reveal), which follows the last one taken.
    automatic: bool = False
    #: The error last told (a new one is told too, the same one again is not).
    error: int | None = None
    wait: float = SAVE_RETRY_FIRST
    due: float = 0.0


class TableController:
    """Runs one game at the table, knowing nothing of its rules: the game's ``side``
    (by default the one its registry entry names) says how each decision is taken.
    ``identify`` says what a tag stands for (or ``None`` for a tag not enrolled);
    ``say`` speaks or prints a sentence; ``dealer`` makes the game's deal where a
    machine shuffles (the demo), else the players deal by hand.

    What the table asks for (the prompt) goes to ``ask`` (by default ``say``),
    once each time it changes: a speaker may replace a prompt not yet spoken by a
    newer one, while news goes to ``say`` and is never dropped. A short press of
    NEXT that means nothing else asks for the prompt again, and so does a quiet
    time of ``repeat_prompt`` seconds without input (0: never).

    Each engine event goes to ``announce``; by default the events the side finds
    worth a sentence aloud are said. A narrator (the demo) tells them all."""

    def __init__(
        self,
        game: Any,
        *,
        identify: Callable[[TagLaid], Identity | None],
        say: Callable[[str], None],
        ask: Callable[[str], None] | None = None,
        sound: Sound,
        dealer: Callable[[Any], Any] | None = None,
        clock: Callable[[], float] = time.monotonic,
        journal: Journal | None = None,
        inputs: int = 0,
        repeat_prompt: float = 0.0,
        announce: Callable[[Any], None] | None = None,
        side: GameTable | None = None,
    ) -> None:
        self.game = game
        self.side: GameTable = side or registry.get(type(game).info.name).table()
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
        self.entry: InputMode | None = None
        self.refusals = 0
        self._told = len(game.events)
        #: The step the journal refused and the table tries to save again; no other input is taken meanwhile.
        self.unsaved: Unsaved | None = None
        #: The game as it was after each of the last steps (kept by :meth:`remember`): UNDO goes back from one.
        self._history: deque[Any] = deque(maxlen=UNDO_DEPTH)
        #: The timed entry the table has beeped for, and when the last timed entry closed by itself.
        self._hurried: InputMode | None = None
        self._timed_out: float | None = None
        #: Opens a joining step for the seats' phones (held PASS) and says what to do; set by the web pages.
        self.join: Callable[[], str] | None = None
        #: Shows the game on the LEDs; set by the table. Called once a step is taken and the next
        #: decision set up, before the step's news and the prompt are said: the lights are the table's
        #: quick answer to a card, and a sentence waits for a speaker anyway.
        self.show: Callable[[], None] | None = None
        self._page: Any = None
        self._prepare()

    # --- inputs ------------------------------------------------------------------

    def handle(self, event: Event | SeatInput) -> None:
        """React to one thing that happened at the table."""
        self.inputs += 1
        self._input = _describe(event)
        self._quiet_since = self.clock()
        if self.unsaved is not None and isinstance(event, (TagLaid, ButtonPressed, SeatInput)):
            self._wait_for_disk(event)
        elif isinstance(event, TagLaid):
            self._tag(event)
        elif isinstance(event, ButtonPressed):
            self._button(event)
        elif isinstance(event, DeviceStatus):
            self.say(event.message)
        elif isinstance(event, SeatInput):
            event.reply(self._seat_input(event))

    def tick(self, now: float) -> None:
        """Time passes: an entry with a time limit (the pit stop claim window) beeps when it is
        nearly up and may close, and after a quiet time the prompt is said again. A step the journal
        refused is tried again when its time comes, and nothing else happens until it is saved."""
        if self.unsaved is not None:
            if now >= self.unsaved.due:
                self._save_again(now)
            return
        entry = self.entry
        step = entry.tick(now) if entry is not None else None
        if step is not None:
            self._timed_out = now
            self._step(step)
        elif entry is not None and self._nearly_up(entry, now):
            self._hurried = entry
            self.sound.hurry()
        elif self.repeat_prompt and now - self._quiet_since >= self.repeat_prompt and not self.game.is_over:
            self._say_prompt(again=True)

    def _nearly_up(self, entry: InputMode, now: float) -> bool:
        left = entry.time_left(now)
        return entry is not self._hurried and left is not None and left <= HURRY_BEFORE

    def _too_late(self, event: ButtonPressed) -> bool:
        """Whether NEXT or OK came just after a timed window closed by itself: it was meant for the window."""
        late = self._timed_out is not None and self.clock() - self._timed_out < LATE_PRESS
        self._timed_out = None
        return late and event.button in ("next", "ok")

    def _tag(self, event: TagLaid) -> None:
        what = self.identify(event)
        if what is None:
            self.refuse(self.side.unknown_tag(event.record, self.game))
        elif self.side.ignores(event.reader, what, self.game):
            log.debug("a tag read again on the %s reader: no new input", event.reader)  # it may be a secret
        elif self.entry is not None:
            self._step(self.entry.tag(what))
        else:
            self._step(self.side.tag(self.game, what))

    def _button(self, event: ButtonPressed) -> None:
        if self._too_late(event):
            self.refuse(f"too late: the time was up before that {event.button.upper()}; now {self.prompt}")
        elif event.button == "undo":
            self.undo() if event.held else self.refuse("hold UNDO to take back the last step")
        elif event.button == "pass" and event.held and self.join is not None:
            self.say(self.join())
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
                self._apply_all([self.choice.current])
        elif event.button == "pass" and (passing := self.side.passing(self.game)):
            self._apply_all(list(passing))
        elif event.button == "next" and not event.held:
            self._say_prompt(again=True)
        else:
            self.refuse(f"{event.button.upper()} means nothing now: {self.prompt}")

    def _seat_input(self, event: SeatInput) -> str | None:
        """A seat's page asks for an action: taken as any input is (journal, LEDs, news), or
        the reason it is not, for that page alone (nothing is said aloud, nothing changes)."""
        game = self.game
        if game.is_over:
            return "the game is over"
        if not self._still_current(event):
            return MOVED_ON
        try:
            action = game.parse(event.text)
        except (IllegalActionError, ValueError):
            return f"not an action of {type(game).info.title}"
        if action not in self.seat_options(event.seat):
            return NOT_YOURS
        try:
            if not self._commit([action]):
                return self.prompt  # the page is told that the table waits for its journal
        except IllegalActionError:
            return NOT_YOURS
        log.info("a step was taken from %s", event)
        self.sound.confirm()
        self._prepare()
        return None

    def _still_current(self, event: SeatInput) -> bool:
        """Whether the page's action still answers the decision it was offered at (``event.step``): the game
        has not moved since, or, at a sealed choice of several seats, only the others have laid their cards
        meanwhile (a reveal, or the seat's own card, and it is stale: a request sent twice is taken once)."""
        log = self.game.log
        if event.step == len(log):
            return True
        if not 0 <= event.step < len(log) or not type(self.game).info.simultaneous:
            return False
        return all(getattr(action, "seat", None) not in (None, event.seat) for action in log[event.step:])

    def seat_options(self, seat: int) -> list[Any]:
        """What ``seat`` may do now from its own page (the game's page decides: not an auction held aloud);
        nothing while a step waits to be saved."""
        if self.unsaved is not None:
            return []
        if self._page is None:
            self._page = self.side.page()
        return list(self._page.options(self.game, seat))

    def _step(self, step: Step) -> None:
        if isinstance(step, Refusal):
            self.refuse(step.reason)
        elif step is None:
            self._say_prompt()  # one part entered: say what comes next
        else:
            self._apply_all(step)

    # --- changing the game -------------------------------------------------------

    def _apply(self, action: Any) -> None:
        self._apply_all([action])

    def _apply_all(self, actions: Sequence[Any]) -> None:
        """Take the steps one input leads to, all or none: checked (on a copy of the
        game when there are several), made durable together, then applied."""
        try:
            if not self._commit(actions):
                return
        except IllegalActionError as exc:
            self.refuse(self._refusal(exc))
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

    def _commit(self, actions: Sequence[Any], *, automatic: bool = False, what: str = "the step") -> bool:
        """Check ``actions`` (several on a copy of the game: all are taken or none), make them
        durable in the journal, then take them: a step the disk refuses is never shown. Whether
        they were taken: if the journal refused them, they wait in :attr:`unsaved`."""
        if len(actions) > 1:
            trial = self.game.clone()
            for action in actions:
                trial.apply(action)
        if self.journal is not None and len(actions) == 1:
            self.game.check(actions[0])
        step = Unsaved(actions, self.inputs, None if automatic else self._input, what, automatic)
        if not self._saved(step):
            return False
        for action in actions:
            self.game.apply(action)  # its events are told by the _prepare that follows
        return True

    def _saved(self, step: Unsaved) -> bool:
        """Write ``step`` to the journal; if the disk refuses, keep it to be tried again and say so, once."""
        try:
            self._write(step)
        except OSError as exc:
            step.error, step.due = exc.errno, self.clock() + step.wait
            self.unsaved = step
            self.entry = self.choice = None
            self._tell_events()  # those of the last step taken, if this one is due without input
            taken = "the last step was taken, but " if step.automatic and self.game.log else ""
            self.refuse(taken + _unsaved_news(step, exc))
            return False
        return True

    def _write(self, step: Unsaved) -> None:
        """Append ``step``'s record to the journal (if the table keeps one); raises OSError if the disk refuses."""
        if self.journal is None:
            return
        if step.actions is None:
            self.journal.append_undo(input_number=step.input_number)
        else:
            self.journal.append(step.actions, input_number=step.input_number, by=step.by)

    def _save_again(self, now: float) -> None:
        """Try again to save the step the journal refused; saved, the game goes on from it (its news,
        the next decision), else it waits twice as long (up to a limit), said only if the error changed."""
        step = self.unsaved
        assert step is not None
        try:
            self._write(step)
        except OSError as exc:
            step.wait = min(step.wait * 2, SAVE_RETRY_MOST)
            step.due = now + step.wait
            log.debug("%s still cannot be saved: %s", step.what, exc)
            if exc.errno != step.error:
                step.error = exc.errno
                self.say(_unsaved_news(step, exc))
            return
        self.unsaved = None
        self.say(f"{step.what} is saved: the game goes on")
        if step.actions is None:
            self._take_back()
            return
        for action in step.actions:
            self.game.apply(action)
        if not step.automatic:
            self.sound.confirm()
        self._prepare()

    def _wait_for_disk(self, event: TagLaid | ButtonPressed | SeatInput) -> None:
        """An input while a step waits to be saved: not taken (the game cannot go on before it)."""
        if isinstance(event, SeatInput):
            event.reply(self.prompt)
        else:
            self.refuse(self.prompt)

    def undo(self) -> None:
        """Take back the last confirmed step (never one chance made, such as the deal)."""
        game = self.game
        refusal = self.side.undo_refusal(game.log[-1]) if game.log else NOTHING_TO_UNDO
        if refusal is not None:
            self.refuse(refusal)
            return
        if self._saved(Unsaved(None, self.inputs, what="the undo")):
            self._take_back()

    def _take_back(self) -> None:
        """The undo is in the journal: the game goes back to before its last step."""
        game = self.game
        last = game.log[-1]
        self.game = self._before_last_step()
        self._told = len(self.game.events)
        self.say(self.side.taken_back(last))
        self._prepare()

    def remember(self) -> None:
        """Keep the game as it is now for UNDO, if it changed since last kept. The table
        calls this once its LEDs show the step, so the copy is off the way from a card
        laid to its light."""
        if not self._history or len(self._history[-1].log) != len(self.game.log):
            self._history.append(self.game.clone())

    def _before_last_step(self) -> Any:
        """The game as it was before its last action: the latest copy kept from before
        it, with the actions after it taken again (a step of several actions), else
        (further back than :data:`UNDO_DEPTH`, or a game resumed from the journal)
        rebuilt from the log."""
        game = self.game
        target = len(game.log) - 1
        while self._history and len(self._history[-1].log) > target:
            self._history.pop()
        if not self._history:
            return game.replayed(game.log[:target])
        kept = self._history[-1]
        earlier = self._history.pop() if len(kept.log) == target else kept.clone()
        for action in game.log[len(earlier.log):target]:
            earlier.apply(action)
        return earlier

    def _prepare(self, *, quiet: bool = False) -> None:
        """Set up the next decision: the steps due without input first (a deal, a reveal:
        one after another while they are due), then an entry of several inputs, or a
        NEXT/OK choice."""
        game = self.game
        self.entry = self._entry(game)
        for _ in range(MAX_DUE):
            due, what = self._due(game)
            if not due:
                break
            if not self._commit(due, automatic=True, what=what):  # it follows the last input, it is none
                return
            self.entry = self._entry(game)
        else:
            raise RuntimeError("the game takes steps without end and never waits for anyone")
        self.choice = None if self.entry is not None else self.side.choice(game)
        if self.show is not None:
            self.show()
        self._tell_events()
        if not game.is_over and not quiet:
            self._say_prompt(again=True)  # a new decision, even if in the same words as the last

    def _due(self, game: Any) -> tuple[Sequence[Any] | None, str]:
        """The steps due now without any input, and what they are called: a machine's deal (the
        demo's), or what the entry open now makes by itself (a deal with nothing to lay out, the
        reveal of sealed cards)."""
        if self.dealer is not None and self.side.is_deal(game):
            return [self.dealer(game)], "the deal"
        if self.entry is None:
            return None, ""
        return self.entry.automatic(), self.entry.due

    def _entry(self, game: Any) -> InputMode | None:
        return self.side.entry(game, self.clock(), dealt_by_hand=self.dealer is None)

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
        if self.unsaved is not None:
            left = math.ceil(max(self.unsaved.due - self.clock(), 0.0))
            return f"wait: {self.unsaved.what} is not saved yet (the table tries again in {left} s)"
        if self.entry is not None and not self.game.is_over:
            return self.entry.prompt
        return self.side.prompt(self.game, self.choice)

    def _tell_events(self) -> None:
        events = self.game.events[self._told:]
        self._told = len(self.game.events)
        for event in events:
            self.announce(event)
            place = self.side.finish_place(event)
            if place is not None:
                self.sound.finish(place)

    def _say_event(self, event: Any) -> None:
        sentence = self.side.announcement(event, self.game.names)
        if sentence:
            self.say(sentence)


def _unsaved_news(step: Unsaved, exc: OSError) -> str:
    """Why ``step`` is not saved and when it is tried again; for a full disk, which one to make room on."""
    if exc.errno in DISK_FULL:
        return (f"{step.what} could not be saved: the disk that holds {exc.filename or 'the journal'} is full. "
                f"Make room on it: the table tries again by itself (next in {step.wait:g} s)")
    return f"{step.what} could not be saved ({exc.strerror or exc}); trying again in {step.wait:g} s"


def _describe(event: Event | SeatInput) -> str:
    """An input in a few words, as the journal notes it."""
    if isinstance(event, TagLaid):
        return f"tag {event.uid.hex()} on {event.reader}"
    if isinstance(event, ButtonPressed):
        return f"{event.button}{' held' if event.held else ''}"
    if isinstance(event, SeatInput):
        return str(event)
    return type(event).__name__
