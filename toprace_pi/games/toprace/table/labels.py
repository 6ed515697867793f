"""A printable A4 sheet of labels for the NFC tags: one for each speed card of a deck, each car token of
its edition and each pit stop card (three a seat).

Each label names what its tag is enrolled as (``card 17``: the words ``toprace-pi enrol`` writes onto the
tag), so a maker can stick the tags in the enrolment's order and see at a glance which card a stray tag
belongs to. The sheet is SVG in millimetres: print it at 100 % on sticker paper and cut along the grey lines.
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import escape

from toprace_pi.core.colour import is_light
from toprace_pi.games.toprace.rules.cards import Deck, MovementCard
from toprace_pi.games.toprace.rules.cars import Car, Joker
from toprace_pi.games.toprace.table.tags import PIT_CARDS_PER_SEAT, identity_key
from toprace_pi.render.svg import hex_colour

PAGE_MM = (210.0, 297.0)
MARGIN_MM = 9.0
#: Space for the sheet's title above the labels.
HEADER_MM = 14.0
COLUMNS = 6
LABEL_MM = ((PAGE_MM[0] - 2 * MARGIN_MM) / COLUMNS, 19.0)
#: A seat count the sheet prints pit stop labels for: the most players.
SEATS = 6
INK, CUT_LINE = "#222222", "#bbbbbb"


@dataclass(frozen=True)
class Swatch:
    """A coloured square on a label: a car (or the joker) and what is printed in it."""

    colour: Car | Joker
    text: str


@dataclass(frozen=True)
class Label:
    title: str
    #: The words of the tag's record and registry entry (``card 17``, ``car red``, ``pit 2``).
    key: str
    swatches: tuple[Swatch, ...] = ()
    #: A car token's label is a disc, cut out and stuck under the token.
    disc: Car | None = None


def deck_labels(deck: Deck, *, seats: int = SEATS) -> list[Label]:
    """The labels of every tag of a table with ``deck``: speed cards in number order (the enrolment's),
    then the car tokens in the edition's order, then three pit stop cards per seat."""
    labels = [_card_label(deck, number) for number in sorted(deck.numbers)]
    labels += [Label(car.name, identity_key(("car", car)), disc=car) for car in deck.cars]
    seat_of_each = [seat for seat in range(seats) for _ in range(PIT_CARDS_PER_SEAT)]
    labels += [Label(f"Pit stop, seat {seat + 1}", identity_key(("pit", seat))) for seat in seat_of_each]
    return labels


def _card_label(deck: Deck, number: int) -> Label:
    card = deck[number]
    if isinstance(card, MovementCard):
        swatches = tuple(Swatch(deck.cars.joker if car is None else car, str(value)) for car, value in card.moves)
        return Label(f"#{number}", identity_key(("card", number)), swatches)
    return Label(f"#{number} S/B", identity_key(("card", number)), tuple(Swatch(car, car.letter) for car in card.pair))


def labels_svg(labels: list[Label], title: str) -> str:
    """The sheet: ``title`` at the top, then the labels row by row; taller than A4 if they need it."""
    rows = -(-len(labels) // COLUMNS)
    height = max(PAGE_MM[1], 2 * MARGIN_MM + HEADER_MM + rows * LABEL_MM[1])
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{PAGE_MM[0]:g}mm" height="{height:g}mm" '
        f'viewBox="0 0 {PAGE_MM[0]:g} {height:g}" font-family="DejaVu Sans, Arial, sans-serif">',
        f'<rect width="{PAGE_MM[0]:g}" height="{height:g}" fill="white"/>',
        _text(MARGIN_MM, MARGIN_MM + 4, escape(title), 4.2, weight="bold"),
        _text(MARGIN_MM, MARGIN_MM + 9, "Print at 100 % on sticker paper, cut along the grey lines, stick each "
              "label over its tag. The small words are what toprace-pi enrol writes onto the tag.", 2.6),
    ]
    for n, label in enumerate(labels):
        x = MARGIN_MM + (n % COLUMNS) * LABEL_MM[0]
        y = MARGIN_MM + HEADER_MM + (n // COLUMNS) * LABEL_MM[1]
        parts.append(_label(label, x, y))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _label(label: Label, x: float, y: float) -> str:
    width, height = LABEL_MM
    parts = [f'<g transform="translate({x:.2f} {y:.2f})">',
             f'<rect width="{width:.2f}" height="{height:g}" fill="none" stroke="{CUT_LINE}" stroke-width="0.2"/>']
    if label.disc is not None:
        parts += [_disc(label.disc, 8.5, height / 2, 7.0), _text(17.5, 8.5, escape(label.title), 3.4, weight="bold"),
                  _text(17.5, 13.0, "car token", 2.4)]
    else:
        parts.append(_text(2.0, 6.0, escape(label.title), 4.6 if label.title.startswith("#") else 3.0,
                           weight="bold"))
        parts += [_swatch(swatch, 2.0 + 6.8 * n, 8.2) for n, swatch in enumerate(label.swatches)]
    parts += [_text(width - 1.5, height - 1.5, escape(label.key), 2.2, anchor="end"), "</g>"]
    return "\n".join(parts)


def _swatch(swatch: Swatch, x: float, y: float) -> str:
    return (f'<rect x="{x:.2f}" y="{y:g}" width="6.2" height="6.2" rx="0.8" fill="{hex_colour(swatch.colour.rgb)}" '
            f'stroke="{INK}" stroke-width="0.2"/>'
            + _text(x + 3.1, y + 4.6, escape(swatch.text), 3.8, weight="bold", anchor="middle",
                    fill=_ink(swatch.colour)))


def _disc(car: Car, cx: float, cy: float, radius: float) -> str:
    return (f'<circle cx="{cx:g}" cy="{cy:g}" r="{radius:g}" fill="{hex_colour(car.rgb)}" stroke="{INK}" '
            f'stroke-width="0.25"/>'
            + _text(cx, cy + 2.2, escape(car.letter), 6.0, weight="bold", anchor="middle", fill=_ink(car)))


def _ink(colour: Car | Joker) -> str:
    """Dark ink on a light colour, white on a dark one; the joker's colour counts like a car's."""
    return INK if is_light(colour.rgb) else "white"


def _text(x: float, y: float, text: str, size: float, *, weight: str = "normal", anchor: str = "start",
          fill: str = INK) -> str:
    return (f'<text x="{x:.2f}" y="{y:.2f}" font-size="{size:g}" font-weight="{weight}" text-anchor="{anchor}" '
            f'fill="{fill}">{text}</text>')
