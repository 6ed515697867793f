"""Playing whole games with bots: the driver behind ``toprace-pi simulate`` and the demo."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from toprace_pi.core.bots import seat_kinds as bots_by_seat
from toprace_pi.games.toprace.bots import BOT_KINDS, Bot, make_bot
from toprace_pi.games.toprace.data import DEFAULT_DECK
from toprace_pi.games.toprace.rules.actions import Action
from toprace_pi.games.toprace.rules.cards import Deck
from toprace_pi.games.toprace.rules.game import Settings, TopRace
from toprace_pi.games.toprace.rules.track import Track
from toprace_pi.games.toprace.rules.variants import new_game

DEFAULT_NAMES = ("Anna", "Ben", "Carla", "David", "Eva", "Felix")


def player_names(count: int) -> tuple[str, ...]:
    if not 2 <= count <= len(DEFAULT_NAMES):
        raise ValueError(f"Top Race is for 2 to 6 players, not {count}")
    return DEFAULT_NAMES[:count]


def seat_kinds(bots: str | Sequence[str], players: int) -> list[str]:
    """One Top Race bot kind per seat (see :func:`toprace_pi.core.bots.seat_kinds`); ``"mixed"``
    seats greedy and random bots in turn."""
    if bots == "mixed":
        return [("greedy", "random")[s % 2] for s in range(players)]
    return bots_by_seat(bots, players, BOT_KINDS, "Top Race")


def bots_for(kinds: Sequence[str], seed: int, strength: str | None = None) -> list[Bot]:
    """One bot per seat, each with its own seed derived from ``seed`` (``strength``: the search bots')."""
    return [make_bot(kind, seed * 100 + seat, strength) for seat, kind in enumerate(kinds)]


def play(
    game: TopRace,
    bots: Sequence[Bot],
    seed: int,
    *,
    on_action: Callable[[TopRace, Action], None] | None = None,
) -> TopRace:
    """Play ``game`` to its end: chance deals from ``seed``, each seat by its bot."""
    chance = random.Random(seed)
    while not game.is_over:
        if game.decision.chance:
            action: Action = game.chance(chance)
        else:
            seat = game.seat
            action = bots[seat].choose(game.seen_by(seat))
        game.apply(action)
        if on_action is not None:
            on_action(game, action)
    return game


def simulate(
    track: Track,
    deck: Deck,
    *,
    players: int = 4,
    races: int = 1,
    seed: int = 0,
    bots: str | Sequence[str] = "greedy",
    strength: str | None = None,
    variant: str = "base",
    deck_name: str = DEFAULT_DECK,
    on_action: Callable[[TopRace, Action], None] | None = None,
) -> TopRace:
    """A whole bot game with default names; ``bots`` is one kind for every seat, one per seat
    (joined by commas) or ``"mixed"`` (greedy and random seats alternating). ``deck_name`` is what
    ``deck`` was loaded by, for the settings (a saved game names its deck)."""
    names = player_names(players)
    kinds = seat_kinds(bots, players)
    settings = Settings(names, races=races, first_opener=seed % players, track=track.slug, deck=deck_name,
                        variant=variant)
    return play(new_game(settings, track, deck), bots_for(kinds, seed, strength), seed, on_action=on_action)
