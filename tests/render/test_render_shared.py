"""The pictures every game draws alike: SVG written by hand, the one drawing of a piece, pieces that
share a spot, and a game told in pictures."""

from __future__ import annotations

import itertools
import json
import math
import re
import xml.etree.ElementTree as ET

import pytest

from toprace_pi.render.pieces import GAP, Piece, crowd, piece_svg
from toprace_pi.render.playback import INDEX, MAX_EVENT_LINES, Playback, told
from toprace_pi.render.svg import caption_lines, document, el, hex_colour, ink, num

SVG = "{http://www.w3.org/2000/svg}"


def test_numbers_are_rounded_and_text_is_escaped():
    assert [num(v) for v in (1.0, 2.5, 3.14159, -0.001, 10.0)] == ["1", "2.5", "3.14", "0", "10"]
    assert el("text", {"x": 1.005, "title": 'a "b" <c>'}, "R & D") == \
        '<text x="1" title="a &quot;b&quot; &lt;c&gt;">R &amp; D</text>'
    assert hex_colour((255, 10, 0)) == "#ff0a00"
    assert (ink((255, 210, 0)), ink((30, 90, 255)), ink((0, 0, 0))) == ("#000000", "#ffffff", "#ffffff")


def test_a_document_is_standalone_and_sized_by_its_view_box():
    svg = document((-10, -20, 300, 200.5), "A & B", [el("rect", {"width": 5, "height": 5}),
                                                     *caption_lines(0, 150, ["first", "second"])])
    root = ET.fromstring(svg)
    assert root.get("viewBox") == "-10 -20 300 200.5" and (root.get("width"), root.get("height")) == ("300", "200.5")
    assert root.find(f"{SVG}title").text == "A & B"
    lines = [t for t in root.iter(f"{SVG}text") if t.get("class") == "caption"]
    assert [(t.text, t.get("font-weight"), float(t.get("y"))) for t in lines] == \
        [("first", "bold", 130.0), ("second", "normal", 150.0)]
    assert "href" not in svg and "http://" not in svg.replace("http://www.w3.org/2000/svg", "")


def test_a_piece_is_a_titled_disc_with_its_label_centred_on_it():
    piece = Piece.of((100.0, 50.0), 20.0, (255, 210, 0), "Y", "Anna's yellow car, 2nd")
    assert (piece.colour, piece.ink, piece.faded) == ("#ffd200", "#000000", False)
    group = ET.fromstring(piece_svg(piece).replace("<g ", f'<g xmlns="{SVG[1:-1]}" ', 1))
    assert group.get("class") == "piece" and group.get("opacity") is None
    assert group.find(f"{SVG}title").text == "Anna's yellow car, 2nd"
    circle, label = group.find(f"{SVG}circle"), group.find(f"{SVG}text")
    assert {k: circle.get(k) for k in ("cx", "cy", "r", "fill", "stroke")} == \
        {"cx": "100", "cy": "50", "r": "20", "fill": "#ffd200", "stroke": "#000000"}
    assert label.text == "Y" and label.get("x") == "100" and label.get("text-anchor") == "middle"
    assert float(label.get("font-size")) == pytest.approx(22) and label.get("font-weight") == "bold"
    assert 50 < float(label.get("y")) < 50 + 20  # the baseline a little below the centre: the letter sits on it


def test_a_faded_piece_is_drawn_lighter_and_its_dict_is_plain_json():
    piece = Piece.of((1.234567, 2.0), 5.0, (30, 90, 255), "B", "Ben's blue figure, out of the race", faded=True)
    group = piece_svg(piece)
    assert 'class="piece faded"' in group and 'opacity="0.55"' in group
    data = piece.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data == {"x": 1.23, "y": 2.0, "r": 5.0, "colour": "#1e5aff", "label": "B",
                    "title": "Ben's blue figure, out of the race", "ink": "#ffffff", "faded": True}


@pytest.mark.parametrize("count", range(1, 9))
def test_pieces_sharing_a_spot_stand_apart_within_its_room(count):
    radius, spots = crowd((10.0, 20.0), count, 12.0, (30.0, 20.0))
    assert len(spots) == count and 0 < radius <= 12.0
    for a, b in itertools.combinations(spots, 2):
        assert math.dist(a, b) >= 2 * radius + GAP - 1e-9
    assert all(abs(x - 10) + radius <= 30 + 1e-9 and abs(y - 20) + radius <= 20 + 1e-9 for x, y in spots)
    if count <= 2:
        assert radius == 12.0  # two side by side keep their size; only a crowd shrinks


def test_a_crowd_takes_the_shape_of_its_room():
    """Five in a tall narrow box stand in two columns, not in one long row: they stay nearly as large."""
    radius, spots = crowd((0.0, 0.0), 5, 16.0, (32.0, 57.0))
    assert radius == 15.5 and len({y for _, y in spots}) == 3  # rows of two, the last one centred
    radius, spots = crowd((0.0, 0.0), 3, 16.0, (60.0, 16.0))
    assert radius == 16.0 and len({y for _, y in spots}) == 1  # a wide, low one: in a row


def test_a_caption_tells_at_most_a_few_sentences_and_counts_the_rest():
    said = [f"event {n}" for n in range(10)]
    lines = told(["Game 1"], said)
    assert lines[0] == "Game 1" and len(lines) == 1 + MAX_EVENT_LINES
    assert lines[-1] == f"... and {10 - MAX_EVENT_LINES + 1} more"
    assert told(["head"], said[:2]) == ["head", "event 0", "event 1"]


def test_playback_writes_a_picture_a_step_and_the_page_that_plays_them(tmp_path):
    events = ["a", "b"]
    with Playback(tmp_path / "out", "A & B") as pictures:
        assert pictures.news(events) == ["a", "b"]
        pictures.write(document((0, 0, 10, 10), "one", []), ["first", "a, b"])
        events += ["c"]
        assert pictures.news(events) == ["c"]
        assert pictures.news(events[:1]) == ["a"]  # rebuilt shorter (an undo): all of it again
        pictures.write(document((0, 0, 10, 10), "two", []), ["second"])
    folder = tmp_path / "out"
    assert sorted(p.name for p in folder.iterdir()) == ["frame-0001.svg", "frame-0002.svg", INDEX]
    page = (folder / INDEX).read_text("utf-8")
    data = json.loads(re.search(r'id="frame-data">(.*?)</script>', page, re.S)[1])
    assert data == [{"file": "frame-0001.svg", "caption": ["first", "a, b"]},
                    {"file": "frame-0002.svg", "caption": ["second"]}]
    assert "<title>A &amp; B: the game step by step</title>" in page
