"""Every game of the registry, and the toy game of docs/adding-a-game.md, played at random through the
game interface alone (open_spiel's random-simulation test): whose decision, listed chance outcomes, legal
actions, refusals that change nothing, notation, per-seat views and clones. And every shipped game brings
the whole of its entry, each part of the type the table uses."""

from __future__ import annotations

import argparse
import itertools
import json
import random
from importlib.metadata import entry_points

import pytest
from support.games import new_game
from toygame.plugin import ENTRY as TOY

from toprace_pi.core import registry
from toprace_pi.core.clone import clone
from toprace_pi.core.game import GameInfo, nth_permutation
from toprace_pi.errors import IllegalActionError, TopRaceError
from toprace_pi.table.side import GameTable

SHIPPED = registry.game_names()
GAMES = [*SHIPPED, TOY.info.name]
#: A random game is long: look closely at every step of the first ones, then now and then.
CLOSE_LOOK, EVERY = 40, 25


@pytest.fixture(autouse=True)
def toy():
    """The toy game registered as a game of its own package would be, for the test only."""
    registry.register(TOY)
    yield
    registry.unregister(TOY.info.name)


def variants(name: str) -> list[tuple[str, str]]:
    entry = TOY if name == TOY.info.name else registry.get(name)
    return [(name, variant) for variant in entry.variants()]


def state(game) -> str:
    return json.dumps(game.to_dict(), sort_keys=True)


def look_closely(game, rng: random.Random, seen: list) -> None:
    """What must hold at any moment: a clone is the same game, views are plain values,
    each seat's view differs from a spectator's by its own secrets only, and an action
    of another moment is refused without a change. ``seen`` holds the actions so far,
    each with whether a seat took it."""
    before = state(game)
    assert state(game.clone()) == before
    declared_copies_hold_immutable_values(game)
    public = game.view(None)
    json.dumps(public)
    for seat in range(len(game.names)):
        view = game.view(seat)
        assert {k for k in view if not k.startswith("my_")} == set(public)
    if game.decision.chance:  # a seat's action is never chance's (chance's own outcomes may repeat)
        stale = [a for a, by_seat in seen[-50:] if by_seat]
    else:
        legal = game.legal_actions()
        stale = [a for a, _ in seen[-50:] if a not in legal]
    if stale:
        with pytest.raises(IllegalActionError):
            game.apply(rng.choice(stale))
        assert state(game) == before


def declared_copies_hold_immutable_values(value) -> None:
    """What ``value``'s class names in ``CLONE_SHALLOW`` holds immutable values only (those a clone
    shares: ``clone(x) is x``), and what it names in ``CLONE_NESTED`` lists of such containers: a
    clone copies them without a look at their elements. The same for the objects it holds."""
    shallow, nested = (frozenset(getattr(type(value), key, ())) for key in ("CLONE_SHALLOW", "CLONE_NESTED"))
    for name, field in vars(value).items():
        if clone(field) is field:
            continue
        inners = [field] if name in shallow else field if name in nested else []
        for inner in inners:
            items = inner.values() if isinstance(inner, dict) else inner
            assert all(clone(item) is item for item in items), f"{type(value).__name__}.{name}: {inner!r}"
        if hasattr(field, "__dict__") and not inners:
            declared_copies_hold_immutable_values(field)


@pytest.mark.parametrize(("name", "variant"), [v for g in GAMES for v in variants(g)])
@pytest.mark.parametrize("seed", range(2))
def test_random_play_keeps_every_promise_of_the_interface(name, variant, seed):
    game = new_game(name, variant)
    assert type(game).info is registry.get(name).info
    rng, seen, steps = random.Random(seed), [], 0
    while not game.is_over:
        decision = game.decision
        assert not decision.is_terminal
        if decision.chance:
            outcomes = game.chance_outcomes()
            assert outcomes.total >= 1 and outcomes.probability == 1 / outcomes.total
            action = outcomes.sample(rng)
        else:
            legal = game.legal_actions()
            assert legal and all(seat in range(len(game.names)) for seat in decision.seats)
            action = rng.choice(legal)
            assert game.parse(str(action)) == action  # the journal's notation reads back
        if steps < CLOSE_LOOK or steps % EVERY == 0:
            look_closely(game, rng, seen)
        game.apply(action)
        seen.append((action, not decision.chance))
        steps += 1
        assert steps < 100_000, "the game does not end"
    assert game.decision.is_terminal and game.legal_actions() == [] and game.winners()
    rebuilt = game.replayed(game.log)
    assert state(rebuilt) == state(game)


@pytest.mark.parametrize("name", GAMES)
def test_a_chance_decisions_outcomes_are_each_a_possible_distinct_outcome(name):
    game, rng = new_game(name, "base"), random.Random(3)
    while not game.decision.chance:  # the first chance decision of a random game
        game.apply(rng.choice(game.legal_actions()))
    outcomes = game.chance_outcomes()
    picks = {rng.randrange(outcomes.total) for _ in range(30)} | {0, outcomes.total - 1}
    made = [outcomes[i] for i in sorted(picks)]
    assert len({str(outcome) for outcome in made}) == len(made)  # distinct indexes, distinct outcomes
    for outcome in made:
        trial = game.clone()
        trial.apply(outcome)  # each one a legal outcome


def test_top_races_deals_are_counted_as_the_splits_of_the_deck():
    game = new_game("toprace", "base")  # four players, 12 cards each from 48
    from math import factorial

    assert game.chance_outcomes().total == factorial(48) // factorial(12) ** 4


def test_a_permutation_is_listed_once_in_order():
    items = list("abcd")
    assert [nth_permutation(items, i) for i in range(24)] == [list(p) for p in itertools.permutations(items)]


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_game_brings_its_whole_entry(name):
    entry = registry.get(name)
    assert isinstance(entry, registry.GameEntry) and isinstance(entry.info, GameInfo) and entry.info.name == name
    assert list(entry.variants())[0] in ("base", "normal") and all(isinstance(v, str) for v in entry.variants())
    problems: list[str] = []
    setup = entry.records.parse_section({}, problems)
    settings, game = setup.new_game()
    assert problems == [] and type(game).info is entry.info
    fields = json.loads(json.dumps(entry.records.settings_to_dict(settings)))  # as a journal holds them
    again = entry.records.settings_from_dict(fields, "test")
    assert again == settings and type(entry.records.game_for(again, "test")) is type(game)
    assert entry.records.READERS and all(isinstance(text, str) for text in entry.records.READERS.values())
    side = entry.table(setup)
    assert [m for m in dir(GameTable) if not m.startswith("_") and not callable(getattr(side, m, None))] == []
    part = entry.command_line()
    for member in ("add_options", "simulate", "demo", "play_back", "calibration_target", "text_report",
                   "json_report"):
        assert callable(getattr(part, member)), member
    parser = argparse.ArgumentParser()
    part.add_options(parser, "simulate")
    assert parser.parse_args([]) is not None
    assert entry.search_bot is None or hasattr(entry.search_bot(0, "easy"), "choose")
    assert entry.no_bot_seats(setup) is None or isinstance(entry.no_bot_seats(setup), str)


def test_every_games_own_command_is_a_command():
    for point in entry_points(group=registry.COMMANDS_GROUP):
        assert isinstance(point.load(), registry.Command), point


def test_an_unknown_game_is_refused_naming_the_games():
    with pytest.raises(TopRaceError, match="no game called 'chess' \\(the games: toprace, autorace"):
        registry.get("chess")
