"""Python's garbage collection at the table: never between a card laid and its light, always by the
end of the step (toprace_pi/table/garbage.py)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from support.toprace_table import Clock, play_until

from toprace_pi.games.toprace.data import load_track
from toprace_pi.games.toprace.rules import Phase
from toprace_pi.games.toprace.table.demo import DemoPlayers, build_demo_table
from toprace_pi.table.demo import play_demo
from toprace_pi.table.garbage import collect_due, collections_between_steps, collections_off


@pytest.fixture
def collections() -> Iterator[list[int]]:
    """The generations collected while the test runs, in order, with every collection due at once
    (thresholds of 1: left to CPython, one would start at nearly every object made)."""
    collected: list[int] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collected.append(info["generation"])

    thresholds = gc.get_threshold()
    gc.set_threshold(1, 1, 1)
    gc.callbacks.append(note)
    try:
        yield collected
    finally:
        gc.callbacks.remove(note)
        gc.set_threshold(*thresholds)


def test_automatic_collection_is_off_in_the_block_and_back_on_after_it():
    assert gc.isenabled()
    with collections_between_steps(freeze=True):
        assert not gc.isenabled()
        assert gc.get_freeze_count() > 0
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0


def test_a_start_up_without_collections_leaves_the_table_loop_to_turn_them_back_on():
    with collections_off():
        assert not gc.isenabled()
        with collections_between_steps(freeze=True):
            assert gc.get_freeze_count() > 0
        assert not gc.isenabled()
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0


def test_a_block_inside_collection_turned_off_leaves_it_off():
    gc.disable()
    try:
        with collections_between_steps():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_collection_due_is_that_of_the_oldest_generation_past_its_threshold(collections: list[int]) -> None:
    gc.set_threshold(100, 1, 1000)
    with collections_between_steps():
        gc.collect()
        collections.clear()
        collect_due()
        assert collections == []  # hardly anything made since: nothing due
        kept: list[list[list[int]]] = []
        for _ in range(3):
            kept.append([[] for _ in range(200)])  # more objects than the youngest generation's threshold
            collect_due()
        # two collections of the youngest, then the middle one is past its threshold of 1
        assert collections == [0, 0, 1]


def test_no_collection_comes_between_a_card_laid_and_its_light(collections: list[int]) -> None:
    """Collections are due all the time (thresholds of 1), yet none starts inside a step before its
    frame; each step ends with one."""
    marks: list[str] = []
    collections_at_frame: list[int] = []

    def frame(_: object) -> None:
        collections_at_frame.append(len(collections))

    table = build_demo_table(load_track("speed-street"), 4, 3, clock=Clock(), on_frame=frame, say=lambda _: None)
    players = DemoPlayers(["greedy"] * 4, seed=3)
    try:
        with collections_between_steps():
            play_until(table, players, lambda g: g.phase is Phase.PLAY_CARD and len(g.log) > 20)
            for _ in range(12):  # a dozen inputs of every kind: cards, moves by NEXT and OK
                collections.clear()
                collections_at_frame.clear()
                marks.append(table.controller.game.phase.name)
                players.act(table)
                assert collections, "the step ends with the collection that fell due"
                assert collections_at_frame and collections_at_frame[0] == 0, (marks[-1], collections_at_frame)
    finally:
        table.close()


def test_a_demo_game_collects_as_it_goes_and_leaves_collection_on():
    table = build_demo_table(load_track("speed-street"), 2, 5, clock=Clock(), say=lambda _: None)
    try:
        game = play_demo(table, DemoPlayers(["greedy"] * 2, seed=5))
    finally:
        table.close()
    assert game.is_over
    assert gc.isenabled()
    assert gc.get_count()[0] < 5 * gc.get_threshold()[0]
