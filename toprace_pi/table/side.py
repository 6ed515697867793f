"""What a game brings to the table: everything of the table that depends on its rules.

The controller, the run loop, the journal and the devices know no game. For each
moment of a game its :class:`GameTable` says how the decision is taken (an
:class:`~toprace_pi.table.modes.InputMode` of several inputs, or a NEXT/OK
:class:`~toprace_pi.table.modes.Choice`, or a tag laid), what the table asks for,
what it says of each event, which readings of a reader are no new input, and how
the LEDs show the game. A game registers its side with its
:class:`~toprace_pi.core.registry.GameEntry`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from toprace_pi.core.colour import RGB
from toprace_pi.table.ansi import ColourMode
from toprace_pi.table.modes import Choice, Identity, InputMode, Step

#: What the table says when UNDO finds no step to take back.
NOTHING_TO_UNDO = "there is nothing to take back"


class GameView(Protocol):
    """Composes the LED strip's frames for one board (its ``profile``: where each LED lies)."""

    profile: Any

    def frame(self, game: Any, choice: Choice | None, now: float) -> list[RGB]: ...


class GameTable(Protocol):
    """A game's side of the table."""

    def entry(self, game: Any, now: float, *, dealt_by_hand: bool) -> InputMode | None:
        """The mode of several inputs the decision now needs, if it is one."""

    def choice(self, game: Any) -> Choice | None:
        """The NEXT/OK pick of the decision now, if it has one (and no entry)."""

    def tag(self, game: Any, identity: Identity) -> Step:
        """A tag laid when no entry is open (a speed card played, a car token laid)."""

    def passing(self, game: Any) -> Sequence[Any] | None:
        """What PASS does now, if anything."""

    def prompt(self, game: Any, choice: Choice | None) -> str:
        """What the table waits for now, in words (no entry open)."""

    def announcement(self, event: Any, names: tuple[str, ...]) -> str | None:
        """The sentence the table speaks for an event, if it is worth one."""

    def unknown_tag(self, record: str | None, game: Any) -> str:
        """Why a tag that names nothing of the game is refused (another edition's token, not enrolled)."""

    def ignores(self, reader: str, identity: Identity, game: Any) -> bool:
        """Whether a tag read on ``reader`` is no new input (a card lying on a pile read again)."""

    def view(self, profile: Any) -> GameView:
        """The LED view of the game on a board profile."""

    def is_deal(self, game: Any) -> bool:
        """Whether the decision now is the deal a machine's dealer makes (the demo's)."""

    def undo_refusal(self, action: Any) -> str | None:
        """Why UNDO may not take ``action`` back, in words the table says (never what chance made,
        such as the deal; nothing a seat chose in secret, which the table cannot tell who undoes);
        ``None`` when it may."""

    def taken_back(self, action: Any) -> str:
        """What the table says when UNDO took ``action`` back (without telling a secret)."""

    def board_profile(self, profile: str | None, game: Any) -> Any:
        """The board profile (the LEDs under the board) ``[files] profile`` names, else the board's own."""

    def vocabulary(self, game: Any) -> Any:
        """What the keys of the tag registry stand for (a :class:`~toprace_pi.hardware.tags.Vocabulary`)."""

    def key_map(self, game: Any) -> Any:
        """What the keys of the keyboard lay (a :class:`~toprace_pi.hardware.keyboard.KeyMap`)."""

    def tags(self) -> Any:
        """The enrolment walks of the table's setup (a :class:`~toprace_pi.hardware.tags.TagBook`)."""

    def page(self) -> Any:
        """The game on the table's web pages (a :class:`~toprace_pi.web.posts.GamePage`)."""

    def pages_open(self) -> None:
        """The seats have their own pages now: what only one seat may know is shown there, never said aloud."""

    def finish_place(self, event: Any) -> int | None:
        """The place of a finish the event tells (the table plays its fanfare), else ``None``."""

    def terminal(self, game: Any, profile: Any, lights: Sequence[RGB], *, colour: ColourMode | bool,
                 width: int) -> tuple[str, list[str]]:
        """The game drawn in a terminal ``width`` wide (or the least the board takes) as the demo draws it,
        with nothing in it that a seat keeps secret: the board, with the strip's ``lights`` (on ``profile``)
        where the game shows them, and the standings' lines."""
