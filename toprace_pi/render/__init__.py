"""Pictures every game draws the same way: SVG written by hand (:mod:`.svg`), the pieces standing on a
board (:mod:`.pieces`: the one drawing of a car or figure, which a browser's script mimics), and a game
told in pictures with a page that plays them back (:mod:`.playback`). Knows no game: each game's
``render/svg.py`` draws its own board with these."""
