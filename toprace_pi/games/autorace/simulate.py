"""Whole AUTORACE series played by bots: the driver behind ``toprace-pi simulate --game autorace``,
the bots' measurements and the property tests."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from toprace_pi.core.bots import seat_kinds as bots_by_seat
from toprace_pi.core.bots import shown_to
from toprace_pi.errors import TopRaceError
from toprace_pi.games.autorace.bots import BOT_KINDS, Bot, make_bot
from toprace_pi.games.autorace.data import DEFAULT_BOARD, load_board
from toprace_pi.games.autorace.rules import Action, Autorace, Board, Choose, Settings

NAMES = ("Anna", "Ben", "Carla", "David", "Eva", "Felix", "Greta", "Hugo")


def player_names(count: int, board: Board) -> tuple[str, ...]:
    """``count`` default names; a :class:`TopRaceError` unless the board has a card set for each."""
    if not 2 <= count <= len(board.suits):
        raise TopRaceError(f"AUTORACE on {board.name} is for 2 to {len(board.suits)} players, not {count}")
    return tuple(NAMES[n] if n < len(NAMES) else f"Player {n + 1}" for n in range(count))


def seat_kinds(bots: str | Sequence[str], players: int) -> list[str]:
    """One AUTORACE bot kind per seat (see :func:`toprace_pi.core.bots.seat_kinds`)."""
    return bots_by_seat(bots, players, BOT_KINDS, "AUTORACE")


def play(game: Autorace, bots: Sequence[Bot], seed: int = 0,
         on_action: Callable[[Autorace, Action], None] | None = None) -> Autorace:
    """Play ``game`` to its end. At a sealed choice every seat's view is taken before any seat
    lays its card, so no bot sees even who has chosen before it: the seats truly choose at once."""
    chance = random.Random(seed)
    while not game.is_over:
        decision = game.decision
        if decision.chance:
            actions: list[Action] = [game.chance_outcomes().sample(chance)]
        else:
            views = {seat: shown_to(bots[seat], game, seat) for seat in decision.seats}
            actions = [Choose(seat, bots[seat].choose(view)) for seat, view in views.items()]
        for action in actions:
            game.apply(action)
            if on_action is not None:
                on_action(game, action)
    return game


def simulate(players: int = 4, games: int = 1, boost: int = 0, seed: int = 0,
             bots: str | Sequence[str] = "sensible", board: str = DEFAULT_BOARD, strength: str | None = None,
             on_action: Callable[[Autorace, Action], None] | None = None) -> Autorace:
    """A whole series of bots with default names, each seat's bot seeded from ``seed`` (``strength``:
    the search bots')."""
    loaded = load_board(board)
    settings = Settings(player_names(players, loaded), games=games, boost=boost, board=board)
    seated = [make_bot(kind, seed * 100 + seat, strength) for seat, kind in enumerate(seat_kinds(bots, players))]
    return play(Autorace(settings, loaded), seated, seed, on_action)
