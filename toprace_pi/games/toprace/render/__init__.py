"""Pictures of a track and the cars on it: an unrolled text drawing for terminals
(:mod:`.terminal`) and the board's real shape as SVG (:mod:`.svg`)."""

from toprace_pi.games.toprace.render.svg import track_svg
from toprace_pi.games.toprace.render.terminal import render_track

__all__ = ["render_track", "track_svg"]
