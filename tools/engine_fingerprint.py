#!/usr/bin/env python3
"""A fingerprint of the engines' behaviour: seeded bot games of all three games, hashed.

    PYTHONHASHSEED=0 python3 tools/engine_fingerprint.py          # one hash per game, and one of them all
    PYTHONHASHSEED=0 python3 tools/engine_fingerprint.py --json   # the same as JSON

Why: a change made for speed must change nothing a game does. This plays the same seeded games
and hashes everything a game shows: at every step the legal actions, the action taken, the
events, every seat's view (``view(seat)``) and what a seat's bot reads through ``seen_by``; at
the end the log, the events, the winners and the snapshot; and, half way, a clone played on to
its end by random actions while the original is checked untouched. Top Race: every shipped
track with every variant, greedy and random bots; AUTORACE: sensible and random bots; TOP
SPEED: every listed variant, sensible and random bots. Keep the hash of the commit a change
starts from, and compare (the same ``PYTHONHASHSEED``: a set's order may show in a view).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = 4
#: A game's attributes that only grow (see :func:`seen`).
GROWING = ("log", "events")


def plain(value: Any) -> Any:
    """``value`` with every object that says itself by its address (``<Board object at 0x...>``)
    replaced by its class's name and its attributes, so that equal states hash alike in any run."""
    kind = type(value)
    if kind in (list, tuple):
        return kind(plain(item) for item in value)
    if kind is dict:
        return {key: plain(item) for key, item in value.items()}
    if kind.__repr__ is object.__repr__ and hasattr(value, "__dict__"):
        return kind.__qualname__, plain(vars(value))
    return value


class Digest:
    """One hash per game, fed what the game shows."""

    def __init__(self) -> None:
        self.hash = hashlib.sha256()

    def add(self, *values: Any) -> None:
        for value in values:
            self.hash.update(repr(plain(value)).encode())
            self.hash.update(b"\x00")

    def hexdigest(self) -> str:
        return self.hash.hexdigest()[:16]


def seen(game: Any, seat: int) -> list[Any]:
    """What a seat's bot reads through ``seen_by``: the public attributes of the game's view (of the
    log and the events, which only grow and are hashed step by step, only how long they are)."""
    view = game.seen_by(seat)
    shown: list[Any] = []
    for name in sorted(vars(game)):
        if name.startswith("_"):
            continue
        try:
            value = getattr(view, name)
        except AttributeError as refused:
            shown.append((name, str(refused)))
            continue
        shown.append((name, len(value) if name in GROWING else value))
    return shown


def step(digest: Digest, game: Any, action: Any, seats: int) -> None:
    """Before ``action`` is applied: what the game shows now; then the action and its events."""
    if not game.decision.chance:
        digest.add(game.legal_actions())
    digest.add([game.view(seat) for seat in range(seats)], [seen(game, seat) for seat in range(seats)])
    count = len(game.events)
    game.apply(action)
    digest.add(str(action), action, game.events[count:])


def ending(digest: Digest, game: Any) -> None:
    digest.add(game.log, [str(a) for a in game.log], game.events, game.winners(), game.snapshot(), game.to_dict())


def playout(digest: Digest, game: Any, seed: int) -> None:
    """Half way: a clone played on by random actions (chance from the same generator), the original untouched."""
    before = repr(game.snapshot()), len(game.log), len(game.events)
    copy, rng = game.clone(), random.Random(seed)
    while not copy.is_over:
        if copy.decision.chance:
            copy.apply(copy.chance_outcomes().sample(rng))
        else:
            copy.apply(rng.choice(copy.legal_actions()))
    digest.add(copy.log, copy.events, copy.winners())
    after = repr(game.snapshot()), len(game.log), len(game.events)
    if after != before:
        raise AssertionError("playing a clone changed the game it was cloned from")


def toprace_games() -> dict[str, str]:
    from toprace_pi.games.toprace.bots import make_bot
    from toprace_pi.games.toprace.data import load_deck, load_track, track_names
    from toprace_pi.games.toprace.rules.game import Settings
    from toprace_pi.games.toprace.rules.variants import new_game, variant_names
    from toprace_pi.games.toprace.simulate import player_names

    deck, hashes = load_deck(), {}
    for track_name in track_names():
        track = load_track(track_name)
        for variant in variant_names():
            for kind, seed in (("greedy", 1), ("random", 2)):
                settings = Settings(player_names(PLAYERS), races=2, first_opener=seed % PLAYERS, track=track.slug,
                                    variant=variant)
                game, digest = new_game(settings, track, deck), Digest()
                bots, chance, half = [make_bot(kind, seed * 100 + s) for s in range(PLAYERS)], random.Random(seed), 90
                while not game.is_over:
                    if len(game.log) == half:
                        playout(digest, game, seed)
                    if game.decision.chance:
                        action = game.chance(chance)
                    else:
                        action = bots[game.seat].choose(game.seen_by(game.seat))
                    step(digest, game, action, PLAYERS)
                ending(digest, game)
                hashes[f"toprace {track_name} {variant} {kind}"] = digest.hexdigest()
    return hashes


def sealed_games(title: str, new: Callable[[], Any], kinds: Sequence[str], seeds: Sequence[int],
                 make_bot: Callable[[str, int], Any], choice: Callable[[Any, int, Any], Any]) -> dict[str, str]:
    """AUTORACE's and TOP SPEED's games: chance sampled from the seed, each seat's bot from what it is shown."""
    from toprace_pi.core.bots import shown_to

    hashes = {}
    for kind in kinds:
        for seed in seeds:
            game, digest = new(), Digest()
            bots, chance = [make_bot(kind, seed * 100 + s) for s in range(PLAYERS)], random.Random(seed)
            while not game.is_over:
                if len(game.log) == 40:
                    playout(digest, game, seed)
                decision = game.decision
                if decision.chance:
                    actions = [game.chance_outcomes().sample(chance)]
                else:
                    views = {seat: shown_to(bots[seat], game, seat) for seat in decision.seats}
                    actions = [choice(game, seat, bots[seat].choose(view)) for seat, view in views.items()]
                for action in actions:
                    step(digest, game, action, PLAYERS)
            ending(digest, game)
            hashes[f"{title} {kind} {seed}"] = digest.hexdigest()
    return hashes


def autorace_games() -> dict[str, str]:
    from toprace_pi.games.autorace import simulate
    from toprace_pi.games.autorace.bots import make_bot
    from toprace_pi.games.autorace.rules import Autorace, Choose, Settings

    board = simulate.load_board()
    settings = Settings(simulate.player_names(PLAYERS, board), games=2)
    return sealed_games("autorace", lambda: Autorace(settings, board), ("sensible", "random"), (1, 2),
                        make_bot, lambda game, seat, chosen: Choose(seat, chosen))


def topspeed_games() -> dict[str, str]:
    from toprace_pi.games.topspeed import simulate
    from toprace_pi.games.topspeed.bots import make_bot
    from toprace_pi.games.topspeed.data import load_circuit, load_deck
    from toprace_pi.games.topspeed.rules import TopSpeed
    from toprace_pi.games.topspeed.settings import VARIANTS, TableGame

    hashes = {}
    for variant in VARIANTS:
        settings = TableGame(players=simulate.player_names(PLAYERS), variant=variant, laps=3).settings()
        circuit, deck = load_circuit(settings.circuit), load_deck(settings.deck)
        found = sealed_games(f"topspeed {variant}", lambda: TopSpeed(settings, circuit, deck),
                             ("sensible", "random"), (1,), make_bot, lambda game, seat, chosen: chosen)
        hashes.update(found)
    return hashes


def fingerprint() -> dict[str, Any]:
    hashes = {**toprace_games(), **autorace_games(), **topspeed_games()}
    everything = hashlib.sha256(json.dumps(hashes, sort_keys=True).encode()).hexdigest()[:16]
    return {"hashseed": os.environ.get("PYTHONHASHSEED"), "all": everything, "games": hashes}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the hashes as JSON")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    found = fingerprint()
    if args.json:
        print(json.dumps(found, indent=2, sort_keys=True))
    else:
        print(f"PYTHONHASHSEED={found['hashseed']}")
        for name, value in found["games"].items():
            print(f"  {value}  {name}")
        print(f"all: {found['all']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
