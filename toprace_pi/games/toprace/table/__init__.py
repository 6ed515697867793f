"""Top Race's side of the table: how each decision is entered, what is said, what the LEDs show."""
