"""The names the table answers to, and the pages a POST may come from.

A site elsewhere can make a visitor's browser talk to the table in two ways. It can give one of its own
names the table's address (DNS rebinding): the browser then reads the table's answers as that site's. The
``Host`` header gives it away, so the table answers only to its own names and addresses. Or a page of the
site sends a POST straight to the table's address: the browser then says where the page came from
(``Origin``), so a POST is taken only from a page the table served, under the name it was sent to.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Mapping
from urllib.parse import urlsplit

#: Names every machine gives itself.
LOOPBACK = ("localhost", "127.0.0.1", "::1")
#: Listening on these means listening on every address of the machine.
EVERY_ADDRESS = ("", "0.0.0.0", "::")
#: A ``Host`` header: a name or an IPv4 address, or an IPv6 address in brackets; then an optional port.
HOST = re.compile(r"(?P<name>[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\])(?::(?P<port>[0-9]{1,5}))?")
#: The port a browser leaves out of an origin.
DEFAULT_PORTS = {"http": 80, "https": 443}


class TableNames:
    """The names and addresses of the table serving at ``bound`` (the address it listens on), reached by
    phones at ``url`` when that is set: ``localhost`` and the loopback's addresses, this machine's host
    name (and its ``.local`` name, as mDNS gives it), ``url``'s host, and every address of this machine,
    also one it gets after the table started (a Pi whose network comes up after it)."""

    def __init__(self, bound: str = "", url: str | None = None) -> None:
        machine = socket.gethostname().lower()
        self.names = {*LOOPBACK, machine, f"{machine}.local"}
        self.url = _origin(url) if url else None
        if self.url is not None:
            self.names.add(self.url[1])
        if bound not in EVERY_ADDRESS:
            self.names.add(_plain(bound))
        #: Addresses found to be this machine's (only they are kept: a few at most).
        self._mine: set[str] = set()

    def answers_to(self, host: str | None) -> bool:
        """Whether ``host`` (a request's ``Host`` header, any port) is a name or an address of the table."""
        found = _host(host)
        return found is not None and (found[0] in self.names or self._is_mine(found[0]))

    def is_own_page(self, headers: Mapping[str, str]) -> bool:
        """Whether a request comes from a page of the table: the origin it names (``Origin``, else the
        ``Referer``'s) is the one it was sent to (its ``Host``), or the configured ``url``'s."""
        sent_from = headers.get("Origin") or headers.get("Referer")
        origin = _origin(sent_from) if sent_from else None
        if origin is None or origin == self.url:
            return origin is not None
        scheme, name, port = origin
        sent_to = _host(headers.get("Host"))
        return sent_to is not None and self.answers_to(headers.get("Host")) \
            and (name, port) == (sent_to[0], sent_to[1] or DEFAULT_PORTS[scheme])

    def _is_mine(self, name: str) -> bool:
        """Whether ``name`` is an address of this machine: one a socket can be bound to."""
        if name in self._mine:
            return True
        try:
            family = socket.AF_INET6 if ipaddress.ip_address(name).version == 6 else socket.AF_INET
        except ValueError:
            return False  # a name that is not the table's
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as probe:
                probe.bind((name, 0))
        except OSError:
            return False
        self._mine.add(name)
        return True


def _host(header: str | None) -> tuple[str, int | None] | None:
    """The name (lower case, no brackets, no final dot) and the port of a ``Host`` header; ``None``
    for a header that is not one."""
    found = HOST.fullmatch(header or "")
    if found is None:
        return None
    port = found["port"]
    return _plain(found["name"]), int(port) if port else None


def _origin(url: str) -> tuple[str, str, int] | None:
    """The scheme, name and port of the page at ``url`` (an ``Origin`` or a ``Referer``), or ``None``
    (``null``, another scheme, no name)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:  # a port that is not one
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return parts.scheme, _plain(parts.hostname), port or DEFAULT_PORTS[parts.scheme]


def _plain(name: str) -> str:
    return name.strip("[]").rstrip(".").lower()
