"""Games a seat cannot tell apart, for the tests of what a bot is handed: each game of the table
played at random, stopped at each decision, and its *twin*, a copy in which every part hidden from
a seat is changed in a way that seat cannot see (other hands dealt anew, stocks and tips changed,
other sealed cards changed, decks reordered, the log shuffled), with :func:`differences`, which
names where two games (or anything they hold) differ."""

from __future__ import annotations

import functools
import random
import types
from collections.abc import Callable, Iterator
from typing import Any

from toprace_pi.core.game import ChanceOutcomes
from toprace_pi.core.seat_view import SeatView

PLAYERS = ("Anna", "Ben", "Carla", "David")


def toprace_game(variant: str) -> Any:
    from toprace_pi.games.toprace.data import load_deck, load_track
    from toprace_pi.games.toprace.rules import Settings
    from toprace_pi.games.toprace.rules.variants import new_game

    return new_game(Settings(PLAYERS, variant=variant), load_track("speed-street"), load_deck("standard"))


def autorace_game() -> Any:
    from toprace_pi.games.autorace.data import DEFAULT_BOARD, load_board
    from toprace_pi.games.autorace.rules import Autorace, Settings

    return Autorace(Settings(PLAYERS), load_board(DEFAULT_BOARD))


def topspeed_game(variant: str = "normal") -> Any:
    from toprace_pi.games.topspeed.settings import TableGame

    return TableGame(players=PLAYERS, variant=variant).new_game()[1]


def decisions(game: Any, seed: int, *, hidden_shuffles: bool = False) -> Iterator[tuple[Any, int]]:
    """``game`` played to its end at random, stopping (game, seat) at each seat's decision;
    ``hidden_shuffles``: TOP SPEED's decks shuffled by hand (each draw names its card)."""
    from toprace_pi.games.topspeed.rules.actions import HiddenShuffle, Shuffle

    rng = random.Random(seed)
    while not game.is_over:
        decision = game.decision
        if decision.chance:
            outcome = game.chance_outcomes().sample(rng)
            game.apply(HiddenShuffle(outcome.seat) if hidden_shuffles and isinstance(outcome, Shuffle) else outcome)
            continue
        seat = rng.choice(decision.seats)
        yield game, seat
        mine = [a for a in game.legal_actions() if getattr(a, "seat", seat) == seat]
        game.apply(rng.choice(mine))


def _others(game: Any, seat: int | None) -> list[int]:
    return [s for s in range(len(game.names)) if s != seat]


def scrambled_toprace(game: Any, seat: int | None, rng: random.Random) -> Any:
    """``game`` with every other seat's hand dealt anew from the cards nobody else knows of (the
    cards everyone knows a hand holds stay in it, the cards left out are dealt too), its stocks
    moved between the cars and its tips on other cars, and the log, which holds the deal, shuffled."""
    twin = game.clone()
    others = _others(twin, seat)
    if twin.hands is not None:
        loose = {s: [n for n in twin.hands[s] if n not in twin.known_in_hand(s)] for s in others}
        pool = [n for s in others for n in loose[s]] + list(getattr(twin, "left_out", ()))
        rng.shuffle(pool)
        for s in others:
            twin.hands[s], pool = sorted(twin.known_in_hand(s) + pool[:len(loose[s])]), pool[len(loose[s]):]
        if hasattr(twin, "left_out"):
            twin.left_out = tuple(sorted(pool))
    for s in others:
        if hasattr(twin, "stocks"):
            rng.shuffle(twin.stocks[s])
        if hasattr(twin, "tips"):
            twin.tips[s] = [rng.choice(list(twin.cars)) for _ in twin.tips[s]]
    rng.shuffle(twin.log)
    return twin


def scrambled_autorace(game: Any, seat: int | None, rng: random.Random) -> Any:
    """``game`` with every other seat's card laid face down another it might have laid, and the log
    shuffled."""
    twin = game.clone()
    for s, card in enumerate(twin.sealed):
        if s != seat and card is not None and twin.playable(s):
            twin.sealed[s] = rng.choice(twin.options(s))
    rng.shuffle(twin.log)
    return twin


def scrambled_topspeed(game: Any, seat: int | None, rng: random.Random) -> Any:
    """``game`` with every deck in another order (the seat's own too: nobody knows it; a deck
    shuffled by hand, whose order the game never holds, stays in the deck file's), each other seat's
    green card kept apart or just drawn swapped for another green card of its deck, and the log,
    which holds the shuffles, shuffled."""
    twin = game.clone()
    for s in range(len(twin.names)):
        deck = list(twin.decks[s])
        rng.shuffle(deck)
        if s != seat:
            for held in (twin.kept, twin.drawn):
                greens = [i for i, card in enumerate(deck) if card.is_green]
                if held[s] is not None and greens:
                    i = rng.choice(greens)
                    held[s], deck[i] = deck[i], held[s]
        twin.decks[s] = twin.deck.in_file_order(deck) if twin.hidden[s] else tuple(deck)
    rng.shuffle(twin.log)
    return twin


#: A game's start, and its twin as a seat (``None``: a spectator) sees it.
Scrambler = Callable[[Any, "int | None", random.Random], Any]
GAMES: dict[str, tuple[Callable[[], Any], Scrambler]] = {
    **{f"toprace-{v}": (functools.partial(toprace_game, v), scrambled_toprace)
       for v in ("base", "stocks", "tips", "pitstop", "pitstop+tips", "pitstop+stocks", "quick")},
    "autorace": (autorace_game, scrambled_autorace),
    "topspeed": (functools.partial(topspeed_game, "normal+kers"), scrambled_topspeed),
}


def differences(a: Any, b: Any, where: str = "game", seen: dict[tuple[int, int], Any] | None = None) -> list[str]:
    """Where ``a`` and ``b`` differ, everything they hold compared (every attribute, the secrets and
    the log too; a seat's view by the copy it reads, a bound method by its object, a function by its
    code and what its closure holds, chance outcomes by their count and a few of them): empty when
    they are the same."""
    if a is b:
        return []
    if type(a) is not type(b):
        return [f"{where}: {type(a).__name__} / {type(b).__name__}"]
    seen = {} if seen is None else seen
    if (id(a), id(b)) in seen:
        return []
    seen[id(a), id(b)] = (a, b)  # kept alive: an id freed and taken again would pass for one compared
    pairs = _parts(a, b, where)
    if pairs is None:
        return [] if a == b else [f"{where}: {a!r} / {b!r}"]
    return [d for x, y, there in pairs for d in differences(x, y, there, seen)]


def _parts(a: Any, b: Any, where: str) -> list[tuple[Any, Any, str]] | None:
    """The parts of ``a`` and ``b`` to compare in turn, or ``None`` for two values compared whole;
    a difference in shape is a pair that cannot be equal."""
    if isinstance(a, list | tuple):
        if len(a) != len(b):
            return [(len(a), len(b), f"{where} (length)")]
        return [(x, y, f"{where}[{i}]") for i, (x, y) in enumerate(zip(a, b, strict=True))]
    if isinstance(a, dict):
        if a.keys() != b.keys():
            return [(sorted(map(repr, a)), sorted(map(repr, b)), f"{where} (keys)")]
        return [(a[k], b[k], f"{where}[{k!r}]") for k in a]
    if isinstance(a, SeatView):
        return [(_viewed(a), _viewed(b), f"{where} (the copy it reads)"), (a.viewer, b.viewer, f"{where}.viewer")]
    if isinstance(a, random.Random):
        return [(a.getstate(), b.getstate(), f"{where} (state)")]
    if isinstance(a, types.MethodType):
        return [(a.__func__, b.__func__, f"{where}.__func__"), (a.__self__, b.__self__, f"{where}.__self__")]
    if isinstance(a, types.FunctionType):
        return _function_parts(a, b, where)
    if isinstance(a, functools.partial):
        return [(a.func, b.func, f"{where}.func"), (a.args, b.args, f"{where}.args"),
                (a.keywords, b.keywords, f"{where}.keywords")]
    if isinstance(a, ChanceOutcomes):
        shown = sorted({0, a.total // 2, a.total - 1}) if a.total == b.total else []
        return [(a.total, b.total, f"{where}.total"), *((a[i], b[i], f"{where}[{i}]") for i in shown)]
    if isinstance(a, type | types.ModuleType | types.CodeType | types.BuiltinFunctionType):
        return None
    fields = [(name, getattr(a, name, _UNSET), getattr(b, name, _UNSET)) for name in _slots(type(a))]
    if hasattr(a, "__dict__"):
        fields += [(name, vars(a).get(name, _UNSET), vars(b).get(name, _UNSET))
                   for name in sorted(vars(a).keys() | vars(b).keys())]
    return [(x, y, f"{where}.{name}") for name, x, y in fields] if fields else None


def _function_parts(a: types.FunctionType, b: types.FunctionType, where: str) -> list[tuple[Any, Any, str]]:
    if a.__code__ is not b.__code__:
        return [(a.__code__, b.__code__, f"{where} (code)")]
    cells = [(_content(x), _content(y), f"{where} (closure)") for x, y in zip(a.__closure__ or (),
                                                                             b.__closure__ or (), strict=True)]
    return [(a.__defaults__, b.__defaults__, f"{where} (defaults)"), *cells]


def _content(cell: types.CellType) -> Any:
    try:
        return cell.cell_contents
    except ValueError:  # a cell not filled yet
        return _UNSET


def _slots(kind: type) -> list[str]:
    """The slots of ``kind`` and its bases (a ``__dict__`` or ``__weakref__`` slot left out)."""
    names = [name for klass in kind.__mro__ for name in getattr(klass, "__slots__", ()) if not name.startswith("__")]
    return list(dict.fromkeys(names))


#: An attribute not set, or a cell not filled.
_UNSET = object()
#: The copy a seat's view reads, past the view's refusal of private names.
_viewed = SeatView.__dict__["_game"].__get__
