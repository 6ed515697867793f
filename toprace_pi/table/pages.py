"""What a game brings to the table's web pages (its side's ``page()``): the board as a picture, the
pieces on it, the standings, a seat's secrets in words and what a seat may do from its page.

It sits with the table's other game-facing protocols (:mod:`.side`), below the web layer that
uses it, so that a game's page module needs nothing of the web server.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, Protocol

from toprace_pi.core.game import seat_actions
from toprace_pi.render.pieces import Piece


@dataclass(frozen=True)
class Standings:
    """The table of players under the board: a header and a row per seat (its colour first)."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, tuple[str, ...]], ...]

    def to_dict(self) -> dict[str, Any]:
        return {"columns": list(self.columns), "rows": [{"colour": c, "cells": list(cells)} for c, cells in self.rows]}


class GamePage(Protocol):
    """What a game brings to the web pages (its ``side.page()``)."""

    def board(self, game: Any) -> str:
        """The board without pieces, as standalone SVG (fetched by each page when it changes)."""

    def board_state(self, game: Any) -> Hashable:
        """What of the game the board shows (a bonus paid): the board is drawn again when it changes."""

    def pieces(self, game: Any) -> list[Piece]:
        """Where every piece stands now, in the board's drawing units (public state only)."""

    def colours(self, game: Any) -> list[str]:
        """Each seat's colour (its car's, its suit's), as CSS."""

    def standings(self, game: Any) -> Standings:
        """Money, places, laps: what everyone at the table may see of each player."""

    def news(self, event: Any, game: Any) -> str | None:
        """The sentence the pages show for an event, if any: what the table says aloud, and what
        everyone at the table sees happen (a card laid); never a secret."""

    def secrets(self, game: Any, view: dict[str, Any]) -> list[str]:
        """A seat's own secrets (its ``view(seat)``), in words, for its page only; ``game`` names what
        they refer to (a card's moves)."""

    def prompt(self, game: Any, said: str) -> str:
        """What the table waits for, in the pages' words: a page is played by tapping, so no button or
        reader of the table is named (``said``: the table's own prompt, for moments it words alike)."""

    def options(self, game: Any, seat: int) -> list[Any]:
        """What ``seat`` may do now from its page (none when the table must enter it, such as an auction held aloud)."""

    def words(self, game: Any, action: Any) -> str:
        """An option as the page's button says it."""

    def spot(self, game: Any, action: Any) -> tuple[str, str] | None:
        """For an option picked on the board rather than by its words: the space it takes a car to and
        the one the car stands on (or waits beside) now, as :meth:`board`'s picture names them
        (``data-id``; the finish is ``"finish"``). ``None`` for the others."""


class PageBase:
    """The base of a game's page: the answers of a game whose board never changes, whose seats may do
    from their pages whatever is theirs to do, and whose options are all said in words."""

    def board_state(self, game: Any) -> Hashable:
        return ()

    def options(self, game: Any, seat: int) -> list[Any]:
        return seat_actions(game, seat)

    def spot(self, game: Any, action: Any) -> tuple[str, str] | None:
        return None
