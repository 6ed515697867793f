"""The pure rules engine of Top Race: no I/O, no hardware, no randomness of its own.

Start with :class:`TopRace`::

    game = TopRace(Settings(("Anna", "Ben")), track, deck)
    game.apply(game.deal(random.Random(7)))     # chance: the shuffled deal
    game.legal_actions()                         # [Bid(amount=10000), ...]
    game.apply(Bid(10_000))
"""

from toprace_pi.games.toprace.rules.actions import (
    Action,
    Bid,
    Breakdown,
    ChooseJoker,
    Deal,
    MoveCar,
    Pass,
    PlaceCar,
    PlayCard,
    ReturnCar,
    Sold,
    Sprint,
    TakeCar,
    parse_action,
)
from toprace_pi.games.toprace.rules.cards import Deck, MovementCard, SprintBreakdownCard
from toprace_pi.games.toprace.rules.cars import Car, CarSet, Joker
from toprace_pi.games.toprace.rules.game import Phase, Settings, TopRace
from toprace_pi.games.toprace.rules.track import FINISH, Track
from toprace_pi.games.toprace.rules.variants import new_game  # last: every variant's phases and notation, once for all

__all__ = [
    "Action", "Bid", "Breakdown", "Car", "CarSet", "ChooseJoker", "Deal", "Deck", "FINISH", "Joker",
    "TopRace", "MoveCar", "MovementCard", "Pass", "Phase", "PlaceCar", "PlayCard", "ReturnCar",
    "Settings", "Sold", "Sprint", "SprintBreakdownCard", "TakeCar", "Track", "new_game", "parse_action",
]
