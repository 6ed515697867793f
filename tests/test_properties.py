"""Property tests: random legal play on every shipped track keeps the rules' invariants.

Hypothesis picks the seed, the number of players, the track, the bot of every
seat (all random, all greedy or a mix), how many races and whether the deal is
hidden. The game is then driven one action at a time, as ``simulate.play`` does,
and an :class:`Observer` checks after EVERY action what must always hold: one
car per space, no car driving backward, every speed card played at most once,
the money of the box conserved and explained by the events, races that end with
every car placed once. At the end the log must replay to the same game, and at
random moments the game must refuse illegal actions without changing. The
driving rule itself (``Track.moves``) is checked against a brute-force search
of all routes, and a few fixed-seed matches check what carries over between races.

The bots are seeded from the example's seed, so a failure Hypothesis reports
(seed, players, track, bots) replays exactly with :func:`play_checked`.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scenarios import CARS, RED

from toprace_pi.errors import IllegalActionError
from toprace_pi.games.toprace.bots import SIMPLE_KINDS
from toprace_pi.games.toprace.data import load_deck, load_track, track_names
from toprace_pi.games.toprace.rules.actions import (
    Action,
    Bid,
    Breakdown,
    ChooseJoker,
    Deal,
    MoveCar,
    Pass,
    PlaceCar,
    PlayCard,
    ReturnCar,
    Sprint,
    TakeCar,
)
from toprace_pi.games.toprace.rules.auction import AUCTIONS, OPENING_BID, STEP
from toprace_pi.games.toprace.rules.cards import Deck, MovementCard
from toprace_pi.games.toprace.rules.cars import Car
from toprace_pi.games.toprace.rules.events import (
    PRIZES,
    AuctionWon,
    BrokeDown,
    CarFinished,
    CarMoved,
    CarPlaced,
    CarReturned,
    Event,
    GameEnded,
    RaceEnded,
    RaceStarted,
    TipsSettled,
)
from toprace_pi.games.toprace.rules.game import (
    BANKNOTES_TOTAL,
    CHANCE,
    FINISHES_TO_END,
    START_CAPITAL,
    Game,
    Phase,
    Settings,
)
from toprace_pi.games.toprace.rules.track import FINISH, FINISH_ID, Track
from toprace_pi.games.toprace.rules.variants import new_game, replay_game
from toprace_pi.games.toprace.simulate import bots_for, player_names

#: A race that needs more actions than this is taken to loop forever.
MAX_ACTIONS_PER_RACE = 5000
TRACKS = track_names()
#: Hypothesis settings shared by the game properties: a game is a slow example
#: (a few ms), so no deadline; the example counts keep the file near 25 s.
GAMES = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
ONE_RACE = st.just(1)


@cache
def track(name: str) -> Track:
    return load_track(name)


@cache
def deck() -> Deck:
    return load_deck()


@dataclass(frozen=True)
class Setup:
    """One game to play: everything Hypothesis chooses, so a failure replays."""

    track: str
    kinds: tuple[str, ...]
    seed: int
    races: int = 1
    hidden: bool = False
    variant: str = "base"

    @property
    def players(self) -> int:
        return len(self.kinds)

    def new_game(self) -> Game:
        settings = Settings(
            player_names(self.players), races=self.races,
            first_opener=self.seed % self.players, track=self.track, variant=self.variant,
        )
        return new_game(settings, track(self.track), deck())


@st.composite
def setups(draw: st.DrawFn, races: st.SearchStrategy[int] = ONE_RACE) -> Setup:
    """All-random, all-greedy and mixed tables alike, on any shipped track."""
    players = draw(st.integers(2, 6))
    mode = draw(st.sampled_from(("random", "greedy", "mix")))
    if mode == "mix":
        kinds = tuple(draw(st.lists(st.sampled_from(SIMPLE_KINDS), min_size=players, max_size=players)))
    else:
        kinds = (mode,) * players
    return Setup(
        track=draw(st.sampled_from(TRACKS)),
        kinds=kinds,
        seed=draw(st.integers(0, 2**32 - 1)),
        races=draw(races),
        hidden=draw(st.booleans()),
    )


# --- watching a game --------------------------------------------------------------


@dataclass
class RaceLedger:
    """What the events of the current race said so far, to check its result."""

    owner: dict[Car, int] = field(default_factory=dict)
    crossed: list[Car] = field(default_factory=list)  # cars that drove over the line, in order
    finished: list[CarFinished] = field(default_factory=list)
    prizes: Counter[int] = field(default_factory=Counter)
    auctions: int = 0
    actions: int = 0
    spot: dict[Car, str] = field(default_factory=dict)  # where each car was last put, by the events


class Observer:
    """Watches one game action by action and checks every invariant it can see.

    It keeps its own books from the events (money owed and paid, owners, the
    finishing order), so the state must not only be self-consistent but also
    agree with what the events announced.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.total = game.bank + sum(game.money)
        self.money = list(game.money)
        self.seen = 0
        self.race = game.race
        self.fronts: dict[Car, float] = {}
        self.ledger = RaceLedger()
        self.race_starts: list[list[int]] = []  # everyone's money when each race is dealt
        self.race_ends: list[list[int]] = []  # ... and when it ends

    def after(self, action: Action) -> None:
        """Check the game right after ``action`` was applied."""
        game = self.game
        new = game.events[self.seen:]
        self.seen = len(game.events)
        self.ledger.actions += 1
        assert self.ledger.actions <= MAX_ACTIONS_PER_RACE, f"race {game.race} does not end"
        for event in new:
            self._event(event)
        self._check_board(new)
        self._check_cards()
        self._check_money()

    # --- per event ---

    def _event(self, event: Event) -> None:
        game, ledger = self.game, self.ledger
        if isinstance(event, RaceStarted):
            assert event.race == game.race
            assert event.opener == (game.settings.first_opener + event.race - 1) % game.player_count
            self.race_starts.append(list(self.money))
        elif isinstance(event, AuctionWon):
            self.money[event.seat] -= event.price
            ledger.auctions += 1
        elif isinstance(event, CarPlaced):
            assert event.car not in ledger.owner, f"{event.car} sold twice in one race"
            ledger.owner[event.car] = event.seat
            ledger.spot[event.car] = game.track.space_id(game.track.starting_spaces[event.start])
        elif isinstance(event, CarReturned):
            ledger.spot[event.car] = event.to
        elif isinstance(event, CarMoved):
            self._check_forward(event)
            ledger.spot[event.car] = event.to
            if event.to == FINISH_ID:
                ledger.crossed.append(event.car)
        elif isinstance(event, CarFinished):
            assert event.place == len(ledger.finished) + 1
            assert event.prize == PRIZES[event.place - 1]
            assert event.seat == ledger.owner.get(event.car)
            ledger.finished.append(event)
            if event.seat is not None:
                self.money[event.seat] += event.prize
                ledger.prizes[event.seat] += event.prize
        elif isinstance(event, RaceEnded):
            self._check_result(event)
            self.race_ends.append(list(self.money))
            self.ledger = RaceLedger()
        elif isinstance(event, TipsSettled):
            for seat, total in enumerate(event.totals):
                self.money[seat] += total
        elif isinstance(event, GameEnded):
            assert list(event.money) == game.money
            assert list(event.winners) == game.winners()

    def _check_forward(self, event: CarMoved) -> None:
        """Every step of a move goes to a space further ahead, so each move does."""
        if event.to != FINISH_ID:
            t = self.game.track
            assert t.front(t.index(event.to)) > t.front(t.index(event.frm)), event

    def _check_result(self, result: RaceEnded) -> None:
        game, ledger = self.game, self.ledger
        placements = list(result.placements)
        assert sorted(placements) == sorted(CARS), f"placements {placements} are not the 6 cars once each"
        assert placements[:len(ledger.crossed)] == ledger.crossed, "finished cars must lead, in finishing order"
        assert [f.car for f in ledger.finished] == placements
        assert ledger.auctions == AUCTIONS and sorted(ledger.owner) == sorted(CARS), "all 6 cars are sold"
        assert set(ledger.owner.values()) == set(range(game.player_count)), "every seat races a car"
        owed = [0] * game.player_count
        for place, car in enumerate(placements):
            if car in ledger.owner:
                owed[ledger.owner[car]] += PRIZES[place]
        assert list(result.payouts) == owed
        assert sum(result.payouts) == sum(PRIZES[p] for p, c in enumerate(placements) if c in ledger.owner)
        assert list(result.payouts) == [ledger.prizes[s] for s in range(game.player_count)]
        assert game.results[result.race - 1] is result
        if len(ledger.crossed) >= FINISHES_TO_END:
            assert len(ledger.crossed) == FINISHES_TO_END, "the race goes on after the fifth finish"
        track = game.track
        fronts = [track.front(track.index(ledger.spot[car])) for car in placements[len(ledger.crossed):]]
        assert fronts == sorted(fronts, reverse=True), "unfinished cars are ranked by position"

    # --- per observation ---

    def _check_board(self, new: list[Event]) -> None:
        game = self.game
        board, t = game.board, game.track
        at = board.at
        assert len(set(at.values())) == len(at), f"two cars on one space: {at}"
        assert board.occupied == set(at.values())
        assert not set(at) & set(board.waiting), "a car both on the track and waiting beside it"
        assert not set(at) & set(board.finished), "a finished car still on the track"
        if game.race != self.race:  # a new race: a new board
            self.race, self.fronts = game.race, {}
            assert not at and not board.waiting and not board.finished and not game.owner
        came = {e.car for e in new if isinstance(e, (CarPlaced, CarReturned))}
        returned = {e.car for e in new if isinstance(e, CarReturned)}
        left = {e.car for e in new if isinstance(e, BrokeDown)}
        left |= {e.car for e in new if isinstance(e, CarMoved) and e.to == FINISH_ID}
        left |= {e.car for e in new if isinstance(e, CarFinished)}  # placed at the race's end
        for car in self.fronts.keys() - at.keys():
            assert car in left, f"{car} vanished from the track without breaking down or finishing"
        fronts = {car: t.front(space) for car, space in at.items()}
        for car, front in fronts.items():
            if car not in self.fronts:
                assert car in came, f"{car} appeared on the track unannounced"
            elif car not in returned:  # a returned car may come back beside or behind
                assert front >= self.fronts[car], f"{car} moved backward: {self.fronts[car]} -> {front}"
        self.fronts = fronts

    def _check_cards(self) -> None:
        game = self.game
        played = game.played
        assert len(played) == len(set(played)), f"a speed card played twice: {played}"
        assert all(n in game.deck for n in played)
        if game.hands is not None:
            held = [n for hand in game.hands for n in hand]
            assert len(held) == len(set(held))
            assert not set(held) & set(played), "a played card is still in a hand"
            assert [len(h) for h in game.hands] == game.hand_size
        if game.phase is not Phase.DEAL:
            assert sum(game.hand_size) + len(played) == game.player_count * game.cards_per_player()

    def _check_money(self) -> None:
        game = self.game
        assert game.bank + sum(game.money) == self.total == BANKNOTES_TOTAL
        assert game.money == self.money, "money moved that no event announced"


# --- driving a game ------------------------------------------------------------------

Probe = Callable[[Game, random.Random], None]


def play_checked(setup: Setup, *, probe: Probe | None = None, probe_rate: float = 0.0) -> tuple[Game, Observer]:
    """Play ``setup`` to its end with the observer checking every action.

    With ``probe``, at a random ``probe_rate`` share of the decisions the probe
    first tries illegal actions (the game must refuse them and stay the same).
    """
    game = setup.new_game()
    observer = Observer(game)
    bots = bots_for(setup.kinds, setup.seed)
    chance, dice = random.Random(setup.seed), random.Random(~setup.seed)
    limit = MAX_ACTIONS_PER_RACE * setup.races
    while not game.is_over:
        assert len(game.log) < limit, "the game does not end"
        if probe is not None and dice.random() < probe_rate:
            probe(game, dice)
        if game.to_move == CHANCE:
            action: Action = Deal(None) if setup.hidden and game.phase is Phase.DEAL else game.chance(chance)
        else:
            action = bots[game.to_move].choose(game)  # type: ignore[index]
        game.apply(action)
        observer.after(action)
    assert_game_over(game, setup)
    return game, observer


def assert_game_over(game: Game, setup: Setup) -> None:
    assert game.phase is Phase.GAME_OVER and game.to_move is None
    assert game.legal_actions() == []
    assert game.race == setup.races and len(game.results) == setup.races
    assert [r.race for r in game.results] == list(range(1, setup.races + 1))
    assert isinstance(game.events[-1], GameEnded)


def texts(game: Game) -> list[str]:
    return [e.text(game.names) for e in game.events]


def assert_replays(game: Game) -> None:
    """Replaying the notation of the whole log rebuilds the same state and story."""
    again = type(game).replay(game.settings, game.track, game.deck, [str(a) for a in game.log])
    assert again.snapshot() == game.snapshot()
    assert texts(again) == texts(game)
    assert again.events == game.events


class Marks:
    """Snapshots at three random moments of a game (a probe for ``play_checked``),
    to check afterwards that the log up to each moment rebuilds the game as it was."""

    def __init__(self, rng: random.Random, span: int = 200) -> None:
        self.wanted = set(rng.sample(range(1, span), 3))
        self.seen: dict[int, tuple[dict[str, Any], int]] = {}

    def __call__(self, game: Game, dice: random.Random) -> None:
        if len(game.log) in self.wanted:
            self.seen[len(game.log)] = (game.snapshot(), len(game.events))

    def check(self, game: Game) -> None:
        for upto, (snapshot, events) in self.seen.items():
            assert_prefix_replays(game, upto, snapshot, events)


def assert_prefix_replays(game: Game, upto: int, snapshot: dict[str, Any], events: int) -> None:
    """The first ``upto`` actions rebuild the game as it was after them, mid-race."""
    again = replay_game(game.settings, game.track, game.deck, [str(a) for a in game.log[:upto]])
    assert again.snapshot() == snapshot
    assert again.events == game.events[:events]


def assert_json_round_trip(game: Game) -> None:
    """``to_dict`` survives JSON, and the reloaded settings and log rebuild the game."""
    saved = json.loads(json.dumps(game.to_dict()))
    assert saved["snapshot"] == game.snapshot()
    assert saved["log"] == [str(a) for a in game.log]
    settings = Settings(**{**saved["settings"], "players": tuple(saved["settings"]["players"])})
    assert settings == game.settings
    assert replay_game(settings, game.track, game.deck, saved["log"]).snapshot() == game.snapshot()


# --- illegal actions ---------------------------------------------------------------------


def state(game: Game) -> tuple[Any, ...]:
    """Everything a refused action must leave untouched, in comparable form."""
    hands = None if game.hands is None else [list(h) for h in game.hands]
    return (game.snapshot(), len(game.log), len(game.events), [str(a) for a in game.legal_actions()], hands)


#: An action of a kind the phase does not accept at all.
WRONG_KIND: dict[Phase, Action] = {
    Phase.DEAL: Pass(),
    Phase.BID: Sprint(),
    Phase.TAKE_CAR: Bid(OPENING_BID),
    Phase.PLACE_CAR: TakeCar(RED),
    Phase.PLAY_CARD: Breakdown(),
    Phase.CHOOSE_JOKER: PlayCard(1),
    Phase.SPRINT_OR_BREAKDOWN: Pass(),
    Phase.MOVE_CAR: Sprint(),
    Phase.RETURN_CAR: MoveCar(RED, FINISH_ID),
    Phase.GAME_OVER: Pass(),
}


def illegal_actions(game: Game, rng: random.Random) -> list[tuple[str, Action]]:
    """Actions the rules forbid right now, each with the reason, for the current phase."""
    found: list[tuple[str, Action]] = [("wrong kind of action", WRONG_KIND[game.phase])]
    found += _ILLEGAL.get(game.phase, lambda g, r: [])(game, rng)
    return found


def _illegal_deal(game: Game, rng: random.Random) -> list[tuple[str, Action]]:
    deal = game.deal(random.Random(rng.getrandbits(32)))
    assert deal.hands is not None
    twice = (deal.hands[0][1:] + deal.hands[1][:1],) + deal.hands[1:]
    return [("a card dealt twice", Deal(twice, deal.left_out)),
            ("a deal for too few seats", Deal(deal.hands[:-1], deal.left_out))]


def _illegal_bids(game: Game, rng: random.Random) -> list[tuple[str, Action]]:
    auction = game.auction
    assert auction is not None and game.to_move is not None
    found: list[tuple[str, Action]] = [("a bid off the 10,000 steps", Bid(OPENING_BID + STEP // 2)),
                                       ("a bid of nothing", Bid(0))]
    if not auction.may_pass():
        found.append(("a pass by the opener", Pass()))
    else:
        found.append(("a bid equal to the high bid", Bid(auction.high)))
        if auction.high > STEP:
            found.append(("a bid below the high bid", Bid(auction.high - STEP)))
    beyond = (max(game.money[game.to_move], auction.high, OPENING_BID) // STEP + 1) * STEP
    found.append(("a bid beyond the bidder's money", Bid(beyond)))
    return found


def _illegal_take(game: Game, rng: random.Random) -> list[tuple[str, Action]]:
    return [("a car already sold", TakeCar(car)) for car in game.owner]


def _illegal_place(game: Game, rng: random.Random) -> list[tuple[str, Action]]:
    taken = [n for n in game.track.starting_spaces if n not in game.free_starting_spaces()]
    found: list[tuple[str, Action]] = [("a taken starting space", PlaceCar(n)) for n in taken]
    return found + [("no such starting space", PlaceCar(0)), ("no such starting space", PlaceCar(7))]


def _illegal_play(game: Game, rng: random.Random) -> list[tuple[str, Action]]:
    found: list[tuple[str, Action]] = [("no such card", PlayCard(max(game.deck.numbers) + 1))]
    found += [("a card already played", PlayCard(n)) for n in rng.sample(game.played, min(2, len(game.played)))]
    if game.hands is not None:
        others = [n for seat, hand in enumerate(game.hands) if seat != game.to_move for n in hand]
        found += [("another player's card", PlayCard(n)) for n in rng.sample(others, min(2, len(others)))]
    return found


def _illegal_joker(game: Game, rng: random.Random) -> list[tuple[str, Action]]:
    shown = sorted(set(CARS) - set(game.joker_choices()))
    return [("a joker on a car shown on the card", ChooseJoker(car)) for car in shown]


def _illegal_move(game: Game, rng: random.Random) -> list[tuple[str, Action]]:
    offered = [a for a in game.legal_actions() if isinstance(a, MoveCar)]
    car, ends = offered[0].car, [a.to for a in offered]
    found: list[tuple[str, Action]] = [
        ("a move to a space not offered", MoveCar(car, to)) for to in _elsewhere(game, ends, rng)]
    found.append(("a move of another car", MoveCar(_other_car(car, rng), ends[0])))
    return found


def _illegal_return(game: Game, rng: random.Random) -> list[tuple[str, Action]]:
    offered = [a for a in game.legal_actions() if isinstance(a, ReturnCar)]
    car, spaces = offered[0].car, [a.to for a in offered]
    found: list[tuple[str, Action]] = [
        ("a return to a space not offered", ReturnCar(car, to)) for to in _elsewhere(game, spaces, rng)]
    found.append(("a return of another car", ReturnCar(_other_car(car, rng), spaces[0])))
    return found


def _elsewhere(game: Game, offered: list[str], rng: random.Random) -> list[str]:
    """A few space ids (or the finish) not among ``offered``."""
    ids = [s.id for s in game.track.spaces] + [FINISH_ID]
    return rng.sample([i for i in ids if i not in offered], 3)


def _other_car(car: Car, rng: random.Random) -> Car:
    return rng.choice([c for c in CARS if c != car])


_ILLEGAL: dict[Phase, Callable[[Game, random.Random], list[tuple[str, Action]]]] = {
    Phase.DEAL: _illegal_deal,
    Phase.BID: _illegal_bids,
    Phase.TAKE_CAR: _illegal_take,
    Phase.PLACE_CAR: _illegal_place,
    Phase.PLAY_CARD: _illegal_play,
    Phase.CHOOSE_JOKER: _illegal_joker,
    Phase.MOVE_CAR: _illegal_move,
    Phase.RETURN_CAR: _illegal_return,
}


Probes = Callable[[Game, random.Random], list[tuple[str, Action]]]


def refuse_illegal(game: Game, rng: random.Random, seen: Counter[str] | None = None,
                   probes: Probes | None = None) -> None:
    """Try some illegal actions now (``probes``: the base game's by default): each must be refused and change
    nothing."""
    before = state(game)
    legal = set(game.legal_actions())
    for why, action in (probes or illegal_actions)(game, rng):
        assert action not in legal, f"{why}: {action} is listed as legal"
        assert not game.is_legal(action), f"{why}: is_legal({action}) says yes"
        with pytest.raises(IllegalActionError):
            game.apply(action)
        assert state(game) == before, f"refusing {action} ({why}) changed the game"
        if seen is not None:
            seen[why] += 1


# --- the properties -----------------------------------------------------------------------


def test_tracks_are_shipped() -> None:
    """The properties below run on every shipped track; an empty list would test nothing."""
    assert TRACKS, "no track files in toprace_pi/games/toprace/data/tracks"


@settings(GAMES, max_examples=1000)
@given(setups())
def test_invariants_hold_after_every_action(setup: Setup) -> None:
    """The bulk of the search: one-race games, every invariant after every action."""
    _, observer = play_checked(setup)
    assert len(observer.race_ends) == setup.races


@settings(GAMES, max_examples=150)
@given(setups(races=st.integers(2, 3)))
def test_invariants_hold_over_multi_race_games(setup: Setup) -> None:
    """Matches: the board, cars and cards reset each race, the money does not."""
    _, observer = play_checked(setup)
    assert observer.race_starts[1:] == observer.race_ends[:-1], "money carries over between races"


@settings(GAMES, max_examples=250)
@given(setups(races=st.integers(1, 2)), st.randoms(use_true_random=False))
def test_replaying_the_log_rebuilds_the_game(setup: Setup, rng: random.Random) -> None:
    """Saved games are only their log: the notation alone must rebuild the game,
    at the end and at three random moments (mid-auction, mid-card...)."""
    marks = Marks(rng)
    game, _ = play_checked(setup, probe=marks, probe_rate=1.0)
    assert_replays(game)
    marks.check(game)
    assert_json_round_trip(game)


@settings(GAMES, max_examples=300)
@given(setups())
def test_illegal_actions_are_refused_and_change_nothing(setup: Setup) -> None:
    """A table reader or a typo can send anything: a refusal must leave no trace."""
    seen: Counter[str] = Counter()
    game, _ = play_checked(setup, probe=lambda g, r: refuse_illegal(g, r, seen), probe_rate=0.25)
    refuse_illegal(game, random.Random(setup.seed), seen)  # and once the game is over
    assert seen["wrong kind of action"] > 0


def test_every_kind_of_illegal_action_is_tried() -> None:
    """The probes reach every listed kind of illegal action on a fixed set of games,
    so the refusal property is not silently vacuous for one of them."""
    seen: Counter[str] = Counter()
    for seed in range(12):
        setup = Setup(TRACKS[seed % len(TRACKS)], ("random",) * (2 + seed % 5), seed)
        play_checked(setup, probe=lambda g, r: refuse_illegal(g, r, seen), probe_rate=0.5)
    wanted = {"a card already played", "another player's card", "a move to a space not offered",
              "a bid below the high bid", "a bid equal to the high bid", "a joker on a car shown on the card",
              "a pass by the opener", "a car already sold", "a taken starting space", "a card dealt twice",
              "a return to a space not offered"}
    assert wanted <= set(seen), f"never tried: {sorted(wanted - set(seen))}"


# --- the driving rule against a brute-force search --------------------------------------------


def reference_moves(track: Track, start: int, points: int, blocked: set[int]) -> tuple[int, set[int]]:
    """The README's driving rule, searched layer by layer without shortcuts.

    "A car must use its full value if any path over free spaces allows it;
    otherwise it drives as far as the blockage lets it. Crossing the finish line
    always uses the full value." So every space that some route of exactly
    ``points`` free steps reaches is an end, and so is the finish when some route
    crosses the line within ``points`` steps.
    """
    layers, crosses = [{start}], False
    for _ in range(points):
        here = layers[-1]
        crosses |= any(FINISH in track.spaces[s].steps for s in here)
        layers.append({t for s in here for t in track.spaces[s].steps if t != FINISH and t not in blocked})
    if crosses:
        return points, layers[points] | {FINISH}
    furthest = max(k for k, layer in enumerate(layers) if layer)
    return furthest, layers[furthest] if furthest else set()


def deck_values() -> list[int]:
    return sorted({v for card in deck().cards if isinstance(card, MovementCard) for _, v in card.moves})


def describe_ends(track: Track, ends: set[int]) -> str:
    return ", ".join(sorted(track.space_id(e) for e in ends))


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(TRACKS), st.data())
def test_legal_ends_match_a_brute_force_search(name: str, data: st.DataObject) -> None:
    """Random starts (half of them on the last stretch, where lanes of different
    lengths meet the finish), points from the deck and up to five blockers near."""
    t = track(name)
    last_stretch = [s.index for s in t.spaces if s.front >= t.finish_line - 12]
    start = data.draw(st.one_of(st.integers(0, len(t.spaces) - 1), st.sampled_from(last_stretch)), "start")
    points = data.draw(st.sampled_from(deck_values()), "points")
    near = [s.index for s in t.spaces if s.index != start and -2 <= s.front - t.front(start) <= 6]
    others = data.draw(st.lists(st.sampled_from(near), max_size=5, unique=True) if near else st.just([]), "blockers")
    blocked = {start, *others}
    steps, ends = t.moves(start, points, blocked)
    expected_steps, expected = reference_moves(t, start, points, blocked)
    assert (steps, set(ends)) == (expected_steps, expected), (
        f"{name}: from {t.space_id(start)} with {points} (blocked {describe_ends(t, set(others))}) "
        f"the engine offers {describe_ends(t, set(ends))}, the rule gives {describe_ends(t, expected)}")
    for end in ends:  # every offered end has a route over free spaces that only goes forward
        route = t.path(start, steps, blocked, end)
        assert route[-1] == end and not set(route) & blocked
        assert len(route) == steps or (end == FINISH and len(route) <= steps)
        fronts = [t.front(start)] + [t.front(s) for s in route if s != FINISH]
        assert fronts == sorted(set(fronts))


def test_a_car_may_use_its_full_value_even_where_it_could_cross_the_line_sooner() -> None:
    """Near the finish, lanes of different lengths let a car either cross the line
    in fewer steps than its value or use the full value on a longer lane. Both use
    the full value, so both must be offered (as they are when the crossing takes
    exactly the full value); the engine offers only the finish.
    See ``Track.moves``: it returns as soon as the finish is reachable."""
    problems = []
    for name in TRACKS:
        t = track(name)
        for start in range(len(t.spaces)):
            for points in deck_values():
                got = t.moves(start, points, {start})
                want = reference_moves(t, start, points, {start})
                if (got[0], set(got[1])) != want:
                    missing = describe_ends(t, want[1] - set(got[1]))
                    problems.append(f"{name}: {t.space_id(start)} with {points}: engine offers "
                                    f"{describe_ends(t, set(got[1]))}; also legal: {missing}")
    assert not problems, f"{len(problems)} situations, e.g. " + "; ".join(problems[:3])


# --- fixed multi-race matches ----------------------------------------------------------------


def race_events(game: Game) -> list[list[Event]]:
    """The events of each race, split at the RaceStarted events."""
    races: list[list[Event]] = []
    for event in game.events:
        if isinstance(event, RaceStarted):
            races.append([])
        if races:
            races[-1].append(event)
    return races


@pytest.mark.parametrize("name", TRACKS)
def test_match_carries_money_over_and_counts_races(name: str) -> None:
    setup = Setup(name, ("greedy", "random", "greedy", "random"), seed=20240601, races=3)
    game, observer = play_checked(setup)
    assert len(game.results) == 3 and [r.race for r in game.results] == [1, 2, 3]
    assert observer.race_starts[0] == [START_CAPITAL] * 4
    assert observer.race_starts[1:] == observer.race_ends[:-1]
    assert observer.race_ends[-1] == game.money
    paid = Counter[int]()
    for event in game.events:
        if isinstance(event, AuctionWon):
            paid[event.seat] += event.price
    for seat in range(4):
        won = sum(r.payouts[seat] for r in game.results)
        assert game.money[seat] == START_CAPITAL + won - paid[seat]


@pytest.mark.parametrize("players,kinds,seed", [(2, "greedy", 7), (5, "random", 11), (6, "greedy", 3)])
def test_cars_are_auctioned_anew_every_race(players: int, kinds: str, seed: int) -> None:
    setup = Setup(TRACKS[seed % len(TRACKS)], (kinds,) * players, seed, races=3)
    game, _ = play_checked(setup)
    per_race = race_events(game)
    assert len(per_race) == 3
    for number, events in enumerate(per_race, 1):
        started = events[0]
        assert isinstance(started, RaceStarted) and started.race == number
        assert started.opener == (seed % players + number - 1) % players, "the opener moves on each race"
        placed = [e for e in events if isinstance(e, CarPlaced)]
        assert sorted(e.car for e in placed) == sorted(CARS)
        assert sorted(e.start for e in placed) == [1, 2, 3, 4, 5, 6]
        assert sum(isinstance(e, AuctionWon) for e in events) == AUCTIONS
        owners = Counter(e.seat for e in placed)
        assert set(owners) == set(range(players)), "every seat buys at least one car each race"


def test_a_new_race_starts_from_a_clean_board() -> None:
    setup = Setup(TRACKS[0], ("greedy",) * 3, seed=5, races=2)
    game = setup.new_game()
    bots, chance = bots_for(setup.kinds, setup.seed), random.Random(setup.seed)
    while game.race == 1:
        seat = game.to_move
        game.apply(game.deal(chance) if seat == CHANCE or seat is None else bots[seat].choose(game))
    assert game.phase is Phase.DEAL and game.to_move == CHANCE
    assert game.owner == {} and game.board.at == {} and game.board.finished == [] and game.played == []
    assert game.hand_size == [0, 0, 0] and len(game.results) == 1 and game.race == 2
    assert game.free_starting_spaces() == [1, 2, 3, 4, 5, 6]
    assert game.money != [START_CAPITAL] * 3, "the first race's bids and prizes stay with the players"


@settings(GAMES, max_examples=200)
@given(setups(), st.sampled_from(("tips", "quick")))
def test_invariants_hold_in_the_tips_and_quick_variants(setup: Setup, variant: str) -> None:
    """Every invariant above, plus: each tip settles exactly by the table and every game ends."""
    from toprace_pi.games.toprace.rules.variants.tips import settle

    game, _ = play_checked(replace(setup, variant=variant))
    settled = [e for e in game.events if isinstance(e, TipsSettled)]
    assert len(settled) == setup.races
    last = game.results[-1].placements
    assert list(settled[-1].totals) == settle(game.tips, last, game.table)
    assert_replays(game)
