"""The rulebook's examples replayed on the four shipped tracks, where lanes are staggered.

Most rules tests run on straight test tracks, where every row shares one front
edge; rules that only go wrong in curves (a Sprint that overshoots, a car put
back one row too far, a tip round one row early) pass there unnoticed. Here each
example is set on every shipped track at a place that ``places.py`` finds by
searching the track data, the test asserts that the place is staggered, and the
game is driven through its public actions. What the rules allow is worked out
again in ``places.py`` from the spaces' lanes, edges and steps, never by asking
the Track methods the engine itself uses.

The last part plays seeded random games on every track and checks three of those
rules after every action: a Sprint ends level with the other car (or behind a
blockage) and never past it, a returning car goes beside its waiting place or to
the nearest free space behind, and a tip round starts right after the move in
which the leader crosses its line.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from places import (
    Pair,
    crosses_within,
    find_blockage,
    find_blocked_sprint,
    find_dead_end,
    find_finish,
    find_level_pair,
    find_level_row,
    find_order,
    find_return,
    find_sideways,
    find_sprint,
    find_tip_approach,
    find_waiting_place,
    free_steps,
    has_crossed,
    inside,
    is_level,
    is_staggered,
    layers,
    open_stretch,
    parking,
    placing,
    reachable_up_to,
    return_spaces,
    row_beside,
    spaces_between,
    sprint_ends,
    step_kind,
)
from scenarios import BLACK, BLUE, CARS, DECK, GREEN, NAMES, PURPLE, RED, YELLOW, deal_with, race_ready, win_auction
from support.cards import (
    BLACK_5_JOKER,
    BLACK_6,
    BLACK_6_YELLOW,
    BLUE_3,
    BLUE_5,
    BLUE_6,
    BLUE_RED,
    PURPLE_5,
    PURPLE_6,
    PURPLE_6_JOKER,
    PURPLE_10_JOKER,
    RED_6,
    YELLOW_6,
    YELLOW_10,
)
from support.pitstop import pit_deal
from support.properties import reference_moves, track

from toprace_pi.games.toprace.data import track_names
from toprace_pi.games.toprace.rules import (
    Action,
    Breakdown,
    Car,
    ChooseJoker,
    Deal,
    MoveCar,
    MovementCard,
    Pass,
    Phase,
    PlaceCar,
    PlayCard,
    ReturnCar,
    Settings,
    Sprint,
    SprintBreakdownCard,
    TakeCar,
    TopRace,
)
from toprace_pi.games.toprace.rules.events import (
    PRIZES,
    AuctionWon,
    BrokeDown,
    CarFinished,
    CarMoved,
    CarReturned,
    Forfeited,
    RaceEnded,
    TipRound,
    TipsSettled,
)
from toprace_pi.games.toprace.rules.track import FINISH, FINISH_ID, Track
from toprace_pi.games.toprace.rules.variants import new_game
from toprace_pi.games.toprace.rules.variants.pitstop import PIT_STOP_CLAIM, ClaimPitStop, CollectPitStop
from toprace_pi.games.toprace.rules.variants.quick import Reveal
from toprace_pi.games.toprace.rules.variants.tips import TIP, Tip

B, R, Y, K, P, G = BLUE, RED, YELLOW, BLACK, PURPLE, GREEN
TRACKS = track_names()
# Anna (seat 0) owns Red, Yellow, Black and starts the race; Ben owns Blue, Purple, Green.
OWNERS = {R: 0, B: 1, Y: 0, P: 1, K: 0, G: 1}
#: The movement cards on which Blue moves first, in deck order.
BLUE_FIRST = [n for n in DECK.numbers if isinstance(DECK[n], MovementCard) and DECK[n].moves[0][0] == B]
MID_CARD = (Phase.CHOOSE_JOKER, Phase.SPRINT_OR_BREAKDOWN, Phase.MOVE_CAR, Phase.RETURN_CAR, TIP)

on_every_track = pytest.mark.parametrize("name", TRACKS)


def value(number: int, car: Car) -> int:
    """The value ``car`` moves by on speed card ``number``."""
    card = DECK[number]
    assert isinstance(card, MovementCard)
    return next(v for c, v in card.moves if c == car)


def ready(name: str, spots: dict[Car, int], hands=(), variant: str = "base", deal: Deal | None = None) -> TopRace:
    """A two-player race on the shipped track ``name`` with the cars of ``spots`` on
    those spaces and the others parked on the starting grid."""
    t = track(name)
    game = race_ready(t, OWNERS, hands=hands, variant=variant, deal=deal)
    grid = [s for s in parking(t, 6) if s not in spots.values()]
    game.board.set_up({**spots, **dict(zip([c for c in CARS if c not in spots], grid))})
    return game


def ends(game: TopRace) -> set[int]:
    """The spaces (or FINISH) the car being moved is offered."""
    return {game.track.index(a.to) for a in game.legal_actions() if isinstance(a, MoveCar)}


def returns(game: TopRace) -> set[int]:
    return {game.track.index(a.to) for a in game.legal_actions() if isinstance(a, ReturnCar)}


def names(t: Track, spaces) -> list[str]:
    return sorted(t.space_id(s) for s in spaces)


def move(game: TopRace, car: Car, to: int) -> None:
    game.apply(MoveCar(car, game.track.space_id(to)))


def play_until(game: TopRace, number: int, car: Car) -> None:
    """Play speed card ``number`` and move the cars before ``car`` their first way."""
    game.apply(PlayCard(number))
    while not (game.phase is Phase.MOVE_CAR and game.moving.car == car):
        assert game.phase in (Phase.MOVE_CAR, Phase.CHOOSE_JOKER), game.phase
        game.apply(game.legal_actions()[0])


def resolve(game: TopRace) -> None:
    """Work through the rest of the card with the first choice each time."""
    while game.phase in MID_CARD:
        game.apply(game.legal_actions()[0])


def at(game: TopRace, car: Car) -> int:
    return game.board.at[car]


# --- Race Sequence -------------------------------------------------------------------------------


@on_every_track
def test_a_car_uses_its_full_value_straight_or_diagonally_and_never_sideways_off_a_curve(name):
    """The car starts on a straight just before a curve, where other cars box in one
    space it could reach: stopping there would waste points, so it is not offered.
    Every offered end has a route of straight, diagonal or (from curve spaces only)
    sideways steps, judged from the spaces' lanes and edges."""
    t = track(name)
    points = value(BLUE_5, B)
    place = find_dead_end(t, points)
    start = t.spaces[place.start]
    blockers = dict(zip((Y, P, R, G), sorted(place.blockers)))  # cars that move after Blue, or not at all
    game = ready(name, {B: place.start, **blockers}, hands=((BLUE_5,),))
    game.apply(PlayCard(BLUE_5))
    steps, expected = reference_moves(t, place.start, points, game.board.occupied)
    assert not start.is_curve and any(is_staggered(t, t.spaces[e]) for e in expected)
    assert steps == points == game.moving.steps
    assert ends(game) == expected, names(t, ends(game) ^ expected)
    reached = layers(t, place.start, points, game.board.occupied)
    assert any(place.trap in layer for layer in reached[1:points]) and place.trap not in expected
    assert any(t.spaces[e].lane != start.lane for e in expected), "changing lanes is allowed"
    for end in expected:
        route = [place.start] + t.path(place.start, game.moving.steps, game.board.occupied, end)
        kinds = [step_kind(t, a, b) for a, b in zip(route, route[1:])]
        assert len(kinds) == points and "illegal" not in kinds, (names(t, route), kinds)
        assert not set(route[1:]) & game.board.occupied


@on_every_track
def test_on_a_curve_space_a_car_may_move_sideways_only_onto_a_space_ending_further_ahead(name):
    """Black has 1 point on a curve space: the space beside it that ends further ahead is
    a step, the one beside it that ends level with it or behind is not."""
    t = track(name)
    place = find_sideways(t)
    s, ahead, behind = t.spaces[place.start], t.spaces[place.ahead], t.spaces[place.behind]
    assert s.is_curve and is_staggered(t, s)
    assert ahead.back < s.front < ahead.front and behind.back < s.front and behind.front <= s.front
    game = ready(name, {K: place.start}, hands=((BLUE_3,),))
    play_until(game, BLUE_3, K)
    assert game.moving.points == 1
    offered = ends(game)
    assert offered == free_steps(t, place.start, game.board.occupied)
    assert place.ahead in offered and step_kind(t, place.start, place.ahead) == "sideways"
    assert place.behind not in offered


@on_every_track
def test_a_blockage_stops_the_car_and_the_rest_of_its_value_is_forfeited(name):
    """Purple has 5 points but the cars ahead leave room for only 3."""
    t = track(name)
    points = value(PURPLE_5, P)
    place = find_blockage(t, points, 3)
    assert is_staggered(t, t.spaces[place.start])
    blockers = dict(zip((B, Y, G, R, K), sorted(place.blockers)))
    game = ready(name, {P: place.start, **blockers}, hands=((PURPLE_5,),))
    game.apply(PlayCard(PURPLE_5))
    steps, expected = reference_moves(t, place.start, points, game.board.occupied)
    assert steps == 3 and game.moving.car == P and game.moving.steps == 3
    assert ends(game) == expected, names(t, ends(game) ^ expected)
    to = min(expected)
    move(game, P, to)
    moved = [e for e in game.events if isinstance(e, CarMoved)]
    assert moved[0] == CarMoved(P, t.space_id(place.start), t.space_id(to), 3, points)


@on_every_track
def test_cars_move_in_printed_order_and_one_moved_earlier_can_block_a_later_one(name):
    """Yellow 6 / Red 4 / Black 2: Yellow ends on a staggered space Red could have used,
    and Red's choice shrinks by more than that one space."""
    t = track(name)
    place = find_order(t, value(YELLOW_6, Y), value(YELLOW_6, R))
    game = ready(name, {Y: place.first, R: place.second}, hands=((YELLOW_6,),))
    game.apply(PlayCard(YELLOW_6))
    assert game.moving.car == Y and place.onto in ends(game)
    move(game, Y, place.onto)
    assert game.moving.car == R and game.moving.points == 4
    _, expected = reference_moves(t, place.second, 4, game.board.occupied)
    _, without_yellow = reference_moves(t, place.second, 4, game.board.occupied - {place.onto})
    assert ends(game) == expected, names(t, ends(game) ^ expected)
    assert place.onto in without_yellow and expected != without_yellow - {place.onto}
    move(game, R, min(expected))
    resolve(game)
    assert [e.car for e in game.events if isinstance(e, CarMoved)] == [Y, R, K]


# --- White Joker Color ------------------------------------------------------------------------------


def drive_to_joker(game: TopRace, number: int) -> None:
    """Play ``number`` and move the cars before its joker their first way."""
    game.apply(PlayCard(number))
    while game.phase is Phase.MOVE_CAR:
        game.apply(game.legal_actions()[0])
    assert game.phase is Phase.CHOOSE_JOKER


@on_every_track
def test_the_joker_moves_any_car_not_shown_on_the_card(name):
    """Purple 6 / Yellow 4 / White 2 / Blue 1: the joker's 2 points go to Green, which
    stands on a staggered curve space."""
    t = track(name)
    start = next(s.index for s in open_stretch(t) if s.is_curve)
    assert is_staggered(t, t.spaces[start])
    game = ready(name, {G: start}, hands=((PURPLE_6_JOKER,),))
    drive_to_joker(game, PURPLE_6_JOKER)
    card = DECK[PURPLE_6_JOKER]
    assert isinstance(card, MovementCard)
    assert {a.car for a in game.legal_actions() if isinstance(a, ChooseJoker)} == set(CARS) - card.cars == {R, K, G}
    game.apply(ChooseJoker(G))
    assert game.moving.car == G and game.moving.points == 2
    assert ends(game) == reference_moves(t, start, 2, game.board.occupied)[1]
    move(game, G, min(ends(game)))
    assert game.moving.car == B and game.moving.points == 1




@on_every_track
def test_a_joker_on_a_broken_down_or_finished_car_forfeits_its_points(name):
    """Red breaks down on a staggered curve space and Ben's joker picks it; then Yellow
    finishes and Ben's next joker picks Yellow. Both times the joker's points are lost."""
    t = track(name)
    waiting = next(s.index for s in open_stretch(t) if s.is_curve)
    assert is_staggered(t, t.spaces[waiting])
    near_line = next(s.index for s in spaces_between(t, t.finish_line - 12, t.finish_line)
                     if crosses_within(t, s.index, value(YELLOW_6, Y), ()))
    game = ready(name, {R: waiting, Y: near_line},
                 hands=((BLUE_RED, YELLOW_6), (BLACK_5_JOKER, PURPLE_10_JOKER)))
    game.apply(PlayCard(BLUE_RED))
    game.apply(Breakdown())  # Blue, parked on the grid, is behind
    assert game.events[-1] == BrokeDown(R, B)
    drive_to_joker(game, BLACK_5_JOKER)
    game.apply(ChooseJoker(R))
    assert game.events[-1] == Forfeited(R, value(BLACK_5_JOKER, None), "broken down")
    resolve(game)
    game.apply(PlayCard(YELLOW_6))
    assert FINISH in ends(game)
    game.apply(MoveCar(Y, FINISH_ID))
    assert CarFinished(Y, 1, 0, PRIZES[0]) in game.events
    resolve(game)
    drive_to_joker(game, PURPLE_10_JOKER)
    game.apply(ChooseJoker(Y))
    assert game.events[-1] == Forfeited(Y, value(PURPLE_10_JOKER, None), "already finished")


# --- Sprint ------------------------------------------------------------------------------------------


def sprint(name: str, rear: int, ahead: int, blockers=()) -> TopRace:
    """Blue on ``rear`` sprints towards Red on ``ahead``; Purple, Green, Yellow and Black
    stand on ``blockers`` (or on the grid)."""
    t = track(name)
    assert placing(t, rear) < placing(t, ahead), "Blue is the car behind"
    game = ready(name, {B: rear, R: ahead, **dict(zip((P, G, Y, K), sorted(blockers)))}, hands=((BLUE_RED,),))
    game.apply(PlayCard(BLUE_RED))
    game.apply(Sprint())
    return game


@on_every_track
def test_a_sprint_brings_the_rear_car_level_with_the_other_and_never_past_it(name):
    """Red stands on a curve space; Blue may end on any free space whose front edge lies
    within Red's space (spaces of several front edges here), never beyond Red's front
    edge, although it could drive further."""
    t = track(name)
    pair = find_sprint(t)
    red = t.spaces[pair.front]
    assert is_staggered(t, red)
    game = sprint(name, pair.rear, pair.front)
    expected = sprint_ends(t, pair.rear, pair.front, game.board.occupied)
    assert len({t.spaces[e].front for e in expected}) > 1
    assert all(red.back < t.spaces[e].front <= red.front for e in expected)
    assert any(t.spaces[n].front > red.front for e in expected for n in free_steps(t, e, game.board.occupied))
    assert game.moving.car == B
    assert ends(game) == expected, f"offered {names(t, ends(game))}, level: {names(t, expected)}"
    end = min(expected, key=lambda e: t.spaces[e].front)
    move(game, B, end)
    assert at(game, B) == end and is_level(t.spaces[end], red)


@on_every_track
def test_a_blocked_sprint_ends_on_the_furthest_free_spaces_behind_the_blockage(name):
    """Every space level with Red is taken, so Blue gets only as far as the free spaces
    furthest ahead that it can reach behind them."""
    t = track(name)
    pair, blockers = find_blocked_sprint(t)
    red = t.spaces[pair.front]
    assert is_staggered(t, red) and all(is_level(t.spaces[b], red) for b in blockers)
    game = sprint(name, pair.rear, pair.front, blockers)
    reach = reachable_up_to(t, pair.rear, red.front, game.board.occupied)
    assert reach and not any(is_level(t.spaces[s], red) for s in reach)
    best = max(t.spaces[s].front for s in reach)
    expected = {s for s in reach if t.spaces[s].front == best}
    assert best <= red.back
    assert ends(game) == expected, f"offered {names(t, ends(game))}, furthest behind: {names(t, expected)}"


def test_on_speed_street_blue_on_b9_sprints_level_with_red_on_c11_onto_a10_or_b10():
    """The case that showed the overshoot: c12 and a11 lie wholly ahead of Red."""
    game = sprint("speed-street", track("speed-street").index("b9"), track("speed-street").index("c11"))
    assert sorted(game.move_ends()) == ["a10", "b10"]


# --- Breakdown -----------------------------------------------------------------------------------------


@on_every_track
def test_a_broken_down_car_waits_until_its_chaser_has_driven_level_with_it(name):
    """Blue first ends on a space beside Red's waiting place whose front edge is still
    short of Red's: Red waits on (its points are lost). One step more and Red's owner
    puts it back."""
    t = track(name)
    points = value(BLUE_6, B)
    waiting, way = find_waiting_place(t, points)
    w, beside = t.spaces[waiting], t.spaces[way.to]
    assert is_staggered(t, w) and w.back < beside.front < w.front and beside.lane != w.lane
    game = ready(name, {R: waiting, B: way.start}, hands=((BLUE_RED, RED_6), (BLUE_6,)))
    game.apply(PlayCard(BLUE_RED))
    game.apply(Breakdown())
    assert game.events[-1] == BrokeDown(R, B) and R in game.board.waiting
    game.apply(PlayCard(BLUE_6))
    move(game, B, way.to)
    assert game.phase is not Phase.RETURN_CAR and R in game.board.waiting
    resolve(game)
    assert Forfeited(R, value(BLUE_6, R), "broken down") in game.events
    play_until(game, RED_6, B)
    assert Forfeited(R, value(RED_6, R), "broken down") in game.events
    move(game, B, way.level)
    assert t.spaces[way.level].front >= w.front
    assert game.phase is Phase.RETURN_CAR and game.to_move == 0  # Anna, Red's owner
    assert returns(game) == return_spaces(t, waiting, game.board.occupied)


@on_every_track
def test_a_breakdown_while_both_cars_stand_level_keeps_the_car_waiting_until_the_chaser_moves(name):
    """Red and Blue have the same front edge in a curve (Red inside, so ahead). The
    Breakdown must not hand Red a free lane change: it waits until Blue has moved."""
    t = track(name)
    pair = find_level_pair(t)
    red, blue = t.spaces[pair.front], t.spaces[pair.rear]
    assert red.front == blue.front and red.back != blue.back and inside(t, red) > inside(t, blue)
    game = ready(name, {R: pair.front, B: pair.rear}, hands=((BLUE_RED,), (BLUE_6,)))
    game.apply(PlayCard(BLUE_RED))
    game.apply(Breakdown())
    assert game.events[-1] == BrokeDown(R, B)
    assert game.phase is Phase.PLAY_CARD and game.to_move == 1 and R in game.board.waiting
    game.apply(PlayCard(BLUE_6))
    move(game, B, min(ends(game)))
    assert game.phase is Phase.RETURN_CAR and game.to_move == 0
    assert returns(game) == return_spaces(t, pair.front, game.board.occupied)


@on_every_track
@pytest.mark.parametrize("taken", [False, True], ids=["beside-free", "beside-taken"])
def test_a_returning_car_goes_beside_its_waiting_place_or_else_to_the_nearest_free_space_behind(name, taken):
    """The spaces beside Red's waiting place have different backs. With one of them free
    Red goes on a free one; with all taken, on the free space nearest behind them,
    which the staggered backs put in one lane only."""
    t = track(name)
    points = value(BLUE_6, B)
    place = find_return(t, points)
    assert is_staggered(t, t.spaces[place.waiting])
    game = ready(name, {R: place.waiting, B: place.start}, hands=((BLUE_RED,), (BLUE_6,)))
    game.apply(PlayCard(BLUE_RED))
    game.apply(Breakdown())
    if taken:
        game.board.set_up(dict(zip((P, Y), sorted(place.row - {place.onto}))))
    game.apply(PlayCard(BLUE_6))
    move(game, B, place.onto)
    assert game.phase is Phase.RETURN_CAR and game.to_move == 0
    expected = return_spaces(t, place.waiting, game.board.occupied)
    if taken:
        assert len(expected) == 1 and all(t.spaces[s].front < t.spaces[place.waiting].front for s in expected)
    else:
        assert expected == place.row - {place.onto}
    assert returns(game) == expected, f"offered {names(t, returns(game))}, expected {names(t, expected)}"
    to = min(expected)
    game.apply(ReturnCar(R, t.space_id(to)))
    assert at(game, R) == to and CarReturned(R, t.space_id(to)) in game.events


def test_on_speed_street_red_waiting_at_b10_goes_back_to_c10_when_a10_b10_c11_are_taken():
    """The case that showed the return one row too far back: a9, b9 and c9 lie behind c10."""
    t = track("speed-street")
    game = ready("speed-street", {R: t.index("b10"), B: t.index("b8")}, hands=((BLUE_RED,), (BLUE_3,)))
    game.apply(PlayCard(BLUE_RED))
    game.apply(Breakdown())
    game.board.set_up({P: t.index("a10"), G: t.index("c11")})
    game.apply(PlayCard(BLUE_3))
    assert "b10" in game.move_ends()
    game.apply(MoveCar(B, "b10"))
    assert game.return_spaces() == ["c10"]


# --- Finish and the race's end ---------------------------------------------------------------------------




def finish_example(t: Track) -> tuple[int, Car, Car, Pair]:
    """The rulebook's Yellow 6 / Red 4 card where its last curve lies within 6 steps of
    the line, else Yellow 10 / Purple 2, so that one of the two cars starts in a curve."""
    for number, first, second in ((YELLOW_6, Y, R), (YELLOW_10, Y, P)):
        try:
            return number, first, second, find_finish(t, value(number, first), value(number, second))
        except AssertionError:
            continue
    raise AssertionError(f"{t.name}: no staggered place near the finish")


@on_every_track
def test_cars_finish_in_the_order_they_are_moved_not_by_how_far_they_would_get(name):
    """The second car on the card stands nearer the line, but the first moves first."""
    t = track(name)
    number, first, second, pair = finish_example(t)
    assert placing(t, pair.front) > placing(t, pair.rear)
    assert is_staggered(t, t.spaces[pair.rear]) or is_staggered(t, t.spaces[pair.front])
    game = ready(name, {first: pair.rear, second: pair.front}, hands=((number,),))
    game.apply(PlayCard(number))
    game.apply(MoveCar(first, FINISH_ID))
    game.apply(MoveCar(second, FINISH_ID))
    resolve(game)
    finishes = [e for e in game.events if isinstance(e, CarFinished)]
    assert finishes == [CarFinished(first, 1, OWNERS[first], PRIZES[0]),
                        CarFinished(second, 2, OWNERS[second], PRIZES[1])]
    assert len(game.board.finished) == 2


@on_every_track
def test_cars_still_on_the_track_at_the_end_rank_by_front_edge_then_by_the_inside_lane(name):
    """Three cars side by side in a curve (their front edges equal or not), one just
    behind them, and two in a row of a straight, where the next curve tells which lane
    is inside. The race is ended the Tips way, everyone passing once, which places the
    cars exactly as the end of the cards does."""
    t = track(name)
    spots = find_level_row(t)
    cars = dict(zip(CARS, spots))
    game = ready(name, cars, variant="tips")
    keys = [placing(t, s) for s in spots]
    assert len(set(keys)) == len(keys), "no two cars are placed alike"
    curve, straight = [t.spaces[s] for s in spots[:3]], [t.spaces[s] for s in spots[4:]]
    level = Counter(s.front for s in curve)
    assert all(is_staggered(t, s) for s in curve) and max(level.values()) > 1, "level in a curve"
    assert straight[0].front == straight[1].front and not any(is_staggered(t, s) for s in straight)
    expected = tuple(sorted(cars, key=lambda c: placing(t, cars[c]), reverse=True))
    game.apply(Pass())
    game.apply(Pass())
    assert game.results and game.results[0].placements == expected


# --- Tips and the quick rules' bets -----------------------------------------------------------------------


def cross_tip_line(game: TopRace, line: float, number: int, on_line: bool) -> int:
    """Put Blue, the leader, short of the tip line and play ``number`` (Blue first) to
    bring it onto the line (``on_line``) or past it; return where Blue ended."""
    t = game.track
    blocked = game.board.occupied - {at(game, B)}
    start, end = find_tip_approach(t, line, value(number, B), blocked, on_line)
    game.board.set_up({B: start})
    assert all(t.spaces[s].front < t.spaces[start].front for c, s in game.board.at.items() if c != B)
    game.apply(PlayCard(number))
    assert game.moving.car == B and end in ends(game)
    move(game, B, end)
    return end


def tips_done(game: TopRace, tips: dict[int, Car]) -> None:
    while game.phase is TIP:
        game.apply(Tip(tips.get(game.to_move, Y)))


@on_every_track
@pytest.mark.parametrize("variant", ["tips", "quick"])
def test_a_tip_round_starts_right_after_the_move_that_takes_the_leader_across_a_tip_line(name, variant):
    """For each tip line: Blue first ends on the row whose front edge is the line (not
    across it: no round), then Ben's card takes it across and the round begins at once,
    before the card's other cars move."""
    t = track(name)
    game = ready(name, {}, hands=(BLUE_FIRST[:3], BLUE_FIRST[3:6]), variant=variant)
    for k, line in enumerate(t.tip_lines):
        rounds = game.events.count(TipRound(k + 1))
        end = cross_tip_line(game, line, BLUE_FIRST[k], on_line=True)
        assert t.spaces[end].front == line and not has_crossed(t, end, line)
        assert game.phase is not TIP and TipRound(k + 1) not in game.events, f"a round before line {line}"
        resolve(game)
        game.apply(PlayCard(BLUE_FIRST[3 + k]))
        move(game, B, min(ends(game)))
        assert has_crossed(t, at(game, B), line)
        assert game.phase is TIP and game.events[-1] == TipRound(k + 1) and rounds == 0
        tips_done(game, {})
        resolve(game)
    assert game.tips == [[Y, Y, Y], [Y, Y, Y]]


@on_every_track
def test_the_rulebook_tips_on_blue_red_blue_pay_50000_when_blue_places_2nd_and_red_5th(name):
    """Anna tips Blue, Red, Blue as Blue crosses the three tip lines; at the end Blue is
    2nd and Red 5th (both placed by the inside lane, one in a curve): 60,000 - 30,000
    + 20,000."""
    t = track(name)
    game = ready(name, {}, hands=(BLUE_FIRST[:3], (BLACK_6, BLACK_6_YELLOW, PURPLE_6)), variant="tips")
    for k, line in enumerate(t.tip_lines):
        cross_tip_line(game, line, BLUE_FIRST[k], on_line=False)
        assert game.phase is TIP and game.events[-1] == TipRound(k + 1)
        tips_done(game, {0: (B, R, B)[k]})
        resolve(game)
        if k < 2:
            game.apply(PlayCard((BLACK_6, BLACK_6_YELLOW)[k]))
            resolve(game)
    assert game.tips[0] == [B, R, B]
    spots = find_level_row(t)
    ranked = sorted(spots, key=lambda s: placing(t, s), reverse=True)
    others = [c for c in CARS if c not in (B, R)]
    game.board.set_up({B: ranked[1], R: ranked[4], **dict(zip(others, ranked[:1] + ranked[2:4] + ranked[5:]))})
    fronts = [t.spaces[s].front for s in ranked]
    assert fronts[1] in (fronts[0], fronts[2]) and fronts[4] in (fronts[3], fronts[5]), "both placed by their lanes"
    while not game.results:
        game.apply(Pass())
    placements = game.results[0].placements
    assert placements.index(B) == 1 and placements.index(R) == 4
    settled = next(e for e in game.events if isinstance(e, TipsSettled))
    assert settled.totals[0] == 60_000 - 30_000 + 20_000 == 50_000


@pytest.mark.parametrize("players,opener", [(3, 1), (4, 0), (4, 3), (5, 2), (6, 4)])
def test_by_the_quick_rules_the_race_starts_with_the_seat_the_start_player_has_moved_on_to(players, opener):
    """The start player moves one seat clockwise with every auction; after the sixth
    it is the seat that starts the race, not the first auction's winner."""
    name = TRACKS[(players + opener) % len(TRACKS)]
    game = new_game(Settings(NAMES[:players], first_opener=opener, variant="quick"), track(name), DECK)
    game.apply(deal_with(players))
    starter = (opener + 6) % players
    first = next(s % players for s in range(opener + 1, opener + players) if s % players != starter)
    winners = [first, *(s for s in range(players) if s != first)]
    for car, seat in zip(CARS, winners + [first] * (len(CARS) - players)):
        game.apply(Reveal(car))
        win_auction(game, seat)
        game.apply(TakeCar(car))
        game.apply(PlaceCar(game.free_starting_spaces()[0]))
    assert next(e for e in game.events if isinstance(e, AuctionWon)).seat == first != starter
    assert game.phase is Phase.PLAY_CARD and game.to_move == starter


@pytest.mark.parametrize("variant", ["tips", "pitstop+tips"])
def test_once_every_hand_is_empty_and_nobody_can_do_more_than_pass_the_race_ends_at_once(variant):
    """A study position late in a race on Turbo Town: each player holds one card (and,
    with pit stops, has used up every pit stop card). After the last card nobody is
    asked to pass."""
    pit_stops = "pitstop" in variant
    game = ready("turbo-town", {}, variant=variant, deal=pit_deal(2) if pit_stops else None)
    game.hands, game.hand_size = [[RED_6], [BLUE_6]], [1, 1]
    if pit_stops:
        game.pit_stops = [0, 0]
    race_began = len(game.log)
    game.apply(PlayCard(RED_6))
    resolve(game)
    assert not game.results and game.to_move == 1
    game.apply(PlayCard(BLUE_6))
    resolve(game)
    assert game.results and game.is_over
    assert Pass() not in game.log[race_began:]


@on_every_track
def test_with_pit_stops_a_sprint_breakdown_card_played_again_while_its_car_waits_is_void(name):
    """Red breaks down on a staggered curve space; Ben takes the card at a pit stop and
    plays it again while Red still waits: nothing happens."""
    t = track(name)
    waiting = next(s.index for s in open_stretch(t) if s.is_curve)
    assert is_staggered(t, t.spaces[waiting])
    game = ready(name, {R: waiting}, variant="pitstop", deal=pit_deal(2, [(BLUE_RED, BLACK_6)]))
    game.apply(PlayCard(BLUE_RED))
    game.apply(Breakdown())
    assert game.events[-1] == BrokeDown(R, B) and game.phase is PIT_STOP_CLAIM
    game.apply(ClaimPitStop())
    game.apply(CollectPitStop(BLUE_RED))
    game.apply(PlayCard(BLACK_6))
    resolve(game)
    game.apply(Pass())  # Ben does not claim Black 6
    game.apply(PlayCard(BLUE_RED))
    assert Forfeited(R, 0, "Sprint/Breakdown void: Red is broken down") in game.events
    assert R in game.board.waiting and game.board.waiting[R].space == waiting


# --- random play on every track ------------------------------------------------------------------------


class RuleWatch:
    """Follows a game action by action and checks the chosen rules after every one:
    ``"sprint"``, ``"return"`` and ``"tips"``. ``seen`` counts what was checked."""

    def __init__(self, game: TopRace, rule: str) -> None:
        self.game = game
        self.rule = rule
        self.events = 0
        self.top = float("-inf")  # the furthest front edge a car on the track has had
        self.sprint: tuple[Car, int, int, set[int]] | None = None
        self.seen: Counter[str] = Counter()

    def before(self, action: Action) -> None:
        game, t = self.game, self.game.track
        if self.rule == "sprint" and isinstance(action, Sprint):
            assert isinstance(game.card, SprintBreakdownCard)
            rear, ahead = sorted(game.card.pair, key=lambda c: placing(t, game.board.at[c]))
            start, other = game.board.at[rear], game.board.at[ahead]
            self.sprint = (rear, start, other, sprint_ends(t, start, other, game.board.occupied))

    def after(self, action: Action) -> None:
        new = self.game.events[self.events:]
        self.events = len(self.game.events)
        if any(isinstance(e, RaceEnded) for e in new):
            self.sprint = None
            return
        {"sprint": self._sprint, "return": self._return, "tips": self._tips}[self.rule](action)

    def _sprint(self, action: Action) -> None:
        if self.sprint is None:
            return
        game, t = self.game, self.game.track
        rear, start, other, expected = self.sprint
        target = t.spaces[other]
        already = is_level(t.spaces[start], target)
        level_free = already or any(is_level(t.spaces[s], target) for s in expected)
        if isinstance(action, Sprint):
            if game.phase is Phase.MOVE_CAR and game.moving.car == rear:
                assert all(t.spaces[e].front <= target.front for e in ends(game)), "a Sprint past the other car"
                assert already or ends(game) == expected, (
                    f"{t.space_id(start)} to {target.id}: offered {names(t, ends(game))}, "
                    f"{'level' if level_free else 'furthest behind'}: {names(t, expected)}")
                return
            assert already or not expected, f"a Sprint from {t.space_id(start)} forfeited with spaces free"
        else:
            assert isinstance(action, MoveCar) and action.car == rear
            end = t.spaces[t.index(action.to)]
            assert end.front <= target.front, f"{end.id} lies past {target.id}"
            assert is_level(end, target) if level_free else end.index in expected
            self.seen["sprint"] += 1
            self.seen["staggered"] += is_staggered(t, target)
            self.seen["blocked"] += not level_free
        self.sprint = None

    def _return(self, action: Action) -> None:
        game, t = self.game, self.game.track
        board = game.board
        if game.phase is Phase.RETURN_CAR:
            assert game.returning is not None
            car = game.returning[0]
            wait = board.waiting[car]
            place = t.spaces[wait.space]
            assert isinstance(action, MoveCar) and action.car == wait.chaser, "put back before its chaser moved"
            assert wait.chaser in board.finished or t.spaces[board.at[wait.chaser]].front >= place.front
            expected = return_spaces(t, wait.space, board.occupied)
            assert returns(game) == expected, (
                f"waiting at {place.id}: offered {names(t, returns(game))}, expected {names(t, expected)}")
            self.seen["return"] += 1
            self.seen["staggered"] += is_staggered(t, place)
            self.seen["behind"] += not expected & {s.index for s in row_beside(t, place.front).values()}
        elif isinstance(action, MoveCar):
            for car, wait in board.waiting.items():
                level = wait.chaser in board.finished or (
                    t.spaces[board.at[wait.chaser]].front >= t.spaces[wait.space].front)
                if wait.chaser == action.car and level and return_spaces(t, wait.space, board.occupied):
                    raise AssertionError(f"{car} not put back though {action.car} drove level with it")

    def _tips(self, action: Action) -> None:
        game, t = self.game, self.game.track
        board = game.board
        self.top = max([self.top, *(t.spaces[s].front for s in board.at.values())])
        crossed = sum(bool(board.finished) or self.top > line for line in t.tip_lines)
        rounds = sum(isinstance(e, TipRound) for e in game.events)
        assert rounds <= crossed, f"tip round {rounds} began before the leader crossed its line"
        if game.phase not in (TIP, Phase.RETURN_CAR):
            assert rounds == crossed, f"the leader crossed tip line {crossed} but no round began after the move"
        self.seen["tips"] += isinstance(action, (MoveCar, ReturnCar))
        self.seen["on a line"] += isinstance(action, MoveCar) and self.top in t.tip_lines
        self.seen["rounds"] = rounds


#: Seeded random games per track and check: a few seconds each.
GAMES = 100


def choose(game: TopRace, rng: random.Random, rule: str) -> Action:
    """A random legal action, but no pass while a card can be played (so the cars get
    across the tip lines); watching returns, Sprint/Breakdown cards are mostly played
    as Breakdowns and cars are mostly driven beside a waiting car's place, so that
    its spaces are often all taken when it comes back."""
    legal = [a for a in game.legal_actions() if not isinstance(a, Pass)] or game.legal_actions()
    if rule == "return" and rng.random() < 0.8:
        crowd = {s.id for wait in game.board.waiting.values()
                 for s in row_beside(game.track, game.track.spaces[wait.space].front).values()}
        wanted = [a for a in legal if isinstance(a, Breakdown) or (isinstance(a, MoveCar) and a.to in crowd)]
        legal = wanted or legal
    return rng.choice(legal)


def watched(name: str, variant: str, rule: str) -> Counter[str]:
    """Play ``GAMES`` one-race games of 2 to 6 players (see :func:`choose`), each seed
    its own game, watching ``rule``."""
    seen: Counter[str] = Counter()
    for seed in range(GAMES):
        players = 2 + seed % 5
        settings = Settings(NAMES[:players], first_opener=seed % players, variant=variant)
        game = new_game(settings, track(name), DECK)
        watch, rng = RuleWatch(game, rule), random.Random(seed)
        while not game.is_over:
            if game.decision.chance:
                action = game.chance(rng)
            else:
                action = choose(game, rng, rule)
            watch.before(action)
            game.apply(action)
            watch.after(action)
        seen += watch.seen
    return seen


@on_every_track
def test_in_random_play_a_sprint_ends_level_with_the_other_car_never_past_it(name):
    seen = watched(name, "base", "sprint")
    assert seen["sprint"] >= GAMES // 2 and seen["staggered"] > 0, seen


@on_every_track
def test_in_random_play_a_car_comes_back_beside_its_waiting_place_or_on_the_nearest_free_space_behind(name):
    seen = watched(name, "base", "return")
    assert seen["return"] >= GAMES // 4 and seen["staggered"] > 0, seen


@on_every_track
@pytest.mark.parametrize("variant", ["tips", "quick"])
def test_in_random_play_a_tip_round_starts_right_after_the_leader_crosses_its_line(name, variant):
    seen = watched(name, variant, "tips")
    assert seen["tips"] > GAMES and seen["rounds"] > 0 and seen["on a line"] > 0, seen
