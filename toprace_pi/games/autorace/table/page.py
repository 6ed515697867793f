"""AUTORACE on the table's web pages: the track and the figures, each seat's money and cards
in hand, and a seat's sealed card laid from its phone (nobody else learns which it is)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from toprace_pi.games.autorace.render.palette import seat_suits
from toprace_pi.games.autorace.render.svg import board_svg, pieces
from toprace_pi.games.autorace.render.terminal import standing
from toprace_pi.games.autorace.rules import BANNER, Autorace
from toprace_pi.games.autorace.rules.actions import Choose, TakeBack
from toprace_pi.games.autorace.rules.events import Event, dollars
from toprace_pi.games.autorace.table.entries import listed
from toprace_pi.games.autorace.table.words import announcement
from toprace_pi.render.pieces import Piece
from toprace_pi.render.svg import hex_colour
from toprace_pi.table.pages import PageBase, Standings


class AutoracePage(PageBase):
    def board(self, game: Autorace) -> str:
        return board_svg(game)

    def board_state(self, game: Any) -> Hashable:
        return tuple(sorted(game.paid)), tuple(sorted(game.bonuses.items()))

    def pieces(self, game: Autorace) -> list[Piece]:
        return pieces(game)

    def news(self, event: Event, game: Autorace) -> str | None:
        return announcement(event, game.names)

    def colours(self, game: Autorace) -> list[str]:
        return [hex_colour(suit.rgb) for suit in seat_suits(game.board, len(game.names))]

    def standings(self, game: Autorace) -> Standings:
        view = game.view(None)
        colours = self.colours(game)
        rows = tuple((colours[seat], (name, dollars(view["money"][seat]), str(view["positions"][seat]),
                                             str(len(view["hands"][seat])), standing(view, seat)))
                     for seat, name in enumerate(game.names))
        return Standings(("Player", "Money", "Space", "Cards", ""), rows)

    def secrets(self, game: Autorace, view: dict[str, Any]) -> list[str]:
        sealed = view.get("my_sealed")
        if sealed is None:
            return []
        return ["Your card laid face down: " + ("your banner" if sealed == BANNER else str(sealed))]

    def prompt(self, game: Autorace, said: str) -> str:
        """A card is chosen on a phone as well as laid on the reader: the pages name no reader."""
        choosing = game.choosing()
        if not choosing:
            return said
        who = listed([game.names[seat] for seat in choosing])
        return f"round {game.round}: {who} {'chooses' if len(choosing) == 1 else 'choose'} a card face down"

    def words(self, game: Autorace, action: Any) -> str:
        if isinstance(action, Choose):
            return "lay your banner" if action.card == BANNER else f"lay {action.card}"
        if isinstance(action, TakeBack):
            return "take your card back"
        return str(action)
