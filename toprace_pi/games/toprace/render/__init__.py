"""Pictures of a track and the cars on it: an unrolled text drawing for terminals
(:mod:`.terminal`) and the board's real shape as SVG (:mod:`.svg`), in the colours
of :mod:`.palette`, which the table's LEDs share (so importing it brings no drawing)."""
