"""The web pages' parts on their own: the seats' tokens, the table board's, the feed of posts, the joining
step, the names the table answers to, the ``[web]`` section and ``--web``'s address."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import stat

import pytest

from toprace_pi.arguments import listen_address
from toprace_pi.errors import DataError
from toprace_pi.table.config import parse_config
from toprace_pi.web.feed import KEPT, TABLE, Feed
from toprace_pi.web.joining import Joining
from toprace_pi.web.names import TableNames
from toprace_pi.web.seats import SeatKeys, board_token


def test_each_seat_has_its_own_long_token_and_only_it_opens_the_seat():
    keys = SeatKeys(4)
    assert len(set(keys.tokens)) == 4 and all(len(t) >= 22 for t in keys.tokens)
    assert [keys.seat_of(t) for t in keys.tokens] == [0, 1, 2, 3]
    for wrong in ("", keys.tokens[0][:-1], keys.tokens[0] + "x", keys.tokens[0].upper(), "é" * 22):
        assert keys.seat_of(wrong) is None


def test_handing_a_seat_over_kills_its_old_token(tmp_path):
    journal = tmp_path / "journal.jsonl"
    journal.write_text('{"format": 1}\n')
    keys = SeatKeys.for_journal(3, journal)
    old = keys.tokens[1]
    new = keys.hand_over(1)
    assert keys.seat_of(old) is None and keys.seat_of(new) == 1
    assert SeatKeys.for_journal(3, journal).tokens == keys.tokens  # kept across a restart


def test_the_tokens_file_is_private_and_belongs_to_one_game(tmp_path):
    journal = tmp_path / "journal.jsonl"
    journal.write_text('{"format": 1, "n": 0}\n')
    keys = SeatKeys.for_journal(2, journal)
    kept = journal.with_name("journal.jsonl.seats")
    assert stat.S_IMODE(os.stat(kept).st_mode) == 0o600
    assert json.loads(kept.read_text())["tokens"] == keys.tokens
    journal.rename(tmp_path / "old.jsonl")  # the game is over: its journal is archived, a new one made
    journal.write_text('{"format": 1, "n": 0}\n')
    assert set(SeatKeys.for_journal(2, journal).tokens).isdisjoint(keys.tokens)


def test_a_damaged_tokens_file_gives_new_links(tmp_path):
    journal = tmp_path / "journal.jsonl"
    journal.write_text("{}\n")
    journal.with_name("journal.jsonl.seats").write_text("{not json")
    keys = SeatKeys.for_journal(2, journal)
    assert [keys.seat_of(t) for t in keys.tokens] == [0, 1]


def test_the_table_boards_token_is_private_and_kept_from_one_game_to_the_next(tmp_path):
    journal = tmp_path / "journal.jsonl"
    token = board_token(journal)
    kept = journal.with_name("journal.jsonl.board")
    assert len(token) >= 22 and stat.S_IMODE(os.stat(kept).st_mode) == 0o600
    journal.write_text('{"format": 1}\n')  # a new game at the same path: the table's screen keeps its link
    assert board_token(journal) == token
    kept.write_text("{not json")
    assert board_token(journal) not in ("", token)  # a damaged file: a new link
    assert board_token(None) != board_token(None)  # without a journal: a new one each run


def test_the_feed_keeps_posts_in_order_and_sends_the_latest_to_a_client_far_behind():
    feed = Feed()
    for n in range(KEPT + 10):
        feed.add(f"s{n}", (f"a{n}",))
    assert [p.seq for p in feed.after(KEPT + 5)] == list(range(KEPT + 6, KEPT + 11))
    assert [p.seq for p in feed.after(5)] == [KEPT + 10]  # fell out of the kept posts
    assert [p.seq for p in feed.after(0)] == [KEPT + 10]  # a new client: the table as it is
    assert [p.seq for p in feed.after(10_000)] == [KEPT + 10]  # a table restarted and counting again
    assert feed.latest is not None and feed.latest.for_reader(0) == f"a{KEPT + 9}"


def test_a_client_waiting_on_the_feed_wakes_for_a_post_from_another_thread():
    async def wait_for_one() -> list[int]:
        feed = Feed()
        feed.attach(asyncio.get_running_loop())
        loop = asyncio.get_running_loop()
        loop.call_later(0.05, lambda: loop.run_in_executor(None, feed.add, "s", ()))
        return [p.seq for p in await feed.wait(0, timeout=5)]

    assert asyncio.run(wait_for_one()) == [1]


def test_a_join_code_opens_its_seat_once_and_only_while_the_step_is_open():
    now = [0.0]
    keys = SeatKeys(2)
    joining = Joining(keys, "http://table:8080", clock=lambda: now[0])
    joining.open(("Anna", "Ben"), ("#ff0000", "#0000ff"), seconds=60)
    codes = {entry["name"]: entry["url"].rsplit("/", 1)[1] for entry in joining.shown or []}
    assert all(entry["qr"].startswith("<svg") for entry in joining.shown or [])
    old = keys.tokens[0]
    token = joining.take(codes["Anna"])
    assert token is not None and keys.seat_of(token) == 0 and keys.seat_of(old) is None
    assert joining.take(codes["Anna"]) is None
    now[0] = 61
    assert joining.take(codes["Ben"]) is None  # the step's time is up
    assert joining.tick() and joining.shown is None


def test_the_table_boards_post_is_its_own_and_the_spectators_without_one():
    feed = Feed()
    plain = feed.add("s", ("a",))
    assert (plain.for_reader(None), plain.for_reader(TABLE), plain.for_reader(0)) == ("s", "s", "a")
    joining = feed.add("s", ("a",), None, "t")
    assert (joining.for_reader(None), joining.for_reader(TABLE), joining.for_reader(0)) == ("s", "t", "a")


def test_the_table_answers_to_its_own_names_and_addresses_only():
    machine = socket.gethostname()
    names = TableNames("0.0.0.0", "http://toprace.example:8081")
    own = ["localhost", "LOCALHOST:8080", "127.0.0.1", "127.0.0.1:8080", "[::1]:8080", "localhost.", machine,
           f"{machine}.local:8080", "toprace.example", "toprace.example:80"]
    assert [host for host in own if not names.answers_to(host)] == []
    foreign = [None, "", "evil.example", "evil.example:8080", "localhost.evil.example", "127.0.0.1.evil.example",
               "evil@localhost", "localhost/x", "localhost:8080:1", "[::1", "8.8.8.8", "192.0.2.1:8080",
               "[2001:db8::1]"]
    assert [host for host in foreign if names.answers_to(host)] == []
    assert TableNames("192.0.2.7").answers_to("192.0.2.7:8080")  # the address it listens on, even if not bound yet


@pytest.mark.parametrize(("headers", "own"), [
    ({"Host": "127.0.0.1:8080", "Origin": "http://127.0.0.1:8080"}, True),
    ({"Host": "localhost", "Origin": "http://localhost"}, True),
    ({"Host": "localhost:80", "Origin": "http://localhost"}, True),
    ({"Host": "127.0.0.1:8080", "Referer": "http://127.0.0.1:8080/seat/x"}, True),  # a browser without Origin
    ({"Host": "127.0.0.1:8080", "Origin": "https://toprace.example"}, True),  # the configured address, by a proxy
    ({"Host": "127.0.0.1:8080"}, False),  # no Origin, no Referer
    ({"Host": "127.0.0.1:8080", "Origin": "null"}, False),
    ({"Host": "127.0.0.1:8080", "Origin": "http://evil.example"}, False),
    ({"Host": "127.0.0.1:8080", "Origin": "http://127.0.0.1:9000"}, False),  # another server on the machine
    ({"Host": "127.0.0.1:8080", "Origin": "http://localhost:8080"}, False),  # another name: another origin
    ({"Host": "evil.example:8080", "Origin": "http://evil.example:8080"}, False),  # DNS rebinding
    ({"Host": "127.0.0.1:8080", "Origin": "http://evil.example", "Referer": "http://127.0.0.1:8080/"}, False),
    ({"Host": "127.0.0.1:8080", "Origin": "http://127.0.0.1:99999"}, False),
    ({"Host": "127.0.0.1:8080", "Origin": "file:///tmp/x.html"}, False),
])
def test_a_post_is_taken_from_the_tables_own_pages_only(headers, own):
    assert TableNames("0.0.0.0", "https://toprace.example").is_own_page(headers) is own


@pytest.mark.parametrize(("text", "address"), [("127.0.0.1:8080", ("127.0.0.1", 8080)), (":9000", ("0.0.0.0", 9000)),
                                              ("[::1]:8080", ("::1", 8080))])
def test_the_web_address_is_host_and_port(text, address):
    assert listen_address(text) == address


@pytest.mark.parametrize("text", ["8080x", "host:", "host:0", "host:70000", ""])
def test_a_bad_web_address_is_named(text):
    with pytest.raises(argparse.ArgumentTypeError, match="HOST:PORT"):
        listen_address(text)


def test_the_web_section_of_the_config():
    assert parse_config({}, "t").web is None  # off unless asked for
    web = parse_config({"web": {"listen": "0.0.0.0:8081", "url": "http://toprace.local:8081"}}, "t").web
    assert web is not None and (web.host, web.port, web.url) == ("0.0.0.0", 8081, "http://toprace.local:8081")
    with pytest.raises(DataError) as error:
        parse_config({"web": {"listen": "nowhere", "url": "ftp://x", "port": 1}}, "t")
    text = str(error.value)
    assert "[web] listen" in text and "[web] url" in text and "unknown key(s): port" in text


def test_a_post_seen_before_the_table_restarted_does_not_hold_back_the_new_tables_posts():
    from toprace_pi.web.server import _last_seen

    class Request:
        def __init__(self, last: str) -> None:
            self.headers = {"Last-Event-ID": last}

    assert _last_seen(Request("abcd.7"), "abcd") == 7  # type: ignore[arg-type]
    assert _last_seen(Request("abcd.7"), "ef01") == 0  # type: ignore[arg-type]  # another run: the latest post
    for bad in ("", "7", "abcd.", "abcd.x", "abcd." + "9" * 20):
        assert _last_seen(Request(bad), "abcd") == 0  # type: ignore[arg-type]
