"""Top Race's random-play observer and helpers, shared by the property tests of the base game and its variants."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from scenarios import CARS, RED

from toprace_pi.errors import IllegalActionError
from toprace_pi.games.toprace.data import load_track, track_names
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
    FINISHES_TO_END,
    Phase,
    Settings,
    TopRace,
)
from toprace_pi.games.toprace.rules.track import FINISH, FINISH_ID, Track
from toprace_pi.games.toprace.rules.variants import replay_game

#: A race that needs more actions than this is taken to loop forever.
MAX_ACTIONS_PER_RACE = 5000
TRACKS = track_names()
#: Hypothesis settings shared by the game properties: a game is a slow example
#: (a few ms), so no deadline; the example counts keep the file near 25 s.
GAMES = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@cache
def track(name: str) -> Track:
    return load_track(name)


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

    def __init__(self, game: TopRace) -> None:
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


def texts(game: TopRace) -> list[str]:
    return [e.text(game.names) for e in game.events]


def assert_replays(game: TopRace) -> None:
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

    def __call__(self, game: TopRace, dice: random.Random) -> None:
        if len(game.log) in self.wanted:
            self.seen[len(game.log)] = (game.snapshot(), len(game.events))

    def check(self, game: TopRace) -> None:
        for upto, (snapshot, events) in self.seen.items():
            assert_prefix_replays(game, upto, snapshot, events)


def assert_prefix_replays(game: TopRace, upto: int, snapshot: dict[str, Any], events: int) -> None:
    """The first ``upto`` actions rebuild the game as it was after them, mid-race."""
    again = replay_game(game.settings, game.track, game.deck, [str(a) for a in game.log[:upto]])
    assert again.snapshot() == snapshot
    assert again.events == game.events[:events]


def assert_json_round_trip(game: TopRace) -> None:
    """``to_dict`` survives JSON, and the reloaded settings and log rebuild the game."""
    saved = json.loads(json.dumps(game.to_dict()))
    assert saved["snapshot"] == game.snapshot()
    assert saved["log"] == [str(a) for a in game.log]
    settings = Settings(**{**saved["settings"], "players": tuple(saved["settings"]["players"])})
    assert settings == game.settings
    assert replay_game(settings, game.track, game.deck, saved["log"]).snapshot() == game.snapshot()


def state(game: TopRace) -> tuple[Any, ...]:
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


def illegal_actions(game: TopRace, rng: random.Random) -> list[tuple[str, Action]]:
    """Actions the rules forbid right now, each with the reason, for the current phase."""
    found: list[tuple[str, Action]] = [("wrong kind of action", WRONG_KIND[game.phase])]
    found += _ILLEGAL.get(game.phase, lambda g, r: [])(game, rng)
    return found


def _illegal_deal(game: TopRace, rng: random.Random) -> list[tuple[str, Action]]:
    deal = game.deal(random.Random(rng.getrandbits(32)))
    assert deal.hands is not None
    twice = (deal.hands[0][1:] + deal.hands[1][:1],) + deal.hands[1:]
    return [("a card dealt twice", Deal(twice, deal.left_out)),
            ("a deal for too few seats", Deal(deal.hands[:-1], deal.left_out))]


def _illegal_bids(game: TopRace, rng: random.Random) -> list[tuple[str, Action]]:
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


def _illegal_take(game: TopRace, rng: random.Random) -> list[tuple[str, Action]]:
    return [("a car already sold", TakeCar(car)) for car in game.owner]


def _illegal_place(game: TopRace, rng: random.Random) -> list[tuple[str, Action]]:
    taken = [n for n in game.track.starting_spaces if n not in game.free_starting_spaces()]
    found: list[tuple[str, Action]] = [("a taken starting space", PlaceCar(n)) for n in taken]
    return found + [("no such starting space", PlaceCar(0)), ("no such starting space", PlaceCar(7))]


def _illegal_play(game: TopRace, rng: random.Random) -> list[tuple[str, Action]]:
    found: list[tuple[str, Action]] = [("no such card", PlayCard(max(game.deck.numbers) + 1))]
    found += [("a card already played", PlayCard(n)) for n in rng.sample(game.played, min(2, len(game.played)))]
    if game.hands is not None:
        others = [n for seat, hand in enumerate(game.hands) if seat != game.to_move for n in hand]
        found += [("another player's card", PlayCard(n)) for n in rng.sample(others, min(2, len(others)))]
    return found


def _illegal_joker(game: TopRace, rng: random.Random) -> list[tuple[str, Action]]:
    shown = sorted(set(CARS) - set(game.joker_choices()))
    return [("a joker on a car shown on the card", ChooseJoker(car)) for car in shown]


def _illegal_move(game: TopRace, rng: random.Random) -> list[tuple[str, Action]]:
    offered = [a for a in game.legal_actions() if isinstance(a, MoveCar)]
    car, ends = offered[0].car, [a.to for a in offered]
    found: list[tuple[str, Action]] = [
        ("a move to a space not offered", MoveCar(car, to)) for to in _elsewhere(game, ends, rng)]
    found.append(("a move of another car", MoveCar(_other_car(car, rng), ends[0])))
    return found


def _illegal_return(game: TopRace, rng: random.Random) -> list[tuple[str, Action]]:
    offered = [a for a in game.legal_actions() if isinstance(a, ReturnCar)]
    car, spaces = offered[0].car, [a.to for a in offered]
    found: list[tuple[str, Action]] = [
        ("a return to a space not offered", ReturnCar(car, to)) for to in _elsewhere(game, spaces, rng)]
    found.append(("a return of another car", ReturnCar(_other_car(car, rng), spaces[0])))
    return found


def _elsewhere(game: TopRace, offered: list[str], rng: random.Random) -> list[str]:
    """A few space ids (or the finish) not among ``offered``."""
    ids = [s.id for s in game.track.spaces] + [FINISH_ID]
    return rng.sample([i for i in ids if i not in offered], 3)


def _other_car(car: Car, rng: random.Random) -> Car:
    return rng.choice([c for c in CARS if c != car])


_ILLEGAL: dict[Phase, Callable[[TopRace, random.Random], list[tuple[str, Action]]]] = {
    Phase.DEAL: _illegal_deal,
    Phase.BID: _illegal_bids,
    Phase.TAKE_CAR: _illegal_take,
    Phase.PLACE_CAR: _illegal_place,
    Phase.PLAY_CARD: _illegal_play,
    Phase.CHOOSE_JOKER: _illegal_joker,
    Phase.MOVE_CAR: _illegal_move,
    Phase.RETURN_CAR: _illegal_return,
}


Probes = Callable[[TopRace, random.Random], list[tuple[str, Action]]]


def refuse_illegal(game: TopRace, rng: random.Random, seen: Counter[str] | None = None,
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


def reference_moves(track: Track, start: int, points: int, blocked: set[int]) -> tuple[int, set[int]]:
    """The driving rule (docs/rules-toprace.md), searched layer by layer without shortcuts.

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
