"""Finding a game's bot by name: each game keeps its own kinds, this only looks one up."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

B = TypeVar("B")


def make_bot(kinds: Mapping[str, Callable[[int], B]], kind: str, seed: int) -> B:
    """The bot ``kinds`` calls ``kind``, seeded; a :class:`ValueError` naming the kinds for any other name."""
    if kind not in kinds:
        raise ValueError(f"unknown bot {kind!r} (one of {', '.join(kinds)})")
    return kinds[kind](seed)
