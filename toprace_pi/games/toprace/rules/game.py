"""A whole game of Top Race: one state object that knows what may happen next.

:class:`TopRace` holds the settings, the money, the current race and the action log.
``game.to_move`` says whose decision it is (a seat, :data:`CHANCE_SEAT` for the deal,
``None`` once the game is over) and ``game.phase`` what kind of decision.
``game.legal_actions()`` lists what may be done and ``game.apply(action)`` does
one, or raises :class:`~toprace_pi.errors.IllegalActionError` with a message a
player understands and leaves the state exactly as it was.

The engine never draws random numbers itself: the deal is a chance action in
the log (:meth:`TopRace.deal`), so replaying the log rebuilds the game exactly.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from functools import cache
from typing import Any, ClassVar, Self, TypeVar, cast

from toprace_pi.core.clone import clone, shared
from toprace_pi.core.game import CHANCE, NOBODY, ChanceOutcomes, Decision, GameInfo, nth_combination
from toprace_pi.core.seat_view import SeatView
from toprace_pi.errors import IllegalActionError, SettingsError
from toprace_pi.games.toprace.rules.actions import (
    Action,
    Bid,
    Breakdown,
    ChooseJoker,
    Deal,
    MoveCar,
    Pass,
    PlaceCar,
    PlayCard,
    ReturnCar,
    Sold,
    Sprint,
    TakeCar,
    bid_action,
    joker_action,
    parse_action,
    play_action,
)
from toprace_pi.games.toprace.rules.auction import Auction
from toprace_pi.games.toprace.rules.board import Board
from toprace_pi.games.toprace.rules.cards import CARDS_PER_PLAYER, Deck, MovementCard, SprintBreakdownCard
from toprace_pi.games.toprace.rules.cars import Car
from toprace_pi.games.toprace.rules.events import (
    PRIZES,
    AuctionWon,
    BrokeDown,
    CarFinished,
    CarPlaced,
    CarReturned,
    Event,
    GameEnded,
    JokerChosen,
    RaceEnded,
    RaceStarted,
    car_moved,
    card_played,
    forfeited,
    made_once,
)
from toprace_pi.games.toprace.rules.track import Track

#: ``to_move`` (and the snapshot's) at a chance decision: the engine's own record. Outside the
#: engine, chance is said one way for every game: ``game.decision.chance`` (:data:`~toprace_pi.core.game.CHANCE`).
CHANCE_SEAT = -1
START_CAPITAL = 200_000
#: All banknotes of the box: 30x10k, 20x50k, 30x100k, 20x500k, 20x1M.
BANKNOTES_TOTAL = 30 * 10_000 + 20 * 50_000 + 30 * 100_000 + 20 * 500_000 + 20 * 1_000_000
FINISHES_TO_END = 5


@shared
class Phase:
    """The kind of decision the game waits for: a name and the words said to players.

    Phases are open so that the base game need not know its variants': the base
    game's are class attributes (``Phase.BID``), a variant defines its own as
    module constants (``TIP = Phase("TIP", "place a secret tip")`` in
    :mod:`~toprace_pi.games.toprace.rules.variants.tips`). Each phase is a singleton: it hashes
    by identity (dispatch looks phases up on every action), copies as itself, and
    its name is unique, so a pickled phase comes back as the same object.
    """

    __slots__ = ("name", "value")
    _by_name: ClassVar[dict[str, Phase]] = {}

    DEAL: ClassVar[Phase]
    BID: ClassVar[Phase]
    TAKE_CAR: ClassVar[Phase]
    PLACE_CAR: ClassVar[Phase]
    PLAY_CARD: ClassVar[Phase]
    CHOOSE_JOKER: ClassVar[Phase]
    SPRINT_OR_BREAKDOWN: ClassVar[Phase]
    MOVE_CAR: ClassVar[Phase]
    RETURN_CAR: ClassVar[Phase]
    GAME_OVER: ClassVar[Phase]

    name: str
    #: What the player to move must do, in words (``phase.value``, as the enum had).
    value: str

    def __init__(self, name: str, value: str) -> None:
        if name in Phase._by_name:
            raise ValueError(f"there is a phase {name} already")
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "value", value)
        Phase._by_name[name] = self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a phase cannot change")

    def __repr__(self) -> str:
        return f"<Phase {self.name}>"

    def __reduce__(self) -> tuple[Callable[[str], Phase], tuple[str]]:
        return Phase.named, (self.name,)

    def __copy__(self) -> Phase:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Phase:
        return self

    @staticmethod
    def named(name: str) -> Phase:
        """The phase called ``name`` (its variant's module must be imported)."""
        return Phase._by_name[name]


Phase.DEAL = Phase("DEAL", "deal the speed cards")
Phase.BID = Phase("BID", "bid or pass")
Phase.TAKE_CAR = Phase("TAKE_CAR", "take a car")
Phase.PLACE_CAR = Phase("PLACE_CAR", "put the car on a starting space")
Phase.PLAY_CARD = Phase("PLAY_CARD", "play a speed card")
Phase.CHOOSE_JOKER = Phase("CHOOSE_JOKER", "choose the car the joker moves")
Phase.SPRINT_OR_BREAKDOWN = Phase("SPRINT_OR_BREAKDOWN", "play the card as Sprint or Breakdown")
Phase.MOVE_CAR = Phase("MOVE_CAR", "choose where the car ends its move")
Phase.RETURN_CAR = Phase("RETURN_CAR", "put the broken-down car back on the track")
Phase.GAME_OVER = Phase("GAME_OVER", "nothing: the game is over")

_Method = TypeVar("_Method", bound=Callable[..., Any])
#: A check or an apply method, as the handler tables hold it (``TopRace`` is the first argument).
_Handler = Callable[[Any, Any], None]


def handles(phase: Phase, kind: type, *, check: str = "_no_check") -> Callable[[_Method], _Method]:
    """Declare the decorated method as what carries out actions of type ``kind`` in
    ``phase``, once the method named ``check`` has accepted them. The check raises
    :class:`IllegalActionError` and changes nothing (so ``is_legal`` can ask it);
    the default accepts every action of the type. Naming the check, and looking
    both up by name, lets a subclass override either without declaring again."""

    def mark(method: _Method) -> _Method:
        method.__dict__.setdefault("_handles", []).append((phase, kind, check))
        return method

    return mark


def legal(phase: Phase) -> Callable[[_Method], _Method]:
    """Declare the decorated method (``self -> list[Action]``) as the legal actions
    in ``phase``. A phase without one has none (a chance node, the game's end)."""

    def mark(method: _Method) -> _Method:
        method.__dict__.setdefault("_legal", []).append(phase)
        return method

    return mark


@dataclass(frozen=True)
class Settings:
    """What the players agreed before the game. Seats are in clockwise order."""

    players: tuple[str, ...]
    races: int = 1
    first_opener: int = 0
    track: str = "speed-street"
    deck: str = "standard"
    #: ``"base"`` or a variant's name (see :mod:`toprace_pi.games.toprace.rules.variants`).
    variant: str = "base"
    #: Tips variant at a real table: tips are entered when revealed at the race's end.
    tips_at_end: bool = False

    def __post_init__(self) -> None:
        if not 2 <= len(self.players) <= 6:
            raise SettingsError(f"Top Race is for 2 to 6 players, not {len(self.players)}")
        if len(set(self.players)) != len(self.players):
            raise SettingsError("every player needs a different name")
        if self.races < 1:
            raise SettingsError("a game has at least one race")
        if not 0 <= self.first_opener < len(self.players):
            raise SettingsError(f"no seat {self.first_opener} to open the first auction")


@dataclass(frozen=True, slots=True)
class PendingMove:
    """The car the player must move now, and where it may end.

    ``points`` is the card's value (``None`` for a sprint), ``steps`` how many of
    them the car can use, and ``ends`` the space indexes it may end on.
    """

    car: Car
    points: int | None
    steps: int | None
    ends: tuple[int, ...]


#: The pending moves, each made once while kept: one is an immutable value, as an event is.
pending_move = made_once(PendingMove)


class _MoveActions(dict[int, MoveCar]):
    """The moves of one car on one track by the index of the space they end on
    (:data:`~toprace_pi.games.toprace.rules.track.FINISH` for the finish), each made the first
    time it is asked for."""

    def __init__(self, car: Car, track: Track) -> None:
        super().__init__()
        self.car, self.track = car, track

    def __missing__(self, end: int) -> MoveCar:
        move = self[end] = MoveCar(self.car, self.track.space_id(end))
        return move


@shared
class MoveBook:
    """The move actions of a game's cars on its track, each kept once made: a playout lists the
    legal moves at each of its moves. A game's clones share its book, since a move never changes;
    it goes with the game (a cache of every track ever loaded would free one at a random move)."""

    def __init__(self, track: Track) -> None:
        self.track = track
        self._by_car: dict[Car, _MoveActions] = {}

    def moves(self, car: Car, ends: tuple[int, ...]) -> list[Action]:
        """The moves of ``car`` to the space indexes ``ends``, in their order."""
        by_end = self._by_car.get(car)
        if by_end is None:
            by_end = self._by_car[car] = _MoveActions(car, self.track)
        return [by_end[end] for end in ends]


class TopRace:
    """One game of Top Race (base rules) on a track with a deck.

    **Who is who.** A *seat* is a player's number, 0 to ``player_count - 1``
    clockwise (``names[seat]`` is the name). ``to_move`` is whose decision it is
    now: a seat, :data:`CHANCE_SEAT` at a chance node, ``None`` after the game; the
    property :attr:`seat` is ``to_move`` where a seat must be deciding. During
    the race ``turn`` is the seat whose turn it is: it differs from ``to_move``
    while others decide inside that turn (a tip, a pit stop claim, putting back
    one's broken-down car). ``starter`` is the seat that began the race's turns;
    a round of turns is over when the turn comes back to it.

    **The variant contract.** A variant is a subclass, with a ``VARIANT`` name
    (what ``Settings.variant`` says), that may:

    * declare phases of its own as module constants (``Phase(name, words)``) and
      actions of its own (registering their notation, see
      :func:`~toprace_pi.games.toprace.rules.actions.register_notation`);
    * declare, for any phase, its legal actions with :func:`legal` and the
      handler of an action type with :func:`handles` (a check and an apply
      method). The tables :attr:`LEGAL` and :attr:`HANDLERS` are collected once
      per class from the declarations along the method resolution order, the
      most derived class winning, so a combined variant
      (``class PitStopTipsGame(PitStopGame, TipsGame)``) merges nothing by hand.
      ``WITHDRAWN`` lists (phase, action type) pairs inherited but not allowed;
    * override these hooks, each calling ``super()`` where it adds to the base
      (so variants combine): the deal's sizes (:meth:`cards_per_player`,
      :meth:`offer_size`, :meth:`offer_fixed`, :meth:`box_size`; :meth:`deal`
      itself is shared), :meth:`chance` (its own chance actions), ``_check_deal`` /
      ``_apply_deal``, ``_new_auction``, ``_next_auction_step``, ``_auction_won``,
      :meth:`cars_for_sale` and ``_check_take`` / ``_apply_take``, ``_start_race`` and
      :meth:`race_starter`, :meth:`turn_order`, :meth:`takes_part`,
      :meth:`can_act`, :meth:`playable_cards` and ``_check_play`` /
      ``_apply_play``, ``_card_done``, ``_end_turn``, ``_round_over``,
      ``_after_move``, ``_begin_turn``, ``_end_race``, ``_settle``,
      :meth:`winners`, :attr:`discard_pile`, :meth:`snapshot`, and the
      ``_begin_race`` that sets up its per-race state.

    A hook that opens a decision sets ``phase`` and ``to_move`` and returns
    True; the handler of that decision carries the game on where the hook
    stopped (each hook says which method to call).
    """

    info: ClassVar[GameInfo] = GameInfo(name="toprace", title="Top Race", min_players=2, max_players=6,
                                        chance=True, secret_information=True, simultaneous=False)

    #: The ``Settings.variant`` this class plays; a mismatch is refused.
    VARIANT: ClassVar[str] = "base"
    #: Per phase: the legal actions now (built from :func:`legal` declarations).
    LEGAL: ClassVar[dict[Phase, Callable[[TopRace], list[Action]]]]
    #: Per phase and action type: the (check, apply) functions (from :func:`handles`).
    HANDLERS: ClassVar[dict[Phase, dict[type, tuple[_Handler, _Handler]]]]
    #: (phase, action type) pairs a subclass refuses although a base class handles them.
    WITHDRAWN: ClassVar[tuple[tuple[Phase, type], ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._build_tables()

    @classmethod
    def _build_tables(cls) -> None:
        """Collect the declarations once per class, so dispatch is two dict lookups."""
        legal_names: dict[Phase, str] = {}
        handler_names: dict[Phase, dict[type, tuple[str, str]]] = {}
        for klass in reversed(cls.__mro__):
            for name, member in vars(klass).items():
                for phase in getattr(member, "_legal", ()):
                    legal_names[phase] = name
                for phase, kind, check in getattr(member, "_handles", ()):
                    handler_names.setdefault(phase, {})[kind] = (check, name)
            for phase, kind in vars(klass).get("WITHDRAWN", ()):
                del handler_names[phase][kind]
        cls.LEGAL = {phase: getattr(cls, name) for phase, name in legal_names.items()}
        cls.HANDLERS = {
            phase: {kind: (getattr(cls, check), getattr(cls, apply)) for kind, (check, apply) in kinds.items()}
            for phase, kinds in handler_names.items()
        }

    def __init__(self, settings: Settings, track: Track, deck: Deck) -> None:
        if settings.variant != self.VARIANT:
            raise SettingsError(
                f"{type(self).__name__} plays the {self.VARIANT!r} rules but the settings name {settings.variant!r}: "
                "build the game with toprace_pi.games.toprace.rules.variants.new_game")
        self.settings = settings
        self.track = track
        self.deck = deck
        self._moves = MoveBook(track)
        #: The deck's edition: its cars, joker and Sprint/Breakdown pairs.
        self.cars = deck.cars
        self.names = settings.players
        #: How many seats play (``names`` holds their names).
        self.player_count = len(settings.players)
        self.money = [START_CAPITAL] * self.player_count
        self.bank = BANKNOTES_TOTAL - START_CAPITAL * self.player_count
        self.log: list[Action] = []
        self.events: list[Event] = []
        self.results: list[RaceEnded] = []
        self.race = 0
        self._begin_race()

    def __repr__(self) -> str:
        return f"<TopRace race {self.race}/{self.settings.races}, {self.phase.name}, to move: {self.to_move}>"

    # --- the state machine ---------------------------------------------------

    def _begin_race(self) -> None:
        self.race += 1
        self.phase = Phase.DEAL
        self.to_move: int | None = CHANCE_SEAT
        self.board = Board(self.track, self.cars)
        self.owner: dict[Car, int] = {}
        self._fleets: list[frozenset[Car]] = [frozenset()] * self.player_count
        self.hands: list[list[int]] | None = None
        self.hand_size = [0] * self.player_count
        self.played: list[int] = []
        self.auction: Auction | None = None
        self.starter = 0
        self.turn = 0
        self.card: MovementCard | SprintBreakdownCard | None = None
        self.moves_left: list[tuple[Car | None, int]] = []
        self.moving: PendingMove | None = None
        self.returning: tuple[Car, tuple[int, ...]] | None = None

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    def legal_actions(self) -> list[Action]:
        """Every action allowed now (empty at the deal, a chance node, and at the end)."""
        return self.LEGAL.get(self.phase, _no_actions)(self)

    def check(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` if ``action`` is not allowed now; changes nothing."""
        self._check(action)

    def is_legal(self, action: Action) -> bool:
        try:
            self._check(action)
        except IllegalActionError:
            return False
        return True

    def apply(self, action: Action) -> None:
        """Carry out ``action`` for whoever is to move, or raise
        :class:`IllegalActionError` and change nothing."""
        carry_out = self._check(action)
        self.log.append(action)
        carry_out(self, action)

    def parse(self, text: str) -> Action:
        """An action from its notation, its cars named by this game's ids; raises
        :class:`~toprace_pi.errors.NotationError`."""
        return parse_action(text, self.cars)

    def apply_notation(self, text: str) -> Action:
        action = self.parse(text)
        self.apply(action)
        return action

    def _check(self, action: Action) -> _Handler:
        """The function that carries ``action`` out (given the game and the action),
        once its check has passed."""
        pair = self.HANDLERS.get(self.phase, _NO_HANDLERS).get(type(action))
        if pair is None:
            raise IllegalActionError(self._wrong_time(action))
        check, apply = pair
        check(self, action)
        return apply

    def _no_check(self, action: Action) -> None:
        """For actions that are always allowed in their phase."""

    def _wrong_time(self, action: Action) -> str:
        if self.is_over:
            return f"the game is over; {action} is not possible"
        who = "chance" if self.to_move == CHANCE_SEAT else self.names[self.seat]
        return f"now {who} must {self.phase.value}; {action} is not possible"

    @property
    def seat(self) -> int:
        """The seat whose decision it is; an error at the deal or after the game."""
        if self.to_move is None or self.to_move == CHANCE_SEAT:
            raise IllegalActionError(f"no player is to move now: {self.phase.value}")
        return self.to_move

    @property
    def current_name(self) -> str:
        return "" if self.to_move is None or self.to_move == CHANCE_SEAT else self.names[self.to_move]

    # --- dealing ---------------------------------------------------------------

    def cards_per_player(self) -> int:
        return CARDS_PER_PLAYER[self.player_count]

    def chance(self, rng: random.Random) -> Action:
        """Hook: the chance action due now (``to_move == CHANCE_SEAT``), drawn with ``rng``
        but not applied. The base game's only chance is the deal; variants add theirs
        (a car revealed for auction, the starting grid)."""
        return self.deal(rng)

    def deal(self, rng: random.Random) -> Deal:
        """The chance action for the deal, shuffled with ``rng`` (not applied).

        The one deal of every variant, which sets only the sizes: the cards not
        fixed in the offer row (:meth:`offer_fixed`) are shuffled and go to the
        hands, then fill the offer row up to :meth:`offer_size`, then the box
        (:meth:`box_size`); the rest is left out."""
        fixed = self.offer_fixed()
        cards = [n for n in self.deck.numbers if n not in fixed]
        rng.shuffle(cards)
        k, seats = self.cards_per_player(), self.player_count
        offer_end = seats * k + self.offer_size() - len(fixed)
        box_end = offer_end + self.box_size()
        hands = tuple(tuple(sorted(cards[i * k:(i + 1) * k])) for i in range(seats))
        offer = tuple(sorted(fixed + cards[seats * k:offer_end]))
        return Deal(hands, tuple(sorted(cards[box_end:])), tuple(sorted(cards[offer_end:box_end])), offer)

    def chance_outcomes(self) -> ChanceOutcomes[Action]:
        """Hook: every outcome of the chance decision now, all equally likely. The base
        game's only chance is the deal; variants add theirs (a car revealed for
        auction, the starting grid)."""
        if self.phase is not Phase.DEAL:
            raise IllegalActionError(f"chance decides nothing now: {self.phase.value}")
        return self.deal_outcomes()

    def deal_outcomes(self) -> ChanceOutcomes[Action]:
        """Every deal :meth:`deal` may make, listed without being stored: the shuffled
        cards split into the hands, the rest of the offer row, the box and the cards left
        out, each split counted once (there are about 10^21 for four players)."""
        fixed = self.offer_fixed()
        pool = [n for n in self.deck.numbers if n not in fixed]
        seats = self.player_count
        sizes = [self.cards_per_player()] * seats + [self.offer_size() - len(fixed), self.box_size()]
        counts, left = [], len(pool)
        for size in sizes:
            counts.append(math.comb(left, size))
            left -= size

        def outcome(index: int) -> Deal:
            groups, remaining = [], pool
            for size, count in zip(sizes, counts, strict=True):
                index, rank = divmod(index, count)
                group = nth_combination(remaining, size, rank)
                groups.append(tuple(sorted(group)))
                remaining = [n for n in remaining if n not in group]
            offer, box = groups[seats:]
            return Deal(tuple(groups[:seats]), tuple(sorted(remaining)), box, tuple(sorted(fixed + list(offer))))

        return ChanceOutcomes(math.prod(counts), outcome)

    def offer_size(self) -> int:
        """Hook: how many speed cards the deal lays out face up as an offer row
        (the Stocks variant). The base game has none."""
        return 0

    def offer_fixed(self) -> list[int]:
        """Hook: the cards that always lie in the offer row (the Stocks variant's
        Sprint/Breakdown cards); they are not shuffled."""
        return []

    def box_size(self) -> int:
        """Hook: how many speed cards the deal lays out face up as the box (the Pit
        Stop rule). The base game has none."""
        return 0

    def _check_deal(self, action: Deal) -> None:
        if action.box:  # the Pit Stop variant checks its own box
            raise IllegalActionError("only the Pit Stop rule lays out a box of speed cards")
        if len(action.offer) != self.offer_size():
            if not self.offer_size():
                raise IllegalActionError("only the Stocks variant lays out an offer row of speed cards")
            raise IllegalActionError(f"the offer row holds {self.offer_size()} speed cards, not {len(action.offer)}")
        if action.hands is None:
            return
        k = self.cards_per_player()
        if len(action.hands) != self.player_count or any(len(h) != k for h in action.hands):
            raise IllegalActionError(f"a deal for {self.player_count} players gives each {k} speed cards")
        everything = [n for hand in action.hands for n in hand] + list(action.left_out) + list(action.offer)
        if sorted(everything) != sorted(self.deck.numbers):
            raise IllegalActionError("a deal must hand out every speed card of the deck exactly once")

    @handles(Phase.DEAL, Deal, check="_check_deal")
    def _apply_deal(self, action: Deal) -> None:
        self.hands = None if action.hands is None else [list(h) for h in action.hands]
        self.hand_size = [self.cards_per_player()] * self.player_count
        opener = (self.settings.first_opener + self.race - 1) % self.player_count
        self.events.append(RaceStarted(self.race, opener))
        self.auction = self._new_auction(opener)
        self._next_auction_step()

    def _new_auction(self, opener: int) -> Auction:
        """Hook: the round of car auctions (the quick rules move the opening duty on)."""
        return Auction(self.player_count, opener)

    # --- auction ---------------------------------------------------------------

    def _next_auction_step(self) -> None:
        auction = self.auction
        assert auction is not None
        if auction.done:
            self._start_race()
        elif auction.winner is not None:
            self._auction_won()
        else:
            self.phase, self.to_move = Phase.BID, auction.to_act

    def _auction_won(self) -> None:
        auction = self.auction
        assert auction is not None and auction.winner is not None
        self._pay_bank(auction.winner, auction.high)
        self.events.append(AuctionWon(auction.winner, auction.high, auction.forced))
        self.phase, self.to_move = Phase.TAKE_CAR, auction.winner

    def _check_bid(self, action: Bid) -> None:
        assert self.auction is not None
        self.auction.check_bid(action.amount, self.money, self.current_name)

    @handles(Phase.BID, Bid, check="_check_bid")
    def _apply_bid(self, action: Bid) -> None:
        assert self.auction is not None
        self.auction.bid(action.amount)
        self._next_auction_step()

    def _check_pass(self, action: Pass) -> None:
        assert self.auction is not None
        if not self.auction.may_pass():
            raise IllegalActionError(f"{self.current_name} opens this auction and may not pass")

    @handles(Phase.BID, Pass, check="_check_pass")
    def _apply_pass(self, action: Pass) -> None:
        assert self.auction is not None
        self.auction.pass_()
        self._next_auction_step()

    def _check_sold(self, action: Sold) -> None:
        assert self.auction is not None
        if self.auction.leader is not None:
            raise IllegalActionError("bids were entered for this auction: go on bidding or passing")
        name = self.names[action.seat] if 0 <= action.seat < self.player_count else "?"
        self.auction.check_sale(action.seat, action.price, self.money, name)

    @handles(Phase.BID, Sold, check="_check_sold")
    def _apply_sold(self, action: Sold) -> None:
        assert self.auction is not None
        self.auction.sell(action.seat, action.price)
        self._next_auction_step()

    def cars_of(self, seat: int) -> frozenset[Car]:
        """The cars ``seat`` owns in this race."""
        return self._fleets[seat]

    def cars_for_sale(self) -> list[Car]:
        return [c for c in self.cars if c not in self.owner]

    def _check_take(self, action: TakeCar) -> None:
        if action.car in self.owner:
            raise IllegalActionError(f"{action.car} already belongs to {self.names[self.owner[action.car]]}")

    @handles(Phase.TAKE_CAR, TakeCar, check="_check_take")
    def _apply_take(self, action: TakeCar) -> None:
        self.owner[action.car] = self.seat
        self._fleets[self.seat] |= {action.car}
        self.phase = Phase.PLACE_CAR

    def free_starting_spaces(self) -> list[int]:
        return [n for n, s in sorted(self.track.starting_spaces.items()) if s not in self.board.occupied]

    def _check_place(self, action: PlaceCar) -> None:
        if action.start not in self.track.starting_spaces:
            raise IllegalActionError(f"there is no starting space {action.start}")
        if action.start not in self.free_starting_spaces():
            raise IllegalActionError(f"starting space {action.start} is taken")

    @handles(Phase.PLACE_CAR, PlaceCar, check="_check_place")
    def _apply_place(self, action: PlaceCar) -> None:
        assert self.auction is not None
        car = self.car_to_place
        self.board.place(car, self.track.starting_spaces[action.start])
        self.events.append(CarPlaced(self.seat, car, action.start))
        self.auction.lot_taken()
        self._next_auction_step()

    @property
    def car_to_place(self) -> Car:
        """The car the auction winner has taken and must now put on a starting space."""
        return next(c for c, s in self.owner.items() if s == self.to_move and c not in self.board.at)

    # --- race: playing cards -----------------------------------------------------

    def _start_race(self) -> None:
        self.starter = self.turn = self.race_starter()
        self._begin_turn()

    def race_starter(self) -> int:
        """Hook: the seat that starts the race once the auctions are over. In the
        base game, the winner of the first auction."""
        assert self.auction is not None and self.auction.first_winner is not None
        return self.auction.first_winner

    def takes_part(self, seat: int) -> bool:
        """A seat plays on while it holds speed cards and owns a car not yet finished."""
        return self.hand_size[seat] > 0 and self.owns_unfinished_car(seat)

    def owns_unfinished_car(self, seat: int) -> bool:
        """Whether a car of ``seat``'s has not finished (asked by set, not car by car through the
        list of those finished: a car's equality is Python's, its hash C's)."""
        return not self.cars_of(seat).issubset(self.board.finished)

    def turn_order(self) -> list[int]:
        """Hook: the seats in the order they take their turns in this race, the
        starting player first. The base game goes clockwise; the Stocks variant
        auctions the seating order."""
        return [*range(self.starter, self.player_count), *range(self.starter)]

    def seats_after(self, seat: int) -> list[int]:
        """The other seats in turn order, from the one after ``seat`` round to the
        one before it (e.g. who is asked to claim a pit stop)."""
        order = self.turn_order()
        at = order.index(seat)
        return order[at + 1:] + order[:at]

    def can_act(self, seat: int) -> bool:
        """Hook: whether ``seat`` could do anything on a turn but pass. In the base
        game: it holds a speed card (the Pit Stop rule adds its pit stops)."""
        return self.hand_size[seat] > 0

    def _begin_turn(self) -> None:
        """``self.turn`` plays if it takes part; else the turn passes on in turn
        order. The race ends when no seat that takes part can do anything but
        pass (in the base game: when no seat takes part any more), rather than
        asking everyone in turn to pass. Most turns the seat can act: it plays, and no other is looked at."""
        turn = self.turn
        if self.takes_part(turn) and self.can_act(turn):
            self.phase, self.to_move = Phase.PLAY_CARD, turn
            return
        if not any(self.takes_part(seat) and self.can_act(seat) for seat in range(self.player_count)):
            self._end_race("all speed cards are played")
            return
        for _ in range(self.player_count):
            if self.takes_part(self.turn):
                self.phase, self.to_move = Phase.PLAY_CARD, self.turn
                return
            if self._pass_turn_on():
                return
        self._end_race("all speed cards are played")

    @property
    def discard_pile(self) -> list[int]:
        """Hook: the speed cards lying on the discard pile this race, bottom to top.
        In the base game every card played stays there (the Pit Stop rule takes some off)."""
        return self.played

    def playable_cards(self) -> list[int]:
        if self.hands is not None:
            return list(self.hands[self.turn])
        return [n for n in self.deck.numbers if n not in self.played]

    def _check_play(self, action: PlayCard) -> None:
        number, hands = action.number, self.hands
        if number not in self.deck:
            raise IllegalActionError(f"there is no speed card #{number} in this deck")
        if number in self.played:
            raise IllegalActionError(f"speed card {self.deck[number]} was already played in this race")
        if hands is not None and number not in hands[self.turn]:
            raise IllegalActionError(f"{self.names[self.turn]} does not hold speed card {self.deck[number]}")

    @handles(Phase.PLAY_CARD, PlayCard, check="_check_play")
    def _apply_play(self, action: PlayCard) -> None:
        number, turn = action.number, self.turn
        if self.hands is not None:
            self.hands[turn].remove(number)
        self.hand_size[turn] -= 1
        self.played.append(number)
        card = self.card = self.deck[number]
        self.events.append(card_played(turn, str(card)))
        if isinstance(card, SprintBreakdownCard):
            self._start_sprint_breakdown(card)
        else:
            self.moves_left = list(card.moves)
            self._continue_card()

    def _continue_card(self) -> None:
        """Work through the card's cars in printed order until one needs a decision."""
        moves_left = self.moves_left
        while moves_left:
            car, points = moves_left[0]
            if car is None:
                self.phase, self.to_move = Phase.CHOOSE_JOKER, self.turn
                return
            moves_left.pop(0)
            if self._offer_move(car, points):
                return
        self._card_done()

    def _card_done(self) -> None:
        """Hook: the card in play is resolved. The base game passes the turn on."""
        self._end_turn()

    def _offer_move(self, car: Car, points: int) -> bool:
        """Ask where ``car`` ends, if it can move; record a forfeit otherwise."""
        board = self.board
        if car in board.finished:
            self.events.append(forfeited(car, points, "already finished"))
            return False
        if car in board.waiting:
            self.events.append(forfeited(car, points, "broken down"))
            return False
        steps, ends = board.move_options(car, points)
        if not ends:
            self.events.append(forfeited(car, points, "blocked"))
            return False
        self.moving = pending_move(car, points, steps, ends)
        self.phase, self.to_move = Phase.MOVE_CAR, self.turn
        return True

    def _end_turn(self) -> None:
        self.card, self.moving = None, None
        if not self._pass_turn_on():
            self._begin_turn()

    def _pass_turn_on(self) -> bool:
        """The turn goes to the next seat in :meth:`turn_order`. When it comes back
        to the starting player a round of turns is complete (seats skipped because
        they no longer take part included): return :meth:`_round_over`'s answer."""
        order = self.turn_order()
        self.turn = order[(order.index(self.turn) + 1) % len(order)]
        return self.turn == self.starter and self._round_over()

    def _round_over(self) -> bool:
        """Hook: every seat has had its turn and the starting player is next. Return
        True after opening a decision that calls :meth:`_begin_turn` when it is done
        (the Stocks variant's stock round). The base game has none."""
        return False

    # --- race: joker, sprint, breakdown ------------------------------------------

    def joker_choices(self) -> list[Car]:
        assert isinstance(self.card, MovementCard)
        return [c for c in self.cars if c not in self.card.cars]

    def _check_joker(self, action: ChooseJoker) -> None:
        assert isinstance(self.card, MovementCard)
        if action.car in self.card.cars:
            raise IllegalActionError(f"{action.car} is already on this card, the joker cannot move it")

    @handles(Phase.CHOOSE_JOKER, ChooseJoker, check="_check_joker")
    def _apply_joker(self, action: ChooseJoker) -> None:
        _, points = self.moves_left.pop(0)
        self.events.append(JokerChosen(action.car))
        if not self._offer_move(action.car, points):
            self._continue_card()

    def _start_sprint_breakdown(self, card: SprintBreakdownCard) -> None:
        a, b = card.pair
        for car in card.pair:
            if car in self.board.finished or car in self.board.waiting:
                why = "has finished" if car in self.board.finished else "is broken down"
                self.events.append(forfeited(car, 0, f"Sprint/Breakdown void: {car} {why}"))
                self._card_done()
                return
        self.phase, self.to_move = Phase.SPRINT_OR_BREAKDOWN, self.turn

    def sprint_pair(self) -> tuple[Car, Car]:
        """The Sprint/Breakdown card's two cars as (further behind, further ahead):
        the first would sprint, the second break down."""
        assert isinstance(self.card, SprintBreakdownCard)
        a, b = self.card.pair
        return (b, a) if self.board.ahead(a, b) else (a, b)

    @handles(Phase.SPRINT_OR_BREAKDOWN, Sprint)
    def _apply_sprint(self, action: Sprint) -> None:
        rear, front = self.sprint_pair()
        ends = self.board.sprint_options(rear, front)
        if not ends:
            why = f"already level with {front}" if self.board.is_level(rear, front) else "no space to move to"
            self.events.append(forfeited(rear, 0, f"sprint: {why}"))
            self._card_done()
            return
        self.moving = PendingMove(rear, None, None, ends)
        self.phase = Phase.MOVE_CAR

    @handles(Phase.SPRINT_OR_BREAKDOWN, Breakdown)
    def _apply_breakdown(self, action: Breakdown) -> None:
        """The car ahead waits beside the track until the other has driven level
        with it or past. Even when the two stand level already, the chaser must
        move first: else the card would be a free lane change for the car ahead."""
        rear, front = self.sprint_pair()
        self.board.break_down(front, rear)
        self.events.append(BrokeDown(front, rear))
        self._card_done()

    # --- race: moving cars ---------------------------------------------------------

    def move_ends(self) -> list[str]:
        """Space ids (or ``"finish"``) where the car being moved may end."""
        assert self.moving is not None
        return [self.track.space_id(end) for end in self.moving.ends]

    def _check_move(self, action: MoveCar) -> None:
        moving = self.moving
        assert moving is not None
        car = moving.car
        if action.car != car:
            raise IllegalActionError(f"{car} is to be moved now, not {action.car}")
        if self.track.find(action.to) not in moving.ends:
            ends = ", ".join(self.move_ends())
            raise IllegalActionError(f"{car} cannot end on {action.to}; it may end on {ends}")

    @handles(Phase.MOVE_CAR, MoveCar, check="_check_move")
    def _apply_move(self, action: MoveCar) -> None:
        moving, board, track = self.moving, self.board, self.track
        assert moving is not None
        car = moving.car
        self.moving = None
        start = track.space_id(board.at[car])
        finished = board.move(car, track.index(action.to))
        self.events.append(car_moved(car, start, action.to, moving.steps or 0, moving.points))
        if finished:
            self._car_finished(car)
            if len(board.finished) >= FINISHES_TO_END:
                self._end_race(f"{FINISHES_TO_END} cars have finished")
                return
        waiting = [w for w, wait in board.waiting.items() if wait.chaser == car] if board.waiting else ()
        if not (waiting and self._offer_return(waiting[0])) and not self._after_move(car):
            self._continue_card()

    def _after_move(self, car: Car) -> bool:
        """Hook: ``car`` has just moved (or come back on the track). Return True
        after opening a decision that calls :meth:`_continue_card` when it is done
        (the Tips variant's tip rounds); it must be safe to call again. The base
        game has none."""
        return False

    def _car_finished(self, car: Car) -> None:
        place = len(self.board.finished)
        seat = self.owner.get(car)
        prize = PRIZES[place - 1]
        if seat is not None:
            self._pay_player(seat, prize)
        self.events.append(CarFinished(car, place, seat, prize))

    def _offer_return(self, car: Car) -> bool:
        """If ``car``'s chaser has caught up, ask its owner where it goes back."""
        if not self.board.caught_up(car):
            return False
        spaces = self.board.return_options(car)
        if not spaces:
            return False
        self.returning = (car, spaces)
        self.phase, self.to_move = Phase.RETURN_CAR, self.owner.get(car, self.turn)
        return True

    def return_spaces(self) -> list[str]:
        assert self.returning is not None
        return [self.track.space_id(s) for s in self.returning[1]]

    def _check_return(self, action: ReturnCar) -> None:
        assert self.returning is not None
        car = self.returning[0]
        if action.car != car:
            raise IllegalActionError(f"{car} is the car to put back, not {action.car}")
        if action.to not in self.return_spaces():
            spaces = ", ".join(self.return_spaces())
            raise IllegalActionError(f"{car} can go back on {spaces}, not on {action.to}")

    @handles(Phase.RETURN_CAR, ReturnCar, check="_check_return")
    def _apply_return(self, action: ReturnCar) -> None:
        self.returning = None
        self.board.put_back(action.car, self.track.index(action.to))
        self.events.append(CarReturned(action.car, action.to))
        if not self._after_move(action.car):
            self._continue_card()  # the rest of the card, if any; else the turn ends

    # --- the legal actions of each phase ------------------------------------------------

    @legal(Phase.BID)
    def _legal_bids(self) -> list[Action]:
        assert self.auction is not None
        actions: list[Action] = [Pass()] if self.auction.may_pass() else []
        return actions + [bid_action(a) for a in self.auction.bid_range(self.money)]

    @legal(Phase.TAKE_CAR)
    def _legal_takes(self) -> list[Action]:
        return [TakeCar(c) for c in self.cars_for_sale()]

    @legal(Phase.PLACE_CAR)
    def _legal_places(self) -> list[Action]:
        return [PlaceCar(n) for n in self.free_starting_spaces()]

    @legal(Phase.PLAY_CARD)
    def _legal_cards(self) -> list[Action]:
        return [play_action(n) for n in self.playable_cards()]

    @legal(Phase.CHOOSE_JOKER)
    def _legal_jokers(self) -> list[Action]:
        return [joker_action(c) for c in self.joker_choices()]

    @legal(Phase.SPRINT_OR_BREAKDOWN)
    def _legal_sprint_or_breakdown(self) -> list[Action]:
        return [Sprint(), Breakdown()]

    @legal(Phase.MOVE_CAR)
    def _legal_moves(self) -> list[Action]:
        assert self.moving is not None
        return self._moves.moves(self.moving.car, self.moving.ends)

    @legal(Phase.RETURN_CAR)
    def _legal_returns(self) -> list[Action]:
        assert self.returning is not None
        car, _ = self.returning
        return [ReturnCar(car, to) for to in self.return_spaces()]

    # --- race end, money --------------------------------------------------------------

    def _end_race(self, reason: str) -> None:
        placements = tuple(self.board.standings())
        for car in placements[len(self.board.finished):]:
            self.board.place_last(car)
            self._car_finished(car)
        payouts = [0] * self.player_count
        for place, car in enumerate(placements):
            if car in self.owner:
                payouts[self.owner[car]] += PRIZES[place]
        self._settle(placements)
        result = RaceEnded(self.race, placements, tuple(payouts), reason)
        self.results.append(result)
        self.events.append(result)
        if self.race < self.settings.races:
            self._begin_race()
        else:
            self.phase, self.to_move = Phase.GAME_OVER, None
            self.events.append(GameEnded(tuple(self.money), tuple(self.winners())))

    def _settle(self, placements: tuple[Car, ...]) -> None:
        """Hook: money that changes hands at the race's end besides the prizes
        (tips, stocks). The base game has none."""

    def _pay_bank(self, seat: int, amount: int) -> None:
        self.money[seat] -= amount
        self.bank += amount

    def _pay_player(self, seat: int, amount: int) -> None:
        self.money[seat] += amount
        self.bank -= amount

    def winners(self) -> list[int]:
        """The richest seat(s), once the game is over. Hook: the GameEnded event
        names these (the Stocks variant breaks ties)."""
        best = max(self.money)
        return [s for s, m in enumerate(self.money) if m == best]

    # --- saving and replaying ---------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Settings, the action log and a snapshot, all plain JSON values."""
        return {
            "format": "toprace-pi game 1",
            "settings": asdict(self.settings),
            "log": [str(a) for a in self.log],
            "snapshot": self.snapshot(),
        }

    def snapshot(self) -> dict[str, Any]:
        """The visible state as plain values, for checks and displays."""
        return {
            "race": self.race,
            "phase": self.phase.name,
            "to_move": self.to_move,
            "money": list(self.money),
            "bank": self.bank,
            "owners": {c.id: s for c, s in sorted(self.owner.items())},
            "positions": {c.id: self.track.space_id(s) for c, s in sorted(self.board.at.items())},
            "waiting": {c.id: self.track.space_id(w.space) for c, w in sorted(self.board.waiting.items())},
            "finished": [c.id for c in self.board.finished],
            "hand_size": list(self.hand_size),
            "played": list(self.played),
            "results": [[c.id for c in r.placements] for r in self.results],
        }

    # --- the game interface of the table (toprace_pi.core.game) -----------------------

    @property
    def decision(self) -> Decision:
        """Whose decision it is: a seat, chance (a deal, a card turned up), or nobody."""
        to_move = self.to_move
        if to_move is None:
            return NOBODY
        return CHANCE if to_move == CHANCE_SEAT else Decision.of(to_move)

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator): the snapshot without any seat's
        secrets (:attr:`SEAT_SECRETS`), and that seat's own (:meth:`secrets`) only."""
        snap = self.snapshot()
        for key in self.SEAT_SECRETS:
            snap.pop(key, None)
        snap["seat"] = seat
        if seat is not None:
            snap.update(self.secrets(seat))
        return snap

    def seen_by(self, seat: int | None) -> TopRace:
        """The game as ``seat`` sees it (``None``: a spectator), read-only: what its bot decides on
        (a :class:`~toprace_pi.core.seat_view.SeatView` of a copy concealed from the seat, :meth:`conceal`,
        that reads as this game)."""
        return cast(TopRace, SeatView(self, seat))

    #: Per-seat secrets (a list with an entry per seat) that :meth:`seen_by` shows only to their seat and
    #: :meth:`view` leaves out of the snapshot (where one is there under the same name).
    SEAT_SECRETS: ClassVar[frozenset[str]] = frozenset({"hands"})
    #: What a seat's view does not show at all: the log, which holds the deal, and the copies made from it.
    SEAT_HIDDEN: ClassVar[frozenset[str]] = frozenset({"log", "to_dict", "clone", "replayed"})

    def secrets(self, seat: int) -> dict[str, Any]:
        """Hook: what only ``seat`` knows, as plain values. The base game's one secret
        is the hand, when the table dealt it and so knows it."""
        return {"my_hand": None if self.hands is None else list(self.hands[seat])}

    def clone(self) -> Self:
        """An independent copy, made without a replay (microseconds): to try actions
        on, or to go back to (UNDO)."""
        return clone(self)

    # --- worlds for a search bot (toprace_pi.core.search) --------------------------------

    def conceal(self, seat: int | None) -> None:
        """Take out, in place, what ``seat`` may not see: the log, which holds the deal, and every other
        seat's secrets, replaced by stand-ins that tell nothing (:meth:`redraw_secrets` without a
        generator). It only assigns."""
        self.log = []
        self.redraw_secrets(seat, None)

    def determinized(self, seat: int, rng: random.Random) -> Self:
        """A game ``seat`` cannot tell from this one, for its search: a copy concealed from it
        (:meth:`conceal`), its hidden parts then drawn anew with ``rng`` (the events left out)."""
        world = self.clone()
        world.conceal(seat)
        world.events = []
        world.redraw_secrets(seat, rng)
        return world

    def redraw_secrets(self, seat: int | None, rng: random.Random | None) -> None:
        """Hook: draw anew with ``rng``, in place, what ``seat`` cannot see; the base game's secret is the
        other hands: the cards the seat cannot place (neither :meth:`placed_cards` nor known to be in a hand,
        :meth:`known_in_hand`), shuffled, make up each other hand beside the cards known to be in it, and the
        rest is what was left out (:meth:`set_left_out`). Without ``rng`` (a view, made at every decision)
        the other hands are left empty: they read as ``None`` to the seat, and nothing worth its cost needs
        them. It only assigns (to attributes, and to items of the secrets' lists): see :meth:`conceal`."""
        hands = self.hands
        if hands is None:
            return
        if rng is None:  # a view: the other hands read as None to it, so empty ones stand in at no cost
            for other in range(self.player_count):
                if other != seat:
                    hands[other] = []
            self.set_left_out([])
            return
        known = {other: self.known_in_hand(other) for other in range(self.player_count) if other != seat}
        pool = sorted(_card_numbers(self.deck).difference(self.placed_cards(seat), *known.values()))
        if rng is not None:
            rng.shuffle(pool)
        start = 0
        for other, cards in known.items():
            end = start + self.hand_size[other] - len(cards)
            hands[other] = sorted(cards + pool[start:end])
            start = end
        self.set_left_out(pool[start:])

    def placed_cards(self, seat: int | None) -> set[int]:
        """Hook: the speed cards whose place ``seat`` knows (``None``: a spectator), but for those
        known to be in another hand (:meth:`known_in_hand`): its hand and the cards played; every
        other card is in another hand or left out."""
        assert self.hands is not None
        return {*(self.hands[seat] if seat is not None else ()), *self.played}

    def known_in_hand(self, seat: int) -> list[int]:
        """Hook: the cards everyone knows ``seat`` holds (the base game: none)."""
        return []

    def set_left_out(self, cards: list[int]) -> None:
        """Hook: the cards left out of the deal, drawn anew (the base game keeps no record of them)."""

    #: Lists (and the owners' dict) that only ever hold immutable values: a clone copies them in one go.
    CLONE_SHALLOW = ("log", "events", "results", "money", "hand_size", "played", "moves_left", "_fleets", "owner")
    #: A list of such lists: a clone copies each in one go.
    CLONE_NESTED = ("hands",)

    def replayed(self, log: Sequence[Action | str]) -> TopRace:
        """The same game (settings, track, deck) rebuilt from the start by ``log``."""
        return type(self).replay(self.settings, self.track, self.deck, log)

    @classmethod
    def replay(cls, settings: Settings, track: Track, deck: Deck, log: Sequence[Action | str]) -> Self:
        """Rebuild a game of this class by applying ``log`` (actions or their notation,
        read with the deck's cars) from the start. ``settings.variant`` must be this
        class's (use :func:`~toprace_pi.games.toprace.rules.variants.replay_game` to pick the class by it)."""
        game = cls(settings, track, deck)
        for entry in log:
            game.apply(game.parse(entry) if isinstance(entry, str) else entry)
        return game


_NO_HANDLERS: dict[type, tuple[_Handler, _Handler]] = {}


@cache
def _card_numbers(deck: Deck) -> frozenset[int]:
    """The numbers of ``deck``'s speed cards, as a set made once: a seat's view, made at each decision, asks."""
    return frozenset(deck.numbers)


def _no_actions(game: TopRace) -> list[Action]:
    """The legal actions of a phase that declares none: a chance node, the game's end."""
    return []


TopRace._build_tables()
