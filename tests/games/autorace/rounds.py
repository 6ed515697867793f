"""Playing AUTORACE round by round in a test: every seat's card of a round given in seat order."""

from __future__ import annotations

from collections.abc import Sequence

from toprace_pi.games.autorace.data import load_board
from toprace_pi.games.autorace.rules import Autorace, Choose, Reveal, Settings
from toprace_pi.games.autorace.rules import events as ev

BOARD = load_board()
NAMES = ("Anna", "Ben", "Carla", "David", "Eva")
#: The banner, as a round's card.
B = 0
#: A seat the round does not ask (it misses the round, is out, or can only lay its banner, which it does by itself).
ASKED_NOT = None


def new_game(players: int, *, games: int = 1, boost: int = 0) -> Autorace:
    return Autorace(Settings(NAMES[:players], games=games, boost=boost), BOARD)


def play_round(game: Autorace, *cards: int | None) -> list[ev.Event]:
    """One round: each seat the round asks lays its card, then the reveal; what happened.
    ``ASKED_NOT`` for a seat the round must not ask (checked)."""
    start = len(game.events)
    asked = tuple(seat for seat, card in enumerate(cards) if card is not ASKED_NOT)
    assert game.decision.seats == asked, f"round {game.round} asks {game.decision.seats}, not {asked}"
    for seat in asked:
        game.apply(Choose(seat, cards[seat]))  # type: ignore[arg-type]
    game.apply(Reveal())
    return game.events[start:]


def play_rounds(game: Autorace, rounds: Sequence[Sequence[int | None]]) -> list[ev.Event]:
    happened: list[ev.Event] = []
    for cards in rounds:
        happened += play_round(game, *cards)
    return happened


def of_kind(events: Sequence[ev.Event], kind: type) -> list[ev.Event]:
    return [event for event in events if isinstance(event, kind)]
