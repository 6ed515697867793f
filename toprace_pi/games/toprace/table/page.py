"""Top Race on the table's web pages: the track and its cars, money and cars by player, a
seat's hand, tips and stocks (its own only), and what it may do from its phone. A speed card
is named by its moves wherever a page names it; where a car ends its move is picked on the
board (:meth:`TopRacePage.spot`) and said in the words players use (:mod:`.landmarks`).

The auction is held aloud at the table and entered there, so a seat's page offers no
bids; everything else a seat decides it may decide on its page. A seat's hand is known
to the table only when the table dealt it (the demo); at a table where the cards are
dealt by hand a remote seat cannot be played from a phone.
"""

from __future__ import annotations

from typing import Any

from toprace_pi.games.toprace.render.svg import board_svg, pieces
from toprace_pi.games.toprace.rules import Phase, TopRace
from toprace_pi.games.toprace.rules.actions import (
    Action,
    Breakdown,
    ChooseJoker,
    MoveCar,
    Pass,
    PlaceCar,
    PlayCard,
    ReturnCar,
    Sprint,
    TakeCar,
)
from toprace_pi.games.toprace.rules.events import CardPlayed, CarMoved, Forfeited, JokerChosen, money
from toprace_pi.games.toprace.rules.events import Event as GameEvent
from toprace_pi.games.toprace.rules.track import FINISH_ID
from toprace_pi.games.toprace.rules.variants.pitstop import (
    PIT_STOP_CLAIM,
    ClaimPitStop,
    CollectPitStop,
    TakeFromBox,
    TakeFromDiscard,
)
from toprace_pi.games.toprace.rules.variants.quick import REVEAL
from toprace_pi.games.toprace.rules.variants.stocks import GRID, TakeOffer
from toprace_pi.games.toprace.rules.variants.tips import Tip
from toprace_pi.games.toprace.table.choices import label
from toprace_pi.games.toprace.table.landmarks import where
from toprace_pi.games.toprace.table.words import announcement
from toprace_pi.render.pieces import Piece
from toprace_pi.render.svg import hex_colour
from toprace_pi.table.pages import PageBase, Standings
from toprace_pi.text import ordinal

#: What everyone sees happen, told on the pages though the table does not say it aloud.
SEEN = (CardPlayed, CarMoved, Forfeited, JokerChosen)
#: A seat without a car of its own shows this colour.
NO_CAR = "#8a8f98"
#: Moments whose prompt the pages word as the table does: cards handled at the table, no button named.
AT_THE_TABLE = (Phase.DEAL, GRID, REVEAL)
#: What a turn may hold, in the pages' words, for the kinds of its legal actions.
TURN_WORDS: tuple[tuple[type | tuple[type, ...], str], ...] = (
    (PlayCard, Phase.PLAY_CARD.value), (CollectPitStop, "collect the claimed card"),
    ((TakeFromBox, TakeFromDiscard), "make a pit stop"), (Pass, "pass"))
#: The options a page words as the table's NEXT/OK choice says them.
LABELLED = (TakeCar, PlaceCar, ChooseJoker, Sprint, Breakdown, Tip, TakeFromBox, CollectPitStop, TakeOffer)


class TopRacePage(PageBase):
    def board(self, game: TopRace) -> str:
        return board_svg(game)

    def pieces(self, game: TopRace) -> list[Piece]:
        return pieces(game)

    def news(self, event: GameEvent, game: TopRace) -> str | None:
        return event.text(game.names) if isinstance(event, SEEN) else announcement(event, game.names)

    def colours(self, game: TopRace) -> list[str]:
        return _colours(_owned(game))

    def standings(self, game: TopRace) -> Standings:
        owned = _owned(game)
        colours = _colours(owned)
        places = {car: n for n, car in enumerate(game.board.finished, 1)}
        cards = game.view(None)["hand_size"]
        rows = []
        for seat, name in enumerate(game.names):
            owns = ", ".join(f"{car}" + (f" ({ordinal(places[car])})" if car in places else "")
                             for car in owned[seat]) or "-"
            rows.append((colours[seat], (name, money(game.money[seat]), owns, str(cards[seat]))))
        return Standings(("Player", "Money", "Cars", "Cards"), tuple(rows))

    def secrets(self, game: TopRace, view: dict[str, Any]) -> list[str]:
        """The hand a card a line, each with its moves (a number alone means nothing to a player)."""
        lines = []
        if view.get("my_hand") is not None:
            hand = [str(game.deck[n]) for n in view["my_hand"]]
            lines += [f"Your hand ({len(hand)} cards):", *hand] if hand else ["Your hand: empty"]
        if view.get("my_tips"):
            lines.append("Your tips: " + ", ".join(view["my_tips"]))
        if view.get("my_stocks"):
            lines.append("Your stocks: " + ", ".join(f"{car} {count}" for car, count in view["my_stocks"].items()))
        return lines

    def options(self, game: TopRace, seat: int) -> list[Action]:
        if game.phase is Phase.BID or game.hands is None and game.phase is Phase.PLAY_CARD:
            return []  # the auction is held aloud; a hand dealt by hand is the player's own to play
        return super().options(game, seat)

    def prompt(self, game: TopRace, said: str) -> str:
        """Whose decision it is and what it is, as the phase says it (the table's prompt adds its buttons)."""
        phase = game.phase
        if phase in AT_THE_TABLE:
            return said
        if phase is Phase.BID:
            assert game.auction is not None
            return f"auction {game.auction.number + 1}: the bids are made aloud at the table"
        if phase is PIT_STOP_CLAIM:
            claimants = " or ".join(game.names[seat] for seat in game.claimants)  # type: ignore[attr-defined]
            return f"pit stop? {claimants} may claim {game.deck[game.discard_pile[-1]]}"
        who = game.names[game.seat]
        if phase is Phase.PLAY_CARD:
            legal = game.legal_actions()
            may = [words for kinds, words in TURN_WORDS if any(isinstance(action, kinds) for action in legal)]
            return f"{who}: " + (" or ".join(may) or phase.value)
        return f"{who}: {phase.value}"

    def words(self, game: TopRace, action: Action) -> str:
        if isinstance(action, PlayCard):
            return f"play {game.deck[action.number]}"
        if isinstance(action, (MoveCar, ReturnCar)):
            there = where(game.track, game.board, game.track.index(action.to), moving=action.car)
            if action.to == FINISH_ID:
                return f"move {action.car} {there}"
            verb = f"move {action.car} to" if isinstance(action, MoveCar) else f"put {action.car} back on"
            return f"{verb} {action.to}: {there}"
        if isinstance(action, ClaimPitStop):
            return f"claim {game.deck[game.discard_pile[-1]]} for a pit stop"
        if isinstance(action, TakeFromDiscard):
            return f"a pit stop: take {game.deck[game.discard_pile[-1]]} from the discard pile"
        if isinstance(action, Pass):
            return "let it go (no pit stop)" if game.phase is PIT_STOP_CLAIM else "pass"
        return label(game, action) if isinstance(action, LABELLED) else str(action)

    def spot(self, game: TopRace, action: Action) -> tuple[str, str] | None:
        """A car's move or return is picked on the board: where it ends, and where the car is now."""
        board, track = game.board, game.track
        if isinstance(action, MoveCar):
            return action.to, track.space_id(board.at[action.car])
        if isinstance(action, ReturnCar):
            return action.to, track.space_id(board.waiting[action.car].space)
        return None


def _owned(game: TopRace) -> dict[int, list[Any]]:
    """Each seat's cars, in the deck's order."""
    owned: dict[int, list[Any]] = {seat: [] for seat in range(len(game.names))}
    for car, seat in sorted(game.owner.items()):
        owned[seat].append(car)
    return owned


def _colours(owned: dict[int, list[Any]]) -> list[str]:
    """A seat's first car's colour (a seat shows a grey one until it has a car)."""
    return [hex_colour(cars[0].rgb) if cars else NO_CAR for _, cars in sorted(owned.items())]
