"""Seats the table plays itself (``[bots] seats``): a search bot for each.

A bot seat takes part as a seat's phone page does: when its decision comes, its bot
thinks on a copy of the game as that seat sees it, in a thread of its own (a search
takes up to a couple of seconds on a Pi, and the readers, buttons and LEDs must not
wait for it), and sends its choice to the table as that seat's input. The controller
checks, journals, applies and announces it like any other; a choice that comes too late
(the game moved on meanwhile, an UNDO) is refused as stale, and the bot thinks again.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Sequence
from typing import Any

from toprace_pi.core.bots import shown_to
from toprace_pi.table.controller import TableController
from toprace_pi.table.remote import SeatInput

log = logging.getLogger(__name__)
#: Who a bot seat's inputs are by, in the journal and the log.
BY = "the table's bot"


class BotSeats:
    """The table's own players at ``seats``, each with ``bot(seat)``'s bot; :meth:`watch`
    runs after every step of the table (a :attr:`~toprace_pi.table.run.Table.watchers` entry)
    and hands each choice to ``inbox``, the table's input queue."""

    def __init__(self, controller: TableController, seats: Sequence[int], bot: Callable[[int], Any],
                 inbox: queue.Queue[Any]) -> None:
        self.controller = controller
        self.bots = {seat: bot(seat) for seat in seats}
        self.inbox = inbox
        #: The seats thinking now, with the step their decision came at.
        self._thinking: dict[int, int] = {}
        #: The step last looked at, unless a choice was refused since (then the seats look again).
        self._looked: int | None = None
        self._lock = threading.Lock()

    def watch(self) -> None:
        """Set each bot seat whose decision it is thinking, unless it already is about this step."""
        game = self.controller.game
        step = len(game.log)
        if step == self._looked or game.is_over:
            return
        self._looked = step
        for seat, bot in self.bots.items():
            if not self.controller.seat_options(seat):
                continue
            with self._lock:
                if seat in self._thinking:  # it is told when its choice is taken or refused
                    continue
                self._thinking[seat] = step
            seen = shown_to(bot, game.clone(), seat)
            threading.Thread(target=self._think, args=(seat, bot, seen, step), name=f"bot seat {seat + 1}",
                             daemon=True).start()

    def _think(self, seat: int, bot: Any, seen: Any, step: int) -> None:
        try:
            action = bot.choose(seen)
        except Exception:  # a bot's bug must not stop the table: the seat waits, the log says why
            log.exception("the bot of seat %d failed", seat + 1)
            return
        self.inbox.put(SeatInput(seat, str(action), step, lambda reason: self._answered(seat, reason), by=BY))

    def _answered(self, seat: int, reason: str | None) -> None:
        """The table took the choice (``None``) or refused it (stale): either way the seat may think again."""
        if reason is not None:
            log.info("the table refused the bot of seat %d: %s", seat + 1, reason)
        with self._lock:
            self._thinking.pop(seat, None)
            self._looked = None
