"""Readable and JSON reports of a finished game, built from its events."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toprace_pi.games.toprace.rules.events import (
    AuctionWon,
    CardPlayed,
    CarFinished,
    CarPlaced,
    Event,
    GameEnded,
    RaceEnded,
    RaceStarted,
    money,
    ordinal,
)
from toprace_pi.games.toprace.rules.game import TopRace

#: Events that start a block in the text report; the rest are indented under them.
_HEADLINES = (RaceStarted, RaceEnded, GameEnded)


def text_report(game: TopRace, extra: dict[str, Any] | None = None) -> str:
    """The whole game as lines a person reads: auctions, every turn's card and
    moves, finishes, placings, prize money and the final money."""
    lines = [_title(game, extra or {}), *event_lines(game, game.events)]
    lines.append("")
    lines.append("Final money: " + ", ".join(f"{n} {money(m)}" for n, m in zip(game.names, game.money)))
    return "\n".join(lines)


def event_lines(game: TopRace, events: Sequence[Event]) -> list[str]:
    """``events`` of ``game`` as the report words them: a race's start and end head
    a block, cards and finishes are indented under them, a card's moves further;
    an ended race adds its placings and its prize money (if a car had an owner)."""
    lines = []
    for event in events:
        if isinstance(event, _HEADLINES):
            lines.append("")
        lines.append(event_line(event, game.names))
        if isinstance(event, RaceEnded):
            lines.extend(_race_summary(game, event))
    return lines


def event_line(event: Event, names: tuple[str, ...]) -> str:
    """One event as a line of the report: headlines flush, a turn's card and the
    auctions' results under them, and what the card did further in."""
    if isinstance(event, _HEADLINES):
        return event.text(names)
    indent = "  " if isinstance(event, (CardPlayed, AuctionWon, CarPlaced, CarFinished)) else "      "
    return indent + event.text(names)


def _title(game: TopRace, extra: dict[str, Any]) -> str:
    s = game.settings
    races = f"{s.races} race{'s' if s.races > 1 else ''}"
    more = "".join(f", {k} {v}" for k, v in extra.items())
    return f"Top Race on {game.track.name}: {', '.join(s.players)}; {races}{more}"


def _race_summary(game: TopRace, result: RaceEnded) -> list[str]:
    placings = _placings(game, result.placements, _owners_by_race(game)[result.race - 1])
    prizes = result.prize_money(game.names)
    return [f"  Placings: {placings}", *([f"  Prize money: {prizes}"] if prizes else [])]


def _owners_by_race(game: TopRace) -> list[dict[Any, int]]:
    races: list[dict[Any, int]] = []
    for event in game.events:
        if isinstance(event, RaceStarted):
            races.append({})
        elif isinstance(event, CarPlaced):
            races[-1][event.car] = event.seat
    return races


def json_report(game: TopRace, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The same game as one JSON-ready document: settings, each race's auction,
    turns, placements and payouts, and every player's final money."""
    names = game.names
    races: list[dict[str, Any]] = []
    for event in game.events:
        if isinstance(event, RaceStarted):
            races.append({"race": event.race, "auction": [], "turns": []})
        elif isinstance(event, AuctionWon):
            races[-1]["auction"].append({"player": names[event.seat], "price": event.price, "forced": event.forced})
        elif isinstance(event, CarPlaced):
            races[-1]["auction"][-1].update(car=event.car.id, starting_space=event.start)
        elif isinstance(event, CardPlayed):
            races[-1]["turns"].append({"player": names[event.seat], "card": event.card, "events": []})
        elif isinstance(event, RaceEnded):
            races[-1].update(
                placements=[c.id for c in event.placements],
                payouts=dict(zip(names, event.payouts)),
                reason=event.reason,
            )
        elif races and races[-1]["turns"] and not isinstance(event, GameEnded):
            races[-1]["turns"][-1]["events"].append(event.text(names))
    return {
        "settings": {
            "track": game.track.name,
            "players": list(names),
            "races": game.settings.races,
            **(extra or {}),
        },
        "races": races,
        "final_money": dict(zip(names, game.money)),
        "winners": [names[s] for s in game.winners()],
        "log": [str(a) for a in game.log],
    }


def scoreboard(game: TopRace) -> list[str]:
    """The standings in a few lines: the race and how many cards were played in it,
    each player's money and cars, and the cars that have finished, with their owners.
    Nothing secret (hands, tips, stocks) is in it: everyone at the table may read it."""
    cards = len(cards_this_race(game.events))
    lines = [f"Race {game.race} of {game.settings.races}, {cards} card{'' if cards == 1 else 's'} played"]
    width = max(len(n) for n in game.names)
    for seat, name in enumerate(game.names):
        cars = ", ".join(str(c) for c in sorted(game.cars_of(seat))) or "-"
        lines.append(f"  {name:{width}}  {money(game.money[seat]):>9}  {cars}")
    if game.board.finished:
        lines.append("  Finished: " + _placings(game, game.board.finished, _owners_by_race(game)[-1]))
    return lines


def cards_this_race(events: Sequence[Event]) -> list[CardPlayed]:
    """The speed cards played since the last race started, in order."""
    starts = [n for n, e in enumerate(events) if isinstance(e, RaceStarted)]
    return [e for e in events[starts[-1]:] if isinstance(e, CardPlayed)] if starts else []


def _placings(game: TopRace, cars: Sequence[Any], owners: dict[Any, int]) -> str:
    """``1st Blue (Anna), 2nd Red, ...``: cars in their places, with their owners."""
    return ", ".join(f"{ordinal(i)} {car}" + (f" ({game.names[owners[car]]})" if car in owners else "")
                     for i, car in enumerate(cars, 1))
