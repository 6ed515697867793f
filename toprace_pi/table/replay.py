"""``toprace-pi replay``: a game journal played back step by step on the simulated strip."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from toprace_pi.data import load_track
from toprace_pi.hardware.profile import load_profile
from toprace_pi.render.ansi import ColourMode
from toprace_pi.render.svg import track_svg
from toprace_pi.render.terminal import DEFAULT_WIDTH, render_track
from toprace_pi.rules import Game
from toprace_pi.rules.variants import new_game
from toprace_pi.table.choices import choice_for
from toprace_pi.table.controller import announcement
from toprace_pi.table.journal import applied_steps, load
from toprace_pi.table.view import TableView, lights_by_space


def replay_journal(
    path: Path,
    *,
    pause: float = 0.4,
    colour: ColourMode | bool = True,
    width: int = DEFAULT_WIDTH,
    svg_dir: Path | None = None,
    out: Callable[[str], None] = print,
) -> Game:
    """Show every confirmed step of the journal at ``path``: what was done, what it
    led to, and the strip as the table showed it."""
    loaded = load(path)
    for warning in loaded.warnings:
        out(warning)
    settings = loaded.settings
    track = load_track(settings.track)
    game = new_game(settings, track, loaded.deck)
    view = TableView(load_profile(track.slug))
    if svg_dir is not None:
        svg_dir.mkdir(parents=True, exist_ok=True)
    told = len(game.events)
    for number, step in enumerate(applied_steps(game, loaded, path), 1):
        out(f"step {number}: {step}")
        for event in game.events[told:]:
            sentence = announcement(event, game.names) or event.text(game.names)
            out(f"  {sentence}")
        frame = view.frame(game, choice_for(game), 0.0)
        lights = lights_by_space(view.profile, track, frame)
        out(render_track(track, colour=colour, width=width, lights=lights, cars=game.cars))
        if svg_dir is not None:
            (svg_dir / f"step-{number:04d}.svg").write_text(track_svg(track, game.board), "utf-8")
        told = len(game.events)
        time.sleep(pause)
    out(f"{path}: {len(loaded.steps)} steps" + ("; the game is over" if game.is_over else "; the game goes on"))
    return game
