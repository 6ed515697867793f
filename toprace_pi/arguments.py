"""The command line's argument checks, shared by ``toprace-pi`` and each game's own options
(``toprace_pi/games/NAME/cli.py``), which may not import the command line itself (it sits above
the games): a bad value is one line naming what was expected, and exit status 2."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable
from typing import NoReturn

USAGE_ERROR = 2


class UsageParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line, not a usage dump."""

    def error(self, message: str) -> NoReturn:
        self.exit(USAGE_ERROR, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _whole(text: str) -> int:
    return int(text) if text.isdigit() else -1


def players(low: int, high: int) -> Callable[[str], int]:
    """A check of ``--players``: a whole number from ``low`` to ``high``."""

    def check(text: str) -> int:
        value = _whole(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"players must be a whole number from {low} to {high}, not {text!r}")
        return value

    return check


def positive(text: str) -> int:
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number from 1, not {text!r}")
    return value


def amount(text: str) -> int:
    """An amount of money: a whole number from 0."""
    value = _whole(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected an amount of money, a whole number from 0, not {text!r}")
    return value


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 60:
        raise argparse.ArgumentTypeError(f"expected seconds from 0 to 60, not {text!r}")
    return value


def seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"the seed must be a whole number, not {text!r}") from None


def bots_option(parser: argparse.ArgumentParser, known: Iterable[str], default: str) -> None:
    """``--bots`` (one kind for every seat or one per seat) and ``--strength`` (the search bots')."""
    from toprace_pi.core.search import DEFAULT_STRENGTH, STRENGTHS  # lazily: not for the help, which needs no bots

    names = tuple(known)
    parser.add_argument("--bots", type=kinds(names), default=default, metavar="KIND[,KIND...]",
                        help=f"the bots: one kind for every seat or one per seat, joined by commas "
                             f"({', '.join(names)}; default {default})")
    budgets = ", ".join(f"{s.name} ({s.playouts} playouts a decision)" for s in STRENGTHS.values())
    parser.add_argument("--strength", choices=list(STRENGTHS), default=DEFAULT_STRENGTH,
                        help=f"how hard the search bots think: {budgets}; default {DEFAULT_STRENGTH}. The "
                             "playouts are counted, never timed: a slower or busier machine takes longer over "
                             "a decision, and makes the same one")


def kinds(known: Iterable[str]) -> Callable[[str], str]:
    """A check of ``--bots`` that takes one kind for every seat or one per seat, joined by commas
    (``sensible,random,random``): each must be one of ``known``."""
    names = tuple(known)

    def check(text: str) -> str:
        unknown = [kind for kind in text.split(",") if kind not in names]
        if unknown:
            raise argparse.ArgumentTypeError(f"invalid choice: {unknown[0]!r} (choose from {', '.join(names)}, "
                                             "or one for each seat joined by commas)")
        return text

    return check


def listen_address(text: str) -> tuple[str, int]:
    """``--web HOST:PORT`` (``:PORT`` for every address), read as ``[web] listen`` is."""
    from toprace_pi.table.config import web_config

    problems: list[str] = []
    web = web_config({"listen": text}, problems)
    if web is None:
        raise argparse.ArgumentTypeError(f"HOST:PORT with a port from 1 to 65535 (127.0.0.1:8080), not {text!r}")
    return web.host, web.port
