"""A game told in pictures: one SVG per step with a caption and the LEDs as the
strip showed them, and an ``index.html`` that plays the pictures back.

The page is one file with its script and style inline and the pictures beside
it, so it works opened straight from the disk (``file://``), with no server and
nothing fetched from elsewhere.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType

from toprace_pi.games.toprace.render.palette import RGB
from toprace_pi.games.toprace.render.svg import track_svg
from toprace_pi.games.toprace.report import cards_this_race
from toprace_pi.games.toprace.rules.board import Board
from toprace_pi.games.toprace.rules.events import Event
from toprace_pi.games.toprace.rules.game import Game
from toprace_pi.games.toprace.rules.track import Track

#: Sentences shown under a picture; the rest are summed up in one line.
MAX_EVENT_LINES = 6
INDEX = "index.html"


def caption(game: Game, events: Sequence[Event]) -> list[str]:
    """The lines under a picture: race, turn and the last card played; who acts
    now and what they must do; then what happened since the previous picture."""
    cards = cards_this_race(game.events)
    head = [f"Race {game.race} of {game.settings.races}"]
    if cards:
        head += [f"turn {len(cards)}", f"{game.names[cards[-1].seat]} played {cards[-1].card}"]
    lines = [" · ".join(head), _who_acts(game)]
    said = [e.text(game.names) for e in events]
    if len(said) > MAX_EVENT_LINES:
        said[MAX_EVENT_LINES - 1:] = [f"... and {len(said) - MAX_EVENT_LINES + 1} more"]
    return lines + said


def _who_acts(game: Game) -> str:
    if game.is_over:
        return "The game is over"
    if game.to_move is None or game.to_move < 0:
        return f"Next: {game.phase.value}"
    return f"{game.names[game.to_move]} to {game.phase.value}"


class FrameWriter:
    """Writes ``frame-0001.svg``, ``frame-0002.svg``, ... into ``folder`` and, when
    closed, the ``index.html`` that plays them back."""

    def __init__(self, folder: Path, track: Track) -> None:
        self.folder = folder
        self.track = track
        self.frames: list[tuple[str, list[str]]] = []
        self._told = 0
        folder.mkdir(parents=True, exist_ok=True)

    def __enter__(self) -> FrameWriter:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def add(self, game: Game, lights: Mapping[int, RGB] | None = None,
            events: Sequence[Event] | None = None) -> Path:
        """A picture of ``game`` now. ``events`` are what happened since the previous
        picture; by default the game's events added since then (all of them when the
        game was rebuilt shorter, as an undo does)."""
        if events is None:
            told = self._told if self._told <= len(game.events) else 0
            events = game.events[told:]
        self._told = len(game.events)
        return self.write(game.board, lights=lights, caption=caption(game, events))

    def write(self, board: Board | None, *, lights: Mapping[int, RGB] | None = None,
              caption: Sequence[str] = ()) -> Path:
        """A picture of ``board`` with ``lights`` (space index to LED colour) and ``caption``."""
        name = f"frame-{len(self.frames) + 1:04d}.svg"
        path = self.folder / name
        path.write_text(track_svg(self.track, board, lights=lights, caption=caption), "utf-8")
        self.frames.append((name, list(caption)))
        return path

    def close(self) -> Path:
        """Write the page that plays the frames back; returns its path."""
        path = self.folder / INDEX
        path.write_text(player_page(self.track.name, self.frames), "utf-8")
        return path


def player_page(title: str, frames: Sequence[tuple[str, Sequence[str]]]) -> str:
    """The playback page: a picture, its caption, a slider, play/pause and step
    buttons (the arrow keys and space work too), and a list of every frame."""
    data = json.dumps([{"file": f, "caption": list(c)} for f, c in frames]).replace("</", "<\\/")
    items = "\n".join(
        f'<li><a href="{html.escape(f)}" data-frame="{n}">{html.escape(c[0] if c else f)}</a></li>'
        for n, (f, c) in enumerate(frames)
    )
    return _PAGE.format(title=html.escape(title), count=len(frames), last=max(len(frames) - 1, 0), data=data,
                        items=items)


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}: the game step by step</title>
<style>
body {{ font-family: sans-serif; margin: 1em; background: #f7f7f2; }}
#picture {{ max-width: 100%; max-height: 75vh; border: 1px solid #ccc; background: #fff; }}
#controls {{ display: flex; gap: .5em; align-items: center; margin: .5em 0; }}
#slider {{ flex: 1; }}
#caption {{ white-space: pre-line; min-height: 7em; }}
#caption b {{ display: block; }}
</style>
</head>
<body>
<h1>{title}</h1>
<div id="controls">
<button id="first" title="first frame">|&#x25C0;</button>
<button id="back" title="one step back (left arrow)">&#x25C0;</button>
<button id="play" title="play or pause (space)">Play</button>
<button id="forward" title="one step on (right arrow)">&#x25B6;</button>
<button id="last" title="last frame">&#x25B6;|</button>
<input id="slider" type="range" min="0" max="{last}" value="0" step="1">
<span id="where"></span>
</div>
<img id="picture" alt="the track at this step">
<div id="caption"></div>
<details><summary>All {count} frames</summary><ol id="frames">
{items}
</ol></details>
<script type="application/json" id="frame-data">{data}</script>
<script>
"use strict";
const frames = JSON.parse(document.getElementById("frame-data").textContent);
const slider = document.getElementById("slider"), play = document.getElementById("play");
let at = 0, timer = null;
function show(n) {{
  if (!frames.length) return;
  at = Math.min(Math.max(n, 0), frames.length - 1);
  const frame = frames[at], caption = document.getElementById("caption");
  document.getElementById("picture").src = frame.file;
  caption.textContent = "";
  frame.caption.forEach((line, i) => {{
    const el = document.createElement(i ? "div" : "b");
    el.textContent = line;
    caption.appendChild(el);
  }});
  slider.value = at;
  document.getElementById("where").textContent = (at + 1) + " / " + frames.length;
}}
function pause() {{ clearInterval(timer); timer = null; play.textContent = "Play"; }}
function toggle() {{
  if (timer) return pause();
  if (at >= frames.length - 1) show(0);
  play.textContent = "Pause";
  timer = setInterval(() => {{ if (at >= frames.length - 1) pause(); else show(at + 1); }}, 700);
}}
play.onclick = toggle;
document.getElementById("first").onclick = () => {{ pause(); show(0); }};
document.getElementById("back").onclick = () => {{ pause(); show(at - 1); }};
document.getElementById("forward").onclick = () => {{ pause(); show(at + 1); }};
document.getElementById("last").onclick = () => {{ pause(); show(frames.length - 1); }};
slider.oninput = () => {{ pause(); show(Number(slider.value)); }};
document.getElementById("frames").onclick = (e) => {{
  const n = e.target.dataset.frame;
  if (n !== undefined) {{ e.preventDefault(); pause(); show(Number(n)); window.scrollTo(0, 0); }}
}};
document.onkeydown = (e) => {{
  if (e.target === slider && e.key !== " ") return;  // the slider steps itself: one step, not two
  if (e.key === "ArrowLeft") {{ pause(); show(at - 1); }}
  else if (e.key === "ArrowRight") {{ pause(); show(at + 1); }}
  else if (e.key === " ") {{ e.preventDefault(); toggle(); }}
}};
show(0);
</script>
</body>
</html>
"""
