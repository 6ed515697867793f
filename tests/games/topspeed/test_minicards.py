"""Physical minicards at the table: each player shuffles their own deck by hand and lays the card
drawn on the reader; the table checks it against what that deck may still hold, refusing with a
clear word and no change, and takes it as the draw."""

from __future__ import annotations

from toprace_pi.games.topspeed.rules import DrawCard, HiddenShuffle, Settings, TopSpeed
from toprace_pi.games.topspeed.settings import TableGame, parse_section
from toprace_pi.games.topspeed.table.side import DRAWN_STANDS, TopSpeedTable
from toprace_pi.games.topspeed.table.tags import UNKNOWN_TAG
from toprace_pi.hardware.events import ButtonPressed, TagLaid
from toprace_pi.hardware.sound import SilentSound
from toprace_pi.table.controller import TableController

from .helpers import CIRCUIT, DECK, NAMES

CAR_IDS = ("red", "green", "blue", "yellow", "orange", "purple", "white", "pink")
#: The Safety Cars' numbers in the deck file's order (14 ones, 16 twos, 12 threes, 8 fours, 3 + 3 troubles first).
SAFETY_CARS = (57, 58)
A_TWO = 20


def uid(car: int, number: int) -> bytes:
    return bytes([0x04, 0x70, car, number, 0, 0, 0])


class Table:
    def __init__(self, players: int = 2) -> None:
        self.said: list[str] = []
        setup = TableGame(players=NAMES[:players], decks="physical")
        game = TopSpeed(Settings(NAMES[:players]), CIRCUIT, DECK)
        self.controller = TableController(game, identify=self.identify, say=self.said.append, sound=SilentSound(),
                                          side=TopSpeedTable(setup))

    @staticmethod
    def identify(event: TagLaid):
        return "minicard", (CAR_IDS[event.uid[2]], event.uid[3]) if event.uid != b"\x00" else None

    @property
    def game(self) -> TopSpeed:
        return self.controller.game

    def lay(self, car: int, number: int) -> None:
        self.controller.handle(TagLaid("seats", uid(car, number)))


def test_the_players_shuffle_by_hand_and_the_table_draws_only_the_grid():
    table = Table()
    game = table.game
    assert [type(a).__name__ for a in game.log] == ["StartOrder", "HiddenShuffle", "HiddenShuffle"]
    assert game.hidden == [True, True]
    who = game.names[game.turn]
    assert table.said[-1] == (f"{who}, lap 1 of 10: draw a minicard and lay it on your reader; or a pit stop "
                              "(a new deck, and back in the movement)? OK")


def test_a_minicard_laid_is_the_draw_and_read_again_it_is_no_input():
    table = Table()
    seat = table.game.turn
    table.lay(seat, A_TWO)
    assert table.game.log[-1] == DrawCard(seat, "2") and f"{NAMES[seat]} draws a 2" in table.said
    steps = len(table.game.log)
    table.lay(seat, A_TWO)
    assert len(table.game.log) == steps and table.controller.refusals == 0


def test_a_card_of_another_deck_or_of_no_car_in_play_is_refused_with_its_word():
    table = Table()
    seat, other = table.game.turn, 1 - table.game.turn
    steps = len(table.game.log)
    table.lay(other, 3)
    assert table.said[-1] == f"that is {NAMES[other]}'s minicard: {NAMES[seat]} is to draw"
    table.lay(7, 3)
    assert table.said[-1] == "nobody races the Pink car: that minicard is not in play"
    assert len(table.game.log) == steps and table.controller.refusals == 2


def test_a_card_already_drawn_and_a_kind_the_deck_no_longer_holds_are_refused():
    table = Table()
    first = table.game.turn
    table.lay(first, SAFETY_CARS[0])
    table.lay(1 - first, 1)
    table.lay(first, SAFETY_CARS[0])
    assert table.said[-1] == f"{NAMES[first]}: that minicard was already drawn, draw the next one"
    table.lay(first, SAFETY_CARS[1])  # a normal race: one of the two was set aside before the start
    assert table.said[-1] == f"{NAMES[first]}'s deck holds no more Safety Car"
    assert table.game.log[-1] == DrawCard(1 - first, "1") and table.controller.refusals == 2


def test_undo_never_takes_back_a_minicard_drawn_nor_a_shuffle_by_hand():
    table = Table()
    table.controller.handle(ButtonPressed("undo", held=True))
    assert isinstance(table.game.log[-1], HiddenShuffle)
    seat = table.game.turn
    table.lay(seat, 1)
    table.controller.handle(ButtonPressed("undo", held=True))
    assert table.said[-1] == DRAWN_STANDS


def test_ok_alone_does_not_draw_with_physical_minicards():
    table = Table()
    entry = table.controller.entry
    assert entry is not None and [type(a).__name__ for a in entry.options] == ["PitStop"]
    table.controller.handle(ButtonPressed("pass"))
    assert "must draw a card before passing" in table.said[-1]


def test_an_unknown_tag_is_named_so(monkeypatch):
    table = Table()
    table.controller.identify = lambda event: None
    table.lay(0, 1)
    assert table.said[-1] == UNKNOWN_TAG


def test_the_config_names_who_holds_the_decks():
    problems: list[str] = []
    assert parse_section({"decks": "physical"}, problems).decks == "physical" and problems == []
    assert parse_section({"decks": "paper"}, problems).decks == "virtual"
    assert problems == ["[game] decks: one of virtual, physical, not 'paper'"]


def test_the_enrolment_walks_each_deck_in_play_card_by_card():
    book = TopSpeedTable(TableGame(players=NAMES[:3], decks="physical")).tags()
    assert len(book.walks["minicards"].identities) == 3 * 72 and set(book.walks) == {"minicards", "red", "green",
                                                                                      "blue"}
    first = book.walks["green"].identities[0]
    assert book.vocabulary.key(first) == "minicard green 1" and book.vocabulary.identity("minicard green 1") == first
    assert book.vocabulary.describe(first) == "Green's minicard 1 (a 1)"
    assert book.vocabulary.identity("minicard green 73") is None
