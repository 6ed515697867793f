"""SVG written by hand, small and deterministic: one element at a time with its attributes escaped and
its numbers rounded, a standalone document around them, and the colours a picture needs.

Every game's drawing goes through these, so a picture of any game escapes the same way and two
pictures of the same state are the same bytes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from xml.sax.saxutils import escape

from toprace_pi.core.colour import RGB, is_light

#: Ink for a label on a light colour and on a dark one.
DARK_INK, LIGHT_INK = "#000000", "#ffffff"
#: The height of a caption's line, and its text's size.
CAPTION_LINE, CAPTION_FONT = 20.0, 15.0


def el(tag: str, attrs: Mapping[str, object], text: str | None = None) -> str:
    """One element with escaped attributes and text; floats are rounded to keep
    the output small and deterministic."""
    parts = "".join(f' {k}="{attr(v)}"' for k, v in attrs.items())
    return f"<{tag}{parts}/>" if text is None else f"<{tag}{parts}>{escape(text)}</{tag}>"


def attr(value: object) -> str:
    """An attribute's value as text, escaped for double quotes."""
    return escape(num(value) if isinstance(value, float) else str(value), {'"': "&quot;"})


def num(value: float) -> str:
    """A number with at most two decimals and no trailing zeros (``-0`` is ``0``)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def points(polygon: Sequence[tuple[float, float]]) -> str:
    """An SVG ``points`` list of corners already in the picture's units."""
    return " ".join(f"{num(x)},{num(y)}" for x, y in polygon)


def css(rgb: RGB) -> str:
    """``rgb(r,g,b)``: a colour as the LED strip holds it, for a fill or a stroke."""
    return "rgb({},{},{})".format(*rgb)


def hex_colour(rgb: RGB) -> str:
    """``#rrggbb``: the form a piece's colour takes, the same in SVG and in a browser's script."""
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def ink(rgb: RGB) -> str:
    """The colour a label on ``rgb`` is written in: dark on a light colour, white on a dark one."""
    return DARK_INK if is_light(rgb) else LIGHT_INK


def document(view_box: tuple[float, float, float, float], title: str, body: Sequence[str], *,
             defs: str = "", background: str | None = None) -> str:
    """A standalone SVG picture: ``view_box`` (left, top, width, height) is also its size in pixels,
    so it opens at a readable size and scales to any screen; ``title`` names it; ``background`` fills
    the whole of it under the ``body``."""
    left, top, width, height = view_box
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{num(left)} {num(top)} {num(width)} {num(height)}" '
            f'width="{num(width)}" height="{num(height)}" font-family="sans-serif">')
    ground = [] if background is None else [el("rect", {"class": "background", "x": left, "y": top, "width": width,
                                                        "height": height, "fill": background})]
    parts = [head, f"<title>{escape(title)}</title>", *([defs] if defs else []), *ground, *body, "</svg>"]
    return "\n".join(parts) + "\n"


def caption_height(lines: int) -> float:
    """The room a caption of ``lines`` takes under a picture (none without a caption)."""
    return CAPTION_LINE * lines + 12 if lines else 0.0


def caption_lines(x: float, bottom: float, caption: Sequence[str]) -> list[str]:
    """A picture's caption, its last line's baseline at ``bottom``, the first line in bold."""
    first = bottom - CAPTION_LINE * (len(caption) - 1)
    return [
        el("text", {"class": "caption", "x": x, "y": first + n * CAPTION_LINE, "font-size": CAPTION_FONT,
                    "font-weight": "bold" if n == 0 else "normal"}, line)
        for n, line in enumerate(caption)
    ]
