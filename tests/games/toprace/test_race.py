"""The race: cards in printed order, joker, Sprint/Breakdown, finish and race end."""

from __future__ import annotations

import pytest
from scenarios import BLACK, BLUE, CARS, DECK, GREEN, PURPLE, RED, YELLOW, race_ready
from support.cards import BLUE_5, BLUE_RED, PURPLE_6_JOKER, RED_6, YELLOW_6
from tracks import straight

from toprace_pi.errors import IllegalActionError
from toprace_pi.games.toprace.rules import Breakdown, Car, ChooseJoker, MoveCar, Phase, PlayCard, ReturnCar, Sprint
from toprace_pi.games.toprace.rules.events import BrokeDown, CarFinished, CarMoved, Forfeited, RaceEnded

B, R, Y, K, P, G = BLUE, RED, YELLOW, BLACK, PURPLE, GREEN
ROAD = straight(40)
# Anna (seat 0) owns Red, Yellow, Black; Ben owns Blue, Purple, Green.
OWNERS = {R: 0, B: 1, Y: 0, P: 1, K: 0, G: 1}


def at(game, car: Car) -> str:
    return game.track.space_id(game.board.at[car])


def start(positions: dict[Car, str], hands=((RED_6, PURPLE_6_JOKER, YELLOW_6, BLUE_RED),), track=ROAD):
    return race_ready(track, OWNERS, hands=hands, positions=positions)


SPREAD = {R: "a5", Y: "b5", K: "c5", B: "a20", P: "b20", G: "c20"}


def test_the_cards_cars_move_in_printed_order_by_their_values():
    game = start(SPREAD)
    assert game.to_move == 0  # Anna won the first auction
    game.apply(PlayCard(RED_6))
    order = []
    while game.phase is Phase.MOVE_CAR:
        order.append(game.moving.car)
        game.apply(game.legal_actions()[0])
    assert order == [R, Y, K, B]
    moved = [e for e in game.events if isinstance(e, CarMoved)]
    assert [(e.car, e.steps) for e in moved] == [(R, 6), (Y, 4), (K, 2), (B, 1)]
    assert game.to_move == 1 and RED_6 in game.played


def test_a_car_moved_earlier_on_the_card_can_block_a_later_one():
    game = start({R: "a9", Y: "a5", K: "b8", B: "c8", P: "b20", G: "c20"})
    game.apply(PlayCard(YELLOW_6))  # Yellow 6 / Red 4 / Black 2
    game.apply(MoveCar(Y, "a11"))
    assert set(game.move_ends()) == {"a13", "b13", "c13"}
    game.apply(MoveCar(R, "b13"))
    assert game.moving.car == K and game.moving.steps == 2


def test_the_joker_moves_any_car_not_shown_on_the_card():
    game = start(SPREAD)
    game.apply(PlayCard(PURPLE_6_JOKER))
    game.apply(game.legal_actions()[0])  # Purple 6
    game.apply(game.legal_actions()[0])  # Yellow 4
    assert game.phase is Phase.CHOOSE_JOKER
    assert set(game.joker_choices()) == {R, K, G}
    before, log = game.snapshot(), len(game.log)
    with pytest.raises(IllegalActionError, match="Blue is already on this card, the joker cannot move it"):
        game.apply(ChooseJoker(B))
    assert game.snapshot() == before and len(game.log) == log
    game.apply(ChooseJoker(G))
    assert game.moving.car == G and game.moving.points == 2
    game.apply(game.legal_actions()[0])
    assert game.moving.car == B  # then Blue 1, last on the card


def test_a_joker_on_a_finished_car_forfeits_its_points():
    game = start({**SPREAD, R: "a40"})
    game.apply(PlayCard(RED_6))
    game.apply(MoveCar(R, "finish"))
    for _ in range(3):
        game.apply(game.legal_actions()[0])
    _finish_turn(game)  # Ben's turn
    game.apply(PlayCard(PURPLE_6_JOKER))
    game.apply(game.legal_actions()[0])
    game.apply(game.legal_actions()[0])
    game.apply(ChooseJoker(R))
    assert game.events[-1] == Forfeited(R, 2, "already finished")
    assert game.moving.car == B


def test_finishing_order_is_move_order_not_distance():
    """Rulebook: Yellow 6 then Red 4 both cross the line; Red ends further past it but
    Yellow moved first and is 1st; Black 2 does not reach the line."""
    game = start({Y: "a35", R: "b38", K: "c30", B: "a10", P: "b10", G: "c10"})
    game.apply(PlayCard(YELLOW_6))
    game.apply(MoveCar(Y, "finish"))
    game.apply(MoveCar(R, "finish"))
    game.apply(game.legal_actions()[0])
    finishes = [e for e in game.events if isinstance(e, CarFinished)]
    assert finishes == [CarFinished(Y, 1, 0, 200_000), CarFinished(R, 2, 0, 150_000)]
    assert game.board.is_racing(K)
    assert game.money[0] == 200_000 - 30_000 + 350_000  # three 10,000 bids won, two prizes


def test_breakdown_the_car_ahead_waits_until_the_other_is_level():
    game = start({B: "b10", R: "b20", Y: "a5", K: "b5", P: "c5", G: "c10"})
    game.apply(PlayCard(BLUE_RED))
    game.apply(Breakdown())
    assert game.events[-1] == BrokeDown(R, B)
    assert not game.board.is_racing(R) and R in game.board.waiting
    # While broken down, Red's movement points are forfeited (Anna's Red 6 card later).
    assert game.to_move == 1




def test_a_broken_down_car_keeps_waiting_while_the_chaser_is_behind():
    game = start({B: "b14", R: "b20", Y: "a5", K: "b5", P: "c5", G: "c10"}, hands=((BLUE_RED,), (BLUE_5,)))
    game.apply(PlayCard(BLUE_RED))
    game.apply(Breakdown())
    game.apply(PlayCard(BLUE_5))
    game.apply(MoveCar(B, "a19"))
    assert game.phase is Phase.MOVE_CAR and game.moving.car == Y and R in game.board.waiting
    game.apply(game.legal_actions()[0])
    game.apply(game.legal_actions()[0])
    assert game.events[-1] == Forfeited(R, 2, "broken down")


def test_broken_down_car_returns_beside_its_place_when_the_chaser_reaches_it():
    game = start({B: "b15", R: "b20", Y: "a5", K: "b5", P: "c5", G: "c10"}, hands=((BLUE_RED,), (BLUE_5,)))
    game.apply(PlayCard(BLUE_RED))
    game.apply(Breakdown())
    assert DECK[BLUE_5].moves[0] == (B, 5)
    game.apply(PlayCard(BLUE_5))
    game.apply(MoveCar(B, "a20"))
    # Blue is level: Anna (Red's owner) chooses one of the spaces beside which Red waited.
    assert game.phase is Phase.RETURN_CAR and game.to_move == 0
    assert set(game.return_spaces()) == {"b20", "c20"}
    with pytest.raises(IllegalActionError, match="Red can go back on b20, c20, not on a20"):
        game.apply(ReturnCar(R, "a20"))
    game.apply(ReturnCar(R, "c20"))
    assert at(game, R) == "c20"
    assert game.phase is Phase.MOVE_CAR and game.moving.car == Y and game.to_move == 1


def test_if_the_spaces_beside_are_taken_the_car_returns_to_the_next_free_row_behind():
    game = start({B: "b15", R: "b20", Y: "a5", K: "b5", P: "c5", G: "c10"}, hands=((BLUE_RED,), (BLUE_5,)))
    game.apply(PlayCard(BLUE_RED))
    game.apply(Breakdown())
    game.board.set_up({P: game.track.index("b20"), G: game.track.index("c20")})
    game.apply(PlayCard(BLUE_5))
    game.apply(MoveCar(B, "a20"))
    assert set(game.return_spaces()) == {"a19", "b19", "c19"}


def test_a_breakdown_while_the_cars_stand_level_waits_for_the_chaser_to_move():
    """Read as "until the other car has driven level or past": the chaser must
    drive first, so the card is no free lane change for the car ahead."""
    game = start({B: "b20", R: "c20", Y: "a5", K: "b5", P: "c5", G: "c10"}, hands=((BLUE_RED,), (BLUE_5,)))
    assert game.board.ahead(R, B)  # level; Red is on the inside, as the next curve turns right
    game.apply(PlayCard(BLUE_RED))
    game.apply(Breakdown())
    assert R in game.board.waiting and game.phase is Phase.PLAY_CARD and game.to_move == 1
    game.apply(PlayCard(BLUE_5))
    game.apply(MoveCar(B, "c25"))
    assert game.phase is Phase.RETURN_CAR and game.to_move == 0
    assert set(game.return_spaces()) == {"a20", "b20", "c20"}


def test_a_sprint_is_forfeited_when_the_car_behind_is_level_already():
    game = start({B: "b20", R: "c20", Y: "a5", K: "b5", P: "c5", G: "c10"})
    game.apply(PlayCard(BLUE_RED))
    game.apply(Sprint())
    assert game.events[-1] == Forfeited(B, 0, "sprint: already level with Red")
    assert at(game, B) == "b20" and game.to_move == 1


def test_sprint_moves_the_car_behind_level_with_the_other():
    game = start({B: "b10", R: "b20", Y: "a5", K: "b5", P: "c5", G: "c10"})
    game.apply(PlayCard(BLUE_RED))
    game.apply(Sprint())
    assert set(game.move_ends()) == {"a20", "c20"}
    game.apply(MoveCar(B, "c20"))
    assert game.to_move == 1


def test_a_blocked_sprint_ends_behind_the_blockage():
    """Rulebook: Purple and Green block the way, so Blue only gets up to them."""
    game = start({B: "b10", R: "b20", P: "a15", G: "b15", K: "c15", Y: "a5"})
    game.apply(PlayCard(BLUE_RED))
    game.apply(Sprint())
    assert set(game.move_ends()) == {"a14", "b14", "c14"}


def test_sprint_or_breakdown_is_void_when_one_of_the_cars_has_finished():
    game = start({R: "a40", B: "b10", Y: "a5", K: "b5", P: "c5", G: "c10"},
                 hands=((RED_6, BLUE_RED),))
    game.apply(PlayCard(RED_6))
    game.apply(MoveCar(R, "finish"))
    _finish_turn(game)
    _finish_turn(game)  # Ben's turn
    game.apply(PlayCard(BLUE_RED))
    assert isinstance(game.events[-1], Forfeited) and game.to_move == 1


def test_the_race_ends_when_the_fifth_car_finishes_and_the_last_is_sixth():
    positions = {R: "a39", Y: "b39", K: "c39", B: "a40", P: "b37", G: "c20"}
    game = start(positions, hands=((RED_6, YELLOW_6),))
    game.apply(PlayCard(RED_6))  # Red, Yellow, Black, Blue all finish
    for car in (R, Y, K, B):
        game.apply(MoveCar(car, "finish"))
    game.apply(PlayCard(game.legal_actions()[0].number))  # Ben
    while not game.results:
        action = game.legal_actions()
        game.apply(next((a for a in action if getattr(a, "to", None) == "finish"), action[0]))
    result = game.results[0]
    assert result.placements[:4] == (R, Y, K, B) and result.placements[-1] == G
    assert result.reason == "5 cars have finished"
    assert result.payouts[0] == 200_000 + 150_000 + 100_000
    assert game.is_over and game.winners() == [0]


def test_a_player_whose_cars_have_all_finished_leaves_the_race():
    positions = {Y: "a38", R: "b39", K: "c39", B: "a10", P: "b10", G: "c10"}
    game = start(positions)
    game.apply(PlayCard(YELLOW_6))
    for car in (Y, R, K):
        game.apply(MoveCar(car, "finish"))
    for _ in range(3):  # Ben plays on alone
        assert game.phase is Phase.PLAY_CARD and game.to_move == 1
        _finish_turn(game)
    assert not game.takes_part(0)


def test_ranking_at_the_end_of_the_cards_uses_the_front_edge_then_the_inside_lane():
    """Rulebook: Black 4th, then Blue before Green because the next curve turns right
    and Blue is on the inside lane."""
    game = start({Y: "a30", R: "b29", K: "b25", B: "c20", G: "a20", P: "b28"})
    assert game.board.standings()[3:] == [K, B, G]
    left = straight(40, turn="left")
    game = start({Y: "a30", R: "b29", K: "b25", B: "c20", G: "a20", P: "b28"}, track=left)
    assert game.board.standings()[4:] == [G, B]


def test_the_race_ends_when_all_speed_cards_are_played():
    game = race_ready(straight(400), OWNERS)
    while not game.results:
        game.apply(game.legal_actions()[0])
    result = game.results[0]
    assert result.reason == "all speed cards are played"
    assert len(game.played) == 48 and sorted(result.placements) == sorted(CARS)
    assert isinstance(game.events[-2], RaceEnded) or game.is_over


def test_illegal_plays_change_nothing():
    game = start(SPREAD)
    before, log = game.snapshot(), len(game.log)
    ben_card = game.hands[1][0]
    for bad, message in [
        (PlayCard(ben_card), "Anna does not hold"),
        (PlayCard(99), "no speed card #99"),
        (MoveCar(R, "a9"), "must play a speed card"),
        (Sprint(), "must play a speed card"),
    ]:
        with pytest.raises(IllegalActionError, match=message):
            game.apply(bad)
        assert game.snapshot() == before and len(game.log) == log
    game.apply(PlayCard(RED_6))
    with pytest.raises(IllegalActionError, match="Red cannot end on a6; it may end on a11, b11, c11"):
        game.apply(MoveCar(R, "a6"))
    with pytest.raises(IllegalActionError, match="Red is to be moved now, not Blue"):
        game.apply(MoveCar(B, "a11"))


def _finish_turn(game) -> None:
    """Play out the current turn with the first legal choice each time."""
    turn = game.turn
    if game.phase is Phase.PLAY_CARD:
        game.apply(game.legal_actions()[0])
    while game.turn == turn and game.phase is not Phase.PLAY_CARD and not game.is_over:
        game.apply(game.legal_actions()[0])
