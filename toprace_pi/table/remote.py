"""An input from a seat's own page: an action in the journal's notation, sent by the
phone that holds the seat's link.

It goes through the controller like a card laid or a button pressed: checked, made
durable in the journal, applied and announced. What the page is told back (taken,
or why not) goes to the page only, never aloud: a refusal may name a seat's secret.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SeatInput:
    """``seat`` asks for the action ``text``, as offered when the game stood at ``step``
    actions; ``reply`` hears ``None`` once it is taken, else the reason it was not. ``by``
    says who sent it: the seat's page, or the table's own bot for the seat."""

    seat: int
    text: str
    step: int
    reply: Callable[[str | None], None]
    by: str = "the page"

    def __str__(self) -> str:
        return f"{self.by} of seat {self.seat + 1}"  # never the action: it may be a secret


#: What a seat's page is told when the game moved on since the page offered the action.
MOVED_ON = "the game has moved on since your page showed this: look again"
#: What it is told for an action that is not its own to take now.
NOT_YOURS = "that is not yours to do now"
