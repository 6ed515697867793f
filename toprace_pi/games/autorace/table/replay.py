"""``toprace-pi replay`` of an AUTORACE journal (:func:`~toprace_pi.table.replay.replay_journal`): each
step told in the events' own sentences and the board drawn at the start and after every reveal.

The journal holds every sealed card (it is the table's own file, readable by its owner only),
but the playback tells only what the table told: a card laid is "Anna has chosen" until the
round's reveal, and the board (in the terminal and in the pictures) is drawn from a spectator's view.
"""

from __future__ import annotations

from collections.abc import Sequence

from toprace_pi.games.autorace.render.svg import caption, picture
from toprace_pi.games.autorace.render.terminal import DEFAULT_WIDTH, render_board, scoreboard
from toprace_pi.games.autorace.rules import Action, Autorace, Reveal
from toprace_pi.games.autorace.rules.events import Event
from toprace_pi.render.ansi import ColourMode


class AutoraceReplay:
    """AUTORACE's words and drawings for a playback, the board ``width`` columns wide."""

    ending = ("the series is over", "the game goes on")

    def __init__(self, *, colour: ColourMode | bool = True, width: int = DEFAULT_WIDTH) -> None:
        self.colour = colour
        self.width = width

    def title(self, game: Autorace) -> str:
        return game.board.name

    def said(self, game: Autorace, step: Action | None, news: Sequence[Event]) -> list[str]:
        return [event.text(game.names) for event in news]

    def board(self, game: Autorace, step: Action | None, news: Sequence[Event]) -> str | None:
        """The board and the standings at the start and after a reveal (a sealed card changes nothing to see)."""
        if step is not None and not isinstance(step, Reveal):
            return None
        view = game.view(None)
        return (render_board(game.board, view, game.names, colour=self.colour, width=self.width)
                + "\n".join(scoreboard(game.board, view, game.names)))

    def picture(self, game: Autorace, news: Sequence[Event]) -> tuple[str, list[str]]:
        seen = game.seen_by(None)
        lines = caption(seen, [event.text(seen.names) for event in news])
        return picture(seen, lines), lines


def revealed(game: Autorace) -> Autorace:
    """The game as far as its cards are revealed: a journal cut mid-round holds sealed cards that
    nobody at the table has seen, and a report (which lists the log) must not show them."""
    last = max((n for n, action in enumerate(game.log) if isinstance(action, Reveal)), default=-1)
    return game if last == len(game.log) - 1 else game.replayed(game.log[:last + 1])
