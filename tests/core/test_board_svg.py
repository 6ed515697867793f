"""Every game's live board, as a spectator's page shows it: a static SVG of the board fetched once
(``board_svg``) and the pieces placed on it each step (``pieces``), both from what a spectator may
see (``game.seen_by(None)``), and the picture of a step that ``replay --svg-dir`` writes (``picture``)."""

from __future__ import annotations

import json

import pytest
from boards import drawing, drawn_pieces, in_view, overlapping, parse, random_game, spaces, view_box

from toprace_pi.core import registry

GAMES = registry.game_names()
#: Steps of a random game looked at closely: the first ones, then now and then, and the last.
FIRST, EVERY = 30, 17


def sample(name: str, variant: str, seed: int):
    """(step, spectator's view) for the steps of a random game looked at closely, the end included."""
    for n, game in enumerate(random_game(name, variant, seed)):
        if n < FIRST or n % EVERY == 0 or game.is_over:
            yield n, game.seen_by(None)


def last(name: str, seed: int):
    """A random game of the game's first variant played to its end."""
    *_, game = random_game(name, registry.get(name).variants()[0], seed)
    return game


@pytest.mark.parametrize("name", GAMES)
def test_the_board_is_a_standalone_picture_with_each_space_once_and_no_piece(name):
    game = next(random_game(name, registry.get(name).variants()[0], 0)).seen_by(None)
    svg = drawing(name).board_svg(game)
    root = parse(svg)
    left, top, width, height = view_box(root)
    assert width > 0 and height > 0 and (root.get("width"), root.get("height")) != (None, None)
    found = spaces(root)
    assert sorted(found) == list(range(len(found))) and len(found) >= 16  # 0 to the last, each once
    assert drawn_pieces(root) == []
    assert "href" not in svg and "<image" not in svg and "url(http" not in svg  # nothing fetched from elsewhere


@pytest.mark.parametrize(("name", "variant"), [(g, v) for g in GAMES for v in registry.get(g).variants()[:2]])
def test_pieces_stay_in_the_picture_apart_from_each_other_through_a_whole_game(name, variant):
    svg = drawing(name)
    box, most = None, 0
    for step, seen in sample(name, variant, 1):
        box = box or view_box(parse(svg.board_svg(seen)))
        found = svg.pieces(seen)
        most = max(most, len(found))
        assert [p for p in found if not in_view(p, box)] == [], f"step {step}"
        assert overlapping(found) == [], f"step {step}"
        assert all(1 <= len(p.label) <= 2 and p.colour.startswith("#") and len(p.colour) == 7 for p in found)
        assert json.loads(json.dumps([p.to_dict() for p in found])) == [p.to_dict() for p in found]
    assert seen.is_over and most >= len(seen.names)  # a piece a seat at least (Top Race: a car each)


@pytest.mark.parametrize("name", GAMES)
def test_a_picture_is_the_board_with_its_pieces_drawn_and_the_caption_under_them(name):
    svg = drawing(name)
    seen = last(name, 2).seen_by(None)
    root = parse(svg.picture(seen, ["First line", "second <line>"]))
    drawn = drawn_pieces(root)
    found = svg.pieces(seen)
    assert [g.find("{http://www.w3.org/2000/svg}title").text for g in drawn] == [p.title for p in found]
    captions = [t for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("class") == "caption"]
    assert [t.text for t in captions] == ["First line", "second <line>"]
    _, top, _, height = view_box(root)
    board_bottom = max(p.y + p.r for p in found)
    assert all(board_bottom < float(t.get("y")) <= top + height for t in captions)  # under the board, inside
    assert sorted(spaces(root)) == sorted(spaces(parse(svg.board_svg(seen))))


@pytest.mark.parametrize("name", GAMES)
def test_the_board_and_pieces_read_nothing_a_spectator_may_not_see(name):
    """A spectator's view refuses private attributes and what the game hides from every seat: drawing
    from it proves the drawing reads none of them (it would raise), and it draws the same as the game."""
    game = last(name, 3)
    seen, svg = game.seen_by(None), drawing(name)
    assert svg.board_svg(seen) == svg.board_svg(game) and svg.pieces(seen) == svg.pieces(game)
    for hidden in ("_secret", "apply", *getattr(game, "SEAT_HIDDEN", ())):  # the view does refuse them
        with pytest.raises(AttributeError):
            getattr(seen, hidden)
