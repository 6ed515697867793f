"""``toprace-pi replay`` of an AUTORACE journal: the series played back step by step, each step
told in the events' own sentences and the board drawn after every reveal; with ``svg_dir`` every
step is also a picture, with the page that plays them back.

The journal holds every sealed card (it is the table's own file, readable by its owner only),
but the playback tells only what the table told: a card laid is "Anna has chosen" until the
round's reveal, and the board (in the terminal and in the pictures) is drawn from a spectator's view.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

from toprace_pi.games.autorace.render.svg import caption, picture
from toprace_pi.games.autorace.render.terminal import DEFAULT_WIDTH, render_board, scoreboard
from toprace_pi.games.autorace.rules import Autorace, Reveal
from toprace_pi.games.autorace.rules.events import Event
from toprace_pi.render.playback import Playback
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
) -> Autorace:
    """Play back every confirmed step of the journal at ``path`` and return the game as it stands.
    With ``narrate`` each step is told, and the board and the standings are drawn at the start and
    after each reveal, ``pause`` seconds apart; with ``svg_dir`` every step is also a picture there,
    with an ``index.html`` to play them. Journal warnings go to ``warn`` (default ``out``)."""
    steps = 0
    pictures: Playback | None = None
    for game, revealed, news in _steps(path, warn or out):
        steps += 1
        if svg_dir is not None:
            pictures = pictures or Playback(svg_dir, game.board.name)
            _draw(pictures, game.seen_by(None), news)
        if not narrate:
            continue
        for event in news:
            out(event.text(game.names))
        if revealed:
            view = game.view(None)
            out(render_board(game.board, view, game.names, colour=colour, width=width)
                + "\n".join(scoreboard(game.board, view, game.names)))
            time.sleep(pause)
    if pictures is not None:
        pictures.close()
        out(pictures.summary())
    if narrate:
        out(f"{path}: {steps - 1} steps" + ("; the series is over" if game.is_over else "; the game goes on"))
    return game


def _draw(pictures: Playback, seen: Autorace, news: list[Event]) -> None:
    """A picture of the game as a spectator sees it, captioned with what the step brought."""
    lines = caption(seen, [event.text(seen.names) for event in news])
    pictures.write(picture(seen, lines), lines)


def revealed(game: Autorace) -> Autorace:
    """The game as far as its cards are revealed: a journal cut mid-round holds sealed cards that
    nobody at the table has seen, and a report (which lists the log) must not show them."""
    last = max((n for n, action in enumerate(game.log) if isinstance(action, Reveal)), default=-1)
    return game if last == len(game.log) - 1 else game.replayed(game.log[:last + 1])


def _steps(path: Path, warn: Callable[[str], None]) -> Iterator[tuple[Autorace, bool, list[Event]]]:
    """The game after each step of the journal, whether the step was a reveal (or, first, the game
    before any step) and the events the step brought."""
    loaded = load(path)
    for warning in loaded.warnings:
        warn(warning)
    game: Autorace = loaded.game
    told = len(game.events)
    yield game, True, list(game.events)
    for step in applied_steps(game, loaded, path):
        yield game, isinstance(step, Reveal), game.events[told:]
        told = len(game.events)
