"""Every game of the registry, played at random through the game interface alone
(open_spiel's random-simulation test): whose decision, listed chance outcomes, legal
actions, refusals that change nothing, notation, per-seat views and clones."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from toprace_pi.core import registry
from toprace_pi.core.clone import clone
from toprace_pi.core.game import nth_permutation
from toprace_pi.errors import IllegalActionError

GAMES = registry.game_names()
#: A random game is long: look closely at every step of the first ones, then now and then.
CLOSE_LOOK, EVERY = 40, 25


def new_game(name: str, variant: str):
    """The game a table with an empty ``[game]`` section (but ``variant``) would start."""
    problems: list[str] = []
    setup = registry.get(name).records.parse_section({"variant": variant}, problems)
    assert problems == []
    return setup.new_game()[1]


def variants(name: str) -> list[tuple[str, str]]:
    return [(name, variant) for variant in registry.get(name).variants()]


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
