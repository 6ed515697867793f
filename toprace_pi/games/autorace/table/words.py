"""What AUTORACE's table says of its events: one list that the table's voice
(:mod:`.side`) and its web pages (:mod:`.page`) both read, so the two never disagree."""

from __future__ import annotations

from toprace_pi.games.autorace.rules import events as ev

#: Events the table reads out as the engine words them. Not said: a round's start (the prompt says
#: who is to choose) and a card taken back (a change of mind is said as the new choice: "has chosen").
SAID = (ev.MissesRound, ev.OnlyBanner, ev.Chosen, ev.Revealed, ev.Fined, ev.FineUnpaid, ev.Moved, ev.Drew,
        ev.DrawFailed, ev.Stopped, ev.BonusPaid, ev.BonusMovedOn, ev.OutOfRace, ev.GameEnded, ev.GameStarted,
        ev.SeriesEnded)


def announcement(event: ev.Event, names: tuple[str, ...]) -> str | None:
    """The sentence the table speaks (and the pages show) for an event, if it is worth one."""
    return event.text(names) if isinstance(event, SAID) else None
