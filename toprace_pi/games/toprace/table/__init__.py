"""Top Race's side of the table: what its tags stand for, how they are enrolled, and its board under the LEDs."""
