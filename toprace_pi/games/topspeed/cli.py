"""TOP SPEED's part of the shared commands (a :class:`~toprace_pi.core.registry.GameCommandLine`): its
options of ``simulate`` and ``demo`` (players, laps, race type, advanced rules, bots), the race they play,
its report and its journals' playback. The command line (:mod:`toprace_pi.cli`) imports this module only
for a TOP SPEED command."""

from __future__ import annotations

import argparse
import functools
import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from toprace_pi.arguments import bots_option, players, positive
from toprace_pi.core.bots import SEARCH
from toprace_pi.errors import TopRaceError
from toprace_pi.games.topspeed.bots import BOT_KINDS
from toprace_pi.games.topspeed.report import json_report, text_report  # noqa: F401  (its report)
from toprace_pi.games.topspeed.rules import TopSpeed
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


def simulate(args: argparse.Namespace) -> tuple[TopSpeed, dict[str, object]]:
    return simulate_race(players=args.players, laps=_laps(args), variant=variant(args), seed=args.seed,
                         bots=args.bots, strength=args.strength, blank=args.blank), {"bots": args.bots}


def demo(args: argparse.Namespace) -> Callable[..., Any]:
    """TOP SPEED's demo with its options bound. Imported here: it needs gpiozero."""
    run_demo = importlib.import_module("toprace_pi.games.topspeed.table.demo").run_demo
    return functools.partial(run_demo, players=args.players, laps=_laps(args), variant=variant(args),
                             blank=args.blank, seed=args.seed, bots=args.bots, strength=args.strength)


def play_back(journal: Path, **how: Any) -> TopSpeed:
    """A journal played back step by step (the board draws at its own width)."""
    from toprace_pi.games.topspeed.table.replay import TopSpeedReplay
    from toprace_pi.table.replay import replay_journal

    return replay_journal(journal, TopSpeedReplay(colour=how.pop("colour")), **how)


def calibration_target(name: str, out: Path | None) -> Any:
    """What ``toprace-pi calibrate NAME`` walks for a circuit ``name`` (its LEDs, space by space)."""
    from toprace_pi.games.topspeed.table.board import calibration_target as target

    return target(name, out)
