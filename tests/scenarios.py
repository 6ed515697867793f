"""Set up games at a chosen moment, like a rulebook example, through legal actions."""

from __future__ import annotations

from collections.abc import Sequence

from toprace_pi.games.toprace.data import load_deck
from toprace_pi.games.toprace.rules import (
    Bid,
    Car,
    Deal,
    Deck,
    Pass,
    Phase,
    PlaceCar,
    Settings,
    TakeCar,
    TopRace,
    Track,
)
from toprace_pi.games.toprace.rules.cards import CARDS_PER_PLAYER
from toprace_pi.games.toprace.rules.events import CardPlayed, JokerChosen
from toprace_pi.games.toprace.rules.variants import new_game as new_variant_game
from toprace_pi.games.toprace.rules.variants.quick import REVEAL, Reveal
from toprace_pi.games.toprace.table.tags import Identity, TopRaceVocabulary, tag_book
from toprace_pi.hardware.tags import Enrolment, TagRegistry

NAMES = ("Anna", "Ben", "Carla", "David", "Eva", "Felix")
DECK = load_deck()
#: The standard deck's cars (the 2008 edition), by name for the tests.
CARS = DECK.cars
BLUE, RED, YELLOW, BLACK, PURPLE, GREEN = CARS
#: The older edition's deck: yellow, purple, light blue, red, white and green cars, a black joker.
OLDER = load_deck("older-edition")
#: Top Race's tags read with the standard deck's cars.
VOCAB = TopRaceVocabulary(CARS)
DECKS = {"standard": DECK, "older-edition": OLDER}


def enrolment(name: str, deck: Deck = DECK, players: int = 6,
              known: TagRegistry[Identity] | None = None) -> Enrolment[Identity]:
    """Top Race's enrolment walk ``name`` (``"cards"``, ``"cars"``, ``"pitstops"``) with ``deck``."""
    book = tag_book(deck, players)
    return Enrolment(book.walks[name].identities, book.vocabulary, known=known)


def deal_with(players: int, hands: Sequence[Sequence[int]] = ()) -> Deal:
    """A deal in which seat i holds ``hands[i]`` (the rest filled in deck order)."""
    k = CARDS_PER_PLAYER[players]
    wanted = [list(h) for h in hands] + [[] for _ in range(players - len(hands))]
    rest = [n for n in DECK.numbers if all(n not in h for h in wanted)]
    for hand in wanted:
        while len(hand) < k:
            hand.append(rest.pop(0))
    return Deal(tuple(tuple(sorted(h)) for h in wanted), tuple(rest))


def new_game(track: Track, players: int = 2, races: int = 1, variant: str = "base", deck: str = "standard") -> TopRace:
    return new_variant_game(Settings(NAMES[:players], races=races, variant=variant, deck=deck), track, DECKS[deck])


def race_ready(
    track: Track,
    owners: dict[Car, int],
    *,
    players: int = 2,
    hands: Sequence[Sequence[int]] = (),
    positions: dict[Car, str] | None = None,
    variant: str = "base",
    deal: Deal | None = None,
    deck: str = "standard",
) -> TopRace:
    """A game whose auctions gave each car to ``owners[car]`` (in the dict's order),
    now at the start of the race; ``positions`` then moves cars to given spaces.
    By the quick rules each car is turned up just before its auction; ``deal``
    replaces the one ``hands`` would make (the Pit Stop rule needs a box)."""
    game = new_game(track, players, variant=variant, deck=deck)
    game.apply(deal or deal_with(players, hands))
    for car, seat in owners.items():
        if game.phase is REVEAL:
            game.apply(Reveal(car))
        win_auction(game, seat)
        game.apply(TakeCar(car))
        game.apply(PlaceCar(game.free_starting_spaces()[0]))
    assert game.phase is Phase.PLAY_CARD, game.phase
    if positions:
        game.board.set_up({car: track.index(space) for car, space in positions.items()})
    return game


def win_auction(game: TopRace, seat: int) -> None:
    """Bid so that ``seat`` wins the current auction at the lowest price."""
    while game.phase is Phase.BID:
        auction = game.auction
        assert auction is not None
        if game.to_move == seat or not auction.may_pass():
            game.apply(Bid(auction.bid_range(game.money)[0]))
        else:
            game.apply(Pass())
    assert game.phase is Phase.TAKE_CAR and game.to_move == seat, (game.phase, game.to_move)


def assert_played_with_its_edition(game: TopRace) -> None:
    """A finished game used its deck's edition throughout: every race placed the deck's cars, the jokers
    moved its cars and said its joker, and the Sprint/Breakdown cards played paired its pairs."""
    cars = game.cars
    assert game.is_over and all(sorted(r.placements) == sorted(cars) for r in game.results)
    chosen = [e.car for e in game.events if isinstance(e, JokerChosen)]
    assert chosen and all(car in cars for car in chosen)
    played = [e.card for e in game.events if isinstance(e, CardPlayed)]
    assert any(f" {cars.joker} " in text for text in played)
    pairs = {f"Sprint/Breakdown {a}-{b}" for a, b in cars.pairs}
    assert all(text.split(" ", 1)[1] in pairs for text in played if "Sprint/Breakdown" in text)
