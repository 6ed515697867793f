#!/usr/bin/env python3
"""How much a TOP SPEED push-your-luck rule is worth: win shares with 95% intervals, one bot of a
rule against three others, over many seeded 4-player races (10 laps unless told, a normal race).

    python3 benchmarks/topspeed_rules.py                # 3000 races a field, about six minutes
    python3 benchmarks/topspeed_rules.py --races 1000   # fewer races, wider intervals
    python3 benchmarks/topspeed_rules.py --laps 30 --fields sensible:eager eager:sensible   # a longer race

The fields, each bot's seat turning with the race's number (a fair share is 25%):

* the sensible rule against three of itself (the baseline: near 25%);
* the sensible rule against three bots blind to the Yellow Flags (the rule before it counted them:
  points past the first car ahead are worth nothing while two flags forbid overtaking), and one
  blind bot against three sensible ones;
* the sensible rule against three bots without its last-round chase (a car the rows laid so far
  leave behind in the race's last round draws on whatever the risk), and one such bot against three
  sensible ones;
* the sensible rule against three bots that pit eagerly (the rule before it weighed what the race had
  left: a pit stop before drawing on a short deck or a heavy damage row, whatever the laps left), and
  one eager bot against three sensible ones;
* a bot that sees the next card of its own deck (it draws unless that card would pair) against
  three sensible bots: no fair bot can know that much, so its share bounds what better draws can win.

Why: the search bot starts from the sensible rule and overrules it only when its playouts show
another choice clearly better, so the rule is most of its strength, and these races are cheap
(the rules decide at once) where the search's are not. A script that prints figures.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_bots import wilson  # noqa: E402  (beside this script)

from toprace_pi.games.topspeed.bots.sensible import (  # noqa: E402
    HEAVY_DAMAGE,
    SHORT_DECK,
    Standing,
    ViewFacts,
    sensible_choice,
)
from toprace_pi.games.topspeed.data import load_circuit, load_deck  # noqa: E402
from toprace_pi.games.topspeed.rules import Action, Draw, Pass, TopSpeed, parse_action  # noqa: E402
from toprace_pi.games.topspeed.rules.cards import TROUBLES  # noqa: E402
from toprace_pi.games.topspeed.settings import TableGame  # noqa: E402
from toprace_pi.games.topspeed.simulate import player_names  # noqa: E402

PLAYERS = 4
LAPS = 10

#: A bot's choice for ``seat``: given the full game (only the seeing bot reads more than the seat's view).
Rule = Callable[[TopSpeed, int], Action]


def sensible(game: TopSpeed, seat: int) -> Action:
    return parse_action(sensible_choice(ViewFacts(game.view(seat))))


def blind(game: TopSpeed, seat: int) -> Action:
    """The sensible rule with the Yellow Flags left out of its facts."""
    facts = ViewFacts(game.view(seat))
    facts.room = None
    return parse_action(sensible_choice(facts))


class _Unhurried(ViewFacts):
    """A seat's facts that never tell of the race's last round: the rule without its chase."""

    def standing(self) -> Standing:
        return replace(super().standing(), lap=0)


def unhurried(game: TopSpeed, seat: int) -> Action:
    return parse_action(sensible_choice(_Unhurried(game.view(seat))))


def eager(game: TopSpeed, seat: int) -> Action:
    """The sensible rule, but a pit stop as soon as the deck is short or the damage row heavy."""
    facts = ViewFacts(game.view(seat))
    if "pit stop" in facts.options and (facts.deck_size < SHORT_DECK or facts.damage >= HEAVY_DAMAGE):
        return parse_action(facts.options["pit stop"])
    return parse_action(sensible_choice(facts))


def seeing(game: TopSpeed, seat: int) -> Action:
    """Draws unless its next card would pair with its row; the sensible rule for every other choice."""
    choice = sensible(game, seat)
    options = game.options(seat)
    if not isinstance(choice, (Draw, Pass)) or Draw(seat) not in options or Pass(seat) not in options:
        return choice
    card = game.decks[seat][-1]
    kind = game.acts_as(card)
    pairs = card.kind in TROUBLES and any(game.acts_as(other) is kind for other in game.rows[seat])
    return Pass(seat) if pairs else Draw(seat)


RULES: dict[str, Rule] = {"sensible": sensible, "blind": blind, "unhurried": unhurried, "eager": eager,
                          "seeing": seeing}
#: (the one bot's rule, the three others' rule)
FIELDS = (("sensible", "sensible"), ("sensible", "blind"), ("blind", "sensible"), ("sensible", "unhurried"),
          ("unhurried", "sensible"), ("sensible", "eager"), ("eager", "sensible"), ("seeing", "sensible"))


def race(job: tuple[int, str, str, int]) -> float:
    """Race ``number`` of ``laps``: the one bot's share of the win (it sits at seat ``number % 4``)."""
    number, one, others, laps = job
    settings = TableGame(players=player_names(PLAYERS), laps=laps).settings()
    game = TopSpeed(settings, load_circuit(settings.circuit), load_deck(settings.deck))
    seat = number % PLAYERS
    chance = random.Random(number)
    while not game.is_over:
        if game.decision.chance:
            game.apply(game.chance_outcomes().sample(chance))
        else:
            turn: Any = game.turn
            game.apply(RULES[one if turn == seat else others](game, turn))
    winners = game.winners()
    return 1 / len(winners) if seat in winners else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--races", type=int, default=3000, help="races a field (default 3000)")
    parser.add_argument("--jobs", type=int, default=2, help="races played at once (default 2)")
    parser.add_argument("--laps", type=int, default=LAPS, help=f"the race's laps (default {LAPS})")
    parser.add_argument("--fields", nargs="*", metavar="ONE:OTHERS", default=None,
                        help="only these fields, as the one bot's rule and the others' (sensible:eager)")
    args = parser.parse_args()
    fields = FIELDS if args.fields is None else [tuple(field.split(":", 1)) for field in args.fields]
    unknown = {rule for field in fields for rule in field} - set(RULES)
    if unknown or any(len(field) != 2 for field in fields):
        parser.error(f"a field is two of {', '.join(RULES)} as ONE:OTHERS")
    with multiprocessing.Pool(args.jobs) as pool:
        for one, others in fields:
            jobs = [(number, one, others, args.laps) for number in range(args.races)]
            share = sum(pool.map(race, jobs, chunksize=25)) / args.races
            low, high = wilson(share, args.races)
            print(f"  one {one:9} against three {others:10} {share:6.1%}  (95% interval {low:5.1%} to {high:5.1%}, "
                  f"{args.races} races of {args.laps} laps)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
