"""``toprace-pi replay`` of a TOP SPEED journal: the race played back step by step, each event told
in the table's own sentences and the circuit drawn at the start, after each round and at the end.
The journal holds the shuffles' outcomes (the table's own file, its owner's only); the playback
tells what the table told and draws from a spectator's view, so no deck's order is shown."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from toprace_pi.games.topspeed.render.terminal import render_board, scoreboard
from toprace_pi.games.topspeed.rules import TopSpeed
from toprace_pi.games.topspeed.rules import events as ev
from toprace_pi.games.topspeed.table.side import TopSpeedTable
from toprace_pi.table.ansi import ColourMode
from toprace_pi.table.journal import applied_steps, load


def replay_journal(path: Path, *, pause: float = 0.4, colour: ColourMode | bool = True, narrate: bool = True,
                   out: Callable[[str], None] = print, warn: Callable[[str], None] | None = None) -> TopSpeed:
    """Play back every confirmed step of the journal at ``path`` and return the race as it stands."""
    loaded = load(path)
    for warning in loaded.warnings:
        (warn or out)(warning)
    game: TopSpeed = loaded.game
    side, told, steps = TopSpeedTable(), 0, 0
    if narrate:
        _draw(game, colour, out)
    for _ in applied_steps(game, loaded, path):
        steps += 1
        news, told = game.events[told:], len(game.events)
        if not narrate:
            continue
        for event in news:
            out(side.announcement(event, game.names) or event.text(game.names))
        if any(isinstance(e, (ev.RoundStarted, ev.RaceEnded)) for e in news):
            _draw(game, colour, out)
            time.sleep(pause)
    if narrate:
        out(f"{path}: {steps} steps" + ("; the race is over" if game.is_over else "; the race goes on"))
    return game


def _draw(game: TopSpeed, colour: ColourMode | bool, out: Callable[[str], None]) -> None:
    view = game.view(None)
    out(render_board(view, game.names, game.circuit.spaces, colour=colour) + "\n".join(scoreboard(view, game.names)))
