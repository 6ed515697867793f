"""AUTORACE's rules engine: pure, no I/O (the board comes from :mod:`toprace_pi.games.autorace.data`)."""

from toprace_pi.games.autorace.rules.actions import Action, Choose, Reveal, TakeBack, card_word, parse_action
from toprace_pi.games.autorace.rules.board import BANNER, Board, Suit
from toprace_pi.games.autorace.rules.game import Autorace, Phase, Settings

__all__ = ["BANNER", "Action", "Autorace", "Board", "Choose", "Phase", "Reveal", "Settings", "Suit", "TakeBack",
           "card_word", "parse_action"]
