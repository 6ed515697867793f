"""Readable and JSON reports of an AUTORACE series, built from its events alone: each game's
rounds, its end and result, and what each player paid and won (fines, bonuses, draws, being out
of the race), in the game and over the series."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from toprace_pi.games.autorace.rules import Autorace
from toprace_pi.games.autorace.rules import events as ev
from toprace_pi.games.autorace.rules.events import dollars

#: Events a reader of a finished game does without: who has chosen (before the reveal), and the
#: series' end (the report's last lines say it).
_QUIET = (ev.Chosen, ev.TakenBack, ev.SeriesEnded)
#: Said before a round's cards are turned up, so told under its headline.
_BEFORE_REVEAL = (ev.MissesRound, ev.OnlyBanner)


@dataclass
class Tally:
    """What one player paid and won: in one game, or over the series."""

    fines: int = 0
    fines_unpaid: int = 0
    bonuses: int = 0
    draws: int = 0
    draw_costs: int = 0
    outs: int = 0
    out_fines: int = 0
    #: Where the player went out of the race (in one game's tally), if it did.
    out_at: int | None = None

    def count(self, event: ev.Event) -> None:
        if isinstance(event, ev.Fined):
            self.fines += event.amount
        elif isinstance(event, ev.FineUnpaid):
            self.fines_unpaid += 1
        elif isinstance(event, ev.BonusPaid):
            self.bonuses += event.amount
        elif isinstance(event, ev.Drew):
            self.draws += 1
            self.draw_costs += event.cost
        elif isinstance(event, ev.OutOfRace):
            self.outs += 1
            self.out_fines += event.paid
            self.out_at = event.position

    def add(self, other: Tally) -> None:
        for name in ("fines", "fines_unpaid", "bonuses", "draws", "draw_costs", "outs", "out_fines"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def text(self) -> str:
        parts = [f"fines {dollars(self.fines)}", f"bonuses {dollars(self.bonuses)}",
                 f"{self.draws} draw{'' if self.draws == 1 else 's'} ({dollars(self.draw_costs)})"]
        if self.fines_unpaid:
            parts.append(f"{self.fines_unpaid} fine{'' if self.fines_unpaid == 1 else 's'} unpaid")
        if self.out_at is not None:
            parts.append(f"out at {self.out_at} ({dollars(self.out_fines)})")
        elif self.outs:
            parts.append(f"out {self.outs}x ({dollars(self.out_fines)})")
        return ", ".join(parts)


@dataclass
class GameRecord:
    """One game of the series: how it ended, after how many rounds, and each seat's money and tally."""

    game: int
    reason: str = ""
    rounds: int = 0
    money: tuple[int, ...] = ()
    #: The boost paid at its start, and the seats that dropped out before it.
    boost: int = 0
    dropped: tuple[int, ...] = ()
    tallies: list[Tally] = field(default_factory=list)


def game_records(game: Autorace) -> list[GameRecord]:
    """Each game of the series, from its events."""
    seats = len(game.names)
    records = [GameRecord(1, tallies=[Tally() for _ in range(seats)])]
    for event in game.events:
        record = records[-1]
        if isinstance(event, ev.RoundStarted):
            record.rounds = event.round
        elif isinstance(event, ev.GameEnded):
            record.reason, record.money = event.reason, event.money
        elif isinstance(event, ev.GameStarted):
            records.append(GameRecord(event.game, boost=event.boost, dropped=event.dropped,
                                      tallies=[Tally() for _ in range(seats)]))
        elif isinstance(seat := getattr(event, "seat", None), int):
            record.tallies[seat].count(event)
    return records


def series_tallies(records: Sequence[GameRecord], seats: int) -> list[Tally]:
    totals = [Tally() for _ in range(seats)]
    for record in records:
        for total, tally in zip(totals, record.tallies, strict=True):
            total.add(tally)
    return totals


def colours(game: Autorace) -> list[str]:
    """Each seat's card set, by its colour's name."""
    return [suit.name for suit in game.board.suits[:len(game.names)]]


# --- text --------------------------------------------------------------------------------------


def text_report(game: Autorace, extra: dict[str, Any] | None = None) -> str:
    """The series as lines a person reads: every round's cards and what they did, each game's end
    with each player's fines, bonuses, draws and out of the race, and the final money."""
    records = game_records(game)
    lines = [_title(game, extra or {}), *round_lines(game.names, game.events, records)]
    if len(records) > 1:
        lines += ["", "Over the series:"]
        totals = series_tallies(records, len(game.names))
        lines += [f"  {name}: {tally.text()}" for name, tally in zip(game.names, totals, strict=True)]
    lines += ["", "Final money: " + _standing(game.names, game.money)]
    winners = [game.names[s] for s in game.winners()]
    lines.append(("Winner: " if len(winners) == 1 else "Winners (a shared win): ") + ", ".join(winners))
    return "\n".join(lines)


def round_lines(names: Sequence[str], events: Sequence[ev.Event], records: Sequence[GameRecord]) -> list[str]:
    """``events`` as the report words them: a headline for each game and each round (with its cards),
    what the cards did under it, and each game's end with its players' tallies."""
    lines: list[str] = []
    waiting: list[ev.Event] = []
    ended = iter(records)
    round_number = 0
    for event in events:
        if isinstance(event, _BEFORE_REVEAL):
            waiting.append(event)
        elif isinstance(event, ev.RoundStarted):
            waiting, round_number = [], event.round
            if event.round == 1:
                lines += ["", f"Game {event.game}"]
        elif isinstance(event, ev.Revealed):
            lines.append(f"  Round {round_number}: {event.text(names).removeprefix('Revealed: ')}")
            lines += [f"      {e.text(names)}" for e in waiting]
        elif isinstance(event, ev.GameEnded):
            record = next(ended)
            lines.append(f"{event.text(names)} after {record.rounds} rounds")
            lines += [f"  {name}: {tally.text()}" for name, tally in zip(names, record.tallies, strict=True)]
        elif isinstance(event, ev.GameStarted):
            lines.append(event.text(names))
        elif not isinstance(event, _QUIET):
            lines.append(f"      {event.text(names)}")
    return lines


def _title(game: Autorace, extra: dict[str, Any]) -> str:
    s = game.settings
    players = ", ".join(f"{name} ({colour})" for name, colour in zip(game.names, colours(game), strict=True))
    series = f"{s.games} game{'s' if s.games > 1 else ''}"
    if s.games > 1:
        series += f", boost {dollars(s.boost)}" if s.boost else ", money carried over"
    more = "".join(f", {k} {v}" for k, v in extra.items())
    return f"AUTORACE, board {s.board}: {players}; {series}{more}"


def _standing(names: Sequence[str], money: Sequence[int]) -> str:
    return ", ".join(f"{n} {dollars(m)}" for n, m in zip(names, money, strict=True))


# --- JSON --------------------------------------------------------------------------------------


def json_report(game: Autorace, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The same series as one JSON-ready document of plain values."""
    names, records = game.names, game_records(game)
    totals = series_tallies(records, len(names))
    return {
        "settings": {"game": "autorace", "board": game.settings.board, "players": list(names),
                     "colours": dict(zip(names, colours(game), strict=True)), "games": game.settings.games,
                     "boost": game.settings.boost, **(extra or {})},
        "players": [{"name": name, "colour": colour, "money": money, **_tally(total, where=False)}
                    for name, colour, money, total in zip(names, colours(game), game.money, totals, strict=True)],
        "games": [_game(record, names) for record in records],
        "final_money": dict(zip(names, game.money, strict=True)),
        "winners": [names[s] for s in game.winners()],
        "bank": game.bank,
        "log": [str(a) for a in game.log],
    }


def _game(record: GameRecord, names: Sequence[str]) -> dict[str, Any]:
    """One game's plain values; a game still going on (a journal played back mid-game) has no money
    at its end yet (``None``) and no reason."""
    money = dict(zip(names, record.money, strict=True)) if record.money else None
    return {"game": record.game, "reason": record.reason, "rounds": record.rounds, "money": money,
            "boost": record.boost,
            "dropped": [names[s] for s in record.dropped],
            "players": {name: _tally(tally) for name, tally in zip(names, record.tallies, strict=True)}}


def _tally(tally: Tally, where: bool = True) -> dict[str, Any]:
    """A tally's plain values; ``where`` keeps where the player went out (one game's tally only)."""
    values = asdict(tally)
    if not where:
        del values["out_at"]
    return values
