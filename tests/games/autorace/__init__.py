"""AUTORACE's tests: its rules text example by example, properties of random play, and its side of the
table (the sealed choice, the demo, the journal, the LEDs, the terminal board)."""
