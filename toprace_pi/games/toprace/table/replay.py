"""``toprace-pi replay`` of a Top Race journal (:func:`~toprace_pi.table.replay.replay_journal`): each step
told in the report's sentences and the track drawn after it with the strip's lights as the table showed them."""

from __future__ import annotations

from collections.abc import Sequence

from toprace_pi.games.toprace.render.frames import caption
from toprace_pi.games.toprace.render.palette import RGB
from toprace_pi.games.toprace.render.svg import track_svg
from toprace_pi.games.toprace.render.terminal import DEFAULT_WIDTH, render_track
from toprace_pi.games.toprace.report import event_lines
from toprace_pi.games.toprace.rules import Action, TopRace
from toprace_pi.games.toprace.rules.events import Event
from toprace_pi.games.toprace.table.board import load_profile
from toprace_pi.games.toprace.table.side import TopRaceTable
from toprace_pi.games.toprace.table.view import TableView, lights_by_space
from toprace_pi.render.ansi import ColourMode


class TopRaceReplay:
    """Top Race's words and drawings for a playback, the track ``width`` columns wide."""

    ending = ("the game is over", "the game goes on")

    def __init__(self, *, colour: ColourMode | bool = True, width: int = DEFAULT_WIDTH) -> None:
        self.colour = colour
        self.width = width
        self.side = TopRaceTable()
        self.view: TableView | None = None  # the track's, once the game is known

    def title(self, game: TopRace) -> str:
        return game.track.name

    def said(self, game: TopRace, step: Action | None, news: Sequence[Event]) -> list[str]:
        return event_lines(game, news)

    def board(self, game: TopRace, step: Action | None, news: Sequence[Event]) -> str:
        return render_track(game.track, colour=self.colour, width=self.width, lights=self.lights(game),
                            cars=game.cars, board=game.board)

    def picture(self, game: TopRace, news: Sequence[Event]) -> tuple[str, list[str]]:
        lines = caption(game, news)
        return track_svg(game.track, game.board, lights=self.lights(game), caption=lines), lines

    def lights(self, game: TopRace) -> dict[int, RGB]:
        """The strip's lights by space, as the table showed them at this step."""
        self.view = self.view or self.side.view(load_profile(game.track.slug, game.track))
        return lights_by_space(self.view.profile, game.track, self.view.frame(game, self.side.choice(game), 0.0))
