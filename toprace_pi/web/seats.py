"""Who may open a seat's page: one secret token per seat, new for every game.

A seat's page is reached at ``/seat/<token>``; the token is the only thing that
proves a phone sits at that seat, so it is long (128 random bits), compared in
constant time, and never logged. Handing a seat to a new phone mints a new token
and the old link stops working. The tokens are kept in a file beside the
journal, private to the table's user, so seat pages survive a restart of the
table; a file written for another game (another journal) is not used.

The table's own board (the page on the screen the players look at, which alone shows
the seats' join codes) has a token of its own, kept beside the journal too but for
every game: the screen keeps its link from one game to the next.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import secrets
from pathlib import Path
from typing import Any

from toprace_pi.files import write_atomically

log = logging.getLogger(__name__)

#: Bytes of randomness in a token (its URL-safe text is 22 characters).
TOKEN_BYTES = 16
#: Who may read the tokens file: the table's user only.
PRIVATE = 0o600


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def same_token(known: str, given: str) -> bool:
    """Whether ``given`` (from a request: any text) is ``known``, in a time that does not tell how much matched."""
    return hmac.compare_digest(known.encode(), given.encode("utf-8", "replace"))


class SeatKeys:
    """The seats' tokens of one game. ``path`` (or ``None``: kept in memory only) is where
    they are kept; ``game`` names the game they belong to (its journal's identity), so
    the tokens of a finished game never open the next one's seats."""

    def __init__(self, seats: int, *, path: Path | None = None, game: str = "") -> None:
        self.path = path
        self.game = game
        kept = self._load(seats)
        self.tokens: list[str] = kept or [new_token() for _ in range(seats)]
        if not kept:
            self._save()

    @classmethod
    def for_journal(cls, seats: int, journal: Path | None) -> SeatKeys:
        """The tokens of the game ``journal`` holds, kept beside it (in memory without a journal)."""
        if journal is None:
            return cls(seats)
        return cls(seats, path=journal.with_name(journal.name + ".seats"), game=journal_identity(journal))

    def seat_of(self, token: str) -> int | None:
        """The seat ``token`` opens, or ``None``. Every token is compared, in constant time."""
        found = None
        for seat, known in enumerate(self.tokens):
            if same_token(known, token):
                found = seat
        return found

    def hand_over(self, seat: int) -> str:
        """A new token for ``seat`` (a new phone takes it): the old one opens nothing any more."""
        self.tokens[seat] = new_token()
        self._save()
        return self.tokens[seat]

    def _load(self, seats: int) -> list[str] | None:
        if self.path is None or not self.path.exists():
            return None
        try:
            data = json.loads(self.path.read_text("utf-8"))
        except (OSError, ValueError) as exc:
            log.warning("%s cannot be read (%s): the seats get new links", self.path, exc)
            return None
        tokens = data.get("tokens") if isinstance(data, dict) else None
        if data.get("game") != self.game or not isinstance(tokens, list) or len(tokens) != seats \
                or not all(isinstance(t, str) and len(t) >= 16 for t in tokens):
            return None  # another game's, or not ours
        return tokens

    def _save(self) -> None:
        if self.path is not None:
            _keep(self.path, {"game": self.game, "tokens": self.tokens}, "the seats' links")


def board_file(journal: Path) -> Path:
    """Where the table board's token is kept: beside the journal, private to the table's user."""
    return journal.with_name(journal.name + ".board")


def kept_board_token(journal: Path) -> str | None:
    """The table board's token kept beside ``journal``; ``None`` if none is kept there (an
    :class:`OSError` if the file is there but cannot be read)."""
    try:
        data = json.loads(board_file(journal).read_text("utf-8"))
    except (FileNotFoundError, ValueError):  # none yet, or damaged: a new one is made
        return None
    token = data.get("token") if isinstance(data, dict) else None
    return token if isinstance(token, str) and len(token) >= 16 else None


def board_token(journal: Path | None) -> str:
    """The token of the table's own board: the one kept beside ``journal``, else a new one kept there
    (in memory only without a journal)."""
    if journal is None:
        return new_token()
    try:
        token = kept_board_token(journal)
    except OSError as exc:
        log.warning("%s cannot be read (%s): the table's board gets a new link", board_file(journal), exc.strerror)
        token = None
    if token is None:
        token = new_token()
        _keep(board_file(journal), {"token": token}, "the table board's link")
    return token


def _keep(path: Path, data: dict[str, Any], what: str) -> None:
    """Write ``data`` to ``path`` for the table's user alone; if it cannot, ``what`` still works until
    the table restarts, and the log says so."""
    try:
        write_atomically(path, json.dumps(data), mode=PRIVATE)
    except OSError as exc:
        log.warning("%s cannot be kept in %s: %s", what, path, exc.strerror or exc)


def journal_identity(journal: Path) -> str:
    """What tells one game's journal from the next one's at the same path: its file's
    inode (a new game is a new file, made while the old one is kept under another name)
    and its header line."""
    try:
        with open(journal, "rb") as file:
            header = file.readline()
            inode = os.fstat(file.fileno()).st_ino
    except OSError:
        return ""
    return f"{inode}:{hashlib.sha256(header).hexdigest()[:16]}"
