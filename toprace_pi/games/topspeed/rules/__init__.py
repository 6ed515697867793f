"""TOP SPEED's rules engine: pure, no I/O (the circuit and the deck come from
:mod:`toprace_pi.games.topspeed.data`)."""

from toprace_pi.games.topspeed.rules.actions import (
    Action,
    Draw,
    DrawCard,
    HiddenShuffle,
    Keep,
    Leave,
    Pass,
    PitStop,
    SeatAction,
    Shuffle,
    SitOut,
    StartOrder,
    UseKept,
    parse_action,
)
from toprace_pi.games.topspeed.rules.cards import DECK_SIZE, RACE_TYPES, Card, Deck, Kind, card_of
from toprace_pi.games.topspeed.rules.circuit import Circuit
from toprace_pi.games.topspeed.rules.game import RoundEnd, Settings, Stage, TopSpeed

__all__ = ["DECK_SIZE", "RACE_TYPES", "Action", "Card", "Circuit", "Deck", "Draw", "DrawCard", "HiddenShuffle",
           "Keep", "Kind", "Leave", "Pass", "PitStop", "RoundEnd", "SeatAction", "Settings", "Shuffle", "SitOut",
           "Stage", "StartOrder", "TopSpeed", "UseKept", "card_of", "parse_action"]
