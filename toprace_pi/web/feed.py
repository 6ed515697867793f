"""The posts the table hands the web server, kept in order for every client.

The table's thread adds a post after each step it shows; the server's event loop
sends each client the posts after the last one it has seen. The table never
waits for a client: adding a post is a lock, an append and a wake-up call, and a
client that falls further behind than :data:`KEPT` posts (a phone gone to sleep,
a slow link) is sent the latest post instead of the ones it missed, since every
post holds the whole picture, not a change.

A decision that closes by itself (a claim window) is counted down on the pages: the
feed keeps when it closes on its own clock, and each client is told the seconds left
when the post is sent to it, however late that is (a phone that wakes up mid-window).
"""

from __future__ import annotations

import asyncio
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

#: The table's own board as a reader of the feed (a seat is its number, the spectators ``None``).
TABLE: Literal["table"] = "table"
#: Who a post is sent to: a seat, the spectators, or the table's own board.
Reader = int | Literal["table"] | None

#: Posts kept for clients that are behind (128 posts are minutes of play at a table; each holds a post per seat).
KEPT = 128


@dataclass(frozen=True, slots=True)
class Post:
    """What the pages show after one step: the spectators' post, each seat's and the table's board's,
    as JSON text, and when the decision it shows closes by itself (the feed's clock; ``None``: it waits
    for its inputs)."""

    seq: int
    spectator: str
    seats: tuple[str, ...]
    table: str
    closes_at: float | None = None

    def for_reader(self, reader: Reader) -> str:
        if isinstance(reader, int):
            return self.seats[reader]
        return self.spectator if reader is None else self.table

    def sent(self, reader: Reader, now: float) -> str:
        """The post as sent to ``reader``'s page at ``now``: with ``closes_in``, the seconds left then,
        when the decision closes by itself."""
        text = self.for_reader(reader)
        if self.closes_at is None:
            return text
        return f'{{"closes_in":{max(self.closes_at - now, 0.0):.2f},{text[1:]}'


class Feed:
    """The posts in order, shared by the table's thread (:meth:`add`) and the server's loop."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        #: Tells this run of the table from the one before a restart: a post's id is ``epoch.seq``.
        self.epoch = secrets.token_hex(4)
        self.clock = clock
        self._lock = threading.Lock()
        self._posts: deque[Post] = deque(maxlen=KEPT)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._new: asyncio.Event | None = None
        self._closed = False

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """The server's loop, where clients wait (called from that loop)."""
        self._loop = loop
        self._new = asyncio.Event()

    @property
    def latest(self) -> Post | None:
        with self._lock:
            return self._posts[-1] if self._posts else None

    def add(self, spectator: str, seats: tuple[str, ...], closes_in: float | None = None,
            table: str | None = None) -> Post:
        """Called by the table's thread: a new post (its decision closing by itself in ``closes_in``
        seconds; the table's board shown ``table``, else the spectators' post), and the waiting clients
        woken."""
        closes_at = None if closes_in is None else self.clock() + closes_in
        with self._lock:
            seq = self._posts[-1].seq + 1 if self._posts else 1
            post = Post(seq, spectator, seats, spectator if table is None else table, closes_at)
            self._posts.append(post)
        self._wake()
        return post

    def close(self) -> None:
        """No more posts: every client's stream ends."""
        self._closed = True
        self._wake()

    def _wake(self) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self._set)
            except RuntimeError:  # the loop is closing
                pass

    def _set(self) -> None:
        assert self._new is not None
        self._new.set()
        self._new = asyncio.Event()

    def after(self, seq: int) -> list[Post]:
        """The posts after ``seq`` in order; only the latest for a new client (``seq`` 0: it wants the
        table as it is, not its history) and for one too far behind (or ahead: a table restarted and
        counting again)."""
        with self._lock:
            posts = list(self._posts)
        if not posts:
            return []
        if seq == 0 or seq > posts[-1].seq or seq < posts[0].seq - 1:
            return [posts[-1]]
        return [p for p in posts if p.seq > seq]

    async def wait(self, seq: int, timeout: float) -> list[Post]:
        """The posts after ``seq``, waiting up to ``timeout`` seconds for one (``[]`` then)."""
        posts = self.after(seq)
        if posts or self._closed or self._new is None:
            return posts
        try:
            # no task of its own per wait, unlike wait_for: a follower is kept small
            async with asyncio.timeout(timeout):
                await self._new.wait()
        except TimeoutError:
            return []
        return self.after(seq)

    @property
    def closed(self) -> bool:
        return self._closed
