"""TOP SPEED's circuit as a picture: the loop of spaces closed on itself with the finish line behind
space 0, the cars on their spaces (lapped ones faded) or in the garage before the grid is set, the lap
counter's marker, and ``replay --svg-dir``."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import pytest
from boards import SVG, drawn_pieces, inside, outline, parse, random_game, spaces, view_box
from support.cli import run

from toprace_pi.core import registry
from toprace_pi.games.topspeed.render.svg import TRACK_WIDTH, board_svg, on_the_grid, pieces
from toprace_pi.games.topspeed.rules import Circuit, Settings, TopSpeed

from .helpers import CIRCUIT, DECK, NAMES, race

#: Kinds of action a random race favours, so that its cars go round (random pit stops keep them near the line).
MOVING_ON = ("Draw", "DrawCard", "Leave", "Pass")


def test_the_spaces_close_a_loop_in_order_with_the_finish_line_behind_space_0():
    root = parse(board_svg(race(4).seen_by(None)))
    found = {index: outline(element) for index, element in spaces(root).items()}
    assert sorted(found) == list(range(CIRCUIT.spaces))
    for space in range(CIRCUIT.spaces):  # each space's front edge is the next one's back edge
        here, ahead = found[space], found[(space + 1) % CIRCUIT.spaces]
        half = len(here) // 2
        front = (here[half - 1], here[half])
        assert math.dist(front[0], ahead[0]) < 1e-6 and math.dist(front[1], ahead[-1]) < 1e-6, space
    line = [r for r in root.iter(f"{SVG}rect") if r.get("class") == "finish-frame"][0]
    middle = float(line.get("x")) + float(line.get("width")) / 2
    assert found[0][0][0] == pytest.approx(middle) == pytest.approx(found[CIRCUIT.spaces - 1][half - 1][0])
    numbers = {int(t.text): (float(t.get("x")), float(t.get("y"))) for t in root.iter(f"{SVG}text")
               if t.get("class") == "space-number"}
    assert sorted(numbers) == list(range(CIRCUIT.spaces))
    assert not [n for n, at in numbers.items() if any(inside(at, corners) for corners in found.values())]


def test_a_short_circuit_has_as_many_spaces_in_a_picture_of_the_same_size():
    short = Circuit("Short", 16, 20)
    game = TopSpeed(Settings(NAMES[:3]), short, DECK)
    root = parse(board_svg(game.seen_by(None)))
    assert sorted(spaces(root)) == list(range(16))
    assert view_box(root) == view_box(parse(board_svg(race(3).seen_by(None))))


@pytest.mark.parametrize("variant", registry.get("topspeed").variants())
def test_every_car_stands_on_its_space_or_in_the_garage_through_a_whole_race(variant):
    shapes, garage, laps_seen, lapped = None, None, [], 0
    for game in random_game("topspeed", variant, 5, prefer=MOVING_ON):
        seen = game.seen_by(None)
        if shapes is None:
            root = parse(board_svg(seen))
            shapes = {i: outline(e) for i, e in spaces(root).items()}
            garage = {int(r.get("data-seat")): outline(r) for r in root.iter(f"{SVG}rect") if r.get("data-seat")}
            counter = [r for r in root.iter(f"{SVG}rect") if r.get("class") == "lap-counter"][0]
        *cars, marker = pieces(seen)
        for seat, car in enumerate(cars):
            where = shapes[game.circuit.space(game.progress[seat])] if on_the_grid(game) else garage[seat]
            assert inside((car.x, car.y), where) and car.r < TRACK_WIDTH / 2, (seat, game.progress[seat])
            assert car.faded == game.lapped[seat] and ("lapped" in car.title) == game.lapped[seat]
        lapped += any(game.lapped)
        left, width = float(counter.get("x")), float(counter.get("width"))
        assert left - 0.01 <= marker.x <= left + width + 0.01  # (the SVG rounds to two decimals)
        assert f"Lap {game.lap} of {game.settings.laps}" in marker.title
        laps_seen.append(marker.x)
    assert laps_seen == sorted(laps_seen) and laps_seen[-1] == pytest.approx(left + width, abs=0.01)  # to the end
    assert game.is_over and (lapped > 0 or "kers" in variant)  # cars were lapped (in random KERS races too rarely)


def test_a_lapped_car_is_faded_and_the_marker_takes_the_leaders_colour():
    game = race(3)
    game.progress[:] = [2 * CIRCUIT.spaces + 5, CIRCUIT.spaces + 7, 3]
    game.lapped[:] = [False, False, True]
    *cars, marker = pieces(game.seen_by(None))
    assert [car.faded for car in cars] == [False, False, True]
    assert [car.title for car in cars] == ["Anna's Red car, 1st, on 5", "Ben's Green car, 2nd, on 7",
                                           "Carla's Blue car, 3rd, on 3, lapped"]
    assert marker.colour == cars[0].colour and marker.title == f"Lap {game.lap} of 10: Anna's Red car leads"


def test_replay_with_svg_dir_draws_every_step_of_a_race(capsys, tmp_path):
    journal, folder = tmp_path / "demo.jsonl", tmp_path / "pictures"
    assert run(capsys, "demo", "--game", "topspeed", "--bots", "sensible", "--players", "3", "--laps", "3", "--seed",
               "2", "--fast",
               "--no-colour", "--journal", str(journal))[0] == 0
    code, out, err = run(capsys, "replay", "--game", "topspeed", str(journal), "--fast", "--no-colour",
                         "--svg-dir", str(folder))
    steps = int(re.search(r"(\d+) steps; the race is over", out)[1])
    assert code == 0 and err == "" and f"pictures of {steps + 1} steps: {folder / 'index.html'}" in out
    frames = sorted(folder.glob("frame-*.svg"))
    assert len(frames) == steps + 1  # the race before its first step, then one a step
    first, last = (ET.parse(frame).getroot() for frame in (frames[0], frames[-1]))
    assert [g.find(f"{SVG}title").text for g in drawn_pieces(first)][:3] == \
        [f"{name}'s {car} car, waiting for the start" for name, car in zip(NAMES, ("Red", "Green", "Blue"))]
    assert "won" in drawn_pieces(last)[-1].find(f"{SVG}title").text
    words = [t.text or "" for t in last.iter() if t.tag in (f"{SVG}text", f"{SVG}title")]
    assert not [w for w in words if "waiting" in w.lower()]  # nothing waits once the race is over
    captions = [t.text for t in last.iter(f"{SVG}text") if t.get("class") == "caption"]
    assert captions[0].startswith("lap 3 of 3") and captions[1].startswith("The race is over. Final order: 1. ")
    code, out, err = run(capsys, "replay", "--game", "topspeed", str(journal), "--report", "json",
                         "--svg-dir", str(tmp_path / "again"))
    assert code == 0 and out.lstrip().startswith("{") and "pictures of" in err  # the report alone on stdout
