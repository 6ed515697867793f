"""The printable sheet of tag labels: one label per tag the enrolment asks for, in its order, each naming
the tag's record words and showing the card's moves in its cars' colours; all on one A4 page."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from toprace_pi.cli import main
from toprace_pi.games.toprace.data import load_deck
from toprace_pi.games.toprace.rules.cards import MovementCard
from toprace_pi.games.toprace.table.labels import LABEL_MM, MARGIN_MM, PAGE_MM, SEATS, deck_labels, labels_svg

SVG = "{http://www.w3.org/2000/svg}"


def groups(svg: str) -> list[ET.Element]:
    return ET.fromstring(svg).findall(f"{SVG}g")


@pytest.mark.parametrize("name", ["standard", "older-edition"])
def test_one_label_per_tag_in_the_enrolments_order(name):
    deck = load_deck(name)
    wanted = ([f"card {n}" for n in sorted(deck.numbers)] + [f"car {car.id}" for car in deck.cars]
              + [f"pit {seat}" for seat in range(1, SEATS + 1) for _ in range(3)])
    assert wanted[0] == "card 1" and wanted[48] == f"car {deck.cars[0].id}" and len(wanted) == 72
    labels = deck_labels(deck)
    assert [label.key for label in labels] == wanted
    svg = labels_svg(labels, "test")
    assert [g.findall(f"{SVG}text")[-1].text for g in groups(svg)] == wanted


def test_a_card_label_shows_its_moves_in_its_cars_colours():
    deck = load_deck("older-edition")
    card = next(c for c in (deck[n] for n in deck.numbers) if isinstance(c, MovementCard) and c.has_joker)
    label = next(label for label in deck_labels(deck) if label.title == f"#{card.number}")
    colours = [deck.cars.joker.rgb if car is None else car.rgb for car, _ in card.moves]
    assert [(s.colour.rgb, s.text) for s in label.swatches] == [(rgb, str(v)) for rgb, (_, v) in
                                                                 zip(colours, card.moves, strict=True)]
    group = groups(labels_svg([label], "t"))[0]
    fills = [rect.get("fill") for rect in group.findall(f"{SVG}rect")[1:]]
    assert fills == ["#{:02x}{:02x}{:02x}".format(*rgb) for rgb in colours]


def test_the_whole_sheet_fits_one_a4_page():
    svg = ET.fromstring(labels_svg(deck_labels(load_deck()), "t"))
    assert svg.get("width") == f"{PAGE_MM[0]:g}mm" and svg.get("height") == f"{PAGE_MM[1]:g}mm"
    bottom = max(float(g.get("transform", "").split()[1].rstrip(")")) for g in svg.findall(f"{SVG}g"))
    assert bottom + LABEL_MM[1] <= PAGE_MM[1] - MARGIN_MM


def test_deck_labels_writes_the_sheet(capsys, tmp_path):
    out = tmp_path / "labels.svg"
    assert main(["deck", "labels", "--svg", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote {out}: 72 labels (48 speed cards, 6 car tokens, 18 pit stop cards)\n"
    assert len(groups(out.read_text("utf-8"))) == 72
