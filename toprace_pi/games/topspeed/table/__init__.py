"""TOP SPEED's side of the table: virtual decks the table holds and shuffles, the player to move
drawing, passing or pitting with the buttons, the circuit's LEDs, and the demo."""
