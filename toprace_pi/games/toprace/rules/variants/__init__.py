"""The variants of Top Race, found by name: each a small subclass of the base game.

``new_game(settings, track, deck)`` builds the game class that ``settings.variant``
names. Names: ``"base"``, ``"tips"`` (Variant A), ``"quick"``, ``"pitstop"`` (the
Pit Stop rule), ``"pitstop+tips"``, ``"stocks"`` (Variant B) and ``"pitstop+stocks"``.
A combination the rulebook advises against (Tips with Stocks) is refused with a
clear message.

Importing this package (as :mod:`toprace_pi.games.toprace.rules` does) imports every variant,
so each one's actions are known to :func:`~toprace_pi.games.toprace.rules.actions.parse_action`.
"""

from __future__ import annotations

from collections.abc import Sequence

from toprace_pi.errors import SettingsError
from toprace_pi.games.toprace.rules.actions import Action
from toprace_pi.games.toprace.rules.cards import Deck
from toprace_pi.games.toprace.rules.game import Settings, TopRace
from toprace_pi.games.toprace.rules.track import Track
from toprace_pi.games.toprace.rules.variants.pitstop import PitStopGame, PitStopTipsGame
from toprace_pi.games.toprace.rules.variants.pitstop_stocks import PitStopStocksGame
from toprace_pi.games.toprace.rules.variants.quick import QuickGame
from toprace_pi.games.toprace.rules.variants.stocks import StocksGame
from toprace_pi.games.toprace.rules.variants.tips import TipsGame

_CLASSES = (TopRace, TipsGame, QuickGame, PitStopGame, PitStopTipsGame, StocksGame, PitStopStocksGame)
#: The game class of each variant name (a class's ``VARIANT``).
VARIANTS: dict[str, type[TopRace]] = {cls.VARIANT: cls for cls in _CLASSES}


def variant_names() -> list[str]:
    return list(VARIANTS)


def game_class(settings: Settings) -> type[TopRace]:
    """The class that plays the variant ``settings.variant`` names."""
    variants = VARIANTS
    name = settings.variant
    if "+" in name and {"tips", "stocks"} <= set(name.split("+")):
        raise SettingsError("Tips and Stocks do not go together: the rulebook advises against combining them")
    if name not in variants:
        raise SettingsError(f"unknown variant {name!r} (one of {', '.join(variants)})")
    return variants[name]


def new_game(settings: Settings, track: Track, deck: Deck, **options: object) -> TopRace:
    """A game of the variant ``settings.variant`` names."""
    return game_class(settings)(settings, track, deck, **options)


def replay_game(settings: Settings, track: Track, deck: Deck, log: Sequence[Action | str]) -> TopRace:
    """:meth:`TopRace.replay` by the class ``settings.variant`` names."""
    return game_class(settings).replay(settings, track, deck, log)
