"""A game told in pictures: one SVG per step, each with its caption, and an ``index.html`` that plays
them back, the same page for every game.

The page is one file with its script and style inline and the pictures beside
it, so it works opened straight from the disk (``file://``), with no server and
nothing fetched from elsewhere.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import TypeVar

#: Sentences shown under a picture; the rest are summed up in one line.
MAX_EVENT_LINES = 6
INDEX = "index.html"

E = TypeVar("E")


def told(head: Sequence[str], said: Sequence[str]) -> list[str]:
    """A caption: the ``head`` lines (what the game stands at), then what happened since the previous
    picture, at most :data:`MAX_EVENT_LINES` sentences, the rest counted in the last line."""
    said = list(said)
    if len(said) > MAX_EVENT_LINES:
        said[MAX_EVENT_LINES - 1:] = [f"... and {len(said) - MAX_EVENT_LINES + 1} more"]
    return [*head, *said]


class Playback:
    """Writes ``frame-0001.svg``, ``frame-0002.svg``, ... into ``folder`` and, when
    closed, the ``index.html`` titled ``title`` that plays them back."""

    def __init__(self, folder: Path, title: str) -> None:
        self.folder = folder
        self.title = title
        self.frames: list[tuple[str, list[str]]] = []
        self._told = 0
        folder.mkdir(parents=True, exist_ok=True)

    def __enter__(self) -> Playback:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def news(self, events: Sequence[E]) -> Sequence[E]:
        """Of a game's ``events``, those added since the previous call: what the next picture tells
        (all of them when the game was rebuilt shorter, as an undo does)."""
        since = self._told if self._told <= len(events) else 0
        self._told = len(events)
        return events[since:]

    def write(self, svg: str, caption: Sequence[str]) -> Path:
        """The next picture, ``svg``, told by ``caption`` on the page."""
        name = f"frame-{len(self.frames) + 1:04d}.svg"
        path = self.folder / name
        path.write_text(svg, "utf-8")
        self.frames.append((name, list(caption)))
        return path

    def close(self) -> Path:
        """Write the page that plays the frames back; returns its path."""
        path = self.folder / INDEX
        path.write_text(player_page(self.title, self.frames), "utf-8")
        return path

    def summary(self) -> str:
        """What was written, in a line for the one who asked for the pictures."""
        return f"pictures of {len(self.frames)} steps: {self.folder / INDEX}"


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
<img id="picture" alt="the board at this step">
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
