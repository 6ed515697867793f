"""The search bots of all three games: the worlds they search are drawn from what their seat
sees alone, and so are their choices; they never change the game; they keep to their budget."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from twins import GAMES, decisions, differences, toprace_game

from toprace_pi.core.search import STRENGTHS, Strength, candidates, playout
from toprace_pi.errors import IllegalActionError

#: A budget small enough for tests.
TEST_STRENGTH = Strength("test", 12)


@pytest.mark.parametrize("name", GAMES)
def test_a_world_is_drawn_from_the_seats_view_alone(name):
    """Two games the seat cannot tell apart (the same view) give the same worlds, and a world
    keeps the seat's own view while its hidden parts do change from world to world."""
    new, scramble = GAMES[name]
    rng, checked, varied = random.Random(3), 0, 0
    for i, (game, seat) in enumerate(decisions(new(), 5)):
        if i % 5:
            continue
        other = scramble(game, seat, rng)
        assert other.view(seat) == game.view(seat)
        world, twin = game.determinized(seat, random.Random(checked)), other.determinized(seat, random.Random(checked))
        assert not differences(world, twin), f"{name}: a world told from a hidden part"
        if "autorace" not in name:  # AUTORACE's worlds take the others' face-down cards back
            assert world.view(seat) == game.view(seat)
        varied += bool(differences(world, game.determinized(seat, random.Random(checked + 1000))))
        checked += 1
    assert checked > 10
    assert varied or name == "autorace", f"{name}: the worlds never differ"


def test_an_autorace_world_made_at_the_reveal_waits_for_the_cards_it_took_back():
    """Every card laid, the reveal due: a seat's world takes the others' cards back, so the round
    waits for them again (a world that still waited for the reveal would play it without their cards)."""
    from toprace_pi.games.autorace.rules import Choose

    game = GAMES["autorace"][0]()
    for seat in range(len(game.names)):
        game.apply(Choose(seat, 3))
    assert game.decision.chance
    world = game.determinized(1, random.Random(0))
    assert world.decision.seats == (0, 2, 3) and world.sealed == [None, 3, None, None]
    world.apply(Choose(0, 5))
    assert not world.decision.chance


@pytest.mark.parametrize("name", GAMES)
def test_every_world_plays_to_its_end(name):
    """A world is a whole game: played on at random from any decision, it ends."""
    new, _ = GAMES[name]
    rng = random.Random(8)
    played = 0
    for i, (game, seat) in enumerate(decisions(new(), 9)):
        if i % 9 == 0:
            world = game.determinized(seat, rng)
            ended = playout(world, lambda w, s, r: r.choice([a for a in w.legal_actions()
                                                              if getattr(a, "seat", s) == s]), rng)
            assert ended.is_over
            played += 1
    assert played > 5


def search_bot(name: str, seed: int, strength: Strength = TEST_STRENGTH) -> Any:
    game = name.split("-")[0]
    module = __import__(f"toprace_pi.games.{game}.bots.search", fromlist=["search_bot"])
    return module.search_bot(seed, strength)


@pytest.mark.parametrize("name", ["toprace-base", "toprace-stocks", "toprace-pitstop+tips", "autorace", "topspeed"])
def test_a_search_bots_choice_never_depends_on_what_its_seat_cannot_see(name):
    new, scramble = GAMES[name]
    rng, checked = random.Random(4), 0
    for i, (game, seat) in enumerate(decisions(new(), 6)):
        if i % 11 or len(game.legal_actions()) < 2:
            continue
        before = game.clone()
        mine = search_bot(name, 1).choose(game.seen_by(seat))
        theirs = search_bot(name, 1).choose(scramble(game, seat, rng).seen_by(seat))
        assert mine == theirs, f"{name}: the search bot at seat {seat} changed its mind over hidden parts"
        assert not differences(game, before), "the search changed the game"
        checked += 1
        if checked == 6:
            break
    assert checked == 6


@pytest.mark.parametrize("name", ["toprace-base", "autorace", "topspeed"])
def test_a_search_bot_plays_whole_games_against_the_simple_bots(name):
    from toprace_pi.core.bots import shown_to
    from toprace_pi.games.autorace.rules import Choose

    game_name = name.split("-")[0]
    bots_module = __import__(f"toprace_pi.games.{game_name}.bots", fromlist=["make_bot"])
    simple = "greedy" if game_name == "toprace" else "sensible"
    bots = [search_bot(name, 2, STRENGTHS["easy"]) if s == 0 else bots_module.make_bot(simple, s) for s in range(4)]
    game, rng = GAMES[name][0](), random.Random(2)
    while not game.is_over:
        decision = game.decision
        if decision.chance:
            game.apply(game.chance_outcomes().sample(rng))
            continue
        seat = decision.seats[0]
        seen = game.seen_by(seat) if game_name == "toprace" else shown_to(bots[seat], game, seat)
        choice = bots[seat].choose(seen)
        action = Choose(seat, choice) if game_name == "autorace" else choice
        try:
            game.apply(action)
        except IllegalActionError as error:  # pragma: no cover - a failure names the action
            pytest.fail(f"the bot at seat {seat} chose {action}: {error}")
    assert game.winners()


@contextmanager
def busy(threads: int) -> Iterator[None]:
    """The interpreter kept busy meanwhile by ``threads`` threads that only count: the code run in it
    gets a share of the time (a slower, loaded machine)."""
    stop = threading.Event()

    def count() -> None:
        while not stop.is_set():
            sum(range(1000))

    workers = [threading.Thread(target=count, daemon=True) for _ in range(threads)]
    for worker in workers:
        worker.start()
    try:
        yield
    finally:
        stop.set()
        for worker in workers:
            worker.join()


def test_a_seeded_game_of_search_bots_is_the_same_game_however_busy_the_machine():
    """The same seed plays the same game, step for step, on a quiet machine and on a busy one: a
    search counts its playouts and never reads the clock (a search cut short by a time cap chose by
    the machine's speed, and this series went another way while the machine was busy)."""
    from toprace_pi.games.autorace.simulate import simulate

    def journal() -> list[str]:
        return [str(action) for action in simulate(players=2, seed=1, bots="search,sensible", strength="easy").log]

    quiet = journal()
    with busy(threads=3):
        loaded = journal()
    assert loaded == quiet


def test_a_search_plays_its_whole_budget_and_the_same_choice_again():
    """However long its playouts take, a search makes all of them (its strength's at least: every
    option still in the running is played in a few worlds a round), and the same seed makes the
    same playouts and the same choice again."""
    from toprace_pi.core.search import SearchBot
    from toprace_pi.games.toprace.bots.search import GreedyPolicy

    for game, seat in decisions(toprace_game("base"), 3):
        if len(game.legal_actions()) > 3:
            bots = [SearchBot(1, GreedyPolicy(), TEST_STRENGTH) for _ in range(2)]
            choices = [bot.choose(game.seen_by(seat)) for bot in bots]
            assert choices[0] == choices[1] and bots[0].last_playouts == bots[1].last_playouts
            assert bots[0].last_playouts >= TEST_STRENGTH.playouts
            break
    else:  # pragma: no cover
        pytest.fail("no decision with choices")


def test_a_search_weighs_no_more_actions_than_its_budget_plays():
    """An easy search of AUTORACE's first card (eleven cards to lay) weighs a few of them, each in
    a few worlds: twice its budget at most, not four worlds for each card."""
    from toprace_pi.games.autorace.bots.search import action_search_bot

    game = GAMES["autorace"][0]()
    bot = action_search_bot(1, "easy")
    assert len([a for a in game.legal_actions() if a.seat == 0]) == 11
    bot.choose(game.seen_by(0))
    assert STRENGTHS["easy"].playouts <= bot.last_playouts <= 2 * STRENGTHS["easy"].playouts


def test_candidates_keep_the_preferred_action_and_the_range():
    actions = list(range(40))
    chosen = candidates(actions, 17, limit=8)
    assert len(chosen) == 8 and 17 in chosen and 0 in chosen and 39 in chosen
    assert candidates(actions[:5], 3) == actions[:5]


def test_the_strengths_grow_and_a_player_can_name_them():
    assert list(STRENGTHS) == ["easy", "normal", "strong"]
    budgets = [s.playouts for s in STRENGTHS.values()]
    assert budgets == sorted(budgets) and len(set(budgets)) == 3


def test_a_plan_is_played_out_with_its_own_policy_and_chosen_as_its_action():
    """A game's planner weighs an option twice, once with the search's policy after it and once with a
    policy of its own: the playouts of that plan are played by its policy, and the search answers with
    an action, never a plan."""
    from toprace_pi.core.search import Plan, SearchBot
    from toprace_pi.games.toprace.bots.search import GreedyPolicy

    greedy, played = GreedyPolicy(), []

    def own(world: Any, seat: int, rng: random.Random) -> Any:
        played.append(seat)
        return greedy(world, seat, rng)

    def plans(seen: Any, seat: int, actions: Any, preferred: Any) -> list[Plan]:
        return [Plan(preferred), *(Plan(action, own) for action in actions[:2])]

    bot = SearchBot(1, greedy, TEST_STRENGTH, plans=plans)
    for game, seat in decisions(toprace_game("base"), 3):
        if len(game.legal_actions()) > 3:
            action = bot.choose(game.seen_by(seat))
            assert game.is_legal(action) and not isinstance(action, Plan)
            assert played and bot.last_playouts > 0
            break
    else:  # pragma: no cover
        pytest.fail("no decision with choices")
