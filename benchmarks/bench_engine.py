#!/usr/bin/env python3
"""Engine speed figures for bots that search: whole bot games, random playouts and clone(), for
Top Race, AUTORACE and TOP SPEED, each in microseconds (or milliseconds) and in yardsticks.

    python3 benchmarks/bench_engine.py           # the full run, about two minutes
    python3 benchmarks/bench_engine.py --quick   # about half a minute, rougher figures
    python3 benchmarks/bench_engine.py --json    # the same figures as JSON

Why: a search bot plays thousands of random or greedy playouts for each decision, so the
engines must be fast, and the table copies the game (``clone()``) before each action.

What is measured, and how (one core; CPU time, ``time.process_time``):

* **Top Race, a whole 4-player greedy race** (auction, race, report), measured as issue 17
  does: the CPU time of a match of ``N + 1`` races less that of a 1-race match with the same
  seed (the fastest of three), divided by ``N``, over a few seeds: what one more race costs,
  the setup left out.
  Every shipped track with the base rules, and every variant on Speed Street and Turbo Town.
  Targets: at most 100 y a race; per action, that race's bound (100 y over its actions).
* **Random bots**, the same way: base and Stocks on Speed Street, and their ratio (target: at
  most 2).
* **A random playout from mid-race** (Speed Street): the games of greedy bots, each stopped
  half way between its first card played and its end; a playout copies one (``clone()``)
  and takes random legal actions (chance drawn with the same generator) to the game's end.
  Target: at most 40 y.
* **clone()** of such a mid-race game. Target: at most 1 y.
* **AUTORACE and TOP SPEED**: whole 4-player games with their sensible bots and with random
  ones (each game's own ``play()``, the board, circuit and deck loaded once: ``simulate()``
  reads the data files on every call), a random playout from mid-game and clone(), each also
  per action, against Top Race's per-action bound.
* **One legal-end-space query** (``Track.moves``) on the longest track, five cars around the
  mover: timed in batches (one call is too short to time alone), the median over situations.

Every figure is also given in yardsticks: one yardstick (y) is ``sum(range(1000))``, timed
just before the figure in the same run (see ``timing.py``), so figures from a busy or slower
machine can be compared; each figure is the fastest of three rounds of the same work over the
fastest yardstick timed beside them. A script that prints figures, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from timing import yardstick  # noqa: E402  (beside this script)

from toprace_pi.games.autorace import simulate as autorace  # noqa: E402
from toprace_pi.games.autorace.bots import make_bot as autorace_bot  # noqa: E402
from toprace_pi.games.autorace.rules import Autorace, Choose  # noqa: E402
from toprace_pi.games.autorace.rules import Settings as AutoraceSettings  # noqa: E402
from toprace_pi.games.toprace.data import load_deck, load_track, track_names  # noqa: E402
from toprace_pi.games.toprace.rules.actions import PlayCard  # noqa: E402
from toprace_pi.games.toprace.rules.cards import Deck, MovementCard  # noqa: E402
from toprace_pi.games.toprace.rules.game import TopRace  # noqa: E402
from toprace_pi.games.toprace.rules.track import Track  # noqa: E402
from toprace_pi.games.toprace.rules.variants import variant_names  # noqa: E402
from toprace_pi.games.toprace.simulate import simulate  # noqa: E402
from toprace_pi.games.topspeed import simulate as topspeed  # noqa: E402
from toprace_pi.games.topspeed.bots import make_bot as topspeed_bot  # noqa: E402
from toprace_pi.games.topspeed.data import load_circuit  # noqa: E402
from toprace_pi.games.topspeed.data import load_deck as load_topspeed_deck  # noqa: E402
from toprace_pi.games.topspeed.rules import SeatAction, TopSpeed  # noqa: E402
from toprace_pi.games.topspeed.settings import TableGame  # noqa: E402

PLAYERS = 4
#: How often the 1-race match of :func:`race_cost` is timed (the fastest is taken away).
SHORT_REPEATS = 3
RACE_TARGET_Y = 100.0
STOCKS_RATIO_TARGET = 2.0
PLAYOUT_TARGET_Y = 40.0
CLONE_TARGET_Y = 1.0
MOVE_TARGET_US = 50.0
#: The tracks every variant is measured on (every track is measured with the base rules).
VARIANT_TRACKS = ("speed-street", "turbo-town")
PLAYOUT_TRACK = "speed-street"
TOPSPEED_LAPS = 10
#: Each figure is measured this many times (see :func:`measured`).
ROUNDS = 3
#: Move queries: five cars between 2 behind and 6 ahead of the moving car.
BLOCKERS, NEAR = 5, (-2.0, 6.0)


@dataclass(frozen=True)
class Effort:
    """How much to measure: the full run and ``--quick`` differ only here."""

    #: Top Race: the races a match adds to the 1-race one, and the seeds.
    extra_races: int
    seeds: int
    #: Random playouts and clones: the positions (a playout and ``clones`` copies spread over them).
    positions: int
    clones: int
    #: AUTORACE and TOP SPEED whole games (seeds).
    games: int
    situations: int


FULL = Effort(extra_races=10, seeds=2, positions=30, clones=3000, games=40, situations=1000)
QUICK = Effort(extra_races=4, seeds=1, positions=8, clones=800, games=8, situations=200)


@dataclass(frozen=True)
class Figure:
    """One measured cost: ``seconds`` (CPU) and in yardsticks; ``actions`` of what it measured, if any."""

    name: str
    seconds: float
    yardsticks: float
    actions: float | None = None

    @property
    def per_action(self) -> float | None:
        """Yardsticks an action."""
        return self.yardsticks / self.actions if self.actions else None


def measured(name: str, run: Callable[[], float | tuple[float, float]]) -> Figure:
    """``run`` returns the seconds (or seconds and actions) of the same work each time. It runs
    :data:`ROUNDS` times with the yardstick timed before each round and after the last, and the
    figure is the fastest round over the fastest yardstick: the machine's other work slows
    rounds and yardsticks alike, and the fastest of each is the least disturbed."""
    units, rounds = [], []
    for _ in range(ROUNDS):
        units.append(yardstick(number=500, repeat=5))
        result = run()
        rounds.append(result if isinstance(result, tuple) else (result, None))
    units.append(yardstick(number=500, repeat=5))
    seconds, actions = min(rounds, key=lambda r: r[0])
    return Figure(name, seconds, seconds / min(units), actions)


# --- Top Race ---------------------------------------------------------------------------------------


def race_cost(track: Track, deck: Deck, variant: str, bots: str, effort: Effort) -> tuple[float, float]:
    """Seconds and actions of one more race in a match (see the module's docstring)."""
    def match(races: int, seed: int) -> tuple[float, int]:
        began = time.process_time()
        game = simulate(track, deck, players=PLAYERS, races=races, seed=seed, bots=bots, variant=variant)
        return time.process_time() - began, len(game.log)

    match(2, 10_000)  # warm-up: caches, the bots' first decisions
    seconds = actions = 0.0
    for seed in range(effort.seeds):
        long, more = match(1 + effort.extra_races, seed)
        # The 1-race match is taken away: its fastest of a few, as a slow one alone would make the
        # difference a fluke (a "race" of Stocks three times the base game's, once in a full run).
        short, fewer = min(match(1, seed) for _ in range(SHORT_REPEATS))
        seconds, actions = seconds + long - short, actions + more - fewer
    count = effort.seeds * effort.extra_races
    return seconds / count, actions / count


def race_figures(deck: Deck, effort: Effort) -> list[Figure]:
    configs = [(name, "base") for name in track_names()]
    configs += [(name, variant) for name in VARIANT_TRACKS for variant in variant_names() if variant != "base"]
    tracks = {name: load_track(name) for name in track_names()}
    return [measured(f"{name} {variant}", lambda name=name, variant=variant:
                     race_cost(tracks[name], deck, variant, "greedy", effort)) for name, variant in configs]


def random_figures(deck: Deck, effort: Effort) -> list[Figure]:
    track = load_track(PLAYOUT_TRACK)
    return [measured(f"{track.slug} {variant}",
                     lambda variant=variant: race_cost(track, deck, variant, "random", effort))
            for variant in ("base", "stocks")]


def random_playout(game: Any, rng: random.Random) -> Any:
    """A copy of ``game`` played to its end by random legal actions, chance from ``rng`` (any game)."""
    game = game.clone()
    while not game.is_over:
        if game.decision.chance:
            game.apply(game.chance_outcomes().sample(rng))
        else:
            game.apply(rng.choice(game.legal_actions()))
    return game


def playout_figures(name: str, positions: list[Any], effort: Effort) -> list[Figure]:
    """A random playout from each position (each with its own seed), and clones of each."""
    def playouts() -> tuple[float, float]:
        actions = 0
        began = time.process_time()
        for n, game in enumerate(positions):
            actions += len(random_playout(game, random.Random(n)).log) - len(game.log)
        return (time.process_time() - began) / len(positions), actions / len(positions)

    def clones() -> float:
        """Each copy dropped at once, as a search drops its copies (kept, they would be in every
        collection of the garbage collector's)."""
        times = max(1, effort.clones // len(positions))
        began = time.process_time()
        for _ in range(times):
            for game in positions:
                game.clone()
        return (time.process_time() - began) / (times * len(positions))

    return [measured(f"{name}: random playout from mid-game", playouts), measured(f"{name}: clone()", clones)]


def half_way(game: Any, first: Callable[[Any], bool]) -> Any:
    """``game`` replayed to half way between its first action for which ``first`` holds and its end."""
    start = next(n for n, action in enumerate(game.log) if first(action))
    return game.replayed(game.log[:(start + len(game.log)) // 2])


def toprace_positions(deck: Deck, effort: Effort) -> list[TopRace]:
    track = load_track(PLAYOUT_TRACK)
    games = (simulate(track, deck, players=PLAYERS, seed=seed) for seed in range(effort.positions))
    return [half_way(game, lambda action: isinstance(action, PlayCard)) for game in games]


# --- AUTORACE and TOP SPEED -----------------------------------------------------------------------------


def autorace_games(bots: str, seeds: range) -> Iterator[Autorace]:
    board = autorace.load_board()
    settings = AutoraceSettings(autorace.player_names(PLAYERS, board))
    for seed in seeds:
        seated = [autorace_bot(bots, seed * 100 + seat) for seat in range(PLAYERS)]
        yield autorace.play(Autorace(settings, board), seated, seed)


def topspeed_games(bots: str, seeds: range) -> Iterator[TopSpeed]:
    settings = TableGame(players=topspeed.player_names(PLAYERS), laps=TOPSPEED_LAPS).settings()
    circuit, deck = load_circuit(settings.circuit), load_topspeed_deck(settings.deck)
    for seed in seeds:
        seated = [topspeed_bot(bots, seed * 100 + seat) for seat in range(PLAYERS)]
        yield topspeed.play(TopSpeed(settings, circuit, deck), seated, seed)


def whole_games(games: Callable[[str, range], Iterator[Any]], bots: str, effort: Effort) -> tuple[float, float]:
    """Seconds and actions of a whole game, over ``effort.games`` seeds."""
    for _ in games(bots, range(10_000, 10_002)):  # warm-up
        pass
    actions = 0
    began = time.process_time()
    for game in games(bots, range(effort.games)):
        actions += len(game.log)
    return (time.process_time() - began) / effort.games, actions / effort.games


def other_game_figures(effort: Effort) -> list[Figure]:
    figures = []
    for title, games, chosen in (("AUTORACE", autorace_games, lambda action: isinstance(action, Choose)),
                                 ("TOP SPEED", topspeed_games, lambda action: isinstance(action, SeatAction))):
        for bots in ("sensible", "random"):
            figures.append(measured(f"{title}: a whole game, {bots} bots",
                                    lambda games=games, bots=bots: whole_games(games, bots, effort)))
        positions = [half_way(game, chosen) for game in games("sensible", range(effort.positions))]
        figures += playout_figures(title, positions, effort)
    return figures


# --- one move query -----------------------------------------------------------------------------------


def move_query(effort: Effort) -> Figure:
    """Median seconds of ``Track.moves`` on the longest track (see the module's docstring)."""
    track = max((load_track(n) for n in track_names()), key=lambda t: t.finish_line)
    values = [value for card in load_deck().cards if isinstance(card, MovementCard) for _, value in card.moves]
    rng, repeats, per_call = random.Random(1), 20, []
    for _ in range(effort.situations):
        start = rng.randrange(len(track.spaces))
        here = track.front(start)
        near = [s.index for s in track.spaces if s.index != start and here + NEAR[0] <= s.front <= here + NEAR[1]]
        if len(near) < BLOCKERS:  # at the very end of the track: the nearest spaces
            near = sorted((s.index for s in track.spaces if s.index != start),
                          key=lambda i: abs(track.front(i) - here))[:BLOCKERS * 3]
        blocked, points = set(rng.sample(near, BLOCKERS)) | {start}, rng.choice(values)
        track.moves(start, points, blocked)  # warm the situation's data into the caches
        began = time.perf_counter()
        for _ in range(repeats):
            track.moves(start, points, blocked)
        per_call.append((time.perf_counter() - began) / repeats)
    return measured(f"Track.moves on {track.slug}", lambda: statistics.median(per_call))


# --- report -------------------------------------------------------------------------------------------


def measure(effort: Effort) -> dict[str, Any]:
    deck = load_deck()
    toprace = toprace_positions(deck, effort)
    return {
        "python": platform.python_version(),
        "machine": f"{platform.system()} {platform.machine()}",
        "greedy_races": race_figures(deck, effort),
        "random_races": random_figures(deck, effort),
        "toprace": playout_figures("Top Race", toprace, effort),
        "other_games": other_game_figures(effort),
        "move_query": move_query(effort),
    }


def bound(figures: dict[str, Any]) -> float:
    """Top Race's per-action bound: 100 y over the actions of a Speed Street greedy race."""
    race = next(f for f in figures["greedy_races"] if f.name == f"{PLAYOUT_TRACK} base")
    return RACE_TARGET_Y / race.actions


def verdicts(figures: dict[str, Any]) -> list[str]:
    races, (base, stocks) = figures["greedy_races"], figures["random_races"]
    playout, clone = figures["toprace"]
    slowest = max(races, key=lambda f: f.yardsticks)
    per_action = bound(figures)
    worst = max(figures["other_games"], key=lambda f: f.per_action or 0.0)
    return [
        f"greedy race <= {RACE_TARGET_Y:.0f} y (slowest: {slowest.name}, {slowest.yardsticks:.0f} y): "
        f"{met(slowest.yardsticks <= RACE_TARGET_Y)}",
        f"Stocks / base with random bots <= {STOCKS_RATIO_TARGET:.0f} ({stocks.seconds / base.seconds:.2f}): "
        f"{met(stocks.seconds <= STOCKS_RATIO_TARGET * base.seconds)}",
        f"random playout from mid-race <= {PLAYOUT_TARGET_Y:.0f} y ({playout.yardsticks:.1f} y): "
        f"{met(playout.yardsticks <= PLAYOUT_TARGET_Y)}",
        f"clone() <= {CLONE_TARGET_Y:.0f} y ({clone.yardsticks:.2f} y): {met(clone.yardsticks <= CLONE_TARGET_Y)}",
        f"AUTORACE and TOP SPEED per action <= {per_action:.2f} y (worst: {worst.name}, "
        f"{worst.per_action or 0:.2f} y): {met((worst.per_action or 0) <= per_action)}",
        f"move query median <= {MOVE_TARGET_US:.0f} us ({figures['move_query'].seconds * 1e6:.1f} us): "
        f"{met(figures['move_query'].seconds * 1e6 <= MOVE_TARGET_US)}",
    ]


def met(ok: bool) -> str:
    return "met" if ok else "NOT MET"


def line(figure: Figure, width: int) -> str:
    per_action = f"{figure.per_action:8.2f} y an action ({figure.actions:.0f})" if figure.per_action else ""
    return f"  {figure.name:{width}} {figure.seconds * 1e3:9.3f} ms {figure.yardsticks:9.1f} y  {per_action}"


def table(figures: dict[str, Any]) -> str:
    width = max(len(f.name) for key in ("greedy_races", "random_races", "toprace", "other_games")
                for f in figures[key])
    base, stocks = figures["random_races"]
    lines = [f"Engine benchmark (Python {figures['python']}, {figures['machine']}, one core); "
             "y: sum(range(1000)) timed before each figure",
             "", f"Top Race, one more {PLAYERS}-player greedy race in a match:"]
    lines += [line(f, width) for f in figures["greedy_races"]]
    lines += ["", "Top Race, one more race of random bots:"] + [line(f, width) for f in figures["random_races"]]
    lines += [f"  Stocks / base: {stocks.seconds / base.seconds:.2f}", "", "Top Race, mid-race:"]
    lines += [line(f, width) for f in figures["toprace"]]
    lines += ["", f"AUTORACE and TOP SPEED ({PLAYERS} players; TOP SPEED races of {TOPSPEED_LAPS} laps):"]
    lines += [line(f, width) for f in figures["other_games"]]
    lines += [f"  Top Race's per-action bound: {bound(figures):.2f} y "
              "(100 y over the actions of a Speed Street greedy race)"]
    move = figures["move_query"]
    lines += ["", f"One {move.name} query, median: {move.seconds * 1e6:.2f} us ({move.yardsticks:.3f} y)", ""]
    return "\n".join(lines + [f"verdict: {v}" for v in verdicts(figures)])


def as_json(figures: dict[str, Any]) -> dict[str, Any]:
    def plain(value: Any) -> Any:
        if isinstance(value, Figure):
            return {**asdict(value), "per_action": value.per_action}
        return [plain(v) for v in value] if isinstance(value, list) else value

    return {**{key: plain(value) for key, value in figures.items()}, "verdicts": verdicts(figures)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short run with rougher figures")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    figures = measure(QUICK if args.quick else FULL)
    print(json.dumps(as_json(figures), indent=2) if args.json else table(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
