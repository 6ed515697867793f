"""QR codes of the seats' links: drawn in the terminal for whoever starts the table, and as
SVG for the spectator board while a joining step is open (segno: pure Python, no images)."""

from __future__ import annotations

import io

import segno


def qr_svg(url: str) -> str:
    """The code as standalone SVG, black on white with its quiet zone, scaled by the page (a viewBox, no
    size): a page parses it as SVG only with its namespace."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", xmldecl=False, svgns=True, nl=False, scale=4, dark="#000",
                                    light="#fff", omitsize=True, svgclass="qr", lineclass=None)
    return out.getvalue().decode("utf-8")


def qr_text(url: str) -> str:
    """The code in block characters for a terminal (two rows of modules per line)."""
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()
