"""AUTORACE's part of the command line: its options of ``simulate`` and ``demo`` (players, the
series' games and boost, bots, board) and what those commands and ``replay`` do with them. The
command line (:mod:`toprace_pi.cli`) imports this module only for an AUTORACE command."""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from toprace_pi.arguments import amount, bots_option, players, positive
from toprace_pi.core.bots import SEARCH
from toprace_pi.games.autorace.bots import BOT_KINDS
from toprace_pi.games.autorace.data import DEFAULT_BOARD, board_names, load_board
from toprace_pi.games.autorace.report import json_report, text_report
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


def simulate(args: argparse.Namespace) -> int:
    game = simulate_series(players=args.players, games=args.games, boost=args.boost, seed=args.seed,
                           bots=args.bots, board=args.board, strength=args.strength)
    print_report(game, "json" if args.json else "text", {"seed": args.seed, "bots": args.bots})
    return 0


def print_report(game: Any, kind: str | None, extra: dict[str, Any]) -> None:
    """The series' one report, as text or JSON (``None``: none)."""
    if kind is not None:
        print(json.dumps(json_report(game, extra), indent=2) if kind == "json" else text_report(game, extra))


def replay(args: argparse.Namespace, colour: Any) -> int:
    """A journal played back step by step (each event's sentence, the board after each reveal; with
    ``--svg-dir`` a picture of every step), or (``--report``) its series' report."""
    from toprace_pi.games.autorace.render.terminal import DEFAULT_WIDTH, MIN_WIDTH
    from toprace_pi.games.autorace.table.replay import replay_journal, revealed

    def warn(text: str) -> None:
        print(text, file=sys.stderr)

    width = max(MIN_WIDTH, shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns)
    game = replay_journal(args.journal, pause=0.0 if args.fast or args.report else 0.4, colour=colour, width=width,
                          svg_dir=args.svg_dir, narrate=args.report is None, out=warn if args.report else print,
                          warn=warn)
    print_report(revealed(game), args.report, {"journal": str(args.journal)})  # no card still sealed
    return 0


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
