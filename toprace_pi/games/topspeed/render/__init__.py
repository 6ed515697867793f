"""TOP SPEED drawn: the cars' colours (shared by the LEDs, the terminal and the keyboard) and the
circuit in the terminal."""
