"""What a game brings to the table: everything of the table that depends on its rules.

The controller, the run loop, the journal and the devices know no game. A game's side answers four
narrow protocols, one a concern, so that each part of the table asks only what it needs:

* :class:`TableInput`: how the decision now is taken (an :class:`~toprace_pi.table.modes.InputMode`
  of several inputs, a NEXT/OK :class:`~toprace_pi.table.modes.Choice`, a tag laid, PASS, UNDO);
* :class:`TableWords`: what the table says (its prompt, the events, a refused tag, a step taken back);
* :class:`TableLights`: the LEDs under the board, the tags and keys of the game, and the terminal drawing;
* :class:`TablePages`: the game on the table's web pages.

:class:`GameTable` is all four, as the controller needs it; :class:`TableSide` is the base a game's side
starts from, with the answers most games give, so a game writes only what differs. A game registers its
side with its :class:`~toprace_pi.core.registry.GameEntry`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, Protocol, TypeVar

from toprace_pi.core.colour import RGB
from toprace_pi.hardware.keyboard import KeyMap
from toprace_pi.hardware.profile import Profile
from toprace_pi.hardware.tags import TagBook, Vocabulary
from toprace_pi.render.ansi import ColourMode
from toprace_pi.table.modes import Choice, Identity, InputMode, Step
from toprace_pi.table.pages import GamePage

#: What the table says when UNDO finds no step to take back.
NOTHING_TO_UNDO = "there is nothing to take back"

#: The game a side is for (its rules engine's state).
G = TypeVar("G")
G_contra = TypeVar("G_contra", contravariant=True)


class GameView(Protocol):
    """Composes the LED strip's frames for one board (its ``profile``: where each LED lies)."""

    profile: Profile

    def frame(self, game: Any, choice: Choice | None, now: float) -> list[RGB]: ...


class TableInput(Protocol[G_contra]):
    """How the table takes the decision now: by an entry, NEXT/OK, a tag, PASS; and what UNDO may take back."""

    def entry(self, game: G_contra, now: float, *, dealt_by_hand: bool) -> InputMode | None:
        """The mode of several inputs the decision now needs, if it is one."""

    def choice(self, game: G_contra) -> Choice | None:
        """The NEXT/OK pick of the decision now, if it has one (and no entry)."""

    def tag(self, game: G_contra, identity: Identity) -> Step:
        """A tag laid when no entry is open (a speed card played, a car token laid)."""

    def passing(self, game: G_contra) -> Sequence[Any] | None:
        """What PASS does now, if anything."""

    def is_deal(self, game: G_contra) -> bool:
        """Whether the decision now is the deal a machine's dealer makes (the demo's)."""

    def undo_refusal(self, action: Any) -> str | None:
        """Why UNDO may not take ``action`` back, in words the table says (never what chance made,
        such as the deal; nothing a seat chose in secret, which the table cannot tell who undoes);
        ``None`` when it may."""


class TableWords(Protocol[G_contra]):
    """What the table says, and when it plays a finish's fanfare."""

    def prompt(self, game: G_contra, choice: Choice | None) -> str:
        """What the table waits for now, in words (no entry open)."""

    def announcement(self, event: Any, names: tuple[str, ...]) -> str | None:
        """The sentence the table speaks for an event, if it is worth one."""

    def unknown_tag(self, record: str | None, game: G_contra) -> str:
        """Why a tag that names nothing of the game is refused (another edition's token, not enrolled)."""

    def taken_back(self, action: Any) -> str:
        """What the table says when UNDO took ``action`` back (without telling a secret)."""

    def finish_place(self, event: Any) -> int | None:
        """The place of a finish the event tells (the table plays its fanfare), else ``None``."""


class TableLights(Protocol[G_contra]):
    """The board under the LEDs, the game's tags and keys, and the game drawn in a terminal."""

    def view(self, profile: Profile) -> GameView:
        """The LED view of the game on a board profile."""

    def board_profile(self, profile: str | None, game: G_contra) -> Profile:
        """The board profile (the LEDs under the board) ``[files] profile`` names, else the board's own."""

    def vocabulary(self, game: G_contra) -> Vocabulary[Any]:
        """What the keys of the tag registry stand for."""

    def key_map(self, game: G_contra) -> KeyMap:
        """What the keys of the keyboard lay."""

    def tags(self) -> TagBook[Any]:
        """The enrolment walks of the table's setup."""

    def ignores(self, reader: str, identity: Identity, game: G_contra) -> bool:
        """Whether a tag read on ``reader`` is no new input (a card lying on a pile read again)."""

    def terminal(self, game: G_contra, profile: Profile, lights: Sequence[RGB], *, colour: ColourMode | bool,
                 width: int) -> tuple[str, list[str]]:
        """The game drawn in a terminal ``width`` wide (or the least the board takes) as the demo draws it,
        with nothing in it that a seat keeps secret: the board, with the strip's ``lights`` (on ``profile``)
        where the game shows them, and the standings' lines."""


class TablePages(Protocol):
    """The game on the table's web pages."""

    def page(self) -> GamePage:
        """What the pages show of the game and what a seat may do from its page."""

    def pages_open(self) -> None:
        """The seats have their own pages now: what only one seat may know is shown there, never said aloud."""


class GameTable(TableInput[G_contra], TableWords[G_contra], TableLights[G_contra], TablePages, Protocol[G_contra]):
    """A game's whole side of the table, as the controller asks it."""


class TableSide(Generic[G]):
    """The base of a game's side: the answers of a game that has no NEXT/OK pick and no PASS of its own,
    no machine's deal, no finish fanfare, nothing said to one seat alone, and lets UNDO take back anything."""

    def choice(self, game: G) -> Choice | None:
        return None

    def passing(self, game: G) -> Sequence[Any] | None:
        return None

    def is_deal(self, game: G) -> bool:
        return False

    def undo_refusal(self, action: Any) -> str | None:
        return None

    def finish_place(self, event: Any) -> int | None:
        return None

    def pages_open(self) -> None:
        """Nothing said aloud is meant for one seat alone."""
