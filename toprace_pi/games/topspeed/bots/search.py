"""TOP SPEED's search bot: the table's search (:mod:`toprace_pi.core.search`) with the
sensible bot driving every car of each playout.

The sensible rule reads each car's facts off the world itself (:class:`WorldFacts`), not off a
view made for it: a playout of two rounds took 2.5 ms, not 6.0 (the benchmark's search made 100
to 130 playouts in the normal strength's 0.5 s, the machine shared). A draw no card of the deck
could pair is left to the rule unsearched (:func:`riskless`): about a third of a race's decisions,
where playouts could only add their noise.

A draw that a pass could replace is weighed as plans (:func:`draw_plans`): the draw with the rule's
own caution for the rest of the round, with a bolder one and with a warier one, beside the pass. What
one more card is worth depends on the cards after it: weighed alone, with the rule drawing on after
it, a draw could not show that it pays only if the seat then stops soon (or draws on boldly).

How strong (``benchmarks/bench_bots.py --only topspeed``, normal, against three sensible bots): 30.8% of
400 races [26.4%, 35.4%], against the rule as it is now, which pits only when the stop pays (in races of
30 laps 32.0% of 100 [23.7%, 41.7%]: ``--only topspeed-30laps``). Against the rule before, which pitted
whatever the race had left, the same search won 34.0% of 400 races (31.3% with the draw weighed alone):
part of its lead was the pit stops it overruled, which the rule now avoids itself. The rule is most of
the strength and the deck's luck most of a race: a bot that sees the next card of its own deck wins 48%
(``benchmarks/topspeed_rules.py``). One-step search has reached its ceiling over this rule: at 544
decisions of sensible races (``benchmarks/topspeed_headroom.py``), the option that 400 whole-race
rollouts each find best gains 1.70 wins over the rule's choice, and this search takes 1.66 of them (over
the rule before, 5.1 and 3.9).

A playout is judged by the seat's chance to win from where it ends (:func:`win_chance`), not by its
place in the race order, which two rounds seldom change (30.0% of 80 races by the order against 33.8% by
the chance, with an earlier rule). Tried and not kept, each over 40 races: whole races, the chance
judged one or four rounds ahead, overruling at one standard error, 258 playouts a decision judged by the
order (22.5% to 32.5%); over 100 to 200 races against the rule before its pit stops were weighed: 400
playouts a decision, playouts judged at the round's end, a judge counting each car's damage row for the
rounds left, overruling at one standard error (31.5% to 32.5%); with the plans, 320 playouts a decision
37.5% of races 0-199 (36.0% with 160), within the noise and at the 0.5 s cap; the plans for the round's
first draw too (beside a pit stop) 34.0% of races 0-199, a third, bolder caution (0.25) beside the two
32.5% (the three with the rule before, too).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from toprace_pi.core.search import DEFAULT_STRENGTH, Plan, SearchBot, Strength
from toprace_pi.games.topspeed.bots.sensible import ViewFacts, WorldFacts, draw_odds, sensible_choice
from toprace_pi.games.topspeed.rules.actions import Draw, Pass, SeatAction
from toprace_pi.games.topspeed.rules.game import TopSpeed

#: A playout's rounds after the one being played (``None``: to the race's end). Two: the cars'
#: distances tell a draw's worth then, and the race's end once it is near; whole races won 25.0% of
#: 40 (``[14.2%, 40.2%]``) against 27.5% for two rounds, with two thirds of the playouts.
ROUNDS_AHEAD: int | None = 2


#: The search overrules the sensible bot at two standard errors: with the playouts read off the world
#: (about 120 a decision) at two it won 27.5% of 40 races against three sensible bots ``[16.1%, 42.8%]``,
#: at one and at half 27.5% too (``benchmarks/bench_bots.py --games 40 --only topspeed``, games 0-39);
#: with the playouts judged by the chance to win, 32.5% at two and at one.
CONFIDENCE = 2.0

#: The spread of a car's gain in a round, in spaces: 11.3 about its mean (``sensible.ROUND_GAIN``),
#: four sensible bots on the default circuit (30 races, measured by a one-off script; a pair wipes a
#: row out, so the spread is wider than the mean).
ROUND_SPREAD = 11.3


#: The cautions a draw is weighed with for the rest of its round, beside the sensible rule's own (1:
#: a pair's risk against a card's points; 0.5 bolder, 2 warier).
CAUTIONS = (0.5, 2.0)


def sensible_policy(world: TopSpeed, seat: int, rng: random.Random) -> SeatAction:
    """The sensible bot's choice, read off the world (:class:`WorldFacts`: the same as on the seat's
    view, without making the view); the sensible bot draws no luck."""
    return sensible_choice(WorldFacts(world, seat))


@dataclass(frozen=True)
class RoundCaution:
    """The sensible rule for every seat, ``seat``'s draws in round ``round`` weighed with ``caution``: a
    playout's policy after a draw planned that way."""

    seat: int
    round: int
    caution: float

    def __call__(self, world: TopSpeed, seat: int, rng: random.Random) -> SeatAction:
        mine = seat == self.seat and world.round == self.round
        return sensible_choice(WorldFacts(world, seat), self.caution if mine else 1.0)


def draw_plans(seen: TopSpeed, seat: int, actions: Sequence[SeatAction], preferred: SeatAction) -> list[Plan] | None:
    """A draw that may be followed by more (a pass is an option too) is weighed with how boldly the seat
    goes on drawing this round, each of :data:`CAUTIONS` beside the rule's own: what one more card is
    worth depends on whether the next ones are drawn. Every other action (a pass, a card kept apart
    used) is weighed as it is."""
    draw = Draw(seat)
    if draw not in actions or Pass(seat) not in actions:
        return None
    others = [Plan(action) for action in actions if action != draw]
    return [*others, Plan(draw), *(Plan(draw, RoundCaution(seat, seen.round, c)) for c in CAUTIONS)]


def search_bot(seed: int | None, strength: Strength | str = DEFAULT_STRENGTH, *,
               rounds: int | None = ROUNDS_AHEAD, confidence: float = CONFIDENCE,
               settle: bool = True, chances: bool = True, plans: bool = True) -> SearchBot:
    """A search bot for TOP SPEED, of ``strength`` (see :data:`~toprace_pi.core.search.STRENGTHS`): its
    playouts ``rounds`` ahead (``None``: whole races), overruling the sensible bot at ``confidence``
    standard errors; ``settle``: riskless draws left to the sensible bot unsearched; ``chances``: a
    playout judged by :func:`win_chance` (else by the seat's place in the race order); ``plans``: a
    draw weighed with the round's draws after it (:func:`draw_plans`, else alone)."""
    return SearchBot(seed, sensible_policy, strength, score=progress, value=win_chance if chances else None,
                     horizon=None if rounds is None else rounds_ahead(rounds),
                     settled=riskless if settle else None, plans=draw_plans if plans else None,
                     confidence=confidence)


def riskless(seen: TopSpeed, seat: int) -> bool:
    """A draw or a pass where no card the deck can hold would pair with the row: the draw risks
    nothing (the sensible bot draws)."""
    facts = ViewFacts(seen.view(seat))
    return "draw" in facts.options and "pass" in facts.options and draw_odds(facts)[1] == 0


def rounds_ahead(rounds: int) -> Callable[[TopSpeed], Callable[[TopSpeed], bool]]:
    """Far enough: once ``rounds`` more rounds have begun (their movements made)."""
    def horizon(start: TopSpeed) -> Callable[[TopSpeed], bool]:
        last = start.round + rounds
        return lambda world: world.round > last
    return horizon


def win_chance(game: TopSpeed, seat: int) -> float:
    """The chance that ``seat`` wins the race from where the cars stand (once it is over: 1 for its
    winner). Each other car's lead or lag is set against the spread of the rounds left (at most a
    round a lap of the counter: the leader crossing the line moves it on faster), as if the cars'
    gains were independent and normal, a round's with a spread of :data:`ROUND_SPREAD`. A few
    spaces' gain then counts for little early in the race and for much near its end, and never
    for nothing, as the seat's place in the order does (a playout a few rounds long seldom changes
    it)."""
    if game.is_over:
        return 1.0 if seat in game.winners() else 0.0
    # a gap is set against the spread of two cars' gains over the rounds left (and erfc's own √2)
    scale = ROUND_SPREAD * math.sqrt(2 * max(1, game.settings.laps - game.lap)) * math.sqrt(2)
    mine = game.progress[seat]
    chance = 1.0
    for other, theirs in enumerate(game.progress):
        if other != seat:
            chance *= 0.5 * math.erfc((theirs - mine) / scale)
    return chance


def progress(game: TopSpeed) -> list[int]:
    """How far each car has gone: the race's order."""
    return list(game.progress)
