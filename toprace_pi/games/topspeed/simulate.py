"""Whole TOP SPEED races played by bots: the driver behind ``toprace-pi simulate --game topspeed``,
the bots' measurements and the property tests. Chance (the grid, each shuffle) is seeded here."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from toprace_pi.core.bots import seat_kinds as kinds_of
from toprace_pi.core.bots import shown_to
from toprace_pi.errors import TopRaceError
from toprace_pi.games.topspeed.bots import BOT_KINDS, Bot, make_bot
from toprace_pi.games.topspeed.data import load_circuit, load_deck
from toprace_pi.games.topspeed.rules import Action, TopSpeed
from toprace_pi.games.topspeed.rules.game import MAX_PLAYERS, MIN_PLAYERS
from toprace_pi.games.topspeed.settings import TableGame

NAMES = ("Anna", "Ben", "Carla", "David", "Emil", "Fay", "Gus", "Hana")


def player_names(count: int) -> tuple[str, ...]:
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise TopRaceError(f"TOP SPEED is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {count}")
    return NAMES[:count]


def seat_kinds(bots: str | Sequence[str], players: int) -> list[str]:
    return kinds_of(bots, players, BOT_KINDS, "TOP SPEED")


def play(game: TopSpeed, bots: Sequence[Bot], seed: int = 0,
         on_action: Callable[[TopSpeed, Action], None] | None = None) -> TopSpeed:
    """Play ``game`` to its end: chance from ``seed``, each seat's bot from its own view."""
    chance = random.Random(seed)
    while not game.is_over:
        if game.decision.chance:
            outcomes = game.chance_outcomes()
            action: Action = outcomes[chance.randrange(outcomes.total)]
        else:
            seat = game.turn
            assert seat is not None
            action = bots[seat].choose(shown_to(bots[seat], game, seat))
        game.apply(action)
        if on_action is not None:
            on_action(game, action)
    return game


def simulate(players: int = 4, laps: int = 10, variant: str = "normal", seed: int = 0,
             bots: str | Sequence[str] = "sensible", strength: str | None = None, blank: str = "") -> TopSpeed:
    """One race of bots with default names, each seat's bot seeded from ``seed`` (``strength``: the
    search bots'; ``blank``: the card the blank card plays as, if any)."""
    setup = TableGame(players=player_names(players), variant=variant, laps=laps, blank=blank)
    settings = setup.settings()
    game = TopSpeed(settings, load_circuit(settings.circuit), load_deck(settings.deck))
    seated = [make_bot(kind, seed * 100 + seat, strength) for seat, kind in enumerate(seat_kinds(bots, players))]
    return play(game, seated, seed)
