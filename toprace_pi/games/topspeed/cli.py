"""TOP SPEED's part of the command line: its options of ``simulate`` and ``demo`` (players, laps,
race type, advanced rules, bots) and what those commands do with them. The command line
(:mod:`toprace_pi.cli`) imports this module only for a TOP SPEED command."""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from toprace_pi.arguments import bots_option, players, positive
from toprace_pi.core.bots import SEARCH
from toprace_pi.errors import TopRaceError
from toprace_pi.games.topspeed.bots import BOT_KINDS
from toprace_pi.games.topspeed.report import json_report, text_report
from toprace_pi.games.topspeed.rules.game import DEFAULT_LAPS, MAX_LAPS, MAX_PLAYERS, MIN_PLAYERS
from toprace_pi.games.topspeed.settings import RULES
from toprace_pi.games.topspeed.simulate import simulate as simulate_race

DEFAULT_BOTS = "sensible"


def add_options(parser: argparse.ArgumentParser, command: str) -> None:
    """TOP SPEED's options of ``command`` (``simulate`` or ``demo``)."""
    parser.add_argument("--players", type=players(MIN_PLAYERS, MAX_PLAYERS), default=4,
                        help=f"{MIN_PLAYERS} to {MAX_PLAYERS}, one deck and car each (default 4)")
    parser.add_argument("--laps", type=positive, default=DEFAULT_LAPS,
                        help=f"the race's laps, 2 to {MAX_LAPS} (default {DEFAULT_LAPS}; the Grand Prix has 66)")
    parser.add_argument("--race", choices=("normal", "wet"), default="normal", help="the race type (default normal)")
    for rule in RULES:
        parser.add_argument(f"--{rule}", action="store_true", help=f"play the advanced rule {rule}")
    parser.add_argument("--blank", metavar="CARD", default="",
                        help="the blank card plays as one more CARD in every deck, a card's word: safety_car, "
                             "yellow_flag, 2, ... (instead of --chaotic-weather)")
    bots_option(parser, BOT_KINDS, SEARCH if command == "demo" else DEFAULT_BOTS)


def variant(args: argparse.Namespace) -> str:
    """The variant's name the options make: ``wet+kers``."""
    return "+".join([args.race, *(rule for rule in RULES if getattr(args, rule.replace("-", "_")))])


def _laps(args: argparse.Namespace) -> int:
    if not 2 <= args.laps <= MAX_LAPS:
        raise TopRaceError(f"a race has 2 to {MAX_LAPS} laps, not {args.laps}")
    return int(args.laps)


def simulate(args: argparse.Namespace) -> int:
    game = simulate_race(players=args.players, laps=_laps(args), variant=variant(args), seed=args.seed,
                         bots=args.bots, strength=args.strength, blank=args.blank)
    extra = {"seed": args.seed, "bots": args.bots}
    print(json.dumps(json_report(game, extra), indent=2) if args.json else text_report(game, extra), end="")
    if args.json:
        print()
    return 0


def demo(args: argparse.Namespace) -> Callable[..., Any]:
    """TOP SPEED's demo with its options bound. Imported here: it needs gpiozero."""
    run_demo = importlib.import_module("toprace_pi.games.topspeed.table.demo").run_demo
    return functools.partial(run_demo, players=args.players, laps=_laps(args), variant=variant(args),
                             blank=args.blank, seed=args.seed, bots=args.bots, strength=args.strength)


def replay(args: argparse.Namespace, colour: Any) -> int:
    """A journal played back step by step (with ``--svg-dir`` a picture of every step too), or
    (``--report``) its race's report."""
    from toprace_pi.games.topspeed.table.replay import replay_journal

    game = replay_journal(args.journal, pause=0.0 if args.fast or args.report else 0.4, colour=colour,
                          svg_dir=args.svg_dir, narrate=args.report is None,
                          out=(lambda text: print(text, file=sys.stderr)) if args.report else print,
                          warn=lambda text: print(text, file=sys.stderr))
    if args.report is not None:
        extra = {"journal": str(args.journal)}
        print(json.dumps(json_report(game, extra), indent=2) if args.report == "json" else text_report(game, extra))
    return 0


def calibration_target(name: str, out: Path | None) -> Any:
    """What ``toprace-pi calibrate NAME`` walks for a circuit ``name`` (its LEDs, space by space)."""
    from toprace_pi.games.topspeed.table.board import calibration_target as target

    return target(name, out)
