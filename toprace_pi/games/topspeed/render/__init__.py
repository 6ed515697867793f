"""TOP SPEED drawn: the cars' colours (shared by the LEDs, the terminal and the keyboard), the
circuit in the terminal and as SVG (:mod:`.svg`)."""
