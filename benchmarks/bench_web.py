#!/usr/bin/env python3
"""The web pages under load: 12 clients (6 seats' pages, 6 spectators) follow a 6-player Top Race
demo game that bots play at full speed; how late each post reaches them, whether each saw every
post in order, and what the web server costs the table in memory and speed.

    python3 benchmarks/bench_web.py              # a few games, about a minute
    python3 benchmarks/bench_web.py --quick      # one game
    python3 benchmarks/bench_web.py --browsers   # the clients are 12 pages of a real Chromium

The clients run in a process of their own: aiohttp reading the server-sent events over the
loopback, or (``--browsers``) the real pages in Debian's Chromium, driven by Playwright, each
recording when it has drawn a post. A post's latency is from the moment the table's thread adds
it to the feed to the moment a client has read it (aiohttp) or drawn it (a page), both on the
machine's clock. The
table's memory is its resident set at the game's end, with the pages on and off. Figures are in
seconds and in yardsticks (``sum(range(1000))`` timed in the same run). A script that prints
figures, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from timing import yardstick  # noqa: E402  (beside this script)

from toprace_pi.games.toprace.data import load_track  # noqa: E402
from toprace_pi.games.toprace.table.demo import DemoPlayers, build_demo_table  # noqa: E402
from toprace_pi.table.demo import play_demo  # noqa: E402
from toprace_pi.web.live import TableWeb  # noqa: E402

PLAYERS = 6
SPECTATORS = 6


def resident_mb() -> float:
    """This process's resident memory now, from /proc (megabytes)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def follow(url: str, out: list[tuple[int, float]], ready: asyncio.Event, count: list[int]) -> None:
    import aiohttp

    async with aiohttp.ClientSession() as session, session.get(url, timeout=aiohttp.ClientTimeout(total=None)) as reply:
        count[0] += 1
        if count[0] == PLAYERS + SPECTATORS:
            ready.set()
        seq = 0
        async for raw in reply.content:
            line = raw.decode()
            if line.startswith("id: "):
                seq = int(line[4:].split(".")[-1])  # "epoch.seq"
            elif line.startswith("data: "):
                out.append((seq, time.time()))
                if '"over":true' in line:
                    return


#: Recorded in each page: every post's number and the time it was drawn (the page's clock, in seconds).
RECORD = "() => { window.drawn = []; table.onPost.push(post => window.drawn.push([post.seq, " \
         "(performance.timeOrigin + performance.now()) / 1000])); }"


def browsers(urls: list[str], started: multiprocessing.synchronize.Event, results: multiprocessing.Queue) -> None:
    """The 12 clients as pages of one Chromium: each one's (post number, time drawn) for the whole game."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        # Each phone shows its page in front; in one browser eleven of the twelve pages would be in the
        # background, where Chromium slows them down, so that is turned off.
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=[
            "--no-sandbox", "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
            "--disable-backgrounding-occluded-windows"])
        pages = []
        for url in urls:
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.goto(url)
            page.wait_for_function("() => typeof table === 'object' && table.lastPost !== null")
            page.evaluate(RECORD)
            pages.append(page)
        started.set()
        for page in pages:
            page.wait_for_function("() => table.lastPost && table.lastPost.over", timeout=600_000)
        results.put([[tuple(x) for x in page.evaluate("window.drawn")] for page in pages])
        browser.close()


def clients(urls: list[str], started: multiprocessing.synchronize.Event, results: multiprocessing.Queue) -> None:
    """The 12 clients, in this process: each one's (post number, time read) for the whole game."""
    async def main() -> list[list[tuple[int, float]]]:
        ready, count = asyncio.Event(), [0]
        seen: list[list[tuple[int, float]]] = [[] for _ in urls]
        tasks = [asyncio.create_task(follow(url, out, ready, count)) for url, out in zip(urls, seen, strict=True)]
        await ready.wait()
        started.set()
        await asyncio.wait_for(asyncio.gather(*tasks), 600)
        return seen

    results.put(asyncio.run(main()))


def game(seed: int, web: bool, real: bool = False, pace: float = 0.0) -> dict[str, object]:
    """One 6-player Top Race game at full speed, with the pages and their 12 clients or without."""
    track = load_track("speed-street")
    made: list[TableWeb] = []
    added: dict[int, float] = {}

    def pages(table: object) -> TableWeb:
        page = TableWeb(table, host="127.0.0.1", port=0)  # type: ignore[arg-type]
        add = page.feed.add

        def timed_add(spectator: str, seats: tuple[str, ...], closes_in: float | None = None,
                      table: str | None = None) -> object:
            post = add(spectator, seats, closes_in, table)
            added[post.seq] = time.time()
            return post

        page.feed.add = timed_add  # type: ignore[method-assign]
        page.start()
        made.append(page)
        return page

    demo = build_demo_table(track, PLAYERS, seed, say=lambda _: None, pages=pages if web else None)
    process = None
    if web:
        page = made[0]
        feed = "" if real else "/events"  # a page, or its feed
        urls = [f"{page.server.url}/seat/{token}{feed}" for token in page.keys.tokens]
        urls += [f"{page.server.url}/{feed.lstrip('/')}"] * SPECTATORS
        spawn = multiprocessing.get_context("spawn")  # not forked from a process with the server's threads
        started, results = spawn.Event(), spawn.Queue()
        process = spawn.Process(target=browsers if real else clients, args=(urls, started, results))
        process.start()
        started.wait(60)
    players = DemoPlayers(["greedy"] * PLAYERS, seed)
    begin, cpu, own = time.perf_counter(), time.process_time(), time.thread_time()
    finished = play_demo(demo, players, after_step=(lambda _: time.sleep(pace)) if pace else None)
    figures: dict[str, object] = {"steps": len(finished.log), "wall": time.perf_counter() - begin,
                                  "cpu": time.process_time() - cpu, "table": time.thread_time() - own,
                                  "rss": resident_mb()}
    if process is not None:
        seen = results.get(timeout=600)
        process.join(60)
        figures.update(latencies(seen, added))
    demo.close()
    return figures


def latencies(seen: list[list[tuple[int, float]]], added: dict[int, float]) -> dict[str, object]:
    """Each post's delay to each client, and whether every client saw every post from its first one on, in order."""
    delays = [at - added[seq] for client in seen for seq, at in client if seq in added]
    complete = sum(1 for client in seen
                   if client and [s for s, _ in client] == [s for s in sorted(added) if s >= client[0][0]])
    return {"posts": len(added), "delays": delays, "complete": complete, "clients": len(seen)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one game: rougher figures")
    parser.add_argument("--browsers", action="store_true", help="the clients are pages of a real Chromium")
    parser.add_argument("--pace", type=float, default=0.0, metavar="SECONDS",
                        help="the bots wait this long after each step (default 0: full speed)")
    args = parser.parse_args()
    games = 1 if args.quick else 3
    unit = yardstick()
    print(f"yardstick: {unit * 1e6:.1f} us (sum(range(1000)))")
    off = [game(seed, web=False) for seed in range(games)]
    on = [game(seed, web=True, real=args.browsers, pace=args.pace) for seed in range(games)]
    delays = sorted(d for g in on for d in g["delays"])  # type: ignore[attr-defined]
    median, p99 = statistics.median(delays), delays[int(0.99 * (len(delays) - 1))]
    speed = f"{args.pace:g} s after each step" if args.pace else "full speed"
    print(f"{games} six-player Top Race games at {speed}, {sum(g['steps'] for g in on)} steps, "
          f"{sum(g['posts'] for g in on)} posts, 12 {'pages in Chromium' if args.browsers else 'aiohttp clients'} "
          "each (6 seats, 6 spectators)")
    print(f"  post to client: median {median * 1e3:.2f} ms ({median / unit:,.0f} y), "
          f"p99 {p99 * 1e3:.2f} ms ({p99 / unit:,.0f} y), worst {delays[-1] * 1e3:.1f} ms")
    complete = sum(g["complete"] for g in on)  # type: ignore[misc]
    print(f"  clients that saw every post (from their first) in order: {complete} of {sum(g['clients'] for g in on)}")
    for label, runs in (("pages off", off), ("pages on ", on)):
        steps = sum(g["steps"] for g in runs)  # type: ignore[misc]
        table = sum(g["table"] for g in runs) / steps  # type: ignore[misc]
        cpu = sum(g["cpu"] for g in runs) / steps  # type: ignore[misc]
        print(f"  {label}: CPU a step {table * 1e3:.3f} ms in the table's thread ({table / unit:,.0f} y), "
              f"{cpu * 1e3:.3f} ms in the whole process ({cpu / unit:,.0f} y); "
              f"resident memory {max(g['rss'] for g in runs):.1f} MB")  # type: ignore[type-var]


if __name__ == "__main__":
    main()
