"""TOP SPEED's side of the table (:class:`~toprace_pi.table.side.GameTable`), with virtual decks.

Nobody shuffles cards: the table holds each player's deck and makes every shuffle and the starting
order itself (:mod:`~toprace_pi.games.topspeed.table.chance`, from a secure random source; the demo's
dealer from a seeded one). The player to move only says what they do, with NEXT through their
options, each said (:mod:`~toprace_pi.games.topspeed.table.turn`), OK (alone: draw) or PASS, and the
table says the card drawn and all that follows.

UNDO takes back only what revealed nothing: a pass, a lap not made, a green card kept apart. A card
drawn was seen by everyone, and a shuffle (a pit stop's with it) is chance's: those stand.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any, cast

from toprace_pi.core.colour import RGB
from toprace_pi.games.topspeed.data import load_deck
from toprace_pi.games.topspeed.rules import Action, Draw, DrawCard, Keep, Leave, Pass, SitOut, TopSpeed
from toprace_pi.games.topspeed.rules import events as ev
from toprace_pi.games.topspeed.rules.actions import UseKept
from toprace_pi.games.topspeed.rules.game import GRID
from toprace_pi.games.topspeed.settings import TableGame
from toprace_pi.games.topspeed.table.board import load_profile
from toprace_pi.games.topspeed.table.chance import TableShuffles
from toprace_pi.games.topspeed.table.minicards import DRAW_HINT, Minicards
from toprace_pi.games.topspeed.table.tags import UNKNOWN_TAG, Identity, TopSpeedVocabulary, tag_book
from toprace_pi.games.topspeed.table.turn import VIRTUAL_DECKS, Turn
from toprace_pi.games.topspeed.table.view import TopSpeedView
from toprace_pi.games.topspeed.table.words import announcement, label, where
from toprace_pi.hardware.keyboard import KeyMap
from toprace_pi.hardware.profile import Profile
from toprace_pi.hardware.tags import TagBook
from toprace_pi.render.ansi import ColourMode
from toprace_pi.table.modes import Choice, InputMode, Refusal, Step
from toprace_pi.table.modes import Identity as AnyIdentity
from toprace_pi.table.side import TableSide

#: Why UNDO does not take these back.
DRAWN_STANDS = "a card drawn stays drawn: everyone has seen it"
LAID_STANDS = "a card laid in the row stays there: everyone has seen it"
SHUFFLE_STANDS = "the table's shuffles and the starting order stand (a pit stop with its new deck)"
KEYS_HELP = "keys: n NEXT, o OK (draw, or the option named), p PASS, U UNDO (held)"


class TopSpeedTable(TableSide[TopSpeed]):
    """TOP SPEED at the table set up as ``setup`` says (the ``[game]`` section), if given."""

    def __init__(self, setup: TableGame | None = None) -> None:
        self.setup = setup or TableGame()
        #: Physical minicards: the players' own decks, each card drawn laid on the seat's reader.
        self.minicards = Minicards() if self.setup.decks == "physical" else None
        #: Whether the seats have their own pages, where a card only its player may know is shown.
        self.phones = False

    def entry(self, game: TopSpeed, now: float, *, dealt_by_hand: bool) -> InputMode | None:
        """The table's own chance steps (at a real table too: nobody shuffles cards), else the turn."""
        if game.is_over:
            return None
        if game.chance_queue:
            return TableShuffles(game, by_hand=self.minicards is not None)
        seat = cast(int, game.turn)
        options: list[Action] = [action for action in game.options(seat) if not isinstance(action, DrawCard)]
        labels = [label(game, action, aloud=not self.phones) for action in options]
        turn = Turn(game.names[seat], seat, options, labels, where(game))
        if self.minicards is not None and len(options) < len(game.options(seat)):
            turn.laid, turn.draw_hint = partial(self.minicards.laid, game, seat), DRAW_HINT
        return turn

    def tag(self, game: TopSpeed, identity: AnyIdentity) -> Step:
        return Refusal(VIRTUAL_DECKS if self.minicards is None else "no minicard is drawn now")

    def prompt(self, game: TopSpeed, choice: Choice | None) -> str:
        return "the race is over" if game.is_over else game.stage.value

    def pages_open(self) -> None:
        self.phones = True

    def page(self) -> Any:
        from toprace_pi.games.topspeed.table.page import TopSpeedPage  # the web's side of the game, when asked for

        return TopSpeedPage(self.minicards is not None)

    def announcement(self, event: ev.Event, names: tuple[str, ...]) -> str | None:
        return announcement(event, names)

    def unknown_tag(self, record: str | None, game: TopSpeed) -> str:
        return VIRTUAL_DECKS if self.minicards is None else UNKNOWN_TAG

    def ignores(self, reader: str, identity: AnyIdentity, game: TopSpeed) -> bool:
        """The minicard a player just laid, read again while it lies on the reader."""
        return self.minicards is not None and self.minicards.ignores(identity)

    def view(self, profile: Profile) -> TopSpeedView:
        return TopSpeedView(profile)

    def is_deal(self, game: TopSpeed) -> bool:
        """A shuffle or the starting order: a machine's dealer (the demo's, seeded) makes it when there is one
        (with physical minicards only the starting order: the players shuffle their own decks)."""
        if not game.chance_queue or game.is_over:
            return False
        return self.minicards is None or game.chance_queue[0] == GRID

    def undo_refusal(self, action: Action) -> str | None:
        """A pass, a lap not made and a card kept apart revealed nothing and may be taken back; nothing else."""
        if isinstance(action, (Pass, SitOut, Keep)):
            return None
        if isinstance(action, (Draw, DrawCard)):
            return DRAWN_STANDS
        if isinstance(action, (Leave, UseKept)):
            return LAID_STANDS
        return SHUFFLE_STANDS

    def taken_back(self, action: Action) -> str:
        words = {Pass: "the pass", SitOut: "the lap not made", Keep: "the card kept apart: keep it or leave it"}
        return f"took back {words.get(type(action), 'a step')}"

    def board_profile(self, profile: str | None, game: TopSpeed) -> Profile:
        return load_profile(game.settings.circuit, game.circuit, profile)

    def vocabulary(self, game: TopSpeed) -> TopSpeedVocabulary:
        return TopSpeedVocabulary(game.deck)

    def key_map(self, game: TopSpeed) -> KeyMap:
        return KeyMap(number=None, letters={}, seat=None, help=KEYS_HELP)

    def tags(self) -> TagBook[Identity]:
        """The walks of ``toprace-pi enrol``: every minicard of the decks in play, or one deck by its car."""
        return tag_book(load_deck(self.setup.deck), len(self.setup.players))

    def finish_place(self, event: ev.Event) -> int | None:
        return 1 if isinstance(event, ev.RaceEnded) else None

    def terminal(self, game: TopSpeed, profile: Profile, lights: Sequence[RGB], *, colour: ColourMode | bool,
                 width: int) -> tuple[str, list[str]]:
        """The circuit and the standings from a spectator's view: no deck's order, no card in a hand."""
        from toprace_pi.games.topspeed.render.terminal import render_board, scoreboard  # for a terminal, when asked

        view = game.view(None)
        return render_board(view, game.names, game.circuit.spaces, colour=colour), scoreboard(view, game.names)
