"""Track layouts, speed-card decks and LED board profiles shipped as TOML files, and their loaders.

This is the only place that reads them: the rules engine receives validated
:class:`~toprace_pi.games.toprace.rules.track.Track` and :class:`~toprace_pi.games.toprace.rules.cards.Deck`
objects. Every loader reports all problems of a file at once in one
:class:`~toprace_pi.errors.DataError` naming the file.

Track file format (see ``tracks/speed-street.toml`` for a full example)::

    [track]
    name = "Speed Street"
    lanes = 3
    finish_line = 60.0            # position of the finish line along the track
    tip_lines = [15.0, 30.0, 45.0]
    reconstructed = true          # the layout is not measured from a real board
    note = "..."
    spaces = [                    # still inside [track]
      # id, lane (0 = leftmost in the direction of travel), front edge position,
      # the spaces a car may step to ("finish" across the line), optional start
      # number 1-6, optional curve = "left"/"right", drawing position x, y (space
      # units) and heading (degrees, 0 = east, counter-clockwise).
      { id = "a1", lane = 0, front = 1.0, next = ["a2", "b2"], start = 1, x = 0.0, y = 0.0, heading = 0.0 },
    ]

Deck file format (see ``decks/standard.toml`` for a full example): the 48 cards
and the edition they belong to, since the game was printed with other car colours
(``decks/older-edition.toml``)::

    [deck]
    name = "Top Race (reconstructed)"
    reconstructed = true
    note = "..."
    cars = [                      # the edition's six cars, in the order used everywhere
      # id: the car's word in cards, notation and tag records (lower-case letters,
      # "lightblue"); name: what people read ("Light blue"); rgb: its display colour
      # (terminal, SVG, LEDs); letter: its capital letter on the terminal board.
      { id = "blue", name = "Blue", rgb = [30, 100, 255], letter = "B" },
    ]
    joker = { id = "white", name = "White", rgb = [255, 255, 255] }
    sprint_breakdown_pairs = [["blue", "red"], ["yellow", "black"], ["purple", "green"]]
    cards = [
      { number = 1, moves = ["red 6", "yellow 4", "black 2", "blue 1"] },   # car ids or the joker's id
      { number = 46, sprint_breakdown = ["blue", "red"] },                  # one of the pairs
    ]

Board profiles (which LED lies under which space) are loaded by
:func:`toprace_pi.games.toprace.table.board.load_profile`.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING

from toprace_pi.datafiles import read_toml, shipped_names
from toprace_pi.games.toprace.rules.cards import Deck
from toprace_pi.games.toprace.rules.track import Track

if TYPE_CHECKING:
    from toprace_pi.games.toprace.rules.variants.tips import TipTable

DEFAULT_TRACK = "speed-street"
DEFAULT_DECK = "standard"
DEFAULT_TIP_TABLE = "standard"


def track_names() -> list[str]:
    """The shipped tracks, by file name (``"speed-street"``...)."""
    return shipped_names(_folder("tracks"))


def deck_names() -> list[str]:
    """The shipped decks, by file name (``"older-edition"``, ``"standard"``)."""
    return shipped_names(_folder("decks"))


def load_track(name_or_path: str | Path = DEFAULT_TRACK) -> Track:
    """A shipped track by name (``"lake-lane"``) or a track file by path.

    A track file's :attr:`~Track.slug` is its absolute path, so a game recorded on it (a journal, a saved
    game) loads it again from any working directory."""
    source, document = read_toml(_folder("tracks"), name_or_path, track_names())
    slug = str(name_or_path) if str(name_or_path) in track_names() else str(Path(source).resolve())
    return Track.from_dict(document, source, slug=slug)


def load_deck(name_or_path: str | Path = DEFAULT_DECK) -> Deck:
    """A shipped deck by name (``"standard"``, ``"older-edition"``) or a deck file by path, with its edition's cars."""
    source, document = read_toml(_folder("decks"), name_or_path, deck_names())
    return Deck.from_dict(document, source)


def tip_table_names() -> list[str]:
    return shipped_names(_folder("tips"))


def load_tip_table(name_or_path: str | Path = DEFAULT_TIP_TABLE) -> TipTable:
    """The Tips variant's table: shipped (``"standard"``) or a file by path."""
    from toprace_pi.games.toprace.rules.variants.tips import TipTable

    source, document = read_toml(_folder("tips"), name_or_path, tip_table_names())
    return TipTable.from_dict(document, source)


def profile_names() -> list[str]:
    """The tracks with a shipped LED profile, by track file name."""
    return shipped_names(_folder("profiles"))


def read_document(kind: str, name_or_path: str | Path, shipped: list[str]) -> tuple[str, dict]:
    """A shipped TOML file of ``kind`` (a folder here) by name, or any TOML file by path: its source and content.

    For loaders that live above this package, such as the board profiles' in
    :mod:`toprace_pi.games.toprace.table.board`.
    """
    return read_toml(_folder(kind), name_or_path, shipped)


def _folder(kind: str) -> Traversable:
    return resources.files(__package__).joinpath(kind)
