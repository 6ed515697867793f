#!/usr/bin/env python3
"""How much better than the sensible rule a one-step search could choose in TOP SPEED, and how much of
that the search bot already takes.

    python3 benchmarks/topspeed_headroom.py                          # 12 races, 400 rollouts: ~10 minutes
    python3 benchmarks/topspeed_headroom.py --races 4 --rollouts 100  # a quick look

Decisions are sampled from 4-player races of four sensible bots (10 laps, a normal race): a share of
every decision with a choice that the search bot would search (a draw with no risk is left to the rule).
At each, every option is weighed by ``--rollouts`` whole-race rollouts: a world drawn from the seat's own
view (``determinized``: what a fair bot may know), the option taken, then every car driven by the
sensible rule to the race's end, each option in the same worlds with the same luck. An option's worth
is the seat's share of the win.

Printed: the gain over the rule's choice (in wins, summed over the decisions) of

* the option the rollouts find best, chosen on half of them and scored on the other half (so that luck
  in the choosing does not count as a gain): what a one-step search with whole-race rollouts, the
  rule driving the rest of the race, can win at most;
* the search bot's choice (its normal strength: at most 160 playouts of two rounds and 0.5 s), scored on
  all the rollouts, which it never saw.

Why: the search bot overrules the rule only by such one-step comparisons, so when it takes most of
what the rollouts find, more playouts or a better judge of a playout's end cannot lift it much; a
better bot needs a better rule or a deeper search. A script that prints figures: it asserts nothing.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from toprace_pi.core.game import seat_actions  # noqa: E402
from toprace_pi.core.search import playout  # noqa: E402
from toprace_pi.games.topspeed.bots.search import riskless, search_bot, sensible_policy  # noqa: E402
from toprace_pi.games.topspeed.data import load_circuit, load_deck  # noqa: E402
from toprace_pi.games.topspeed.rules import TopSpeed  # noqa: E402
from toprace_pi.games.topspeed.settings import TableGame  # noqa: E402
from toprace_pi.games.topspeed.simulate import player_names  # noqa: E402

PLAYERS = 4
LAPS = 10


@dataclass(frozen=True)
class Weighed:
    """One sampled decision: its options' names, the rule's and the search's choice (indexes), and each
    option's win share in every rollout."""

    round: int
    names: tuple[str, ...]
    rule: int
    search: int
    wins: tuple[tuple[float, ...], ...]

    def gain(self, option: int, rollouts: slice = slice(None)) -> tuple[float, float]:
        """``option``'s mean lead over the rule's choice in ``rollouts``, and its standard error."""
        leads = [a - b for a, b in zip(self.wins[option][rollouts], self.wins[self.rule][rollouts], strict=True)]
        mean = sum(leads) / len(leads)
        spread = math.sqrt(sum((lead - mean) ** 2 for lead in leads) / max(1, len(leads) - 1) / len(leads))
        return mean, spread

    def best_gain(self) -> float:
        """The gain of the option best in the first half of the rollouts, scored on the second half."""
        half = len(self.wins[0]) // 2
        best = max(range(len(self.names)), key=lambda i: sum(self.wins[i][:half]))
        return self.gain(best, slice(half, None))[0]


def new_race() -> TopSpeed:
    settings = TableGame(players=player_names(PLAYERS), laps=LAPS).settings()
    return TopSpeed(settings, load_circuit(settings.circuit), load_deck(settings.deck))


def decisions(race: int, share: float) -> list[tuple[int, TopSpeed, int]]:
    """A ``share`` of the searched decisions of race ``race`` (its number, a copy of the game, the seat)."""
    game, chance, pick, found = new_race(), random.Random(race), random.Random(-1 - race), []
    while not game.is_over:
        if game.decision.chance:
            game.apply(game.chance_outcomes().sample(chance))
            continue
        seat = game.turn
        assert seat is not None
        seen = game.seen_by(seat)
        if len(seat_actions(seen, seat)) > 1 and not riskless(seen, seat) and pick.random() < share:
            found.append((race * 1000 + len(found), game.clone(), seat))
        game.apply(sensible_policy(game, seat, chance))
    return found


def weigh(job: tuple[int, TopSpeed, int, int]) -> Weighed:
    """Every option of the decision by whole-race rollouts from the seat's view, and the search's choice."""
    number, game, seat, rollouts = job
    seen = game.seen_by(seat)
    options = seat_actions(seen, seat)
    rng = random.Random(number)
    wins: list[list[float]] = [[] for _ in options]
    for _ in range(rollouts):
        world, luck = seen.determinized(seat, rng), rng.random()
        for option, record in zip(options, wins, strict=True):
            trial = world.clone()
            trial.apply(option)
            winners = playout(trial, sensible_policy, random.Random(luck)).winners()
            record.append(1 / len(winners) if seat in winners else 0.0)
    rule = options.index(sensible_policy(game, seat, rng))  # the rule reads only what the seat sees
    search = options.index(search_bot(number).choose(seen))
    return Weighed(game.round, tuple(type(o).__name__ for o in options), rule, search,
                   tuple(tuple(record) for record in wins))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--races", type=int, default=12, help="races of four sensible bots sampled (default 12)")
    parser.add_argument("--rollouts", type=int, default=400, help="whole-race rollouts an option (default 400)")
    parser.add_argument("--share", type=float, default=0.3, help="share of the searched decisions weighed (0.3)")
    parser.add_argument("--jobs", type=int, default=2, help="decisions weighed at once (default 2)")
    args = parser.parse_args()
    jobs = [(number, game, seat, args.rollouts) for race in range(args.races)
            for number, game, seat in decisions(race, args.share)]
    with multiprocessing.Pool(args.jobs) as pool:
        weighed = pool.map(weigh, jobs, chunksize=1)
    best = sum(w.best_gain() for w in weighed)
    search = sum(w.gain(w.search)[0] for w in weighed)
    overruled = [w for w in weighed if w.search != w.rule]
    clear = [w for w in weighed if any(m > 2 * s for m, s in (w.gain(i) for i in range(len(w.names))))]
    print(f"{len(weighed)} decisions of {args.races} races of four sensible bots, {args.rollouts} whole-race "
          f"rollouts an option")
    print(f"  the rollouts' best option, scored on rollouts it was not chosen by: {best:+.3f} wins over the rule")
    print(f"  the search bot's choice (normal strength):                         {search:+.3f} wins over the rule "
          f"({len(overruled)} decisions overruled)")
    print(f"  decisions where an option beats the rule's by more than two standard errors: {len(clear)}")
    shown = {id(w): w for w in overruled + clear}.values()
    for w in sorted(shown, key=lambda w: -max(w.gain(i)[0] for i in range(len(w.names)))):
        gains = ", ".join(f"{name} {m:+.3f}±{s:.3f}" for name, (m, s) in
                          zip(w.names, (w.gain(i) for i in range(len(w.names))), strict=True))
        print(f"    round {w.round}: rule {w.names[w.rule]}, search {w.names[w.search]}; {gains}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
