"""The six car auctions ("Auction of the Race Cars")."""

from __future__ import annotations

import pytest
from scenarios import BLACK, BLUE, CARS, GREEN, PURPLE, RED, YELLOW, deal_with, new_game, win_auction
from tracks import straight

from toprace_pi.errors import IllegalActionError
from toprace_pi.games.toprace.rules import Bid, Car, Pass, Phase, PlaceCar, TakeCar, parse_action
from toprace_pi.games.toprace.rules.events import AuctionWon

TRACK = straight(30)


def dealt(players: int):
    game = new_game(TRACK, players)
    game.apply(deal_with(players))
    return game


def buy(game, seat: int, car: Car) -> None:
    win_auction(game, seat)
    game.apply(TakeCar(car))
    game.apply(PlaceCar(game.free_starting_spaces()[0]))


def test_the_opener_must_bid_at_least_10000_and_may_not_pass():
    game = dealt(4)
    assert game.phase is Phase.BID and game.to_move == 0
    assert Pass() not in game.legal_actions()
    with pytest.raises(IllegalActionError, match="may not pass"):
        game.apply(Pass())
    with pytest.raises(IllegalActionError, match="steps of 10,000"):
        game.apply(Bid(15_000))
    game.apply(Bid(10_000))
    assert game.to_move == 1 and Pass() in game.legal_actions()


def test_bids_must_rise_and_may_not_exceed_the_bidders_money():
    game = dealt(3)
    game.apply(Bid(50_000))
    with pytest.raises(IllegalActionError, match="more than the 50,000"):
        game.apply(Bid(50_000))
    with pytest.raises(IllegalActionError, match="only 200,000"):
        game.apply(Bid(210_000))
    game.apply(Bid(200_000))


def test_a_player_who_passed_is_out_until_the_next_auction():
    game = dealt(3)
    game.apply(Bid(10_000))  # Anna opens
    game.apply(Pass())  # Ben is out of this auction
    game.apply(Bid(20_000))  # Carla
    assert game.to_move == 0
    game.apply(Bid(30_000))  # Anna; Ben is skipped
    assert game.to_move == 2
    game.apply(Pass())
    assert game.phase is Phase.TAKE_CAR and game.to_move == 0


def test_the_winner_pays_the_bank_and_takes_a_car_and_a_free_starting_space():
    game = dealt(2)
    bank = game.bank
    game.apply(Bid(40_000))
    game.apply(Pass())
    assert game.money[0] == 160_000 and game.bank == bank + 40_000
    game.apply(TakeCar(GREEN))
    game.apply(PlaceCar(3))
    assert game.owner[GREEN] == 0
    assert PlaceCar(3) not in [a for a in game.legal_actions() if isinstance(a, PlaceCar)]
    win_auction(game, 1)
    with pytest.raises(IllegalActionError, match="Green already belongs to Anna"):
        game.apply(TakeCar(GREEN))
    game.apply(TakeCar(RED))
    with pytest.raises(IllegalActionError, match="starting space 3 is taken"):
        game.apply(PlaceCar(3))


def test_rulebook_example_four_players_eligibility():
    """Anna won the first two auctions: with 4 cars left for 3 players without one she
    may still bid; after a third car she may not."""
    game = dealt(4)
    buy(game, 0, RED)
    buy(game, 0, BLUE)
    assert game.auction.may_bid(0)
    buy(game, 0, YELLOW)
    assert not game.auction.may_bid(0)
    # She is never asked again: Ben opens (left of Anna) and bidding skips her.
    seen = set()
    while game.phase is Phase.BID:
        seen.add(game.to_move)
        game.apply(game.legal_actions()[-1] if game.to_move == 1 else Pass())
    assert 0 not in seen


def test_rulebook_example_another_player_winning_two_more_cars_stops_her_too():
    game = dealt(4)
    buy(game, 0, RED)
    buy(game, 0, BLUE)
    buy(game, 1, YELLOW)
    assert game.auction.may_bid(0)  # 3 cars left, 2 players without one
    buy(game, 1, BLACK)
    assert not game.auction.may_bid(0) and not game.auction.may_bid(1)


def test_the_opening_duty_passes_to_the_next_player_without_a_car():
    game = dealt(4)
    for car in (RED, BLUE, YELLOW):
        buy(game, 0, car)
    buy(game, 3, BLACK)  # left of David is Anna, who may no longer bid
    assert game.auction.opener == 1 and game.to_move == 1


def test_a_player_without_a_car_must_buy_the_last_one_for_30000():
    game = dealt(3)
    for car in (RED, BLUE, YELLOW, BLACK):
        buy(game, 0, car)
    buy(game, 1, PURPLE)
    # Carla has no car as the last auction comes up: no bidding, she pays 30,000.
    assert game.phase is Phase.TAKE_CAR and game.to_move == 2
    assert game.events[-1] == AuctionWon(2, 30_000, True)
    assert game.money[2] == 170_000
    assert game.legal_actions() == [TakeCar(GREEN)]


def test_six_auctions_even_with_two_players_and_the_first_winner_starts():
    game = dealt(2)
    for n, car in enumerate((RED, BLUE, YELLOW, BLACK, PURPLE, GREEN)):
        buy(game, 1 if n == 0 else n % 2, car)
    assert len(game.owner) == 6
    assert game.phase is Phase.PLAY_CARD and game.to_move == 1 and game.starter == 1


def test_an_auction_held_aloud_is_entered_as_one_sale():
    """At the real table bids are spoken; the controller enters only who won and the price."""
    from toprace_pi.games.toprace.rules import Sold

    game = dealt(3)
    bank = game.bank
    game.apply(Sold(2, 70_000))
    assert game.phase is Phase.TAKE_CAR and game.to_move == 2
    assert game.money[2] == 130_000 and game.bank == bank + 70_000
    assert parse_action(str(Sold(2, 70_000)), CARS) == Sold(2, 70_000)


@pytest.mark.parametrize("sale, message", [
    ((1, 15_000), "multiple of 10,000"),
    ((1, 0), "multiple of 10,000"),
    ((1, 210_000), "Ben has only 200,000"),
    ((7, 10_000), "no seat 7"),
])
def test_an_impossible_sale_is_refused(sale, message):
    from toprace_pi.games.toprace.rules import Sold

    game = dealt(3)
    with pytest.raises(IllegalActionError, match=message):
        game.apply(Sold(*sale))
    assert game.log[-1:] != [Sold(*sale)] and game.phase is Phase.BID


def test_a_sale_to_a_player_who_may_no_longer_bid_is_refused():
    from toprace_pi.games.toprace.rules import Sold

    game = dealt(4)
    for car in (RED, BLUE, YELLOW):
        buy(game, 0, car)
    with pytest.raises(IllegalActionError, match="Anna already has a car and may not bid"):
        game.apply(Sold(0, 10_000))
