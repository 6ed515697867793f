"""Variant B, Stocks: nobody owns a car; everyone holds secret stocks in all six.

What changes from the base game (rulebook section "Variant B: Stocks"):

* **No car auction, no owners.** At the start of each race every player holds
  :data:`START_STOCKS` stocks of each car, 30 in all. Holdings are secret:
  :meth:`StocksGame.view` shows a seat only its own (``snapshot()`` is the full
  state and has them all, like the action log).
* **The deal** (table :data:`DEAL`): the three Sprint/Breakdown cards always lie
  face up in the offer row; the other 45 cards are shuffled, each player gets
  their share, and the offer row is filled up to its size from the rest. With 5
  players 3 cards are left out. Notation: ``deal 1,2/3,4 offer 46,47,48,9``.
* **The offer auctions** sell the offer row and the seating order. They run as in
  the base game (the opener must bid at least 10,000 and may not pass, bids go
  up in 10,000s, a player who passes is out of that auction, the winner pays the
  bank). The winner takes a card of their choice from the row into their hand
  (:class:`~toprace_pi.games.toprace.rules.actions.TakeOffer`, ``pick 46``) and takes the next
  place in the turn order: the first winner starts the race, the second plays
  after them, and so on. A player who has won bids no more; the last player
  left gets the last card for free. With two players both keep bidding until one
  has taken two cards, and the other gets the rest for free.
* **The grid**: the cars go on starting spaces 1-6 in a random order, a chance
  action (:class:`~toprace_pi.games.toprace.rules.actions.Grid`, ``grid blue,red,...``: car
  ``i`` on space ``i + 1``; :meth:`StocksGame.grid` draws one).
* **Race rounds and stock rounds alternate.** When every player has had a turn,
  each player sells two stocks and buys two
  (:class:`~toprace_pi.games.toprace.rules.actions.Trade`, ``trade sell red,blue buy
  green,green``); no money changes hands. A player keeps 0-15 stocks of each car
  and 30 in all. Once the first car has crossed the finish line there are no
  more stock rounds.
* **Everyone races to the end** and must play a card every turn (no passing).
  The race ends as in the base game: at the 5th finish, or when all cards are
  played.
* **Settlement**: each stock pays the prize of its car's place; the money left
  after the auction stays. Most money wins; ties go to more stocks of the car
  placed 1st, then 2nd, and so on; identical holdings go to the player whose turn
  comes latest in the seating order (:meth:`StocksGame.ranking`).

Interpretations (the rulebook leaves these open; decided here):

- The table's "offer row" column counts the whole row, Sprint/Breakdown cards
  included (2 players: 2 x 22 + 4 = 48 cards; 3 players: only the three
  Sprint/Breakdown cards).
- The engine's seats keep their numbers and names; the race's turn order is
  :attr:`StocksGame.order`. The rulebook has each winner move to the seat after
  the earlier winners, so the player to the left of the latest winner, who must
  open the next auction, is the first player without a win clockwise from the
  starting player (with two players: simply the other player).
- Cards handed out for free need no decision: they go to the player's hand at
  once (event :class:`~toprace_pi.games.toprace.rules.events.OfferCardTaken` with ``free``).
- A stock round follows each complete round of turns, in the seating order,
  unless a car has finished or the race is over (all cards played). The trades
  are entered one player at a time in seating order; they are secret and
  simultaneous at the table, and each player (and bot) sees only their own
  holdings, so the order changes nothing.
- A stock must be held to be sold: the sales are made first (the markers go
  back), then the purchases (the markers go forward), so a player with no Red
  stock cannot "sell one Red and buy it back". After the purchases no car may
  exceed 15.
- A broken-down car has no owner to put it back on the track: the player whose
  card made its chaser catch up (the player whose turn it is) chooses the space.
- The tie-break always names one winner (``winners()`` has one seat, unlike the
  base game). Since everyone holds 30 stocks, once the 1st-5th cars are equal the
  6th is too. In a match of several races every race starts again with 5 stocks
  of each car, and the tie-break looks at the last race.
- The rulebook's settlement example prints 60,000 for one Green stock in 6th place
  (10,000 a stock), and so totals 3,550,000 and 3,690,000; by the rule it pays
  10,000, i.e. 3,500,000 and 3,640,000 (see ``tests/games/toprace/test_stocks.py``).
- At a real table with hidden hands the offer row still lies face up and must be
  named (``deal hidden offer 46,47,48,9``); a card taken from the row is then known
  to be in that player's hand: no one else may play it, and once that player has
  no other cards left, they must play those.
- Stocks with Pit Stop uses the table :data:`PITSTOP_DEAL` (the Sprint/Breakdown
  cards stay in the offer row); the combination is
  :mod:`toprace_pi.games.toprace.rules.variants.pitstop_stocks` (``"pitstop+stocks"``).
- The seating order is given to the base game through its ``turn_order`` hook
  and the stock round through its ``_round_over`` hook, so variants that also
  change the turn (the Pit Stop rule) combine through ``super()``.
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations_with_replacement
from typing import Any

from toprace_pi.core.game import ChanceOutcomes, nth_permutation
from toprace_pi.errors import IllegalActionError
from toprace_pi.games.toprace.rules.actions import (
    Action,
    Deal,
    PlayCard,
    car_list,
    one_argument,
    register_notation,
    whole_number,
)
from toprace_pi.games.toprace.rules.auction import Auction
from toprace_pi.games.toprace.rules.cards import SprintBreakdownCard
from toprace_pi.games.toprace.rules.cars import EDITION_CARS, Car, CarSet
from toprace_pi.games.toprace.rules.events import (
    PRIZES,
    TRADE_SIZE,
    AuctionWon,
    GridSet,
    OfferCardTaken,
    SeatingOrder,
    StockRound,
    StocksPaid,
    StocksTraded,
)
from toprace_pi.games.toprace.rules.game import CHANCE_SEAT, Phase, TopRace, handles, legal
from toprace_pi.games.toprace.rules.hands import KnownCards

#: Stocks: cards per player and the size of the offer row (the three
#: Sprint/Breakdown cards included), by number of players.
DEAL = {2: (22, 4), 3: (15, 3), 4: (11, 4), 5: (8, 5), 6: (7, 6)}
#: Stocks with the Pit Stop rule: cards per player, offer row (Sprint/Breakdown
#: cards included, always), and box, by number of players.
PITSTOP_DEAL = {2: (19, 4, 6), 3: (13, 3, 6), 4: (9, 4, 8), 5: (7, 5, 8), 6: (6, 6, 6)}
START_STOCKS = 5
MAX_STOCKS = 15
TOTAL_STOCKS = EDITION_CARS * START_STOCKS
#: With two players, the offer auctions end once one player has taken this many cards.
TWO_PLAYER_CARDS = 2

#: The winner of an offer auction takes a card of the offer row.
TAKE_OFFER = Phase("TAKE_OFFER", "take a card from the offer row")
#: Chance: the cars go on the starting spaces in a random order.
GRID = Phase("GRID", "draw the starting grid")
#: A stock round: each player in turn sells and buys stocks.
TRADE = Phase("TRADE", f"sell {TRADE_SIZE} stocks and buy {TRADE_SIZE}")


@dataclass(frozen=True, slots=True)
class TakeOffer(Action):
    """Stocks variant: the winner of an offer auction takes this card of the offer row."""

    number: int

    def __str__(self) -> str:
        return f"pick {self.number}"


@dataclass(frozen=True, slots=True)
class Grid(Action):
    """Chance (Stocks variant): the starting grid; ``cars[i]`` goes on starting space ``i + 1``."""

    cars: tuple[Car, ...]

    def __str__(self) -> str:
        return "grid " + ",".join(car.id for car in self.cars)


@dataclass(frozen=True, slots=True)
class Trade(Action):
    """Stocks variant: in a stock round, the stocks a player sells and buys (two each).

    A car may appear twice, and in both lists. The lists are kept sorted, so
    ``Trade((RED, BLUE), ...) == Trade((BLUE, RED), ...)``.
    """

    sell: tuple[Car, ...]
    buy: tuple[Car, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "sell", tuple(sorted(self.sell)))
        object.__setattr__(self, "buy", tuple(sorted(self.buy)))

    def __str__(self) -> str:
        sell = ",".join(car.id for car in self.sell)
        buy = ",".join(car.id for car in self.buy)
        return f"trade sell {sell} buy {buy}"


def trade(holdings: list[int], action: Trade, name: str = "the player") -> list[int]:
    """The holdings (indexed by car) after ``action``, or :class:`IllegalActionError`."""
    if len(action.sell) != TRADE_SIZE or len(action.buy) != TRADE_SIZE:
        raise IllegalActionError(
            f"in a stock round {name} sells exactly {TRADE_SIZE} stocks and buys exactly {TRADE_SIZE}, so the "
            f"total stays at {TOTAL_STOCKS}; not {len(action.sell)} sold and {len(action.buy)} bought")
    after = list(holdings)
    for car in sorted(set(action.sell + action.buy)):
        sold = action.sell.count(car)
        if sold > holdings[car]:
            held = f"only {holdings[car]}" if holdings[car] else "no"
            raise IllegalActionError(f"{name} holds {held} {car} stock{'s' * (holdings[car] != 1)} "
                                     f"and cannot sell {sold}")
        after[car] += action.buy.count(car) - sold
    for car in sorted(set(action.buy)):
        if after[car] > MAX_STOCKS:
            raise IllegalActionError(f"{name} would hold {after[car]} {car} stocks: at most {MAX_STOCKS} of a car")
    return after


def possible_trades(holdings: list[int], cars: CarSet) -> list[Trade]:
    """Every legal trade of ``cars`` for ``holdings``, in a fixed order: by the stocks sold,
    then by those bought, each pair in the order of :func:`itertools.combinations_with_replacement`."""
    return list(_trades_allowed(tuple(cars), tuple(map(_trade_limits, holdings))))


def _trade_limits(held: int) -> tuple[int, int]:
    """All that decides which trades a car's ``held`` stocks allow: how many of them may be
    sold, and how many may be bought before the car's limit, each counted up to TRADE_SIZE."""
    return min(held, TRADE_SIZE), max(-TRADE_SIZE, min(MAX_STOCKS - held, TRADE_SIZE))


@lru_cache(maxsize=256)
def _trades_allowed(cars: tuple[Car, ...], limits: tuple[tuple[int, int], ...]) -> tuple[Trade, ...]:
    """The trades that a player whose holdings have these ``limits`` (:func:`_trade_limits`,
    by car) may make: a stock round asks on every trade, and the same few limits come back."""

    def allowed(trade: Trade) -> bool:
        sold = trade.sell.count
        return (all(sold(car) <= limits[car][0] for car in trade.sell)
                and all(trade.buy.count(car) <= limits[car][1] + sold(car) for car in trade.buy))

    return tuple(filter(allowed, _every_trade(cars)))


@cache
def _every_trade(cars: tuple[Car, ...]) -> tuple[Trade, ...]:
    """Every pair of stocks sold with every pair bought (441 trades of six cars), made once an edition."""
    pairs = list(combinations_with_replacement(cars, TRADE_SIZE))
    return tuple(Trade(sell, buy) for sell in pairs for buy in pairs)


def stock_payout(holdings: list[int], placements: Sequence[Car]) -> int:
    """What the stocks pay: for each car, its stocks times the prize of its place."""
    return sum(PRIZES[place] * holdings[car] for place, car in enumerate(placements))


class OfferAuction(Auction):
    """The auctions of the offer row and the seating order.

    ``owned[seat]`` counts the offer cards each seat has won; ``winners`` lists
    the seats in the order they first won, which is the race's turn order.
    """

    def __init__(self, player_count: int, opener: int, cards: int) -> None:
        self.cards = cards
        self.winners: list[int] = []
        super().__init__(player_count, opener)

    @property
    def lots_left(self) -> int:
        """Offer cards not yet won."""
        return self.cards - sum(self.owned)

    def may_bid(self, seat: int) -> bool:
        """A winner bids no more; with two players both bid to the end."""
        return self.player_count == 2 or self.owned[seat] == 0

    def _begin(self, candidate: int) -> None:
        self.high = 0
        self.leader = None
        self.winner = None
        self.forced = False
        self.opener = self.to_act = candidate
        self.bidding = [self.may_bid(s) for s in range(self.player_count)]

    def check_sale(self, seat: int, price: int, money: Sequence[int], name: str) -> None:
        if 0 <= seat < self.player_count and not self.may_bid(seat):
            raise IllegalActionError(f"{name} has already won an offer card and bids no more")
        super().check_sale(seat, price, money, name)

    def lot_taken(self) -> None:
        """The winner has taken an offer card: record it and open the next auction, if any."""
        winner = self._record_win()
        if winner not in self.winners:
            self.winners.append(winner)
        if not self.done:
            self._begin(self._next_opener(winner))

    def _next_opener(self, winner: int) -> int:
        """The player to the left of the latest winner once the winners sit in
        order after the starting player: the first without a win clockwise
        from the starting player (two players: the other one)."""
        if self.player_count == 2:
            return 1 - winner
        assert self.first_winner is not None
        return next(s for s in self._clockwise(self.first_winner) if self.owned[s] == 0)

    @property
    def done(self) -> bool:
        if self.player_count == 2:
            return max(self.owned) >= TWO_PLAYER_CARDS
        return len(self.winners) == self.player_count - 1

    def seating(self) -> list[int]:
        """The turn order for the race: the winners in order, then the others clockwise."""
        assert self.first_winner is not None
        return self.winners + [s for s in self._clockwise(self.first_winner) if s not in self.winners]

    def receiver(self) -> int:
        """The player who gets the cards left over for free."""
        return min(range(self.player_count), key=lambda s: (self.owned[s], s))


class StocksGame(TopRace):
    """Top Race with Variant B."""

    VARIANT = "stocks"

    def _begin_race(self) -> None:
        super()._begin_race()
        #: Per seat, stocks held per car (indexed by the car).
        self.stocks: list[list[int]] = [[START_STOCKS] * len(self.cars) for _ in range(self.player_count)]
        #: The cards still in the offer row.
        self.offer: list[int] = []
        #: The offer cards each seat took and has not played yet.
        self.known = KnownCards(self.player_count)
        self.left_out: tuple[int, ...] = ()
        #: The race's turn order, the starting player first (see :meth:`turn_order`).
        self.order: list[int] = list(range(self.player_count))
        self.stock_rounds = 0
        self._trading: list[int] = []

    # --- dealing ---------------------------------------------------------------

    def cards_per_player(self) -> int:
        return DEAL[self.player_count][0]

    def offer_size(self) -> int:
        return DEAL[self.player_count][1]

    def offer_fixed(self) -> list[int]:
        """The Sprint/Breakdown cards: they always lie in the offer row."""
        return [card.number for card in self.deck.cards if isinstance(card, SprintBreakdownCard)]

    def _check_deal(self, action: Deal) -> None:
        if action.hands is None and not action.offer:
            raise IllegalActionError("the offer row lies face up: name its cards (deal hidden offer CARDS)")
        super()._check_deal(action)
        unknown = [n for n in action.offer if n not in self.deck]
        if unknown:
            raise IllegalActionError(f"there is no speed card #{unknown[0]} in this deck")
        if len(set(action.offer)) != len(action.offer) or set(action.offer) & set(action.left_out):
            raise IllegalActionError("a deal must lay out every card of the offer row once")
        missing = [n for n in self.offer_fixed() if n not in action.offer]
        if missing:
            raise IllegalActionError(f"the Sprint/Breakdown cards always lie in the offer row; "
                                     f"{self.deck[missing[0]]} is missing")

    def _apply_deal(self, action: Deal) -> None:
        self.offer = sorted(action.offer)
        self.left_out = action.left_out
        super()._apply_deal(action)

    # --- the offer auctions ----------------------------------------------------

    def _new_auction(self, opener: int) -> Auction:
        return OfferAuction(self.player_count, opener, self.offer_size())

    def _auction_won(self) -> None:
        auction = self.auction
        assert auction is not None and auction.winner is not None
        self._pay_bank(auction.winner, auction.high)
        self.events.append(AuctionWon(auction.winner, auction.high, False))
        self.phase, self.to_move = TAKE_OFFER, auction.winner

    def _check_take_offer(self, action: TakeOffer) -> None:
        if action.number not in self.offer:
            row = ", ".join(f"#{n}" for n in self.offer)
            raise IllegalActionError(f"speed card #{action.number} is not in the offer row ({row})")

    @handles(TAKE_OFFER, TakeOffer, check="_check_take_offer")
    def _apply_take_offer(self, action: TakeOffer) -> None:
        assert self.auction is not None
        self._give(self.seat, action.number, free=False)
        self.auction.lot_taken()
        self._next_auction_step()

    def _give(self, seat: int, number: int, *, free: bool) -> None:
        self.offer.remove(number)
        if self.hands is not None:
            bisect.insort(self.hands[seat], number)
        self.known.add(seat, number)
        self.hand_size[seat] += 1
        self.events.append(OfferCardTaken(seat, str(self.deck[number]), free))

    def _start_race(self) -> None:
        """The auctions are over: the leftover card(s) go free, the seats are
        fixed, and the grid is drawn next."""
        auction = self.auction
        assert isinstance(auction, OfferAuction)
        receiver = auction.receiver()
        for number in list(self.offer):
            self._give(receiver, number, free=True)
        self.order = auction.seating()
        self.starter = self.turn = self.order[0]
        self.events.append(SeatingOrder(tuple(self.order)))
        self.phase, self.to_move = GRID, CHANCE_SEAT

    # --- the starting grid -------------------------------------------------------

    def chance_outcomes(self) -> ChanceOutcomes[Action]:
        """At the grid: every order of the car cards turned up, one for each starting space."""
        if self.phase is GRID:
            cars = list(self.cars)
            return ChanceOutcomes(math.factorial(len(cars)), lambda i: Grid(tuple(nth_permutation(cars, i))))
        return super().chance_outcomes()

    def chance(self, rng: random.Random) -> Action:
        if self.phase is GRID:
            return self.grid(rng)
        return super().chance(rng)

    def grid(self, rng: random.Random) -> Grid:
        """The chance action for the starting grid, shuffled with ``rng`` (not applied)."""
        cars = list(self.cars)
        rng.shuffle(cars)
        return Grid(tuple(cars))

    def _check_grid(self, action: Grid) -> None:
        if sorted(action.cars) != sorted(self.cars):
            raise IllegalActionError(f"the starting grid puts each of the {len(self.cars)} cars on one starting space")

    @handles(GRID, Grid, check="_check_grid")
    def _apply_grid(self, action: Grid) -> None:
        for start, car in enumerate(action.cars, 1):
            self.board.place(car, self.track.starting_spaces[start])
        self.events.append(GridSet(action.cars))
        self._begin_turn()

    # --- turns and rounds --------------------------------------------------------

    def takes_part(self, seat: int) -> bool:
        """Nobody owns a car: everyone plays while they hold speed cards."""
        return self.hand_size[seat] > 0

    def turn_order(self) -> list[int]:
        """The seating order the offer auctions decided (the base game's turns,
        skipping and the end of the race then follow it)."""
        return self.order

    def _round_over(self) -> bool:
        """Every player has had a turn: open a stock round if one is due."""
        if not self._stock_round_due():
            return False
        self.stock_rounds += 1
        self.events.append(StockRound(self.stock_rounds))
        self._trading = list(self.order)
        self.phase, self.to_move = TRADE, self._trading[0]
        return True

    def _stock_round_due(self) -> bool:
        """Until the first car finishes, and while the race goes on."""
        return not self.board.finished and any(self.takes_part(s) for s in range(self.player_count))

    def playable_cards(self) -> list[int]:
        cards = super().playable_cards()
        if self.hands is not None:
            return cards
        known = self.known.of(self.turn)
        if self.hand_size[self.turn] <= len(known):
            return known
        elsewhere = self._not_in_hand(self.turn)
        return [n for n in cards if n not in elsewhere]

    def _check_play(self, action: PlayCard) -> None:
        super()._check_play(action)
        if self.hands is not None:
            return
        name, card = self.names[self.turn], self.deck[action.number]
        if action.number in self._not_in_hand(self.turn):
            raise IllegalActionError(f"{name} does not hold speed card {card}")
        known = self.known.of(self.turn)
        if action.number not in known and self.hand_size[self.turn] <= len(known):
            taken = ", ".join(f"#{n}" for n in known)
            raise IllegalActionError(f"{name}'s last cards are those taken from the offer row ({taken}), not {card}")

    def _apply_play(self, action: PlayCard) -> None:
        self.known.played(self.turn, action.number)
        super()._apply_play(action)

    def _not_in_hand(self, seat: int) -> set[int]:
        """Hidden hands: cards known not to be in ``seat``'s hand."""
        return self.known.elsewhere(seat) | set(self.offer) | set(self.left_out)

    # --- stock rounds ----------------------------------------------------------------

    def _check_trade(self, action: Trade) -> None:
        trade(self.stocks[self.seat], action, self.current_name)

    @handles(TRADE, Trade, check="_check_trade")
    def _apply_trade(self, action: Trade) -> None:
        seat = self._trading.pop(0)
        self.stocks[seat] = trade(self.stocks[seat], action, self.names[seat])
        self.events.append(StocksTraded(seat))
        if self._trading:
            self.to_move = self._trading[0]
        else:
            self._begin_turn()

    def trade_choices(self) -> list[Trade]:
        return possible_trades(self.stocks[self.seat], self.cars)

    @legal(TRADE)
    def _legal_trades(self) -> list[Action]:
        return list(self.trade_choices())

    @legal(TAKE_OFFER)
    def _legal_offer(self) -> list[Action]:
        return [TakeOffer(n) for n in self.offer]

    def backed_cars(self, seat: int) -> frozenset[Car]:
        """The cars ``seat`` holds at least the starting number of stocks of (for bots)."""
        return frozenset(car for car in self.cars if self.stocks[seat][car] >= START_STOCKS)

    # --- the end -------------------------------------------------------------------------

    def _settle(self, placements: tuple[Car, ...]) -> None:
        """Every stock pays the prize of its car's place."""
        for seat in range(self.player_count):
            amount = stock_payout(self.stocks[seat], placements)
            self._pay_player(seat, amount)
            holdings = tuple((car, self.stocks[seat][car]) for car in placements)
            self.events.append(StocksPaid(seat, holdings, amount, self.money[seat]))

    def ranking(self) -> list[int]:
        """The seats from first to last: most money; then more stocks of the car
        placed 1st, 2nd, ... (last race); then the later turn in the seating order."""
        placements = self.results[-1].placements if self.results else ()

        def key(seat: int) -> tuple[int, ...]:
            return (self.money[seat], *(self.stocks[seat][car] for car in placements), self.order.index(seat))

        return sorted(range(self.player_count), key=key, reverse=True)

    def winners(self) -> list[int]:
        """The one winner: ties are broken by :meth:`ranking`."""
        return self.ranking()[:1]

    # --- worlds for a search bot ---------------------------------------------------------

    def placed_cards(self, seat: int | None) -> set[int]:
        """Also the offer row."""
        return super().placed_cards(seat) | set(self.offer)

    def known_in_hand(self, seat: int) -> list[int]:
        """The cards ``seat`` took from the offer row and has not played yet."""
        return sorted(set(super().known_in_hand(seat)) | set(self.known.of(seat)))

    def set_left_out(self, cards: list[int]) -> None:
        self.left_out = tuple(sorted(cards))

    def redraw_secrets(self, seat: int | None, rng: random.Random | None) -> None:
        """Also the other seats' stocks: from the start, as many random trades as each has made
        (stand-ins: the holdings of the start)."""
        super().redraw_secrets(seat, rng)
        for other in range(self.player_count):
            if other != seat:
                self.stocks[other] = self._redrawn_stocks(other, rng)

    def _redrawn_stocks(self, seat: int, rng: random.Random | None) -> list[int]:
        holdings = [START_STOCKS] * len(self.cars)
        if rng is not None:
            for _ in range(self.trades_made(seat)):
                holdings = _random_trade(holdings, self.cars, rng)
        return holdings

    def trades_made(self, seat: int) -> int:
        """How many trades ``seat`` has made this race (everyone sees who has traded)."""
        return self.stock_rounds - (self.phase is TRADE and seat in self._trading)

    # --- state -------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The full state, every seat's holdings included."""
        snap = super().snapshot()
        snap["stocks"] = [{car.id: held[car] for car in self.cars} for held in self.stocks]
        snap["offer"] = list(self.offer)
        snap["order"] = list(self.order)
        snap["stock_rounds"] = self.stock_rounds
        return snap

    SEAT_SECRETS = TopRace.SEAT_SECRETS | {"stocks"}

    def secrets(self, seat: int) -> dict[str, Any]:
        """A seat's own stocks are its secret (the table never says them)."""
        return {**super().secrets(seat), "my_stocks": {car.id: self.stocks[seat][car] for car in self.cars}}


def _random_trade(holdings: list[int], cars: CarSet, rng: random.Random) -> list[int]:
    """``holdings`` after a trade drawn at random among the legal ones."""
    while True:
        held = [car for car in cars for _ in range(holdings[car])]
        action = Trade(tuple(rng.sample(held, TRADE_SIZE)), tuple(rng.choices(list(cars), k=TRADE_SIZE)))
        try:
            return trade(holdings, action)
        except IllegalActionError:
            continue


def _grid(args: list[str], cars: CarSet) -> Grid:
    """``grid CAR,CAR,...``: the cars on starting spaces 1, 2, ..."""
    if len(args) != 1:
        raise ValueError("expected 'grid CAR,CAR,...' (the cars on starting spaces 1 to 6)")
    return Grid(car_list(args[0], cars))


def _trade(args: list[str], cars: CarSet) -> Trade:
    """``trade sell CAR,CAR buy CAR,CAR``."""
    if len(args) != 4 or args[0] != "sell" or args[2] != "buy":
        raise ValueError("expected 'trade sell CAR,CAR buy CAR,CAR'")
    return Trade(car_list(args[1], cars), car_list(args[3], cars))


register_notation("pick", one_argument(TakeOffer, whole_number))
register_notation("grid", _grid)
register_notation("trade", _trade)
