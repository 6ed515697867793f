"""The demo's screen: redrawn in place on a terminal, scrolling when piped; and the
pause, step and quit keys of the demo."""

from __future__ import annotations

import pytest

from toprace_pi.games.toprace.data import load_deck
from toprace_pi.games.toprace.table.demo import run_demo
from toprace_pi.games.toprace.table.keys import key_map
from toprace_pi.games.topspeed.table.side import TopSpeedTable
from toprace_pi.hardware.keyboard import Keyboard
from toprace_pi.table.screen import CLEAR_BELOW, HOME, DemoScreen

BOARD = "row a\nrow b\n"


def test_a_terminal_is_redrawn_in_place_with_the_latest_news_and_the_panel():
    written: list[str] = []
    screen = DemoScreen(written.append, live=True, size=lambda: (40, 12))
    for n in range(20):
        screen.news(f"news {n}")
    assert written == []  # news waits for the redraw
    screen.show(BOARD, ["score"], ["your panel"], new_turn=True)
    [frame] = written
    assert frame.startswith(HOME) and frame.endswith(CLEAR_BELOW)
    lines = frame[len(HOME):].split("\n")[:-1]
    assert len(lines) < 12  # nothing scrolls the redraw away
    plain = [line.replace("\x1b[K", "") for line in lines]
    assert plain[:3] == ["row a", "row b", "score"] and plain[-1] == "your panel"
    assert "news 19" in plain and "news 0" not in plain


def test_a_redraw_that_changes_nothing_writes_nothing_and_long_lines_are_cut():
    written: list[str] = []
    screen = DemoScreen(written.append, live=True, size=lambda: (20, 30))
    screen.show(BOARD, ["x" * 50], [], new_turn=False)
    screen.show(BOARD, ["x" * 50], [], new_turn=False)
    assert len(written) == 1 and "x" * 19 + "…" in written[0] and "x" * 20 not in written[0]


@pytest.mark.parametrize(("game", "width"), [("toprace", 80), ("toprace", 120), ("topspeed", 80)])
def test_a_panel_line_wider_than_the_terminal_is_wrapped_whole_not_cut(game, width):
    """A key that means nothing is answered in the panel with every key's help (Top Race's note runs to some 200
    columns, TOP SPEED's some 100): all of its words are shown, over lines no wider than the terminal, where the
    scores and the news are cut."""
    keys = key_map(load_deck().cars) if game == "toprace" else TopSpeedTable().key_map(None)
    [status] = Keyboard(Keys({}), keys).press("x")
    note = status.message
    assert keys.help in note and len(note) > width
    written: list[str] = []
    DemoScreen(written.append, live=True, size=lambda: (width, 30)).show(BOARD, ["x" * 200], ["prompt", note],
                                                                          new_turn=True)
    lines = [line.replace("\x1b[K", "") for line in written[0][len(HOME):].split("\n")[:-1]]
    assert max(map(len, lines)) <= width
    panel = lines[lines.index("prompt") + 1:]
    assert len(panel) > 1 and " ".join(panel).split() == note.split()


def test_a_short_terminal_keeps_the_panel_and_loses_the_top_of_the_board():
    written: list[str] = []
    DemoScreen(written.append, live=True, size=lambda: (40, 6)).show(BOARD, ["score"], ["p1", "p2", "p3"],
                                                                      new_turn=True)
    lines = [line.replace("\x1b[K", "") for line in written[0][len(HOME):].split("\n")[:-1]]
    assert len(lines) == 5 and lines[-3:] == ["p1", "p2", "p3"]


def test_piped_the_news_scrolls_and_the_board_comes_at_each_turn():
    written: list[str] = []
    screen = DemoScreen(written.append, live=False)
    screen.news("Anna plays #3")
    screen.show(BOARD, ["score"], [], new_turn=False)
    screen.show(BOARD, ["score"], [], new_turn=True)
    screen.show(BOARD, ["score"], ["asked"], new_turn=False)
    screen.show(BOARD, ["score"], ["asked"], new_turn=False)
    assert written == ["Anna plays #3\n", BOARD + "score\n", "asked\n"]
    assert not any("\x1b" in text for text in written)


class Keys:
    """Keys pressed at given looks of the table at the keyboard."""

    def __init__(self, at: dict[int, str]) -> None:
        self.at, self.looks = at, 0

    def read(self) -> list[str]:
        self.looks += 1
        return list(self.at.get(self.looks, ""))

    def close(self) -> None:
        pass


def test_space_pauses_the_bots_the_step_key_lets_one_step_through_and_q_quits(tmp_path):
    news: list[str] = []
    keys = Keys({3: " ", 40: ".", 80: ".", 120: "q"})
    game = run_demo(players=3, seed=1, delay=0.0, colour=False, keys=keys, journal=tmp_path / "j.jsonl",
                    screen=DemoScreen(news.append, live=False))
    assert not game.is_over and keys.looks >= 120
    assert any("the demo was stopped" in line for line in news) and any("replay" in line for line in news)
    paused_at = len(game.log)
    assert paused_at <= 8  # paused after a step or two, then two single steps

