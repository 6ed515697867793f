"""What TOP SPEED's table says: its events, each option of a turn and the lap counter, in the words that
the table's voice (:mod:`.side`) and its web pages (:mod:`.page`) both use, so the two never disagree."""

from __future__ import annotations

from typing import cast

from toprace_pi.games.topspeed.rules import Action, Draw, Keep, Leave, Pass, PitStop, SitOut, Stage, TopSpeed
from toprace_pi.games.topspeed.rules import events as ev
from toprace_pi.games.topspeed.rules.actions import Shuffle, StartOrder, UseKept


def announcement(event: ev.Event, names: tuple[str, ...]) -> str:
    """The sentence the table speaks (and the pages show) for an event: the engine's, but a shuffle is the table's."""
    if isinstance(event, ev.Shuffled):
        return f"The table shuffles {names[event.seat]}'s deck ({event.cards} cards)"
    return event.text(names)


def where(game: TopSpeed) -> str:
    """The lap counter, as each prompt says it."""
    if game.stage is Stage.QUALIFYING:
        return f"qualifying lap {game.qualifying_lap}"
    behind = ", behind the safety car" if game.under_safety_car else ""
    return f"lap {game.lap} of {game.settings.laps}{behind}"


def label(game: TopSpeed, action: Action, *, aloud: bool = True) -> str:
    """An option in words. A green card just drawn under KERS is named ``aloud`` when the table's speaker
    is the only way its player learns it (with virtual decks the others hear it too); when the seats
    have their own pages, its player reads it there and the table does not say it."""
    if isinstance(action, (Keep, Leave)):
        card = game.drawn[action.seat] if aloud else "the green card"
        return (f"keep {card} apart (KERS)" if isinstance(action, Keep) else f"leave {card} in the row")
    if isinstance(action, PitStop):
        return "a pit stop (a new deck, and back in the movement)"
    return cast(str, _LABELS[type(action)])


_LABELS = {Draw: "draw a card", Pass: "pass", UseKept: "lay the card kept apart (KERS)",
           SitOut: "make no lap this time", StartOrder: "the starting order", Shuffle: "a shuffle"}
