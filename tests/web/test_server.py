"""The web server over real HTTP on the loopback, around a real AUTORACE demo table whose seats
are all played from their pages: what a page may read and change, and what it may not."""

from __future__ import annotations

import json
import socket
import time
import urllib.request

import pytest
from webtables import act, autorace_table, journal_size, posts, request, served

from toprace_pi.hardware.events import ButtonPressed
from toprace_pi.table.remote import MOVED_ON, NOT_YOURS
from toprace_pi.web.server import MAX_BODY


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
    code = post_where(web.server.url + "/events", lambda post: post["joining"])["joining"]
    ben = next(entry for entry in code if entry["name"] == "Ben")
    status, headers, _ = request(ben["url"].replace(web.base_url, web.server.url))
    assert status == 200  # followed the redirect to the new seat page
    new = web.keys.tokens[1]
    assert new != old and request(f"{web.server.url}/seat/{old}")[0] == 404
    assert act(web, old, "choose 1 5", 0)[0] == 404 and act(web, new, "choose 1 5", 0)[0] == 200
    assert request(ben["url"].replace(web.base_url, web.server.url))[0] == 404  # a code is used once
    remaining = post_where(web.server.url + "/events", lambda post: len(post["joining"] or []) < 2)["joining"]
    assert [entry["name"] for entry in remaining] == ["Anna"]


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
        sock.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        stuck.append(sock)
    gone = socket.create_connection((host, port))
    gone.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
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


def test_held_pass_opens_the_joining_step_and_the_board_shows_every_seats_code(table):
    demo, web, stepper, _ = table
    said: list[str] = []
    with stepper.still():
        demo.controller.say = said.append
        steps = len(demo.controller.game.log)
        demo.controller.handle(ButtonPressed("pass", held=True))
        assert len(demo.controller.game.log) == steps  # no pass: the codes are shown
    assert said and "codes are on the board" in said[-1]
    board = post_where(web.server.url + "/events", lambda post: post["joining"])
    assert [entry["name"] for entry in board["joining"]] == ["Anna", "Ben"]
    assert all(entry["qr"].startswith("<svg") and "/join/" in entry["url"] for entry in board["joining"])
    for token in web.keys.tokens:  # a seat's own link is never on the board
        assert token not in json.dumps(board)
