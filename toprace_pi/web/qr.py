"""QR codes of the seats' links: drawn in the terminal for whoever starts the table, and as
SVG for the spectator board while a joining step is open (segno: pure Python, no images)."""

from __future__ import annotations

import io

import segno


def qr_svg(url: str) -> str:
    """The code as inline SVG, black on white, sized by the page."""
    code = segno.make(url, error="m")
    return code.svg_inline(scale=4, dark="#000", light="#fff")


def qr_text(url: str) -> str:
    """The code in block characters for a terminal (two rows of modules per line)."""
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()
