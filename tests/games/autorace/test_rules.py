"""AUTORACE's rules text (/work/shared/rules/autorace-rules-en.txt), every example and rule, played
through a real :class:`Autorace` by its actions: each scenario reaches its situation by whole rounds
from the start. Where only money or positions set by hand make a situation (an unpaid fine, five
figures on 72 at once), the test says so and moves the difference to the bank, so money is still
conserved.

Seats are A, B, C, D in the rules' examples: Anna, Ben, Carla, David."""

from __future__ import annotations

from dataclasses import replace

import pytest

from toprace_pi.errors import IllegalActionError, SettingsError
from toprace_pi.games.autorace.rules import BANNER, Autorace, Choose, Phase, Reveal, Settings
from toprace_pi.games.autorace.rules import events as ev
from toprace_pi.games.autorace.rules.game import STALLED_ROUNDS

from .rounds import ASKED_NOT, BOARD, NAMES, B, new_game, of_kind, play_round, play_rounds

A_, B_, C_, D_ = 0, 1, 2, 3
CAPITAL = 32


def conserved(game) -> bool:
    return sum(game.money) + game.bank == CAPITAL * len(game.names)


# --- speeding fines ---------------------------------------------------------------------------


def test_two_eights_pay_3_each_and_the_six_nothing():
    """"Players A and B play a 8, while player C plays a 6. Players A and B each pay a fine of $3,
    while player C pays nothing.\""""
    game = new_game(3)
    happened = play_round(game, 8, 8, 6)
    assert of_kind(happened, ev.Fined) == [ev.Fined(A_, 3), ev.Fined(B_, 3)]
    assert game.money == [29, 29, 32] and game.bank == 6 and game.positions == [8, 8, 6]


def test_a_five_is_never_fined_and_a_six_only_as_the_highest():
    game = new_game(3)
    assert of_kind(play_round(game, 5, 5, 4), ev.Fined) == []
    assert of_kind(play_round(game, 6, 7, 1), ev.Fined) == [ev.Fined(B_, 2)]


def test_a_fine_that_cannot_be_paid_costs_the_next_round():
    """"If a player does not have the money to pay the fine, he must miss out the next round."
    Set by hand: Anna has $2 left (the other $30 went to the bank)."""
    game = new_game(2)
    game.money[A_], game.bank = 2, 30
    happened = play_round(game, 10, 1)
    assert of_kind(happened, ev.FineUnpaid) == [ev.FineUnpaid(A_, 5)]
    assert game.money == [2, 32] and game.positions == [10, 1]  # the card still drives
    assert game.decision.seats == (B_,) and ev.MissesRound(A_) in game.events[len(game.events) - 3:]
    play_round(game, ASKED_NOT, 2)
    assert game.positions == [10, 3] and game.decision.seats == (A_, B_)
    assert conserved(game)


def test_the_fine_is_paid_before_the_bonus_of_the_same_round():
    """"Bonuses are collected after speeding fines are paid": a bonus won with a card cannot pay
    that card's fine. Set by hand: Anna has no money (her $32 went to the bank)."""
    game = new_game(2)
    play_round(game, 4, 1)
    game.money[A_], game.bank = 0, game.money[A_]
    happened = play_round(game, 8, 2)  # to 12: fined $3 she does not have, then the $2 bonus
    assert of_kind(happened, ev.FineUnpaid) == [ev.FineUnpaid(A_, 3)]
    assert of_kind(happened, ev.BonusPaid) == [ev.BonusPaid(A_, 12, 2)]
    assert game.money[A_] == 2 and game.decision.seats == (B_,)
    assert conserved(game)


# --- banners and filling stations -----------------------------------------------------------------


def test_two_banners_at_one_station_cost_4_each_while_the_third_drives():
    """"Players A, B and C all start the turn on the same numbered circle. Players A and B each play
    Banner cards, while player C plays a 4. Players A and B must each pay $4 to be able to draw.\""""
    game = new_game(3)
    play_rounds(game, [(5, 5, 5), (3, 3, 3), (2, 2, 2), (1, 1, 1)])
    assert game.positions == [11, 11, 11] and 11 in game.board.stations
    happened = play_round(game, B, B, 4)
    assert of_kind(happened, ev.Drew) == [ev.Drew(A_, 1, 4), ev.Drew(B_, 1, 4)]
    assert game.money == [28, 28, 32] and game.positions == [11, 11, 15]
    assert 1 in game.hands[A_] and game.discards[A_] == [5, 3, 2] and 1 not in game.hands[C_]


def test_a_draw_takes_the_top_of_the_pile_and_one_alone_pays_2():
    game = new_game(2)
    play_rounds(game, [(10, 1), (1, 2)])
    happened = play_round(game, B, 3)
    assert of_kind(happened, ev.Drew) == [ev.Drew(A_, 1, 2)]
    assert game.discards[A_] == [10] and game.hands[A_] == set(range(1, 10))


def test_a_banner_away_from_a_station_is_a_missed_turn():
    game = new_game(2)
    happened = play_round(game, B, 3)
    assert of_kind(happened, ev.Stopped) == [ev.Stopped(A_)]
    assert game.positions[A_] == 0 and game.money[A_] == 32 and game.hands[A_] == set(range(1, 11))


def test_a_banner_at_a_station_with_an_empty_pile_draws_nothing():
    game = new_game(2)
    play_rounds(game, [(10, 1), (1, 2), (B, 3), (B, 4)])  # to 11, then the 1 and the 10 drawn back
    assert game.discards[A_] == [] and game.money[A_] == 32 - 5 - 2 - 2
    happened = play_round(game, B, 5)
    assert of_kind(happened, ev.DrawFailed) == [ev.DrawFailed(A_, 0)]
    assert game.money[A_] == 23
    assert ev.DrawFailed(A_, 0).text(game.names) == "Anna has no card on the discard pile to take back"


def test_a_draw_that_cannot_be_paid_draws_nothing():
    """"If a player cannot pay the amount owed, he cannot draw a card." Set by hand: Anna has $1."""
    game = new_game(2)
    play_rounds(game, [(10, 1), (1, 2)])
    game.bank += game.money[A_] - 1
    game.money[A_] = 1
    happened = play_round(game, B, 3)
    assert of_kind(happened, ev.DrawFailed) == [ev.DrawFailed(A_, 2)] and game.discards[A_] == [10, 1]
    assert conserved(game)


# --- objectives ------------------------------------------------------------------------------------


def reach_27(players: int):
    """Every seat at 27 by 10, 9 and 8 (each fined $5, $4, $3: the cards tie as the highest)."""
    game = new_game(players)
    play_rounds(game, [(10,) * players, (9,) * players, (8,) * players])
    assert game.positions == [27] * players and game.money == [20] * players
    return game


def test_the_faster_of_two_on_36_collects_its_6():
    """"Player A plays a 5 card and lands on the 36; player B plays a 4 card and lands on the same
    space. Player A collects $6; player B collects none.\""""
    game = reach_27(2)
    play_round(game, 4, 5)  # A to 31, B to 32
    happened = play_round(game, 5, 4)
    assert game.positions == [36, 36]
    assert of_kind(happened, ev.BonusPaid) == [ev.BonusPaid(A_, 36, 6)]
    assert game.money == [26, 20] and 36 in game.paid


def test_two_as_fast_on_36_collect_3_each():
    """"Player A plays a 6 card and lands on the 36; player B also plays a 6 card and lands on the
    same space. Player A and B each collect $3." (Each 6 is fined $1 first.)"""
    game = reach_27(2)
    play_round(game, 3, 3)
    happened = play_round(game, 6, 6)
    assert of_kind(happened, ev.Fined) == [ev.Fined(A_, 1), ev.Fined(B_, 1)]
    assert of_kind(happened, ev.BonusPaid) == [ev.BonusPaid(A_, 36, 3), ev.BonusPaid(B_, 36, 3)]
    assert game.money == [22, 22]


def test_three_on_36_collect_nothing_and_48_is_worth_14():
    """"Players A, B and C all play a 4 card and land on the 36; no player collects any money and
    the bonus goes to the 48 space which now has a bonus of 14.\""""
    game = reach_27(3)
    play_round(game, 5, 5, 5)
    happened = play_round(game, 4, 4, 4)
    assert of_kind(happened, ev.BonusPaid) == [] and of_kind(happened, ev.BonusMovedOn) == [
        ev.BonusMovedOn(36, 48, 6)]
    assert game.money == [20, 20, 20] and game.bonuses[48] == 14 and game.bonuses[36] == 0


def test_with_48_paid_before_the_bonus_of_36_goes_on_to_60():
    """"If player D had [...] previously, landed on the 48, then the bonus would be added to the 60
    space to give that a bonus of 16.\""""
    game = reach_27(4)
    play_rounds(game, [(5, 5, 5, 7), (B, B, B, 6), (B, B, B, 5)])
    happened = play_round(game, B, B, B, 3)
    assert game.positions == [32, 32, 32, 48] and ev.BonusPaid(D_, 48, 8) in happened
    happened = play_round(game, 4, 4, 4, B)
    assert of_kind(happened, ev.BonusMovedOn) == [ev.BonusMovedOn(36, 60, 6)]
    assert game.bonuses[60] == 16 and game.bonuses[48] == 0


def test_with_48_landed_on_in_the_same_round_the_bonus_of_36_goes_on_to_60():
    """"If player D had just [...] landed on the 48": the same round, D paid first (the larger bonus)."""
    game = reach_27(4)
    play_rounds(game, [(5, 5, 5, 7), (B, B, B, 6), (B, B, B, 1), (B, B, B, 3)])
    assert game.positions == [32, 32, 32, 44]
    happened = play_round(game, 4, 4, 4, 4)
    assert of_kind(happened, ev.BonusPaid) == [ev.BonusPaid(D_, 48, 8)]
    assert of_kind(happened, ev.BonusMovedOn) == [ev.BonusMovedOn(36, 60, 6)] and game.bonuses[60] == 16


def test_a_bonus_grown_larger_than_the_next_one_still_passes_it_by_when_both_are_landed_on():
    """The same as "had just landed on the 48" when 36's bonus is the larger one (grown by 24's $4):
    taken first, it must still pass by the 48 landed on this round, not add to what D collects
    there. (The engine first added it to 48: D collected $18.)"""
    game = new_game(4)
    happened = play_rounds(game, [(10,) * 4, (9,) * 4, (5,) * 4])
    assert ev.BonusMovedOn(24, 36, 4) in happened and game.bonuses[36] == 10
    play_rounds(game, [(8,) * 4, (B, B, B, 7), (B, B, B, 3), (B, B, B, 2)])
    assert game.positions == [32, 32, 32, 44]
    before = game.money[D_]
    happened = play_round(game, 4, 4, 4, 4)
    assert of_kind(happened, ev.BonusMovedOn) == [ev.BonusMovedOn(36, 60, 10)]
    assert of_kind(happened, ev.BonusPaid) == [ev.BonusPaid(D_, 48, 8)] and game.money[D_] == before + 8
    assert game.bonuses[60] == 20


def test_objectives_of_one_round_are_paid_largest_first():
    """"Bonuses collected in the same turn are collected in order from largest to the smallest.\""""
    game = new_game(2)
    play_rounds(game, [(2, 6), (B, 8)])
    happened = play_round(game, 10, 10)
    assert game.positions == [12, 24]
    assert of_kind(happened, ev.BonusPaid) == [ev.BonusPaid(B_, 24, 4), ev.BonusPaid(A_, 12, 2)]


def test_an_objective_pays_once():
    game = new_game(2)
    play_round(game, 10, 1)
    assert of_kind(play_round(game, 2, 3), ev.BonusPaid) == [ev.BonusPaid(A_, 12, 2)]
    assert of_kind(play_round(game, B, 8), ev.BonusPaid) == [] and game.positions[B_] == 12


def test_more_than_two_on_72_divide_all_its_bonus_the_odd_dollars_to_the_fastest():
    """"In case of a tie with more than 2 players for the last space, the money is divided as evenly
    as possible": $12 among five is $2 each and the $2 left go to the two highest cards, the 10 and
    the 9 (a reading). Set by hand: the five figures stand on 62 to 66 (reaching them by rounds takes
    three draws each)."""
    game = new_game(5)
    game.positions[:] = [62, 63, 64, 65, 66]
    happened = play_round(game, 10, 9, 8, 7, 6)
    assert game.positions == [72] * 5
    assert of_kind(happened, ev.BonusPaid) == [ev.BonusPaid(A_, 72, 3), ev.BonusPaid(B_, 72, 3)] + [
        ev.BonusPaid(seat, 72, 2) for seat in range(2, 5)]
    assert game.money == [32 - 5 + 3, 35, 34, 34, 34] and game.bank == 5 - 12 and conserved(game)
    assert game.is_over and of_kind(happened, ev.GameEnded)[0].reason == "finish"


def test_three_on_72_with_60_rolled_on_share_all_22_dollars():
    """Three land on 60 together (its $10 goes on to 72, now $22), then on 72 together: $22 among
    three is $7, $7 and $8, the odd dollar to the highest card (Anna's 10); none stays with the bank.
    (The engine paid $7 each and kept $1.) Set by hand: Anna, Ben and Carla on 54, 55 and 57."""
    game = new_game(4)
    game.positions[:] = [54, 55, 57, 0]
    happened = play_round(game, 6, 5, 3, B)
    assert of_kind(happened, ev.BonusMovedOn) == [ev.BonusMovedOn(60, 72, 10)] and game.bonuses[72] == 22
    play_round(game, 2, 4, 5, B)
    bank = game.bank
    happened = play_round(game, 10, 8, 7, B)
    assert of_kind(happened, ev.BonusPaid) == [ev.BonusPaid(A_, 72, 8), ev.BonusPaid(B_, 72, 7),
                                               ev.BonusPaid(C_, 72, 7)]
    assert game.bank == bank + 5 - 22 and conserved(game)


def test_more_than_two_on_60_with_72_landed_on_in_the_same_round_divide_the_60():
    """A reading: a bonus moving on with no objective left ahead unpaid (72 is landed on this very
    round) is divided among those who landed, as on the last space: $10 among three equal cards is
    $3 each and the $1 left goes to the first of them in seat order (a reading). Set by hand: Anna,
    Ben and Carla on 54, David on 62."""
    game = new_game(4)
    game.positions[:] = [54, 54, 54, 62]
    happened = play_round(game, 6, 6, 6, 10)
    assert of_kind(happened, ev.BonusMovedOn) == []
    assert of_kind(happened, ev.BonusPaid) == [ev.BonusPaid(D_, 72, 12), ev.BonusPaid(A_, 60, 4)] + [
        ev.BonusPaid(seat, 60, 3) for seat in (B_, C_)]
    assert game.money == [32 + 4, 32 + 3, 32 + 3, 32 - 5 + 12] and conserved(game)  # the 10 alone is fined


def test_two_on_the_last_objective_are_not_divided_evenly_the_faster_takes_it():
    """The rule for two on one objective holds on 72 too: the faster one takes it all (dividing it
    "as evenly as possible" is for more than two). Set by hand: Anna on 62, Ben on 65."""
    game = new_game(2)
    game.positions[:] = [62, 65]
    happened = play_round(game, 10, 7)
    assert of_kind(happened, ev.BonusPaid) == [ev.BonusPaid(A_, 72, 12)]


def test_two_as_fast_on_an_odd_bonus_split_it_and_the_bank_keeps_the_odd_dollar():
    """A reading: the text divides "as evenly as possible" only among more than two on the last space;
    two as fast "split" the money, which the printed bonuses (all even, and so every sum of them) always
    allow. On a made board with an odd bonus the odd dollar of a split stays with the bank."""
    board = replace(BOARD, bonuses={**BOARD.bonuses, 12: 5})
    game = Autorace(Settings(NAMES[:2]), board)
    happened = play_rounds(game, [(5, 5), (4, 4), (3, 3)])
    assert game.positions == [12, 12]
    assert of_kind(happened, ev.BonusPaid) == [ev.BonusPaid(A_, 12, 2), ev.BonusPaid(B_, 12, 2)]
    assert game.money == [34, 34] and game.bank == -4 and conserved(game)


# --- the end of the track, out of the race ---------------------------------------------------------------

#: Anna's cards from the start to her last card on 60, by a draw at 11; Ben lays banners at 0 throughout.
TO_60 = [6, 5, B, 10, 9, 8, 7, 5, 4, 3, 2, 1]
#: Anna's cards to her last card on 56, by a draw at 11: $15 left for a fine of $16.
TO_56 = [10, 1, B, 9, 8, 7, 6, 5, 4, 3, 2, 1]


def test_the_last_card_on_60_costs_a_fine_of_12():
    """"Player A plays his last card and ends on the 60 space. He must pay a fine of $12." (She
    collects the $10 of 60 first.)"""
    game = new_game(2)
    happened = play_rounds(game, [(card, B) for card in TO_60])
    assert game.positions[A_] == 60 and not game.hands[A_]
    assert of_kind(happened, ev.OutOfRace) == [ev.OutOfRace(A_, 60, 12, 12)]
    assert game.money[A_] == 32 - 1 - 2 - 5 - 4 - 3 - 2 + 10 - 12 and not game.in_race[A_]
    assert game.decision.seats == (B_,)


def test_out_of_the_race_without_the_money_pays_what_one_can():
    """"If he does not have the money, he pays what he can.\""""
    game = new_game(2)
    happened = play_rounds(game, [(card, B) for card in TO_56])
    assert of_kind(happened, ev.OutOfRace) == [ev.OutOfRace(A_, 56, 16, 15)] and game.money[A_] == 0
    assert "pays a fine of $15 (of $16)" in of_kind(happened, ev.OutOfRace)[0].text(game.names)


def test_no_card_left_on_a_station_is_not_out_of_the_race():
    game = new_game(2)
    play_rounds(game, [(card, B) for card in (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)])
    assert game.positions[A_] == 55 and not game.hands[A_] and game.in_race[A_]
    assert of_kind(game.events[-3:], ev.OnlyBanner) == [ev.OnlyBanner(A_)]  # it lays its banner unasked
    assert game.decision.seats == (B_,)


def test_a_card_past_72_is_refused_in_words_and_changes_nothing():
    """"A player must land exactly on the 72, and cannot play a card that will take him beyond it.\""""
    game = new_game(2)
    play_rounds(game, [(card, B) for card in (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)])  # to 55, hand empty
    play_rounds(game, [(ASKED_NOT, B), (B, B), (B, B)])  # the 1, the 10 and the 9 drawn back
    play_round(game, 10, B)
    assert game.positions[A_] == 65 and game.hands[A_] == {1, 9}
    before = game.to_dict()
    with pytest.raises(IllegalActionError, match="a 9 would take Anna past 72"):
        game.apply(Choose(A_, 9))
    assert game.to_dict() == before and game.options(A_) == [1, BANNER]
    assert game.view(A_)["my_options"] == [1, BANNER]


def test_the_first_on_72_ends_the_game():
    game = new_game(2)
    game.positions[A_] = 62  # set by hand: the last ten spaces
    happened = play_round(game, 10, 3)
    assert ev.BonusPaid(A_, 72, 12) in happened and game.is_over
    assert of_kind(happened, ev.GameEnded) == [ev.GameEnded(1, "finish", (39, 32))]
    assert game.winners() == [A_]


def test_when_nobody_can_move_any_further_the_game_is_over():
    """"Play continues [...] until all players cannot move any further": both out of the race."""
    game = new_game(2)
    happened = play_rounds(game, [(card, card) for card in TO_56])
    assert [e.seat for e in of_kind(happened, ev.OutOfRace)] == [A_, B_]  # type: ignore[attr-defined]
    assert of_kind(happened, ev.Drew) == [ev.Drew(A_, 1, 4), ev.Drew(B_, 1, 4)]
    assert game.is_over and of_kind(happened, ev.GameEnded)[0].reason == "stuck"  # type: ignore[attr-defined]


def test_rounds_of_nothing_but_banners_end_the_game():
    """A reading (the rules only end the game when nobody *can* move): STALLED_ROUNDS rounds in a row
    that change nothing end it; a round that changes anything starts the count again."""
    game = new_game(2)
    play_rounds(game, [(B, B)] * (STALLED_ROUNDS - 1))
    play_round(game, 1, B)
    play_rounds(game, [(B, B)] * (STALLED_ROUNDS - 1))
    assert not game.is_over and game.still_rounds == STALLED_ROUNDS - 1
    happened = play_round(game, B, B)
    assert game.is_over and of_kind(happened, ev.GameEnded) == [ev.GameEnded(1, "stalled", (32, 32))]
    assert game.winners() == [A_, B_]


# --- series ----------------------------------------------------------------------------------------------


def broke_in_game_one(boost: int):
    """Four players, two games: Anna out of the race with no money left (TO_56), the others lay
    banners at 0 until the stall ends the game."""
    game = new_game(4, games=2, boost=boost)
    play_rounds(game, [(card, B, B, B) for card in TO_56])
    assert game.money == [0, 32, 32, 32]
    play_rounds(game, [(ASKED_NOT, B, B, B)] * STALLED_ROUNDS)
    assert game.game_number == 2 and game.results == [(0, 32, 32, 32)]
    return game


def test_with_money_carried_over_a_player_with_none_left_drops_out():
    game = broke_in_game_one(boost=0)
    assert ev.GameStarted(2, 0, (A_,)) in game.events and game.dropped == [True, False, False, False]
    assert game.in_race == [False, True, True, True] and game.decision.seats == (B_, C_, D_)
    assert game.positions == [0, 0, 0, 0] and game.money == [0, 32, 32, 32] and game.round == 1
    assert len(game.hands[B_]) == 10 and conserved(game)
    with pytest.raises(IllegalActionError, match="Anna is out of the race"):
        game.apply(Choose(A_, 3))


def test_with_a_boost_everyone_receives_it_and_plays_on():
    game = broke_in_game_one(boost=32)
    assert ev.GameStarted(2, 32, ()) in game.events and game.money == [32, 64, 64, 64]
    assert game.decision.seats == (A_, B_, C_, D_) and game.bank == 32 - 4 * 32 and conserved(game)


def test_a_series_ends_when_fewer_than_two_players_have_money():
    game = new_game(2, games=3)
    play_rounds(game, [(card, B) for card in TO_56])
    play_rounds(game, [(ASKED_NOT, B)] * STALLED_ROUNDS)
    assert game.phase is Phase.OVER and game.results == [(0, 32)] and game.winners() == [B_]
    assert game.events[-1] == ev.SeriesEnded((0, 32), (B_,))
    with pytest.raises(IllegalActionError, match="the series is over"):
        game.apply(Reveal())



@pytest.mark.parametrize(("fields", "message"), [
    ({"players": NAMES[:1]}, "AUTORACE is for 2 to"), ({"games": 0}, "at least one game"),
    ({"boost": -1}, "an amount of money"), ({"players": ("Anna", "Anna")}, "different names"),
], ids=["one player", "no game", "negative boost", "one name twice"])
def test_settings_no_series_can_be_played_with_are_a_settings_error(fields, message):
    with pytest.raises(SettingsError, match=message):
        Autorace(Settings(**{"players": NAMES[:2], **fields}), BOARD)
