"""The joining step: while it is open, the table's own board shows a code for each seat; a
phone that opens one takes that seat (its old link stops working), and the table says so.

The codes are short-lived and used once: they are made when the step opens and die when
it closes, so a code seen on the board later opens nothing. They are shown only on the
table's board, the screen the players look at, whose link has a token of its own: the
board everyone may read says only which seats may be taken, never a code.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from toprace_pi.web.qr import qr_svg
from toprace_pi.web.seats import SeatKeys, new_token, same_token

#: Seconds a joining step stays open when asked for at the table.
JOIN_SECONDS = 90.0


class Joining:
    """The join codes of the open joining step, if one is open (shared by the table's thread,
    which opens it, and the server's, which takes the codes); ``board`` is the token of the
    table's own board, the only page that shows them (a new one if not given)."""

    def __init__(self, keys: SeatKeys, base_url: str, *, board: str | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.keys = keys
        self.base_url = base_url.rstrip("/")
        self.board = board or new_token()
        self.clock = clock
        self._lock = threading.Lock()
        self._codes: dict[str, int] = {}
        self._until = 0.0
        #: What the table's board shows of each seat that may be taken: its name, colour, code's URL and QR code.
        self.shown: list[dict[str, Any]] | None = None
        #: Counts the changes of what the boards show, so the pages are posted again.
        self.version = 0
        self._taken: list[int] = []

    def open(self, names: Sequence[str], colours: Sequence[str], seconds: float = JOIN_SECONDS) -> None:
        """Make a fresh code for every seat, shown on the table's board for ``seconds``."""
        with self._lock:
            self._codes = {new_token(): seat for seat in range(len(names))}
            self._until = self.clock() + seconds
            self.shown = [{"seat": seat, "name": names[seat], "colour": colours[seat], "url": self.url(code),
                           "qr": qr_svg(self.url(code))} for code, seat in self._codes.items()]
            self.version += 1

    def url(self, code: str) -> str:
        return f"{self.base_url}/join/{code}"

    @property
    def board_url(self) -> str:
        return board_url(self.base_url, self.board)

    def opens_board(self, token: str) -> bool:
        return same_token(self.board, token)

    def taken(self) -> list[int]:
        """The seats taken by a new phone since the last call, in order."""
        with self._lock:
            taken, self._taken = self._taken, []
        return taken

    def tick(self) -> bool:
        """Close the step once its time is up; whether it closed now."""
        with self._lock:
            if self.shown is None or self.clock() < self._until:
                return False
            self._close()
            return True

    def take(self, code: str) -> str | None:
        """The new token of the seat ``code`` opens (its old one is dead now), or ``None``; the code
        is used up, and once every seat has joined the step closes."""
        with self._lock:
            if self.shown is None or self.clock() >= self._until:
                return None
            seat = next((s for known, s in self._codes.items() if same_token(known, code)), None)
            if seat is None:
                return None
            self._codes = {k: s for k, s in self._codes.items() if s != seat}
            self.shown = [entry for entry in self.shown if entry["seat"] != seat]
            self.version += 1
            self._taken.append(seat)
            if not self._codes:
                self._close()
            return self.keys.hand_over(seat)

    def _close(self) -> None:
        self._codes = {}
        self.shown = None
        self.version += 1


def board_url(base_url: str, token: str) -> str:
    """The link of the table's own board, opened by ``token``, among the pages at ``base_url``."""
    return f"{base_url}/table/{token}"
