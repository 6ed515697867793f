"""What the web pages show after each step, built from the table as everyone may see it.

The spectators' post is made from the game as a spectator sees it
(``seen_by(None)``), the table's prompt in the pages' words and the sentences the
table says aloud: nothing a seat holds in secret is there, since none of them knows
it. Each seat's post is the spectators' with that seat's own view added
(``view(seat)``'s ``my_`` entries, its secrets in words) and, when the decision is
its own, what it may do now. The table's own board is sent the spectators' post with the
seats' join codes added while a joining step is open (:mod:`.joining`). A post is built
in the table's thread, after the LEDs show the step, only when something on the pages
changed; with it goes the time left of a decision that closes by itself (the feed tells each page the time left when it
sends the post, see :meth:`~toprace_pi.web.feed.Post.sent`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from toprace_pi.table.controller import TableController
from toprace_pi.table.pages import GamePage
from toprace_pi.web.joining import Joining

#: The sentences of news a post keeps.
NEWS = 12


@dataclass
class Poster:
    """Builds the posts of one table, remembering what it showed last."""

    page: GamePage
    board: str = ""
    board_key: str = ""
    news: list[str] = field(default_factory=list)
    #: The joining step, whose codes the table's own board shows while it is open.
    joining: Joining | None = None
    _shown: tuple[Any, ...] = ()
    _told: int = 0
    _game: Any = None
    _board_state: Hashable = None

    def post(self, controller: TableController) -> tuple[str, tuple[str, ...], float | None, str] | None:
        """The spectators' and every seat's post if the pages would change, the seconds left until the
        decision closes by itself (``None``: it waits for its inputs) and the table board's post; else
        ``None``."""
        game, entry, said = controller.game, controller.entry, controller.prompt
        # the entry too: a window that opens anew (its time full again) is posted anew
        shown = (id(game), len(game.log), said, entry, self.joining.version if self.joining else 0)
        if shown == self._shown:
            return None
        self._shown = shown
        prompt = "The game is over" if game.is_over else self.page.prompt(game, said)
        self._hear(controller)
        seen = game.seen_by(None)
        self._draw_board(seen)
        codes = self.joining.shown if self.joining else None
        public = _text(self._public(game, seen, prompt, codes))
        head = public[:-1] + ","  # a seat's post is the spectators' with its own entries added
        seats = tuple(head + _text(self._mine(game, seat))[1:] for seat in range(len(game.names)))
        table = head + _text({"codes": codes})[1:] if codes else public
        return public, seats, None if entry is None or game.is_over else entry.time_left(controller.clock()), table

    def tell(self, sentence: str) -> None:
        """A sentence of the table's own (not a step of the game's) for the news, in the next post."""
        self.news.append(sentence)
        del self.news[:-NEWS]
        self._shown = ()

    def _draw_board(self, seen: Any) -> None:
        """The board's picture, drawn again only when what it shows changed (it costs milliseconds)."""
        state = self.page.board_state(seen)
        if not self.board or state != self._board_state:
            self.board = self.page.board(seen)
            self.board_key = hashlib.sha256(self.board.encode()).hexdigest()[:12]
            self._board_state = state

    def _hear(self, controller: TableController) -> None:
        """The news of the events since the last post."""
        game = controller.game
        if game is not self._game and len(game.events) < self._told:
            self.news.append("the last step was taken back")
            self._told = len(game.events)
        self._game = game
        for event in game.events[self._told:]:
            sentence = self.page.news(event, game)
            if sentence:
                self.news.append(sentence)
        self._told = len(game.events)
        del self.news[:-NEWS]

    def _public(self, game: Any, seen: Any, prompt: str, codes: list[dict[str, Any]] | None) -> dict[str, Any]:
        decision = game.decision
        return {
            "title": type(game).info.title,
            "board": self.board_key,
            "step": len(game.log),
            "over": game.is_over,
            "prompt": prompt,
            "deciding": [game.names[s] for s in decision.seats],
            "news": list(self.news),
            "pieces": [p.to_dict() for p in self.page.pieces(seen)],
            "standings": self.page.standings(seen).to_dict(),
            "joining": None if codes is None else [{k: c[k] for k in ("seat", "name", "colour")} for c in codes],
        }

    def _mine(self, game: Any, seat: int) -> dict[str, Any]:
        view = game.view(seat)
        options = self.page.options(game, seat)
        return {
            "seat": seat,
            "name": game.names[seat],
            "mine": self.page.secrets(game, view),
            "options": [self._option(game, a) for a in options],
        }

    def _option(self, game: Any, action: Any) -> dict[str, Any]:
        """An option: its action (what the page sends), its words and, when the page picks it on the
        board, the space it takes a car to (``at``) and the one the car is on (``from``)."""
        option = {"act": str(action), "words": self.page.words(game, action)}
        spot = self.page.spot(game, action)
        if spot is not None:
            option["at"], option["from"] = spot
        return option


def _text(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"))
