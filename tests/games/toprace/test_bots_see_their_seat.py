"""A bot decides on what its seat may see: changing every other seat's secrets (their
hands, stocks and tips) never changes its choice, and nothing it is handed (every public
attribute and method of its seat's view, called with every seat and a generator) tells
two games apart that differ only in what the seat may not see."""

from __future__ import annotations

import inspect
import itertools
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from twins import GAMES, PLAYERS, decisions, differences, scrambled_toprace

from toprace_pi.games.toprace.bots import make_bot
from toprace_pi.games.toprace.data import load_deck, load_track
from toprace_pi.games.toprace.rules import Settings
from toprace_pi.games.toprace.rules.variants import new_game


@pytest.mark.parametrize("variant", ["base", "stocks", "pitstop+tips", "pitstop+stocks"])
@pytest.mark.parametrize("kind", ["greedy", "random"])
def test_other_seats_secrets_never_change_a_bots_choice(variant, kind):
    game = new_game(Settings(PLAYERS, variant=variant), load_track("speed-street"), load_deck("standard"))
    rng, player = random.Random(7), make_bot(kind, 7)
    checked = 0
    while not game.is_over:
        if game.decision.chance:
            game.apply(game.chance(rng))
            continue
        seat = game.seat
        if len(game.log) % 7 == 0:
            mine, theirs = make_bot(kind, 1).choose(game), make_bot(kind, 1).choose(scrambled_toprace(game, seat, rng))
            assert mine == theirs, f"{kind} at seat {seat} changed its mind over others' secrets"
            checked += 1
        game.apply(player.choose(game))
    assert checked > 20


def test_a_seats_view_hides_the_other_seats_secrets_and_changes_nothing():
    game = new_game(Settings(PLAYERS, variant="stocks"), load_track("speed-street"), load_deck("standard"))
    game.apply(game.chance(random.Random(1)))
    seen = game.seen_by(1)
    assert isinstance(seen, type(game)) and seen.names == game.names and seen.view(1) == game.view(1)
    assert seen.hands[1] == game.hands[1] and seen.hands[0] is None and seen.hands[2] is None
    assert seen.stocks[1] == game.stocks[1] and seen.stocks[3] is None
    assert all(hand is None for hand in game.seen_by(None).hands)
    with pytest.raises(AttributeError, match="cannot change it"):
        seen.money = [0, 0, 0, 0]
    assert seen.legal_actions() == game.legal_actions()
    for name in ("apply", "apply_notation", "_apply", "__dict__", "log", "clone"):  # nothing that holds the deal
        with pytest.raises(AttributeError, match="does not show"):
            getattr(seen, name)


def test_the_bots_of_a_simulation_decide_on_their_seats_view(monkeypatch):
    from toprace_pi.games.toprace import simulate as simulation
    from toprace_pi.games.toprace.bots.greedy import GreedyBot

    given = []
    choose = GreedyBot.choose

    def watched(self, game):
        given.append(game.hands)
        return choose(self, game)

    monkeypatch.setattr(GreedyBot, "choose", watched)
    simulation.simulate(load_track("speed-street"), load_deck("standard"), players=3, seed=2)
    assert given and all(sum(hand is not None for hand in hands) == 1 for hands in given if hands)


# --- everything a bot is handed, asked every way ------------------------------------------------------


@dataclass(frozen=True)
class Raised:
    """What a call raised instead of answering."""

    kind: type
    message: str


def outcome(call: Callable[[], Any]) -> Any:
    """What ``call()`` answers, or what it raises (a :class:`Raised`)."""
    try:
        return call()
    except Exception as error:  # noqa: BLE001 (any error is an answer to compare)
        return Raised(type(error), str(error))


def arguments(name: str, parameter: inspect.Parameter, seen: Any) -> list[Callable[[], Any]]:
    """Every value to pass a public method of a seat's view as ``parameter``, each made anew for
    each call (a generator is used up): every seat and a spectator, a seeded generator, the actions
    the view lists (ten at most, spread over the list, and their notation), each card and kind of
    card; a setting, track, deck or board the view's own. A parameter of another name fails the
    test: a method added to a game must be asked too."""
    from toprace_pi.games.topspeed.rules.cards import Kind, card_of

    listed = outcome(seen.legal_actions)
    actions = [] if isinstance(listed, Raised) else listed[::max(1, len(listed) // 10)]
    values: dict[str, list[Any]] = {
        "seat": [None, *range(len(seen.names))],
        "action": actions,
        "text": [str(action) for action in actions],
        "log": [[]],
        "card": [card_of(word) for word in getattr(seen, "composition", ())],
        "kind": list(Kind),
        "cards": [[], list(getattr(seen, "played", ()))],
    }
    if parameter.name == "rng":
        return [lambda: random.Random(7)]
    if parameter.name in values:
        return [lambda value=value: value for value in values[parameter.name]]
    if hasattr(seen, parameter.name):
        return [lambda: getattr(seen, parameter.name)]
    pytest.fail(f"the view's {name}() takes {parameter.name}, which this test does not know how to give")


def calls(name: str, method: Any, seen: Any) -> Iterator[tuple[Callable[[], Any], ...]]:
    """Every way to call ``method`` (a public method of ``seen``) with :func:`arguments`."""
    parameters = [p for p in inspect.signature(method).parameters.values()
                  if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) and p.default is p.empty]
    yield from itertools.product(*(arguments(name, p, seen) for p in parameters))


def told_apart(game: Any, twin: Any, viewer: int | None, where: str) -> tuple[list[str], int]:
    """Where what ``viewer``'s bot is handed differs between ``game`` and ``twin`` (two games that
    differ only in what ``viewer`` may not see): its plain view, and each public attribute of its
    seat's view and what each public method answers, asked every way (:func:`calls`), each on a
    view of its own (a call may change the view's own copy); and how many calls were made."""
    found = differences(game.view(viewer), twin.view(viewer), f"{where} view({viewer})")
    made, seen = 0, game.seen_by(viewer)
    for name in sorted(n for n in dir(seen) if not n.startswith("_")):
        mine, theirs = (outcome(lambda g=g: getattr(g.seen_by(viewer), name)) for g in (game, twin))
        found += differences(mine, theirs, f"{where} .{name}")
        if not inspect.ismethod(mine) and not inspect.isfunction(mine):
            continue
        for given in calls(name, mine, seen):
            answers = [outcome(lambda g=g: getattr(g.seen_by(viewer), name)(*(make() for make in given)))
                       for g in (game, twin)]
            found += differences(*answers, f"{where} .{name}{tuple(make() for make in given)}")
            made += 1
    return found, made


#: Each game (TOP SPEED's decks also shuffled by hand), and every how many decisions it is looked at:
#: some thirty times a game.
BLIND_CASES = [*((name, False, 13 if name.startswith("toprace") else 3) for name in GAMES), ("topspeed", True, 5)]


@pytest.mark.parametrize(("name", "hidden_shuffles", "every"), BLIND_CASES,
                         ids=[f"{n}{'-shuffled-by-hand' if h else ''}" for n, h, _ in BLIND_CASES])
def test_nothing_a_bot_is_handed_tells_apart_games_that_differ_in_what_its_seat_cannot_see(name, hidden_shuffles,
                                                                                         every):
    """At decisions over a whole game, for the seat deciding and for another seat or a spectator:
    a game and its twin (every part hidden from that seat changed) hand the seat the same, however
    its view is asked; and asking never changes the game."""
    new, scramble = GAMES[name]
    rng, checked, varied, made = random.Random(2), 0, 0, 0
    for step, (game, seat) in enumerate(decisions(new(), 3, hidden_shuffles=hidden_shuffles)):
        if step % every:
            continue
        others = [None, *range(len(game.names))]
        for viewer in dict.fromkeys((seat, others[checked % len(others)])):
            twin, before = scramble(game, viewer, rng), game.clone()
            varied += bool(differences(game, twin))
            found, calls_made = told_apart(game, twin, viewer, f"{name} step {step}, seat {viewer}:")
            assert not found, "a seat's view tells what it may not see:\n" + "\n".join(found[:12])
            assert not differences(game, before), "asking a seat's view changed the game"
            checked, made = checked + 1, made + calls_made
    assert checked > 20 and made > 40 * checked
    assert varied > checked // 2, "the twins were seldom different: the test would prove nothing"
