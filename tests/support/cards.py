"""The standard deck's speed cards the rulebook's examples play, by number, each named by what it shows."""

RED_6 = 1  # Red 6 / Yellow 4 / Black 2 / Blue 1
BLACK_6 = 3  # Black 6 / Purple 4 / Green 2 / Yellow 1
PURPLE_6_JOKER = 7  # Purple 6 / Yellow 4 / White 2 / Blue 1
YELLOW_6 = 13  # Yellow 6 / Red 4 / Black 2
BLACK_6_YELLOW = 14  # Black 6 / Yellow 4 / Purple 2
PURPLE_6 = 15  # Purple 6 / Black 4 / Green 2
BLUE_6 = 17  # Blue 6 / Green 4 / Red 2
YELLOW_10 = 21  # Yellow 10 / Purple 2 / White 1
PURPLE_10_JOKER = 23  # Purple 10 / Blue 2 / White 1
BLACK_5_JOKER = 28  # Black 5 / Blue 3 / White 3 / Purple 1
BLUE_5 = 31  # Blue 5 / Yellow 4 / Purple 3 / Red 2
PURPLE_5 = 35  # Purple 5 / Blue 4 / Yellow 3 / Green 2
BLUE_3 = 37  # Blue 3 / Red 2 / Black 1
BLUE_RED = 46  # Sprint/Breakdown Blue-Red
