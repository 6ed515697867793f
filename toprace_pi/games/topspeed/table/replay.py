"""``toprace-pi replay`` of a TOP SPEED journal: the race played back step by step, each event told
in the table's own sentences and the circuit drawn at the start, after each round and at the end;
with ``svg_dir`` every step is also a picture, with the page that plays them back.
The journal holds the shuffles' outcomes (the table's own file, its owner's only); the playback
tells what the table told and draws from a spectator's view, so no deck's order is shown."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

from toprace_pi.games.topspeed.render.svg import caption, picture
from toprace_pi.games.topspeed.render.terminal import render_board, scoreboard
from toprace_pi.games.topspeed.rules import TopSpeed
from toprace_pi.games.topspeed.rules import events as ev
from toprace_pi.games.topspeed.table.side import TopSpeedTable
from toprace_pi.render.playback import Playback
from toprace_pi.table.ansi import ColourMode
from toprace_pi.table.journal import applied_steps, load


def replay_journal(path: Path, *, pause: float = 0.4, colour: ColourMode | bool = True, svg_dir: Path | None = None,
                   narrate: bool = True, out: Callable[[str], None] = print,
                   warn: Callable[[str], None] | None = None) -> TopSpeed:
    """Play back every confirmed step of the journal at ``path`` and return the race as it stands; with
    ``svg_dir`` the race before the first step and after each is also a picture there, with an ``index.html``."""
    loaded = load(path)
    for warning in loaded.warnings:
        (warn or out)(warning)
    game: TopSpeed = loaded.game
    side, told, steps = TopSpeedTable(), len(game.events), 0
    pictures = None if svg_dir is None else Playback(svg_dir, f"TOP SPEED: {game.circuit.name}")
    if pictures is not None:
        _picture(pictures, game, [_sentence(side, event, game.names) for event in game.events])
    if narrate:
        _draw(game, colour, out)
    for _ in applied_steps(game, loaded, path):
        steps += 1
        news, told = game.events[told:], len(game.events)
        said = [_sentence(side, event, game.names) for event in news]
        if pictures is not None:
            _picture(pictures, game, said)
        if not narrate:
            continue
        for line in said:
            out(line)
        if any(isinstance(e, (ev.RoundStarted, ev.RaceEnded)) for e in news):
            _draw(game, colour, out)
            time.sleep(pause)
    if pictures is not None:
        pictures.close()
        out(pictures.summary())
    if narrate:
        out(f"{path}: {steps} steps" + ("; the race is over" if game.is_over else "; the race goes on"))
    return game


def _sentence(side: TopSpeedTable, event: ev.Event, names: tuple[str, ...]) -> str:
    """An event as the table told it."""
    return side.announcement(event, names) or event.text(names)


def _picture(pictures: Playback, game: TopSpeed, said: Sequence[str]) -> None:
    """A picture of the race as a spectator sees it, captioned with what the step brought."""
    seen = game.seen_by(None)
    lines = caption(seen, said)
    pictures.write(picture(seen, lines), lines)


def _draw(game: TopSpeed, colour: ColourMode | bool, out: Callable[[str], None]) -> None:
    view = game.view(None)
    out(render_board(view, game.names, game.circuit.spaces, colour=colour) + "\n".join(scoreboard(view, game.names)))
