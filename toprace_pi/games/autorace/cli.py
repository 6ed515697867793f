"""AUTORACE's part of the shared commands (a :class:`~toprace_pi.core.registry.GameCommandLine`): its
options of ``simulate`` and ``demo`` (players, the series' games and boost, bots, board), the series they
play, its report and its journals' playback. The command line (:mod:`toprace_pi.cli`) imports this module
only for an AUTORACE command."""

from __future__ import annotations

import argparse
import functools
import importlib
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from toprace_pi.arguments import amount, bots_option, players, positive
from toprace_pi.core.bots import SEARCH
from toprace_pi.games.autorace.bots import BOT_KINDS
from toprace_pi.games.autorace.data import DEFAULT_BOARD, board_names, load_board
from toprace_pi.games.autorace.report import json_report, text_report  # noqa: F401  (its report)
from toprace_pi.games.autorace.rules import Autorace
from toprace_pi.games.autorace.simulate import simulate as simulate_series

DEFAULT_BOTS = "sensible"


def add_options(parser: argparse.ArgumentParser, command: str) -> None:
    """AUTORACE's options of ``command`` (``simulate`` or ``demo``). The players go up to the card
    sets of the shipped board (a board file is checked when it is read)."""
    most = len(load_board(DEFAULT_BOARD).suits)
    parser.add_argument("--players", type=players(2, most), default=4,
                        help=f"2 to {most}, one card set each (default 4)")
    parser.add_argument("--games", type=positive, default=1, help="games in the series (default 1)")
    parser.add_argument("--boost", type=amount, default=0, metavar="DOLLARS",
                        help="money each player receives at the start of each later game (default 0: the money "
                             "is carried over, and a player with none left drops out)")
    bots_option(parser, BOT_KINDS, SEARCH if command == "demo" else DEFAULT_BOTS)
    if command == "simulate":
        parser.add_argument("--board", default=DEFAULT_BOARD,
                            help=f"a shipped board ({', '.join(board_names())}) or a board file "
                                 f"(default {DEFAULT_BOARD})")


def simulate(args: argparse.Namespace) -> tuple[Autorace, dict[str, object]]:
    return simulate_series(players=args.players, games=args.games, boost=args.boost, seed=args.seed,
                           bots=args.bots, board=args.board, strength=args.strength), {"bots": args.bots}


def play_back(journal: Path, **how: Any) -> Autorace:
    """A journal played back step by step, as wide as the terminal; the series with no card still sealed."""
    from toprace_pi.games.autorace.render.terminal import DEFAULT_WIDTH, MIN_WIDTH
    from toprace_pi.games.autorace.table.replay import AutoraceReplay, revealed
    from toprace_pi.table.replay import replay_journal

    width = max(MIN_WIDTH, shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns)
    return revealed(replay_journal(journal, AutoraceReplay(colour=how.pop("colour"), width=width), **how))


def demo(args: argparse.Namespace) -> Callable[..., Any]:
    """AUTORACE's demo with its options of ``args`` bound; the table's own (delay, colour, journal,
    humans, keys, screen) are the caller's to give. Imported here: it needs gpiozero."""
    # By name: the table's side of AUTORACE comes in its own change, and this module type-checks without it.
    run_demo = importlib.import_module("toprace_pi.games.autorace.table.demo").run_demo
    return functools.partial(run_demo, players=args.players, games=args.games, boost=args.boost,
                             seed=args.seed, bots=args.bots, strength=args.strength)


def calibration_target(name: str, out: Path | None) -> Any:
    """What ``toprace-pi calibrate NAME`` walks for this game's board ``name`` (its LEDs, space by space)."""
    from toprace_pi.games.autorace.table.board import calibration_target as target

    return target(name, out)
