"""AUTORACE's board as a picture: the track 0 to 72 snaking in rows, the stations and objectives
marked with their bonuses, and the figures standing on their spaces through whole random series."""

from __future__ import annotations

import random

import pytest
from boards import SVG, drawn_pieces, outline, parse, spaces

from toprace_pi.games.autorace.render.svg import CELL_H, CELL_W, GAP_X, GAP_Y, board_svg, picture, pieces
from toprace_pi.games.autorace.rules import Autorace

from .rounds import BOARD, new_game, play_rounds


def random_series(players: int, games: int, seed: int):
    """A series played at random to its end: the game before its first step and after each."""
    game, rng = new_game(players, games=games), random.Random(seed)
    yield game
    while not game.is_over:
        outcomes = game.chance_outcomes().sample(rng) if game.decision.chance else rng.choice(game.legal_actions())
        game.apply(outcomes)
        yield game


def centres(root) -> dict[int, tuple[float, float]]:
    found = {}
    for index, element in spaces(root).items():
        xs, ys = zip(*outline(element), strict=True)
        found[index] = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
    return found


def test_every_space_once_and_the_track_snakes_from_each_space_to_the_next():
    root = parse(board_svg(new_game(4).seen_by(None)))
    found = centres(root)
    assert sorted(found) == list(range(BOARD.finish + 1))
    rows = set()
    for space in range(1, BOARD.finish):
        (ax, ay), (bx, by) = found[space], found[space + 1]
        rows.add(ay)
        assert (abs(bx - ax), abs(by - ay)) in ((CELL_W + GAP_X, 0), (0, CELL_H + GAP_Y)), f"{space} to {space + 1}"
    assert len(rows) == 6  # twelve a row: each objective ends a row
    assert {found[space][0] for space in (12, 36, 60)} == {max(x for x, _ in found.values())}
    assert found[0][0] < min(found[space][0] for space in range(1, BOARD.finish + 1))  # the START stands apart


def test_stations_are_circled_objectives_starred_and_every_number_written():
    root = parse(board_svg(new_game(4).seen_by(None)))
    boxes = spaces(root)
    numbers = sorted(int(t.text) for t in root.iter(f"{SVG}text") if t.get("class") == "space-number")
    assert numbers == list(range(BOARD.finish + 1))
    circles = [c for c in root.iter(f"{SVG}circle") if c.get("class") == "station"]
    stars = [p for p in root.iter(f"{SVG}polygon") if p.get("class") == "objective"]
    assert len(circles) == len(BOARD.stations) and len(stars) == len(BOARD.bonuses)
    for circle, station in zip(circles, sorted(BOARD.stations), strict=True):
        left, top = outline(boxes[station])[0]
        assert left < float(circle.get("cx")) < left + CELL_W and top < float(circle.get("cy")) < top + CELL_H
    bonuses = {int(t.get("data-bonus")): t.text for t in root.iter(f"{SVG}text") if t.get("data-bonus")}
    assert bonuses == {space: f"${amount}" for space, amount in BOARD.bonuses.items()}
    assert any(r.get("class") == "finish" for r in root.iter(f"{SVG}rect"))


def test_a_bonus_paid_is_dimmed_and_one_rolled_on_shows_its_new_amount():
    game = new_game(3)
    play_rounds(game, [(5, 5, 5), (7, 7, 7)])  # all three land on 12 together: its bonus moves on to 24
    assert 12 in game.paid and game.bonuses[24] == BOARD.bonuses[24] + BOARD.bonuses[12]
    root = parse(board_svg(game.seen_by(None)))
    bonuses = {int(t.get("data-bonus")): (t.text, t.get("class")) for t in root.iter(f"{SVG}text")
               if t.get("data-bonus")}
    assert bonuses[12] == ("paid", "bonus paid") and bonuses[24] == (f"${game.bonuses[24]}", "bonus")
    stars = [p.get("fill") for p in root.iter(f"{SVG}polygon") if p.get("class") == "objective"]
    assert stars[0] != stars[1] and len(set(stars[1:])) == 1  # 12's star dimmed, the others as printed


@pytest.mark.parametrize(("players", "games", "seed"), [(2, 1, 0), (4, 1, 1), (5, 3, 2)])
def test_every_figure_stands_on_its_space_through_a_whole_series(players, games, seed):
    boxes: dict[int, list[tuple[float, float]]] = {}
    shared = dropped = 0
    for game in random_series(players, games, seed):
        seen: Autorace = game.seen_by(None)
        boxes = boxes or {i: outline(e) for i, e in spaces(parse(board_svg(seen))).items()}
        staying = [seat for seat in range(players) if not game.dropped[seat]]
        found = pieces(seen)
        assert len(found) == len(staying)  # a seat out of the series has no figure on the board
        for seat, figure in zip(staying, found, strict=True):
            (left, top), (right, _), (_, bottom) = boxes[game.positions[seat]][:3]
            assert left <= figure.x - figure.r and figure.x + figure.r <= right, (seat, game.positions[seat])
            assert top <= figure.y - figure.r and figure.y + figure.r <= bottom, (seat, game.positions[seat])
            assert figure.faded == (not game.in_race[seat]) and game.names[seat] in figure.title
        shared += len({game.positions[s] for s in staying}) < len(staying)
        dropped += len(staying) < players
    assert shared > 0  # figures did share spaces (all of them at the start, at least)
    assert game.is_over and (dropped > 0 or games == 1)  # the long series saw seats drop out of it


def test_a_picture_draws_each_figure_in_its_suits_colour():
    game = new_game(5)
    play_rounds(game, [(1, 2, 3, 4, 5)])
    root = parse(picture(game.seen_by(None), ["Game 1, round 2"]))
    fills = [g.find(f"{SVG}circle").get("fill") for g in drawn_pieces(root)]
    assert fills == ["#{:02x}{:02x}{:02x}".format(*suit.rgb) for suit in BOARD.suits[:5]]
    assert [g.find(f"{SVG}text").text for g in drawn_pieces(root)] == list("RBGYP")
