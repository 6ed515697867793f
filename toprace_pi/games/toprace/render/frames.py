"""A Top Race game told in pictures: one SVG per step with a caption and the LEDs as the
strip showed them, and the shared page that plays the pictures back
(:mod:`toprace_pi.render.playback`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from toprace_pi.games.toprace.render.palette import RGB
from toprace_pi.games.toprace.render.svg import track_svg
from toprace_pi.games.toprace.report import cards_this_race
from toprace_pi.games.toprace.rules.events import Event
from toprace_pi.games.toprace.rules.game import TopRace
from toprace_pi.games.toprace.rules.track import Track
from toprace_pi.render.playback import INDEX, MAX_EVENT_LINES, Playback, told

__all__ = ["INDEX", "MAX_EVENT_LINES", "FrameWriter", "caption"]


def caption(game: TopRace, events: Sequence[Event]) -> list[str]:
    """The lines under a picture: race, turn and the last card played; who acts
    now and what they must do; then what happened since the previous picture."""
    cards = cards_this_race(game.events)
    head = [f"Race {game.race} of {game.settings.races}"]
    if cards:
        head += [f"turn {len(cards)}", f"{game.names[cards[-1].seat]} played {cards[-1].card}"]
    return told([" · ".join(head), _who_acts(game)], [e.text(game.names) for e in events])


def _who_acts(game: TopRace) -> str:
    if game.is_over:
        return "The game is over"
    seats = game.decision.seats
    if not seats:  # chance deals or draws
        return f"Next: {game.phase.value}"
    return f"{game.names[seats[0]]} to {game.phase.value}"


class FrameWriter(Playback):
    """Pictures of a game on ``track``, written into ``folder`` (see :class:`Playback`)."""

    def __init__(self, folder: Path, track: Track) -> None:
        super().__init__(folder, track.name)
        self.track = track

    def add(self, game: TopRace, lights: Mapping[int, RGB] | None = None,
            events: Sequence[Event] | None = None) -> Path:
        """A picture of ``game`` now, with ``lights`` (space index to LED colour). ``events`` are what
        happened since the previous picture; by default the game's events added since then."""
        news = self.news(game.events)
        lines = caption(game, news if events is None else events)
        return self.write(track_svg(self.track, game.board, lights=lights, caption=lines), lines)
