"""The web server against what anyone on the table's network can send it, over real sockets to a real table:
floods of malformed requests, more connections than it may open files, connections that never finish
their request, and a crowd of followers that comes and goes. The table's log stays short and holds no
seat's token, the table keeps answering, and its memory comes back."""

from __future__ import annotations

import os
import selectors
import socket
import time
from collections import Counter

from crowds import answers, connections, crowd_memory, paced, table_process

from toprace_pi.web.connections import HEADER_WITHIN, bounds

#: Seconds a closing may come after it is due (a loaded machine, the loop's timer).
SLACK = 3.0


def malformed(token: str, host: str) -> list[bytes]:
    """Requests of every kind that is no HTTP, most of them with a seat's token in them."""
    return [
        f"GET /seat/{token}\xff HTTP/1.1\r\nHost: {host}\r\n\r\n".encode("latin-1"),  # a byte no URL holds
        f"G\x01T /seat/{token} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode(),  # no method
        f"GET /seat/{token} HTTP/9.9\r\nHost: {host}\r\n\r\n".encode(),  # no HTTP version
        f"GET /seat/{token} HTTP/1.1\r\nHost: {host}\r\nX-Seat: {token * 200}\r\n\r\n".encode(),  # a header too long
        f"POST /seat/{token}/act HTTP/1.1\r\nHost: {host}\r\nContent-Length: {token}\r\n\r\n".encode(),
        b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03" + token.encode(),  # TLS spoken to the HTTP port
    ]


def test_a_flood_of_malformed_requests_writes_a_few_short_lines_without_the_requests(tmp_path):
    with table_process(tmp_path) as table:
        token = table.tokens[0]
        logged = len(table.log_text())
        kinds = malformed(token, table.host)
        answers = Counter()
        for n in range(3000):
            answer = table.request(kinds[n % len(kinds)])
            answers[answer[:12]] += 1
            assert token.encode() not in answer, answer  # the request is never echoed
            if b" 400 " in answer[:13]:
                assert b"\r\nContent-Security-Policy: " in answer and b"X-Content-Type-Options: nosniff" in answer
        assert answers[b"HTTP/1.0 400"] == 2500 and answers[b"HTTP/1.1 200"] == 500, answers  # the long header is good
        assert table.status(f"/seat/{token}") == 200  # it still serves
        time.sleep(0.5)
        log = table.log_text()[logged:]
    assert token not in log and "HTTP/" not in log and "/seat/" not in log and "Traceback" not in log
    lines = log.splitlines()
    assert 1 <= len(lines) <= 3 and len(log) < 1000, log[:3000]
    assert "refused a malformed request from 127.0.0.1" in lines[0]


def test_connections_beyond_the_bound_are_refused_well_below_the_open_files_limit(tmp_path):
    """400 connections that send nothing, to a table that may open 256 files: it never runs out of files,
    refuses those over its bound in words, and serves a page while they are all still held open (once
    the header timeout has closed those it let in)."""
    with table_process(tmp_path, open_files=256) as table:
        logged = len(table.log_text())
        idle = connections(table, 400)
        files, served = [], False
        until = time.monotonic() + HEADER_WITHIN + SLACK
        while not served and time.monotonic() < until:
            files.append(len(os.listdir(f"/proc/{table.process.pid}/fd")))
            served = table.status("/") == 200
            time.sleep(0.2)
        assert served, "no page served while the idle connections were held open"
        assert max(files) < 256 - bounds(256).connections, files
        assert answers(idle).get("503", 0) > 0
        log = table.log_text()[logged:]
        for sock in idle:
            sock.close()
    assert "out of system resource" not in log and len(log) < 1000, log[:3000]


def closing_times(crowd: list[socket.socket], start: float, within: float) -> list[float | None]:
    """The seconds from ``start`` until each socket of ``crowd`` is closed by the server (None: still open
    ``within`` seconds after ``start``); every second, each open one sends the next byte of a request it never
    finishes, if it is a slow one (an odd index), or nothing (an even one)."""
    slow = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 100
    closed: list[float | None] = [None] * len(crowd)
    sent = 0
    with selectors.DefaultSelector() as watch:
        for n, sock in enumerate(crowd):
            sock.setblocking(False)
            watch.register(sock, selectors.EVENT_READ, n)
        while watch.get_map() and time.monotonic() - start < within:
            for key, _ in watch.select(timeout=0.1):
                try:
                    data = key.fileobj.recv(4096)  # type: ignore[union-attr]
                except ConnectionResetError:
                    data = b""
                if not data:
                    closed[key.data] = time.monotonic() - start
                    watch.unregister(key.fileobj)
            if time.monotonic() - start >= sent + 1:
                sent += 1
                for key in list(watch.get_map().values()):
                    if key.data % 2:
                        key.fileobj.send(slow[sent - 1:sent])  # type: ignore[union-attr]
    return closed


def test_connections_that_never_finish_their_request_and_idle_ones_are_closed_in_seconds(tmp_path):
    with table_process(tmp_path) as table:
        start = time.monotonic()
        crowd = paced(table, 120)
        kept_alive = socket.create_connection(("127.0.0.1", table.port))
        kept_alive.sendall(f"GET / HTTP/1.1\r\nHost: {table.host}\r\n\r\n".encode())
        assert kept_alive.recv(64).startswith(b"HTTP/1.1 200")
        opened = time.monotonic() - start
        closed = closing_times([*crowd, kept_alive], start, opened + HEADER_WITHIN + SLACK)
        assert bounds().connections > len(crowd) + 1  # every one was let in
        for sock in [*crowd, kept_alive]:
            sock.close()
    assert all(seconds is not None and HEADER_WITHIN <= seconds <= opened + HEADER_WITHIN + SLACK
               for seconds in closed), (opened, sorted(s if s is not None else 1e9 for s in closed)[::20])


def test_the_memory_of_a_thousand_followers_comes_back_when_they_leave(tmp_path):
    with table_process(tmp_path) as table:
        memory = crowd_memory(table, 1000)
        assert table.status("/events") == 200
    assert memory.answered.get("200", 0) == bounds().followers, memory
    assert memory.after <= memory.before * 1.10, memory
