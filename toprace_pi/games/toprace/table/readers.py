"""Top Race's card readers: under the discard pile (speed cards, pit stop cards) and
for the car tokens (without one, tokens are laid on the discard reader too)."""

DISCARD_READER = "discard"
CARS_READER = "cars"
#: Each reader of the demo's table, and whether it lies under a pile (it sees the top card).
READER_ROLES = {DISCARD_READER: True, CARS_READER: False}
