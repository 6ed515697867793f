"""AUTORACE's side of the table (:class:`~toprace_pi.table.side.GameTable`).

Every round is a sealed choice: each player lays a card face down on the seats' reader (one
reader passed round, or one a seat behind a reader hub), the table says only who has chosen,
and once every card is laid it reveals them by itself and reads the round out. UNDO, which
anyone may press, never takes a sealed card back (the table cannot tell who pressed it): a
player changes their mind by laying another of their cards, and a revealed round stands.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toprace_pi.core.colour import RGB
from toprace_pi.games.autorace.data import load_board
from toprace_pi.games.autorace.rules import Action, Autorace, Choose, Phase, TakeBack
from toprace_pi.games.autorace.rules import events as ev
from toprace_pi.games.autorace.settings import TableGame
from toprace_pi.games.autorace.table.board import load_profile
from toprace_pi.games.autorace.table.entries import SealedChoice, entry_for
from toprace_pi.games.autorace.table.keys import key_map
from toprace_pi.games.autorace.table.tags import AutoraceVocabulary, Identity, card_of, tag_book
from toprace_pi.games.autorace.table.view import AutoraceView
from toprace_pi.games.autorace.table.words import announcement
from toprace_pi.hardware.keyboard import KeyMap
from toprace_pi.hardware.profile import Profile
from toprace_pi.hardware.tags import TagBook
from toprace_pi.render.ansi import ColourMode
from toprace_pi.table.modes import Choice, Refusal, Step
from toprace_pi.table.modes import Identity as AnyIdentity
from toprace_pi.table.side import TableSide

#: Why UNDO does not take a sealed card back, and why not a revealed round.
SEALED_STANDS = "a chosen card is taken back by laying another of your cards"
ROUND_STANDS = "the cards are revealed: the round stands"


class AutoraceTable(TableSide[Autorace]):
    """AUTORACE at the table set up as ``setup`` says (the ``[game]`` section), if given."""

    def __init__(self, setup: TableGame | None = None) -> None:
        self.setup = setup or TableGame()

    def entry(self, game: Autorace, now: float, *, dealt_by_hand: bool) -> SealedChoice | None:
        return entry_for(game)

    def tag(self, game: Autorace, identity: AnyIdentity) -> Step:
        return Refusal("the game is over: no card is laid now")  # the sealed choice takes every card laid

    def prompt(self, game: Autorace, choice: Choice | None) -> str:
        return "the game is over" if game.is_over else f"{game.phase.value}"

    def page(self) -> Any:
        from toprace_pi.games.autorace.table.page import AutoracePage  # the web's side of the game, when asked for

        return AutoracePage()

    def announcement(self, event: ev.Event, names: tuple[str, ...]) -> str | None:
        return announcement(event, names)

    def unknown_tag(self, record: str | None, game: Autorace) -> str:
        return AutoraceVocabulary(game.board).unknown(record)

    def ignores(self, reader: str, identity: AnyIdentity, game: Autorace) -> bool:
        """A card lying sealed read again (a nudge, a missed poll, the card laid once more) is no input,
        on whichever reader it lies."""
        if game.phase is not Phase.CHOOSE:
            return False
        suit, card = card_of(identity)
        suits = [s.id for s in game.board.suits[:len(game.names)]]
        return suit in suits and game.sealed[suits.index(suit)] == card

    def view(self, profile: Profile) -> AutoraceView:
        return AutoraceView(profile)

    def undo_refusal(self, action: Action) -> str | None:
        """Never: a sealed card is its player's to change, and a revealed round stands."""
        return SEALED_STANDS if isinstance(action, (Choose, TakeBack)) else ROUND_STANDS

    def taken_back(self, action: Action) -> str:
        return "took back a step"  # never said (UNDO takes nothing back), and never a card if it were

    def board_profile(self, profile: str | None, game: Autorace) -> Profile:
        return load_profile(game.settings.board, game.board, profile)

    def vocabulary(self, game: Autorace) -> AutoraceVocabulary:
        return AutoraceVocabulary(game.board)

    def key_map(self, game: Autorace) -> KeyMap:
        return key_map(game.board, len(game.names))

    def tags(self) -> TagBook[Identity]:
        """The walks of ``toprace-pi enrol``: every card of the sets in play, or one set by its suit."""
        return tag_book(load_board(self.setup.board), len(self.setup.players))

    def finish_place(self, event: ev.Event) -> int | None:
        """A figure on the last space wins the race: the fanfare of a first place."""
        return 1 if isinstance(event, ev.GameEnded) and event.reason == "finish" else None

    def terminal(self, game: Autorace, profile: Profile, lights: Sequence[RGB], *, colour: ColourMode | bool,
                 width: int) -> tuple[str, list[str]]:
        """The track and the standings from a spectator's view: no sealed card in them."""
        from toprace_pi.games.autorace.render.terminal import MIN_WIDTH, render_board, scoreboard  # when asked

        view = game.view(None)
        board = render_board(game.board, view, game.names, colour=colour, width=max(width, MIN_WIDTH))
        return board, scoreboard(game.board, view, game.names)
