"""The table's web pages in a real Chromium, as the people around a table use them: a spectator's
board following whole bot games, players taking their seats' decisions on phone-sized pages (a car's
move picked on the board), secrets that stay on their own seat's page, links that open nothing, pages
that outlive a restart of the table, standings that fit a phone and a claim window counted down. The
games are the demos' (in a thread of the test) or the real table (a process of its own), served on a
free loopback port."""

from __future__ import annotations

import contextlib
import json
import math
import os
import random
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from crowds import table_config
from playwright.sync_api import Browser, Page, sync_playwright
from webtables import (
    CAN_ACT,
    CHROMIUM,
    DRAWN,
    MOVED_ON,
    OVER,
    PAGE_WAIT,
    PHONE,
    RECORDER,
    TV,
    DemoGame,
    Turn,
    autorace_table,
    drawn,
    free_port,
    journal_size,
    page_inputs,
    play_through,
    received,
    served,
    take_turn,
    toprace_table,
)
from webtables import request as http

from toprace_pi.games.autorace.table import demo as autorace
from toprace_pi.games.toprace.table import demo as toprace
from toprace_pi.games.toprace.table.entries import ClaimWindow, SaleEntry
from toprace_pi.games.toprace.table.page import TopRacePage
from toprace_pi.games.topspeed.table import demo as topspeed
from toprace_pi.hardware.events import ButtonPressed
from toprace_pi.table.controller import TableController
from toprace_pi.table.remote import SeatInput

ROOT = Path(__file__).resolve().parents[2]
#: A tablet's or a laptop's window.
LAPTOP = {"width": 1280, "height": 800}
STATUS = "() => document.getElementById('status').textContent === {!r}"
#: The table's buttons: words for the people at the table, never for a page (tapped, not pressed).
BUTTON_WORDS = re.compile(r"\b(NEXT|OK|PASS|UNDO)\b")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield browser
        browser.close()


OpenPage = Callable[..., Page]


def opener(browser: Browser, contexts: list[Any]) -> OpenPage:
    """Opens a page in a browser of its own (a context: no cookie or storage shared with another
    page), with the recorder of its posts in it (and the ``more`` script), at ``url`` on a screen of
    ``viewport``; its context is kept in ``contexts`` for closing."""

    def open_page(url: str, viewport: dict[str, int] = PHONE, *, more: str = "") -> Page:
        context = browser.new_context(viewport=viewport)
        context.set_default_timeout(PAGE_WAIT * 1000)
        contexts.append(context)
        page = context.new_page()
        page.add_init_script(RECORDER + more)
        page.goto(url)
        return page

    return open_page


@pytest.fixture
def open_page(browser: Browser) -> Iterator[OpenPage]:
    contexts: list[Any] = []
    yield opener(browser, contexts)
    for context in contexts:
        context.close()


def status_is(page: Page, text: str) -> None:
    page.wait_for_function(STATUS.format(text))


# --- 1. the spectator's board -------------------------------------------------------------------

SPECTATED = [
    pytest.param(autorace.run_demo, {"players": 3}, TV, id="autorace-tv"),
    pytest.param(topspeed.run_demo, {"players": 4, "laps": 2}, PHONE, id="topspeed-phone"),
    pytest.param(toprace.run_demo, {"players": 2}, LAPTOP, id="toprace-laptop"),
]


@pytest.mark.parametrize(("run", "options", "viewport"), SPECTATED)
def test_the_spectator_board_follows_a_whole_bot_game(run, options, viewport, open_page, tmp_path, request):
    with DemoGame(run, journal=tmp_path / "journal.jsonl", **options) as demo:
        page = open_page(demo.url + "/", viewport)
        page.wait_for_function(DRAWN)  # opened before the game's first step
        demo.go()
        game = demo.wait_over()
        page.wait_for_function(OVER)
        seqs = [post["seq"] for post in drawn(page)]
        assert seqs == list(range(1, demo.web.feed.latest.seq + 1))  # every post, in order, none missed
        last = page.evaluate("table.lastPost")
        assert last["step"] == len(game.log) and page.inner_text("#prompt") == "The game is over"
        assert page.locator("#board svg[viewBox]").count() == 1
        assert page.locator("#board svg #pieces .piece").count() == len(last["pieces"]) > 0
        rows = page.locator("#standings tbody tr").all_inner_texts()
        assert len(rows) == len(game.names) and all(any(n in row for row in rows) for n in game.names)
        assert page.locator("#news li").count() > 0
        reads_as_it_happened(page, last["news"])
        assert not [post["prompt"] for post in drawn(page) if BUTTON_WORDS.search(post["prompt"])]
        board_fits(page, viewport)
        page.screenshot(path=tmp_path / f"{request.node.callspec.id}.png", full_page=True)


def reads_as_it_happened(page: Page, news: list[str]) -> None:
    """The news drawn oldest first, as the post tells it (a card played before its moves), the latest
    at the bottom of the list's box, shown there (the box scrolled to its end)."""
    assert page.locator("#news li").all_inner_texts() == news
    box, latest = page.locator("#news").bounding_box(), page.locator("#news li").last.bounding_box()
    assert box is not None and latest is not None
    assert box["y"] <= latest["y"] and latest["y"] + latest["height"] <= box["y"] + box["height"] + 1


def board_fits(page: Page, viewport: dict[str, int]) -> None:
    """The board is large on any screen, and the page never scrolled sideways whatever it drew."""
    box = page.locator("#board svg").bounding_box()
    assert box is not None
    assert box["width"] >= 0.5 * viewport["width"] or box["height"] >= 0.6 * viewport["height"], box
    never_wider(page, viewport)


def never_wider(page: Page, viewport: dict[str, int]) -> None:
    widest = max(drawn(page), key=lambda post: post["width"])
    assert widest["width"] <= viewport["width"], f"the page scrolls sideways at step {widest['step']}"


# --- 2. a whole game played from a phone ---------------------------------------------------------

#: The player lays a card and lets it lie (taking it back each time would make the game endless).
NO_TAKE_BACK = "^take"


def test_a_player_plays_a_whole_autorace_game_from_a_phone(open_page, tmp_path):
    journal = tmp_path / "journal.jsonl"
    with DemoGame(autorace.run_demo, journal=journal, players=2, remotes=["Anna"]) as demo:
        page = open_page(demo.seat_url(0))
        page.wait_for_function(DRAWN)
        demo.go()
        turns = play_through(page, random.Random(7), avoid=NO_TAKE_BACK)
        game = demo.wait_over()
    laid = [turn.act for turn in turns if turn.answer == "done"]
    assert len(laid) >= 8 and all(act.startswith("choose 0 ") for act in laid)
    assert page_inputs(journal) == [("the page of seat 1", act) for act in laid]
    in_log = [(n, str(action)) for n, action in enumerate(game.log) if str(action).startswith("choose 0 ")]
    assert [act for _, act in in_log] == laid
    for n, act in in_log:
        assert showed_the_card(drawn(page), n + 1, act.split()[-1], "Anna"), act


def showed_the_card(posts: list[dict[str, Any]], step: int, card: str, name: str) -> bool:
    """The page showed the card laid at ``step``: as the seat's sealed card while others were still to
    lay theirs, or in the reveal that followed at once when it was the last."""
    after = next(post for post in posts if post["step"] >= step)
    sealed = "your banner" if card == "banner" else card
    return after["secrets"] == [f"Your card laid face down: {sealed}"] or any(
        line.startswith("Revealed: ") and re.search(rf"\b{name} {card}\b", line) for line in after["news"])


def test_a_player_races_a_whole_top_speed_race_from_a_phone(open_page, tmp_path):
    journal = tmp_path / "journal.jsonl"
    with DemoGame(topspeed.run_demo, journal=journal, players=4, laps=2, remotes=["Anna"]) as demo:
        page = open_page(demo.seat_url(0))
        page.wait_for_function(DRAWN)
        demo.go()
        turns = play_through(page, random.Random(2))
        demo.wait_over()
        never_wider(page, PHONE)
    taken = [turn for turn in turns if turn.answer == "done"]
    assert "draw a card" in {turn.words for turn in taken}
    assert page_inputs(journal) == [("the page of seat 1", turn.act) for turn in taken]
    assert all(post["options"] == [] or all(o["act"].endswith(" 0") for o in post["options"])
               for _, post, _ in received(page))


# --- 3. tips and stock trades, each on its own seat's page -------------------------------------

#: What a seat enters on its page in each variant, and the line of its secrets that shows it.
ENTERED = {"tips": ("tip ", "Your tips: "), "stocks": ("trade ", "Your stocks: ")}


@pytest.mark.parametrize("variant", ["tips", "stocks"])
def test_tips_and_trades_entered_on_a_page_show_on_that_seats_page_alone(variant, open_page, tmp_path):
    journal = tmp_path / "journal.jsonl"
    with DemoGame(toprace.run_demo, journal=journal, players=2, variant=variant, remotes=["Anna"]) as demo:
        anna = open_page(demo.seat_url(0))
        ben = open_page(demo.seat_url(1))  # a bot's seat, watched from another phone
        for page in (anna, ben):
            page.wait_for_function(DRAWN)
        demo.go()
        turns = play_through(anna, random.Random(3))
        game = demo.wait_over()
        ben.wait_for_function(OVER)
    act, line = ENTERED[variant]
    entered = [turn for turn in turns if turn.answer == "done" and turn.act.startswith(act)]
    assert entered, f"Anna entered no {variant}"
    if variant == "stocks":
        assert any(turn.groups for turn in entered)  # too many trades for buttons: asked for word by word
    after = next(post for post in drawn(anna) if post["step"] > entered[0].step)
    assert any(shown.startswith(line) for shown in after["secrets"]), after
    for seat, page in enumerate((anna, ben)):
        sent = [(post["step"], post["seat"], post["mine"]) for _, post, _ in received(page)]
        shown = [(post["step"], seat, post["secrets"]) for post in drawn(page)]
        only_its_own_secrets(game, seat, sent + shown)
    anna_lines, ben_lines = lines_by_step(drawn(anna), line), lines_by_step(drawn(ben), line)
    assert any(ben_lines.get(step) not in (None, lines) for step, lines in anna_lines.items())  # they differ


def only_its_own_secrets(game: Any, seat: int, posts: list[tuple[int, int, list[str]]]) -> None:
    """Each of a seat page's posts (its step, its seat, its secrets: as sent, and as drawn) holds that
    seat's secrets at its step, as the game played back to that step shows them to that seat, and
    nobody else's."""
    page = TopRacePage()
    secrets: dict[int, list[str]] = {}
    for step, its_seat, lines in posts:
        if step not in secrets:
            then = game.replayed(game.log[:step])
            secrets[step] = page.secrets(then, then.view(seat))
        assert its_seat == seat and lines == secrets[step], step


def lines_by_step(posts: list[dict[str, Any]], start: str) -> dict[int, list[str]]:
    """The secrets' lines starting with ``start`` that the page drew at each step."""
    return {post["step"]: [s for s in post["secrets"] if s.startswith(start)] for post in posts}


# --- 4. links that open no seat ------------------------------------------------------------------

@pytest.fixture
def waiting_table(tmp_path):
    """An AUTORACE table whose two seats are played from their pages alone."""
    journal = tmp_path / "journal.jsonl"
    with served(autorace_table(journal), journal=journal) as (demo, web, stepper):
        yield demo, web, stepper, journal


#: A token that opens no seat (of the length of a real one).
NO_TOKEN = "A0b1C2d3E4f5G6h7I8j9Kl"


@pytest.mark.parametrize("path", ["/seat/", f"/seat/{NO_TOKEN}", "/seat/{anna}x", f"/seat/{NO_TOKEN}/"])
def test_a_link_that_opens_no_seat_shows_so_and_runs_no_seat_page(path, waiting_table, open_page):
    _, web, _, _ = waiting_table
    page = open_page(web.server.url + "/")
    asked: list[str] = []
    page.on("request", lambda req: asked.append(req.url))
    reply = page.goto(web.server.url + path.format(anna=web.keys.tokens[0]))
    assert reply is not None and reply.status == 404
    assert page.inner_text("h1") == "This link opens no seat"
    assert not any(url.endswith(".js") for url in asked) and page.evaluate("typeof table") == "undefined"


def test_a_seat_link_with_a_slash_at_its_end_opens_the_seat_and_plays_it(waiting_table, open_page):
    demo, web, stepper, _ = waiting_table
    page = open_page(f"{web.server.url}/seat/{web.keys.tokens[0]}/")
    page.wait_for_function(DRAWN)
    assert page.evaluate("table.lastPost.name") == "Anna"
    turn = take_turn(page, random.Random(4))
    assert turn is not None and turn.answer == "done" and log_length(demo, stepper) == 1


def test_an_input_with_a_wrong_token_changes_nothing(waiting_table, open_page):
    demo, web, stepper, journal = waiting_table
    page = open_page(web.server.url + "/")
    anna = web.keys.tokens[0]
    before = log_length(demo, stepper), journal_size(journal)
    for token in (NO_TOKEN, anna[:-1], anna + "x", anna.swapcase()):
        assert post_act(page, token, "choose 0 7", 0) == 404
    assert (log_length(demo, stepper), journal_size(journal)) == before
    assert post_act(page, anna, "choose 0 7", 0) == 200  # the same input with the seat's own token is taken
    assert log_length(demo, stepper) == before[0] + 1


def post_act(page: Page, token: str, act: str, step: int) -> int:
    """The status of a seat's input sent from the page, as its own script sends one."""
    return int(page.evaluate("""([token, act, step]) => fetch("/seat/" + token + "/act", {method: "POST",
        headers: {"Content-Type": "application/json"}, body: JSON.stringify({act, step})}).then(r => r.status)""",
                             [token, act, step]))


def log_length(demo: Any, stepper: Any) -> int:
    with stepper.still():
        return len(demo.controller.game.log)


# --- 5. a restart of the table ---------------------------------------------------------------

@contextlib.contextmanager
def table_process(config: Path, url: str, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """``toprace-pi play`` with ``config``: this worktree's code, in a process of its own, serving at
    ``url`` once it is up; ended at the end if the test has not stopped it."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with open(log, "ab") as out:
        process = subprocess.Popen([sys.executable, "-m", "toprace_pi", "play",  # the config names the game
                                    "--config", str(config)], cwd=ROOT, env=env, stdout=out, stderr=out)
    try:
        until = time.monotonic() + 60
        while request_status(url + "/") != 200:
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < until, "the table did not serve its pages within 60 s"
            time.sleep(0.1)
        yield process
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)


def request_status(url: str) -> int:
    try:
        return http(url)[0]
    except OSError:
        return 0


def stop(process: subprocess.Popen[bytes]) -> None:
    """The table stopped as systemd stops it."""
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=20) == 0


def test_the_pages_come_back_by_themselves_after_a_restart_of_the_table(open_page, tmp_path):
    port = free_port()
    url, config, log = f"http://127.0.0.1:{port}", table_config(tmp_path, port), tmp_path / "table.log"
    seats = tmp_path / "journal.jsonl.seats"
    rng = random.Random(5)
    with table_process(config, url, log) as first:
        tokens = json.loads(seats.read_text())["tokens"]
        board = open_page(url + "/", TV)
        anna = open_page(f"{url}/seat/{tokens[0]}")
        status_is(board, "live")
        turn = take_turn(anna, rng, avoid=NO_TAKE_BACK)
        assert turn is not None and turn.answer == "done"
        board.wait_for_function(MOVED_ON, arg=0)
        stop(first)
        for page in (board, anna):
            status_is(page, "reconnecting")
    sealed, drawn_before = anna.inner_text("#secrets"), len(drawn(board))
    assert sealed.startswith("Your card laid face down: ")
    with table_process(config, url, log):
        assert json.loads(seats.read_text())["tokens"] == tokens  # the links survive the restart
        for page in (board, anna):
            status_is(page, "live")
        board.wait_for_function("n => window.drawn.length > n", arg=drawn_before)
        assert board.evaluate("table.lastPost.step") == 1 and anna.inner_text("#secrets") == sealed
        assert ben_lays(url, tokens[1]) == 200
        again = take_turn(anna, rng, avoid=NO_TAKE_BACK)
        assert again is not None and again.answer == "done" and again.step == 3  # the round revealed, a new one
    assert [by for by, _ in page_inputs(tmp_path / "journal.jsonl")] == [
        "the page of seat 1", "the page of seat 2", "the page of seat 1"]


def ben_lays(url: str, token: str) -> int:
    return http(f"{url}/seat/{token}/act", data=json.dumps({"act": "choose 1 5", "step": 1}).encode())[0]


# --- 6. no seat's secret on another seat's page ------------------------------------------------

def test_no_seat_page_is_ever_sent_another_seats_secret(open_page, tmp_path):
    journal = tmp_path / "journal.jsonl"
    with DemoGame(autorace.run_demo, journal=journal, players=2, remotes=["Anna", "Ben"]) as demo:
        pages = [open_page(demo.seat_url(seat)) for seat in (0, 1)]
        tokens = list(demo.web.keys.tokens)
        for page in pages:
            page.wait_for_function(DRAWN)
        demo.go()
        both = play_both(pages, tokens, random.Random(6))
        demo.wait_over()
    assert both >= 4  # many rounds where a card lay face down while the other seat chose
    mine = [secrets_by_step(received(page)) for page in pages]
    for seat, page in enumerate(pages):
        other = 1 - seat
        for _, post, text in received(page):
            assert post["seat"] == seat and tokens[other] not in text
            assert all(re.match(rf"(choose|take back) {seat}\b", o["act"]) for o in post["options"]), post
            assert not set(post["mine"]) & mine[other].get(post["step"], set()), post
    assert len(page_inputs(journal)) >= 2 * both


def secrets_by_step(posts: list[tuple[int, dict[str, Any], str]]) -> dict[int, set[str]]:
    """Every secret a page was sent at each step."""
    steps: dict[int, set[str]] = {}
    for _, post, _ in posts:
        steps.setdefault(post["step"], set()).update(post["mine"])
    return steps


def play_both(pages: list[Page], tokens: list[str], rng: random.Random) -> int:
    """Both seats' cards laid from their pages, round after round, each seat first in turn; when a card
    lies face down while the other seat chooses, its own page shows it and the other's nothing. The
    rounds where it did (both seats chose)."""
    names = [page.evaluate("table.lastPost.name") for page in pages]
    both = 0
    for round_ in range(200):
        step = settle(pages)
        post = pages[0].evaluate("table.lastPost")
        if post["over"]:
            return both
        deciding = [seat for seat in (round_ % 2, 1 - round_ % 2) if names[seat] in post["deciding"]]
        for seat in deciding:
            turn = take_turn(pages[seat], rng, avoid=NO_TAKE_BACK)
            assert turn is not None and turn.answer == "done", turn
            if seat == deciding[0] and len(deciding) == 2:
                face_down_on_its_page_alone(pages, seat, turn)
                both += 1
        for seat, page in enumerate(pages):
            assert tokens[1 - seat] not in page.content()
        assert settle(pages) > step
    raise AssertionError("the game did not end in 200 rounds")


def settle(pages: list[Page]) -> int:
    """Wait until every page has drawn the latest step any of them has; that step."""
    step = max(int(page.evaluate("window.drawn[window.drawn.length - 1].step")) for page in pages)
    for page in pages:
        page.wait_for_function("step => window.drawn[window.drawn.length - 1].step >= step", arg=step)
    return step


def face_down_on_its_page_alone(pages: list[Page], seat: int, turn: Turn) -> None:
    """The card ``seat`` just laid, while the other seat is still to choose: on its own page, and not on
    the other's."""
    other = pages[1 - seat]
    other.wait_for_function(MOVED_ON, arg=turn.step)
    card = turn.act.split()[-1]
    assert pages[seat].locator("#secrets li").all_inner_texts() == [
        "Your card laid face down: " + ("your banner" if card == "banner" else card)]
    assert other.locator("#secrets li").all_inner_texts() == []


# --- 7. joining with a phone's camera ---------------------------------------------------------------

def scanned(picture: Any) -> list[str]:
    """What a phone's camera reads off a picture: the text of every QR code in it (zxing-cpp)."""
    import zxingcpp

    return sorted(code.text for code in zxingcpp.read_barcodes(picture) if code.format == zxingcpp.BarcodeFormat.QRCode)


def terminal_picture(text: str) -> Any:
    """The terminal's QR code (two rows of modules a line of block characters) as the picture a screen shows."""
    from PIL import Image

    rows = [line for line in text.splitlines() if line]
    top = {"█": (1, 1), "▀": (1, 0), "▄": (0, 1), " ": (0, 0)}  # (upper, lower) module lit, i.e. light
    size = 8
    image = Image.new("L", (len(rows[0]) * size, len(rows) * 2 * size), 0)
    for y, line in enumerate(rows):
        for x, char in enumerate(line):
            for half, lit in enumerate(top[char]):
                if lit:
                    image.paste(255, (x * size, (2 * y + half) * size, (x + 1) * size, (2 * y + half + 1) * size))
    return image


def test_a_phone_scanning_its_code_on_the_tables_board_takes_the_seat_and_the_old_link_stops(waiting_table,
                                                                                             open_page, tmp_path):
    from PIL import Image

    demo, web, stepper, _ = waiting_table
    old = list(web.keys.tokens)
    said: list[str] = []
    with stepper.still():
        demo.controller.say = said.append
        web.open_joining(60)
    board = open_page(web.server.url + "/", TV)  # anyone's
    table = open_page(web.server.joining.board_url, TV)  # the table's own screen
    table.wait_for_function("() => document.querySelectorAll('#codes svg').length === 2")
    board.wait_for_function("() => !document.getElementById('joining').hidden")
    board.screenshot(path=str(tmp_path / "board.png"))
    table.screenshot(path=str(tmp_path / "codes.png"))
    assert scanned(Image.open(tmp_path / "board.png")) == [] and board.locator("#codes svg").count() == 0
    assert board.inner_text("#joining").split("\n") == [
        "Seats open to a new phone: scan your code on the table's board", "Anna", "Ben"]
    assert not any("/join/" in text for _, _, text in received(board)) and "/join/" not in board.content()
    codes = scanned(Image.open(tmp_path / "codes.png"))
    assert len(codes) == 2 and all(code.startswith(web.base_url + "/join/") for code in codes)
    ben = next(e["url"] for e in table.evaluate("table.lastPost.codes") if e["name"] == "Ben")
    phone = open_page(ben)  # the phone opens what it read
    phone.wait_for_function(DRAWN)
    assert phone.evaluate("table.lastPost.name") == "Ben" and ben in codes
    assert web.keys.tokens[1] != old[1] and web.keys.tokens[0] == old[0]
    assert request_status(f"{web.server.url}/seat/{old[1]}") == 404
    table.wait_for_function("() => document.querySelectorAll('#codes svg').length === 1")
    for page in (board, table, phone):
        page.wait_for_function("() => [...document.querySelectorAll('#news li')].some(li => li.textContent === "
                               "\"Ben's seat is now on a new phone\")")
    assert "Ben's seat is now on a new phone" in said


def test_the_seat_links_qr_code_in_the_terminal_reads_as_the_link(waiting_table):
    _, web, _, _ = waiting_table
    lines = web.links(qr=[0])
    assert lines[1].endswith(" " + web.server.joining.board_url)  # the table's own board, for its screen
    link = lines[2].rsplit(" ", 1)[1]
    assert link == web.seat_url(0) and scanned(terminal_picture(lines[3])) == [link]


# --- 8. Top Race from a phone: cards by their moves, a car's move picked on the board -------------------

@dataclass(frozen=True)
class Pick:
    """A car's move (or return) picked on the board of a seat's page: the step the page showed and its
    options; each tap as (the action of the space tapped, the action the page then shows chosen, the
    confirm button's words); the action the page held chosen when confirmed; each lit space's box on
    the screen (left, right, width, height); and the table's answer."""

    step: int
    options: tuple[dict[str, Any], ...]
    taps: tuple[tuple[str, str, str], ...]
    sent: str
    boxes: tuple[tuple[float, float, float, float], ...]
    answer: str


@dataclass(frozen=True)
class PhoneGame:
    """A whole Top Race game (Pit Stop rule) that Anna played from her phone: the page, the game, its
    journal, her decisions taken by buttons and those picked on the board."""

    page: Page
    game: Any
    journal: Path
    turns: list[Turn]
    picks: list[Pick]


CHOSEN = "() => document.querySelector('#spaces .target.chosen')?.dataset.act ?? null"


def pick_on_the_board(page: Page, rng: random.Random) -> Pick:
    """Tap one to three lit spaces at random, as a person making up their mind, then confirm."""
    post = page.evaluate("table.lastPost")
    targets = page.locator("#spaces .target")
    boxes = targets.evaluate_all("ts => ts.map(t => { const b = t.getBoundingClientRect(); "
                                 "return [b.left, b.right, b.width, b.height]; })")
    taps = []
    for _ in range(rng.randint(1, 3)):
        target = targets.nth(rng.randrange(targets.count()))
        tapped = str(target.get_attribute("data-act"))
        target.click()
        taps.append((tapped, page.evaluate(CHOSEN), page.inner_text("#confirm")))
    sent = page.evaluate(CHOSEN)
    page.click("#confirm")
    page.wait_for_function("() => document.getElementById('answer').textContent !== ''")
    answer = page.inner_text("#answer")
    if answer == "done":
        page.wait_for_function(MOVED_ON, arg=post["step"])
    return Pick(post["step"], tuple(post["options"]), tuple(taps), sent, tuple(map(tuple, boxes)), answer)


@pytest.fixture(scope="module")
def toprace_phone(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[PhoneGame]:
    journal = tmp_path_factory.mktemp("phone") / "journal.jsonl"
    contexts: list[Any] = []
    rng = random.Random(11)
    with DemoGame(toprace.run_demo, journal=journal, players=2, variant="pitstop", remotes=["Anna"]) as demo:
        page = opener(browser, contexts)(demo.seat_url(0))
        page.wait_for_function(DRAWN)
        demo.go()
        turns, picks = [], []
        while len(turns) + len(picks) < 600:
            page.wait_for_function(CAN_ACT, arg=None)
            if page.evaluate("table.lastPost.over"):
                break
            if page.locator("#spaces .target").count():
                picks.append(pick_on_the_board(page, rng))
            elif (turn := take_turn(page, rng)) is not None:
                turns.append(turn)
        game = demo.wait_over()
        page.wait_for_function(OVER)
        yield PhoneGame(page, game, journal, turns, picks)
    for context in contexts:
        context.close()


def test_a_tap_on_the_board_chooses_that_space_and_the_confirm_button_sends_exactly_it(toprace_phone):
    picks = toprace_phone.picks
    assert len(picks) >= 10 and all(pick.answer == "done" for pick in picks)
    for pick in picks:
        words = {option["act"]: option["words"] for option in pick.options}
        assert all(option.get("at") for option in pick.options)  # every end space is on the board
        assert len(pick.boxes) == len(pick.options)
        for tapped, chosen, confirm in pick.taps:
            assert chosen == tapped and confirm == words[tapped]
        assert pick.sent == pick.taps[-1][0]
    on_the_board = [act for by, act in page_inputs(toprace_phone.journal) if act.split()[0] in ("move", "return")]
    assert on_the_board == [pick.sent for pick in picks]  # the table took exactly what the page showed chosen


def test_the_board_to_pick_on_fits_a_phone_and_its_spaces_are_a_fingers_size(toprace_phone):
    assert toprace_phone.picks
    for pick in toprace_phone.picks:
        for left, right, width, height in pick.boxes:
            assert 0 <= left and right <= PHONE["width"], pick
            assert min(width, height) >= 30, pick  # a finger's tap: about 8 mm on a phone
    never_wider(toprace_phone.page, PHONE)


#: The actions that take or play a speed card (Pit Stop rule): their words name it.
CARD_ACTS = ("play", "pit", "collect", "claim")


def named(text: str, deck: Any) -> bool:
    """Whether every speed card ``text`` names by number is named with its moves (``#17 Red 6 / ...``)."""
    return all(text[found.start():].startswith(str(deck[int(found.group(1))]))
               for found in re.finditer(r"#(\d+)", text))


def test_a_seat_page_names_every_card_by_its_moves(toprace_phone):
    deck, page = toprace_phone.game.deck, toprace_phone.page
    hands = [post["secrets"] for post in drawn(page) if post["secrets"] and post["secrets"][0].startswith("Your hand")]
    assert hands and all(named(line, deck) and line.startswith(("Your hand", "#")) for lines in hands for line in lines)
    assert any(len(lines) > 5 for lines in hands)  # a card a line
    options = [option for _, post, _ in received(page) for option in post["options"]]
    cards = [option["words"] for option in options if option["act"].split()[0] in CARD_ACTS]
    assert "play" in {words.split()[0] for words in cards}
    assert all(re.search(r"#\d+ ", words) and named(words, deck) for words in cards), cards
    assert all(named(line, deck) for post in drawn(page) for line in [post["prompt"], *post["news"]])


def test_a_seat_pages_prompts_name_no_button_and_its_news_reads_as_it_happened(toprace_phone):
    page = toprace_phone.page
    prompts = [post["prompt"] for post in drawn(page)]
    assert any(prompt.startswith("Anna: ") for prompt in prompts)
    assert not [prompt for prompt in prompts if BUTTON_WORDS.search(prompt)]
    reads_as_it_happened(page, page.evaluate("table.lastPost.news"))


# --- 9. TOP SPEED's standings on a phone ---------------------------------------------------------------

#: Run with the recorder: after each post drawn, the elements that reach outside the screen's width, and
#: whether the standings' cells that tell a KERS card kept are all within it.
FITS = """
window.fits = [];
document.addEventListener("DOMContentLoaded", () => table.onPost.push(post => {
  const width = document.documentElement.clientWidth;
  const outside = [...document.querySelectorAll("body *")].filter(node => {
    const box = node.getBoundingClientRect();
    return box.width > 0 && (box.left < -0.5 || box.right > width + 0.5);
  }).map(node => node.tagName.toLowerCase() + (node.id ? "#" + node.id : ""));
  const kers = [...document.querySelectorAll("#standings td")].filter(td => td.textContent.includes("KERS"));
  window.fits.push({step: post.step, outside, kers: kers.length,
                    shown: kers.every(td => td.getBoundingClientRect().right <= width)});
}));
"""


def test_top_speeds_standings_fit_a_phone_with_the_kers_column_in_sight(open_page, tmp_path):
    with DemoGame(topspeed.run_demo, journal=tmp_path / "journal.jsonl", players=6, laps=2,
                  variant="normal+kers") as demo:
        pages = [open_page(url, PHONE, more=FITS) for url in (demo.url + "/", demo.seat_url(5))]
        for page in pages:
            page.wait_for_function(DRAWN)
        demo.go()
        demo.wait_over()
        for page in pages:
            page.wait_for_function(OVER)
            fits = page.evaluate("window.fits")
            assert [fit for fit in fits if fit["outside"]] == []
            assert any(fit["kers"] for fit in fits) and all(fit["shown"] for fit in fits)
            assert "KERS" in page.inner_text("#standings thead")


# --- 10. a pit stop claim window, counted down ------------------------------------------------------------

def until_claim_window(controller: TableController, claimant: int) -> ClaimWindow:
    """Play on until a pit stop claim window opens that asks ``claimant`` first: each auction's result
    entered at the table (the first bidder, at the opening price), every other decision sent as the
    deciding seat's page sends one (at random). That window."""
    rng = random.Random(8)
    for _ in range(2000):
        entry, game = controller.entry, controller.game
        if isinstance(entry, ClaimWindow) and entry.asked[0] == claimant:
            return entry
        if isinstance(entry, SaleEntry):
            controller.handle(ButtonPressed("ok"))
            continue
        seat = game.decision.seats[0]
        answers: list[str | None] = []
        controller.handle(SeatInput(seat, str(rng.choice(controller.seat_options(seat))), len(game.log),
                                    answers.append))
        assert answers == [None]
    raise AssertionError("no claim window asked that seat first")


def seconds_left(page: Page) -> int:
    """The countdown the page shows (``"4 s left"``)."""
    return int(page.inner_text("#clock").split()[0])


def test_a_claim_window_counts_down_on_the_pages_and_its_prompt_leaves_when_the_time_is_up(open_page, tmp_path):
    journal = tmp_path / "journal.jsonl"
    with served(toprace_table(journal), journal=journal) as (demo, web, stepper):
        anna = open_page(f"{web.server.url}/seat/{web.keys.tokens[0]}")
        anna.wait_for_function(DRAWN)
        controller = demo.controller
        with stepper.still():
            window = until_claim_window(controller, claimant=0)
            deadline = controller.clock() + window.time_left(controller.clock())
        anna.wait_for_function("() => !document.getElementById('clock').hidden")
        step = anna.evaluate("table.lastPost.step")
        assert re.fullmatch(r"pit stop\? Anna may claim #\d+ .+", anna.inner_text("#prompt"))
        assert anna.locator("#options button").all_inner_texts()[-1] == "let it go (no pit stop)"
        first = seconds_left(anna)
        assert first <= math.ceil(window.time_left(controller.clock())) + 1
        anna.wait_for_function("n => parseInt(document.getElementById('clock').textContent) < n", arg=first)
        left = window.time_left(controller.clock())
        board = open_page(web.server.url + "/", TV)  # opened late: told the time left, not the whole window
        board.wait_for_function("() => !document.getElementById('clock').hidden")
        assert seconds_left(board) <= math.ceil(left) < first
        with stepper.still():  # the table takes no step: the window cannot close there, nor a post be made
            anna.wait_for_function("() => document.getElementById('prompt').textContent === '' && "
                                   "!document.querySelector('#options button') && "
                                   "document.getElementById('clock').hidden")
            assert -0.5 <= controller.clock() - deadline <= 2.0  # when the time was up, not before
            assert anna.evaluate("table.lastPost.step") == step and controller.entry is window
        for page in (anna, board):
            page.wait_for_function(MOVED_ON, arg=step)  # the table closed the window and posted what followed
            assert not page.inner_text("#prompt").startswith("pit stop") and page.locator("#clock").is_hidden()
        assert anna.inner_text("#prompt").startswith("Anna: play a speed card")
