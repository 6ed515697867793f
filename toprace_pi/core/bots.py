"""Finding a game's bot by name: each game keeps its own kinds, this only looks one up."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from toprace_pi.core.game import GameState
from toprace_pi.errors import TopRaceError

B = TypeVar("B")


#: The kind of the search bot (:mod:`toprace_pi.core.search`), the one that takes a strength.
SEARCH = "search"


def make_bot(kinds: Mapping[str, Callable[..., B]], kind: str, seed: int, strength: str | None = None) -> B:
    """The bot ``kinds`` calls ``kind``, seeded (the search bot of ``strength``, by default
    normal); a :class:`ValueError` naming the kinds for any other name."""
    if kind not in kinds:
        raise ValueError(f"unknown bot {kind!r} (one of {', '.join(kinds)})")
    if kind == SEARCH and strength is not None:
        return kinds[kind](seed, strength)
    return kinds[kind](seed)


def shown_to(bot: object, game: GameState, seat: int) -> Any:
    """What ``bot`` decides on for ``seat``: the game as the seat sees it (``seen_by``) for a
    bot that searches it, the seat's view as plain values (``view``) for any other."""
    return game.seen_by(seat) if getattr(bot, "SEES_GAME", False) else game.view(seat)


def seat_kinds(bots: str | Sequence[str], players: int, kinds: Sequence[str], title: str) -> list[str]:
    """One bot kind per seat of ``title``'s game: ``bots`` names one of ``kinds`` for every seat, or one per
    seat (a sequence, or names joined by commas); a :class:`TopRaceError` naming what is wrong otherwise."""
    chosen = bots.split(",") if isinstance(bots, str) else list(bots)
    if len(chosen) == 1:
        chosen *= players
    unknown = sorted(set(chosen) - set(kinds))
    if unknown:
        raise TopRaceError(f"no {title} bot called {', '.join(unknown)} (the bots: {', '.join(kinds)})")
    if len(chosen) != players:
        raise TopRaceError(f"{len(chosen)} bots for {players} players: name one kind, or one for each seat")
    return chosen
