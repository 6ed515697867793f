"""The game object: notation, saving and replaying, dealing, matches of several races."""

from __future__ import annotations

import json
import random

import pytest
from scenarios import BLACK, BLUE, CARS, DECK, GREEN, PURPLE, RED, deal_with, new_game
from tracks import straight

from toprace_pi.errors import IllegalActionError, NotationError, SettingsError, TopRaceError
from toprace_pi.games.toprace.data import load_track
from toprace_pi.games.toprace.rules import (
    Bid,
    Breakdown,
    ChooseJoker,
    Deal,
    MoveCar,
    Pass,
    Phase,
    PlaceCar,
    PlayCard,
    ReturnCar,
    Settings,
    Sold,
    Sprint,
    TakeCar,
    parse_action,
)
from toprace_pi.games.toprace.rules import actions as actions_module
from toprace_pi.games.toprace.rules.events import AuctionWon
from toprace_pi.games.toprace.rules.game import BANKNOTES_TOTAL
from toprace_pi.games.toprace.rules.variants import replay_game
from toprace_pi.games.toprace.simulate import simulate

ACTIONS = [
    Deal(((1, 2), (3, 4)), (5,)), Deal(None), Bid(40_000), Pass(), Sold(1, 30_000), TakeCar(GREEN), PlaceCar(3),
    PlayCard(17), ChooseJoker(BLACK), Sprint(), Breakdown(), MoveCar(RED, "b12"),
    MoveCar(BLUE, "finish"), ReturnCar(PURPLE, "a7"),
]


@pytest.mark.parametrize("action", ACTIONS, ids=str)
def test_notation_and_repr_round_trip(action):
    assert parse_action(str(action), CARS) == action
    assert eval(repr(action), {**vars(actions_module), "Car": CARS.parse}) == action


@pytest.mark.parametrize("text", ["", "fly 3", "bid", "bid ten", "move red", "take pink", "pass now",
                                  "deal 1,2/3 in 4", "play 1 2"])
def test_bad_notation_is_one_clear_error(text):
    with pytest.raises(NotationError) as caught:
        parse_action(text, CARS)
    assert isinstance(caught.value, (TopRaceError, ValueError)) and str(caught.value)


def test_errors_share_one_root_that_is_a_value_error():
    assert issubclass(IllegalActionError, TopRaceError) and issubclass(IllegalActionError, ValueError)
    assert issubclass(NotationError, TopRaceError) and issubclass(NotationError, ValueError)


def test_settings_are_checked():
    with pytest.raises(SettingsError, match="2 to 6 players"):
        Settings(("Anna",))
    with pytest.raises(SettingsError, match="different name"):
        Settings(("Anna", "Anna"))


class TestDeal:
    def test_the_deal_is_a_chance_action_from_a_seeded_generator(self):
        game = new_game(straight(30), 5)
        assert game.decision.chance and game.phase is Phase.DEAL and game.legal_actions() == []
        deal = game.deal(random.Random(3))
        assert deal == game.deal(random.Random(3))
        assert [len(h) for h in deal.hands] == [9] * 5 and len(deal.left_out) == 3
        game.apply(deal)
        assert game.phase is Phase.BID and game.hand_size == [9] * 5

    @pytest.mark.parametrize("players", [2, 3, 4, 6])
    def test_every_card_is_dealt_without_leftovers_except_with_five(self, players):
        deal = new_game(straight(30), players).deal(random.Random(1))
        assert sorted(n for h in deal.hands for n in h) == sorted(DECK.numbers) and deal.left_out == ()

    def test_a_wrong_deal_is_refused(self):
        game = new_game(straight(30), 2)
        with pytest.raises(IllegalActionError, match="each 24 speed cards"):
            game.apply(Deal(((1,), (2,))))
        hands = deal_with(2).hands
        with pytest.raises(IllegalActionError, match="exactly once"):
            game.apply(Deal((hands[0], hands[0])))
        assert game.log == []

    def test_a_hidden_deal_lets_any_unplayed_card_be_played(self):
        """At the real table the cards are dealt by hand; the engine learns them when played."""
        game = new_game(straight(30), 2)
        game.apply(Deal(None))
        while game.phase is not Phase.PLAY_CARD:
            game.apply(game.legal_actions()[-1])
        assert len(game.legal_actions()) == 48
        game.apply(PlayCard(40))
        while game.phase is not Phase.PLAY_CARD:
            game.apply(game.legal_actions()[0])
        with pytest.raises(IllegalActionError, match="already played in this race"):
            game.apply(PlayCard(40))


class TestSaveAndReplay:
    def test_state_and_log_serialize_to_json_and_replay_exactly(self):
        track = load_track("speed-street")
        game = simulate(track, DECK, players=3, races=2, seed=11, bots="mixed")
        saved = json.loads(json.dumps(game.to_dict()))
        again = replay_game(Settings(**{**saved["settings"], "players": tuple(saved["settings"]["players"])}),
                            track, DECK, saved["log"])
        assert again.snapshot() == saved["snapshot"] == game.snapshot()
        assert [e.text(again.names) for e in again.events] == [e.text(game.names) for e in game.events]

    def test_replay_of_a_game_in_progress(self):
        track = load_track("lake-lane")
        game = simulate(track, DECK, players=4, seed=5)
        half = game.log[: len(game.log) // 2]
        partial = replay_game(game.settings, track, DECK, half)
        assert len(partial.log) == len(half) and not partial.is_over

    def test_a_log_with_an_illegal_step_is_refused(self):
        track = load_track("speed-street")
        game = simulate(track, DECK, players=2, seed=1)
        log = [str(a) for a in game.log]
        log[5] = "bid 5"
        with pytest.raises(IllegalActionError):
            replay_game(game.settings, track, DECK, log)

    def test_same_seed_same_game(self):
        track = load_track("desert-drive")
        a = simulate(track, DECK, players=4, seed=9)
        b = simulate(track, DECK, players=4, seed=9)
        assert a.log == b.log and a.money == b.money


class TestMatch:
    def test_money_carries_over_and_cars_are_auctioned_again_each_race(self):
        track = load_track("speed-street")
        game = simulate(track, DECK, players=4, races=3, seed=2)
        assert game.is_over and game.race == 3 and len(game.results) == 3
        takes = [a for a in game.log if isinstance(a, TakeCar)]
        deals = [a for a in game.log if isinstance(a, Deal)]
        assert len(takes) == 18 and len(deals) == 3
        prizes = sum(sum(r.payouts) for r in game.results)
        paid = sum(e.price for e in game.events if isinstance(e, AuctionWon))
        assert sum(game.money) == 4 * 200_000 + prizes - paid
        assert sum(game.money) + game.bank == BANKNOTES_TOTAL
        assert game.winners() == [s for s, m in enumerate(game.money) if m == max(game.money)]

    def test_the_first_auction_opener_moves_on_each_race(self):
        game = simulate(load_track("speed-street"), DECK, players=3, races=3, seed=0)
        openers = [e.opener for e in game.events if type(e).__name__ == "RaceStarted"]
        assert openers == [0, 1, 2]

    def test_nothing_is_possible_after_the_game(self):
        game = simulate(load_track("speed-street"), DECK, players=2, seed=3)
        assert game.to_move is None and game.legal_actions() == []
        with pytest.raises(IllegalActionError, match="the game is over"):
            game.apply(Pass())
