"""TOP SPEED on the table's web pages: the circuit and its cars, the race order with each
car's row, deck and damage, and a seat's draw, pass or pit stop from its phone (with the
table's virtual decks; a minicard drawn by hand is laid on the reader, as at the table)."""

from __future__ import annotations

from typing import Any

from toprace_pi.games.topspeed.render.palette import seat_cars
from toprace_pi.games.topspeed.render.svg import board_svg, pieces
from toprace_pi.games.topspeed.render.terminal import card_name
from toprace_pi.games.topspeed.rules import Draw, DrawCard, TopSpeed
from toprace_pi.games.topspeed.rules import events as ev
from toprace_pi.games.topspeed.table.words import announcement, label, where
from toprace_pi.render.pieces import Piece
from toprace_pi.render.svg import hex_colour
from toprace_pi.table.pages import PageBase, Standings
from toprace_pi.text import ordinal


class TopSpeedPage(PageBase):
    """``minicards``: the players draw their own minicards, so no draw is made from a page."""

    def __init__(self, minicards: bool = False) -> None:
        self.minicards = minicards

    def board(self, game: TopSpeed) -> str:
        return board_svg(game)

    def pieces(self, game: TopSpeed) -> list[Piece]:
        return pieces(game)

    def news(self, event: ev.Event, game: TopSpeed) -> str | None:
        return announcement(event, game.names)

    def colours(self, game: TopSpeed) -> list[str]:
        return [hex_colour(car.rgb) for car in seat_cars(len(game.names))]

    def standings(self, game: TopSpeed) -> Standings:
        """Short cells and headers, so the six columns fit a phone's width (a long row of cards wraps); the
        places ("1st") need no header."""
        view = game.view(None)
        cars = seat_cars(len(game.names))
        place = {seat: n for n, seat in enumerate(view["order"], 1)}
        rows = tuple((hex_colour(cars[seat].rgb), (
            ordinal(place[seat]), name, str(view["spaces"][seat]),
            ", ".join(map(card_name, view["rows"][seat])) or "-", str(view["deck_sizes"][seat]),
            ", ".join(x for x in ("lapped" if view["lapped"][seat] else "",
                                  f"damage {len(view['damage'][seat])}" if view["damage"][seat] else "",
                                  "KERS" if view["keeps_a_card"][seat] else "") if x) or "-"))
            for seat, name in sorted(enumerate(game.names), key=lambda s: place[s[0]]))
        return Standings(("", "Player", "Space", "Row", "Deck", "KERS, damage"), rows)

    def secrets(self, game: TopSpeed, view: dict[str, Any]) -> list[str]:
        lines = []
        if view.get("my_drawn") is not None:
            lines.append(f"You have just drawn: {card_name(view['my_drawn'])}")
        if view.get("my_kept") is not None:
            lines.append(f"Kept apart (KERS): {card_name(view['my_kept'])}")
        return lines

    def prompt(self, game: TopSpeed, said: str) -> str:
        """The player's options, as their page's buttons say them (the table's prompt goes through them with NEXT)."""
        if game.turn is None or game.chance_queue:
            return said
        seat = game.turn
        choices = dict.fromkeys(self.words(game, Draw(seat) if isinstance(a, DrawCard) else a)
                                for a in game.options(seat))
        return f"{game.names[seat]}, {where(game)}: {' or '.join(choices)}"

    def options(self, game: TopSpeed, seat: int) -> list[Any]:
        options = super().options(game, seat)
        return [a for a in options if not isinstance(a, DrawCard)] if self.minicards else options

    def words(self, game: TopSpeed, action: Any) -> str:
        return label(game, action, aloud=False)
