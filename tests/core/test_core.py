"""The game interface every game of the table implements, on Top Race and its variants:
decisions, listable chance outcomes, per-seat views, the registry and cheap clones."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from scenarios import CARS

from toprace_pi.core import registry
from toprace_pi.core.game import CHANCE, NOBODY, ChanceOutcomes, Decision, nth_combination
from toprace_pi.errors import TopRaceError
from toprace_pi.games.toprace.bots import make_bot
from toprace_pi.games.toprace.data import load_deck, load_track
from toprace_pi.games.toprace.rules import Settings, TopRace
from toprace_pi.games.toprace.rules.variants import new_game, variant_names
from toprace_pi.hardware.events import ButtonPressed
from toprace_pi.hardware.sound import SilentSound
from toprace_pi.table.controller import UNDO_DEPTH, TableController

VARIANTS = variant_names()


def fresh(variant: str = "base", players: int = 3, races: int = 2) -> TopRace:
    names = ("Anna", "Ben", "Carla", "David", "Eva", "Finn")[:players]
    return new_game(Settings(names, races=races, variant=variant), load_track("lake-lane"), load_deck("standard"))


def play(game: TopRace, seed: int, steps: int | None = None) -> TopRace:
    """Bots (random) and chance play ``steps`` actions, or to the end."""
    rng, bot = random.Random(seed), make_bot("random", seed)
    taken = 0
    while not game.is_over and (steps is None or taken < steps):
        game.apply(game.chance(rng) if game.decision.chance else bot.choose(game))
        taken += 1
    return game


def test_the_decision_is_chance_at_the_deal_a_seat_in_play_and_nobody_at_the_end():
    game = fresh()
    assert game.decision == CHANCE and game.decision.chance and not game.decision.is_terminal
    play(game, 1, steps=1)
    assert game.decision == Decision.of(game.seat) and not game.decision.is_simultaneous
    play(game, 1)
    assert game.decision == NOBODY and game.decision.is_terminal


def test_top_race_says_what_it_is():
    info = TopRace.info
    assert (info.name, info.title, info.min_players, info.max_players) == ("toprace", "Top Race", 2, 6)
    assert info.chance and info.secret_information and not info.simultaneous


def test_the_registry_finds_top_race_and_its_variants_and_names_the_games_for_an_unknown_one():
    entry = registry.get("toprace")
    assert entry.info is TopRace.info and entry.variants() == VARIANTS
    settings = Settings(("Anna", "Ben"), variant="stocks")
    game = entry.new_game(settings, load_track("speed-street"), load_deck("standard"))
    assert type(game).__name__ == "StocksGame" and registry.get() is entry
    with pytest.raises(TopRaceError, match="no game called 'chess' \\(the games: toprace"):
        registry.get("chess")
    assert registry.game_names() == ["toprace", "autorace", "topspeed"]
    assert [registry.get(name).info.name for name in registry.game_names()] == registry.game_names()


def test_nth_combination_lists_every_subset_once_in_order():
    items = list("abcdef")
    for size in range(len(items) + 1):
        expected = [list(c) for c in itertools.combinations(items, size)]
        assert [nth_combination(items, size, i) for i in range(len(expected))] == expected


def test_chance_outcomes_count_index_walk_and_sample_without_storing_them():
    squares = ChanceOutcomes(10**30, lambda i: i * i)
    assert squares.total == 10**30 and squares[3] == 9 and squares[-1] == (10**30 - 1) ** 2
    assert squares.probability == 1e-30
    with pytest.raises(OverflowError):
        len(squares)
    with pytest.raises(IndexError):
        squares[10**30]
    assert list(itertools.islice(squares, 4)) == [0, 1, 4, 9]
    assert squares.sample(random.Random(1)) == squares.sample(random.Random(1))
    few = ChanceOutcomes.of(["x", "y"])
    assert list(few) == ["x", "y"] and len(few) == 2 and few.probability == 0.5


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_clone_goes_on_as_the_game_would_and_neither_changes_the_other(variant):
    game = play(fresh(variant), seed=3, steps=120)
    before = json.dumps(game.to_dict(), sort_keys=True)
    copy = game.clone()
    assert copy is not game and copy.board is not game.board and copy.log == game.log
    play(copy, seed=4)  # the copy plays on to the end...
    assert json.dumps(game.to_dict(), sort_keys=True) == before  # ...and the game is as it was
    rebuilt = type(game).replay(game.settings, game.track, game.deck, copy.log)
    assert rebuilt.to_dict() == copy.to_dict()  # the copy played exactly as a game rebuilt from its log
    play(game, seed=5)
    assert copy.to_dict() == rebuilt.to_dict()  # and the game playing on left the copy alone
    assert copy.track is game.track and copy.deck is game.deck  # what never changes is shared


@pytest.mark.parametrize("variant", ["base", "tips", "stocks", "pitstop+stocks", "pitstop+tips"])
def test_a_seat_sees_its_own_secrets_and_nobody_elses(variant):
    game = play(fresh(variant, players=3), seed=2, steps=150)
    spectator = game.view(None)
    json.dumps(spectator)  # plain values, ready for a page
    assert not any(key.startswith("my_") for key in spectator) and "stocks" not in spectator
    for seat in range(3):
        view = game.view(seat)
        assert view["seat"] == seat and "stocks" not in view
        assert view["my_hand"] == (None if game.hands is None else game.hands[seat])
        if "tips" in variant:
            assert view["my_tips"] == [car.id for car in game.tips[seat]]  # type: ignore[attr-defined]
        if "stocks" in variant:
            assert view["my_stocks"] == {c.id: game.stocks[seat][c] for c in CARS}  # type: ignore[attr-defined]
        own = {key for key in view if key.startswith("my_")}
        assert set(view) - own == set(spectator)  # the public state, and nothing but the seat's own besides
        assert {k: v for k, v in view.items() if k not in own and k != "seat"} == \
               {k: v for k, v in spectator.items() if k != "seat"}


def test_undo_goes_back_through_kept_clones_and_then_through_the_log():
    game = play(fresh("pitstop", races=1), seed=6, steps=UNDO_DEPTH + 40)
    controller = TableController(fresh("pitstop", races=1), identify=lambda _: None, say=lambda _: None,
                                 sound=SilentSound(), dealer=lambda g: game.log[0])  # type: ignore[arg-type,return-value]
    for action in game.log[1:]:
        controller._apply(action)
        controller.remember()  # as the table does once its LEDs show the step
    assert controller.game.to_dict() == game.to_dict()
    for back in range(1, UNDO_DEPTH + 10):  # past the clones kept, the log rebuilds it
        controller.handle(ButtonPressed("undo", held=True))
        expected = type(game).replay(game.settings, game.track, game.deck, game.log[:-back])
        assert controller.game.to_dict() == expected.to_dict(), back
