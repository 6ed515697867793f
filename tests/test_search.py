"""The search bots of all three games: the worlds they search are drawn from what their seat
sees alone, and so are their choices; they never change the game; they keep to their budget."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from test_bots_see_their_seat import scrambled as scrambled_toprace

from toprace_pi.core.search import CANDIDATES, STRENGTHS, Strength, candidates, playout
from toprace_pi.errors import IllegalActionError

#: A budget small enough for tests, with a time cap no test machine reaches.
TEST_STRENGTH = Strength("test", 12, 3600.0)


# --- the games, played by their simple bots, stopped at the search seat's decisions ---------------


def toprace_game(variant: str) -> Any:
    from toprace_pi.games.toprace.data import load_deck, load_track
    from toprace_pi.games.toprace.rules import Settings
    from toprace_pi.games.toprace.rules.variants import new_game

    return new_game(Settings(("Anna", "Ben", "Carla", "David"), variant=variant), load_track("speed-street"),
                    load_deck("standard"))


def autorace_game() -> Any:
    from toprace_pi.games.autorace.data import DEFAULT_BOARD, load_board
    from toprace_pi.games.autorace.rules import Autorace, Settings

    board = load_board(DEFAULT_BOARD)
    return Autorace(Settings(("Anna", "Ben", "Carla", "David")), board)


def topspeed_game(variant: str = "normal") -> Any:
    from toprace_pi.games.topspeed.settings import TableGame

    return TableGame(players=("Anna", "Ben", "Carla", "David"), variant=variant).new_game()[1]


def decisions(game: Any, seed: int) -> Iterator[tuple[Any, int]]:
    """``game`` played to its end at random, stopping (game, seat) at each seat's decision."""
    rng = random.Random(seed)
    while not game.is_over:
        decision = game.decision
        if decision.chance:
            game.apply(game.chance_outcomes().sample(rng))
            continue
        seat = rng.choice(decision.seats)
        yield game, seat
        mine = [a for a in game.legal_actions() if getattr(a, "seat", seat) == seat]
        game.apply(rng.choice(mine))


# --- another game the seat cannot tell apart ---------------------------------------------------------


def scrambled_autorace(game: Any, seat: int, rng: random.Random) -> Any:
    """``game`` with every other seat's face-down card another it might have laid."""
    other = game.clone()
    for s, card in enumerate(other.sealed):
        if s != seat and card is not None and other.playable(s):
            other.sealed[s] = rng.choice(other.options(s))
    return other


def scrambled_topspeed(game: Any, seat: int, rng: random.Random) -> Any:
    """``game`` with every deck in another order and each other seat's green card kept apart
    or just drawn swapped for another green card of its deck."""
    other = game.clone()
    for s in range(len(other.names)):
        deck = list(other.decks[s])
        rng.shuffle(deck)
        if s != seat:
            for held in (other.kept, other.drawn):
                greens = [i for i, card in enumerate(deck) if card.is_green]
                if held[s] is not None and greens:
                    i = rng.choice(greens)
                    held[s], deck[i] = deck[i], held[s]
        other.decks[s] = tuple(deck)
    return other


def differences(a: Any, b: Any, where: str = "game") -> list[str]:
    """Where two games differ, anything they hold compared (the secrets too; not the log or
    the events, which a world leaves out): empty when they are the same."""
    if a is b:
        return []
    if type(a) is not type(b):
        return [f"{where}: {type(a).__name__} / {type(b).__name__}"]
    if isinstance(a, list | tuple):
        if len(a) != len(b):
            return [f"{where}: {len(a)} / {len(b)} items"]
        return [d for i, (x, y) in enumerate(zip(a, b, strict=True)) for d in differences(x, y, f"{where}[{i}]")]
    if isinstance(a, dict):
        if a.keys() != b.keys():
            return [f"{where}: keys differ"]
        return [d for k in a for d in differences(a[k], b[k], f"{where}[{k!r}]")]
    if hasattr(a, "__dict__") and not isinstance(a, type):
        keys = (vars(a).keys() | vars(b).keys()) - {"log", "events"}
        return [d for k in sorted(keys) for d in differences(getattr(a, k, None), getattr(b, k, None), f"{where}.{k}")]
    return [] if a == b else [f"{where}: {a!r} / {b!r}"]


GAMES: dict[str, tuple[Callable[[], Any], Callable[[Any, int, random.Random], Any]]] = {
    **{f"toprace-{v}": (lambda v=v: toprace_game(v), scrambled_toprace)
       for v in ("base", "stocks", "tips", "pitstop", "pitstop+tips", "pitstop+stocks", "quick")},
    "autorace": (autorace_game, scrambled_autorace),
    "topspeed": (lambda: topspeed_game("normal+kers"), scrambled_topspeed),
}


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


class StepClock:
    """A fake clock that moves on by ``step`` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_a_search_keeps_to_its_time_however_slow_the_machine():
    """On a machine where each world's playouts seem to take 0.3 s (a slow Pi), a 1 s budget
    stops the search after the world in which the time ran out (the options are compared on
    whole worlds), and the bot still answers with a legal action."""
    from toprace_pi.core.search import SearchBot
    from toprace_pi.games.toprace.bots.search import GreedyPolicy

    clock = StepClock(0.3)
    bot = SearchBot(1, GreedyPolicy(), Strength("slow", 1000, 1.0), clock=clock)
    for game, seat in decisions(toprace_game("base"), 3):
        if len(game.legal_actions()) > 3:
            action = bot.choose(game.seen_by(seat))
            assert game.is_legal(action)
            assert 0 < bot.last_playouts <= 4 * CANDIDATES
            assert clock.now < 4.0
            break
    else:  # pragma: no cover
        pytest.fail("no decision with choices")


def test_candidates_keep_the_preferred_action_and_the_range():
    actions = list(range(40))
    chosen = candidates(actions, 17, limit=8)
    assert len(chosen) == 8 and 17 in chosen and 0 in chosen and 39 in chosen
    assert candidates(actions[:5], 3) == actions[:5]


def test_the_strengths_grow_and_a_player_can_name_them():
    assert list(STRENGTHS) == ["easy", "normal", "strong"]
    budgets = [(s.playouts, s.seconds) for s in STRENGTHS.values()]
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
