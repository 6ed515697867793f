"""A bot decides on what its seat may see: changing every other seat's secrets (their
hands, stocks and tips) never changes its choice."""

from __future__ import annotations

import random

import pytest

from toprace_pi.games.toprace.bots import make_bot
from toprace_pi.games.toprace.data import load_deck, load_track
from toprace_pi.games.toprace.rules import CHANCE, Settings
from toprace_pi.games.toprace.rules.variants import new_game

PLAYERS = ("Anna", "Ben", "Carla", "David")


def scrambled(game, seat: int, rng: random.Random):
    """A copy of ``game`` in which every seat but ``seat`` holds other secrets."""
    other = game.clone()
    others = [s for s in range(len(other.names)) if s != seat]
    if other.hands is not None:
        cards = [n for s in others for n in other.hands[s]]
        rng.shuffle(cards)
        for s in others:
            size = len(other.hands[s])
            other.hands[s], cards = sorted(cards[:size]), cards[size:]
    for s in others:
        if hasattr(other, "stocks"):
            rng.shuffle(other.stocks[s])
        if hasattr(other, "tips"):
            other.tips[s] = [rng.choice(list(other.cars)) for _ in other.tips[s]]
    return other


@pytest.mark.parametrize("variant", ["base", "stocks", "pitstop+tips", "pitstop+stocks"])
@pytest.mark.parametrize("kind", ["greedy", "random"])
def test_other_seats_secrets_never_change_a_bots_choice(variant, kind):
    game = new_game(Settings(PLAYERS, variant=variant), load_track("speed-street"), load_deck("standard"))
    rng, player = random.Random(7), make_bot(kind, 7)
    checked = 0
    while not game.is_over:
        if game.to_move == CHANCE:
            game.apply(game.chance(rng))
            continue
        seat = game.seat
        if len(game.log) % 7 == 0:
            mine, theirs = make_bot(kind, 1).choose(game), make_bot(kind, 1).choose(scrambled(game, seat, rng))
            assert mine == theirs, f"{kind} at seat {seat} changed its mind over others' secrets"
            checked += 1
        game.apply(player.choose(game))
    assert checked > 20


def test_a_seats_view_hides_the_other_seats_secrets_and_changes_nothing():
    game = new_game(Settings(PLAYERS, variant="stocks"), load_track("speed-street"), load_deck("standard"))
    game.apply(game.chance(random.Random(1)))
    seen = game.seen_by(1)
    assert isinstance(seen, type(game)) and seen.names == game.names and seen.board is game.board
    assert seen.hands[1] == game.hands[1] and seen.hands[0] is None and seen.hands[2] is None
    assert seen.stocks[1] == game.stocks[1] and seen.stocks[3] is None
    assert all(hand is None for hand in game.seen_by(None).hands)
    with pytest.raises(AttributeError, match="cannot change it"):
        seen.money = [0, 0, 0, 0]
    assert seen.legal_actions() == game.legal_actions()
    for name in ("apply", "apply_notation", "_apply", "__dict__"):  # no way round the view to the game itself
        with pytest.raises(AttributeError, match="does not show"):
            getattr(seen, name)


def test_the_bots_of_a_simulation_decide_on_their_seats_view(monkeypatch):
    from toprace_pi.games.toprace import simulate as simulation
    from toprace_pi.games.toprace.bots.greedy import GreedyBot

    given = []
    choose = GreedyBot.choose

    def watched(self, game):
        given.append(game.hands)
        return choose(self, game)

    monkeypatch.setattr(GreedyBot, "choose", watched)
    simulation.simulate(load_track("speed-street"), load_deck("standard"), players=3, seed=2)
    assert given and all(sum(hand is not None for hand in hands) == 1 for hands in given if hands)
