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
