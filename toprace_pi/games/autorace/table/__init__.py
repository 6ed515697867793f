"""AUTORACE's side of the table: the sealed choice laid face down on the seats' reader, its tags, its
board under the LEDs, its keys, its demo and its replay."""
