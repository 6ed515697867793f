"""``toprace-pi replay``: a game's journal played back step by step, the same way for every game.

The loop lives here once; a game brings only its words and its drawings (a :class:`GameReplay`): what a
step says, whether the step shows the board and how, and the step as a picture. The journal is the
table's own file and may hold secrets (sealed cards, shuffles); a game's replay tells only what the
table told.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from toprace_pi.render.playback import Playback
from toprace_pi.table.journal import applied_steps, load


class GameReplay(Protocol):
    """A game's part in playing its journal back."""

    #: What the last line says of the game: ``(when it is over, when it goes on)``.
    ending: tuple[str, str]

    def title(self, game: Any) -> str:
        """The title of the page that plays the pictures back."""

    def said(self, game: Any, step: Any, news: Sequence[Any]) -> list[str]:
        """What ``step`` (``None``: the game's start) brought, its events ``news``, in the table's sentences."""

    def board(self, game: Any, step: Any, news: Sequence[Any]) -> str | None:
        """The board drawn in the terminal after ``step`` (``None``: before the first), if the step shows it."""

    def picture(self, game: Any, news: Sequence[Any]) -> tuple[str, list[str]]:
        """The game now as a picture (SVG, a spectator's view) and its caption, telling ``news``."""


def replay_journal(path: Path, replay: GameReplay, *, pause: float = 0.4, svg_dir: Path | None = None,
                   narrate: bool = True, out: Callable[[str], None] = print,
                   warn: Callable[[str], None] | None = None) -> Any:
    """Play back every confirmed step of the journal at ``path`` and return the game as it stands. With
    ``narrate`` each step is told and the board drawn whenever the game's replay shows it, ``pause``
    seconds apart; with ``svg_dir`` the game before the first step and after each is also a picture
    there, with an ``index.html`` to play them. Journal warnings go to ``warn`` (default ``out``)."""
    loaded = load(path)
    for warning in loaded.warnings:
        (warn or out)(warning)
    game = loaded.game
    pictures = None if svg_dir is None else Playback(svg_dir, replay.title(game))

    def show(step: Any, news: Sequence[Any]) -> None:
        if pictures is not None:
            pictures.write(*replay.picture(game, news))
        if not narrate:
            return
        for line in replay.said(game, step, news):
            out(line)
        if (board := replay.board(game, step, news)) is not None:
            out(board)
            time.sleep(pause)

    steps, told = 0, len(game.events)
    show(None, list(game.events))
    for step in applied_steps(game, loaded, path):
        steps += 1
        show(step, game.events[told:])
        told = len(game.events)
    if pictures is not None:
        pictures.close()
        out(pictures.summary())
    if narrate:
        out(f"{path}: {steps} steps; " + replay.ending[0 if game.is_over else 1])
    return game
