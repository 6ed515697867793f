"""Readable and JSON reports of a TOP SPEED race, built from its events alone: the starting order,
each round's draws, troubles, moves and pit stops (the qualifying's laps before them), the safety
cars, the laps, the final order and the winner. No shuffle's order is in them (no event has it)."""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from toprace_pi.games.topspeed.rules import Card, TopSpeed
from toprace_pi.games.topspeed.rules import events as ev
from toprace_pi.games.topspeed.rules.cards import extra_card

#: Events that open a section of the report.
_HEADINGS = (ev.RoundStarted, ev.QualifyingRoundStarted)


def sections(events: Sequence[ev.Event]) -> list[tuple[ev.Event | None, list[ev.Event]]]:
    """The events cut into the setup (heading ``None``) and one section a round or qualifying lap."""
    found: list[tuple[ev.Event | None, list[ev.Event]]] = [(None, [])]
    for event in events:
        if isinstance(event, _HEADINGS):
            found.append((event, []))
        elif not isinstance(event, ev.Shuffled):
            found[-1][1].append(event)
    return found


def tallies(game: TopSpeed) -> dict[str, list[int]]:
    """Per seat: cards drawn, trouble cards drawn, pairs, pit stops; and the race's safety cars."""
    count: dict[str, Counter[int]] = {key: Counter() for key in ("draws", "troubles", "pairs", "pit_stops")}
    for event in game.events:
        if isinstance(event, (ev.Drew, ev.DrewAndDiscarded)):
            count["draws"][event.seat] += 1
            count["troubles"][event.seat] += event.card.is_trouble
        elif isinstance(event, ev.OutOfRound):
            count["pairs"][event.seat] += 1
        elif isinstance(event, ev.PitStopDeclared):
            count["pit_stops"][event.seat] += 1
    seats = range(len(game.names))
    return {key: [counter[seat] for seat in seats] for key, counter in count.items()}


def safety_cars(game: TopSpeed) -> int:
    return sum(isinstance(e, ev.SafetyCar) and e.out for e in game.events)


#: Each tally's words, one and several.
_WORDS = (("draws", "card drawn", "cards drawn"), ("troubles", "trouble card", "trouble cards"),
          ("pairs", "pair", "pairs"), ("pit_stops", "pit stop", "pit stops"))


def text_report(game: TopSpeed, extra: dict[str, Any] | None = None) -> str:
    names = game.names
    settings = game.settings
    blank = _blank_words(settings.blank_as, settings.blank_replaces) if settings.blank_as else ""
    lines = [f"TOP SPEED on {game.circuit.name}: {len(names)} players, {settings.laps} laps, "
             f"the {settings.race} race{blank}" + "".join(f", {k} {v}" for k, v in (extra or {}).items())]
    for heading, events in sections(game.events):
        if heading is not None:
            lines.append("")
            lines.append(heading.text(names))
        lines += [f"  {event.text(names)}" for event in events]
    lines.append("")
    counts = tallies(game)
    for seat, name in enumerate(names):
        lines.append(f"{name}: " + ", ".join(f"{counts[key][seat]} {one if counts[key][seat] == 1 else several}"
                                          for key, one, several in _WORDS))
    lines.append(f"Safety cars: {safety_cars(game)}; laps: {game.lap} of {game.settings.laps}")
    if game.is_over:
        lines.append(f"Final order: {', '.join(names[s] for s in game.race_order())}; "
                     f"the winner: {names[game.winners()[0]]}")
    else:
        lines.append("The race is not over")
    return "\n".join(lines) + "\n"


def _blank_words(word: str, replaces: bool) -> str:
    """The blank card's use agreed for the race, for the report's first line."""
    card = extra_card(word)
    return f", the blank card standing in for {card} (lost or damaged)" if replaces else (
        f", the blank card as {card} in every deck")


def json_report(game: TopSpeed, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    names = game.names
    starts = [e for e in game.events if isinstance(e, ev.StartingOrder)]
    rounds = [{"heading": heading.text(names) if heading else "setup",
               **({} if heading is None else _fields(heading)),
               "events": [{"type": type(e).__name__, **_fields(e), "text": e.text(names)} for e in events]}
              for heading, events in sections(game.events)]
    return {
        "game": "topspeed", **(extra or {}), "settings": asdict(game.settings), "players": list(names),
        "start_order": [names[s] for s in starts[-1].order] if starts else None,
        "rounds": rounds, **tallies(game), "safety_cars": safety_cars(game), "laps": game.lap,
        "final_order": [names[s] for s in game.race_order()] if game.is_over else None,
        "winner": names[game.winners()[0]] if game.is_over else None,
    }


def _fields(event: ev.Event) -> dict[str, Any]:
    """An event's fields as plain values (a card by its word, a kind by its name)."""
    return {key: _plain(getattr(event, key)) for key in event.__slots__}


def _plain(value: object) -> object:
    if isinstance(value, Card):
        return value.word
    if isinstance(value, enum.Enum):
        return value.value
    return list(value) if isinstance(value, tuple) else value
