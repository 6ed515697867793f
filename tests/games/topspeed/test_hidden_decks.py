"""Decks shuffled by hand (physical minicards): a hidden shuffle leaves the order unknown, and each
draw names the card that came up; the engine refuses a card the deck cannot hold any more."""

from __future__ import annotations

import json
import random

import pytest

from toprace_pi.errors import IllegalActionError
from toprace_pi.games.topspeed.rules import Draw, DrawCard, HiddenShuffle, Settings, Shuffle, TopSpeed, parse_action
from toprace_pi.games.topspeed.rules.game import GRID

from .helpers import CIRCUIT, DECK, NAMES, conserved


def hidden_race(players: int, **rules) -> TopSpeed:
    game = TopSpeed(Settings(NAMES[:players], **rules), CIRCUIT, DECK)
    settle_by_hand(game, random.Random(0))
    return game


def settle_by_hand(game: TopSpeed, rng: random.Random) -> None:
    while game.chance_queue:
        step = game.chance_queue[0]
        if step == GRID:
            outcomes = game.chance_outcomes()
            game.apply(outcomes[rng.randrange(outcomes.total)])
        else:
            game.apply(HiddenShuffle(step))


def test_the_notation_of_a_hidden_shuffle_and_a_named_draw():
    for text in ("hidden shuffle 2", "draw card yellow_flag 1", "draw card 3 0"):
        assert str(parse_action(text)) == text
    assert parse_action("draw card 3 0") == DrawCard(0, "3")


def test_a_deck_shuffled_by_hand_is_drawn_by_naming_the_card():
    game = hidden_race(2)
    seat = game.turn
    assert Draw(seat) not in game.options(seat) and DrawCard(seat, "yellow_flag") in game.options(seat)
    with pytest.raises(IllegalActionError, match="shuffled by hand: a draw names the card"):
        game.apply(Draw(seat))
    size = len(game.decks[seat])
    game.apply(DrawCard(seat, "4"))
    assert len(game.decks[seat]) == size - 1 and game.rows[seat][-1].points == 4
    assert game.view(None)["hidden_decks"] == [True, True]


def test_a_card_the_deck_no_longer_holds_is_refused_and_nothing_changes():
    game = hidden_race(2)  # a normal race: one Safety Car of two is set aside
    first = game.turn
    game.apply(DrawCard(first, "safety_car"))
    second = game.turn
    game.apply(DrawCard(second, "1"))
    before = json.dumps(game.to_dict(), sort_keys=True)
    with pytest.raises(IllegalActionError, match="holds no more Safety Car"):
        game.apply(DrawCard(first, "safety_car"))
    assert json.dumps(game.to_dict(), sort_keys=True) == before


def test_a_known_deck_takes_no_named_draw():
    game = TopSpeed(Settings(NAMES[:2]), CIRCUIT, DECK)
    while game.chance_queue:
        step = game.chance_queue[0]
        game.apply(game.chance_outcomes()[0] if step == GRID else Shuffle(step, 0))
    with pytest.raises(IllegalActionError, match="is known: a draw names no card"):
        game.apply(DrawCard(game.turn, "1"))


@pytest.mark.parametrize("seed", range(12))
def test_random_races_with_decks_shuffled_by_hand_end_and_replay(seed):
    rng = random.Random(seed)
    rules = rng.choice([{}, {"kers": True}, {"qualifying": True, "fastest_lap": True}, {"race": "wet",
                                                                                         "blank_card": True}])
    game = TopSpeed(Settings(NAMES[:rng.randint(2, 6)], laps=8, **rules), CIRCUIT, DECK)
    while not game.is_over:
        if game.chance_queue:
            settle_by_hand(game, rng)
            continue
        game.apply(rng.choice(game.legal_actions()))
        assert conserved(game)
    assert json.dumps(game.replayed(game.log).to_dict()) == json.dumps(game.to_dict())
