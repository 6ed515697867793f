"""``toprace-pi replay``: a game journal played back step by step on the simulated
strip, told in the report's sentences, and optionally drawn as pictures with a
page that plays them back."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

from toprace_pi.core import registry
from toprace_pi.games.toprace.render.frames import FrameWriter
from toprace_pi.games.toprace.render.palette import RGB
from toprace_pi.games.toprace.render.terminal import DEFAULT_WIDTH, render_track
from toprace_pi.games.toprace.report import event_lines
from toprace_pi.games.toprace.rules import Game
from toprace_pi.games.toprace.rules.events import Event
from toprace_pi.games.toprace.table.board import load_profile
from toprace_pi.games.toprace.table.view import lights_by_space
from toprace_pi.table.ansi import ColourMode
from toprace_pi.table.journal import applied_steps, load


def replay_journal(
    path: Path,
    *,
    pause: float = 0.4,
    colour: ColourMode | bool = True,
    width: int = DEFAULT_WIDTH,
    svg_dir: Path | None = None,
    narrate: bool = True,
    out: Callable[[str], None] = print,
    warn: Callable[[str], None] | None = None,
) -> Game:
    """Play back every confirmed step of the journal at ``path``. With ``narrate``
    each step is told (what happened, in sentences) and the strip drawn as the
    table showed it; with ``svg_dir`` every step is also a picture there, with an
    ``index.html`` to play them. Journal warnings go to ``warn`` (default ``out``)."""
    writer: FrameWriter | None = None
    steps = -1  # the first picture is the game before any step
    for game, lights, news in _steps(path, warn or out):
        steps += 1
        if narrate:
            for line in event_lines(game, news):
                out(line)
            out(render_track(game.track, colour=colour, width=width, lights=lights, cars=game.cars, board=game.board))
            time.sleep(pause)
        if svg_dir is not None:
            writer = writer or FrameWriter(svg_dir, game.track)
            writer.add(game, lights, news)
    if writer is not None:
        writer.close()
        out(writer.summary())
    if narrate:
        out(f"{path}: {steps} steps" + ("; the game is over" if game.is_over else "; the game goes on"))
    return game


def _steps(path: Path, warn: Callable[[str], None]) -> Iterator[tuple[Game, dict[int, RGB], list[Event]]]:
    """The game after each step of the journal, with the strip's lights by space
    and the events the step brought; first the game before any step."""
    loaded = load(path)
    for warning in loaded.warnings:
        warn(warning)
    game = loaded.game
    track = game.track
    side = registry.get(type(game).info.name).table()
    view = side.view(load_profile(track.slug, track))

    def lights() -> dict[int, RGB]:
        return lights_by_space(view.profile, track, view.frame(game, side.choice(game), 0.0))

    told = len(game.events)
    yield game, lights(), list(game.events)
    for _ in applied_steps(game, loaded, path):
        yield game, lights(), game.events[told:]
        told = len(game.events)
