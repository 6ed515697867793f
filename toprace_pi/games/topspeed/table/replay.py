"""``toprace-pi replay`` of a TOP SPEED journal (:func:`~toprace_pi.table.replay.replay_journal`): each
event told in the table's own sentences and the circuit drawn at the start, after each round and at the end.

The journal holds the shuffles' outcomes (the table's own file, its owner's only); the playback
tells what the table told and draws from a spectator's view, so no deck's order is shown."""

from __future__ import annotations

from collections.abc import Sequence

from toprace_pi.games.topspeed.render.svg import caption, picture
from toprace_pi.games.topspeed.render.terminal import render_board, scoreboard
from toprace_pi.games.topspeed.rules import Action, TopSpeed
from toprace_pi.games.topspeed.rules import events as ev
from toprace_pi.games.topspeed.table.words import announcement
from toprace_pi.render.ansi import ColourMode

#: The events after which the playback draws the circuit.
DRAWN_AFTER = (ev.RoundStarted, ev.RaceEnded)


class TopSpeedReplay:
    """TOP SPEED's words and drawings for a playback."""

    ending = ("the race is over", "the race goes on")

    def __init__(self, *, colour: ColourMode | bool = True) -> None:
        self.colour = colour

    def title(self, game: TopSpeed) -> str:
        return f"TOP SPEED: {game.circuit.name}"

    def said(self, game: TopSpeed, step: Action | None, news: Sequence[ev.Event]) -> list[str]:
        """Each step's events; the start shows the circuit only."""
        return [] if step is None else [announcement(event, game.names) for event in news]

    def board(self, game: TopSpeed, step: Action | None, news: Sequence[ev.Event]) -> str | None:
        if step is not None and not any(isinstance(event, DRAWN_AFTER) for event in news):
            return None
        view = game.view(None)
        return render_board(view, game.names, game.circuit.spaces, colour=self.colour) + "\n".join(
            scoreboard(view, game.names))

    def picture(self, game: TopSpeed, news: Sequence[ev.Event]) -> tuple[str, list[str]]:
        seen = game.seen_by(None)
        lines = caption(seen, [announcement(event, game.names) for event in news])
        return picture(seen, lines), lines
