"""What Top Race's table says of its events: the sentences that the table's voice (:mod:`.side`)
and its web pages (:mod:`.page`) both use, so the two never disagree."""

from __future__ import annotations

from toprace_pi.games.toprace.rules.events import (
    AuctionWon,
    BrokeDown,
    CarFinished,
    CarPlaced,
    CarReturned,
    CarRevealed,
    GameEnded,
    GridSet,
    OfferCardTaken,
    PitStopClaimed,
    PitStopCollected,
    PitStopTaken,
    RaceEnded,
    SeatingOrder,
    StockRound,
    StocksPaid,
    StocksTraded,
    TipRound,
    TipsSettled,
    money,
)
from toprace_pi.games.toprace.rules.events import Event as GameEvent

PLACE_WORDS = ("first", "second", "third", "fourth", "fifth", "sixth")
#: Events the table reads out as the engine words them.
SAID = (AuctionWon, BrokeDown, CarPlaced, CarReturned, CarRevealed, GameEnded, TipRound, TipsSettled, PitStopClaimed,
        PitStopTaken, PitStopCollected, OfferCardTaken, SeatingOrder, GridSet, StockRound, StocksTraded, StocksPaid)


def announcement(event: GameEvent, names: tuple[str, ...]) -> str | None:
    """The sentence the table speaks for an engine event, if it is worth one."""
    if isinstance(event, CarFinished):
        to = f": {money(event.prize)} to {names[event.seat]}" if event.seat is not None else ""
        return f"{event.car} finishes {PLACE_WORDS[event.place - 1]}{to}"
    if isinstance(event, RaceEnded):
        prizes = event.prize_money(names)
        return event.text(names) + (f". Prize money: {prizes}" if prizes else "")
    if isinstance(event, SAID):
        return event.text(names)
    return None

