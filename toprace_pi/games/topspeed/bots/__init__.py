"""TOP SPEED's bots: each picks its seat's action from that seat's view alone
(:meth:`~toprace_pi.games.topspeed.rules.game.TopSpeed.view`, plain values): it never sees
a deck's order or another seat's card kept apart, since it is never handed the game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from toprace_pi.core import bots
from toprace_pi.games.topspeed.bots.random_bot import RandomBot
from toprace_pi.games.topspeed.bots.search import search_bot
from toprace_pi.games.topspeed.bots.sensible import SensibleBot
from toprace_pi.games.topspeed.rules import Action


class Bot(Protocol):
    def choose(self, view: Any) -> Action:
        """One of ``view["my_options"]``, as an action; a search bot is handed the seat's
        ``seen_by`` instead (see :func:`toprace_pi.core.bots.shown_to`)."""
        ...


KINDS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "sensible": SensibleBot, "search": search_bot}
BOT_KINDS = tuple(KINDS)
#: The bots that decide at once (no search): what the property tests play thousands of games with.
SIMPLE_KINDS = ("random", "sensible")


def make_bot(kind: str, seed: int, strength: str | None = None) -> Bot:
    """A bot by name (one of :data:`BOT_KINDS`); ``strength`` is the search bot's."""
    return bots.make_bot(KINDS, kind, seed, strength)
