"""AUTORACE drawn: the track in the terminal, the board as SVG (:mod:`.svg`) and the colours every output
shares."""
