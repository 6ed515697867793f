"""AUTORACE's board as a standalone SVG picture: the track 0 to the finish as a serpentine of rows,
twelve spaces a row, the first row left to right, the next right to left, and so on, so that the
objectives (every twelfth number on the shipped board) end the rows. The START (space 0, where every
figure stands at first) is a tall box left of the first two rows; a road under the spaces shows the
way from each to the next.

A filling station's number stands in a circle and an objective's in a star, as on the printed board
(the circled and starred numbers), with the bonus still to win there at the space's foot: the printed
bonus and any rolled on to it; once won, the star is dimmed and the foot says "paid". The serpentine
is this program's own: the rules give the numbers, stations and bonuses, not the board's shape.

Everything is read from the game's public attributes, so it draws ``game.seen_by(None)`` (a
spectator's view) as well as the game: no sealed card can reach the picture.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from toprace_pi.games.autorace.render.palette import OBJECTIVE, STATION, seat_suits, suit_letters
from toprace_pi.games.autorace.render.terminal import round_line
from toprace_pi.games.autorace.rules import Autorace, Board
from toprace_pi.games.autorace.rules.events import dollars
from toprace_pi.render.pieces import Piece, Point, crowd, piece_svg
from toprace_pi.render.playback import told
from toprace_pi.render.svg import caption_height, caption_lines, css, document, el, points

#: Spaces a row, and the size of a space and of the room between two, in the picture's units.
COLUMNS = 12
CELL_W, CELL_H = 72.0, 104.0
GAP_X, GAP_Y = 12.0, 14.0
#: The bands at the top of a space (its number) and at its foot (its bonus, or START); figures stand between.
BAND, FOOT = 26.0, 18.0
#: Room kept between a crowd of figures and the edge of its space.
PAD = 4.0
MARGIN, HEADER = 20.0, 78.0
#: A figure's radius (smaller where a crowd must fit on one space).
FIGURE = 16.0
BACKGROUND, ROAD, EDGE = "#eef4ea", "#c9c4b5", "#8a8578"
#: A space's fill: a plain one, a filling station, an objective whose bonus is still to win.
PLAIN_FILL, STATION_FILL, OBJECTIVE_FILL = "#fbf8ef", "#e3f6fb", "#fff2d9"
#: The ink of a bonus and of its star's rim, and of both once the bonus is paid.
BONUS_INK, DIMMED = "#8a5a00", "#a8a8a8"
LEGEND = ("Circled: filling station (a banner there draws a card back). Starred: objective, with the bonus "
          "still to win. Chequered: the finish.")


def board_svg(game: Autorace) -> str:
    """The board without its figures: what a live page fetches once (bonuses as the game stands)."""
    return _svg(game, [], ())


def picture(game: Autorace, caption: Sequence[str] = ()) -> str:
    """The board with every figure on it and ``caption`` under it: one step of a replay."""
    return _svg(game, pieces(game), caption)


def pieces(game: Autorace) -> list[Piece]:
    """Every figure of the series on its space, in seat order (a seat out of the series has none),
    figures sharing a space side by side; one out of the race faded."""
    layout = _Layout.of(game.board)
    seats = [seat for seat in range(len(game.names)) if not game.dropped[seat]]
    found: dict[int, Piece] = {}
    for space in sorted({game.positions[seat] for seat in seats}):
        here = [seat for seat in seats if game.positions[seat] == space]
        centre, room = layout.standing(space)
        radius, spots = crowd(centre, len(here), FIGURE, room)
        found.update({seat: _figure(game, seat, spot, radius) for seat, spot in zip(here, spots, strict=True)})
    return [found[seat] for seat in seats]


def caption(game: Autorace, said: Sequence[str]) -> list[str]:
    """The lines under a picture: the game and round, each seat's money, then ``said``: what happened
    since the previous picture, in the events' own sentences."""
    money = " · ".join(f"{name} {dollars(game.money[seat])}" for seat, name in enumerate(game.names))
    return told([round_line(game.view(None)), money], said)


def _figure(game: Autorace, seat: int, at: Point, radius: float) -> Piece:
    suits = seat_suits(game.board, len(game.names))
    standing = "" if game.in_race[seat] else ", out of the race"
    if game.in_race[seat] and game.missing[seat]:
        standing = ", misses this round"
    title = f"{game.names[seat]}'s {suits[seat].name} figure on {game.positions[seat]}{standing}, " \
            f"{dollars(game.money[seat])}"
    letter = suit_letters(suits)[seat]
    return Piece.of(at, radius, suits[seat].rgb, letter, title, faded=not game.in_race[seat])


@dataclass(frozen=True, slots=True)
class _Layout:
    """Where each space of a board of ``finish`` spaces (and the START) is drawn."""

    finish: int

    @classmethod
    def of(cls, board: Board) -> _Layout:
        return cls(board.finish)

    @property
    def rows(self) -> int:
        return max(1, math.ceil(self.finish / COLUMNS))

    def box(self, space: int) -> tuple[float, float, float, float]:
        """``(left, top, width, height)`` of a space: the START spans two rows in a column of its own."""
        if space == 0:
            return MARGIN, HEADER, CELL_W, CELL_H * 2 + GAP_Y if self.rows > 1 else CELL_H
        row, step = divmod(space - 1, COLUMNS)
        column = COLUMNS - 1 - step if self.runs_left(space) else step
        return MARGIN + (column + 1) * (CELL_W + GAP_X), HEADER + row * (CELL_H + GAP_Y), CELL_W, CELL_H

    def runs_left(self, space: int) -> bool:
        """Whether the row of ``space`` (from 1) runs right to left: every second row does."""
        return (space - 1) // COLUMNS % 2 == 1

    def centre(self, space: int) -> Point:
        left, top, width, height = self.box(space)
        return left + width / 2, top + height / 2

    def standing(self, space: int) -> tuple[Point, Point]:
        """Where figures stand on a space (between its bands), and how far from there they may reach
        across and up or down."""
        left, top, width, height = self.box(space)
        room = (width / 2 - PAD, (height - BAND - FOOT) / 2 - PAD)
        return (left + width / 2, top + BAND + (height - BAND - FOOT) / 2), room

    def size(self, caption_lines: int) -> tuple[float, float]:
        width = 2 * MARGIN + (COLUMNS + 1) * (CELL_W + GAP_X) - GAP_X
        return width, HEADER + self.rows * (CELL_H + GAP_Y) - GAP_Y + MARGIN + caption_height(caption_lines)


def _svg(game: Autorace, figures: Sequence[Piece], caption: Sequence[str]) -> str:
    board = game.board
    layout = _Layout.of(board)
    width, height = layout.size(len(caption))
    body = [
        *_heading(board),
        _road(layout),
        *(_space(game, layout, space) for space in range(board.finish + 1)),
        *caption_lines(MARGIN, height - 12, caption),
        *(piece_svg(piece) for piece in figures),
    ]
    return document((0, 0, width, height), board.name, body, background=BACKGROUND)


def _heading(board: Board) -> list[str]:
    title = {"class": "title", "x": MARGIN, "y": 32, "font-size": 24, "font-weight": "bold"}
    legend = {"class": "legend", "x": MARGIN, "y": 56, "font-size": 14, "fill": "#444"}
    return [el("text", title, f"{board.name}: 0 to {board.finish}"), el("text", legend, LEGEND)]


def _road(layout: _Layout) -> str:
    """A broad line through the spaces in order, the way the figures go (it shows between them)."""
    spots = [layout.centre(space) for space in range(layout.finish + 1)]
    start_x, _ = spots[0]
    spots[0] = (start_x, spots[1][1])  # from the START's side, level with the first row
    return el("polyline", {"class": "road", "points": points(spots), "fill": "none",
                           "stroke": ROAD, "stroke-width": 26, "stroke-linejoin": "round"})


def _space(game: Autorace, layout: _Layout, space: int) -> str:
    """The space's box, its number (circled at a station, starred at an objective) and its bonus."""
    board = game.board
    left, top, width, height = layout.box(space)
    fill = PLAIN_FILL
    if space in board.stations:
        fill = STATION_FILL
    elif space in board.bonuses and space not in game.paid:
        fill = OBJECTIVE_FILL
    box = {"class": "space", "data-space": space, "x": left, "y": top, "width": width, "height": height,
           "rx": 6.0, "fill": fill, "stroke": EDGE, "stroke-width": 1.5}
    parts = [el("rect", box), *_number(game, space, left + 20, top + BAND / 2 + 3)]
    if space in board.bonuses:
        parts.append(_bonus(game, space, left + width / 2, top + height - 6))
    if space == 0:
        parts.append(_word("START", left + width / 2, top + height - 6))
    if space == board.finish:
        parts += _chequers(layout, left, top, height)
    return "\n".join(parts)


def _number(game: Autorace, space: int, x: float, y: float) -> list[str]:
    """The space's number, in a circle at a filling station and in a star at an objective."""
    board, parts = game.board, []
    if space in board.stations:
        parts.append(el("circle", {"class": "station", "cx": x, "cy": y, "r": 14.0, "fill": "#ffffff",
                                   "stroke": css(STATION), "stroke-width": 3}))
    elif space in board.bonuses:
        paid = space in game.paid
        parts.append(el("polygon", {"class": "objective", "points": _star(x, y + 1, 21.0, 11.5),
                                    "fill": DIMMED if paid else css(OBJECTIVE), "stroke": "#777" if paid else BONUS_INK,
                                    "stroke-width": 1}))
    size = 16 if space in board.bonuses else 19
    label = {"class": "space-number", "x": x, "y": y + 0.35 * size, "font-size": size if space < 100 else 12,
             "font-weight": "bold", "text-anchor": "middle", "fill": "#222"}
    return [*parts, el("text", label, str(space))]


def _bonus(game: Autorace, space: int, x: float, y: float) -> str:
    """The bonus still to win at an objective (rolled-on bonuses included), or "paid" once won."""
    paid = space in game.paid
    text = "paid" if paid else dollars(game.bonuses[space])
    label = {"class": "bonus paid" if paid else "bonus", "data-bonus": space, "x": x, "y": y,
             "font-size": 13 if paid else 17, "font-weight": "bold", "text-anchor": "middle",
             "fill": DIMMED if paid else BONUS_INK}
    return el("text", label, text)


def _star(x: float, y: float, outer: float, inner: float) -> str:
    """A five-pointed star's corners round ``(x, y)``, a point at the top."""
    corners = []
    for n in range(10):
        angle, reach = -math.pi / 2 + n * math.pi / 5, inner if n % 2 else outer
        corners.append((x + reach * math.cos(angle), y + reach * math.sin(angle)))
    return points(corners)


def _word(text: str, x: float, y: float) -> str:
    return el("text", {"class": "space-word", "x": x, "y": y, "font-size": 14, "font-weight": "bold",
                       "text-anchor": "middle", "fill": "#555"}, text)


def _chequers(layout: _Layout, left: float, top: float, height: float) -> list[str]:
    """The finish line: a chequered strip, two squares wide, in the gap just past the finish space
    (on the side the last row runs to)."""
    side = GAP_X / 2
    end = left - GAP_X if layout.runs_left(layout.finish) else left + CELL_W
    return [el("rect", {"class": "finish", "x": end + column * side, "y": top + row * side, "width": side,
                        "height": side, "fill": "#111"})
            for row in range(round(height / side)) for column in range(2) if (row + column) % 2 == 0]
