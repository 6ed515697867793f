"""Finding a game's bot by name: each game keeps its own kinds, this only looks one up."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from toprace_pi.errors import TopRaceError

B = TypeVar("B")


def make_bot(kinds: Mapping[str, Callable[[int], B]], kind: str, seed: int) -> B:
    """The bot ``kinds`` calls ``kind``, seeded; a :class:`ValueError` naming the kinds for any other name."""
    if kind not in kinds:
        raise ValueError(f"unknown bot {kind!r} (one of {', '.join(kinds)})")
    return kinds[kind](seed)


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
