"""A simple greedy bot: helps its own cars, hinders the others, bids on its hand.

It looks one decision ahead and no further, which makes it fast and a fair
sparring partner for tests and the demo.
"""

from __future__ import annotations

import random
from functools import lru_cache

from toprace_pi.games.toprace.rules.actions import (
    Action,
    Breakdown,
    Pass,
    PlaceCar,
    ReturnCar,
    Sprint,
    TakeCar,
    bid_action,
    joker_action,
    move_action,
    play_action,
)
from toprace_pi.games.toprace.rules.auction import STEP
from toprace_pi.games.toprace.rules.cards import Deck, MovementCard, SprintBreakdownCard
from toprace_pi.games.toprace.rules.cars import Car
from toprace_pi.games.toprace.rules.events import TRADE_SIZE
from toprace_pi.games.toprace.rules.game import Phase, TopRace
from toprace_pi.games.toprace.rules.track import FINISH
from toprace_pi.games.toprace.rules.variants.pitstop import (
    PIT_STOP_CLAIM,
    ClaimPitStop,
    CollectPitStop,
    PitStopGame,
    TakeFromBox,
    TakeFromDiscard,
)
from toprace_pi.games.toprace.rules.variants.stocks import (
    MAX_STOCKS,
    START_STOCKS,
    TAKE_OFFER,
    TRADE,
    StocksGame,
    TakeOffer,
    Trade,
)
from toprace_pi.games.toprace.rules.variants.tips import TIP, Tip

#: How much one movement point in hand is worth when bidding for a car.
POINT_VALUE = 2_500
#: The bot never bids more than this share of its money.
MAX_SHARE = 0.6


class GreedyBot:
    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self._points: tuple[object, dict[Car, int]] | None = None

    def __repr__(self) -> str:
        return "GreedyBot()"

    def choose(self, game: TopRace) -> Action:
        return _DECIDE[game.phase](self, game)

    # --- auction ----------------------------------------------------------------

    def tip(self, game: TopRace) -> Car:
        """Back the car leading now (Tips variant)."""
        return game.board.standings()[0]

    def _bid(self, game: TopRace) -> Action:
        seat = game.seat
        assert game.auction is not None
        amounts = game.auction.bid_range(game.money)
        if not game.auction.may_pass():
            return bid_action(amounts[0])
        limit = min(self._car_worth(game, seat), int(game.money[seat] * MAX_SHARE))
        if amounts and amounts[0] <= limit:
            return bid_action(amounts[0])
        return Pass()

    def _car_worth(self, game: TopRace, seat: int) -> int:
        points = self._hand_points(game, seat)
        best = max((points[c] for c in game.cars_for_sale()), default=0)
        return best * POINT_VALUE + self.rng.randrange(0, 2 * STEP, STEP)

    def _take(self, game: TopRace) -> Action:
        points = self._hand_points(game, game.seat)
        return TakeCar(max(game.cars_for_sale(), key=lambda c: points[c]))

    def _place(self, game: TopRace) -> Action:
        starts = game.track.starting_spaces
        return PlaceCar(max(game.free_starting_spaces(), key=lambda n: game.track.rank_key(starts[n])))

    def _hand_points(self, game: TopRace, seat: int) -> dict[Car, int]:
        """Movement points per car in the seat's hand; the hand does not change
        during the auctions, so this is counted once per race."""
        hands = game.hands
        hand = hands[seat] if hands else None
        key = (game.race, seat, tuple(hand) if hand is not None else None)
        if self._points is None or self._points[0] != key:
            self._points = (key, self._count_points(game, seat))
        return self._points[1]

    @staticmethod
    def _count_points(game: TopRace, seat: int) -> dict[Car, int]:
        points = dict.fromkeys(game.cars, 0)
        for number in game.hands[seat] if game.hands else ():
            card = game.deck[number]
            if isinstance(card, MovementCard):
                for car, value in card.moves:
                    if car is not None:
                        points[car] += value
        return points

    # --- race -------------------------------------------------------------------

    def _play(self, game: TopRace) -> Action:
        mine, racing = self._mine(game), frozenset(game.board.at)
        cards = game.playable_cards()
        if not cards:  # variants where a player without cards stays in the race
            return Pass()
        return play_action(max(cards, key=lambda n: _card_score(game.deck, n, mine, racing)))

    def _joker(self, game: TopRace) -> Action:
        mine = self._mine(game)
        choices = game.joker_choices()
        own = [c for c in choices if c in mine and game.board.is_racing(c)]
        if own:
            return joker_action(min(own, key=lambda c: game.track.rank_key(game.board.at[c])))
        wasted = [c for c in choices if not game.board.is_racing(c)]
        return joker_action(wasted[0] if wasted else self.rng.choice(choices))

    def _sprint_or_breakdown(self, game: TopRace) -> Action:
        card = game.card
        assert isinstance(card, SprintBreakdownCard)
        a, b = card.pair
        front = a if game.board.ahead(a, b) else b
        rear = b if front is a else a
        mine = self._mine(game)
        return Sprint() if rear in mine or front in mine else Breakdown()

    def _move(self, game: TopRace) -> Action:
        """Its own car as far ahead as it can go (across the line if it can); a
        rival's car on the track, as far back and outside as the rules allow."""
        assert game.moving is not None
        car, ends = game.moving.car, game.moving.ends
        if len(ends) > 1:
            if car in self._mine(game):
                best = FINISH if FINISH in ends else max(ends, key=game.track.rank_key)
            else:
                best = min((e for e in ends if e != FINISH), key=game.track.rank_key)
        else:
            best = ends[0]
        return move_action(car, game.track.space_id(best))

    def _return(self, game: TopRace) -> Action:
        assert game.returning is not None
        car, spaces = game.returning
        return ReturnCar(car, game.track.space_id(max(spaces, key=game.track.rank_key)))

    @staticmethod
    def _mine(game: TopRace) -> frozenset[Car]:
        """The cars the bot races for: its own, or in Stocks the cars it backs."""
        if isinstance(game, StocksGame):
            return game.backed_cars(game.seat)
        return game.cars_of(game.seat)


@lru_cache(maxsize=1 << 12)
def _card_score(deck: Deck, number: int, mine: frozenset[Car], racing: frozenset[Car]) -> float:
    """What card ``number`` is worth to the cars ``mine`` while those ``racing`` are on the track.
    Remembered: the same cards are scored again and again (each pit stop claim, each turn's offers)."""
    card = deck[number]
    if isinstance(card, SprintBreakdownCard):
        return 3.0 if mine & set(card.pair) and set(card.pair) <= racing else -1.0
    score = 0.0
    for car, value in card.moves:
        if car is None:
            score += value if mine & racing else 0.0
        elif car in racing:
            score += value if car in mine else -0.6 * value
    return score


def _tip(bot: GreedyBot, game: TopRace) -> Action:
    return Tip(bot.tip(game))


#: Pit Stop rule: claim a card that scores at least this much for the bot's cars...
CLAIM_SCORE = 5.0
#: ... take a card at the start of a turn when holding no more speed cards than this...
FEW_CARDS = 1
#: ... or when the card scores this much more than the best card in hand.
PIT_MARGIN = 4.0


def _turn(bot: GreedyBot, game: TopRace) -> Action:
    """Play the best card; with pit stops, first collect a claimed card or make a
    pit stop when it is worth a turn."""
    if isinstance(game, PitStopGame):
        pit_stop = _pit_stop(game)
        if pit_stop is not None:
            return pit_stop
    return bot._play(game)


def _pit_stop(game: PitStopGame) -> Action | None:
    seat, mine, racing = game.seat, GreedyBot._mine(game), frozenset(game.board.at)

    def score(number: int) -> float:
        return _card_score(game.deck, number, mine, racing)

    if game.pit_waiting[seat]:
        return CollectPitStop(max(game.pit_waiting[seat], key=score))
    if not game.free_pit_stops(seat):
        return None
    offers: list[tuple[float, Action]] = [(score(n), TakeFromBox(n)) for n in game.box]
    if game.discard:
        offers.append((score(game.discard[-1]), TakeFromDiscard()))
    if not offers:
        return None
    best_offer, action = max(offers, key=lambda offer: offer[0])
    best_hand = max((score(n) for n in game.playable_cards()), default=None)
    if best_hand is None or game.hand_size[seat] <= FEW_CARDS:
        return action if best_offer > 0 else None
    return action if best_offer >= best_hand + PIT_MARGIN else None


def _claim(bot: GreedyBot, game: TopRace) -> Action:
    """Claim the card just played when it is good for the bot's own cars (with
    Stocks: the cars it backs)."""
    assert isinstance(game, PitStopGame)
    mine, racing = GreedyBot._mine(game), frozenset(game.board.at)
    return ClaimPitStop() if _card_score(game.deck, game.claim_card, mine, racing) >= CLAIM_SCORE else Pass()


#: Stocks variant: what a Sprint/Breakdown card in the offer row is worth, in movement points.
SPRINT_BREAKDOWN_POINTS = 10


def _offer_worth(game: StocksGame, number: int) -> float:
    """What an offer card adds to the bot's hand, in movement points: each car's
    points weighted by the bot's stocks in it (a joker counts in full)."""
    card = game.deck[number]
    if isinstance(card, SprintBreakdownCard):
        return SPRINT_BREAKDOWN_POINTS
    held = game.stocks[game.seat]
    return sum(value if car is None else value * held[car] / START_STOCKS for car, value in card.moves)


def _bid(bot: GreedyBot, game: TopRace) -> Action:
    """Stocks: bid up to what the best card of the offer row is worth to the bot."""
    if not isinstance(game, StocksGame):
        return bot._bid(game)
    assert game.auction is not None
    seat, amounts = game.seat, game.auction.bid_range(game.money)
    if not game.auction.may_pass():
        return bid_action(amounts[0])
    best = max((_offer_worth(game, n) for n in game.offer), default=0.0)
    worth = int(best * POINT_VALUE) + bot.rng.randrange(0, 2 * STEP, STEP)
    limit = min(worth, int(game.money[seat] * MAX_SHARE))
    return bid_action(amounts[0]) if amounts and amounts[0] <= limit else Pass()


def _take_offer(bot: GreedyBot, game: TopRace) -> Action:
    assert isinstance(game, StocksGame)
    return TakeOffer(max(game.offer, key=lambda n: _offer_worth(game, n)))


def _trade(bot: GreedyBot, game: TopRace) -> Action:
    """Stocks: sell one stock each of the two rearmost cars it holds, buy the leader's
    (the next car's once the leader's are at the limit)."""
    assert isinstance(game, StocksGame)
    standings = game.board.standings()
    left = list(game.stocks[game.seat])
    sell: list[Car] = []
    for already in range(TRADE_SIZE):  # a second stock of a car only if too few cars are held
        for car in reversed(standings):
            if len(sell) < TRADE_SIZE and left[car] > 0 and sell.count(car) == already:
                sell.append(car)
                left[car] -= 1
    buy: list[Car] = []
    for car in standings:
        while len(buy) < TRADE_SIZE and left[car] < MAX_STOCKS:
            buy.append(car)
            left[car] += 1
    action = Trade(tuple(sell), tuple(buy))
    return action if game.is_legal(action) else game.legal_actions()[0]


_DECIDE = {
    Phase.BID: _bid,
    Phase.TAKE_CAR: GreedyBot._take,
    Phase.PLACE_CAR: GreedyBot._place,
    Phase.PLAY_CARD: _turn,
    Phase.CHOOSE_JOKER: GreedyBot._joker,
    Phase.SPRINT_OR_BREAKDOWN: GreedyBot._sprint_or_breakdown,
    Phase.MOVE_CAR: GreedyBot._move,
    Phase.RETURN_CAR: GreedyBot._return,
    TIP: _tip,
    PIT_STOP_CLAIM: _claim,
    TAKE_OFFER: _take_offer,
    TRADE: _trade,
}
