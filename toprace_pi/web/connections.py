"""The web server's connections: how many at once, how long a request may take to arrive, what the log
says about them, and the memory they leave behind.

Anyone on the table's network can open connections by the thousand, or send bytes that are no HTTP.
So the server takes at most :func:`bounds`' connections at once, well below the open-files limit (one more
is answered 503 and closed before a byte of it is read), and lets only half of them follow the feed, so
that a page and an input always find room. A connection whose request has not fully arrived
:data:`HEADER_WITHIN` seconds after it opened (or after its last answer) is closed. A malformed request, or
an error of the server's loop (an accept refused at the open-files limit), is one line of the log, without
the request (a seat's token may be in it): the first at once, those after it counted and told once a
minute. When the feed's followers have gone, the memory they took is handed back to the system.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import logging
import resource
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError
from aiohttp.web_protocol import RequestHandler

#: Seconds a connection may take to send a whole request's headers, from its opening or its last answer:
#: a phone sends them at once; one still sending, or sending nothing, is closed (a slowloris).
HEADER_WITHIN = 5.0
#: The most connections served at once, whatever the open-files limit: a table's phones and screens need
#: a few dozen (a browser opens up to six to one server).
MOST_CONNECTIONS = 128
#: Connections waiting to be accepted, and so the most accepted in one go before any is refused.
BACKLOG = 32
#: Seconds between two lines of the log about the same kind of trouble.
TELL_EVERY = 60.0
#: Seconds after a follower leaves before the memory is handed back (once for a crowd leaving together).
TRIM_AFTER = 2.0


@dataclass(frozen=True)
class Bounds:
    """How many connections the server takes at once, and how many of them may follow the feed."""

    connections: int
    followers: int


def bounds(open_files: int | None = None) -> Bounds:
    """The bounds under ``open_files`` (this process's soft limit by default): a quarter of it for the
    connections, at most :data:`MOST_CONNECTIONS`, so that the table's own files and a backlog of
    connections accepted in one go (before the extra ones are refused) always fit; half of those for
    the feed's followers."""
    if open_files is None:
        open_files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if open_files == resource.RLIM_INFINITY:
        open_files = 4 * MOST_CONNECTIONS
    connections = max(2, min(MOST_CONNECTIONS, open_files // 4))
    return Bounds(connections, connections // 2)


class BoundedSite(web.BaseSite):
    """A TCP site of ``runner`` that serves at most ``most`` connections at once: one more is sent
    ``refusal`` (a whole HTTP answer) and closed, before anything of it is read."""

    def __init__(self, runner: web.BaseRunner, host: str, port: int, *, most: int, headers: dict[str, str]) -> None:
        super().__init__(runner, backlog=BACKLOG)
        self._host = host
        self._port = port
        self._most = most
        self._headers = headers
        self._refusal = _busy(headers)
        self._listening: asyncio.Server | None = None

    @property
    def name(self) -> str:
        return f"http://{self._host}:{self.port}"

    @property
    def port(self) -> int:
        """The port it listens on (the one picked for it when asked for 0)."""
        if self._listening is not None and self._listening.sockets:
            return int(self._listening.sockets[0].getsockname()[1])
        return self._port

    async def start(self) -> None:
        await super().start()
        self._listening = await asyncio.get_running_loop().create_server(
            self._protocol, self._host, self._port, backlog=self._backlog)
        self._server = self._listening

    def _protocol(self) -> asyncio.BaseProtocol:
        server = self._runner.server
        assert server is not None
        if len(server.connections) >= self._most:
            return _Refused(self._refusal)
        # aiohttp's own handler, made as its server makes it, but answering a malformed request as below
        return _Handler(server, loop=asyncio.get_running_loop(), headers=self._headers,
                        **server._kwargs)  # noqa: SLF001 (the server's settings, as it passes them itself)


class _Handler(RequestHandler):
    """aiohttp's connection handler, but a request it cannot read is answered in a few words with the
    table's security headers, never with the request echoed (a seat's token may be in it)."""

    def __init__(self, *args: Any, headers: dict[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._table_headers = headers

    def handle_error(self, request: Any, status: int = 500, exc: BaseException | None = None,
                     message: str | None = None) -> web.StreamResponse:
        answer = super().handle_error(request, status, exc, None)  # logs it, as its logger says
        reason = "the table could not read this request" if status < 500 else "the table could not answer this"
        response = web.json_response({"error": reason}, status=answer.status, headers=self._table_headers)
        response.force_close()
        return response


class _Refused(asyncio.Protocol):
    """A connection over the bound: answered and closed, nothing read."""

    def __init__(self, answer: bytes) -> None:
        self.answer = answer

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.WriteTransport)
        transport.write(self.answer)
        transport.close()


class OncePerMinute:
    """Tells the first of a kind of trouble at once, then counts those after it and tells the count every
    :data:`TELL_EVERY` seconds while they go on: a flood makes a line a minute, not a line each."""

    def __init__(self, loop: asyncio.AbstractEventLoop, tell: Callable[[str], None], what: str) -> None:
        self._loop = loop
        self._tell = tell
        self._what = what
        self._counted: int | None = None  # None: nothing told in the last minute

    def note(self, line: str) -> None:
        """One more of them; ``line`` tells it, if it is the first in a minute."""
        if self._counted is not None:
            self._counted += 1
            return
        self._tell(line)
        self._start_minute()

    def _start_minute(self) -> None:
        self._counted = 0
        self._loop.call_later(TELL_EVERY, self._end_minute)

    def _end_minute(self) -> None:
        if not self._counted:
            self._counted = None
            return
        self._tell(f"{self._counted:,} more {self._what} in the last minute")
        self._start_minute()


class RequestLog(logging.LoggerAdapter[logging.Logger]):
    """What aiohttp logs about requests and connections, as ``logger`` says it: a malformed request in
    one line without the request, a fault of a handler without its traceback (unless debugging), each
    kind at most once a minute with the count of the others."""

    def __init__(self, logger: logging.Logger, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(logger, {})
        self._malformed = OncePerMinute(loop, logger.warning, "malformed requests refused")
        self._faults = OncePerMinute(loop, logger.error, "requests failed")

    def exception(self, msg: object, *args: object, exc_info: Any = True, **kwargs: Any) -> None:
        self._tell(msg, args, exc_info)

    def debug(self, msg: object, *args: object, exc_info: Any = None, **kwargs: Any) -> None:
        if isinstance(exc_info, HttpProcessingError):  # bytes that are no HTTP (aiohttp tells them quietly)
            self._tell(msg, args, exc_info)
        else:
            super().debug(msg, *args, exc_info=exc_info, **kwargs)

    def _tell(self, msg: object, args: tuple[object, ...], exc_info: Any) -> None:
        """aiohttp passes the client's address as the only argument of the requests' messages."""
        where = f" from {args[0]}" if len(args) == 1 else ""
        error = exc_info if isinstance(exc_info, BaseException) else None
        if isinstance(error, HttpProcessingError):
            self._malformed.note(f"refused a malformed request{where} ({type(error).__name__}); "
                                 f"more are counted, told once a minute")
        else:
            self._faults.note(f"a request{where} failed: {msg} ({type(error).__name__})")
            if error is not None:
                self.logger.debug("what failed", exc_info=error)


def quiet_loop_errors(loop: asyncio.AbstractEventLoop, logger: logging.Logger) -> None:
    """The errors of ``loop`` that have no caller to go to (an accept refused for want of files) told in
    one line, at most once a minute; their traceback only when debugging."""
    told = OncePerMinute(loop, logger.error, "errors of the web server's loop")

    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        error = context.get("exception")
        told.note(f"the web server: {context.get('message', 'an error')}: {error or ''}")
        if error is not None:
            logger.debug("the web server's error", exc_info=error)

    loop.set_exception_handler(handle)


class MemoryReturn:
    """Hands the memory freed by followers that left back to the system, once for a crowd leaving
    together: the C library keeps freed memory for the process, and a crowd of followers (up to the
    bound) leaves megabytes of it behind."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._due: asyncio.TimerHandle | None = None

    def follower_left(self) -> None:
        if self._due is None:
            self._due = self._loop.call_later(TRIM_AFTER, self._trim)

    def _trim(self) -> None:
        self._due = None
        if _malloc_trim is not None:
            _malloc_trim(0)


def _find_malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim`` (None in a C library without it)."""
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):
        return None


_malloc_trim = _find_malloc_trim()


def _busy(headers: dict[str, str]) -> bytes:
    """The whole answer to a connection over the bound, sent before anything of it is read."""
    text = b"the table serves as many connections as it can: try again in a moment"
    lines = {**headers, "Content-Type": "text/plain; charset=utf-8", "Content-Length": str(len(text)),
             "Connection": "close", "Retry-After": "5"}
    head = "".join(f"{name}: {value}\r\n" for name, value in lines.items())
    return f"HTTP/1.1 503 Service Unavailable\r\n{head}\r\n".encode() + text
