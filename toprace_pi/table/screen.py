"""Where the demo shows itself.

On a terminal the screen is redrawn in place: the board, the scoreboard, the
latest news and the panel of the human asked (their money, cars, hand or
question), so a game reads like a table seen from above rather than a scroll.
Piped to a file or another program, the news scrolls as plain lines and the
board and scoreboard are printed at the start of every turn.
"""

from __future__ import annotations

import shutil
import textwrap
from collections import deque
from collections.abc import Callable, Sequence

HOME, CLEAR_LINE, CLEAR_BELOW = "\x1b[H", "\x1b[K", "\x1b[J"
#: News lines kept for a redraw; as many as fit are shown.
KEPT_NEWS = 200
#: Rows a live screen keeps for the news however tall the board is.
MIN_NEWS_ROWS = 4


class DemoScreen:
    """The demo's output, through ``write`` (text without a final newline is never
    passed). ``live``: redraw in place, the terminal being ``size()`` large."""

    def __init__(self, write: Callable[[str], None], *, live: bool,
                 size: Callable[[], tuple[int, int]] = lambda: _terminal_size()) -> None:
        self.write = write
        self.live = live
        self.size = size
        self.recent: deque[str] = deque(maxlen=KEPT_NEWS)
        self._panel: list[str] = []
        self._shown = ""

    @property
    def width(self) -> int:
        return self.size()[0]

    def news(self, line: str) -> None:
        """Something happened: kept for the next redraw, or printed at once when piped."""
        self.recent.append(line)
        if not self.live:
            self.write(line + "\n")

    def scroll(self) -> None:
        """From now on news is printed as it comes (the last words of a game stay on the screen)."""
        self.live = False

    def show(self, board: str, scores: Sequence[str], panel: Sequence[str], *, new_turn: bool) -> None:
        """The table now. Piped, the board goes out at a new turn and the panel when it changes."""
        if self.live:
            self._redraw(board.rstrip("\n").split("\n"), list(scores), list(panel))
            return
        if new_turn:
            self.write(board + "\n".join(scores) + "\n")
        if list(panel) != self._panel and panel:
            self.write("\n".join(panel) + "\n")
        self._panel = list(panel)

    def _redraw(self, board: list[str], scores: list[str], panel: list[str]) -> None:
        width, height = self.size()
        panel = [row for line in panel for row in _wrapped(line, width)]
        rows = max(height - len(board) - len(scores) - len(panel) - 2, MIN_NEWS_ROWS)
        news = list(self.recent)[-rows:]
        lines = [*board, *scores, "", *news, *([""] * (rows - len(news))), *panel]
        lines = lines[-(height - 1):]  # a short terminal loses the top of the board, never the panel
        text = HOME + "".join(_cut(line, width) + CLEAR_LINE + "\n" for line in lines) + CLEAR_BELOW
        if text != self._shown:  # a key that changed nothing redraws nothing
            self.write(text)
            self._shown = text


def _terminal_size() -> tuple[int, int]:
    columns, lines = shutil.get_terminal_size()
    return columns, lines


def _wrapped(line: str, width: int) -> list[str]:
    """A line of the panel over as many lines as it needs (the rest of it indented): the human needs all of it
    (the keys' help is longer than a narrow terminal). A line in colour is left to be cut."""
    if "\x1b" in line or len(line) <= width:
        return [line]
    return textwrap.wrap(line, width, subsequent_indent="  ")


def _cut(line: str, width: int) -> str:
    """A line no wider than the terminal, so nothing wraps and scrolls the redraw away.
    Colour codes take no room; only plain lines are cut."""
    return line if "\x1b" in line or len(line) <= width else line[: width - 1] + "…"
