"""AUTORACE's bots: each picks its seat's sealed card from that seat's view alone
(:meth:`~toprace_pi.games.autorace.rules.game.Autorace.view`, plain values): it never
sees another seat's sealed card, since it is never handed the game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from toprace_pi.core.bots import make_bot as find_bot


class Bot(Protocol):
    def choose(self, view: Any) -> int:
        """The card to lay, one of ``view["my_options"]`` (the banner is 0); a search bot is
        handed the seat's ``seen_by`` instead (see :func:`toprace_pi.core.bots.shown_to`)."""
        ...


def make_bot(kind: str, seed: int, strength: str | None = None) -> Bot:
    """A bot by name (one of :data:`BOT_KINDS`); ``strength`` is the search bot's."""
    return find_bot(_KINDS, kind, seed, strength)


from toprace_pi.games.autorace.bots.random_bot import RandomBot  # noqa: E402  (after Bot: kept together)
from toprace_pi.games.autorace.bots.search import search_bot  # noqa: E402
from toprace_pi.games.autorace.bots.sensible import SensibleBot  # noqa: E402

_KINDS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "sensible": SensibleBot, "search": search_bot}
BOT_KINDS = tuple(_KINDS)
#: The bots that decide at once (no search): what the property tests play thousands of games with.
SIMPLE_KINDS = ("random", "sensible")
