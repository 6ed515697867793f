"""A search bot for any game of the table: Monte-Carlo search over the worlds a seat
cannot tell from the real one.

Information-set Monte-Carlo search, of depth one. Each round draws worlds consistent
with the seat's view (the game's ``determinized(seat, rng)`` hook: other seats' hands,
stocks, tips, sealed cards and the decks' order drawn anew from what the seat sees,
never from the hidden parts themselves); in each world every option still in the
running is taken and the world played to its end (a long race: a few rounds on) with
the same luck, by a quick policy (the game's best simple bot, for every seat). The worse half of the options
drops out after each round (sequential halving); the best left is chosen if it beats
the policy's own choice clearly in the same worlds, the policy's choice otherwise. A game
may weigh plans, not bare actions (:class:`Plan`: an action and how the seat goes on after
it), where what a seat does next decides what an action is worth. Many worlds are what keep the search
from believing what it cannot know: no action is judged on one guess at the hidden
cards; the same worlds and luck for every option are what let a few hundred playouts
tell options apart. The search goes no deeper than the seat's own decision: on a Pi
Zero 2 W a couple of seconds buys a few hundred playouts, and a tree over every seat's
later decisions would spread them too thin to learn from.

The budget is a number of playouts (:class:`Strength`): ``easy``, ``normal`` and ``strong`` at
the table. It is counted, never timed: a search stopped by the clock would choose by the speed of
the machine and the work beside it, and the same seed would not give the same game twice. A
decision takes as long as its playouts take (the figures for a Pi are in docs/figures.md).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol, Self

from toprace_pi.core.game import GameState, seat_actions


class Searchable(GameState, Protocol):
    """A game a search bot can play: it draws worlds its seats cannot tell apart."""

    def determinized(self, seat: int, rng: random.Random) -> Self:
        """A full game ``seat`` cannot tell from this one: every part hidden from it drawn
        anew with ``rng``, made from what it sees alone (two games with the same
        ``view(seat)`` give the same world for the same ``rng``)."""
        ...


#: A quick choice for ``seat`` in a full world, its own luck drawn from the generator it is
#: given (the playouts' policy, and the choice the search starts from).
Policy = Callable[[Any, int, random.Random], Any]


@dataclass(frozen=True)
class Strength:
    """How hard a search bot thinks: the ``playouts`` a decision is given (a few more when its
    options are many: each option weighed is played in :data:`MIN_WORLDS` worlds a round at least,
    and a small budget weighs fewer options, :attr:`SearchBot.breadth`)."""

    name: str
    playouts: int


#: The strengths a player chooses from, weakest first.
STRENGTHS = {s.name: s for s in (Strength("easy", 16), Strength("normal", 160), Strength("strong", 480))}
DEFAULT_STRENGTH = "normal"
#: More actions than this (bids, trades) are cut to this many before the search.
CANDIDATES = 8
#: How sure the search must be to overrule its policy: the best option's lead over the
#: policy's choice, in the same worlds, must be this many standard errors.
CONFIDENCE = 1.0


#: Each round of the halving plays at least this many worlds: fewer tell the options apart by luck.
MIN_WORLDS = 4
#: A playout longer than this many steps is a game that does not end: a bug, said as one.
PLAYOUT_LIMIT = 20_000


#: The seats' standings in a finished game, higher better (money, progress): with the win
#: itself they make a playout's worth, which tells more than a win alone (a close second).
Score = Callable[[Any], Sequence[float]]


def worth(game: GameState, seat: int, score: Score | None) -> float:
    """What a game played out is worth to ``seat``, between 0 and 1: half for a win (shared
    among tied winners), half for the share of the others it stands above (by ``score``;
    without one, the win is all). A game cut short before its end counts the seats with the
    best score as its winners."""
    if score is None:
        winners = game.winners()
        return 1 / len(winners) if seat in winners else 0.0
    scores = score(game)
    winners = game.winners() if game.is_over else [s for s, value in enumerate(scores) if value == max(scores)]
    won = 1 / len(winners) if seat in winners else 0.0
    mine, others = scores[seat], [s for other, s in enumerate(scores) if other != seat]
    above = sum(1.0 if mine > s else 0.5 if mine == s else 0.0 for s in others) / len(others)
    return (won + above) / 2


#: What a world played out (or cut short at the horizon) is worth to a seat, from 0 to 1:
#: ``value(world, seat)``. By default :func:`worth`, of the game's ``score``.
Value = Callable[[Any, int], float]


#: A decision the policy's choice settles without a search: ``settled(seen, seat)`` for the game
#: as the seat sees it (a choice with no risk in it, where playouts could only add their noise).
Settled = Callable[[Any, int], bool]


#: Where a playout may stop before the game's end: ``horizon(start)`` for the game a search
#: starts from, whether a world played on from it has gone far enough.
Horizon = Callable[[Any], Callable[[Any], bool]]


@dataclass(frozen=True)
class Plan:
    """An option the search weighs: an action, and the policy that plays every seat after it in the
    playouts (``None``: the search's own). A plan with a policy of its own weighs what the seat
    would do next too, not the action alone: in TOP SPEED, a draw and how boldly the seat draws
    for the rest of the round."""

    action: Any
    policy: Policy | None = None


#: The plans of a decision, for a game that weighs more than its actions: ``plans(seen, seat,
#: actions, preferred)``, or ``None`` for the actions alone (each with the search's policy). The
#: plain plan of ``preferred`` (the policy's choice) is the yardstick: the search adds it if missing.
Planner = Callable[[Any, int, Sequence[Any], Any], list[Plan] | None]


def playout(world: GameState, policy: Policy, rng: random.Random,
            far_enough: Callable[[Any], bool] | None = None) -> GameState:
    """Play ``world`` to its end, or until it is ``far_enough``: chance by its outcomes, every
    seat by ``policy``."""
    for _ in range(PLAYOUT_LIMIT):
        if world.decision.is_terminal or (far_enough is not None and far_enough(world)):
            return world
        _step(world, policy, rng)
    raise RuntimeError(f"a playout of {PLAYOUT_LIMIT} steps did not end the game")


def _step(world: GameState, policy: Policy, rng: random.Random) -> None:
    decision = world.decision
    if decision.chance:
        world.apply(world.chance_outcomes().sample(rng))
    else:
        world.apply(policy(world, decision.seats[0], rng))


def candidates(actions: Sequence[Any], preferred: Any, limit: int = CANDIDATES) -> list[Any]:
    """At most ``limit`` of ``actions``: ``preferred`` and others spread evenly over the
    list (the games list bids and trades in order, so the spread covers their range)."""
    if len(actions) <= limit:
        return list(actions)
    step = (len(actions) - 1) / (limit - 2)
    chosen = [actions[round(i * step)] for i in range(limit - 1)]
    return chosen if preferred in chosen else [preferred, *chosen]


class SearchBot:
    """Chooses a seat's action by search over the worlds it cannot tell apart (see the module):
    ``policy``'s choice (the game's best simple bot) unless playouts show another to be
    clearly better; the same policy plays every seat in the playouts.

    ``choose`` is handed the game as the seat sees it (``game.seen_by(seat)``): it reads
    the seat's options there and draws every world through ``determinized``. The same
    seed and the same view give the same choice, however fast the machine."""

    #: The table hands this bot ``seen_by(seat)``, not ``view(seat)``'s plain values.
    SEES_GAME = True

    def __init__(self, seed: int | None, policy: Policy, strength: Strength | str = DEFAULT_STRENGTH,
                 *, score: Score | None = None, value: Value | None = None, horizon: Horizon | None = None,
                 settled: Settled | None = None, plans: Planner | None = None, confidence: float = CONFIDENCE) -> None:
        self.rng = random.Random(seed)
        self.policy = policy
        #: How a playout's end is judged (``value``, else :func:`worth` by ``score``).
        self.value: Value = value if value is not None else partial(worth, score=score)
        #: Where a playout stops (``None``: at the end; a long race is judged by ``value`` a few rounds on).
        self.horizon = horizon
        #: The decisions left to the policy, unsearched (``None``: every decision with a choice is searched).
        self.settled = settled
        #: The plans a decision weighs beyond its actions (``None``: its actions alone).
        self.plans = plans
        #: How many standard errors another option must lead the policy's choice by to be chosen.
        self.confidence = confidence
        self.strength = STRENGTHS[strength] if isinstance(strength, str) else strength
        #: Playouts made for the last decision (for the benchmark).
        self.last_playouts = 0

    def __repr__(self) -> str:
        return f"SearchBot({self.strength.name})"

    def choose(self, seen: Any) -> Any:
        seat = seen.viewer
        actions = seat_actions(seen, seat)
        self.last_playouts = 0
        if len(actions) == 1:
            return actions[0]
        preferred = self.policy(seen.determinized(seat, self.rng), seat, self.rng)
        if self.settled is not None and self.settled(seen, seat):
            return preferred
        planned = None if self.plans is None else self.plans(seen, seat, actions, preferred)
        options = planned or [Plan(action) for action in candidates(actions, preferred, self.breadth)]
        if Plan(preferred) not in options:  # the yardstick, as candidates() keeps it
            options = [Plan(preferred), *options]
        return self._halve(seen, seat, options, options.index(Plan(preferred))).action

    @property
    def breadth(self) -> int:
        """How many actions a decision weighs at most: :data:`CANDIDATES`, fewer when the budget cannot
        play each in :data:`MIN_WORLDS` worlds (an easy search of AUTORACE's first card would play eleven
        cards four times each, five times its budget, every playout to the game's end)."""
        return max(3, min(CANDIDATES, self.strength.playouts // MIN_WORLDS))

    def _halve(self, seen: Any, seat: int, options: list[Plan], home: int) -> Plan:
        """Sequential halving: the options share each round's playouts, in the same worlds
        with the same luck (so they are compared on equal terms), and the worse half drops
        out; the policy's own choice (``home``) stays in to the end, the yardstick of the others."""
        worths: list[list[float]] = [[] for _ in options]
        alive = list(range(len(options)))
        rounds = max(1, math.ceil(math.log2(len(options))))
        far_enough = None if self.horizon is None else self.horizon(seen)
        for _ in range(rounds):
            for _ in range(max(MIN_WORLDS, self.strength.playouts // (rounds * len(alive)))):
                self._compare(seen, seat, options, alive, worths, far_enough)
            kept = sorted(alive, key=lambda i: -sum(worths[i]))[:max(1, len(alive) // 2)]
            alive = kept if home in kept else [home, *kept]
        return options[_chosen(worths, alive, home, self.confidence)]

    def _compare(self, seen: Any, seat: int, options: list[Plan], alive: list[int], worths: list[list[float]],
                 far_enough: Callable[[Any], bool] | None) -> None:
        """One world, every option still in it played out with the same luck (to ``far_enough``)."""
        world, luck = seen.determinized(seat, self.rng), self.rng.random()
        for i in alive:
            trial, plan = world.clone(), options[i]
            trial.apply(plan.action)
            ended = playout(trial, plan.policy or self.policy, random.Random(luck), far_enough)
            worths[i].append(self.value(ended, seat))
            self.last_playouts += 1


def _chosen(worths: list[list[float]], alive: list[int], home: int, confidence: float) -> int:
    """The best of ``alive`` if it beats ``home`` (the policy's choice) clearly in the worlds
    both were played in; ``home`` otherwise."""
    best = max(alive, key=lambda i: sum(worths[i]) / len(worths[i]))
    shared = min(len(worths[best]), len(worths[home]))
    if best == home or shared < 2:
        return home
    leads = [a - b for a, b in zip(worths[best][-shared:], worths[home][-shared:], strict=True)]
    mean = sum(leads) / shared
    spread = math.sqrt(sum((d - mean) ** 2 for d in leads) / (shared - 1) / shared)
    return best if mean > confidence * spread and mean > 0 else home
