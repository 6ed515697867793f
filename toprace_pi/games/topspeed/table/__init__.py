"""TOP SPEED's side of the table (the seats' card readers, the LEDs of the circuit): still to come."""
