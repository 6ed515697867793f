"""The terminal and SVG drawings show the right things in the right places."""

from __future__ import annotations

import functools
import io
import itertools
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import Any

import pytest
from boards import inside, random_game
from boards import spaces as space_elements
from scenarios import BLACK, BLUE, CARS, GREEN, PURPLE, RED, YELLOW, race_ready
from support.cards import YELLOW_6
from support.cli import run
from tracks import straight

from toprace_pi.core.colour import dim
from toprace_pi.games.toprace.data import load_track, track_names
from toprace_pi.games.toprace.render.palette import GLOW, RGB, WHITE
from toprace_pi.games.toprace.render.shapes import SPACE_LENGTH, Outline, outlines
from toprace_pi.games.toprace.render.svg import board_svg, light_kind, pieces, track_svg
from toprace_pi.games.toprace.render.terminal import MIN_WIDTH, PREFIX, board_width, render_track
from toprace_pi.games.toprace.report import event_lines
from toprace_pi.games.toprace.rules import MoveCar, PlayCard
from toprace_pi.games.toprace.rules.board import Board
from toprace_pi.games.toprace.rules.events import CarMoved
from toprace_pi.games.toprace.rules.track import FINISH, Track
from toprace_pi.games.toprace.table.board import load_profile
from toprace_pi.games.toprace.table.view import TableView, lights_by_space
from toprace_pi.render.ansi import ColourMode, colour_mode, paint, xterm_256

SVG = "{http://www.w3.org/2000/svg}"
ESCAPE = "\x1b"
LANE_ROW = re.compile(r"^([a-f]) {2}")
SGR = re.compile("\x1b\\[[0-9;]*m")
WIDE = 1000  # wide enough for any track in one band


def curved() -> Track:
    """Three lanes: rows 1-4 east, a right-hand quarter curve over positions 4-7
    (outer lane a has 6 spaces, b 4, inner c 2), then rows 8-10 south."""
    lanes = []
    for lane, n in enumerate((6, 4, 2)):
        fronts = [1.0, 2.0, 3.0, 4.0] + [4 + 3 * (k + 1) / n for k in range(n)] + [8.0, 9.0, 10.0]
        backs = [0.0, *fronts[:-1]]
        lanes.append([_curve_space(lane, i, f, b) for i, (f, b) in enumerate(zip(fronts, backs), 1)])
    for lane, spaces in enumerate(lanes):
        for space in spaces:
            space["next"] = _curve_steps(space, lanes, lane)
    spaces = [s for lane in lanes for s in lane]
    for space in spaces:
        del space["back"]  # only needed to work out the steps
    data = {"track": {"name": "Curve & <Test>", "lanes": 3, "finish_line": 10.0, "tip_lines": [3.0, 5.5, 8.5],
                      "reconstructed": True, "spaces": spaces}}
    return Track.from_dict(data, "curved test track")


def _curve_space(lane: int, row: int, front: float, back: float) -> dict[str, Any]:
    space: dict[str, Any] = {"id": f"{'abc'[lane]}{row}", "lane": lane, "front": front, "back": back}
    mid, radius = (front + back) / 2, 3.5 - lane
    if mid < 4:
        space.update(x=mid, y=float(-lane), heading=0.0)
    elif mid < 7:
        angle = math.pi / 2 * (mid - 4) / 3
        space.update(x=4 + radius * math.sin(angle), y=-3.5 + radius * math.cos(angle),
                     heading=-math.degrees(angle), curve="right")
    else:
        space.update(x=4 + radius, y=-3.5 - (mid - 7), heading=-90.0)
    if row <= 2:
        space["start"] = lane + 1 + (3 if row == 1 else 0)
    return space


def _curve_steps(space: dict[str, Any], lanes: list[list[dict[str, Any]]], lane: int) -> list[str]:
    """Ahead in the lane, and diagonally: from a straight only to a space wholly
    ahead, from a curve space to the first one whose front is further ahead."""
    if space["front"] == 10.0:
        return ["finish"]
    steps = []
    for other in (lane, lane - 1, lane + 1):
        if 0 <= other < 3:
            loose = other == lane or "curve" in space
            ahead = [s for s in lanes[other] if s["front"] > space["front"] and (loose or s["back"] >= space["front"])]
            steps.append(ahead[0]["id"])
    return steps


def shipped() -> list[str]:
    names = track_names()
    assert names, "no shipped tracks"
    return names


def rows(text: str) -> dict[str, list[str]]:
    """Each lane's rows, one per band, without the lane letter."""
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        if m := LANE_ROW.match(line):
            found.setdefault(m.group(1), []).append(line[PREFIX:])
    return found


def lane_rows(text: str) -> dict[str, str]:
    """Each lane's row of a one-band drawing."""
    return {lane: bands[0] for lane, bands in rows(text).items()}


def marks(row: str) -> str:
    """The spaces of a row, in order: what is left without gaps and line markers."""
    return row.replace(" ", "").replace("|", "")


def line_before(text: str, row: str) -> str:
    lines = text.splitlines()
    return next(lines[n - 1] for n, line in enumerate(lines) if line[PREFIX:] == row)


def visible(text: str) -> str:
    return SGR.sub("", text)


@functools.cache
def space_columns(name: str) -> dict[int, tuple[str, int]]:
    """Where each space of a shipped track is drawn (lane letter, column), found by
    lighting it alone and looking for the one glow in a one-band drawing."""
    track = load_track(name)
    found = {}
    for space in track.spaces:
        text = render_track(track, colour=False, width=WIDE, lights={space.index: (9, 9, 9)})
        stars = [(lane, n) for lane, row in lane_rows(text).items() for n, c in enumerate(row) if c == "*"]
        assert len(stars) == 1, f"{space.id} drawn {len(stars)} times"
        found[space.index] = stars[0]
    return found


# --- terminal: layout -------------------------------------------------------------


def test_car_letters_are_distinct_and_black_is_k() -> None:
    assert [c.letter for c in CARS] == ["B", "R", "Y", "K", "P", "G"]
    assert len({c.rgb for c in CARS}) == len(CARS)


def test_straight_track_is_one_column_a_row_with_start_numbers() -> None:
    track = straight(20)  # tips at 5, 10, 15; finish at 20
    lanes = lane_rows(render_track(track, colour=False))
    assert lanes["a"] == "41...|.....|.....|....)|"  # a one-space curve on the line sets the inside lane
    assert lanes["b"] == "52...|.....|.....|.....|"
    assert lanes["c"] == "63...|.....|.....|.....|"


def test_lines_are_labelled_above_their_markers_under_a_ruler() -> None:
    track = straight(20)
    text = render_track(track, colour=False)
    lane_a = lane_rows(text)["a"]
    labels = line_before(text, lane_a)[PREFIX:]
    for label in ("T1", "T2", "T3", "F"):
        assert all(row[labels.index(label)] == "|" for row in lane_rows(text).values())
    ruler = line_before(text, labels)
    assert lane_a == "41...|.....|.....|....)|"
    assert ruler[PREFIX:] == "0         10          20"  # above rows 1, 10 and 20


def test_cars_highlights_waiting_and_finished_cars() -> None:
    track = straight(20)
    board = Board(track, CARS)
    board.place(RED, track.index("b7"))
    board.place(BLACK, track.index("c3"))
    board.place(BLUE, track.index("a14"))
    board.break_down(BLUE, RED)
    for car in (YELLOW, GREEN):
        board.place(car, track.index("a20"))
        board.move(car, FINISH)
    text = render_track(track, board, colour=False, highlight={track.index("c9"): RED, FINISH: RED})
    lanes = lane_rows(text)
    assert lanes["b"] == "52...|.R...|.....|.....|"
    assert lanes["c"] == "63K..|...*.|.....|.....|"
    assert "B" not in lanes["a"]  # the waiting car is not drawn on its space
    assert line_before(text, lanes["a"]).rstrip().endswith("F*")
    assert "Blue waits beside a14 for Red" in text
    assert "Finished: 1st Yellow, 2nd Green" in text


def test_a_broken_down_car_is_its_letter_in_lower_case_not_a_lit_end() -> None:
    """The strip lights the space a broken-down car waits beside as it lights a legal end, a glow in the
    car's colour: the board tells the two apart, and the key says so."""
    track = straight(20)
    board = Board(track, CARS)
    board.place(RED, track.index("b7"))
    board.place(BLUE, track.index("a14"))
    board.break_down(BLUE, RED)
    lights = {track.index("b7"): RED.rgb, track.index("b10"): dim(RED.rgb, GLOW),
              track.index("a14"): dim(BLUE.rgb, GLOW)}

    def plain(lit: dict[int, RGB] | None) -> dict[str, str]:
        return lane_rows(render_track(track, board, colour=False, lights=lit, cars=CARS))

    assert plain(lights)["a"] == "41...|.....|...b.|....)|" and plain(lights)["b"] == "52...|.R..*|.....|.....|"
    assert plain(None)["a"] == "41...|.....|...b.|....)|"  # drawn from the board alone, without the strip
    coloured = render_track(track, board, lights=lights, cars=CARS)
    assert paint("b", ColourMode.TRUECOLOR, BLUE.rgb) in coloured  # in its colour, as the glow at b10 is in Red's
    assert lane_rows(visible(coloured)) == plain(lights)
    lights[track.index("a14")] = dim(RED.rgb, GLOW)  # Red may end where Blue waits: the end is shown
    assert plain(lights)["a"] == "41...|.....|...*.|....)|"
    assert "r broken down" in render_track(track, colour=False)


def test_the_strips_frame_shows_broken_down_cars_by_their_letters_through_a_game() -> None:
    """Drawn from the LED frame the table composes (no move on offer, so no legal end glows): every
    broken-down car is its letter in lower case, beside its space, and no space is a star."""
    seen = 0
    for game in random_game("toprace", "base", 4):
        board = game.board
        if not board.waiting:
            continue
        track = game.track
        profile = load_profile(track.slug, track)
        lights = lights_by_space(profile, track, TableView(profile).frame(game, None, 0.0))
        lanes = lane_rows(render_track(track, board, colour=False, width=WIDE, lights=lights, cars=game.cars))
        drawn = "".join(lanes.values())
        assert "*" not in drawn
        for car, wait in board.waiting.items():
            if wait.space not in board.at.values():
                lane, column = space_columns(track.slug)[wait.space]
                assert lanes[lane][column] == car.letter.lower()
        seen += 1
    assert seen


def test_the_heading_counts_each_lanes_spaces_to_the_finish() -> None:
    heading = render_track(load_track("speed-street"), colour=False).splitlines()[0]
    assert heading == "Speed Street (reconstructed layout): to the finish, a 54 spaces, b 62, c 63"  # a54 b62 c63
    assert render_track(straight(20), colour=False).splitlines()[0].endswith(": to the finish, a 20 spaces, b 20, c 20")


def test_track_show_fits_an_80_column_terminal(capsys: pytest.CaptureFixture[str], monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    for name in shipped():
        code, out, err = run(capsys, "track", "show", name, "--no-colour")
        assert code == 0 and err == "" and "A reconstructed layout: compare it" in out
        assert max(len(line) for line in out.splitlines()) <= 80, name


def narrowing(track: Track) -> tuple[str, str]:
    """A move of 6 in one lane, clear of the start, whose end's number is at most 3 past its start's:
    through a curve, where the lanes' spaces are uneven (a move counts spaces, not numbers)."""
    for space in track.spaces:
        _, ends = track.moves(space.index, 6, ())
        for end in (e for e in ends if e != FINISH and track.spaces[e].lane == space.lane):
            start, to = track.space_id(space.index), track.space_id(end)
            if int(start[1:]) >= 5 and int(to[1:]) - int(start[1:]) <= 3:
                return start, to
    raise AssertionError(f"{track.name} has no narrowing")


@pytest.mark.parametrize("name", shipped())
def test_a_move_line_says_how_many_spaces_the_car_moved(name: str) -> None:
    track = load_track(name)
    start, to = narrowing(track)
    game = race_ready(track, {car: n % 2 for n, car in enumerate(CARS)}, hands=((YELLOW_6,),),
                      positions={YELLOW: start})
    game.apply(PlayCard(YELLOW_6))
    game.apply(MoveCar(YELLOW, to))
    assert event_lines(game, game.events)[-1] == f"      Yellow moves 6 spaces: {start} -> {to}"
    if name == "speed-street":
        assert (start, to) == ("a8", "a11")
    assert CarMoved(PURPLE, "a1", "a4", 3, 5).text(()) == "Purple moves 3 spaces: a1 -> a4 (2 forfeited, blocked)"
    assert CarMoved(PURPLE, "b3", "b7", 0, None).text(()) == "Purple sprints: b3 -> b7"


def test_long_tracks_wrap_into_even_bands_within_the_width() -> None:
    track = straight(100)  # 100 rows and 4 lines: 104 columns, two bands of 52
    text = render_track(track, colour=False, width=80)
    assert all(len(line) <= 80 for line in text.splitlines())
    assert [len(row) for row in rows(text)["b"]] == [52, 52]
    labels = " ".join(line_before(text, row) for row in rows(text)["a"])
    assert sorted(labels.split()) == ["F", "T1", "T2", "T3"]
    assert marks("".join(rows(text)["b"])) == "52" + "." * 98


def test_curve_lanes_show_their_own_number_of_spaces_side_by_side_or_apart() -> None:
    track = curved()  # tip 2 at 5.5 cuts the curve in halves of 3, 2 and 1 spaces
    text = render_track(track, colour=False)
    assert text.startswith("Curve & <Test> (reconstructed layout)")
    lanes = lane_rows(text)
    assert lanes["a"] == "41.|.)))|))).|..|"
    assert lanes["b"] == "52.|. ))| )).|..|"
    assert lanes["c"] == "63.|.  )|  ).|..|"


def test_a_narrow_width_is_refused_and_the_narrowest_fits() -> None:
    with pytest.raises(ValueError, match="too narrow"):
        render_track(straight(20), width=MIN_WIDTH - 1)
    text = render_track(load_track("speed-street"), colour=False, width=MIN_WIDTH)
    assert max(len(line) for line in text.splitlines()) <= MIN_WIDTH


def test_board_width_follows_the_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "132")
    assert board_width() == 132
    monkeypatch.setenv("COLUMNS", "5")
    assert board_width() == MIN_WIDTH


# --- terminal: shipped tracks ---------------------------------------------------------


@pytest.mark.parametrize("width", [80, 120])
@pytest.mark.parametrize("mode", list(ColourMode))
@pytest.mark.parametrize("name", shipped())
def test_every_line_fits_the_width_and_bands_lose_nothing(name: str, mode: ColourMode, width: int) -> None:
    track = load_track(name)
    board = Board(track, CARS)
    for car, start in zip(CARS, range(1, 7), strict=True):
        board.place(car, track.starting_spaces[start])
    text = visible(render_track(track, board, colour=mode, width=width, highlight={FINISH: RED}))
    assert max(len(line) for line in text.splitlines()) <= width
    whole = lane_rows(visible(render_track(track, board, colour=mode, width=WIDE)))
    for lane, bands in rows(text).items():
        assert marks("".join(bands)) == marks(whole[lane])
    labels = [w for line in text.splitlines() for w in line.split() if w in ("F*", "T1", "T2", "T3")]
    assert sorted(labels) == ["F*", "T1", "T2", "T3"]


@pytest.mark.parametrize("name", shipped())
def test_every_space_is_one_cell_of_its_lane_in_lane_order(name: str) -> None:
    track = load_track(name)
    where = space_columns(name)
    lanes = lane_rows(render_track(track, colour=False, width=WIDE))
    for lane, letter in enumerate("abc"[: track.lanes]):
        spaces = sorted((s for s in track.spaces if s.lane == lane), key=lambda s: s.front)
        assert [where[s.index][0] for s in spaces] == [letter] * len(spaces)
        columns = [where[s.index][1] for s in spaces]
        assert columns == sorted(set(columns))  # one cell each, in the lane's order
        assert len(marks(lanes[letter])) == len(spaces)  # and no other cells


@pytest.mark.parametrize("name", shipped())
def test_a_space_further_ahead_is_never_drawn_left_and_a_row_ahead_is_drawn_right(name: str) -> None:
    track = load_track(name)
    where = space_columns(name)
    for s in track.spaces:
        for t in track.spaces:
            if s.front < t.front:
                assert where[s.index][1] <= where[t.index][1], (s.id, t.id)
            if s.front + 1 <= t.front:
                assert where[s.index][1] < where[t.index][1], (s.id, t.id)


@pytest.mark.parametrize("name", shipped())
def test_lines_stand_between_the_spaces_on_them_and_those_past_them(name: str) -> None:
    track = load_track(name)
    where = space_columns(name)
    text = render_track(track, colour=False, width=WIDE)
    lanes = lane_rows(text)
    labels = line_before(text, lanes["a"])[PREFIX:]
    for label, line in [("T1", track.tip_lines[0]), ("T2", track.tip_lines[1]), ("T3", track.tip_lines[2]),
                        ("F", track.finish_line)]:
        column = labels.index(label)
        assert all(row[column] == "|" for row in lanes.values())
        assert all((where[s.index][1] > column) == track.has_crossed(s.index, line) for s in track.spaces)


@pytest.mark.parametrize("name", shipped())
def test_start_numbers_stand_on_their_spaces(name: str) -> None:
    track = load_track(name)
    where = space_columns(name)
    lanes = lane_rows(render_track(track, colour=False, width=WIDE))
    for number, index in track.starting_spaces.items():
        lane, column = where[index]
        assert lanes[lane][column] == str(number)
    assert sorted(c for row in lanes.values() for c in row if c.isdigit()) == list("123456")


def test_a_car_ahead_in_another_lane_shows_to_the_right() -> None:
    track = load_track("speed-street")
    board = Board(track, CARS)
    curve = sorted((s for s in track.spaces if s.is_curve and s.lane == 2), key=lambda s: s.front)
    behind = curve[1]
    ahead = min((s for s in track.spaces if s.lane == 0 and s.front >= behind.front + 1), key=lambda s: s.front)
    board.place(RED, behind.index)
    board.place(BLUE, ahead.index)
    lanes = lane_rows(render_track(track, board, colour=False, width=WIDE))
    assert lanes["a"].index("B") > lanes["c"].index("R")


# --- terminal: colour -------------------------------------------------------------------


def coloured_board(colour: ColourMode | bool) -> str:
    track = straight(20)
    board = Board(track, CARS)
    board.place(RED, track.index("b7"))
    return render_track(track, board, colour=colour, highlight={track.index("c9"): BLUE},
                        lights={track.index("a12"): (10, 10, 10)})


def test_no_colour_has_no_escapes_and_false_means_none() -> None:
    assert ESCAPE not in coloured_board(ColourMode.NONE)
    assert coloured_board(False) == coloured_board(ColourMode.NONE)


def test_truecolor_paints_24_bit_and_true_means_truecolor() -> None:
    text = coloured_board(ColourMode.TRUECOLOR)
    assert "\x1b[1;38;2;255;255;255;48;2;230;30;30mR" in text  # red car: its letter on red
    assert "\x1b[1;38;2;30;100;255m*" in text  # blue's possible end: a blue star
    assert "\x1b[1;38;2;30;30;30m*" in text  # a dim LED, brightened
    assert coloured_board(True) == text


def test_256_colours_use_the_palette_only() -> None:
    text = coloured_board(ColourMode.XTERM_256)
    assert "38;2;" not in text and "48;2;" not in text
    assert f"\x1b[1;38;5;231;48;5;{xterm_256(RED.rgb)}mR" in text
    assert f"\x1b[1;38;5;{xterm_256(BLUE.rgb)}m*" in text
    assert visible(text) == coloured_board(ColourMode.NONE)


@pytest.mark.parametrize("rgb, index", [
    ((255, 0, 0), 196), ((0, 255, 0), 46), ((0, 0, 255), 21), ((255, 255, 0), 226),
    ((0, 0, 0), 16), ((255, 255, 255), 231), ((95, 135, 175), 67),
    ((128, 128, 128), 244), ((8, 8, 8), 232), ((238, 238, 238), 255), ((250, 210, 0), 220),
])
def test_xterm_256_picks_the_nearest_of_the_cube_and_the_greys(rgb: RGB, index: int) -> None:
    assert xterm_256(rgb) == index


class Stream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize("env, tty, mode", [
    ({"TERM": "xterm-256color"}, True, ColourMode.XTERM_256),
    ({"TERM": "xterm-256color", "COLORTERM": "truecolor"}, True, ColourMode.TRUECOLOR),
    ({"TERM": "xterm", "COLORTERM": "24bit"}, True, ColourMode.TRUECOLOR),
    ({"TERM": "xterm-direct"}, True, ColourMode.TRUECOLOR),
    ({"TERM": "xterm"}, True, ColourMode.XTERM_256),
    ({"TERM": "linux"}, True, ColourMode.XTERM_256),
    ({}, True, ColourMode.XTERM_256),
    ({"TERM": "dumb", "COLORTERM": "truecolor"}, True, ColourMode.NONE),
    ({"TERM": "xterm-256color", "COLORTERM": "truecolor", "NO_COLOR": "1"}, True, ColourMode.NONE),
    ({"TERM": "xterm-256color", "NO_COLOR": ""}, True, ColourMode.XTERM_256),  # empty: not set
    ({"TERM": "xterm-256color", "COLORTERM": "truecolor"}, False, ColourMode.NONE),  # a pipe or file
])
def test_colour_mode_follows_the_environment_and_the_stream(env: dict[str, str], tty: bool, mode: ColourMode) -> None:
    assert colour_mode(Stream(tty), env) is mode


def test_colour_mode_reads_the_process_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "yes")
    assert colour_mode(Stream(True)) is ColourMode.NONE


# --- SVG ----------------------------------------------------------------------


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def of_class(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [e for e in root.iter(f"{SVG}{tag}") if e.get("class") == cls]


def points(element: ET.Element) -> list[tuple[float, float]]:
    """A polygon's or polyline's corners in pixels."""
    return [(float(x), float(y)) for x, y in (p.split(",") for p in element.get("points", "").split())]


def rect_corners(element: ET.Element) -> list[tuple[float, float]]:
    x, y, w, h = (float(element.get(k)) for k in ("x", "y", "width", "height"))
    return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]


def _axes(polygon: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    return [(a[1] - b[1], b[0] - a[0]) for a, b in zip(polygon, [*polygon[1:], polygon[0]])]


def overlap(p: Sequence[tuple[float, float]], q: Sequence[tuple[float, float]], tolerance: float = 1e-6) -> bool:
    """Whether two convex polygons share more than an edge: no axis of either
    separates them (the separating axis theorem)."""
    for nx, ny in [*_axes(p), *_axes(q)]:
        a = [nx * x + ny * y for x, y in p]
        b = [nx * x + ny * y for x, y in q]
        if max(a) <= min(b) + tolerance or max(b) <= min(a) + tolerance:
            return False
    return True


def centre(track: Track, index: int) -> tuple[float, float]:
    return track.spaces[index].x, track.spaces[index].y


def overlapping(shapes: Sequence[Outline], track: Track) -> list[tuple[str, str]]:
    """Pairs of space ids whose outlines overlap."""
    pieces = [shape.pieces() for shape in shapes]
    found = []
    for i, j in itertools.combinations(range(len(shapes)), 2):
        if math.dist(centre(track, i), centre(track, j)) < 2.5 and any(
                overlap(p, q) for p in pieces[i] for q in pieces[j]):
            found.append((track.spaces[i].id, track.spaces[j].id))
    return found


def test_svg_draws_every_space_with_its_id_and_start_number() -> None:
    track = straight(12)
    root = parse(track_svg(track))
    boxes = of_class(root, "polygon", "space")
    assert [(b.get("data-space"), b.get("data-id")) for b in boxes] == [(str(s.index), s.id) for s in track.spaces]
    assert sorted(t.text for t in of_class(root, "text", "space-id")) == sorted(s.id for s in track.spaces)
    assert sorted(t.text for t in of_class(root, "text", "start")) == list("123456")


def test_svg_lines_lie_across_the_lanes_at_their_positions() -> None:
    track = straight(12)  # space centres at x = front, heading east
    root = parse(track_svg(track))
    xs = [x for x, _ in points(of_class(root, "polygon", "space")[0])]
    scale = (max(xs) - min(xs)) / SPACE_LENGTH
    finish = of_class(root, "line", "finish-line")
    assert len(finish) == 3
    for line in finish:  # on the front edge of the last row, less the gap between spaces
        assert float(line.get("x1")) == float(line.get("x2")) == pytest.approx(12.5 * scale, abs=0.03 * scale)
    tips = of_class(root, "line", "tip-line")
    assert sorted(t.get("data-tip") for t in tips) == list("111222333")
    assert float(tips[0].get("x1")) == pytest.approx(3.5 * scale, abs=0.03 * scale)  # tip 1 at 3
    assert [t.text for t in of_class(root, "text", "tip-label")] == ["1st Tip", "2nd Tip", "3rd Tip"]


def test_svg_cars_and_highlights() -> None:
    track = straight(12)
    board = Board(track, CARS)
    board.place(YELLOW, track.index("b4"))
    board.place(PURPLE, track.index("a6"))
    board.break_down(PURPLE, YELLOW)
    root = parse(track_svg(track, board, highlight={track.index("c5"): YELLOW}))
    cars = of_class(root, "g", "piece")
    assert [car.find(f"{SVG}text").text for car in cars] == ["Y"]
    circle = cars[0].find(f"{SVG}circle")
    assert circle.get("fill") == "#fad200" and circle.get("stroke") == "#000000"
    assert (float(circle.get("cx")), float(circle.get("cy"))) == centre_of(root, track.index("b4"))
    waiting = of_class(root, "g", "piece faded")
    assert [g.find(f"{SVG}text").text for g in waiting] == ["P"]
    assert waiting[0].find(f"{SVG}title").text == "Purple waits beside a6 for Yellow"
    marks = of_class(root, "polygon", "highlight")
    assert [m.get("data-space") for m in marks] == [str(track.index("c5"))]
    assert marks[0].get("stroke") == "rgb(250,210,0)"


def test_two_cars_waiting_beside_one_row_stand_side_by_side() -> None:
    track = straight(12)
    board = Board(track, CARS)
    for car, space in ((PURPLE, "a6"), (BLUE, "b6"), (YELLOW, "c3")):
        board.place(car, track.index(space))
    board.break_down(PURPLE, YELLOW)
    board.break_down(BLUE, YELLOW)
    waiting = [g.find(f"{SVG}circle") for g in of_class(parse(track_svg(track, board)), "g", "piece faded")]
    (ax, ay, ar), (bx, by, br) = [[float(c.get(k)) for k in ("cx", "cy", "r")] for c in waiting]
    assert math.dist((ax, ay), (bx, by)) >= ar + br  # both step out to one spot beside row 6: neither hides the other
    assert min(ay, by) > max(float(y) for b in of_class(parse(track_svg(track)), "polygon", "space")
                             for _, y in points(b))  # beside the track (to its right, heading east), not on it


@pytest.mark.parametrize(("variant", "seed"), [("base", 4), ("pitstop", 1)])  # games with breakdowns in them
def test_every_car_stands_on_its_space_waits_off_the_track_or_stands_in_its_place_through_a_game(variant, seed):
    shapes, places, seen = {}, {}, {"on": 0, "waiting": 0, "placed": 0}
    for game in random_game("toprace", variant, seed):
        board = game.seen_by(None).board
        if not shapes:
            root = parse(board_svg(game.seen_by(None)))
            shapes = {i: points(e) for i, e in space_elements(root).items()}
            places = {int(r.get("data-place")): rect_corners(r) for r in of_class(root, "rect", "place")}
        found = iter(pieces(game.seen_by(None)))
        for car, space in sorted(board.at.items()):
            piece = next(found)
            assert inside((piece.x, piece.y), shapes[space]) and piece.label == car.letter and not piece.faded
        for car in sorted(board.waiting):
            piece = next(found)
            assert piece.faded and not any(inside((piece.x, piece.y), shape) for shape in shapes.values()), car
        for place, car in enumerate(board.finished, 1):
            piece = next(found)
            assert inside((piece.x, piece.y), places[place]) and piece.label == car.letter
        assert next(found, None) is None
        seen["on"] += len(board.at)
        seen["waiting"] += len(board.waiting)
        seen["placed"] += len(board.finished)
    assert all(seen.values()), seen  # cars raced, broke down and finished


def centre_of(root: ET.Element, index: int) -> Any:
    """The middle of a straight space's box in pixels, to compare a point with (to 0.05 px)."""
    box = next(b for b in of_class(root, "polygon", "space") if b.get("data-space") == str(index))
    xs, ys = zip(*points(box), strict=True)
    return pytest.approx((sum(xs) / len(xs), sum(ys) / len(ys)), abs=0.05)


def test_svg_curve_track_escapes_text_and_notes_reconstruction() -> None:
    track = curved()
    root = parse(track_svg(track))
    assert [t.text for t in of_class(root, "text", "title")] == ["Curve & <Test>"]
    assert [t.text for t in of_class(root, "text", "note")] == ["reconstructed layout"]
    assert len(of_class(root, "polygon", "space")) == len(track.spaces) == 3 * 7 + 12
    assert len(of_class(root, "line", "tip-line")) == 9  # tip 2 lies mid-curve, beside one space per lane
    assert "reconstructed" not in track_svg(straight(12))


# --- SVG: shipped tracks -------------------------------------------------------


@pytest.mark.parametrize("name", shipped())
def test_every_shipped_track_draws_as_svg(name: str) -> None:
    track = load_track(name)
    root = parse(track_svg(track))
    assert len(of_class(root, "polygon", "space")) == len(track.spaces)
    assert len(of_class(root, "line", "finish-line")) == len(track.beside(track.finish_line))
    assert len(of_class(root, "text", "tip-label")) == 3
    width = float(root.get("width"))
    assert 800 <= width <= 1600


@pytest.mark.parametrize("name", shipped())
def test_no_two_spaces_of_a_shipped_track_overlap(name: str) -> None:
    track = load_track(name)
    assert overlapping(outlines(track), track) == []


def test_the_overlap_check_finds_boxes_laid_on_curves() -> None:
    """Fixed boxes turned to the heading (the old drawing) overlap on Desert Drive's
    hairpin: the check above can fail."""
    track = load_track("desert-drive")
    boxes = [Outline(*_box_sides(s.x, s.y, s.heading)) for s in track.spaces]
    assert ("a42", "a43") in overlapping(boxes, track)


def _box_sides(x: float, y: float, heading: float) -> tuple[tuple[tuple[float, float], ...], ...]:
    fx, fy = math.cos(math.radians(heading)), math.sin(math.radians(heading))
    return tuple(tuple((x + fx * a - fy * w, y + fy * a + fx * w) for a in (-0.475, 0.475)) for w in (0.45, -0.45))


def test_curve_spaces_are_sectors_round_one_centre() -> None:
    track = curved()  # the curve's centre is (4, -3.5); lane a's centre line has radius 3.5
    shape = outlines(track)[track.index("a6")]
    assert len(shape.left) > 2  # an arc, not a straight side
    radii = [math.dist(p, (4, -3.5)) for p in shape.left]
    assert radii == pytest.approx([3.95] * len(radii), abs=1e-6)  # a right curve: lane a's left side is outside


@pytest.mark.parametrize("name", shipped())
def test_line_labels_stand_clear_of_every_space(name: str) -> None:
    """The finish and tip tags hide no start number or space id."""
    root = parse(track_svg(load_track(name)))
    spaces = [points(p) for p in of_class(root, "polygon", "space")]
    tags = of_class(root, "rect", "label-tag")
    assert len(tags) == 4
    for tag in tags:
        assert not any(overlap(rect_corners(tag), box) for box in spaces)


def test_arrows_point_the_way_of_travel() -> None:
    track = straight(12)  # heading east: every chevron's tip lies east of its wings
    root = parse(track_svg(track))
    arrows = [points(a) for a in of_class(root, "polyline", "arrow")]
    assert len(arrows) == len(track.spaces)
    for (wx, _), (tx, _), (vx, _) in arrows:
        assert tx > wx and tx > vx


def test_finished_cars_stand_in_their_placement_spaces() -> None:
    track = straight(12)
    board = Board(track, CARS)
    for car in (GREEN, RED):
        board.place(car, track.index("a12"))
        board.move(car, FINISH)
    root = parse(track_svg(track, board))
    places = of_class(root, "rect", "place")
    assert [r.get("data-place") for r in places] == list("123456")
    cars = of_class(root, "g", "piece")
    assert [g.find(f"{SVG}title").text for g in cars] == ["Green finished 1st", "Red finished 2nd"]
    for car, place in zip(cars, places, strict=False):  # each in its placement space, not on the track
        circle = car.find(f"{SVG}circle")
        x, y, w, h = (float(place.get(k)) for k in ("x", "y", "width", "height"))
        assert (float(circle.get("cx")), float(circle.get("cy"))) == (x + w / 2, y + h / 2)


def test_lights_show_glows_the_cursor_and_cars_leds() -> None:
    track = straight(12)
    board = Board(track, CARS)
    board.place(RED, track.index("b4"))
    dim_red = (46, 6, 6)
    lights = {track.index("b4"): RED.rgb, track.index("b6"): dim_red, track.index("c6"): RED.rgb,
              track.index("a6"): (0, 0, 0)}
    root = parse(track_svg(track, board, lights=lights, caption=["Race 1", "Anna plays Red 2"]))
    kinds = {e.get("data-space"): e.get("class") for e in root.iter() if (e.get("class") or "").startswith("light ")}
    assert kinds == {str(track.index(s)): kind for s, kind in
                     (("b4", "light car"), ("b6", "light glow"), ("c6", "light cursor"))}
    glow = next(e for e in root.iter() if e.get("class") == "light-fill glow")
    assert glow.get("fill") == "rgb(255,33,33)"  # the dim LED's hue at full brightness
    assert [t.text for t in of_class(root, "text", "caption")] == ["Race 1", "Anna plays Red 2"]


def test_a_white_light_is_a_cursor_and_nothing_is_a_car_without_a_board() -> None:
    track = straight(12)
    board = Board(track, CARS)
    assert light_kind(track.index("a3"), WHITE, board) == "cursor"
    assert light_kind(track.index("a3"), RED.rgb, None) == "glow"
