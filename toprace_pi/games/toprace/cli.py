"""Top Race's part of the command line: its options of ``simulate`` and ``demo`` (track, deck,
rules, players, races, bots) and what those commands and ``replay`` do with them. The command
line (:mod:`toprace_pi.cli`) builds a command's options from the game asked for, so it imports
this module only for a Top Race command."""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from toprace_pi.arguments import bots_option, players, positive
from toprace_pi.core.bots import SEARCH
from toprace_pi.errors import TopRaceError
from toprace_pi.games.toprace.bots import BOT_KINDS
from toprace_pi.games.toprace.data import DEFAULT_DECK, DEFAULT_TRACK, deck_names, load_deck, load_track, track_names
from toprace_pi.games.toprace.report import json_report, text_report
from toprace_pi.games.toprace.rules.game import Game
from toprace_pi.games.toprace.rules.variants import variant_names
from toprace_pi.games.toprace.simulate import simulate as simulate_game


def add_options(parser: argparse.ArgumentParser, command: str) -> None:
    """Top Race's options of ``command`` (``simulate`` or ``demo``)."""
    info = Game.info
    parser.add_argument("--track", default=DEFAULT_TRACK,
                        help=f"a shipped track ({', '.join(track_names())}) or a track file")
    parser.add_argument("--players", type=players(info.min_players, info.max_players), default=4,
                        help=f"{info.min_players} to {info.max_players} (default 4)")
    parser.add_argument("--races", type=positive, default=1, help="races in the match (default 1)")
    bots_option(parser, (*BOT_KINDS, "mixed"), SEARCH if command == "demo" else "greedy")
    parser.add_argument("--deck", default=DEFAULT_DECK,
                        help=f"a shipped deck ({', '.join(deck_names())}) or a deck file (default {DEFAULT_DECK})")
    parser.add_argument("--variant", choices=[v for v in variant_names() if "+" not in v], default="base",
                        help="the rules: base or a variant (default base); add --pitstop to combine")
    parser.add_argument("--pitstop", action="store_true", help="add the Pit Stop rule")
    if command == "demo":
        parser.add_argument("--svg-dir", type=Path, metavar="DIR", help="also write a picture of every step")


def simulate(args: argparse.Namespace) -> int:
    track, deck = load_track(args.track), load_deck(args.deck)
    game = simulate_game(track, deck, players=args.players, races=args.races, seed=args.seed, bots=args.bots,
                         strength=args.strength, variant=variant(args), deck_name=deck_name(args.deck))
    print_report(game, "json" if args.json else "text", {"seed": args.seed, "bots": args.bots,
                                                         "variant": variant(args)})
    return 0


def demo(args: argparse.Namespace) -> Callable[..., Any]:
    """Top Race's demo with its options of ``args`` bound; the table's own (delay, colour, journal,
    humans, keys, screen) are the caller's to give. Imported here: it needs gpiozero."""
    from toprace_pi.games.toprace.table.demo import run_demo

    return functools.partial(run_demo, track_name=args.track, players=args.players, races=args.races,
                             seed=args.seed, bots=args.bots, strength=args.strength, variant=variant(args),
                             deck=deck_name(args.deck),
                             svg_dir=args.svg_dir)


def replay(args: argparse.Namespace, colour: Any) -> int:
    """A journal played back step by step, or (``--report``) its game's report."""
    from toprace_pi.games.toprace.render.terminal import board_width
    from toprace_pi.games.toprace.table.replay import replay_journal

    def warn(text: str) -> None:
        print(text, file=sys.stderr)

    game = replay_journal(args.journal, pause=0.0 if args.fast or args.report else 0.4, colour=colour,
                          width=board_width(), svg_dir=args.svg_dir, narrate=args.report is None,
                          out=warn if args.report else print, warn=warn)
    print_report(game, args.report, {"journal": str(args.journal)})
    return 0


def print_report(game: Game, kind: str | None, extra: dict[str, object]) -> None:
    """The one report of a game, as text or JSON (``None``: none)."""
    if kind == "json":
        print(json.dumps(json_report(game, extra), indent=2))
    elif kind == "text":
        print(text_report(game, extra))


def variant(args: argparse.Namespace) -> str:
    """The variant's registered name: ``--pitstop`` joins the Pit Stop rule to it."""
    if not args.pitstop or args.variant == "pitstop":
        return str(args.variant)
    name = "pitstop" if args.variant == "base" else f"pitstop+{args.variant}"
    if name not in variant_names():
        raise TopRaceError(f"the Pit Stop rule does not go with --variant {args.variant}")
    return name


def deck_name(name: str) -> str:
    """A shipped deck's name, or a deck file's absolute path: what the game records, so that its journal
    replays from any folder (a track file records its path by itself, as its slug)."""
    return name if name in deck_names() else str(Path(name).resolve())


def calibration_target(name: str, out: Path | None) -> Any:
    """What ``toprace-pi calibrate NAME`` walks for this game's board ``name`` (its LEDs, space by space)."""
    from toprace_pi.games.toprace.table.board import calibration_target as target

    return target(name, out)
