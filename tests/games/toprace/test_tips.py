"""Variant A, Tips: tip rounds at the tip lines, the tip table, passing, settlement."""

from __future__ import annotations

import pytest
from scenarios import BLACK, BLUE, CARS, DECK, GREEN, NAMES, PURPLE, RED, YELLOW, deal_with, win_auction
from tracks import straight

from toprace_pi.errors import DataError, IllegalActionError, SettingsError
from toprace_pi.games.toprace.data import load_tip_table, load_track
from toprace_pi.games.toprace.rules import MoveCar, Pass, Phase, PlaceCar, PlayCard, Settings, TakeCar
from toprace_pi.games.toprace.rules.actions import parse_action
from toprace_pi.games.toprace.rules.events import TipRound, TipsSettled
from toprace_pi.games.toprace.rules.game import BANKNOTES_TOTAL
from toprace_pi.games.toprace.rules.variants import new_game, variant_names
from toprace_pi.games.toprace.rules.variants.tips import STANDARD_TABLE, TIP, Tip, TipTable, settle
from toprace_pi.games.toprace.simulate import simulate

B, R, Y, K, P, G = BLUE, RED, YELLOW, BLACK, PURPLE, GREEN
ROAD = straight(40)  # tip lines at 10, 20, 30
YELLOW_6 = 13  # Yellow 6 / Red 4 / Black 2


def test_the_rulebook_example_pays_50000():
    """1st tip Blue, 2nd Red, 3rd Blue; Blue places 2nd, Red 5th: +60,000 -30,000 +20,000."""
    placements = (Y, B, K, G, R, P)
    assert settle([[B, R, B]], placements, STANDARD_TABLE) == [50_000]


def test_the_shipped_table_is_the_reconstructed_one_and_holds_the_three_given_values():
    table = load_tip_table()
    assert table == STANDARD_TABLE and table.reconstructed
    assert (table.payout(0, 2), table.payout(1, 5), table.payout(2, 2)) == (60_000, -30_000, 20_000)
    for place in range(1, 7):  # an earlier tip pays more and risks more
        assert abs(table.payout(0, place)) >= abs(table.payout(1, place)) >= abs(table.payout(2, place))


def test_a_broken_tip_table_is_refused():
    with pytest.raises(DataError) as caught:
        TipTable.from_dict({"tips": {"first": [1, 2], "second": [15_000] * 6}}, "my-tips.toml")
    text = str(caught.value)
    assert "my-tips.toml" in text and "[tips] first" in text and "multiples of 10,000" in text
    assert "[tips] third" in text


def tips_game(track=ROAD, players=2, at_end=False):
    game = new_game(Settings(NAMES[:players], variant="tips", tips_at_end=at_end), track, DECK)
    game.apply(deal_with(players, [(YELLOW_6,)]))
    for n, car in enumerate((Y, R, K, B, P, G)):
        win_auction(game, n % players)
        game.apply(TakeCar(car))
        game.apply(PlaceCar(game.free_starting_spaces()[0]))
    return game


def test_a_tip_round_pauses_the_race_when_the_lead_car_crosses_a_tip_line():
    game = tips_game()
    game.board.set_up({Y: ROAD.index("a5"), R: ROAD.index("b3")})
    game.apply(PlayCard(YELLOW_6))
    game.apply(MoveCar(Y, "a11"))  # the lead crosses the 1st tip line (10)
    assert game.phase is TIP and game.events[-1] == TipRound(1)
    assert game.to_move == 0  # starting with the player whose card it is
    with pytest.raises(IllegalActionError):
        game.apply(MoveCar(R, "b7"))
    game.apply(Tip(Y))
    assert game.to_move == 1
    game.apply(Tip(R))
    assert game.tips == [[Y], [R]] and game.rounds_held == 1
    assert game.phase is Phase.MOVE_CAR and game.moving.car == R  # the card goes on


def test_players_may_pass_and_the_race_ends_when_everyone_passed_once():
    game = tips_game()
    assert Pass() in game.legal_actions()
    game.apply(Pass())
    game.apply(Pass())
    assert game.results and game.results[0].reason == "every player has passed once in turn"
    assert isinstance(game.events[-3], TipsSettled) or any(isinstance(e, TipsSettled) for e in game.events)


def test_a_played_card_breaks_the_run_of_passes():
    game = tips_game()
    game.apply(Pass())
    game.apply(game.legal_actions()[0])  # Ben plays
    while game.phase is not Phase.PLAY_CARD:
        game.apply(game.legal_actions()[0])
    game.apply(Pass())
    assert not game.results and game.passes_in_a_row == 1


def test_players_stay_in_the_race_after_their_cars_have_finished():
    game = tips_game(players=2)
    game.board.set_up({Y: ROAD.index("a38"), R: ROAD.index("b39"), K: ROAD.index("c39")})
    game.apply(PlayCard(YELLOW_6))
    while game.phase in (Phase.MOVE_CAR, TIP):
        game.apply(game.legal_actions()[-1] if game.phase is Phase.MOVE_CAR else Tip(Y))
    assert {Y, R, K} <= set(game.board.finished)
    game.apply(game.legal_actions()[0])  # Ben
    while game.phase is not Phase.PLAY_CARD:
        game.apply(game.legal_actions()[0])
    assert game.to_move == 0 and game.takes_part(0)


def test_at_the_table_tips_are_announced_during_the_race_and_entered_at_the_end():
    game = tips_game(at_end=True)
    game.board.set_up({Y: ROAD.index("a5")})
    game.apply(PlayCard(YELLOW_6))
    game.apply(MoveCar(Y, "a11"))
    assert TipRound(1) in game.events and game.phase is Phase.MOVE_CAR  # no pause at the table
    game.apply(game.legal_actions()[0])
    game.apply(game.legal_actions()[0])
    game.apply(Pass())
    game.apply(Pass())
    assert game.phase is TIP and game.to_move == 0  # the race is over: reveal the tips
    game.apply(Tip(Y))
    assert game.to_move == 1
    game.apply(Tip(B))
    assert game.is_over and game.results[0].reason == "every player has passed once in turn"
    settled = next(e for e in game.events if isinstance(e, TipsSettled))
    place = {car: n for n, car in enumerate(game.results[0].placements)}
    assert settled.totals == (STANDARD_TABLE.rows[0][place[Y]], STANDARD_TABLE.rows[0][place[B]])


def test_money_may_go_below_zero_and_the_game_says_so():
    game = tips_game()
    game.money[0] = 10_000
    game.bank -= 0
    game.tips[0] = [G, G, G]
    placements = (Y, R, K, B, P, G)
    game._settle(placements)
    assert game.money[0] == 10_000 - 120_000
    assert "below zero: Anna" in game.events[-1].text(game.names)


def test_tip_notation_and_the_registry():
    assert parse_action("tip red", CARS) == Tip(R) and str(Tip(G)) == "tip green"
    assert "tips" in variant_names()
    with pytest.raises(SettingsError, match="unknown variant"):
        new_game(Settings(NAMES[:2], variant="rally"), ROAD, DECK)
    with pytest.raises(SettingsError, match="Tips and Stocks do not go together"):
        new_game(Settings(NAMES[:2], variant="tips+stocks"), ROAD, DECK)


@pytest.mark.parametrize("track", ["speed-street", "lake-lane", "desert-drive", "turbo-town"])
@pytest.mark.parametrize("bots", ["greedy", "random"])
def test_whole_tips_games_settle_every_tip_by_the_table(track, bots):
    game = simulate(load_track(track), DECK, players=3, seed=len(track) + len(bots), bots=bots, variant="tips")
    assert game.is_over
    settled = next(e for e in game.events if isinstance(e, TipsSettled))
    assert list(settled.totals) == settle(game.tips, game.results[0].placements, STANDARD_TABLE)
    assert all(len(t) == game.rounds_held for t in game.tips)
    assert game.bank + sum(game.money) == BANKNOTES_TOTAL
    again = type(game).replay(game.settings, game.track, game.deck, [str(a) for a in game.log])
    assert again.snapshot() == game.snapshot()


def test_the_race_ends_at_once_when_every_hand_is_empty():
    """Nobody is asked to pass when passing is all anyone could do."""
    game = new_game(Settings(NAMES[:3], variant="tips"), straight(400), DECK)  # too long to finish on
    game.apply(deal_with(3))
    for n, car in enumerate((Y, R, K, B, P, G)):
        win_auction(game, n % 3)
        game.apply(TakeCar(car))
        game.apply(PlaceCar(game.free_starting_spaces()[0]))
    while not game.is_over:
        legal = game.legal_actions()
        assert legal != [Pass()], f"{game.current_name} is asked to pass with nothing else to do"
        game.apply(next(a for a in legal if a != Pass()))
    assert game.hand_size == [0, 0, 0]
    assert game.results[0].reason == "all speed cards are played"
