"""A push-your-luck bot, from its seat's view alone: it draws while a card's expected points
outweigh what a pair would cost, counting the cards its deck can still hold.

Its deck holds what the player races with (``composition``, known to all) less its row, its
discard pile, its damage row and a card kept apart; the order is unknown, so each card left is
as likely as any. A draw pairs when it is a trouble of a kind already in the row (in chaotic
weather a Tire trouble counts as an Off Track). A pair costs the row's points, and more for a
Drive Through (spaces back) or a Tire or Engine pair (a point a round until the next pit stop).
It pits before drawing on a short deck or a heavy damage row, and uses a card kept apart first.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from typing import Any

from toprace_pi.games.topspeed.rules import Action, parse_action
from toprace_pi.games.topspeed.rules.cards import DAMAGE, DRIVE_THROUGH_SPACES, TROUBLES, Kind

#: A pit stop before drawing once the deck is this short, or the damage row this long.
SHORT_DECK, HEAVY_DAMAGE = 10, 2
#: What a Tire or Engine pair costs beyond the row: a point a round for about this many rounds.
DAMAGE_ROUNDS = 3
#: A green card kept apart (KERS) from this many points up.
KEEP_FROM = 3
#: In the qualifying, a lap this fast is good enough: no more laps.
GOOD_LAP = 8


def _kind(word: str) -> Kind:
    return Kind.MOVEMENT if word.isdigit() else Kind(word)


def left_in_deck(view: dict[str, Any]) -> Counter[str]:
    """The cards the seat's deck can still hold, by word."""
    seat = view["seat"]
    seen: Iterable[str | None] = [*view["rows"][seat], *view["discards"][seat], *view["damage"][seat],
                                  view["my_kept"], view["my_drawn"]]
    left = Counter(view["composition"])
    left.subtract(word for word in seen if word is not None)
    return +left


class SensibleBot:
    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any]) -> Action:
        options: list[str] = view["my_options"]
        seat = view["seat"]
        words = {option.rsplit(" ", 1)[0]: option for option in options}
        if "keep" in words:
            drawn = view["my_drawn"]
            return parse_action(words["keep" if int(drawn) >= KEEP_FROM else "leave"])
        if "use kept" in words:
            return parse_action(words["use kept"])
        if "sit out" in words and view["qualifying_times"][seat] >= GOOD_LAP:
            return parse_action(words["sit out"])
        if "pit stop" in words and self._should_pit(view):
            return parse_action(words["pit stop"])
        if "draw" in words and ("pass" not in words or self._worth_a_draw(view)):
            return parse_action(words["draw"])
        return parse_action(words.get("pass") or options[0])

    @staticmethod
    def _should_pit(view: dict[str, Any]) -> bool:
        seat = view["seat"]
        return view["deck_sizes"][seat] < SHORT_DECK or len(view["damage"][seat]) >= HEAVY_DAMAGE

    @staticmethod
    def _worth_a_draw(view: dict[str, Any]) -> bool:
        """The expected points of one more card against the chance of a pair times its cost."""
        seat = view["seat"]
        left = left_in_deck(view)
        total = sum(left.values())
        if not total:
            return False
        chaotic = view["chaotic_weather"]

        def acts(kind: Kind) -> Kind:
            return Kind.OFF_TRACK if chaotic and kind is Kind.TIRE_TROUBLE else kind

        in_row = {acts(_kind(word)) for word in view["rows"][seat] if _kind(word) in TROUBLES}
        row_points = sum(int(word) for word in view["rows"][seat] if word.isdigit())
        gain = sum(int(word) * n for word, n in left.items() if word.isdigit()) / total
        risk = 0.0
        for word, copies in left.items():
            kind = _kind(word)
            if kind in TROUBLES and acts(kind) in in_row:
                cost = row_points + (DRIVE_THROUGH_SPACES if kind is Kind.DRIVE_THROUGH else 0)
                cost += DAMAGE_ROUNDS if acts(kind) in DAMAGE else 0
                risk += copies / total * cost
        return gain > risk
