"""The web pages of a running table: its posts, its seats' links and its server, wired to a
:class:`~toprace_pi.table.run.Table` (the real one under systemd, or the demo's).

After each step of the table (its LEDs shown) a post is made if the pages would
change; the seats' inputs arrive in the table's own input queue. Holding PASS opens
a joining step: the table's own board shows each seat's code for a while, and a seat
taken by a new phone is said aloud and shown on every page.
"""

from __future__ import annotations

import logging
import socket
import time
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

from toprace_pi.errors import TopRaceError
from toprace_pi.table.config import TableConfig
from toprace_pi.table.run import Table
from toprace_pi.web.feed import Feed
from toprace_pi.web.joining import JOIN_SECONDS, Joining, board_url
from toprace_pi.web.names import EVERY_ADDRESS
from toprace_pi.web.posts import Poster
from toprace_pi.web.qr import qr_text
from toprace_pi.web.seats import SeatKeys, board_file, board_token, kept_board_token
from toprace_pi.web.server import WebError, WebServer

log = logging.getLogger(__name__)

#: Seconds the demo's pages stay up after its game, so that everyone sees the end.
DEMO_LINGER = 10.0
#: What the table says when a joining step opens.
JOIN_OPEN = "the seats' codes are on the table's board for {seconds:.0f} seconds: scan yours to take your seat"
#: What the table says, and every page shows, when a phone takes a seat with its code.
SEAT_TAKEN = "{name}'s seat is now on a new phone"
#: How the board for everyone is named to whoever started the table.
BOARD = "the board for everyone: {url}/"
#: How the table's own board is named to whoever started the table (its link is a secret of the table's screen).
TABLE_BOARD = "the table's own board, with the seats' join codes (for the table's screen only): {url}"


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
        joining = Joining(self.keys, "", board=board_token(journal))
        self.server = WebServer(self.feed, self.keys, joining, table.buttons,
                                lambda: self.poster.board, host=host, port=port, url=url)
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
        return base_url(self.server.host, self.server.port, self._url)

    def seat_url(self, seat: int) -> str:
        return f"{self.base_url}/seat/{self.keys.tokens[seat]}"

    def after_step(self) -> None:
        """The table took a step (or none): say the seats new phones took, and post it if the pages would change."""
        self.server.joining.tick()
        for seat in self.server.joining.taken():
            sentence = SEAT_TAKEN.format(name=self.table.controller.game.names[seat])
            self.table.controller.say(sentence)
            self.poster.tell(sentence)
        made = self.poster.post(self.table.controller)
        if made is not None:
            self.feed.add(*made)

    def open_joining(self, seconds: float = JOIN_SECONDS) -> str:
        """Show every seat's code on the table's own board for ``seconds``; what the table says."""
        game = self.table.controller.game
        colours = self.page.colours(game.seen_by(None))
        self.server.joining.open(game.names, colours, seconds)
        return JOIN_OPEN.format(seconds=seconds)

    def links(self, *, qr: Collection[int] = ()) -> list[str]:
        """The lines that tell whoever started the table where the pages are: the board's address, the
        table's own board, and each seat's link, with a QR code for the seats in ``qr``."""
        names = self.table.controller.game.names
        lines = [BOARD.format(url=self.base_url), TABLE_BOARD.format(url=self.server.joining.board_url)]
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


def base_url(host: str, port: int, url: str | None = None) -> str:
    """How a phone on the table's network reaches pages served at ``host``:``port``: at ``url`` if it is
    given, else at this machine's address on its network when they listen on every address."""
    if url:
        return url.rstrip("/")
    if host in EVERY_ADDRESS:
        host = local_address()
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


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


def table_links(config: TableConfig) -> list[str]:
    """The links of the boards of the table ``config`` sets up (``toprace-pi web-links``): the board for everyone,
    and the table's own, read from the private file the table keeps its token in, with a QR code for a tablet
    to scan. A :class:`TopRaceError` if the config serves no pages or the table has kept no token yet."""
    if config.web is None:
        raise TopRaceError("the configuration has no [web] section: the table serves no pages")
    where = board_file(config.journal)
    try:
        token = kept_board_token(config.journal)
    except OSError as exc:
        raise TopRaceError(f"{where} cannot be read ({exc.strerror}): ask as the table's user, "
                           "such as sudo -u toprace toprace-pi web-links --config FILE") from None
    if token is None:
        raise TopRaceError(f"no link is kept in {where} yet: the table makes it when it first serves its pages")
    url = base_url(config.web.host, config.web.port, config.web.url)
    table = board_url(url, token)
    return [BOARD.format(url=url), TABLE_BOARD.format(url=table), qr_text(table)]
