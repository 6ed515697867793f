"""Stocks with the Pit Stop rule (``"pitstop+stocks"``).

First the combination point by point: the deal by the rulebook's "Stocks & Pit
Stop" table, claims and collecting in the seating order the offer auctions
decided, stock rounds after rounds of pit-stop turns, playing on and passing
without speed cards, hidden hands, the greedy bot. Then property tests over
whole games on every track with random and greedy bots, reusing the observers
and helpers of ``test_properties``, ``test_pitstop`` and ``test_stocks``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scenarios import BLACK, BLUE, CARS, DECK, GREEN, NAMES, PURPLE, RED, YELLOW
from support.cards import BLUE_6, RED_6
from support.pitstop import PitObserver, of_type, pit_illegal, refused, resolve
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
from support.stocks import GRID, win_offer
from support.stocks import illegal as stocks_illegal
from tracks import straight

from toprace_pi.errors import IllegalActionError
from toprace_pi.games.toprace.bots import SIMPLE_KINDS
from toprace_pi.games.toprace.bots.greedy import GreedyBot
from toprace_pi.games.toprace.rules import Pass, Phase, PlayCard, Settings, TopRace
from toprace_pi.games.toprace.rules.actions import Action, Deal, parse_action
from toprace_pi.games.toprace.rules.events import (
    CardPlayed,
    CarFinished,
    Event,
    GridSet,
    PitStopClaimed,
    PitStopCollected,
    RaceEnded,
    StockRound,
    StocksPaid,
)
from toprace_pi.games.toprace.rules.game import FINISHES_TO_END
from toprace_pi.games.toprace.rules.variants import new_game, variant_names
from toprace_pi.games.toprace.rules.variants.pitstop import (
    PIT_STOP_CLAIM,
    PIT_STOPS,
    ClaimPitStop,
    CollectPitStop,
    PitStopGame,
    TakeFromBox,
    TakeFromDiscard,
)
from toprace_pi.games.toprace.rules.variants.pitstop_stocks import PitStopStocksGame
from toprace_pi.games.toprace.rules.variants.stocks import (
    GRID as GRID_PHASE,
)
from toprace_pi.games.toprace.rules.variants.stocks import (
    MAX_STOCKS,
    PITSTOP_DEAL,
    TOTAL_STOCKS,
    TRADE,
    Grid,
    StocksGame,
    TakeOffer,
    Trade,
    stock_payout,
)
from toprace_pi.games.toprace.simulate import bots_for, player_names

B, R, Y, K, P, G = BLUE, RED, YELLOW, BLACK, PURPLE, GREEN
ROAD = straight(200)
SPRINT_BREAKDOWN = (46, 47, 48)
VARIANT = "pitstop+stocks"
TURN_ACTIONS = (PlayCard, CollectPitStop, TakeFromBox, TakeFromDiscard, Pass)


# --- helpers ----------------------------------------------------------------------------------


def ps_deal(players: int, hands: Sequence[Sequence[int]] = (), offer: Sequence[int] = (),
            box: Sequence[int] = ()) -> Deal:
    """A deal by the Stocks & Pit Stop table: seat i holds ``hands[i]``, the offer row
    the Sprint/Breakdown cards plus ``offer``, the box ``box``; the rest in deck order."""
    k, size, boxed = PITSTOP_DEAL[players]
    wanted = [list(h) for h in hands] + [[] for _ in range(players - len(hands))]
    row = list(SPRINT_BREAKDOWN) + [n for n in offer if n not in SPRINT_BREAKDOWN]
    chosen = list(box)
    rest = [n for n in DECK.numbers if n not in row and n not in chosen and all(n not in h for h in wanted)]
    for hand in wanted:
        while len(hand) < k:
            hand.append(rest.pop(0))
    while len(row) < size:
        row.append(rest.pop(0))
    while len(chosen) < boxed:
        chosen.append(rest.pop(0))
    return Deal(tuple(tuple(sorted(h)) for h in wanted), tuple(rest), tuple(chosen), tuple(sorted(row)))


def ps_game(players: int = 2, *, opener: int = 0, races: int = 1, track_=ROAD) -> PitStopStocksGame:
    game = new_game(Settings(NAMES[:players], races=races, first_opener=opener, variant=VARIANT), track_, DECK)
    assert isinstance(game, PitStopStocksGame)
    return game


def ready(players: int = 2, winners: Sequence[int] = (0, 1, 1), *, hands: Sequence[Sequence[int]] = (),
          box: Sequence[int] = (), deal: Deal | None = None) -> PitStopStocksGame:
    """Offer auctions won by ``winners`` (each taking the first card of the row), the
    standard grid drawn: the first turn of the race."""
    game = ps_game(players)
    game.apply(deal or ps_deal(players, hands, box=box))
    for seat in winners:
        win_offer(game, seat)
        game.apply(TakeOffer(game.offer[0]))
    assert game.phase is GRID_PHASE
    game.apply(GRID)
    assert game.phase is Phase.PLAY_CARD
    return game


def play(game: TopRace, number: int, claim_by: int | None = None) -> None:
    """Play ``number``; ``claim_by`` claims it, every other player asked passes."""
    game.apply(PlayCard(number))
    resolve(game)
    while game.phase is PIT_STOP_CLAIM:
        game.apply(ClaimPitStop() if game.to_move == claim_by else Pass())


def trade_all(game: TopRace) -> list[int]:
    """Every player trades (the first legal trade); the seats in the order asked."""
    seats = []
    while game.phase is TRADE:
        seats.append(game.seat)
        game.apply(game.legal_actions()[0])
    return seats


def play_down(game: TopRace) -> None:
    """First cards, no claims, no pit stops, first trades, until no hand holds a card;
    a player already without cards passes."""
    while any(game.hand_size) and not game.is_over:
        if game.phase is TRADE:
            trade_all(game)
        elif game.hand_size[game.seat]:
            play(game, game.playable_cards()[0])
        else:
            game.apply(Pass())


# --- the deal --------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_deal_follows_the_stocks_and_pit_stop_table(players):
    cards, row, boxed = {2: (19, 4, 6), 3: (13, 3, 6), 4: (9, 4, 8), 5: (7, 5, 8), 6: (6, 6, 6)}[players]
    game = ps_game(players)
    for seed in range(5):
        deal = game.deal(random.Random(seed))
        assert deal.hands is not None and [len(h) for h in deal.hands] == [cards] * players
        assert len(deal.offer) == row and set(SPRINT_BREAKDOWN) <= set(deal.offer)
        assert len(deal.box) == boxed and not set(SPRINT_BREAKDOWN) & set(deal.box)
        assert deal.left_out == ()
        assert not any(set(SPRINT_BREAKDOWN) & set(h) for h in deal.hands)
        everything = [n for h in deal.hands for n in h] + list(deal.offer) + list(deal.box)
        assert sorted(everything) == sorted(DECK.numbers)
        assert parse_action(str(deal), CARS) == deal
    game.apply(deal)
    assert game.hand_size == [cards] * players and game.offer == sorted(deal.offer) and game.box == list(deal.box)
    assert game.pit_stops == [PIT_STOPS] * players and game.discard == []
    assert game.stocks == [[5] * 6] * players
    assert game.phase is Phase.BID and game.to_move == 0
    snap = game.snapshot()
    assert snap["box"] == list(deal.box) and snap["offer"] == sorted(deal.offer) and snap["pit_stops"] == [3] * players


def test_bad_deals_are_refused():
    game = ps_game(3)
    good = ps_deal(3)
    assert good.hands is not None
    refused(game, Deal(good.hands, good.box, offer=good.offer), "the box holds 6 speed cards")
    refused(game, Deal(good.hands, good.offer, good.box), "the offer row holds 3 speed cards, not 0")
    swapped_box = good.box[1:] + (46,)
    swapped_row = tuple(sorted((good.box[0], 47, 48)))
    refused(game, Deal(good.hands, (), swapped_box, swapped_row), "Sprint/Breakdown cards always lie in the offer row")
    refused(game, Deal(good.hands, (), good.box[1:] + good.hands[0][:1], good.offer), "every speed card")
    stocks_only = StocksGame(Settings(NAMES[:3], variant="stocks"), ROAD, DECK).deal(random.Random(1))
    refused(game, stocks_only, "the box holds 6")
    refused(game, Deal(None, box=good.box), "the offer row lies face up")
    refused(game, Deal(None, offer=good.offer), "the box holds 6")
    refused(game, Deal(None, box=good.box, offer=(46, 47, good.box[0])), "every card of the offer row once")


def test_the_combination_is_registered_and_both_variants_set_up():
    assert VARIANT in variant_names()
    game = ps_game(2)
    assert isinstance(game, PitStopGame) and isinstance(game, StocksGame)
    assert game.pit_stops == [3, 3] and game.stocks == [[5] * 6] * 2  # both _begin_race hooks ran
    with pytest.raises(IllegalActionError, match="Tips and Stocks do not go together"):
        new_game(Settings(NAMES[:2], variant="pitstop+stocks+tips"), ROAD, DECK)


# --- claims and collecting in the seating order ------------------------------------------------


def test_claims_follow_the_seating_order_and_a_stock_round_follows_the_collect():
    game = ready(4, winners=(2, 0, 3), hands=[(), (), (RED_6,)])
    assert game.order == [2, 0, 3, 1] and game.to_move == 2  # Carla starts, Anna, David, Ben follow
    game.apply(PlayCard(RED_6))
    resolve(game)
    assert game.phase is PIT_STOP_CLAIM
    assert game.claimants == [0, 3, 1]  # the seating order after Carla, not clockwise (David, Anna, Ben)
    game.apply(Pass())  # Anna
    assert game.to_move == 3
    game.apply(ClaimPitStop())  # David comes before Ben in turn order: his
    assert game.pit_waiting[3] == [RED_6] and game.phase is Phase.PLAY_CARD and game.to_move == 0
    assert of_type(game, PitStopClaimed) == [PitStopClaimed(3, str(DECK[RED_6]))]
    play(game, game.playable_cards()[0])  # Anna; nobody claims
    assert game.to_move == 3
    legal = game.legal_actions()
    assert CollectPitStop(RED_6) in legal and not any(isinstance(a, (PlayCard, Pass)) for a in legal)
    refused(game, PlayCard(game.hands[3][0]), "collects a card from the pit stop this turn")
    board = dict(game.board.at)
    game.apply(CollectPitStop(RED_6))
    assert RED_6 in game.hands[3] and game.pit_stops[3] == 2 and game.board.at == board
    assert of_type(game, PitStopCollected) == [PitStopCollected(3, str(DECK[RED_6]))]
    assert game.to_move == 1 and not of_type(game, StockRound)
    game.apply(PlayCard(game.playable_cards()[0]))  # Ben, the last in the round
    resolve(game)
    assert game.phase is PIT_STOP_CLAIM and game.claimants == [2, 0, 3]  # claims before the stock round
    while game.phase is PIT_STOP_CLAIM:
        game.apply(Pass())
    assert game.phase is TRADE and game.events[-1] == StockRound(1)
    assert [e.seat for e in of_type(game, CardPlayed)] == [2, 0, 1]  # David's collect was his turn
    assert trade_all(game) == [2, 0, 3, 1] and game.to_move == 2


def test_pit_stop_turns_count_as_turns_for_the_stock_rounds():
    game = ready(2, box=(BLUE_6, 20, 21, 22, 23, 24))
    game.apply(TakeFromBox(BLUE_6))  # Anna
    game.apply(TakeFromBox(20))  # Ben
    assert game.phase is TRADE and game.events[-1] == StockRound(1) and game.played == []
    trade_all(game)
    play(game, BLUE_6, claim_by=1)  # Anna plays the box card, Ben claims it
    game.apply(CollectPitStop(BLUE_6))  # Ben's turn
    assert game.phase is TRADE and game.events[-1] == StockRound(2)
    trade_all(game)
    refused(game, TakeFromDiscard(), "the discard pile is empty")  # Ben took the card off it
    assert game.pit_stops == [2, 1] and game.played == [BLUE_6]


def test_a_turn_start_pit_stop_may_take_the_top_of_the_discard_pile_under_stocks():
    game = ready(2, hands=[(RED_6,)])
    play(game, RED_6)  # nobody claims
    refused(game, PlayCard(RED_6), "is on the discard pile")
    game.apply(TakeFromDiscard())  # Ben takes Anna's card
    assert RED_6 in game.hands[1] and game.pit_stops == [3, 2]
    assert game.phase is TRADE  # Ben's pit stop ended the round
    trade_all(game)
    assert game.to_move == 0


# --- without speed cards: passing and the end ---------------------------------------------------


def test_without_speed_cards_a_player_with_pit_stop_cards_stays_in_and_may_pass():
    game = ready(2)
    assert game.order == [0, 1] and game.hand_size == [21, 21]
    refused(game, Pass(), "still holds speed cards and must play one")  # the Stocks duty
    play_down(game)
    assert not game.board.finished and game.phase is TRADE  # Ben's last card ended a round
    trade_all(game)
    assert game.hand_size == [0, 0] and game.to_move == 0 and not game.is_over
    assert all(game.takes_part(s) for s in range(2)) and game.owner == {}
    legal = game.legal_actions()
    assert Pass() in legal and any(isinstance(a, TakeFromBox) for a in legal)
    assert not any(isinstance(a, PlayCard) for a in legal)
    game.apply(Pass())  # Anna
    game.apply(TakeFromBox(game.box[0]))  # Ben: a pit stop, and the passing starts again
    assert game.phase is TRADE  # a pit stop is a turn: the round is over
    trade_all(game)
    game.apply(Pass())  # Anna
    refused(game, Pass(), "still holds speed cards")  # Ben holds the box card and must play it
    play(game, game.playable_cards()[0])
    assert game.phase is TRADE
    trade_all(game)
    rounds = len(of_type(game, StockRound))
    game.apply(Pass())  # Anna
    assert not game.results
    game.apply(Pass())  # Ben: everyone has passed once in turn
    assert game.results and game.results[0].reason == "every player has passed once in turn"
    assert len(of_type(game, StockRound)) == rounds  # no stock round after the passes that end the race
    assert len(of_type(game, StocksPaid)) == 2 and game.is_over


def test_a_player_with_neither_speed_cards_nor_pit_stop_cards_is_skipped_yet_still_trades():
    game = ready(2)
    game.pit_stops[0] = 0  # as if Anna had used hers up
    while game.hand_size[0]:
        if game.phase is TRADE:
            trade_all(game)
        elif game.seat == 1 and game.free_pit_stops(1):
            game.apply(TakeFromBox(game.box[0]))  # Ben's first three turns: pit stops
        else:
            play(game, game.playable_cards()[0])
    assert not game.board.finished and game.phase is Phase.PLAY_CARD and game.to_move == 1
    # Anna played 21 cards; Ben had 20 turns (3 pit stops, 17 cards) and holds 21 + 3 - 17.
    assert not game.takes_part(0) and game.takes_part(1) and game.hand_size[1] == 7 and game.pit_stops[1] == 0
    for left in range(6, 0, -1):  # Ben plays on alone; each of his turns completes a round
        rounds = len(of_type(game, StockRound))
        play(game, game.playable_cards()[0])
        assert len(of_type(game, StockRound)) == rounds + 1
        assert trade_all(game) == [0, 1]  # Anna still holds her stocks and trades
        assert game.to_move == 1 and game.hand_size[1] == left
    play(game, game.playable_cards()[0])
    assert game.results[0].reason == "all speed cards are played"


# --- hidden hands, the view, the bot ------------------------------------------------------------


def test_a_hidden_deal_names_offer_and_box_and_taken_cards_are_known():
    game = ps_game(2)
    game.apply(parse_action("deal hidden offer 9,46,47,48 box 17,20,21,22,23,24", CARS))
    for seat, pick in ((0, 9), (1, 46), (1, 47)):
        win_offer(game, seat)
        game.apply(TakeOffer(pick))
    game.apply(GRID)
    assert game.hand_size == [21, 21] and [set(k) for k in game.known.by_seat] == [{9, 48}, {46, 47}]
    refused(game, PlayCard(46), "is in Ben's hand")
    refused(game, PlayCard(BLUE_6), "is in the box")
    play(game, 9, claim_by=1)
    refused(game, PlayCard(46), "collects a card from the pit stop this turn")  # Ben's turn: he must collect
    game.apply(CollectPitStop(9))
    assert [set(k) for k in game.known.by_seat] == [{48}, {9, 46, 47}]
    trade_all(game)
    refused(game, PlayCard(9), "is in Ben's hand")
    game.hand_size[0] = 1  # as if Anna's other cards were all played
    assert game.playable_cards() == [48]
    refused(game, PlayCard(RED_6), "holds only the cards taken at pit stops")


def test_a_seat_sees_its_own_stocks_and_the_public_pit_stop_state():
    game = ready(3, winners=(0, 1))
    game.stocks[1] = [7, 5, 5, 5, 3, 5]
    view = game.view(0)
    assert "stocks" not in view and view["my_stocks"]["blue"] == 5
    assert view["box"] == game.box and view["pit_stops"] == [3, 3, 3] and view["pit_waiting"] == [[], [], []]
    assert view["order"] == game.order and view["my_hand"] == game.hands[0]


def test_the_greedy_bot_claims_for_the_cars_it_backs():
    game = ready(2, hands=[(RED_6,)])
    game.stocks[1] = [0, 15, 15, 0, 0, 0]  # Ben backs Red and Yellow
    game.apply(PlayCard(RED_6))  # Red 6 / Yellow 4 / Black 2 / Blue 1
    resolve(game)
    assert game.phase is PIT_STOP_CLAIM and game.to_move == 1
    assert GreedyBot(1).choose(game) == ClaimPitStop()
    game.stocks[1] = [0, 0, 0, 0, 15, 15]  # Purple and Green: the card only helps the others
    assert GreedyBot(1).choose(game) == Pass()


# --- whole games: properties ---------------------------------------------------------------------


@dataclass(frozen=True)
class PSSetup:
    track: str
    kinds: tuple[str, ...]
    seed: int
    races: int = 1
    hidden: bool = False

    @property
    def players(self) -> int:
        return len(self.kinds)

    def new_game(self) -> PitStopStocksGame:
        settings_ = Settings(player_names(self.players), races=self.races, first_opener=self.seed % self.players,
                             track=self.track, variant=VARIANT)
        game = new_game(settings_, track(self.track), DECK)
        assert isinstance(game, PitStopStocksGame)
        return game


@st.composite
def ps_setups(draw: st.DrawFn, races: st.SearchStrategy[int] = st.just(1)) -> PSSetup:
    players = draw(st.integers(2, 6))
    mode = draw(st.sampled_from(("random", "greedy", "mix")))
    kinds = (tuple(draw(st.lists(st.sampled_from(SIMPLE_KINDS), min_size=players, max_size=players)))
             if mode == "mix" else (mode,) * players)
    return PSSetup(draw(st.sampled_from(TRACKS)), kinds, draw(st.integers(0, 2**32 - 1)), draw(races),
                   draw(st.booleans()))


class PitStocksObserver(PitObserver):
    """The Pit Stop observer (every card in one place, pit stop cards accounted for,
    the board, money explained by events) with the Stocks rules: no owners, the
    grid, stocks 0-15 and 30 in all, stocks paid by the table, and a stock round
    exactly when each seat taking part has had one turn in the seating order."""

    def __init__(self, game: PitStopStocksGame) -> None:
        super().__init__(game)
        self.ps = game
        self.turns: list[int] = []  # seats that had a turn in this round
        self.due: list[int] | None = None  # seats taking part when the round began, in seating order
        self.finished = False

    def before(self, action: Action) -> None:
        game = self.ps
        if game.phase is Phase.PLAY_CARD and isinstance(action, TURN_ACTIONS):
            self.turns.append(game.seat)

    def after(self, action: Action) -> None:
        super().after(action)
        game = self.ps
        if isinstance(action, Grid) or (isinstance(action, Trade) and game.phase is not TRADE):
            self.turns, self.due = [], [s for s in game.order if game.takes_part(s)]
        for held in game.stocks:
            assert sum(held) == TOTAL_STOCKS and all(0 <= n <= MAX_STOCKS for n in held), held
        if game.phase is Phase.PLAY_CARD:
            seat, legal = game.seat, game.legal_actions()
            assert legal and game.takes_part(seat)
            may_pass = not game.hand_size[seat] and not game.pit_waiting[seat]
            assert (Pass() in legal) == may_pass, "pass only without speed cards (and no card to collect)"

    def _event(self, event: Event) -> None:
        game, ledger = self.ps, self.ledger
        if isinstance(event, GridSet):
            for start, car in enumerate(event.cars, 1):
                space = game.track.starting_spaces[start]
                ledger.spot[car] = game.track.space_id(space)
                self.fronts[car] = game.track.front(space)
            return
        if isinstance(event, StocksPaid):
            self.money[event.seat] += event.amount
            held = [0] * len(CARS)
            for car, n in event.holdings:
                held[car] = n
            assert event.amount == stock_payout(held, [c for c, _ in event.holdings])
            return
        if isinstance(event, CarFinished):
            self.finished = True
        elif isinstance(event, StockRound):
            assert not self.finished, "a stock round after the first car finished"
            assert self.due is not None and self.turns == self.due, (
                f"stock round {event.round} after turns {self.turns}; due {self.due}")
        super()._event(event)

    def _check_result(self, result: RaceEnded) -> None:
        """Stocks: nobody owns a car, so no prizes; placements as in the base game."""
        ledger = self.ledger
        placements = list(result.placements)
        assert sorted(placements) == sorted(CARS)
        assert placements[:len(ledger.crossed)] == ledger.crossed
        assert [f.car for f in ledger.finished] == placements and not ledger.owner and not any(result.payouts)
        assert len(ledger.crossed) <= FINISHES_TO_END
        t = self.game.track
        fronts = [t.front(t.index(ledger.spot[car])) for car in placements[len(ledger.crossed):]]
        assert fronts == sorted(fronts, reverse=True)
        self.finished, self.due = False, None

    def _check_cards(self) -> None:
        game = self.ps
        if game.phase is Phase.DEAL:
            return
        # The offer row is a place of its own; the Pit Stop check counts the rest.
        saved, self.left_out = self.left_out, self.left_out + tuple(game.offer)
        try:
            super()._check_cards()
        finally:
            self.left_out = saved
        if game.hands is not None:
            assert not set(game.offer) & {n for h in game.hands for n in h}


def drive(setup: PSSetup, probe=None, rate: float = 0.0) -> tuple[PitStopStocksGame, PitStocksObserver]:
    game = setup.new_game()
    observer = PitStocksObserver(game)
    bots = bots_for(setup.kinds, setup.seed)
    chance, dice = random.Random(setup.seed), random.Random(~setup.seed)
    while not game.is_over:
        assert len(game.log) < MAX_ACTIONS_PER_RACE * setup.races, "the game does not end"
        if probe is not None and dice.random() < rate:
            probe(game, dice)
        if game.decision.chance:
            action = game.chance(chance)
            if setup.hidden and isinstance(action, Deal):
                action = Deal(None, action.left_out, action.box, action.offer)
        else:
            action = bots[game.to_move].choose(game)  # type: ignore[index]
            assert action in game.legal_actions(), f"{action} chosen but not listed as legal"
        observer.before(action)
        game.apply(action)
        observer.after(action)
    assert len(game.results) == setup.races and game.legal_actions() == []
    assert len(observer.race_ends) == setup.races
    return game, observer


def illegal(game: PitStopStocksGame, rng: random.Random) -> list[tuple[str, Action]]:
    """What the combination forbids now: the Pit Stop probes for turns and claims,
    the Stocks probes for the auctions, grid and trades, and bad deals."""
    if game.phase in (Phase.PLAY_CARD, PIT_STOP_CLAIM):
        found = pit_illegal(game, rng) + [("a trade outside a stock round", Trade((B, B), (R, R)))]
        if game.phase is Phase.PLAY_CARD and game.hands is None:
            others = [n for s, known in enumerate(game.known.by_seat) if s != game.seat for n in known]
            found += [("a card known in another hand", PlayCard(n)) for n in others[:2]]
        return found
    if game.phase is Phase.DEAL:
        deal = game.deal(random.Random(rng.getrandbits(32)))
        assert deal.hands is not None
        row = tuple(sorted(deal.box[:1] + (47, 48) + tuple(n for n in deal.offer if n not in SPRINT_BREAKDOWN)))
        return [("a deal without the box", Deal(deal.hands, deal.box, offer=deal.offer)),
                ("a deal without the offer row", Deal(deal.hands, deal.offer, deal.box)),
                ("a Sprint/Breakdown card in the box", Deal(deal.hands, (), deal.box[1:] + (46,), row)),
                ("a hidden deal without the box", Deal(None, offer=deal.offer)),
                ("a grid before the deal", GRID)]
    return [("a Stocks probe", action) for action in stocks_illegal(game, rng)]


def refuse(game: PitStopStocksGame, rng: random.Random, seen: Counter[str]) -> None:
    refuse_illegal(game, rng, seen, probes=illegal)


@settings(GAMES, max_examples=100)
@given(ps_setups(races=st.integers(1, 2)))
def test_pitstop_stocks_invariants_hold_after_every_action(setup: PSSetup) -> None:
    """Stocks 0-15 and 30 in all, each card in one place, pit stop cards accounted for,
    money conserved and explained, stock rounds after each round of turns, races end."""
    drive(setup)


@settings(GAMES, max_examples=40)
@given(ps_setups(races=st.integers(1, 2)), st.randoms(use_true_random=False))
def test_pitstop_stocks_games_replay_from_their_log(setup: PSSetup, rng: random.Random) -> None:
    marks = Marks(rng, span=300)
    game, _ = drive(setup, probe=marks, rate=1.0)
    assert_replays(game)
    marks.check(game)
    assert_json_round_trip(game)


@settings(GAMES, max_examples=50)
@given(ps_setups())
def test_illegal_pitstop_stocks_actions_are_refused_and_change_nothing(setup: PSSetup) -> None:
    seen: Counter[str] = Counter()
    game, _ = drive(setup, probe=lambda g, r: refuse(g, r, seen), rate=0.25)
    refuse(game, random.Random(setup.seed), seen)


@pytest.mark.parametrize("kinds", ["random", "greedy"])
def test_whole_games_use_every_part_of_both_variants(kinds: str) -> None:
    """Over a few fixed games the bots claim, collect, take from the box, trade in
    stock rounds, and the probes reach every kind of illegal action."""
    events: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    for seed in range(6):
        setup = PSSetup(TRACKS[seed % len(TRACKS)], (kinds,) * (2 + seed % 5), seed, hidden=seed % 3 == 2)
        game, _ = drive(setup, probe=lambda g, r: refuse(g, r, seen), rate=0.3)
        for event in game.events:
            events[f"{type(event).__name__} {getattr(event, 'source', '')}".strip()] += 1
    assert events["PitStopClaimed"] and events["PitStopCollected"] and events["PitStopTaken box"]
    assert events["StockRound"] and events["StocksPaid"] and events["SeatingOrder"]
    wanted = {"a card played during the claims", "a pass while holding cards", "a trade outside a stock round",
              "a deal without the box", "a Sprint/Breakdown card in the box", "a Stocks probe"}
    assert wanted <= set(seen), f"never tried: {sorted(wanted - set(seen))}"


def test_cars_finish_for_no_one():
    """Nobody owns a car: a player keeps taking part (with cards or pit stop cards)
    after cars have finished, and finished cars pay no one until the settlement."""
    setup = PSSetup(TRACKS[0], ("random",) * 3, seed=11)
    game, _ = drive(setup)
    finished = of_type(game, CarFinished)
    assert finished and all(e.seat is None for e in finished)
