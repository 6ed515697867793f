"""Top Race on the table's web pages: the track and its cars, money and cars by player, a
seat's hand, tips and stocks (its own only), and what it may do from its phone.

The auction is held aloud at the table and entered there, so a seat's page offers no
bids; everything else a seat decides it may decide on its page. A seat's hand is known
to the table only when the table dealt it (the demo); at a table where the cards are
dealt by hand a remote seat cannot be played from a phone.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from toprace_pi.core.game import seat_actions
from toprace_pi.games.toprace.render.svg import board_svg, pieces
from toprace_pi.games.toprace.rules import Game, Phase
from toprace_pi.games.toprace.rules.actions import Action, MoveCar, Pass, PlayCard
from toprace_pi.games.toprace.rules.events import CardPlayed, CarMoved, CarPlaced, Forfeited, JokerChosen, money
from toprace_pi.games.toprace.rules.events import Event as GameEvent
from toprace_pi.games.toprace.table.side import announcement
from toprace_pi.render.pieces import Piece
from toprace_pi.render.svg import hex_colour
from toprace_pi.table.pages import Standings
from toprace_pi.text import ordinal

#: What everyone sees happen, told on the pages though the table does not say it aloud.
SEEN = (CardPlayed, CarMoved, CarPlaced, Forfeited, JokerChosen)
#: A seat without a car of its own shows this colour.
NO_CAR = "#8a8f98"


class TopRacePage:
    def board(self, game: Game) -> str:
        return board_svg(game)

    def board_state(self, game: Any) -> Hashable:
        return ()  # the track never changes

    def pieces(self, game: Game) -> list[Piece]:
        return pieces(game)

    def news(self, event: GameEvent, game: Game) -> str | None:
        return event.text(game.names) if isinstance(event, SEEN) else announcement(event, game.names)

    def colours(self, game: Game) -> list[str]:
        return _colours(_owned(game))

    def standings(self, game: Game) -> Standings:
        owned = _owned(game)
        colours = _colours(owned)
        places = {car: n for n, car in enumerate(game.board.finished, 1)}
        cards = game.view(None)["hand_size"]
        rows = []
        for seat, name in enumerate(game.names):
            owns = ", ".join(f"{car}" + (f" ({ordinal(places[car])})" if car in places else "")
                             for car in owned[seat]) or "-"
            rows.append((colours[seat], (name, money(game.money[seat]), owns, str(cards[seat]))))
        return Standings(("Player", "Money", "Cars", "Cards"), tuple(rows))

    def secrets(self, view: dict[str, Any]) -> list[str]:
        lines = []
        if view.get("my_hand") is not None:
            lines.append("Your hand: " + (", ".join(f"#{n}" for n in view["my_hand"]) or "empty"))
        if view.get("my_tips"):
            lines.append("Your tips: " + ", ".join(view["my_tips"]))
        if view.get("my_stocks"):
            lines.append("Your stocks: " + ", ".join(f"{car} {count}" for car, count in view["my_stocks"].items()))
        return lines

    def options(self, game: Game, seat: int) -> list[Action]:
        if game.phase is Phase.BID or game.hands is None and game.phase is Phase.PLAY_CARD:
            return []  # the auction is held aloud; a hand dealt by hand is the player's own to play
        return seat_actions(game, seat)

    def words(self, game: Game, action: Action) -> str:
        if isinstance(action, PlayCard):
            return f"play {game.deck[action.number]}"
        if isinstance(action, MoveCar):
            return f"move {action.car} to {action.to}"
        if isinstance(action, Pass):
            return "pass"
        return str(action)


def _owned(game: Game) -> dict[int, list[Any]]:
    """Each seat's cars, in the deck's order."""
    owned: dict[int, list[Any]] = {seat: [] for seat in range(len(game.names))}
    for car, seat in sorted(game.owner.items()):
        owned[seat].append(car)
    return owned


def _colours(owned: dict[int, list[Any]]) -> list[str]:
    """A seat's first car's colour (a seat shows a grey one until it has a car)."""
    return [hex_colour(cars[0].rgb) if cars else NO_CAR for _, cars in sorted(owned.items())]
