"""What NEXT and OK choose between at each moment of the game.

At the table most decisions are a pick from a short list shown on the track: a
car's legal end spaces, the free starting spaces, the cars the joker may move,
held in a :class:`~toprace_pi.table.modes.Choice`; NEXT moves the cursor, OK
takes the action under it. The auction, held aloud, is entered as the winner and the
price (:mod:`toprace_pi.games.toprace.table.entries`).
"""

from __future__ import annotations

import functools

from toprace_pi.games.toprace.rules import (
    Action,
    Breakdown,
    ChooseJoker,
    MoveCar,
    Pass,
    Phase,
    PlaceCar,
    PlayCard,
    ReturnCar,
    TakeCar,
    TopRace,
)
from toprace_pi.games.toprace.rules.variants.pitstop import CollectPitStop, TakeFromBox, TakeFromDiscard
from toprace_pi.games.toprace.rules.variants.stocks import TAKE_OFFER, TakeOffer
from toprace_pi.games.toprace.rules.variants.tips import TIP, Tip
from toprace_pi.table.modes import Choice

#: Phases whose legal actions are offered one by one under the cursor.
PICKED = (Phase.TAKE_CAR, Phase.PLACE_CAR, Phase.CHOOSE_JOKER, Phase.SPRINT_OR_BREAKDOWN,
          Phase.MOVE_CAR, Phase.RETURN_CAR, TIP, TAKE_OFFER)


def choice_for(game: TopRace) -> Choice | None:
    """The NEXT/OK choice for the game's current decision, if it is one. On a turn
    the speed card is laid on the reader; the choice holds what else may be done
    (the Pit Stop rule's pit stops and collecting)."""
    if game.phase is Phase.PLAY_CARD:
        options: list[Action] = [a for a in game.legal_actions() if not isinstance(a, (PlayCard, Pass))]
    elif game.phase in PICKED:
        options = game.legal_actions()
    else:
        return None
    return Choice(options, functools.partial(label, game)) if options else None


def label(game: TopRace, action: Action) -> str:
    """An action as the table says it."""
    if isinstance(action, TakeCar):
        return f"take {action.car}"
    if isinstance(action, PlaceCar):
        return f"starting space {action.start}"
    if isinstance(action, ChooseJoker):
        return f"the joker moves {action.car}"
    if isinstance(action, (MoveCar, ReturnCar)):
        return f"{action.car} to {action.to}"
    if isinstance(action, Tip):
        return f"a tip on {action.car}"
    if isinstance(action, TakeFromBox):
        return f"a pit stop: take {game.deck[action.number]} from the box"
    if isinstance(action, TakeFromDiscard):
        return "a pit stop: take the top card of the discard pile"
    if isinstance(action, CollectPitStop):
        return f"collect {game.deck[action.number]} from your pit stop card"
    if isinstance(action, TakeOffer):
        return f"take {game.deck[action.number]} from the offer row"
    return "Breakdown" if isinstance(action, Breakdown) else "Sprint"
