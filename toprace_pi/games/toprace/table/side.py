"""Top Race's side of the table (:class:`~toprace_pi.table.side.GameTable`).

What the controller asks of the game, answered with Top Race's rules: a speed card
laid at the start of a turn is played (or, with the Pit Stop rule, taken from the
box); a car token is taken, chosen for the joker, revealed as a tip or as the next
car to auction; PASS passes where the rules allow; the discard pile's cards read
again are no new input; and what the table says of each event.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toprace_pi.core.colour import RGB
from toprace_pi.games.toprace.data import load_deck
from toprace_pi.games.toprace.rules import Action, Car, ChooseJoker, Deal, Pass, Phase, PlayCard, TakeCar, TopRace
from toprace_pi.games.toprace.rules.events import CarFinished
from toprace_pi.games.toprace.rules.events import Event as GameEvent
from toprace_pi.games.toprace.rules.variants.pitstop import TakeFromBox
from toprace_pi.games.toprace.rules.variants.quick import REVEAL, Reveal
from toprace_pi.games.toprace.rules.variants.stocks import TAKE_OFFER, TakeOffer, Trade
from toprace_pi.games.toprace.rules.variants.tips import TIP, Tip
from toprace_pi.games.toprace.settings import TableGame
from toprace_pi.games.toprace.table.board import load_profile
from toprace_pi.games.toprace.table.choices import choice_for
from toprace_pi.games.toprace.table.entries import Entry, entry_for
from toprace_pi.games.toprace.table.keys import key_map
from toprace_pi.games.toprace.table.readers import DISCARD_READER
from toprace_pi.games.toprace.table.tags import TopRaceVocabulary, tag_book, unknown_tag
from toprace_pi.games.toprace.table.view import TableView, lights_by_space
from toprace_pi.games.toprace.table.words import announcement
from toprace_pi.hardware.keyboard import KeyMap
from toprace_pi.hardware.profile import Profile
from toprace_pi.hardware.tags import TagBook
from toprace_pi.render.ansi import ColourMode
from toprace_pi.table.modes import Choice, Identity, Refusal, Step
from toprace_pi.table.side import NOTHING_TO_UNDO, TableSide

#: Phases in which a car on the card still waits for a decision.
MID_CARD = (Phase.CHOOSE_JOKER, Phase.SPRINT_OR_BREAKDOWN, Phase.MOVE_CAR, Phase.RETURN_CAR)
#: A car token laid in these phases is the action of the phase.
CAR_ACTIONS: dict[Phase, type] = {Phase.TAKE_CAR: TakeCar, Phase.CHOOSE_JOKER: ChooseJoker, TIP: Tip,
                                  REVEAL: Reveal}


class TopRaceTable(TableSide[TopRace]):
    """Top Race at the table set up as ``setup`` says (the ``[game]`` section), if given."""

    def __init__(self, setup: TableGame | None = None) -> None:
        self.setup = setup or TableGame()

    def entry(self, game: TopRace, now: float, *, dealt_by_hand: bool) -> Entry | None:
        return entry_for(game, now, dealt_by_hand=dealt_by_hand, claim_window=self.setup.claim_window)

    def choice(self, game: TopRace) -> Choice | None:
        return choice_for(game)

    def tag(self, game: TopRace, identity: Identity) -> Step:
        kind, value = identity
        if kind == "card":
            return self._card(game, int(value))  # type: ignore[call-overload]
        if isinstance(value, Car):
            action = CAR_ACTIONS.get(game.phase)
            return [action(value)] if action is not None else Refusal(f"no car token is asked for now: "
                                                                       f"{self.prompt(game, choice_for(game))}")
        return Refusal(f"no pit stop card is asked for now: {self.prompt(game, choice_for(game))}")

    def _card(self, game: TopRace, number: int) -> Step:
        phase = game.phase
        if phase is Phase.PLAY_CARD:
            return [self._card_on_turn(game, number)]
        if phase is TAKE_OFFER:
            return [TakeOffer(number)]
        prompt = self.prompt(game, choice_for(game))
        if phase in MID_CARD:
            return Refusal(f"finish the card in play first: {prompt}")
        return Refusal(f"no speed card is played now: {prompt}")

    @staticmethod
    def _card_on_turn(game: TopRace, number: int) -> Action:
        """A card laid at the start of a turn: played from the hand, or with the Pit
        Stop rule taken from the box (a pit stop). A pit stop off the discard pile
        is never a scan (the reader sees the pile's top card all the time): it is
        chosen with NEXT/OK."""
        if number in getattr(game, "box", ()):
            return TakeFromBox(number)
        return PlayCard(number)

    def passing(self, game: TopRace) -> Sequence[Action] | None:
        return [Pass()] if Pass() in game.legal_actions() else None

    def prompt(self, game: TopRace, choice: Choice | None) -> str:
        if game.is_over:
            return "the game is over"
        if game.phase is REVEAL:
            return "turn up the next car card at random and lay its car token on the reader"
        who = game.names[game.seat]
        current = choice.label if choice is not None else ""
        if game.phase is Phase.PLAY_CARD:
            may_pass = " or press PASS" if Pass() in game.legal_actions() else ""
            if choice is not None and not game.playable_cards():  # a pit stop card waits to be collected
                return f"{who}: no speed card may be laid this turn; NEXT/OK for {current}"
            other = f"; or NEXT/OK for {current}" if choice is not None else ""
            return f"{who}: lay a speed card on the discard pile{may_pass}{other}"
        if game.phase is TIP:
            return f"{who}: reveal your next tip with its car token, or NEXT/OK ({current})"
        return f"{who}: {game.phase.value}? {current} (NEXT, OK)"

    def page(self) -> Any:
        from toprace_pi.games.toprace.table.page import TopRacePage  # the web's side of the game, when asked for

        return TopRacePage()

    def announcement(self, event: GameEvent, names: tuple[str, ...]) -> str | None:
        return announcement(event, names)

    def unknown_tag(self, record: str | None, game: TopRace) -> str:
        return unknown_tag(record, game.cars)

    def ignores(self, reader: str, identity: Identity, game: TopRace) -> bool:
        """The reader sees the pile: the card lying there read again (a missed poll, a
        nudge, the top card lifted off to show the one below) is no new input."""
        kind, value = identity
        return reader == DISCARD_READER and kind == "card" and value in game.discard_pile

    def view(self, profile: Profile) -> TableView:
        return TableView(profile)

    def is_deal(self, game: TopRace) -> bool:
        return game.phase is Phase.DEAL

    def undo_refusal(self, action: Action) -> str | None:
        """The deal is chance's: before it there is nothing to take back."""
        return NOTHING_TO_UNDO if isinstance(action, Deal) else None

    def taken_back(self, action: Action) -> str:
        return "took back a trade" if isinstance(action, Trade) else f"took back: {action}"  # a trade is secret

    def board_profile(self, profile: str | None, game: TopRace) -> Profile:
        """The profile ``[files] profile`` names, else the track's own (shipped, or beside its track file)."""
        return load_profile(profile or game.track.slug, track=game.track)  # the game's track: not read again

    def vocabulary(self, game: TopRace) -> TopRaceVocabulary:
        return TopRaceVocabulary(game.cars)

    def key_map(self, game: TopRace) -> KeyMap:
        return key_map(game.cars)

    def tags(self) -> TagBook[Any]:
        """The walks of ``toprace-pi enrol``: the configured deck, its car tokens, each seat's pit stop cards."""
        return tag_book(load_deck(self.setup.deck), len(self.setup.players))

    def finish_place(self, event: GameEvent) -> int | None:
        return event.place if isinstance(event, CarFinished) else None

    def terminal(self, game: TopRace, profile: Profile, lights: Sequence[RGB], *, colour: ColourMode | bool,
                 width: int) -> tuple[str, list[str]]:
        """The track with the cars and what the strip lights under its spaces; the standings (no hand in them)."""
        from toprace_pi.games.toprace.render.terminal import MIN_WIDTH, render_track  # for a terminal, when asked
        from toprace_pi.games.toprace.report import scoreboard

        lit = lights_by_space(profile, game.track, list(lights)) if lights else {}
        board = render_track(game.track, colour=colour, lights=lit, cars=game.cars, board=game.board,
                             width=max(width, MIN_WIDTH))
        return board, scoreboard(game)
