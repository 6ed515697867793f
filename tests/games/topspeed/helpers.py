"""Races set up for a test: the grid in a chosen order, every deck in its file's order, the cards
a test needs stacked on top, and whole rounds played from a plan."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from toprace_pi.games.topspeed.data import load_circuit, load_deck
from toprace_pi.games.topspeed.rules import (
    Draw,
    Pass,
    PitStop,
    Settings,
    Shuffle,
    SitOut,
    StartOrder,
    TopSpeed,
    card_of,
)
from toprace_pi.games.topspeed.rules.game import GRID

NAMES = ("Anna", "Ben", "Carla", "David", "Emil", "Fay", "Gus", "Hana")
CIRCUIT = load_circuit()
DECK = load_deck()
#: The circuit's spaces: a car at progress ``LAP + n`` is on space ``n`` of its second lap.
LAP = CIRCUIT.spaces


def race(players: int = 3, order: Sequence[int] | None = None, **options: object) -> TopSpeed:
    """A race of ``players`` ready for its first turn, the grid in ``order`` (seat order by default)."""
    game = TopSpeed(Settings(NAMES[:players], **options), CIRCUIT, DECK)  # type: ignore[arg-type]
    settle(game, order)
    return game


def grid_index(order: Sequence[int]) -> int:
    """The outcome of the starting order that puts the cars in ``order``."""
    left, index = sorted(order), 0
    for place, seat in enumerate(order):
        index += left.index(seat) * math.factorial(len(order) - 1 - place)
        left.remove(seat)
    return index


def settle(game: TopSpeed, order: Sequence[int] | None = None) -> None:
    """Every chance step due: the grid in ``order`` (or the first outcome), each shuffle the first
    outcome (the deck stays in its file's order)."""
    while game.chance_queue:
        if game.chance_queue[0] == GRID:
            game.apply(StartOrder(grid_index(order) if order else 0))
        else:
            game.apply(Shuffle(game.chance_queue[0], 0))


def stack(game: TopSpeed, seat: int, *words: str) -> None:
    """Put these cards on top of ``seat``'s deck, the first word drawn first (each taken from the deck,
    or else from the discard pile: the cards stay the seat's)."""
    deck, pile = list(game.decks[seat]), list(game.discards[seat])
    cards = [card_of(word) for word in words]
    for card in cards:
        (deck if card in deck else pile).remove(card)
    game.decks[seat], game.discards[seat] = (*deck, *reversed(cards)), tuple(pile)


def place(game: TopSpeed, **progress: int) -> None:
    """Cars at the given progress, by the players' names (``Anna=10``)."""
    for name, value in progress.items():
        game.progress[NAMES.index(name)] = value


def play(game: TopSpeed, *moves: str) -> None:
    for move in moves:
        game.apply(game.parse(move))
        settle(game)


def play_round(game: TopSpeed, plan: Mapping[int, Sequence[str]]) -> None:
    """One round (or qualifying lap): each seat draws its cards in turn (stacked on its deck first),
    then passes; ``"pit stop"`` or ``"sit out"`` in a plan is that action."""
    todo = {seat: list(words) for seat, words in plan.items()}
    for seat, words in todo.items():
        stack(game, seat, *(w for w in words if w not in ("pit stop", "sit out")))
    start = (game.stage, game.round, game.qualifying_lap)
    while not game.is_over and (game.stage, game.round, game.qualifying_lap) == start:
        seat = game.turn
        assert seat is not None
        left = todo[seat]
        word = left.pop(0) if left else None
        action = {"pit stop": PitStop, "sit out": SitOut, None: Pass}.get(word, Draw)(seat)
        game.apply(action)
        settle(game)


def conserved(game: TopSpeed) -> bool:
    """Each player's cards, wherever they are, make their whole deck."""
    return all(
        len(game.decks[s]) + len(game.rows[s]) + len(game.discards[s]) + len(game.damage[s])
        + (game.kept[s] is not None) + (game.drawn[s] is not None) == game.deck_size
        for s in range(len(game.names)))


#: Sets of rules the property tests and the bots' facts play under: the basic race, each advanced rule alone,
#: all of them, and a custom race.
RULES = [{}, {"race": "wet"}, {"qualifying": True}, {"fastest_lap": True}, {"kers": True}, {"blank_card": True},
         {"race": "wet", "qualifying": True, "fastest_lap": True, "kers": True, "blank_card": True},
         {"race": "custom", "removed": ("4", "4"), "blank_as": "safety_car", "kers": True}]
