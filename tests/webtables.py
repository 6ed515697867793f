"""Demo tables with their web pages on a free loopback port, stepped by a thread of their own as the
running table steps itself, for tests that talk to the pages over real HTTP; whole demo games played in a
thread for tests that watch them in a real browser, and what such a test does on a page."""

from __future__ import annotations

import functools
import json
import random
import re
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toprace_pi.table.screen import DemoScreen
from toprace_pi.web.live import TableWeb

#: Seconds between two steps of a table left to itself (the live table's tick).
TICK = 0.005


class Stepper:
    """Steps ``demo``'s table in a thread until stopped (the players act only through the pages)."""

    def __init__(self, demo: Any) -> None:
        self.demo = demo
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                self.demo.step()
            time.sleep(TICK)

    def still(self) -> Any:
        """A lock held while the test looks at the game: the table takes no step meanwhile."""
        return self._lock

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)


def autorace_table(journal: Path) -> Callable[..., Any]:
    """What builds an AUTORACE demo table for Anna and Ben with its journal at ``journal``, for :func:`served`."""
    from toprace_pi.games.autorace.table.demo import build_demo_table

    return functools.partial(build_demo_table, 2, journal=journal, names=("Anna", "Ben"), say=lambda _: None)


def toprace_table(journal: Path, variant: str = "pitstop") -> Callable[..., Any]:
    """What builds a Top Race demo table (the cards dealt by the table) for Anna and Ben with its journal
    at ``journal``, for :func:`served`."""
    from toprace_pi.games.toprace.data import load_track
    from toprace_pi.games.toprace.table.demo import build_demo_table

    return functools.partial(build_demo_table, load_track("speed-street"), 2, 3, variant=variant, journal=journal,
                             names=("Anna", "Ben"), say=lambda _: None)


def topspeed_table(journal: Path) -> Callable[..., Any]:
    """What builds a TOP SPEED demo table for Anna and Ben with its journal at ``journal``, for :func:`served`."""
    from toprace_pi.games.topspeed.table.demo import build_demo_table

    return functools.partial(build_demo_table, 2, laps=2, journal=journal, names=("Anna", "Ben"), say=lambda _: None)


@contextmanager
def served(build: Any, **options: Any) -> Iterator[tuple[Any, TableWeb, Stepper]]:
    """A demo table made by ``build(pages=...)``, its pages served at 127.0.0.1 on a free port."""
    webs: list[TableWeb] = []

    def pages(table: Any) -> TableWeb:
        web = TableWeb(table, host="127.0.0.1", port=0, **options)
        web.start()
        webs.append(web)
        return web

    demo = build(pages=pages)
    stepper = Stepper(demo)
    try:
        yield demo, webs[0], stepper
    finally:
        stepper.stop()
        demo.close()


def request(url: str, *, data: bytes | None = None, kind: str = "application/json", method: str | None = None,
            headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body of one request (an error status is an answer too). A request with a body
    comes from the server's own page, as a page's script sends it (its ``Origin``), unless ``headers`` say
    otherwise."""
    sent = {"Content-Type": kind, "Origin": origin(url)} if data is not None else {}
    req = urllib.request.Request(url, data=data, method=method, headers={**sent, **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=10) as reply:
            return reply.status, dict(reply.headers), reply.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def origin(url: str) -> str:
    """The origin of a page at ``url``, as a browser names it in an ``Origin`` header."""
    parts = urllib.parse.urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def act(web: TableWeb, token: str, act_text: str, step: int) -> tuple[int, dict[str, Any]]:
    status, _, body = request(f"{web.server.url}/seat/{token}/act",
                              data=json.dumps({"act": act_text, "step": step}).encode())
    return status, json.loads(body)


def posts(url: str, count: int, *, timeout: float = 10.0) -> Iterator[tuple[int, dict[str, Any]]]:
    """The first ``count`` posts of a feed, each with its number."""
    with urllib.request.urlopen(url, timeout=timeout) as stream:
        seq = 0
        got = 0
        while got < count:
            line = stream.readline().decode()
            if not line:
                return
            if line.startswith("id: "):
                seq = int(line[4:].split(".")[-1])  # "epoch.seq"
            elif line.startswith("data: "):
                got += 1
                yield seq, json.loads(line[6:])


def journal_size(path: Path) -> int:
    return path.stat().st_size if path.exists() else 0


def free_port() -> int:
    """A port nobody listens on now, for a server started in another process."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# --- whole demo games, watched in a browser ------------------------------------------------------

#: Debian's Chromium: playwright cannot download a browser here. A missing one fails the browser
#: tests (launching it raises), it never skips them.
CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}
#: Seconds a browser test waits for one thing on a page (a post, a button) before it fails.
PAGE_WAIT = 20.0

#: Run before the page's own scripts: every post the feed sends is kept in ``window.received`` (its
#: number and its text, as sent), and every post the page draws in ``window.drawn`` with the page's
#: prompt and secrets as drawn and the page's width then (the table's ``onPost`` callbacks run after
#: the page's own drawing).
RECORDER = """
window.received = [];
window.drawn = [];
const PageEventSource = window.EventSource;
window.EventSource = class extends PageEventSource {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", e => window.received.push({seq: Number(e.lastEventId), text: e.data}));
  }
};
document.addEventListener("DOMContentLoaded", () => table.onPost.push(post => {
  const secrets = document.getElementById("secrets");
  window.drawn.push({seq: post.seq, step: post.step, over: post.over, news: post.news,
                     prompt: document.getElementById("prompt").textContent,
                     secrets: secrets ? [...secrets.children].map(li => li.textContent) : null,
                     width: document.documentElement.scrollWidth});
}));
"""


class HeldPages:
    """The demo's pages, kept up after its game (the demo closes them at its end) until the test lets
    them go: the test looks at the pages of a finished game without a race against their closing."""

    def __init__(self, web: TableWeb, over: threading.Event, release: threading.Event) -> None:
        self.web = web
        self.over = over
        self.release = release

    def close(self) -> None:
        self.over.set()
        self.release.wait(timeout=120)
        self.web.close()


class DemoGame:
    """A game's ``run_demo(**options)`` played in a thread, its pages on a free loopback port. It
    waits for :meth:`go` after its first post, so that a page opened before sees the whole game, and
    its pages stay up after the game until the ``with`` block ends."""

    def __init__(self, run: Callable[..., Any], *, journal: Path, delay: float = 0.02, **options: Any) -> None:
        self.journal = journal
        self._run = functools.partial(run, delay=delay, journal=journal, pages=self._pages,
                                      screen=DemoScreen(lambda _: None, live=False), **options)
        self._served, self._go, self._over, self._release = (threading.Event() for _ in range(4))
        self._web: TableWeb | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._play, name="demo", daemon=True)

    def _play(self) -> None:
        try:
            self._run()
        except BaseException as exc:  # handed to the test
            self._error = exc
        finally:
            self._served.set()
            self._over.set()

    def _pages(self, table: Any) -> HeldPages:
        web = TableWeb(table, host="127.0.0.1", port=0, journal=self.journal)
        web.start()
        self._web = web
        self._served.set()
        self._go.wait(timeout=120)
        return HeldPages(web, self._over, self._release)

    def __enter__(self) -> DemoGame:
        self._thread.start()
        self._served.wait(timeout=60)
        self._raise()
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self._go.set()
        self._release.set()
        if exc_info[0] is None:
            self._thread.join(timeout=60)
            self._raise()
        else:  # a game left waiting for its pages never ends: its thread dies with the tests
            self._thread.join(timeout=2)

    def _raise(self) -> None:
        if self._error is not None:
            raise AssertionError("the demo failed") from self._error
        assert self._web is not None, "the demo opened no pages"

    @property
    def web(self) -> TableWeb:
        assert self._web is not None
        return self._web

    @property
    def url(self) -> str:
        return self.web.server.url

    def seat_url(self, seat: int) -> str:
        return f"{self.url}/seat/{self.web.keys.tokens[seat]}"

    def go(self) -> None:
        """Let the game begin."""
        self._go.set()

    def wait_over(self, timeout: float = 90.0) -> Any:
        """The finished game, once the demo has played it to its end (its last post made)."""
        assert self._over.wait(timeout), f"the demo's game did not end within {timeout} s"
        self._raise()
        game = self.web.table.controller.game
        assert game.is_over, "the demo stopped before its game's end"
        return game


def page_inputs(journal: Path) -> list[tuple[str, str]]:
    """The journal's inputs made on seats' pages, in order: who (``"the page of seat N"``) and the step."""
    records = [json.loads(line) for line in journal.read_text("utf-8").splitlines()]
    return [(r["by"], r["step"]) for r in records if r.get("by", "").startswith("the page of seat ")]


# --- what a person does on a seat's page -------------------------------------------------------

#: True once the page has drawn a post (the recorder's callback runs after the page's own drawing).
DRAWN = "() => window.drawn.length > 0"
#: True once the page has drawn the game's end.
OVER = "() => window.drawn.length > 0 && window.drawn[window.drawn.length - 1].over"
#: What chooses: a button of an option, or of a group of options (its words end in " …"), not "back";
#: or a lit space on the board (its words are its ``aria-label``; the confirm button sends it).
CHOICES = "#options button.act, #options button.group, #spaces .target"
#: The words of a choice, as a person reads them (a space on the board has no text).
WORDS = "b => b.getAttribute('aria-label') || b.textContent"
#: True once the page has drawn the game's end, or a choice to click whose words do not match the
#: regular expression ``avoid`` (its argument; ``null``: none is avoided).
CAN_ACT = ("avoid => window.drawn.length > 0 && (window.drawn[window.drawn.length - 1].over || "
           "[...document.querySelectorAll('" + CHOICES + "')].some(b => !b.disabled && "
           "!(avoid && new RegExp(avoid).test((" + WORDS + ")(b)))))")
#: True once the page has drawn a step after ``step`` (its argument).
MOVED_ON = "step => window.drawn[window.drawn.length - 1].step > step"


@dataclass(frozen=True)
class Turn:
    """One decision taken on a seat's page: the step the page showed, the word groups clicked
    through, the option's words and its action, and the table's answer."""

    step: int
    groups: tuple[str, ...]
    words: str
    act: str
    answer: str


def take_turn(page: Any, rng: random.Random, *, avoid: str | None = None) -> Turn | None:
    """One decision taken on a seat's page by clicking, as a person would: through the word-by-word
    groups down to an option, each button picked at random among those whose words do not match
    ``avoid``; returned once the table answered and, if it took the input, the page shows the step
    that followed (``None``: the game is over instead). A group always holds a choice: more than
    one button behind it."""
    page.wait_for_function(CAN_ACT, arg=avoid)
    if page.evaluate("table.lastPost.over"):
        return None
    groups = []
    post = page.evaluate("table.lastPost")  # the post whose options the buttons show
    while (words := click_one(page, rng, avoid)).endswith(" …"):
        groups.append(words)
        assert page.locator(CHOICES).count() > 1, f"the group {words!r} holds one option only"
    page.wait_for_function("() => document.getElementById('answer').textContent !== ''")
    answer = page.inner_text("#answer")
    if answer == "done":
        page.wait_for_function(MOVED_ON, arg=post["step"])
    act = next((option["act"] for option in post["options"] if option["words"] == words), "")
    return Turn(post["step"], tuple(groups), words, act, answer)


def play_through(page: Any, rng: random.Random, *, avoid: str | None = None, most: int = 400) -> list[Turn]:
    """A seat's decisions taken on its page until the game is over (at most ``most`` clicks)."""
    turns: list[Turn] = []
    while (turn := take_turn(page, rng, avoid=avoid)) is not None:
        turns.append(turn)
        assert len(turns) <= most, f"the game is not over after {most} inputs from the page"
    return turns


def click_one(page: Any, rng: random.Random, avoid: str | None) -> str:
    """Click one of the page's choices, at random among those whose words do not match ``avoid`` (a space
    on the board, then the button that confirms it); its words."""
    buttons = page.locator(CHOICES)
    labels = buttons.evaluate_all(f"choices => choices.map({WORDS})")
    allowed = [n for n, label in enumerate(labels) if not (avoid and re.search(avoid, label))]
    assert allowed, f"nothing to click but {labels}"
    choice = buttons.nth(rng.choice(allowed))
    on_board = choice.evaluate("b => b.matches('#spaces .target')")
    words = str(choice.evaluate(WORDS))
    choice.click()
    if on_board:
        page.click("#confirm")
    return words


def drawn(page: Any) -> list[dict[str, Any]]:
    """The posts the page drew so far (see :data:`RECORDER`)."""
    return list(page.evaluate("window.drawn"))


def received(page: Any) -> list[tuple[int, dict[str, Any], str]]:
    """The posts the page's feed sent so far: each one's number, its data and its text as sent."""
    return [(item["seq"], json.loads(item["text"]), item["text"]) for item in page.evaluate("window.received")]
