"""The web pages of a running table: its posts, its seats' links and its server, wired to a
:class:`~toprace_pi.table.run.Table` (the real one under systemd, or the demo's).

After each step of the table (its LEDs shown) a post is made if the pages would
change; the seats' inputs arrive in the table's own input queue. Holding PASS opens
a joining step: the spectator board shows each seat's code for a while.
"""

from __future__ import annotations

import logging
import socket
import time
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

from toprace_pi.table.config import TableConfig
from toprace_pi.table.run import Table
from toprace_pi.web.feed import Feed
from toprace_pi.web.joining import JOIN_SECONDS, Joining
from toprace_pi.web.posts import Poster
from toprace_pi.web.qr import qr_text
from toprace_pi.web.seats import SeatKeys
from toprace_pi.web.server import WebError, WebServer

log = logging.getLogger(__name__)

#: Seconds the demo's pages stay up after its game, so that everyone sees the end.
DEMO_LINGER = 10.0
#: What the table says when a joining step opens.
JOIN_OPEN = "the seats' codes are on the board for {seconds:.0f} seconds: scan yours to take your seat"


class TableWeb:
    """The pages of ``table``, served at ``host``:``port``; ``url`` is how phones reach the
    table (by default its address on the local network); ``journal`` keeps the seats' links."""

    def __init__(self, table: Table, *, host: str = "127.0.0.1", port: int = 8080, url: str | None = None,
                 journal: Path | None = None, linger: float = 0.0) -> None:
        self.table = table
        controller = table.controller
        game = controller.game
        self.keys = SeatKeys.for_journal(len(game.names), journal)
        self.feed = Feed()
        self.page = controller.side.page()
        self.poster = Poster(self.page)
        self.server = WebServer(self.feed, self.keys, Joining(self.keys, ""), table.buttons,
                                lambda: self.poster.board, host=host, port=port)
        self.poster.joining = self.server.joining
        self._url = url
        self.linger = linger

    def start(self) -> None:
        """Listen (a :class:`~toprace_pi.web.server.WebError` if it cannot), post the table as it
        is now, and follow it from now on."""
        self.server.start()
        self.server.joining.base_url = self.base_url
        self.table.watchers.append(self.after_step)
        self.table.controller.join = self.open_joining
        self.table.controller.side.pages_open()
        self.after_step()

    @property
    def base_url(self) -> str:
        """How a phone on the table's network reaches the pages."""
        if self._url:
            return self._url.rstrip("/")
        host = self.server.host
        if host in ("", "0.0.0.0", "::"):
            host = local_address()
        return f"http://{host}:{self.server.port}"

    def seat_url(self, seat: int) -> str:
        return f"{self.base_url}/seat/{self.keys.tokens[seat]}"

    def after_step(self) -> None:
        """The table took a step (or none): post it if the pages would change."""
        self.server.joining.tick()
        made = self.poster.post(self.table.controller)
        if made is not None:
            self.feed.add(*made)

    def open_joining(self, seconds: float = JOIN_SECONDS) -> str:
        """Show every seat's code on the spectator board for ``seconds``; what the table says."""
        game = self.table.controller.game
        colours = self.page.colours(game.seen_by(None))
        self.server.joining.open(game.names, colours, seconds)
        return JOIN_OPEN.format(seconds=seconds)

    def links(self, *, qr: Collection[int] = ()) -> list[str]:
        """The lines that tell whoever started the table where the pages are: the board's address,
        and each seat's link, with a QR code for the seats in ``qr``."""
        names = self.table.controller.game.names
        lines = [f"the board for everyone: {self.base_url}/"]
        for seat, name in enumerate(names):
            lines.append(f"{name}'s seat (keep it to yourself): {self.seat_url(seat)}")
            if seat in qr:
                lines.append(qr_text(self.seat_url(seat)))
        return lines

    def close(self) -> None:
        """Stop following the table and serving, after :attr:`linger` seconds if the game is over."""
        if self.after_step in self.table.watchers:
            self.table.watchers.remove(self.after_step)
        if self.linger and self.table.controller.game.is_over:
            time.sleep(self.linger)
        self.server.stop()


def local_address() -> str:
    """This machine's address on its local network (no packet is sent: a datagram socket
    only picks the route), or the loopback's when it has none."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def open_pages(config: TableConfig, table: Table, announcer: Any, *, new_game: bool) -> list[Callable[[], None]]:
    """``[web]`` on the real table: the pages served beside it (a joining step open at a new game's start,
    so the phones can take their seats), and what closes them. Pages that cannot start are said, and the
    table plays on without them. The seats' links are never logged: they are the seats' secrets."""
    assert config.web is not None
    web = TableWeb(table, host=config.web.host, port=config.web.port, url=config.web.url, journal=config.journal)
    try:
        web.start()
    except WebError as exc:
        announcer.say(f"{exc}: the table plays on without it")
        return []
    log.info("the table's web page: %s/", web.base_url)
    if new_game:
        announcer.say(web.open_joining())
    return [web.close]
