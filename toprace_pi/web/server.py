"""The table's web server: the spectator board, the seats' pages, their live feeds and inputs.

It runs aiohttp on its own event loop in a thread of the table's process. The table's
thread never waits for it: the table adds posts to the :class:`~toprace_pi.web.feed.Feed`
and reads the seats' inputs from its own queue, as it reads the buttons'. Each page
follows its feed as server-sent events (an ``EventSource`` reconnects by itself after
the table restarts, asking for the posts after the last it saw).

What a request may do is decided by the token in its path alone; a request with a
token that opens no seat reads nothing and changes nothing. A request for a name
that is not the table's is refused, and so is a POST from a page the table did not
serve (:mod:`.names`). No URL is logged (a seat's URL is its secret), bodies are
small and checked, every page forbids scripts from anywhere but the table itself,
and every answer, an error's too, carries the same security headers.
"""

from __future__ import annotations

import asyncio
import json
import logging
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from importlib import resources
from typing import Any

from aiohttp import web

from toprace_pi.errors import TopRaceError
from toprace_pi.table.remote import SeatInput
from toprace_pi.web.connections import HEADER_WITHIN, BoundedSite, MemoryReturn, RequestLog, bounds, quiet_loop_errors
from toprace_pi.web.feed import TABLE, Feed, Reader
from toprace_pi.web.joining import Joining
from toprace_pi.web.names import TableNames
from toprace_pi.web.seats import SeatKeys

log = logging.getLogger(__name__)

#: The largest request body taken (a seat's input is a few dozen bytes).
MAX_BODY = 2048
#: Seconds a seat's input waits for the table to take it or say why not.
REPLY_WITHIN = 5.0
#: Seconds between keep-alive comments on an idle feed (proxies and phones drop silent streams).
KEEP_ALIVE = 15.0
#: Seconds a write to a client may take before the client is given up (it reconnects by itself).
WRITE_WITHIN = 10.0
#: The files of the pages, served from the package and nowhere else.
STATIC = {"board.js": "text/javascript", "page.css": "text/css", "seat.js": "text/javascript"}
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; "
                               "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # a seat's URL never leaves in a Referer header
    "Cache-Control": "no-store",
}


class WebError(TopRaceError):
    """The web server cannot start (the port is taken, the address is not this machine's)."""


def _file(name: str) -> bytes:
    return resources.files("toprace_pi.web").joinpath("static").joinpath(name).read_bytes()


class WebServer:
    """Serves one table's pages at ``host``:``port`` (0: any free port) until :meth:`stop`, to the
    table's own names (and ``url``'s, how phones reach it). Seat inputs go to ``inbox``, the queue the
    table reads its buttons from."""

    def __init__(self, feed: Feed, keys: SeatKeys, joining: Joining, inbox: queue.Queue[Any],
                 board: Callable[[], str], *, host: str = "127.0.0.1", port: int = 8080,
                 url: str | None = None) -> None:
        self.names = TableNames(host, url)
        self.feed = feed
        self.keys = keys
        self.joining = joining
        self.inbox = inbox
        self.board = board
        self.host = host
        self.port = port
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._thread: threading.Thread | None = None
        self._pages = {name: _file(name) for name in ("board.html", "seat.html", "gone.html", "no-board.html")}
        self._static = {name: _file(name) for name in STATIC}
        self.bounds = bounds()
        self._followers = 0
        self._memory: MemoryReturn | None = None

    # --- starting and stopping ----------------------------------------------------

    def start(self) -> None:
        """Listen, in a thread of its own; :class:`WebError` if it cannot."""
        started: Future[None] = Future()
        self._thread = threading.Thread(target=self._serve, args=(started,), name="web", daemon=True)
        self._thread.start()
        try:
            started.result(timeout=30)
        except OSError as exc:
            raise WebError(f"the web page cannot listen on {self.host}:{self.port}: {exc.strerror or exc}") from None

    def _serve(self, started: Future[None]) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            loop.run_until_complete(self._listen())
        except BaseException as exc:  # reported to start()
            started.set_exception(exc)
            loop.close()
            return
        started.set_result(None)
        try:
            loop.run_forever()
        finally:
            loop.run_until_complete(self._runner.cleanup() if self._runner else asyncio.sleep(0))
            loop.close()

    async def _listen(self) -> None:
        """Listen with the bounds of :mod:`.connections`; a handler whose client has gone is cancelled at
        once (a follower's memory is freed then, not at its next keep-alive)."""
        loop = asyncio.get_running_loop()
        self.feed.attach(loop)
        quiet_loop_errors(loop, log)
        self._memory = MemoryReturn(loop)
        self._runner = web.AppRunner(self.app(), access_log=None, shutdown_timeout=1.0, handle_signals=False,
                                     keepalive_timeout=HEADER_WITHIN, handler_cancellation=True,
                                     logger=RequestLog(log, loop))
        await self._runner.setup()
        site = BoundedSite(self._runner, self.host, self.port, most=self.bounds.connections, headers=HEADERS)
        await site.start()
        self.port = site.port

    def stop(self) -> None:
        """End every feed and stop listening."""
        self.feed.close()
        loop, thread = self._loop, self._thread
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(loop.stop)
        if thread is not None:
            thread.join(timeout=10)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    # --- the app --------------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY, middlewares=[_headers, self._guard])
        app.add_routes([
            web.get("/", self._spectator_page),
            web.get("/events", self._spectator_feed),
            web.get("/table/{token}", self._table_page),
            web.get("/table/{token}/", self._table_page),
            web.get("/table/{token}/events", self._table_feed),
            web.get("/board.svg", self._board),
            web.get("/static/{name}", self._static_file),
            web.get("/seat/", self._no_seat),
            web.get("/seat/{token}", self._seat_page),
            web.get("/seat/{token}/", self._seat_page),  # as typed or pasted with a slash (seat.js drops it)
            web.get("/seat/{token}/events", self._seat_feed),
            web.post("/seat/{token}/act", self._act),
            web.get("/join/{code}", self._join),
        ])
        return app

    @web.middleware
    async def _guard(self, request: web.Request, handler: Callable[[web.Request], Any]) -> web.StreamResponse:
        """Only requests for the table's own names, and POSTs from its own pages, reach a handler."""
        if not self.names.answers_to(request.headers.get("Host")):
            return _refusal(request, 421, "this table answers to its own names and addresses only")
        if request.method == "POST" and not self.names.is_own_page(request.headers):
            return _refusal(request, 403, "only the table's own pages may send it inputs")
        response: web.StreamResponse = await handler(request)
        return response

    def _html(self, name: str, status: int = 200) -> web.Response:
        return web.Response(body=self._pages[name], status=status, content_type="text/html", charset="utf-8")

    async def _spectator_page(self, request: web.Request) -> web.StreamResponse:
        return self._html("board.html")

    async def _board(self, request: web.Request) -> web.StreamResponse:
        return web.Response(text=self.board(), content_type="image/svg+xml", charset="utf-8")

    async def _static_file(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if name not in self._static:
            raise web.HTTPNotFound(text="no such file")
        return web.Response(body=self._static[name], content_type=STATIC[name], charset="utf-8")

    def _seat(self, request: web.Request) -> int | None:
        return self.keys.seat_of(request.match_info["token"])

    async def _seat_page(self, request: web.Request) -> web.StreamResponse:
        return self._html("seat.html") if self._seat(request) is not None else self._html("gone.html", 404)

    async def _no_seat(self, request: web.Request) -> web.StreamResponse:
        return self._html("gone.html", 404)

    async def _spectator_feed(self, request: web.Request) -> web.StreamResponse:
        return await self._follow(request, None)

    async def _table_page(self, request: web.Request) -> web.StreamResponse:
        return self._html("board.html") if self.joining.opens_board(request.match_info["token"]) \
            else self._html("no-board.html", 404)

    async def _table_feed(self, request: web.Request) -> web.StreamResponse:
        if not self.joining.opens_board(request.match_info["token"]):
            raise web.HTTPNotFound(text="this link opens no board")
        return await self._follow(request, TABLE)

    async def _seat_feed(self, request: web.Request) -> web.StreamResponse:
        seat = self._seat(request)
        if seat is None:
            raise web.HTTPNotFound(text="this link opens no seat")
        return await self._follow(request, seat, request.match_info["token"])

    async def _follow(self, request: web.Request, reader: Reader, token: str = "") -> web.StreamResponse:
        """:meth:`_send_posts` to at most :attr:`bounds`' followers at once (each holds a connection and its
        memory for as long as it stays); one more is refused."""
        if self._followers >= self.bounds.followers:
            raise web.HTTPServiceUnavailable(text="as many pages follow the table as it can serve: try again soon")
        self._followers += 1
        try:
            return await self._send_posts(request, reader, token)
        finally:
            self._followers -= 1
            if self._memory is not None:
                self._memory.follower_left()

    async def _send_posts(self, request: web.Request, reader: Reader, token: str = "") -> web.StreamResponse:
        """Send ``reader`` the posts in order as server-sent events until the client goes (or its seat is
        handed over)."""
        response = web.StreamResponse(headers={**HEADERS, "Content-Type": "text/event-stream",
                                               "X-Accel-Buffering": "no"})
        seen = _last_seen(request, self.feed.epoch)
        try:
            await response.prepare(request)
            await _write(response, b"retry: 1000\n\n")
            while not self.feed.closed:
                posts = await self.feed.wait(seen, KEEP_ALIVE)
                if isinstance(reader, int) and self.keys.seat_of(token) != reader:  # handed over: not one post more
                    await _write(response, b"event: gone\ndata: {}\n\n")
                    break
                if not posts:
                    await _write(response, b": still here\n\n")
                for post in posts:
                    event = f"id: {self.feed.epoch}.{post.seq}\ndata: {post.sent(reader, self.feed.clock())}\n\n"
                    await _write(response, event.encode())
                    seen = post.seq
        except (ConnectionError, TimeoutError, asyncio.CancelledError):
            pass  # the client went; it reconnects by itself if it wants more
        return response

    async def _act(self, request: web.Request) -> web.StreamResponse:
        """A seat's input: ``{"act": notation, "step": n}``, taken by the table or refused with its reason."""
        seat = self._seat(request)
        if seat is None:
            return _error(404, "this link opens no seat")
        if request.content_type != "application/json":
            return _error(415, "send the input as JSON")
        try:
            body = json.loads(await request.read())
        except (ValueError, UnicodeDecodeError):
            return _error(400, "the input is not JSON")
        except RecursionError:
            return _error(400, "the input is nested too deeply")
        except web.HTTPRequestEntityTooLarge:
            return _error(413, "the input is too long")
        if not isinstance(body, dict) or not isinstance(body.get("act"), str) or len(body["act"]) > 200 \
                or not isinstance(body.get("step"), int) or isinstance(body.get("step"), bool):
            return _error(400, 'the input is {"act": text, "step": a whole number}')
        return await self._hand_to_table(seat, body["act"], body["step"])

    async def _hand_to_table(self, seat: int, text: str, step: int) -> web.StreamResponse:
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[str | None] = loop.create_future()

        def answered(reason: str | None) -> None:
            if not answer.done():  # the request may have given up waiting
                answer.set_result(reason)

        def reply(reason: str | None) -> None:  # called in the table's thread
            loop.call_soon_threadsafe(answered, reason)

        self.inbox.put(SeatInput(seat, text, step, reply))
        try:
            reason = await asyncio.wait_for(answer, REPLY_WITHIN)
        except TimeoutError:
            return _error(503, "the table did not answer: try again")
        if reason is not None:
            return _error(409, reason)
        return web.json_response({"ok": True})

    async def _join(self, request: web.Request) -> web.StreamResponse:
        token = self.joining.take(request.match_info["code"])
        if token is None:
            return self._html("gone.html", 404)
        raise web.HTTPSeeOther(f"/seat/{token}")


@web.middleware
async def _headers(request: web.Request, handler: Callable[[web.Request], Any]) -> web.StreamResponse:
    """Every answer with the security headers: a page's, an error's, and a fault's of a handler (a 500,
    told in one line of the log: no traceback for each request that meets it)."""
    try:
        response: web.StreamResponse = await handler(request)
    except web.HTTPException as exc:
        if request.method == "POST" and exc.status >= 400:  # what a page sends is answered in JSON
            return _error(exc.status, exc.reason.lower())
        exc.headers.update(HEADERS)
        raise
    except Exception as exc:  # a fault of ours: answered, and logged without the path (it may hold a token)
        route = request.match_info.route.resource
        log.error("%s %s failed: %s: %.200r", request.method, route.canonical if route else "?",
                  type(exc).__name__, str(exc))
        return _error(500, "the table could not answer this: try again")
    if not response.prepared:
        response.headers.update(HEADERS)
    return response


def _error(status: int, reason: str) -> web.Response:
    return web.json_response({"error": reason}, status=status, headers=HEADERS)


def _refusal(request: web.Request, status: int, reason: str) -> web.Response:
    """A request refused for ``reason``: in JSON to a POST (a page's script reads it), else in words."""
    if request.method == "POST":
        return _error(status, reason)
    return web.Response(text=reason, status=status, headers=HEADERS)


def _last_seen(request: web.Request, epoch: str) -> int:
    """The last post the client saw (``Last-Event-ID`` on a reconnection), 0 for none or for a post of the
    table before it restarted (its numbers start again)."""
    seen_epoch, _, seq = request.headers.get("Last-Event-ID", "").partition(".")
    return int(seq) if seen_epoch == epoch and seq.isdigit() and len(seq) < 12 else 0


async def _write(response: web.StreamResponse, data: bytes) -> None:
    await asyncio.wait_for(response.write(data), WRITE_WITHIN)
