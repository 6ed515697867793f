"""Dash's part of the shared commands: ``toprace-pi simulate --game dash`` plays a game of bots
that roll when they are behind, and prints its report."""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from toprace_pi.arguments import players
from toprace_pi.errors import TopRaceError

from .rules import Dash, Move, Settings

NAMES = ("Anna", "Ben", "Carla", "David")


def add_options(parser: argparse.ArgumentParser, command: str) -> None:
    parser.add_argument("--players", type=players(2, 4), default=2, help="2 to 4 (default 2)")


def simulate(args: argparse.Namespace) -> tuple[Dash, dict[str, object]]:
    game, rng = Dash(Settings(NAMES[:args.players])), random.Random(args.seed)
    while not game.is_over:
        if game.rolling:
            game.apply(game.chance_outcomes().sample(rng))
        else:
            behind = game.cells[game.turn] < max(game.cells)
            game.apply(Move("roll" if behind else "walk"))
    return game, {}


def text_report(game: Dash, extra: dict[str, object]) -> str:
    winner = game.names[game.winners()[0]]
    return f"Dash, seed {extra['seed']}: {winner} wins in {len(game.log)} steps"


def json_report(game: Dash, extra: dict[str, object]) -> dict[str, Any]:
    return {**extra, "winners": [game.names[seat] for seat in game.winners()], "cells": game.cells}


def demo(args: argparse.Namespace) -> Callable[..., Any]:
    raise TopRaceError("Dash has no demo yet: its table side comes next")


def play_back(journal: Path, **how: Any) -> Dash:
    raise TopRaceError("Dash's journals cannot be played back yet")


def calibration_target(name: str, out: Path | None) -> Any:
    raise TopRaceError("Dash has no board to calibrate")
