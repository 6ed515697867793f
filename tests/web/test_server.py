"""The web server over real HTTP on the loopback, around a real AUTORACE demo table whose seats
are all played from their pages: what a page may read and change, and what it may not; who sees
the seats' join codes; the names the table answers to and the pages it takes inputs from; every
answer's security headers."""

from __future__ import annotations

import json
import logging
import socket
import time
import urllib.request

import pytest
from webtables import (
    act,
    autorace_table,
    free_port,
    journal_size,
    origin,
    posts,
    request,
    served,
    toprace_table,
    topspeed_table,
)

from toprace_pi.cli import main
from toprace_pi.hardware.events import ButtonPressed
from toprace_pi.table.config import TableConfig, WebConfig
from toprace_pi.table.remote import MOVED_ON, NOT_YOURS
from toprace_pi.web.live import SEAT_TAKEN, local_address, open_pages
from toprace_pi.web.seats import board_token
from toprace_pi.web.server import HEADERS, MAX_BODY


@pytest.fixture
def table(tmp_path):
    journal = tmp_path / "journal.jsonl"
    with served(autorace_table(journal), journal=journal) as (demo, web, stepper):
        yield demo, web, stepper, journal


def state(demo, stepper) -> str:
    with stepper.still():
        return json.dumps(demo.controller.game.to_dict(), sort_keys=True)


def first_post(url: str) -> dict:
    return next(posts(url, 1))[1]


def post_where(url: str, wanted) -> dict:
    """The first post of a feed that is ``wanted`` (the table posts a step just after it answers the page
    that asked for it, and a joining step's change at its next step)."""
    return next(post for _, post in posts(url, 100) if wanted(post))


def post_at(url: str, step: int) -> dict:
    """The first post of a feed that shows the game at ``step`` actions or later."""
    return post_where(url, lambda post: post["step"] >= step)


def test_the_spectator_page_and_its_files_are_served_with_a_strict_policy(table):
    _, web, _, _ = table
    status, headers, body = request(web.server.url + "/")
    assert status == 200 and b"/static/board.js" in body
    assert "script-src" not in headers["Content-Security-Policy"]  # default-src 'self' covers scripts
    assert headers["Content-Security-Policy"].startswith("default-src 'self'")
    assert headers["Referrer-Policy"] == "no-referrer" and headers["Cache-Control"] == "no-store"
    assert request(web.server.url + "/static/board.js")[0] == 200
    for path in ("/static/server.py", "/static/..%2Fserver.py", "/static/", "/nothing"):
        assert request(web.server.url + path)[0] == 404, path


def test_the_board_picture_is_the_games_svg(table):
    _, web, _, _ = table
    status, headers, body = request(web.server.url + "/board.svg")
    assert status == 200 and headers["Content-Type"].startswith("image/svg+xml")
    assert body.lstrip().startswith(b"<svg") and b"data-space=" in body


def test_the_spectator_feed_holds_no_seats_own_and_a_seats_feed_its_own_only(table):
    _, web, _, _ = table
    public = first_post(web.server.url + "/events")
    assert {"mine", "options", "seat"}.isdisjoint(public) and public["deciding"] == ["Anna", "Ben"]
    anna = first_post(f"{web.server.url}/seat/{web.keys.tokens[0]}/events")
    assert anna["name"] == "Anna" and anna["options"]
    assert all(option["act"].startswith("choose 0 ") for option in anna["options"])
    assert {k: v for k, v in anna.items() if k not in ("seat", "name", "mine", "options")} == public


def test_a_card_laid_from_a_page_is_taken_as_any_input_and_told_without_the_card(table):
    demo, web, stepper, journal = table
    status, body = act(web, web.keys.tokens[0], "choose 0 7", 0)
    assert (status, body) == (200, {"ok": True})
    with stepper.still():
        assert [str(a) for a in demo.controller.game.log] == ["choose 0 7"]
    record = json.loads(journal.read_text().splitlines()[-1])
    assert record["by"] == "the page of seat 1"
    public = post_at(web.server.url + "/events", 1)
    assert public["step"] == 1 and "Anna has chosen" in " ".join(public["news"])
    assert "7" not in json.dumps(public["news"])
    assert post_at(f"{web.server.url}/seat/{web.keys.tokens[0]}/events", 1)["mine"] == ["Your card laid face down: 7"]
    assert post_at(f"{web.server.url}/seat/{web.keys.tokens[1]}/events", 1)["mine"] == []


@pytest.mark.parametrize("token", ["", "x", "A" * 22, "kb9WAQ0gZzMvC3XT7xjt0g%00"])
def test_a_token_that_opens_no_seat_reads_nothing_and_changes_nothing(table, token):
    demo, web, stepper, journal = table
    before, size = state(demo, stepper), journal_size(journal)
    status, _, body = request(f"{web.server.url}/seat/{token}")
    assert status == 404 and b"opens no seat" in body and b"seat.js" not in body
    assert request(f"{web.server.url}/seat/{token}/events")[0] == 404
    assert act(web, token, "choose 0 7", 0)[0] in (404, 405)
    assert state(demo, stepper) == before and journal_size(journal) == size


def test_malformed_requests_get_a_clear_error_and_change_nothing(table):
    demo, web, stepper, journal = table
    url = f"{web.server.url}/seat/{web.keys.tokens[0]}/act"
    before, size = state(demo, stepper), journal_size(journal)
    cases = [
        (b'{"act": "choose 0 7", "step": 0}', "text/plain", 415),
        (b"{not json", "application/json", 400),
        (b'["choose 0 7", 0]', "application/json", 400),
        (b'{"act": "choose 0 7"}', "application/json", 400),
        (b'{"act": "choose 0 7", "step": true}', "application/json", 400),
        (b'{"act": 7, "step": 0}', "application/json", 400),
        (json.dumps({"act": "x" * (MAX_BODY + 10), "step": 0}).encode(), "application/json", 413),
        (b"\xff\xfe", "application/json", 400),
    ]
    for data, kind, expected in cases:
        status, _, body = request(url, data=data, kind=kind)
        assert status == expected, (data[:40], status, body)
        assert json.loads(body)["error"], data[:40]
    assert act(web, web.keys.tokens[0], "fly to the moon", 0) == (409, {"error": "not an action of AUTORACE"})
    assert state(demo, stepper) == before and journal_size(journal) == size


def test_a_stale_or_replayed_request_and_another_seats_action_change_nothing(table):
    demo, web, stepper, _ = table
    anna, ben = web.keys.tokens
    assert act(web, anna, "choose 0 7", 1) == (409, {"error": MOVED_ON})  # a step the game has not reached
    assert act(web, anna, "choose 1 7", 0) == (409, {"error": NOT_YOURS})  # Ben's card, from Anna's page
    assert act(web, anna, "choose 0 7", 0)[0] == 200
    after = state(demo, stepper)
    assert act(web, anna, "choose 0 7", 0) == (409, {"error": MOVED_ON})  # the same request again
    assert act(web, anna, "choose 0 5", 1) == (409, {"error": NOT_YOURS})  # chosen already
    assert state(demo, stepper) == after
    assert act(web, ben, "choose 1 5", 0)[0] == 200  # offered before Anna chose: a sealed choice waits for no one

    with stepper.still():
        game = demo.controller.game
        assert game.round == 2 or game.positions != [0, 0]  # both cards laid: the reveal followed by itself


def test_a_seat_handed_to_a_new_phone_locks_the_old_link_out(table):
    demo, web, stepper, _ = table
    old = web.keys.tokens[1]
    with stepper.still():
        said = web.open_joining(30)
    assert "30 seconds" in said
    code = post_where(table_feed(web), lambda post: post.get("codes"))["codes"]
    ben = next(entry for entry in code if entry["name"] == "Ben")
    status, headers, _ = request(ben["url"].replace(web.base_url, web.server.url))
    assert status == 200  # followed the redirect to the new seat page
    new = web.keys.tokens[1]
    assert new != old and request(f"{web.server.url}/seat/{old}")[0] == 404
    assert act(web, old, "choose 1 5", 0)[0] == 404 and act(web, new, "choose 1 5", 0)[0] == 200
    assert request(ben["url"].replace(web.base_url, web.server.url))[0] == 404  # a code is used once
    remaining = post_where(table_feed(web), lambda post: len(post["joining"] or []) < 2)
    assert [entry["name"] for entry in remaining["joining"]] == [entry["name"] for entry in remaining["codes"]] \
        == ["Anna"]


def test_the_old_phones_open_feed_is_told_it_was_handed_over_and_gets_no_post_after(table):
    demo, web, stepper, _ = table
    old = web.keys.tokens[1]
    with urllib.request.urlopen(f"{web.server.url}/seat/{old}/events", timeout=10) as stream:
        while not stream.readline().startswith(b"data: "):
            pass  # the seat's post of the table as it is
        with stepper.still():
            web.keys.hand_over(1)
            demo.controller.handle(ButtonPressed("pass", held=True))  # a change every page is posted
        lines = [line for line in (stream.readline() for _ in range(3)) if line.strip()]
    assert lines == [b"event: gone\n", b"data: {}\n"]  # and not the post the change made


def test_clients_that_never_read_or_vanish_do_not_hold_the_table_up(table):
    demo, web, stepper, _ = table
    host, port = "127.0.0.1", web.server.port
    stuck = []
    for _ in range(4):  # asks for the feed, then never reads it
        sock = socket.create_connection((host, port))
        sock.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        stuck.append(sock)
    gone = socket.create_connection((host, port))
    gone.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    gone.close()
    anna, ben = web.keys.tokens
    started = time.monotonic()
    taken = 0
    for _ in range(40):  # a seat that misses a round (an unpaid fine) or is out of the race has nothing to lay
        for token in (anna, ben):
            with stepper.still():
                now = len(demo.controller.game.log)
            mine = post_at(f"{web.server.url}/seat/{token}/events", now)
            if mine["options"]:
                status, body = act(web, token, mine["options"][0]["act"], mine["step"])
                assert status == 200, body
                taken += 1
        if taken >= 12 or mine["over"]:
            break
    assert taken >= 12 or mine["over"]
    assert time.monotonic() - started < 30  # a bound on a hang, not a speed target
    assert request(web.server.url + "/")[0] == 200
    for sock in stuck:
        sock.close()


def test_held_pass_opens_the_joining_step_and_the_tables_own_board_shows_every_seats_code(table):
    demo, web, stepper, _ = table
    said: list[str] = []
    with stepper.still():
        demo.controller.say = said.append
        steps = len(demo.controller.game.log)
        demo.controller.handle(ButtonPressed("pass", held=True))
        assert len(demo.controller.game.log) == steps  # no pass: the codes are shown
    assert said and "codes are on the table's board" in said[-1]
    board = post_where(table_feed(web), lambda post: post.get("codes"))
    assert [entry["name"] for entry in board["codes"]] == ["Anna", "Ben"]
    assert all(entry["qr"].startswith("<svg") and "/join/" in entry["url"] for entry in board["codes"])
    for token in web.keys.tokens:  # a seat's own link is never on the board
        assert token not in json.dumps(board)


# --- the join codes: on the table's own board only ---------------------------------------------------------

def table_feed(web) -> str:
    return f"{web.server.url}/table/{web.server.joining.board}/events"


def feed_until(url: str, wanted) -> bytes:
    """Every byte a feed sends up to its first post that is ``wanted``, as sent."""
    sent = b""
    with urllib.request.urlopen(url, timeout=10) as stream:
        while line := stream.readline():
            sent += line
            if line.startswith(b"data: ") and wanted(json.loads(line[6:])):
                return sent
    raise AssertionError(f"no such post on {url}")


def on_loopback(web, url: str) -> str:
    """A link the table hands a phone, opened on the loopback where the test's table serves."""
    return url.replace(web.base_url, web.server.url)


def test_while_a_joining_step_is_open_no_page_but_the_tables_own_board_holds_a_code(table):
    demo, web, stepper, _ = table
    with stepper.still():
        web.open_joining(60)
    board = post_where(table_feed(web), lambda post: post.get("codes"))
    codes = [entry["url"].rsplit("/join/", 1)[1] for entry in board["codes"]]
    assert len(codes) == 2 and all(entry["qr"].startswith("<svg") for entry in board["codes"])
    anna, ben = web.keys.tokens
    readable = [request(web.server.url + path)[2] for path in ("/", "/board.svg", f"/seat/{anna}", "/table/x")]
    readable += [feed_until(url, lambda post: post["joining"]) for url in (
        web.server.url + "/events", f"{web.server.url}/seat/{anna}/events", f"{web.server.url}/seat/{ben}/events")]
    for sent in readable:
        assert b"/join/" not in sent and b'class=\\"qr\\"' not in sent and b'class="qr"' not in sent
        assert not any(code.encode() in sent for code in codes)
    public = json.loads(readable[4].rsplit(b"data: ", 1)[1])
    assert public["joining"] == [{k: entry[k] for k in ("seat", "name", "colour")} for entry in board["codes"]]
    assert "codes" not in public
    assert request(on_loopback(web, board["codes"][1]["url"]))[0] == 200  # the code read off the table's board
    assert web.keys.tokens == [anna, web.keys.tokens[1]] and web.keys.tokens[1] != ben


@pytest.mark.parametrize("build", [autorace_table, toprace_table, topspeed_table], ids=["autorace", "toprace",
                                                                                        "topspeed"])
def test_a_seat_taken_by_a_new_phone_is_said_aloud_and_shown_on_every_page(build, tmp_path):
    journal = tmp_path / "journal.jsonl"
    with served(build(journal), journal=journal) as (demo, web, stepper):
        said: list[str] = []
        with stepper.still():
            demo.controller.say = said.append
            web.open_joining(60)
        codes = post_where(table_feed(web), lambda post: post.get("codes"))["codes"]
        taken = SEAT_TAKEN.format(name="Ben")
        assert taken == "Ben's seat is now on a new phone"
        assert request(on_loopback(web, next(e["url"] for e in codes if e["name"] == "Ben")))[0] == 200
        for feed in ("/events", f"/seat/{web.keys.tokens[0]}/events", f"/seat/{web.keys.tokens[1]}/events"):
            assert post_where(web.server.url + feed, lambda post: taken in post["news"])["joining"] == [
                {"seat": 0, "name": "Anna", "colour": codes[0]["colour"]}]
        assert said.count(taken) == 1


def test_the_tables_own_board_opens_with_its_token_only(table):
    _, web, _, _ = table
    board = web.server.joining.board
    status, _, body = request(f"{web.server.url}/table/{board}")
    assert status == 200 and b"/static/board.js" in body
    assert request(f"{web.server.url}/table/{board}/")[0] == 200
    for wrong in ("", "x", board[:-1], board + "x", board.swapcase(), web.keys.tokens[0]):
        status, _, body = request(f"{web.server.url}/table/{wrong}")
        assert status == 404 and (not wrong or b"This link opens no board" in body), (wrong, body[:200])
        assert request(f"{web.server.url}/table/{wrong}/events")[0] == 404, wrong
    assert board not in json.dumps(first_post(web.server.url + "/events"))


def test_play_never_logs_the_tables_own_board_and_web_links_prints_it(table, tmp_path, caplog, capsys):
    demo, _, stepper, _ = table
    journal = tmp_path / "table.jsonl"
    config = TableConfig(journal=journal, web=WebConfig("127.0.0.1", free_port()))
    said: list[str] = []

    class Announcer:
        say = said.append

    caplog.set_level(logging.DEBUG)
    with stepper.still():
        closers = open_pages(config, demo.table, Announcer(), new_game=True)
    try:
        token = board_token(journal)  # the one the table keeps
        assert token not in caplog.text and not any(token in line for line in said)
        assert "the table's web page: http://127.0.0.1:" in caplog.text
        file = tmp_path / "table.toml"
        file.write_text(f'[web]\nlisten = "127.0.0.1:{config.web.port}"\n[files]\njournal = "{journal}"\n')
        assert main(["web-links", "--config", str(file)]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert lines[0] == f"the board for everyone: http://127.0.0.1:{config.web.port}/"
        assert lines[1].endswith(f": http://127.0.0.1:{config.web.port}/table/{token}") and "█" in lines[2]
        assert request(lines[1].rsplit(" ", 1)[1])[0] == 200
    finally:
        for close in closers:
            close()
    (tmp_path / "table.jsonl.board").unlink()
    assert main(["web-links", "--config", str(file)]) == 2
    assert "table.jsonl.board" in capsys.readouterr().err


# --- the table's own names, and inputs from its own pages only -------------------------------------------

def raw(web, text: str, body: bytes = b"") -> tuple[int, dict[str, str], bytes]:
    """One request as sent byte for byte (``curl -H``, ``nc``): its status, headers and body."""
    with socket.create_connection(("127.0.0.1", web.server.port), timeout=10) as sock:
        sock.sendall(text.replace("\n", "\r\n").encode() + b"Connection: close\r\n\r\n" + body)
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
    head, _, content = reply.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines)
    return int(status_line.split()[1]), headers, content


def has_security_headers(headers: dict[str, str]) -> bool:
    return all(headers.get(name) == value for name, value in HEADERS.items())


def test_a_request_for_a_name_that_is_not_the_tables_is_refused(table):
    demo, web, stepper, journal = table
    anna = web.keys.tokens[0]
    board = web.server.joining.board
    before, size = state(demo, stepper), journal_size(journal)
    paths = ["/", "/events", "/board.svg", f"/seat/{anna}", f"/seat/{anna}/events", f"/table/{board}",
             f"/table/{board}/events", "/join/x"]
    for host in ("evil.example", f"evil.example:{web.server.port}", "127.0.0.1.evil.example", "localhost.evil.example"):
        for path in paths:
            status, headers, body = raw(web, f"GET {path} HTTP/1.1\nHost: {host}\n")
            assert (status, body) == (421, b"this table answers to its own names and addresses only"), (host, path)
            assert has_security_headers(headers), (host, path)
        data = json.dumps({"act": "choose 0 7", "step": 0}).encode()
        status, headers, body = raw(web, f"POST /seat/{anna}/act HTTP/1.1\nHost: {host}\nOrigin: http://{host}\n"
                                         f"Content-Type: application/json\nContent-Length: {len(data)}\n", data)
        assert status == 421 and "own names" in json.loads(body)["error"] and has_security_headers(headers)
    assert raw(web, "GET /events HTTP/1.0\n")[0] == 421  # no Host at all
    assert state(demo, stepper) == before and journal_size(journal) == size


def test_the_table_answers_to_its_own_names_and_addresses(table):
    _, web, _, _ = table
    port = web.server.port
    machine = socket.gethostname()
    for host in ("127.0.0.1", f"127.0.0.1:{port}", f"localhost:{port}", "LocalHost", f"[::1]:{port}", machine,
                 f"{machine}.local:{port}", f"{local_address()}:{port}"):
        status, headers, body = raw(web, f"GET / HTTP/1.1\nHost: {host}\n")
        assert status == 200 and b"/static/board.js" in body, host


def test_an_input_from_a_page_the_table_did_not_serve_is_refused_and_changes_nothing(table):
    demo, web, stepper, journal = table
    anna = web.keys.tokens[0]
    url = f"{web.server.url}/seat/{anna}/act"
    data = json.dumps({"act": "choose 0 7", "step": 0}).encode()
    before, size = state(demo, stepper), journal_size(journal)
    for sent_from in ({"Origin": "http://evil.example"}, {"Origin": "null"}, {"Origin": ""},
                      {"Origin": f"http://127.0.0.1:{free_port()}"}, {"Origin": f"http://localhost:{web.server.port}"},
                      {"Origin": "", "Referer": "http://evil.example/page"}):
        with stepper.still():  # the table takes nothing meanwhile: what the server handed it stays in its inbox
            status, headers, body = request(url, data=data, headers=sent_from)
            assert demo.table.buttons.empty(), sent_from
        assert (status, json.loads(body)) == (403, {"error": "only the table's own pages may send it inputs"})
        assert has_security_headers(headers), sent_from
    status, _, body = raw(web, f"POST /seat/{anna}/act HTTP/1.1\nHost: 127.0.0.1:{web.server.port}\n"
                               f"Content-Type: application/json\nContent-Length: {len(data)}\n", data)
    assert status == 403  # neither Origin nor Referer
    assert state(demo, stepper) == before and journal_size(journal) == size
    assert request(url, data=data, headers={"Origin": origin(web.server.url)})[0] == 200
    assert state(demo, stepper) != before and journal_size(journal) > size


def test_an_input_from_a_page_that_sends_only_its_referer_is_taken(table):
    demo, web, stepper, _ = table
    anna = web.keys.tokens[0]
    data = json.dumps({"act": "choose 0 7", "step": 0}).encode()
    status, _, _ = raw(web, f"POST /seat/{anna}/act HTTP/1.1\nHost: 127.0.0.1:{web.server.port}\n"
                            f"Referer: {web.server.url}/seat/{anna}\n"
                            f"Content-Type: application/json\nContent-Length: {len(data)}\n", data)
    assert status == 200
    with stepper.still():
        assert [str(a) for a in demo.controller.game.log] == ["choose 0 7"]


# --- every answer with the security headers ---------------------------------------------------------------

def test_every_error_is_answered_with_the_security_headers_and_no_traceback(table, caplog):
    demo, web, stepper, journal = table
    anna = web.keys.tokens[0]
    act_url = f"{web.server.url}/seat/{anna}/act"
    before, size = state(demo, stepper), journal_size(journal)
    caplog.set_level(logging.DEBUG)
    answers = [
        (request(web.server.url + "/nothing"), 404),
        (request(web.server.url + "/static/nothing.js"), 404),
        (request(f"{web.server.url}/seat/x/events"), 404),
        (request(act_url), 405),  # a GET where only a POST goes
        (request(web.server.url + "/", data=b"{}"), 405),
        (request(act_url, data=b'{"act": "choose 0 7", "step": 0}', kind="text/plain"), 415),
        (request(act_url, data=b"[" * (MAX_BODY + 1)), 413),
        (request(act_url, data=b"[" * 1000), 400),
        (request(act_url, data=b"[" * 1000 + b"]" * 1000), 400),
        (request(act_url, data=b'{"a":' * 400), 400),
        (request(act_url, data=b'{"a":' * 1000), 413),  # too long to be read at all
    ]
    for (status, headers, body), expected in answers:
        assert status == expected and has_security_headers(headers), (expected, status, body[:80])
    for (_, _, body), expected in answers[4:]:  # what a page's script sends is answered in JSON
        assert json.loads(body)["error"], expected
    assert json.loads(answers[7][0][2]) == {"error": "the input is nested too deeply"}
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
    assert state(demo, stepper) == before and journal_size(journal) == size


def test_a_fault_of_a_handler_is_answered_500_with_the_headers_and_logged_in_one_line(table, caplog):
    _, web, _, _ = table

    def broken() -> str:
        raise ZeroDivisionError("division by zero")

    class BrokenInbox:
        def put(self, item: object) -> None:
            raise RuntimeError("the queue is gone\nFORGED LINE")

    web.server.board = broken
    web.server.inbox = BrokenInbox()
    caplog.set_level(logging.DEBUG)
    for status, headers, body in (request(web.server.url + "/board.svg"),
                                  request(f"{web.server.url}/seat/{web.keys.tokens[0]}/act",
                                          data=b'{"act": "choose 0 7", "step": 0}')):
        assert status == 500 and has_security_headers(headers)
        assert json.loads(body) == {"error": "the table could not answer this: try again"}
    errors = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.getMessage() for r in errors] == [
        "GET /board.svg failed: ZeroDivisionError: 'division by zero'",
        "POST /seat/{token}/act failed: RuntimeError: 'the queue is gone\\nFORGED LINE'"]
    assert not any(r.exc_info for r in errors) and "Traceback" not in caplog.text
    assert web.keys.tokens[0] not in caplog.text
