"""A bot that plays for money from its seat's view alone.

Each card it may lay is scored in dollars: the money the round is expected to bring
(a speeding fine only if the card is likely the round's highest; a bonus where no
rival, or only a slower one, is likely to land; a draw's cost), plus what the hand
and the place it leaves are worth (reaching 72 exactly, or a filling station to
draw cards back at; never stranded with nothing it may play, which costs the
distance to the end), plus a little for each space driven. The rivals' cards are
public (their hands are the cards not on their discard piles): each rival is taken
to lay any card it may, a card that risks a fine less often than the others.

A sealed simultaneous choice wants a mixed strategy: a bot that always laid the best
scored card would be read by a rival (and two such bots in one spot lay the same
card, share every fine and every bonus). So it draws its card with a chance that
falls off steeply with its score (a softmax: a card a dollar worse than the best is
laid about one time in fifty), from its own generator: the same seed and views give
the same cards.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from toprace_pi.games.autorace.rules.board import BANNER
from toprace_pi.games.autorace.rules.game import STALLED_ROUNDS

#: What one space driven is worth: the bonuses ahead go to whoever gets there first.
TEMPO = 0.2
#: What each point the hand lacks to reach the end costs (it must be drawn back, a round and a fee each).
SHORTFALL = 0.25
#: Worth of a hand that can still reach the end exactly.
FINISH_WITHIN_REACH = 2.0
#: Cost of a hand that can only go on by stopping at a station first (a round and a fee).
STATION_NEEDED = 2.5
#: The share of a stranding fine counted when it is only a prospect (the game may end first).
STRANDING_RISK = 0.8
#: A round missed for an unpaid fine, in dollars.
MISSED_ROUND = 3.0
#: Ending the game (reaching the end, or a last round of banners): worth this when it leaves the bot the
#: richest, the same lost if not.
ENDING = 8.0
#: A bonus the hand can still reach exactly later, counted at this share.
OBJECTIVE_WITHIN_REACH = 0.3
#: How much less often a rival is taken to lay a card that risks a fine than any other.
RISKY_WEIGHT = 0.25
#: The softmax's temperature, in dollars.
TEMPERATURE = 0.25


@dataclass(frozen=True)
class Rival:
    """Another seat laying a card this round: where it stands, and each card it may lay with how
    likely it is taken to lay it."""

    position: int
    options: dict[int, float]
    #: Whether its banner would draw a card back (it stands on a station, with a pile and the fee).
    can_draw: bool

    def chance_at_most(self, card: int) -> float:
        return sum(w for c, w in self.options.items() if c <= card) / sum(self.options.values())

    def chance_of(self, card: int) -> float:
        return self.options.get(card, 0.0) / sum(self.options.values())


@dataclass(frozen=True)
class Seat:
    """The bot's own side of the view: where it is, its hand, its pile, its money, and the board's numbers."""

    position: int
    hand: frozenset[int]
    pile: tuple[int, ...]
    money: int
    finish: int
    stations: frozenset[int]
    speed_limit: int
    draw_cost: int
    #: Unpaid objectives and their bonuses now.
    bonuses: dict[int, int]
    #: The other seats' money, for whether ending the game wins it.
    others_money: tuple[int, ...]
    #: Rounds in a row that changed nothing so far.
    still_rounds: int

    @property
    def richest(self) -> bool:
        return self.money > max(self.others_money, default=0)


class SensibleBot:
    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any]) -> int:
        """One of ``view["my_options"]``, the better scored the likelier."""
        options: list[int] = list(view["my_options"])
        if len(options) == 1:
            return options[0]
        me, rivals = read_view(view)
        scores = [score(card, me, rivals) for card in options]
        best = max(scores)
        weights = [math.exp((s - best) / TEMPERATURE) for s in scores]
        return self.rng.choices(options, weights)[0]


def read_view(view: dict[str, Any]) -> tuple[Seat, list[Rival]]:
    """The bot's seat and its rivals this round, from the plain values of its view."""
    board, seat = view["board"], view["seat"]
    finish, position = board["finish"], view["positions"][seat]
    stations = frozenset(board["stations"])
    bonuses = {int(space): amount for space, amount in view["bonuses"].items()
               if amount and int(space) not in view["paid"]}
    me = Seat(position, frozenset(view["hands"][seat]), tuple(view["discards"][seat]), view["money"][seat],
              finish, stations, board["speed_limit"], board["draw_cost"], bonuses,
              tuple(m for s, m in enumerate(view["money"]) if s != seat and not view["dropped"][s]),
              view["still_rounds"])
    rivals = []
    for other, where in enumerate(view["positions"]):
        if other == seat or not view["in_race"][other] or view["missing"][other]:
            continue
        options = {c: RISKY_WEIGHT if c > me.speed_limit else 1.0 for c in view["hands"][other] if c <= finish - where}
        draws = where in stations and bool(view["discards"][other]) and view["money"][other] >= me.draw_cost
        rivals.append(Rival(where, {**options, BANNER: 1.0}, draws))
    return me, rivals


def score(card: int, me: Seat, rivals: Sequence[Rival]) -> float:
    """What laying ``card`` is worth to the bot, in expected dollars."""
    if card == BANNER:
        return banner_score(me, rivals)
    end = me.position + card
    gain = bonus_chance(card, end, rivals) * me.bonuses.get(end, 0) - fine_cost(card, me, rivals)
    value = gain + TEMPO * card
    if end == me.finish:
        richest = me.money + gain > max(me.others_money, default=0)
        return value + (ENDING if richest else -ENDING)
    return value + prospects(end, me.hand - {card}, me, money=me.money + gain)


def stall_score(me: Seat, rivals: Sequence[Rival]) -> float:
    """A banner that draws nothing in what would be the last round of a stall: the game ends if every
    rival lays a banner that draws nothing too, which is good for the richest only."""
    if me.still_rounds < STALLED_ROUNDS - 1 or any(rival.can_draw for rival in rivals):
        return 0.0
    everyone = math.prod(rival.chance_of(BANNER) for rival in rivals)
    return everyone * (ENDING if me.richest else -ENDING)


def banner_score(me: Seat, rivals: Sequence[Rival]) -> float:
    """A banner: at a filling station it draws the top of the pile back (it always does when it
    can), for a fee that grows with the rivals likely to draw there too; elsewhere it is a round
    with nothing done."""
    drawers = 1 + sum(r.chance_of(BANNER) for r in rivals if r.can_draw and r.position == me.position)
    cost = me.draw_cost * drawers
    if me.position not in me.stations or not me.pile or cost > me.money:
        return prospects(me.position, me.hand, me, money=me.money) + stall_score(me, rivals)
    return prospects(me.position, me.hand | {me.pile[-1]}, me, money=me.money - cost) - cost


def fine_cost(card: int, me: Seat, rivals: Sequence[Rival]) -> float:
    """The expected speeding fine of ``card``: paid only if no rival lays a higher one."""
    fine = card - me.speed_limit
    if fine <= 0:
        return 0.0
    highest = 1.0
    for rival in rivals:
        highest *= rival.chance_at_most(card)
    return highest * (fine if me.money >= fine else MISSED_ROUND)


def bonus_chance(card: int, end: int, rivals: Sequence[Rival]) -> float:
    """The expected share of the bonus at ``end``: all of it alone or beside a slower rival, half
    beside one as fast, none beside a faster one or with two rivals or more (it moves on)."""
    landing = [(rival.chance_of(end - rival.position), end - rival.position) for rival in rivals
               if end > rival.position]
    landing = [(chance, theirs) for chance, theirs in landing if chance]
    alone = 1.0
    for chance, _ in landing:
        alone *= 1 - chance
    share = alone
    for chance, theirs in landing:
        if theirs <= card:  # a rival's banner is never in ``landing``: it leaves the rival a chance below 1
            share += alone / (1 - chance) * chance * (1.0 if theirs < card else 0.5)
    return share


def prospects(position: int, hand: frozenset[int], me: Seat, *, money: float) -> float:
    """What standing on ``position`` with ``hand`` is worth for the rounds to come: stranded (no card
    it may lay, away from a station) costs the distance to the end at once; a hand that can reach the
    end exactly is worth most; one that can reach a station (or stands on one) must stop to draw
    back; one that can do neither is likely stranded later, at the furthest it can get."""
    room = me.finish - position
    if room == 0:
        return 0.0
    if position not in me.stations and not any(card <= room for card in hand):
        return -min(room, max(money, 0.0))
    sums = subset_sums(hand)
    later = OBJECTIVE_WITHIN_REACH * sum(bonus for space, bonus in me.bonuses.items()
                                         if space > position and sums >> (space - position) & 1)
    later -= max(0, room - sum(hand)) * SHORTFALL
    if sums >> room & 1:
        return FINISH_WITHIN_REACH + later
    if position in me.stations or any(sums >> (s - position) & 1 for s in me.stations if s > position):
        return -STATION_NEEDED + later
    furthest = max(total for total in range(room + 1) if sums >> total & 1)
    return -STRANDING_RISK * min(room - furthest, max(money, 0.0)) + later


def subset_sums(hand: frozenset[int]) -> int:
    """Every total some of ``hand``'s cards make, as the bits of one number (bit ``n``: total ``n``)."""
    sums = 1
    for card in hand:
        sums |= sums << card
    return sums
