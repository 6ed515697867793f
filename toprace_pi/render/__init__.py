"""Pictures every game draws the same way: SVG written by hand (:mod:`.svg`), the pieces standing on a
board (:mod:`.pieces`: the one drawing of a car or figure, which a browser's script mimics), and a game
told in pictures with a page that plays them back (:mod:`.playback`), and a terminal's colours (:mod:`.ansi`).
Knows no game: each game's ``render/svg.py`` and ``render/terminal.py`` draw its own board with these."""
