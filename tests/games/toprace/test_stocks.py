"""Variant B, Stocks: the deal and offer row, the offer auctions and seating order,
the random grid, stock rounds, settlement and the tie-break; then property tests
over whole games on every track."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scenarios import CARS, DECK, NAMES
from support.cards import BLUE_5, RED_6
from support.stocks import GRID, B, G, K, P, R, Y, illegal, win_offer
from tracks import straight

from toprace_pi.errors import IllegalActionError
from toprace_pi.games.toprace.bots import SIMPLE_KINDS
from toprace_pi.games.toprace.bots.greedy import GreedyBot
from toprace_pi.games.toprace.data import load_track, track_names
from toprace_pi.games.toprace.report import text_report
from toprace_pi.games.toprace.rules import (
    Bid,
    Breakdown,
    Car,
    Deal,
    MoveCar,
    Pass,
    Phase,
    PlayCard,
    Settings,
    Sold,
    TopRace,
)
from toprace_pi.games.toprace.rules.actions import Action, ReturnCar, TakeCar, parse_action
from toprace_pi.games.toprace.rules.auction import OPENING_BID
from toprace_pi.games.toprace.rules.events import (
    AuctionWon,
    CardPlayed,
    CarFinished,
    GameEnded,
    GridSet,
    OfferCardTaken,
    RaceEnded,
    SeatingOrder,
    StockRound,
    StocksPaid,
    StocksTraded,
    money,
)
from toprace_pi.games.toprace.rules.game import BANKNOTES_TOTAL, START_CAPITAL
from toprace_pi.games.toprace.rules.variants import new_game, replay_game, variant_names
from toprace_pi.games.toprace.rules.variants.stocks import (
    DEAL,
    MAX_STOCKS,
    PITSTOP_DEAL,
    TOTAL_STOCKS,
    TRADE,
    Grid,
    StocksGame,
    TakeOffer,
    Trade,
    possible_trades,
    stock_payout,
    trade,
)
from toprace_pi.games.toprace.rules.variants.stocks import GRID as GRID_PHASE
from toprace_pi.games.toprace.simulate import bots_for, player_names, simulate
from toprace_pi.games.toprace.table.words import announcement

ROAD = straight(40)
SPRINT_BREAKDOWN = (46, 47, 48)
BLUE_RED = 46


# --- helpers ------------------------------------------------------------------------


def stocks_game(players: int = 2, *, opener: int = 0, races: int = 1, track=ROAD) -> StocksGame:
    settings_ = Settings(NAMES[:players], races=races, first_opener=opener, variant="stocks")
    game = new_game(settings_, track, DECK)
    assert isinstance(game, StocksGame)
    return game


def stocks_deal(players: int, hands: Sequence[Sequence[int]] = (), offer: Sequence[int] = ()) -> Deal:
    """A Stocks deal in which seat i holds ``hands[i]`` and the offer row holds
    the Sprint/Breakdown cards plus ``offer`` (the rest filled in deck order)."""
    k, size = DEAL[players]
    wanted = [list(h) for h in hands] + [[] for _ in range(players - len(hands))]
    row = list(SPRINT_BREAKDOWN) + [n for n in offer if n not in SPRINT_BREAKDOWN]
    rest = [n for n in DECK.numbers if n not in row and all(n not in h for h in wanted)]
    for hand in wanted:
        while len(hand) < k:
            hand.append(rest.pop(0))
    while len(row) < size:
        row.append(rest.pop(0))
    return Deal(tuple(tuple(sorted(h)) for h in wanted), tuple(rest), offer=tuple(sorted(row)))


def ready(
    players: int = 2,
    winners: Sequence[int] = (0, 1, 1),
    *,
    hands: Sequence[Sequence[int]] = (),
    picks: Sequence[int] = (),
    positions: dict[Car, str] | None = None,
    opener: int = 0,
) -> StocksGame:
    """A Stocks game whose offer auctions went to ``winners`` (each taking
    ``picks[i]``, or the first card of the row), with the standard grid drawn."""
    game = stocks_game(players, opener=opener)
    game.apply(stocks_deal(players, hands, picks))
    for i, seat in enumerate(winners):
        win_offer(game, seat)
        game.apply(TakeOffer(picks[i] if i < len(picks) else game.offer[0]))
    assert game.phase is GRID_PHASE and game.decision.chance
    game.apply(GRID)
    if positions:
        game.board.set_up({car: ROAD.index(space) for car, space in positions.items()})
    return game


def finish_turn(game: TopRace) -> None:
    """Play out the current turn with the first legal choice each time."""
    turn = game.turn
    game.apply(game.legal_actions()[0])
    while game.turn == turn and game.phase not in (Phase.PLAY_CARD, TRADE) and not game.is_over:
        game.apply(game.legal_actions()[0])


def refused(game: TopRace, action: Action, message: str) -> None:
    """``action`` is refused with ``message`` and changes nothing."""
    before, log, events = game.snapshot(), len(game.log), len(game.events)
    assert not game.is_legal(action)
    with pytest.raises(IllegalActionError, match=message):
        game.apply(action)
    assert game.snapshot() == before and len(game.log) == log and len(game.events) == events


# --- the rulebook's examples ------------------------------------------------------------


def test_the_rulebook_settlement_example():
    """Red/Yellow/Blue/Black/Purple/Green place 1st-6th with 7/5/11/2/4/1 stocks;
    60,000 was spent at the auction.

    The rulebook's table is off by one row: it prints 60,000 for the single Green
    stock (6th, 10,000 a stock) and so totals 3,550,000 and 3,690,000. One stock at
    10,000 pays 10,000 (six would break the 30-stock total), so the stocks pay
    3,500,000 and the player ends with 3,640,000; every other row matches."""
    holdings = [0] * 6
    for car, n in {R: 7, Y: 5, B: 11, K: 2, P: 4, G: 1}.items():
        holdings[car] = n
    placements = (R, Y, B, K, P, G)
    assert sum(holdings) == TOTAL_STOCKS
    rows = [stock_payout([holdings[c] if c == car else 0 for c in CARS], placements) for car in placements]
    assert rows[:5] == [1_400_000, 750_000, 1_100_000, 120_000, 120_000]  # as printed
    assert rows[5] == 10_000  # printed: 60,000
    assert stock_payout(holdings, placements) == 3_550_000 - 50_000

    game = stocks_game(2)
    game.apply(stocks_deal(2))
    win_offer(game, 0, 60_000)  # Anna opens at 60,000
    game.apply(TakeOffer(game.offer[0]))
    win_offer(game, 1)
    game.apply(TakeOffer(game.offer[0]))
    win_offer(game, 1, 20_000)  # Ben takes his second card: Anna gets the last one free
    game.apply(TakeOffer(game.offer[0]))
    assert game.money[0] == START_CAPITAL - 60_000
    game.apply(GRID)
    game.stocks[0] = holdings
    game.board.set_up({car: ROAD.index(f"a{30 - n}") for n, car in enumerate(placements)})
    game._end_race("all speed cards are played")
    paid = next(e for e in game.events if isinstance(e, StocksPaid) and e.seat == 0)
    assert paid == StocksPaid(0, ((R, 7), (Y, 5), (B, 11), (K, 2), (P, 4), (G, 1)), 3_500_000, 3_640_000)
    assert game.money[0] == 3_690_000 - 50_000 == START_CAPITAL - 60_000 + 3_500_000
    assert "pay 3,500,000: now 3,640,000" in paid.text(game.names)
    assert game.bank + sum(game.money) == BANKNOTES_TOTAL


def test_the_race_end_names_no_prize_money_of_zeros_after_the_stocks_have_paid():
    """The cars of a Stocks race have no owner: its stocks pay, no prize money does. The report and the
    table's announcement used to follow the stocks' payouts with "Payouts: Anna 0, Ben 0, ..." (the
    announcement with a bare "Payouts:")."""
    game = play_checked(Setup("speed-street", ("greedy",) * 4, seed=1))
    ended = next(e for e in game.events if isinstance(e, RaceEnded))
    paid = [e.text(game.names) for e in game.events if isinstance(e, StocksPaid)]
    report = text_report(game)
    assert len(paid) == 4 and all(f"      {line}\n" in report for line in paid)
    assert "Payouts" not in report and "Prize money" not in report and " 0," not in report
    assert announcement(ended, game.names) == ended.text(game.names) and ended.prize_money(game.names) == ""


def test_a_base_race_names_its_prize_money_by_player_as_the_finishes_paid_it():
    """Beside the Stocks race, the base game's line stays: each owner's prizes, named as prize money."""
    game = simulate(track("speed-street"), DECK, players=3, seed=2)
    prizes = [0, 0, 0]
    for event in game.events:
        if isinstance(event, CarFinished) and event.seat is not None:
            prizes[event.seat] += event.prize
    expected = ", ".join(f"{name} {money(prize)}" for name, prize in zip(game.names, prizes, strict=True))
    ended = next(e for e in game.events if isinstance(e, RaceEnded))
    assert f"\n  Prize money: {expected}\n" in text_report(game) and all(prizes)
    assert announcement(ended, game.names) == f"{ended.text(game.names)}. Prize money: {expected}"


def test_the_rulebook_stock_round_example():
    """Sell one Purple and one Black, buy two Blue: Blue 7, Purple 4, Black 4."""
    after = trade([5] * 6, Trade((P, K), (B, B)))
    assert (after[B], after[P], after[K]) == (7, 4, 4) and sum(after) == TOTAL_STOCKS

    game = ready(2)
    finish_turn(game)
    finish_turn(game)
    assert game.phase is TRADE and game.to_move == 0 and game.events[-1] == StockRound(1)
    game.apply(parse_action("trade sell purple,black buy blue,blue", CARS))
    assert game.snapshot()["stocks"][0] == {"blue": 7, "red": 5, "yellow": 5, "black": 4, "purple": 4, "green": 5}
    assert game.events[-1] == StocksTraded(0) and game.events[-1].text(game.names) == "Anna has traded"
    assert game.phase is TRADE and game.to_move == 1
    game.apply(Trade((R, R), (R, R)))  # selling and buying back the same stocks is allowed
    assert game.stocks[1] == [5] * 6
    assert game.phase is Phase.PLAY_CARD and game.to_move == 0


# --- stock limits ---------------------------------------------------------------------


def test_stock_limits_are_refused_with_clear_messages_and_change_nothing():
    game = ready(2)
    finish_turn(game)
    finish_turn(game)
    game.stocks[0] = [15, 0, 5, 5, 5, 0]
    refused(game, Trade((R, Y), (B, P)), "Anna holds no Red stocks and cannot sell 1")
    refused(game, Trade((G, G), (Y, Y)), "Anna holds no Green stocks and cannot sell 2")
    refused(game, Trade((Y, K), (B, P)), "Anna would hold 16 Blue stocks: at most 15 of a car")
    refused(game, Trade((Y,), (P, P)), "sells exactly 2 stocks and buys exactly 2, so the total stays at 30")
    refused(game, Trade((Y, Y, K), (P, P, P)), "total stays at 30; not 3 sold and 3 bought")
    refused(game, Trade((R, B), (R, B)), "Anna holds no Red stocks")  # sales come first
    game.stocks[0] = [1, 5, 5, 5, 5, 9]
    refused(game, Trade((B, B), (G, G)), "Anna holds only 1 Blue stock and cannot sell 2")
    game.stocks[0] = [15, 0, 5, 5, 5, 0]
    legal = game.legal_actions()
    assert Trade((B, B), (B, B)) in legal and Trade((B, Y), (P, B)) in legal
    assert all(isinstance(a, Trade) and not set(a.sell) & {R, G} for a in legal)
    game.apply(Trade((B, B), (B, B)))  # at 15: sell two, buy them back
    assert game.stocks[0] == [15, 0, 5, 5, 5, 0]


def test_every_listed_trade_keeps_the_limits_and_every_other_is_refused():
    rng = random.Random(4)
    for _ in range(40):
        holdings = [0] * 6
        for _ in range(TOTAL_STOCKS):
            car = rng.choice([c for c in range(6) if holdings[c] < MAX_STOCKS])
            holdings[car] += 1
        listed = set(possible_trades(holdings, CARS))
        for sell in [(a, b) for a in CARS for b in CARS if a <= b]:
            for buy in [(a, b) for a in CARS for b in CARS if a <= b]:
                action = Trade(sell, buy)
                try:
                    after = trade(holdings, action)
                except IllegalActionError:
                    assert action not in listed
                    continue
                assert action in listed and sum(after) == TOTAL_STOCKS and all(0 <= n <= MAX_STOCKS for n in after)


# --- the deal and the offer row --------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_deal_follows_the_stocks_table(players):
    expected = {2: (22, 4, 0), 3: (15, 3, 0), 4: (11, 4, 0), 5: (8, 5, 3), 6: (7, 6, 0)}[players]
    game = stocks_game(players)
    deal = game.deal(random.Random(players))
    assert deal.hands is not None
    assert [len(h) for h in deal.hands] == [expected[0]] * players
    assert len(deal.offer) == expected[1] and len(deal.left_out) == expected[2]
    assert set(SPRINT_BREAKDOWN) <= set(deal.offer)
    everything = [n for h in deal.hands for n in h] + list(deal.offer) + list(deal.left_out)
    assert sorted(everything) == sorted(DECK.numbers)
    game.apply(deal)
    assert game.offer == sorted(deal.offer) and game.hand_size == [expected[0]] * players
    assert game.phase is Phase.BID and game.to_move == 0
    again = parse_action(str(deal), CARS)
    assert again == deal


def test_bad_deals_are_refused():
    game = stocks_game(2)
    good = stocks_deal(2)
    assert good.hands is not None
    swapped = (tuple(sorted(good.hands[0][1:] + (BLUE_RED,))), good.hands[1])
    offer = tuple(sorted([n for n in good.offer if n != BLUE_RED] + [good.hands[0][0]]))
    refused(game, Deal(swapped, good.left_out, offer=offer), "Sprint/Breakdown cards always lie in the offer row")
    refused(game, Deal(good.hands, good.left_out + good.offer[-1:], offer=good.offer[:-1]),
            "the offer row holds 4 speed cards, not 3")
    refused(game, Deal(good.hands, good.left_out), "the offer row holds 4 speed cards, not 0")
    refused(game, Deal(None), "the offer row lies face up: name its cards")
    refused(game, Deal(good.hands, good.left_out, offer=(46, 47, 48, 48)), "every speed card of the deck exactly once")
    base = TopRace(Settings(NAMES[:2]), ROAD, DECK)
    refused(base, Deal(good.hands, good.left_out, offer=good.offer), "only the Stocks variant lays out an offer row")


def test_deal_notation_with_an_offer_row_and_the_older_forms():
    deal = parse_action("deal 1,2/3,4 offer 46,47,48,9 out 5", CARS)
    assert deal == Deal(((1, 2), (3, 4)), (5,), offer=(46, 47, 48, 9))
    assert str(deal) == "deal 1,2/3,4 offer 46,47,48,9 out 5"
    assert parse_action("deal 1,2/3,4 out 5", CARS) == Deal(((1, 2), (3, 4)), (5,))
    assert parse_action("deal hidden", CARS) == Deal(None)
    assert parse_action("deal hidden offer 46,47,48", CARS) == Deal(None, offer=(46, 47, 48))
    assert str(Deal(None, offer=(46, 47, 48))) == "deal hidden offer 46,47,48"
    assert parse_action("pick 46", CARS) == TakeOffer(46) and str(TakeOffer(9)) == "pick 9"
    assert parse_action("grid blue,red,yellow,black,purple,green", CARS) == GRID
    assert str(GRID) == "grid blue,red,yellow,black,purple,green"
    assert parse_action("trade sell red,blue buy green,green", CARS) == Trade((B, R), (G, G))
    assert str(Trade((P, K), (B, B))) == "trade sell black,purple buy blue,blue"


def test_a_hidden_deal_names_the_offer_row_and_taken_cards_stay_with_their_taker():
    game = stocks_game(2)
    game.apply(parse_action("deal hidden offer 9,46,47,48", CARS))
    win_offer(game, 0)
    game.apply(TakeOffer(9))
    win_offer(game, 1)
    game.apply(TakeOffer(BLUE_RED))
    win_offer(game, 1)
    game.apply(TakeOffer(47))
    game.apply(GRID)
    assert game.hand_size == [24, 24] and game.to_move == 0
    assert 9 in game.playable_cards() and BLUE_RED not in game.playable_cards()
    refused(game, PlayCard(BLUE_RED), "Anna does not hold speed card #46")
    game.hand_size[0] = 2  # as if Anna had played all but two cards: those must be the ones she took
    assert game.playable_cards() == [9, 48]
    refused(game, PlayCard(RED_6), r"Anna's last cards are those taken from the offer row \(#9, #48\)")


# --- the offer auctions and the seating order ---------------------------------------------------


def test_offer_auctions_winners_stop_bidding_and_sit_in_the_order_they_won():
    game = stocks_game(4, opener=0)
    game.apply(stocks_deal(4))
    bank = game.bank
    win_offer(game, 2, 20_000)  # Carla wins the first auction: she starts the race
    assert game.events[-1] == AuctionWon(2, 20_000, False)
    game.apply(TakeOffer(BLUE_RED))
    assert game.events[-1] == OfferCardTaken(2, str(DECK[BLUE_RED]), False)
    assert BLUE_RED not in game.offer and BLUE_RED in game.hands[2] and game.hand_size[2] == 12
    auction = game.auction
    assert auction.opener == 3 and not auction.bidding[2]  # David, to Carla's left, opens
    refused(game, Sold(2, 10_000), "Carla has already won an offer card and bids no more")
    win_offer(game, 0)  # Anna wins: she sits down after Carla, David stays to her left
    game.apply(TakeOffer(game.offer[0]))
    assert game.auction.opener == 3 and game.auction.bidding == [False, True, False, True]
    seen = set()
    while game.phase is Phase.BID:
        seen.add(game.to_move)
        game.apply(Bid(OPENING_BID) if not game.auction.may_pass() else Pass())
    assert seen == {1, 3} and game.to_move == 3  # David opened and nobody overbid
    last_paid, free = game.offer
    game.apply(TakeOffer(last_paid))
    assert game.events[-2:] == [OfferCardTaken(1, str(DECK[free]), True), SeatingOrder((2, 0, 3, 1))]
    assert "for free" in game.events[-2].text(game.names)
    assert game.events[-1].text(game.names) == "Seating order: Carla, Anna, David, Ben (Carla starts)"
    assert game.offer == [] and game.hand_size == [12, 12, 12, 12]
    assert game.money == [START_CAPITAL - 20_000, START_CAPITAL, START_CAPITAL - 20_000, START_CAPITAL - 10_000]
    assert game.bank == bank + 50_000
    assert game.phase is GRID_PHASE and game.decision.chance
    game.apply(GRID)
    turns = []
    while game.phase is not TRADE:
        turns.append(game.to_move)
        finish_turn(game)
    assert turns == [2, 0, 3, 1]
    trades = []
    while game.phase is TRADE:
        trades.append(game.to_move)
        game.apply(game.legal_actions()[0])
    assert trades == [2, 0, 3, 1] and game.to_move == 2


def test_two_players_one_taking_two_cards_leaves_the_other_the_rest_free():
    game = stocks_game(2)
    game.apply(stocks_deal(2))
    win_offer(game, 0)
    game.apply(TakeOffer(game.offer[0]))
    assert game.auction.opener == 1 and game.auction.bidding == [True, True]  # both keep bidding
    win_offer(game, 0)
    game.apply(TakeOffer(game.offer[0]))
    free = [e for e in game.events if isinstance(e, OfferCardTaken) and e.free]
    assert [e.seat for e in free] == [1, 1] and game.offer == []
    assert game.hand_size == [24, 24] and game.order == [0, 1]
    assert game.money == [START_CAPITAL - 30_000, START_CAPITAL]  # Ben opened the 2nd auction, Anna outbid him


def test_two_players_each_winning_once_bid_on_for_the_third_card():
    game = stocks_game(2)
    game.apply(stocks_deal(2))
    win_offer(game, 0)
    game.apply(TakeOffer(game.offer[0]))
    win_offer(game, 1)
    game.apply(TakeOffer(game.offer[0]))
    assert game.phase is Phase.BID and game.auction.opener == 0 and game.auction.bidding == [True, True]
    win_offer(game, 1)
    game.apply(TakeOffer(game.offer[0]))
    free = [e for e in game.events if isinstance(e, OfferCardTaken) and e.free]
    assert [e.seat for e in free] == [0] and game.hand_size == [24, 24]
    assert game.order == [0, 1] and game.phase is GRID_PHASE


def test_only_offer_cards_can_be_taken():
    game = stocks_game(3)
    game.apply(stocks_deal(3))
    win_offer(game, 1)
    assert sorted(a.number for a in game.legal_actions()) == list(SPRINT_BREAKDOWN)
    refused(game, TakeOffer(RED_6), r"speed card #1 is not in the offer row \(#46, #47, #48\)")
    refused(game, TakeCar(R), "now Ben must take a card from the offer row; take red is not possible")


# --- the grid --------------------------------------------------------------------------------


def test_the_grid_is_a_random_order_of_the_six_cars_drawn_by_chance():
    game = stocks_game(2)
    grids = {game.grid(random.Random(seed)).cars for seed in range(30)}
    assert len(grids) > 20 and all(sorted(g) == sorted(CARS) for g in grids)
    game.apply(stocks_deal(2))
    for seat in (0, 1, 1):
        win_offer(game, seat)
        game.apply(TakeOffer(game.offer[0]))
    assert game.legal_actions() == []
    refused(game, Grid((B, R, Y, K, P, P)), "puts each of the 6 cars on one starting space")
    refused(game, Grid((B, R, Y, K, P)), "puts each of the 6 cars on one starting space")
    drawn = game.chance(random.Random(3))
    assert isinstance(drawn, Grid)
    game.apply(drawn)
    for start, car in enumerate(drawn.cars, 1):
        assert game.board.at[car] == ROAD.starting_spaces[start]
    assert game.events[-1] == GridSet(drawn.cars) and game.events[-1].text(game.names).startswith("Starting grid: 1 ")
    assert game.owner == {} and game.phase is Phase.PLAY_CARD and game.to_move == 0


# --- the race --------------------------------------------------------------------------------


def test_stock_rounds_stop_once_the_first_car_has_finished():
    game = ready(2, hands=[(RED_6,)], positions={R: "a40"})
    game.apply(PlayCard(RED_6))
    game.apply(MoveCar(R, "finish"))
    assert game.events[-1] == CarFinished(R, 1, None, 200_000)
    while game.turn == 0:
        game.apply(game.legal_actions()[0])
    finish_turn(game)  # Ben: the round is over, but a car has finished
    assert game.phase is Phase.PLAY_CARD and game.to_move == 0
    assert not any(isinstance(e, StockRound) for e in game.events)
    assert game.money == [START_CAPITAL - 10_000, START_CAPITAL - 30_000]  # no owner: nobody is paid


def test_a_stock_round_follows_every_round_until_then():
    game = ready(3, winners=(0, 1))
    for number in (1, 2, 3):
        for _ in range(3):
            finish_turn(game)
        assert game.phase is TRADE and game.events[-1] == StockRound(number)
        for _ in range(3):
            game.apply(game.legal_actions()[0])
    assert game.stock_rounds == 3 and len(game.played) == 9


def test_everyone_must_play_a_card_on_each_turn():
    game = ready(2)
    assert Pass() not in game.legal_actions()
    refused(game, Pass(), "now Anna must play a speed card; pass is not possible")
    assert all(game.takes_part(s) for s in range(2)) and game.owner == {}


def test_the_player_whose_card_lets_the_chaser_catch_up_returns_the_broken_down_car():
    game = ready(2, hands=[(), (BLUE_5,)], picks=(BLUE_RED,),
                 positions={B: "b15", R: "b20", Y: "a5", K: "b5", P: "c5", G: "c10"})
    assert BLUE_RED in game.hands[0]
    game.apply(PlayCard(BLUE_RED))
    game.apply(Breakdown())
    game.apply(PlayCard(BLUE_5))
    game.apply(MoveCar(B, "a20"))
    assert game.phase is Phase.RETURN_CAR and game.to_move == 1  # Ben played the card
    game.apply(ReturnCar(R, "c20"))
    assert game.phase is Phase.MOVE_CAR and game.moving.car == Y


# --- the winner ------------------------------------------------------------------------------


def ended(winners=(2, 0), money=None, holdings=None) -> StocksGame:
    """A 3-player race ended with Red/Yellow/Blue/Black/Purple/Green 1st-6th;
    seating order Carla, Anna, Ben (Ben's turn comes last)."""
    game = ready(3, winners=winners, opener=0)
    assert game.order == [2, 0, 1]
    if money is not None:
        game.bank += sum(game.money) - sum(money)
        game.money = list(money)
    if holdings is not None:
        game.stocks = [list(h) for h in holdings]
    game.board.set_up({car: ROAD.index(f"a{30 - n}") for n, car in enumerate((R, Y, B, K, P, G))})
    game._end_race("all speed cards are played")
    assert game.is_over and game.results[-1].placements == (R, Y, B, K, P, G)
    return game


def test_ties_are_broken_by_stocks_of_the_first_car_then_the_next_then_the_seating_order():
    #   index by car: Blue, Red, Yellow, Black, Purple, Green
    same = [5, 5, 5, 5, 5, 5]
    game = ended(money=[0, 0, 0], holdings=[same, same, same])
    assert game.money == [2_750_000] * 3
    assert game.ranking() == [1, 0, 2] and game.winners() == [1]  # Ben's turn comes last
    assert game.events[-1] == GameEnded(tuple(game.money), (1,))
    assert game.events[-1].text(game.names) == "Game over: Ben wins with 2,750,000"

    def rank(money, holdings):
        game.money = list(money)
        game.stocks = [list(h) for h in holdings]
        return game.ranking()

    assert rank([100, 300, 200], [same] * 3) == [1, 2, 0]  # money first
    red = [5, 6, 5, 5, 5, 4]  # one more Red (1st), one less Green (6th)
    assert rank([7, 7, 7], [red, same, same]) == [0, 1, 2]
    yellow = [5, 5, 6, 4, 5, 5]  # more Yellow (2nd) beats more Blue (3rd)
    blue = [6, 5, 5, 4, 5, 5]
    assert rank([7, 7, 7], [blue, same, yellow]) == [2, 0, 1]
    purple = [5, 5, 5, 5, 4, 6]  # one less Purple (5th), so one more Green (6th): the 6th never decides
    assert rank([7, 7, 7], [same, purple, same]) == [0, 2, 1]  # Anna's turn comes after Carla's
    assert rank([7, 7, 7], [purple, same, purple]) == [1, 0, 2]


# --- views and bots ----------------------------------------------------------------------------


def test_a_seat_sees_only_its_own_stocks():
    game = ready(3, winners=(0, 1))
    game.stocks[1] = [7, 5, 5, 5, 3, 5]
    view = game.view(0)
    assert "stocks" not in view and view["my_stocks"] == dict.fromkeys(["blue", "red", "yellow", "black",
                                                                      "purple", "green"], 5)
    assert view["my_hand"] == game.hands[0] and view["seat"] == 0
    assert json.dumps(view)
    assert game.view(1)["my_stocks"]["blue"] == 7 and game.snapshot()["stocks"][1]["blue"] == 7
    assert all("7" not in e.text(game.names) for e in game.events if isinstance(e, StocksTraded))


def test_the_greedy_bot_sells_the_two_rearmost_cars_and_buys_the_leader():
    game = ready(2, positions={B: "a20", R: "b19", Y: "c18", K: "a17", P: "b16", G: "c15"})
    finish_turn(game)
    finish_turn(game)
    standings = game.board.standings()
    action = GreedyBot(1).choose(game)
    assert action == Trade(tuple(standings[-2:]), (standings[0], standings[0]))
    game.stocks[0] = [15, 1, 4, 4, 4, 2]
    game.board.set_up({B: ROAD.index("a30"), G: ROAD.index("c5")})
    standings = game.board.standings()
    assert standings[0] == B and standings[-1] == G
    # Blue is at the limit of 15: the bot buys the next car's stocks instead
    assert GreedyBot(1).choose(game) == Trade((G, standings[-2]), (standings[1], standings[1]))


def test_the_greedy_bot_bids_for_the_offer_and_takes_the_best_card():
    game = stocks_game(3)
    game.apply(stocks_deal(3))
    bot = GreedyBot(5)
    assert bot.choose(game) == Bid(OPENING_BID)  # the opener must bid
    game.apply(Bid(OPENING_BID))
    assert isinstance(bot.choose(game), Bid)  # a Sprint/Breakdown card is worth more than 10,000
    win_offer(game, 1)
    assert bot.choose(game) in [TakeOffer(n) for n in SPRINT_BREAKDOWN]


# --- variant registry, tables, simulation -------------------------------------------------------


def test_stocks_is_registered_and_does_not_combine_with_tips():
    assert "stocks" in variant_names()
    with pytest.raises(IllegalActionError, match="Tips and Stocks do not go together"):
        new_game(Settings(NAMES[:2], variant="stocks+tips"), ROAD, DECK)


def test_the_stocks_and_pit_stop_table_deals_every_card():
    for players, (k, offer, box) in PITSTOP_DEAL.items():
        assert players * k + offer + box == len(DECK)
        assert offer >= len(SPRINT_BREAKDOWN)
    for players, (k, offer) in DEAL.items():
        assert players * k + offer + (3 if players == 5 else 0) == len(DECK)


# --- properties over whole games -------------------------------------------------------------------

TRACKS = track_names()
MAX_ACTIONS = 6000
GAMES = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@cache
def track(name: str):
    return load_track(name)


@dataclass(frozen=True)
class Setup:
    track: str
    kinds: tuple[str, ...]
    seed: int
    races: int = 1
    hidden: bool = False

    def new_game(self) -> StocksGame:
        players = len(self.kinds)
        settings_ = Settings(player_names(players), races=self.races, first_opener=self.seed % players,
                             track=self.track, variant="stocks")
        game = new_game(settings_, track(self.track), DECK)
        assert isinstance(game, StocksGame)
        return game


@st.composite
def setups(draw: st.DrawFn, races: st.SearchStrategy[int] = st.just(1)) -> Setup:
    players = draw(st.integers(2, 6))
    mode = draw(st.sampled_from(("random", "greedy", "mix")))
    if mode == "mix":
        kinds = tuple(draw(st.lists(st.sampled_from(SIMPLE_KINDS), min_size=players, max_size=players)))
    else:
        kinds = (mode,) * players
    return Setup(draw(st.sampled_from(TRACKS)), kinds, draw(st.integers(0, 2**32 - 1)), draw(races),
                 draw(st.booleans()))


class Observer:
    """Checks the Stocks invariants after every action, keeping its own books from the events."""

    def __init__(self, game: StocksGame) -> None:
        self.game = game
        self.money = list(game.money)
        self.seen = 0
        self.plays = 0
        self.finished = False

    def after(self) -> None:
        game = self.game
        for event in game.events[self.seen:]:
            self._event(event)
        self.seen = len(game.events)
        for held in game.stocks:
            assert sum(held) == TOTAL_STOCKS and all(0 <= n <= MAX_STOCKS for n in held), held
        self._check_cards()
        assert game.bank + sum(game.money) == BANKNOTES_TOTAL
        assert game.money == self.money, "money moved that no event announced"
        if game.phase is Phase.PLAY_CARD:
            assert Pass() not in game.legal_actions() and game.legal_actions()

    def _event(self, event: Any) -> None:
        game = self.game
        if isinstance(event, AuctionWon):
            self.money[event.seat] -= event.price
        elif isinstance(event, StocksPaid):
            self.money[event.seat] += event.amount
            held = [0] * len(CARS)
            for car, n in event.holdings:
                held[car] = n
            assert sum(held) == TOTAL_STOCKS and sorted(c for c, _ in event.holdings) == sorted(CARS)
            assert event.amount == stock_payout(held, [c for c, _ in event.holdings])
        elif isinstance(event, CardPlayed):
            self.plays += 1
        elif isinstance(event, CarFinished):
            self.finished = True
            assert event.seat is None
        elif isinstance(event, StockRound):
            assert not self.finished, "a stock round after the first car finished"
            assert self.plays == event.round * game.player_count, "a stock round before the round was over"
        elif isinstance(event, SeatingOrder):
            assert sorted(event.order) == list(range(game.player_count))
        elif isinstance(event, RaceEnded):
            assert sorted(event.placements) == sorted(CARS) and not any(event.payouts)
            self.plays, self.finished = 0, False
        elif isinstance(event, GameEnded):
            assert list(event.winners) == game.ranking()[:1]

    def _check_cards(self) -> None:
        game = self.game
        if game.phase is Phase.DEAL:
            return
        played = game.played
        assert len(played) == len(set(played)) and not set(played) & set(game.offer)
        k, size = DEAL[game.player_count]
        if game.hands is not None:
            places = [n for h in game.hands for n in h] + played + game.offer + list(game.left_out)
            assert sorted(places) == sorted(DECK.numbers), "a speed card in two places, or lost"
            assert [len(h) for h in game.hands] == game.hand_size
        else:
            assert sum(game.hand_size) + len(played) + len(game.offer) == game.player_count * k + size


def play_checked(setup: Setup, probe=None, rate: float = 0.0) -> StocksGame:
    game = setup.new_game()
    observer = Observer(game)
    bots = bots_for(setup.kinds, setup.seed)
    chance, dice = random.Random(setup.seed), random.Random(~setup.seed)
    while not game.is_over:
        assert len(game.log) < MAX_ACTIONS * setup.races, "the game does not end"
        if probe is not None and dice.random() < rate:
            probe(game, dice)
        if game.decision.chance:
            action = game.chance(chance)
            if setup.hidden and isinstance(action, Deal):
                action = Deal(None, offer=action.offer)
        else:
            action = bots[game.to_move].choose(game)
        game.apply(action)
        observer.after()
    assert len(game.results) == setup.races and isinstance(game.events[-1], GameEnded)
    return game


def assert_replays(game: StocksGame) -> None:
    again = replay_game(game.settings, game.track, game.deck, [str(a) for a in game.log])
    assert again.snapshot() == game.snapshot() and again.events == game.events
    saved = json.loads(json.dumps(game.to_dict()))
    assert saved["snapshot"] == game.snapshot()


def refuse_illegal(game: StocksGame, rng: random.Random) -> None:
    def state() -> tuple[Any, ...]:
        hands = None if game.hands is None else [list(h) for h in game.hands]
        return (game.snapshot(), len(game.log), len(game.events), [str(a) for a in game.legal_actions()], hands)

    before = state()
    legal = set(game.legal_actions())
    for action in illegal(game, rng):
        assert action not in legal, action
        with pytest.raises(IllegalActionError):
            game.apply(action)
        assert state() == before, f"refusing {action} changed the game"


@pytest.mark.parametrize("name", TRACKS)
@pytest.mark.parametrize("bots", ["greedy", "random"])
def test_whole_stocks_games_on_every_track(name, bots):
    setup = Setup(name, (bots,) * 4, seed=len(name))
    game = play_checked(setup)
    assert any(isinstance(e, StockRound) for e in game.events)
    assert_replays(game)


@settings(GAMES, max_examples=300)
@given(setups(races=st.integers(1, 2)))
def test_stocks_invariants_hold_after_every_action(setup: Setup) -> None:
    play_checked(setup)


@settings(GAMES, max_examples=80)
@given(setups(races=st.integers(1, 2)))
def test_replaying_a_stocks_log_rebuilds_the_game(setup: Setup) -> None:
    assert_replays(play_checked(setup))


@settings(GAMES, max_examples=100)
@given(setups())
def test_illegal_actions_in_stocks_are_refused_and_change_nothing(setup: Setup) -> None:
    game = play_checked(setup, refuse_illegal, rate=0.2)
    refuse_illegal(game, random.Random(setup.seed))
