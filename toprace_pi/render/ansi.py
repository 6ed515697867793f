"""Terminal colour: which kind a terminal takes, and the escape codes for it, for every
game's terminal board (Top Race's cars, AUTORACE's suits).

Three modes, picked as well-behaved command-line tools pick them
(:func:`colour_mode`): none, the xterm 256-colour palette, or 24-bit colour.
When nothing says what the terminal can do, 256 colours is the default rather
than the 16 basic ones: every terminal emulator of the last fifteen years takes
them, the Linux console maps them to its own 16, and the 16 basic colours are
set by the user's theme, so they could not show a game's colours faithfully.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from enum import StrEnum
from typing import TextIO

from toprace_pi.core.colour import RGB

__all__ = ["ColourMode", "colour_mode", "mode_of", "paint", "xterm_256"]

RESET = "\x1b[0m"
#: The channel levels of the xterm 6x6x6 colour cube (colours 16-231).
CUBE = (0, 95, 135, 175, 215, 255)
#: The grey ramp (colours 232-255) runs 8, 18, ... 238.
GREY_FIRST, GREY_STEP, GREYS = 8, 10, 24


class ColourMode(StrEnum):
    """How much colour a terminal shows."""

    NONE = "none"
    XTERM_256 = "256"
    TRUECOLOR = "truecolor"


def colour_mode(stream: TextIO, environ: Mapping[str, str] | None = None) -> ColourMode:
    """The mode for output to ``stream``, read from ``environ`` (the process's by default).

    A non-empty ``NO_COLOR`` turns colour off (https://no-color.org), as does a
    stream that is not a terminal (a pipe or a file should get plain text) and
    ``TERM=dumb``. ``COLORTERM=truecolor`` or ``24bit`` (or a ``*-direct``
    terminfo name) asks for 24-bit colour; anything else gets 256 colours.
    """
    env = os.environ if environ is None else environ
    term = env.get("TERM", "")
    if env.get("NO_COLOR") or not stream.isatty() or term == "dumb":
        return ColourMode.NONE
    if env.get("COLORTERM", "").lower() in ("truecolor", "24bit") or term.endswith("-direct"):
        return ColourMode.TRUECOLOR
    return ColourMode.XTERM_256


def mode_of(colour: ColourMode | bool) -> ColourMode:
    """A drawing's ``colour`` argument as a mode: ``True`` stands for 24-bit colour, ``False`` for none."""
    if isinstance(colour, ColourMode):
        return colour
    return ColourMode.TRUECOLOR if colour else ColourMode.NONE


def xterm_256(rgb: RGB) -> int:
    """The xterm palette colour nearest ``rgb``: the nearest of the colour cube
    and of the grey ramp, whichever is closer. Colours 0-15 are left out on
    purpose: their shades depend on the user's theme."""
    r, g, b = (min(range(len(CUBE)), key=lambda n: abs(CUBE[n] - c)) for c in rgb)
    step = min(max(round((sum(rgb) / 3 - GREY_FIRST) / GREY_STEP), 0), GREYS - 1)
    grey = GREY_FIRST + GREY_STEP * step
    if _distance(rgb, (grey, grey, grey)) < _distance(rgb, (CUBE[r], CUBE[g], CUBE[b])):
        return 232 + step
    return 16 + 36 * r + 6 * g + b


def _distance(a: RGB, b: RGB) -> int:
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=True))


def paint(text: str, mode: ColourMode, ink: RGB, paper: RGB | None = None) -> str:
    """``text`` in bold ``ink`` on ``paper`` (the terminal's background when
    ``None``); unchanged in mode none."""
    if mode is ColourMode.NONE:
        return text
    codes = ["1", _sgr(38, ink, mode)]
    if paper is not None:
        codes.append(_sgr(48, paper, mode))
    return f"\x1b[{';'.join(codes)}m{text}{RESET}"


def _sgr(layer: int, rgb: RGB, mode: ColourMode) -> str:
    """The select-graphic-rendition code for a foreground (38) or background (48) colour."""
    if mode is ColourMode.TRUECOLOR:
        r, g, b = rgb
        return f"{layer};2;{r};{g};{b}"
    return f"{layer};5;{xterm_256(rgb)}"
