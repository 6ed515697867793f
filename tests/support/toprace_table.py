"""Top Race's demo table on simulated devices with a hand-turned clock, and driving it until a moment comes."""

from __future__ import annotations

from toprace_pi.games.toprace.data import load_track
from toprace_pi.games.toprace.table.demo import DemoPlayers, build_demo_table


class Clock:
    """The table's clock, moved on by hand: ``clock.now += 1``."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def demo(track: str = "speed-street", players: int = 4, seed: int = 3, deck: str = "standard"):
    """A demo table of bots on simulated devices: the table, what it said, and its clock."""
    said: list[str] = []
    clock = Clock()
    table = build_demo_table(load_track(track), players, seed, deck=deck, say=said.append, clock=clock)
    return table, said, clock


def play_until(table, players: DemoPlayers, done) -> None:
    """The bots play on until ``done(game)``; a game that never gets there fails the test."""
    for _ in range(5000):
        if done(table.controller.game):
            return
        players.act(table)
    raise AssertionError("the condition never came")
