"""AUTORACE's demo table played at human pace until the power is cut mid-round."""

from __future__ import annotations

from pace import PACE, Hearing, run_loop

from toprace_pi.games.autorace.table.demo import DemoPlayers, build_demo_table


def cut_mid_round(path, seed: int, *, rounds: int):
    """A four-player game with its journal at ``path``, played ``rounds`` rounds and then until two
    seats have laid their card of the next, when the power is cut; the controller as it was."""
    hearing = Hearing()
    demo = build_demo_table(4, say=hearing.say, clock=hearing.clock, journal=path)
    bots = DemoPlayers(["random"] * 4, seed)
    game = demo.controller.game
    try:
        while game.round <= rounds or sum(card is not None for card in game.sealed) < 2:
            bots.act(demo)
            run_loop(demo, hearing.clock, PACE)
    finally:  # the power is cut
        demo.close()
        hearing.close()
    return demo.controller
