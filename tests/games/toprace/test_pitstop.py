"""The Pit Stop rule: the box, claims, collecting, turn-start pit stops, passing, the end.

The first part follows the rulebook's "Pit Stop" section point by point on a
long hand-made straight; the second drives whole games with random and greedy
bots (both ``"pitstop"`` and ``"pitstop+tips"``) and checks after every action
that each speed card is in exactly one place, that the money is conserved, that
races end, that the log replays and that illegal actions are refused without a
trace. It reuses the observer and helpers of ``test_properties``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scenarios import BLACK, BLUE, CARS, DECK, GREEN, NAMES, PURPLE, RED, YELLOW, win_auction
from support.cards import BLUE_6, BLUE_RED, RED_6, YELLOW_6
from support.pitstop import PitObserver, of_type, pit_deal, pit_illegal, refused, resolve
from support.properties import (
    GAMES,
    MAX_ACTIONS_PER_RACE,
    TRACKS,
    Marks,
    assert_json_round_trip,
    assert_replays,
    refuse_illegal,
    track,
)
from tracks import straight

from toprace_pi.errors import NotationError
from toprace_pi.games.toprace.bots import SIMPLE_KINDS
from toprace_pi.games.toprace.rules import Breakdown, Car, Pass, Phase, PlaceCar, PlayCard, Settings, TakeCar, TopRace
from toprace_pi.games.toprace.rules.actions import Action, Deal, MoveCar, parse_action
from toprace_pi.games.toprace.rules.events import (
    CardPlayed,
    Forfeited,
    PitStopClaimed,
    PitStopCollected,
    PitStopTaken,
    TipsSettled,
)
from toprace_pi.games.toprace.rules.variants import new_game, variant_names
from toprace_pi.games.toprace.rules.variants.pitstop import (
    PIT_STOP_CLAIM,
    PIT_STOPS,
    ClaimPitStop,
    CollectPitStop,
    PitStopGame,
    PitStopTipsGame,
    TakeFromBox,
    TakeFromDiscard,
)
from toprace_pi.games.toprace.rules.variants.tips import TipsGame
from toprace_pi.games.toprace.simulate import bots_for, player_names

B, R, Y, K, P, G = BLUE, RED, YELLOW, BLACK, PURPLE, GREEN
ROAD = straight(200)


def pit_game(players: int = 2, hands: Sequence[Sequence[int]] = (), box: Sequence[int] | None = None, *,
             positions: dict[Car, str] | None = None, variant: str = "pitstop", deal: Deal | None = None) -> TopRace:
    """A Pit Stop game at the start of the race; seat 0 won the first auction and
    starts. Cars go round the table (Red to seat 0, Blue to seat 1, ...)."""
    game = new_game(Settings(NAMES[:players], variant=variant), ROAD, DECK)
    game.apply(deal or pit_deal(players, hands, box))
    for n, car in enumerate((R, B, Y, P, K, G)):
        win_auction(game, n % players)
        game.apply(TakeCar(car))
        game.apply(PlaceCar(game.free_starting_spaces()[0]))
    assert game.phase is Phase.PLAY_CARD and game.to_move == 0
    spread = {R: "a5", B: "b5", Y: "c5", P: "a8", K: "b8", G: "c8"}
    game.board.set_up({car: ROAD.index(space) for car, space in (positions or spread).items()})
    return game


def play(game: TopRace, number: int, claim_by: int | None = None) -> None:
    """The seat to move plays ``number``; ``claim_by`` claims it, everyone else asked passes."""
    game.apply(PlayCard(number))
    resolve(game)
    while game.phase is PIT_STOP_CLAIM:
        game.apply(ClaimPitStop() if game.to_move == claim_by else Pass())


# --- dealing ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_hands_and_box_are_dealt_by_the_pit_stop_table(players):
    cards, boxed = {2: (21, 6), 3: (14, 6), 4: (10, 8), 5: (8, 8), 6: (7, 6)}[players]
    game = new_game(Settings(NAMES[:players], variant="pitstop"), ROAD, DECK)
    deal = game.deal(random.Random(players))
    assert deal.hands is not None and [len(h) for h in deal.hands] == [cards] * players
    assert len(deal.box) == boxed
    everything = [n for h in deal.hands for n in h] + list(deal.box) + list(deal.left_out)
    assert sorted(everything) == sorted(DECK.numbers)
    assert parse_action(str(deal), CARS) == deal
    game.apply(deal)
    assert game.box == list(deal.box) and game.hand_size == [cards] * players
    assert game.pit_stops == [PIT_STOPS] * players and game.discard == []
    snap = game.snapshot()
    assert snap["box"] == list(deal.box) and snap["pit_stops"] == [3] * players


def test_a_deal_must_lay_out_the_box():
    game = new_game(Settings(NAMES[:3], variant="pitstop"), ROAD, DECK)
    deal = pit_deal(3)
    assert deal.hands is not None
    for bad, message in [
        (Deal(deal.hands, deal.left_out + deal.box), "the box holds 6 speed cards"),
        (Deal(deal.hands, deal.left_out, deal.box[:-1] + deal.hands[0][:1]), "every speed card"),
        (Deal(None), "the box holds 6"),
        (Deal(None, box=(1, 1, 2, 3, 4, 5)), "every box card once"),
        (Deal(None, box=(1, 2, 3, 4, 5, 99)), "no speed card #99"),
    ]:
        refused(game, bad, message)
    base = TopRace(Settings(NAMES[:3]), ROAD, DECK)
    refused(base, deal, "only the Pit Stop rule lays out a box")


def test_deal_notation_with_a_box_and_the_old_notation():
    assert parse_action("deal 1,2/3,4 box 5,6 out 7", CARS) == Deal(((1, 2), (3, 4)), (7,), (5, 6))
    assert str(Deal(((1, 2), (3, 4)), (7,), (5, 6))) == "deal 1,2/3,4 box 5,6 out 7"
    assert parse_action("deal 1,2/3,4 out 5", CARS) == Deal(((1, 2), (3, 4)), (5,))
    assert str(Deal(((1, 2), (3, 4)), (5,))) == "deal 1,2/3,4 out 5"
    assert parse_action("deal hidden", CARS) == Deal(None) and str(Deal(None)) == "deal hidden"
    assert parse_action("deal hidden box 5,6", CARS) == Deal(None, box=(5, 6))
    assert str(Deal(None, box=(5, 6))) == "deal hidden box 5,6"
    for bad in ("deal 1/2 box 3 box 4", "deal 1/2 box", "deal 1/2 shelf 3", "deal"):
        with pytest.raises(NotationError):
            parse_action(bad, CARS)
    for action in (ClaimPitStop(), TakeFromBox(12), TakeFromDiscard(), CollectPitStop(7)):
        assert parse_action(str(action), CARS) == action
    assert str(TakeFromBox(12)) == "pit box 12" and str(TakeFromDiscard()) == "pit discard"


def test_the_variants_are_registered_and_combine_with_tips():
    assert {"pitstop", "pitstop+tips"} <= set(variant_names())
    game = new_game(Settings(NAMES[:2], variant="pitstop+tips"), ROAD, DECK)
    assert type(game) is PitStopTipsGame and isinstance(game, TipsGame) and isinstance(game, PitStopGame)
    assert game.pit_stops == [3, 3] and game.tips == [[], []]  # both _begin_race hooks ran


# --- moment 1: claiming the card just played ----------------------------------------------


def test_claims_are_asked_in_turn_order_from_the_players_left_and_the_first_claim_wins():
    game = pit_game(4, hands=[(RED_6,)])
    game.apply(PlayCard(RED_6))
    resolve(game)
    assert game.phase is PIT_STOP_CLAIM and game.claimants == [1, 2, 3]
    assert game.legal_actions() == [ClaimPitStop(), Pass()] and game.claim_card == RED_6
    game.apply(Pass())  # Ben does not want it
    assert game.to_move == 2
    game.apply(ClaimPitStop())  # Carla is before David in turn order: hers
    assert game.phase is Phase.PLAY_CARD and game.to_move == 1  # David is not asked; Ben's turn
    assert game.pit_waiting == [[], [], [RED_6], []] and RED_6 not in game.discard
    assert of_type(game, PitStopClaimed) == [PitStopClaimed(2, str(DECK[RED_6]))]
    assert "Carla claims #1 Red 6" in game.events[-1].text(game.names)


def test_the_nearest_claimant_after_the_player_wins_even_when_the_player_sits_late():
    game = pit_game(4, hands=[(), (), (), ()])
    for _ in range(2):  # Anna and Ben play, nobody claims
        play(game, game.playable_cards()[0])
    carla_card = game.playable_cards()[0]
    game.apply(PlayCard(carla_card))
    resolve(game)
    assert game.claimants == [3, 0, 1]  # from Carla's left round the table
    game.apply(Pass())
    game.apply(ClaimPitStop())
    assert game.pit_waiting[0] == [carla_card] and game.to_move == 3


def test_nobody_may_claim_their_own_card():
    game = pit_game(2)
    card = game.playable_cards()[0]
    game.apply(PlayCard(card))
    resolve(game)
    assert game.claimants == [1] and game.to_move == 1
    game.apply(Pass())
    assert game.to_move == 1 and game.phase is Phase.PLAY_CARD  # Anna was never asked
    # A player without a free pit stop card is not asked at all.
    game.pit_stops[0] = 0
    play(game, game.playable_cards()[0])
    assert game.phase is Phase.PLAY_CARD and game.to_move == 0


def test_the_claimant_collects_on_their_next_turn_without_playing_or_moving():
    game = pit_game(2, hands=[(RED_6,)])
    play(game, RED_6, claim_by=1)
    assert game.to_move == 1 and game.phase is Phase.PLAY_CARD
    legal = game.legal_actions()
    assert CollectPitStop(RED_6) in legal
    assert not any(isinstance(a, (PlayCard, Pass)) for a in legal)
    refused(game, PlayCard(game.hands[1][0]), "collects a card from the pit stop this turn")
    refused(game, Pass(), "must collect the card")
    refused(game, CollectPitStop(YELLOW_6), "may collect #1 Red 6")
    board, size = dict(game.board.at), game.hand_size[1]
    game.apply(CollectPitStop(RED_6))
    assert RED_6 in game.hands[1] and game.hand_size[1] == size + 1
    assert game.pit_stops[1] == PIT_STOPS - 1 and game.pit_waiting[1] == []
    assert game.board.at == board and game.played == [RED_6]  # no card played, no car moved
    assert game.to_move == 0 and of_type(game, PitStopCollected) == [PitStopCollected(1, str(DECK[RED_6]))]
    # Ben may later play the card again: a second play of the same card in this race.
    play(game, game.playable_cards()[0])
    play(game, RED_6)
    assert game.played.count(RED_6) == 2


def test_several_waiting_cards_are_collected_one_per_turn():
    game = pit_game(3, hands=[(RED_6,), (YELLOW_6,)])
    play(game, RED_6, claim_by=2)  # Anna plays, Ben passes, Carla claims
    play(game, YELLOW_6, claim_by=2)  # Ben plays, Carla claims again
    assert game.pit_waiting[2] == [RED_6, YELLOW_6] and game.free_pit_stops(2) == 1
    assert {a for a in game.legal_actions() if isinstance(a, CollectPitStop)} == {
        CollectPitStop(RED_6), CollectPitStop(YELLOW_6)}
    game.apply(CollectPitStop(YELLOW_6))  # she chooses which one
    assert game.pit_waiting[2] == [RED_6] and game.to_move == 0
    play(game, game.playable_cards()[0])
    play(game, game.playable_cards()[0])
    assert game.to_move == 2 and game.legal_actions()[0] == CollectPitStop(RED_6)
    game.apply(CollectPitStop(RED_6))
    assert game.pit_stops[2] == 1 and {RED_6, YELLOW_6} <= set(game.hands[2])
    assert [e.seat for e in of_type(game, CardPlayed)] == [0, 1, 0, 1]  # Carla played nothing


# --- moment 2: a pit stop at the start of one's turn -----------------------------------------


def test_a_pit_stop_from_the_box_ends_the_turn_and_uses_up_a_pit_stop_card():
    game = pit_game(2, box=(BLUE_6, 20, 21, 22, 23, 24))
    assert TakeFromBox(BLUE_6) in game.legal_actions() and TakeFromDiscard() not in game.legal_actions()
    refused(game, TakeFromDiscard(), "the discard pile is empty")
    refused(game, TakeFromBox(RED_6), "is not in the box")
    board = dict(game.board.at)
    game.apply(TakeFromBox(BLUE_6))
    assert BLUE_6 in game.hands[0] and BLUE_6 not in game.box and game.hand_size[0] == 22
    assert game.pit_stops[0] == 2 and game.to_move == 1 and game.board.at == board and game.played == []
    assert of_type(game, PitStopTaken) == [PitStopTaken(0, str(DECK[BLUE_6]), "box")]
    refused(game, PlayCard(BLUE_6), "does not hold")


def test_a_pit_stop_may_take_back_ones_own_card_from_the_top_of_the_discard_pile():
    game = pit_game(2, hands=[(RED_6,)])
    play(game, RED_6)  # nobody claims
    refused(game, PlayCard(RED_6), "is on the discard pile")
    game.apply(TakeFromBox(game.box[0]))  # Ben's pit stop leaves the discard pile alone
    assert game.discard == [RED_6] and TakeFromDiscard() in game.legal_actions()
    game.apply(TakeFromDiscard())
    assert RED_6 in game.hands[0] and game.discard == [] and game.pit_stops == [2, 2]
    assert of_type(game, PitStopTaken)[-1] == PitStopTaken(0, str(DECK[RED_6]), "discard pile")


def test_a_turn_start_pit_stop_does_not_collect_a_waiting_card():
    game = pit_game(2, hands=[(RED_6,)])
    play(game, RED_6, claim_by=1)
    game.apply(TakeFromBox(game.box[0]))  # instead of collecting
    assert game.pit_waiting[1] == [RED_6] and game.pit_stops[1] == 2 and game.to_move == 0
    play(game, game.playable_cards()[0])
    assert game.legal_actions()[0] == CollectPitStop(RED_6)  # still waiting for Ben


def test_no_pit_stop_without_a_free_pit_stop_card():
    game = pit_game(2)
    game.pit_waiting[0], game.pit_stops[0] = [RED_6], 1
    assert not any(isinstance(a, (TakeFromBox, TakeFromDiscard)) for a in game.legal_actions())
    refused(game, TakeFromBox(game.box[0]), "holds a claimed card already")
    game.pit_waiting[0], game.pit_stops[0] = [], 0
    refused(game, TakeFromBox(game.box[0]), "has no pit stop card left")


# --- no speed cards left, and the end of the race ----------------------------------------------


def play_down(game: TopRace) -> None:
    """Play first cards (no claims, no pit stops) until someone holds no speed card."""
    while min(game.hand_size) > 0:
        play(game, game.playable_cards()[0])


def test_a_player_without_speed_cards_stays_in_with_pit_stop_cards_and_may_only_pass_or_pit_stop():
    game = pit_game(2)
    play_down(game)
    assert game.hand_size == [0, 1] and game.to_move == 1
    play(game, game.playable_cards()[0])  # Ben's last card
    assert game.to_move == 0 and game.takes_part(0) and not game.results
    legal = game.legal_actions()
    assert Pass() in legal and TakeFromDiscard() in legal and not any(isinstance(a, PlayCard) for a in legal)
    game.apply(TakeFromDiscard())  # Anna takes Ben's last card back into play
    assert game.hand_size == [1, 0] and game.to_move == 1
    refused(game, PlayCard(game.hands[0][0]), "Ben does not hold")
    game.apply(Pass())
    play(game, game.playable_cards()[0])  # Anna plays it
    game.apply(Pass())  # Ben
    assert not game.results
    game.apply(Pass())  # Anna: now everyone has passed once in turn
    assert game.results and game.results[0].reason == "every player has passed once in turn"


def test_with_tips_the_race_ends_at_once_when_nobody_can_do_anything_but_pass():
    """Pit Stop with Tips: everyone stays in the race, but once every hand is empty
    and every pit stop card used up, nobody is asked to pass any more."""
    game = pit_game(2, variant="pitstop+tips")
    while not game.is_over:
        legal = game.legal_actions()
        assert legal != [Pass()], f"{game.current_name} is asked to pass with nothing else to do"
        take = [a for a in legal if isinstance(a, (TakeFromBox, TakeFromDiscard))]
        game.apply(take[0] if take else next(a for a in legal if a != Pass()))
    assert game.pit_stops == [0, 0] and game.hand_size == [0, 0]
    assert game.results[0].reason == "all speed cards are played"


def test_a_pit_stop_between_the_passes_starts_the_count_again():
    game = pit_game(2)
    play_down(game)
    play(game, game.playable_cards()[0])
    game.apply(Pass())  # Anna
    game.apply(TakeFromBox(game.box[0]))  # Ben
    game.apply(Pass())  # Anna
    assert not game.results
    play(game, game.playable_cards()[0])  # Ben plays the box card
    game.apply(Pass())
    game.apply(Pass())
    assert game.results[0].reason == "every player has passed once in turn"


def test_a_player_holding_speed_cards_may_not_pass():
    game = pit_game(2)
    refused(game, Pass(), "still holds speed cards")
    assert Pass() not in game.legal_actions()


def test_without_speed_cards_or_pit_stop_cards_a_player_drops_out():
    game = pit_game(2)
    game.pit_stops[0] = 0
    play_down(game)
    play(game, game.playable_cards()[0])  # Ben's last card; Anna has nothing left
    assert not game.takes_part(0) and game.to_move == 1  # Ben plays on alone
    game.apply(Pass())
    assert game.results[0].reason == "every player has passed once in turn"


def test_a_player_whose_cars_have_all_finished_leaves_even_with_pit_stop_cards():
    game = pit_game(2, hands=[(YELLOW_6,)], positions={R: "a198", Y: "b198", K: "c199", B: "a5", P: "b5", G: "c5"})
    game.apply(PlayCard(YELLOW_6))
    for car in (Y, R, K):
        game.apply(MoveCar(car, "finish"))
    assert not game.takes_part(0) and game.pit_stops[0] == PIT_STOPS
    game.apply(Pass())  # Ben does not claim Anna's card
    for _ in range(2):  # Ben plays on alone, and Anna is not asked to claim his cards
        assert game.phase is Phase.PLAY_CARD and game.to_move == 1
        play(game, game.playable_cards()[0], claim_by=0)
    assert game.pit_waiting[0] == []


def test_with_tips_a_player_may_pass_while_holding_cards_and_all_passing_ends_the_race():
    game = pit_game(2, variant="pitstop+tips")
    assert Pass() in game.legal_actions()
    game.apply(Pass())
    game.apply(TakeFromBox(game.box[0]))
    game.apply(Pass())
    assert not game.results
    game.apply(Pass())
    assert game.results[0].reason == "every player has passed once in turn"
    assert of_type(game, TipsSettled)


# --- Sprint/Breakdown while a car is broken down --------------------------------------------------


def test_a_sprint_breakdown_card_is_void_while_one_of_its_cars_is_broken_down():
    game = pit_game(2, hands=[(BLUE_RED,)], positions={B: "b10", R: "b20", Y: "a5", K: "b5", P: "c5", G: "c10"})
    game.apply(PlayCard(BLUE_RED))
    game.apply(Breakdown())  # Red, ahead, waits beside the track for Blue
    assert R in game.board.waiting
    assert game.phase is PIT_STOP_CLAIM  # the claim window follows a Sprint/Breakdown card too
    game.apply(ClaimPitStop())  # Ben wants the card
    game.apply(CollectPitStop(BLUE_RED))
    play(game, next(n for n in game.playable_cards() if B not in getattr(DECK[n], "cars", {B})))
    events = len(game.events)
    game.apply(PlayCard(BLUE_RED))  # Ben plays it again while Red is still broken down
    assert R in game.board.waiting
    assert game.events[events:][1] == Forfeited(R, 0, "Sprint/Breakdown void: Red is broken down")
    assert game.phase is PIT_STOP_CLAIM and game.to_move == 0  # void, yet on the discard pile
    assert game.discard[-1] == BLUE_RED


# --- a hidden deal (cards dealt by hand at the table) ------------------------------------------


def test_a_hidden_deal_names_the_box_and_cards_taken_by_pit_stops_are_known():
    box = (BLUE_6, 20, 21, 22, 23, 24)
    game = pit_game(2, deal=Deal(None, box=box))
    assert game.hands is None and game.hand_size == [21, 21]
    assert BLUE_6 not in game.playable_cards()
    refused(game, PlayCard(BLUE_6), "is in the box")
    game.apply(TakeFromBox(BLUE_6))
    refused(game, PlayCard(BLUE_6), "is in Anna's hand")  # Ben's turn
    play(game, RED_6)
    refused(game, PlayCard(RED_6), "is on the discard pile")
    play(game, BLUE_6)
    assert game.known.by_seat == [[], []] and game.hand_size == [21, 20]


def test_with_a_hidden_deal_a_player_left_with_known_cards_plays_only_those():
    game = pit_game(2, deal=Deal(None, box=(BLUE_6, 20, 21, 22, 23, 24)))
    game.apply(TakeFromBox(BLUE_6))
    game.hand_size[0] = 1  # as if Anna's other cards were all played
    play(game, RED_6)
    assert game.playable_cards() == [BLUE_6]
    refused(game, PlayCard(YELLOW_6), "Anna holds only the cards taken at pit stops: #17 Blue 6")


# --- whole games: properties -----------------------------------------------------------------------

VARIANTS = ("pitstop", "pitstop+tips")


@dataclass(frozen=True)
class PitSetup:
    track: str
    kinds: tuple[str, ...]
    seed: int
    variant: str
    races: int = 1
    hidden: bool = False

    @property
    def players(self) -> int:
        return len(self.kinds)

    def new_game(self) -> TopRace:
        settings = Settings(player_names(self.players), races=self.races, first_opener=self.seed % self.players,
                            track=self.track, variant=self.variant)
        return new_game(settings, track(self.track), DECK)


@st.composite
def pit_setups(draw: st.DrawFn, races: st.SearchStrategy[int] = st.just(1)) -> PitSetup:
    players = draw(st.integers(2, 6))
    mode = draw(st.sampled_from(("random", "greedy", "mix")))
    kinds = (tuple(draw(st.lists(st.sampled_from(SIMPLE_KINDS), min_size=players, max_size=players)))
             if mode == "mix" else (mode,) * players)
    return PitSetup(draw(st.sampled_from(TRACKS)), kinds, draw(st.integers(0, 2**32 - 1)),
                    draw(st.sampled_from(VARIANTS)), draw(races), draw(st.booleans()))


def drive(setup: PitSetup, probe=None, probe_rate: float = 0.0) -> tuple[TopRace, PitObserver]:
    """Play ``setup`` to its end, the observer checking after every action."""
    game = setup.new_game()
    observer = PitObserver(game)
    bots = bots_for(setup.kinds, setup.seed)
    chance, dice = random.Random(setup.seed), random.Random(~setup.seed)
    while not game.is_over:
        assert len(game.log) < MAX_ACTIONS_PER_RACE * setup.races, "the game does not end"
        if probe is not None and dice.random() < probe_rate:
            probe(game, dice)
        if game.decision.chance:
            deal = game.deal(chance)
            action: Action = Deal(None, deal.left_out, deal.box) if setup.hidden else deal
        else:
            action = bots[game.to_move].choose(game)  # type: ignore[index]
            assert action in game.legal_actions(), f"{action} chosen but not listed as legal"
        game.apply(action)
        observer.after(action)
    assert len(game.results) == setup.races and game.legal_actions() == []
    return game, observer


def refuse(game: TopRace, rng: random.Random, seen: Counter[str]) -> None:
    refuse_illegal(game, rng, seen, probes=pit_illegal)


@settings(GAMES, max_examples=400)
@given(pit_setups(races=st.integers(1, 2)))
def test_pit_stop_invariants_hold_after_every_action(setup: PitSetup) -> None:
    """Each card in one place, pit stop cards accounted for, money conserved, races
    end; a second race starts with a new box and three pit stop cards each."""
    _, observer = drive(setup)
    assert len(observer.race_ends) == setup.races


@settings(GAMES, max_examples=120)
@given(pit_setups(races=st.integers(1, 2)), st.randoms(use_true_random=False))
def test_pit_stop_games_replay_from_their_log(setup: PitSetup, rng: random.Random) -> None:
    marks = Marks(rng, span=300)
    game, _ = drive(setup, probe=marks, probe_rate=1.0)
    assert_replays(game)
    marks.check(game)
    assert_json_round_trip(game)


@settings(GAMES, max_examples=150)
@given(pit_setups())
def test_illegal_pit_stop_actions_are_refused_and_change_nothing(setup: PitSetup) -> None:
    seen: Counter[str] = Counter()
    drive(setup, probe=lambda g, r: refuse(g, r, seen), probe_rate=0.3)


def test_every_kind_of_illegal_pit_stop_action_is_tried() -> None:
    seen: Counter[str] = Counter()
    for seed in range(8):
        setup = PitSetup(TRACKS[seed % len(TRACKS)], ("random",) * (2 + seed % 5), seed, VARIANTS[seed % 2])
        drive(setup, probe=lambda g, r: refuse(g, r, seen), probe_rate=0.5)
    wanted = {"a card played during the claims", "a card on the discard pile", "a box card played",
              "a pass with a card waiting", "a play with a card waiting", "a pass while holding cards",
              "a pit stop from an empty discard pile", "collecting a card that does not wait",
              "a deal without the box", "a box card also in a hand", "another player's card"}
    assert wanted <= set(seen), f"never tried: {sorted(wanted - set(seen))}"


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("kinds", ["random", "greedy"])
def test_whole_games_use_every_kind_of_pit_stop(variant: str, kinds: str) -> None:
    """Over a few games the bots claim, collect, and take from the box and the discard pile."""
    events: Counter[str] = Counter()
    ends: Counter[str] = Counter()
    for seed in range(6):
        setup = PitSetup("turbo-town" if "turbo-town" in TRACKS else TRACKS[0], (kinds,) * (2 + seed % 5), seed,
                         variant)
        game, _ = drive(setup)
        ends[game.results[0].reason] += 1
        for event in game.events:
            if isinstance(event, PitStopTaken):
                events[f"taken from the {event.source}"] += 1
            else:
                events[type(event).__name__] += 1
    assert events["PitStopClaimed"] and events["PitStopCollected"] and events["taken from the box"]
    assert events["taken from the discard pile"] or kinds == "random"  # rare among a random bot's choices
