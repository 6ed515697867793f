"""A journalled demo game replayed in pictures, in words and as the report."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from toprace_pi.cli import main
from toprace_pi.games.toprace.data import load_track
from toprace_pi.games.toprace.render.frames import INDEX, MAX_EVENT_LINES, FrameWriter, caption
from toprace_pi.games.toprace.render.palette import ordinal
from toprace_pi.games.toprace.report import event_lines, json_report, text_report
from toprace_pi.games.toprace.rules import Phase, TopRace
from toprace_pi.games.toprace.rules.track import FINISH, FINISH_ID
from toprace_pi.games.toprace.table.choices import choice_for
from toprace_pi.games.toprace.table.demo import DemoPlayers, build_demo_table
from toprace_pi.table.demo import play_demo
from toprace_pi.table.journal import applied_steps, load

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> tuple[Path, TopRace]:
    """A real 3-player demo game at the simulated table, with its journal."""
    journal = tmp_path_factory.mktemp("game") / "j.jsonl"
    demo = build_demo_table(load_track("speed-street"), 3, 5, say=lambda _: None, journal=journal)
    try:
        game = play_demo(demo, DemoPlayers(["greedy"] * 3, 5))
    finally:
        demo.close()
    return journal, game


@pytest.fixture(scope="module")
def pictures(played, tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("frames")
    assert main(["replay", str(played[0]), "--fast", "--no-colour", "--svg-dir", str(folder), "-q"]) == 0
    return folder


def states(journal: Path):
    """The game before any step and after each one, as replay sees it, with the step's events."""
    loaded = load(journal)
    game = loaded.game
    yield game, list(game.events)
    told = len(game.events)
    for _ in applied_steps(game, loaded, journal):
        yield game, game.events[told:]
        told = len(game.events)


def frame(folder: Path, number: int) -> ET.Element:
    return ET.parse(folder / f"frame-{number:04d}.svg").getroot()


def of_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if e.get("class") == cls]


def test_every_step_is_a_frame_with_its_caption(played, pictures):
    journal, game = played
    frames = sorted(pictures.glob("frame-*.svg"))
    assert len(frames) == len(game.log) + 1  # the start, then one per step
    for number, (state, news) in enumerate(states(journal), 1):
        lines = [t.text for t in of_class(frame(pictures, number), "caption")]
        assert lines[0].startswith(f"Race {state.race} of 1")
        said = [e.text(state.names) for e in news]
        if len(said) <= MAX_EVENT_LINES:
            assert lines[2:] == said
        else:
            assert lines[-1] == f"... and {len(said) - MAX_EVENT_LINES + 1} more"


def test_the_legal_ends_glow_and_the_cursor_is_one_of_them(played, pictures):
    journal, _ = played
    moves = 0
    for number, (state, _) in enumerate(states(journal), 1):
        if state.phase is not Phase.MOVE_CAR:
            continue
        moves += 1
        root = frame(pictures, number)
        lit = {e.get("data-space"): e.get("class") for e in root.iter() if (e.get("class") or "").startswith("light ")}
        ends = {str(s) for s in state.moving.ends if s != FINISH}
        assert ends <= set(lit)
        cursors = [space for space, kind in lit.items() if kind == "light cursor"]
        picked = choice_for(state).current.to  # what NEXT/OK would pick now: the blinking LED
        assert cursors == ([] if picked == FINISH_ID else [str(state.track.index(picked))]) and set(cursors) <= ends
        assert all(lit[s] == "light glow" for s in ends - set(cursors))
    assert moves > 20


def test_finished_cars_stand_in_their_placement_spaces(played, pictures):
    journal, game = played
    for number, (state, _) in enumerate(states(journal), 1):
        placed = [t.text for t in frame(pictures, number).iter(f"{SVG}title") if " finished " in (t.text or "")]
        assert placed == [f"{car} finished {ordinal(n)}" for n, car in enumerate(state.board.finished, 1)]
    assert len(game.board.finished) >= 3  # the last frames show a finish order


def test_the_page_plays_every_frame_from_the_disk(pictures):
    page = (pictures / INDEX).read_text("utf-8")
    names = sorted(p.name for p in pictures.glob("frame-*.svg"))
    data = json.loads(re.search(r'<script type="application/json" id="frame-data">(.*?)</script>', page, re.S)[1])
    assert [d["file"] for d in data] == names
    assert re.findall(r'<li><a href="(frame-\d+\.svg)"', page) == names
    assert data[-1]["caption"][1] == "The game is over"
    for control in ('id="slider"', 'id="play"', 'id="back"', 'id="forward"', 'id="caption"'):
        assert control in page
    assert "http" not in page and 'src="' not in page  # nothing fetched from elsewhere: frames are set by the script


def test_replay_tells_the_game_in_sentences_not_notation(played, capsys):
    journal, game = played
    assert main(["replay", str(journal), "--fast", "--no-colour"]) == 0
    told = capsys.readouterr().out
    said = [line for line in event_lines(game, game.events) if line]
    assert said and all(line in told for line in said)
    lines = set(told.splitlines())
    assert not [str(action) for action in game.log if str(action) in lines]
    assert "step 1:" not in told and told.rstrip().endswith("the game is over")


def test_replay_exports_the_simulate_report(played, capsys):
    journal, game = played
    extra = {"journal": str(journal)}
    assert main(["replay", str(journal), "--report", "text"]) == 0
    assert capsys.readouterr().out == text_report(game, extra) + "\n"
    assert main(["replay", str(journal), "--report", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report == json.loads(json.dumps(json_report(game, extra)))
    assert report["settings"]["journal"] == str(journal) and report["final_money"] == dict(zip(game.names, game.money))


def test_the_writer_counts_events_since_its_last_frame(played, tmp_path):
    """A caller that draws only every few steps still gets every event in a caption."""
    journal, _ = played
    writer = FrameWriter(tmp_path, load_track("speed-street"))
    expected, told = [], 0
    for n, (state, _) in enumerate(states(journal)):
        if n % 7 == 0:
            expected.append(caption(state, state.events[told:]))
            told = len(state.events)
            writer.add(state)
    writer.close()
    data = json.loads(re.search(r'id="frame-data">(.*?)</script>', (tmp_path / INDEX).read_text("utf-8"), re.S)[1])
    assert [d["caption"] for d in data] == expected
    assert sum(len(c) - 2 for c in expected) >= len(expected)  # the captions did carry sentences


def test_the_caption_names_race_turn_card_and_who_acts(played):
    journal, _ = played
    for state, news in states(journal):
        if state.phase is Phase.MOVE_CAR:
            lines = caption(state, news)
            assert re.match(r"Race 1 of 1 · turn \d+ · (Anna|Ben|Carla) played #\d+", lines[0])
            assert lines[1] == f"{state.names[state.to_move]} to choose where the car ends its move"
            return
    pytest.fail("no move in the game")
