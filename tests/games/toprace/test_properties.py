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

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scenarios import CARS
from support.properties import (
    GAMES,
    MAX_ACTIONS_PER_RACE,
    TRACKS,
    Marks,
    Observer,
    assert_json_round_trip,
    assert_replays,
    reference_moves,
    refuse_illegal,
    track,
)

from toprace_pi.games.toprace.bots import SIMPLE_KINDS
from toprace_pi.games.toprace.data import load_deck
from toprace_pi.games.toprace.rules.actions import (
    Action,
    Deal,
)
from toprace_pi.games.toprace.rules.auction import AUCTIONS
from toprace_pi.games.toprace.rules.cards import Deck, MovementCard
from toprace_pi.games.toprace.rules.events import (
    AuctionWon,
    CarPlaced,
    Event,
    GameEnded,
    RaceStarted,
    TipsSettled,
)
from toprace_pi.games.toprace.rules.game import (
    START_CAPITAL,
    Phase,
    Settings,
    TopRace,
)
from toprace_pi.games.toprace.rules.track import FINISH, Track
from toprace_pi.games.toprace.rules.variants import new_game
from toprace_pi.games.toprace.simulate import bots_for, player_names

ONE_RACE = st.just(1)


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

    def new_game(self) -> TopRace:
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


# --- driving a game ------------------------------------------------------------------

Probe = Callable[[TopRace, random.Random], None]


def play_checked(setup: Setup, *, probe: Probe | None = None, probe_rate: float = 0.0) -> tuple[TopRace, Observer]:
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
        if game.decision.chance:
            action: Action = Deal(None) if setup.hidden and game.phase is Phase.DEAL else game.chance(chance)
        else:
            action = bots[game.to_move].choose(game)  # type: ignore[index]
        game.apply(action)
        observer.after(action)
    assert_game_over(game, setup)
    return game, observer


def assert_game_over(game: TopRace, setup: Setup) -> None:
    assert game.phase is Phase.GAME_OVER and game.to_move is None
    assert game.legal_actions() == []
    assert game.race == setup.races and len(game.results) == setup.races
    assert [r.race for r in game.results] == list(range(1, setup.races + 1))
    assert isinstance(game.events[-1], GameEnded)


# --- illegal actions ---------------------------------------------------------------------


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


def race_events(game: TopRace) -> list[list[Event]]:
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
        game.apply(game.deal(chance) if seat is None or game.decision.chance else bots[seat].choose(game))
    assert game.phase is Phase.DEAL and game.decision.chance
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
