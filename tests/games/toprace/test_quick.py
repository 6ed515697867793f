"""The quick rules (Blitzregel): cars turned up at random for auction, bets at the
betting lines, and the end when no car can move."""

from __future__ import annotations

import random

import pytest
from scenarios import BLACK, BLUE, CARS, DECK, GREEN, NAMES, PURPLE, RED, YELLOW, deal_with
from tracks import straight

from toprace_pi.errors import IllegalActionError
from toprace_pi.games.toprace.data import load_track
from toprace_pi.games.toprace.rules import Bid, Pass, Phase, PlaceCar, Settings, TakeCar
from toprace_pi.games.toprace.rules.actions import parse_action
from toprace_pi.games.toprace.rules.events import CarRevealed, TipsSettled
from toprace_pi.games.toprace.rules.variants import new_game
from toprace_pi.games.toprace.rules.variants.quick import REVEAL, Reveal
from toprace_pi.games.toprace.rules.variants.tips import STANDARD_TABLE, settle
from toprace_pi.games.toprace.simulate import simulate

ROAD = straight(40)


def quick_game(players=3, track=ROAD):
    game = new_game(Settings(NAMES[:players], variant="quick"), track, DECK)
    game.apply(deal_with(players))
    return game


def test_each_auction_is_for_a_car_turned_up_at_random():
    game = quick_game()
    assert game.phase is REVEAL and game.decision.chance and game.legal_actions() == []
    reveal = game.chance(random.Random(1))
    assert isinstance(reveal, Reveal)
    game.apply(Reveal(GREEN))
    assert game.events[-1] == CarRevealed(GREEN, 0) and game.phase is Phase.BID
    game.apply(Bid(10_000))
    game.apply(Pass())
    game.apply(Pass())
    assert game.legal_actions() == [TakeCar(GREEN)]
    with pytest.raises(IllegalActionError, match="this auction was for Green, not Red"):
        game.apply(TakeCar(RED))
    game.apply(TakeCar(GREEN))
    game.apply(PlaceCar(1))
    assert game.phase is REVEAL
    with pytest.raises(IllegalActionError, match="Green is already sold"):
        game.apply(Reveal(GREEN))
    assert parse_action("reveal blue", CARS) == Reveal(BLUE)


def test_the_opening_duty_moves_one_seat_on_each_auction():
    game = quick_game(players=3)
    openers = []
    for car in (RED, BLUE, YELLOW):
        game.apply(Reveal(car))
        openers.append(game.to_move)
        game.apply(Bid(10_000))
        while game.phase is Phase.BID:
            game.apply(Pass())
        game.apply(game.legal_actions()[0])
        game.apply(game.legal_actions()[0])
    assert openers == [0, 1, 2]  # Anna won each: the base game would have had Ben open twice


def test_bets_at_the_lines_are_settled_by_the_tip_table_and_players_leave_when_their_cars_finish():
    for seed in range(3):
        game = simulate(load_track("speed-street"), DECK, players=4, seed=seed, variant="quick")
        settled = next(e for e in game.events if isinstance(e, TipsSettled))
        assert list(settled.totals) == settle(game.tips, game.results[0].placements, STANDARD_TABLE)
        assert all(len(t) == game.rounds_held for t in game.tips)
        assert game.is_over


def auctioned(players=2):
    game = quick_game(players=players)
    for car in (RED, BLUE, YELLOW, BLACK, PURPLE, GREEN):
        game.apply(Reveal(car))
        if game.phase is Phase.BID:
            game.apply(Bid(10_000))
            while game.phase is Phase.BID:
                game.apply(Pass())
        game.apply(game.legal_actions()[0])
        game.apply(game.legal_actions()[0])
    return game


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_start_player_who_moved_on_with_every_auction_starts_the_race(players):
    """Our reading of the sheet: not the first auction's winner (seat 0 here)
    but the start player, who moved one seat clockwise with each of the six auctions."""
    game = auctioned(players)
    assert game.phase is Phase.PLAY_CARD and game.auction.first_winner == 0
    assert game.to_move == game.starter == 6 % players


def test_nobody_passes_a_turn_in_the_quick_rules():
    game = auctioned()
    assert game.phase is Phase.PLAY_CARD and Pass() not in game.legal_actions()


def test_the_race_ends_when_no_card_in_hand_can_move_a_car():
    game = auctioned()
    assert not game._no_car_can_move()
    for car in (RED, YELLOW, BLACK):  # these three have finished
        game.board.place_last(car)
    game.hands = [[13], [37]]  # Yellow 6 / Red 4 / Black 2, and Blue 3 / Red 2 / Black 1
    game.hand_size = [1, 1]
    assert DECK[37].cars == {RED, BLACK, BLUE}
    assert not game._no_car_can_move()  # Blue can still be moved by Ben's card
    game.hands = [[13], [13]]
    assert game._no_car_can_move()
    game._begin_turn()
    assert game.results[0].reason == "no car can move"


@pytest.mark.parametrize("seed", range(4))
def test_whole_quick_games_replay_exactly(seed):
    game = simulate(load_track("desert-drive"), DECK, players=2 + seed, seed=seed, bots="random", variant="quick")
    assert game.is_over and sorted(game.results[0].placements) == sorted(CARS)
    again = type(game).replay(game.settings, game.track, game.deck, [str(a) for a in game.log])
    assert again.snapshot() == game.snapshot()
    assert sum(isinstance(a, Reveal) for a in game.log) == 6
