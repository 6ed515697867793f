"""Top Race's part of the shared commands (a :class:`~toprace_pi.core.registry.GameCommandLine`): its
options of ``simulate`` and ``demo`` (track, deck, rules, players, races, bots), the game they play, its
report and its journals' playback. The command line (:mod:`toprace_pi.cli`) imports this module only for
a Top Race command; the game's own commands are in :mod:`~toprace_pi.games.toprace.commands`."""

from __future__ import annotations

import argparse
import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from toprace_pi.arguments import bots_option, players, positive
from toprace_pi.core.bots import SEARCH
from toprace_pi.errors import TopRaceError
from toprace_pi.games.toprace.bots import BOT_KINDS
from toprace_pi.games.toprace.data import DEFAULT_DECK, DEFAULT_TRACK, deck_names, load_deck, load_track, track_names
from toprace_pi.games.toprace.report import json_report, text_report  # noqa: F401  (its report)
from toprace_pi.games.toprace.rules.game import TopRace
from toprace_pi.games.toprace.rules.variants import variant_names
from toprace_pi.games.toprace.simulate import simulate as simulate_game


def add_options(parser: argparse.ArgumentParser, command: str) -> None:
    """Top Race's options of ``command`` (``simulate`` or ``demo``)."""
    info = TopRace.info
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


def simulate(args: argparse.Namespace) -> tuple[TopRace, dict[str, object]]:
    track, deck = load_track(args.track), load_deck(args.deck)
    game = simulate_game(track, deck, players=args.players, races=args.races, seed=args.seed, bots=args.bots,
                         strength=args.strength, variant=variant(args), deck_name=deck_name(args.deck))
    return game, {"bots": args.bots, "variant": variant(args)}


def demo(args: argparse.Namespace) -> Callable[..., Any]:
    """Top Race's demo with its options of ``args`` bound; the table's own (delay, colour, journal,
    humans, keys, screen) are the caller's to give. Imported here: it needs gpiozero."""
    from toprace_pi.games.toprace.table.demo import run_demo

    return functools.partial(run_demo, track_name=args.track, players=args.players, races=args.races,
                             seed=args.seed, bots=args.bots, strength=args.strength, variant=variant(args),
                             deck=deck_name(args.deck),
                             svg_dir=args.svg_dir)


def play_back(journal: Path, **how: Any) -> TopRace:
    """A journal played back step by step, as wide as the terminal lets the board be."""
    from toprace_pi.games.toprace.render.terminal import board_width
    from toprace_pi.games.toprace.table.replay import TopRaceReplay
    from toprace_pi.table.replay import replay_journal

    return replay_journal(journal, TopRaceReplay(colour=how.pop("colour"), width=board_width()), **how)


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
