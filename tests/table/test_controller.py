"""The table controller: scans and presses become rule actions; bad input is refused
with a reason and a buzz and changes nothing."""

from __future__ import annotations

import random

import pytest
from scenarios import BLACK, BLUE, CARS, DECK, GREEN, NAMES, PURPLE, RED, YELLOW
from support.controller import NEXT, OK, PASS, UNDO, Recorder
from tracks import straight

from toprace_pi.games.toprace.rules import Car, Deal, MoveCar, Phase, PlayCard, Settings, Sold, TopRace
from toprace_pi.hardware.events import ButtonPressed, DeviceStatus, TagLaid
from toprace_pi.table.controller import TableController

TRACK = straight(40)


def card_tag(number: int) -> TagLaid:
    return TagLaid("discard", bytes([4, 0, 0, 0, 0, 0, number]))


def car_tag(car: Car) -> TagLaid:
    return TagLaid("cars", bytes([4, 1, 0, 0, 0, 0, car.index]))


def identify(event: TagLaid):
    kind, value = event.uid[1], event.uid[-1]
    if event.uid[0] != 4 or value == 99:
        return None
    return ("card", value) if kind == 0 else ("car", CARS[value])


@pytest.fixture
def table():
    out = Recorder()
    game = TopRace(Settings(NAMES[:2]), TRACK, DECK)
    controller = TableController(game, identify=identify, say=out.say, sound=out)
    return controller, out


def sell(controller, winner_steps: int, price_steps: int, car: Car, start_steps: int = 0) -> None:
    """Enter an auction held aloud, then the winner's car token and starting space."""
    for event in [NEXT] * winner_steps + [OK] + [NEXT] * price_steps + [OK]:
        controller.handle(event)
    controller.handle(car_tag(car))
    for event in [NEXT] * start_steps + [OK]:
        controller.handle(event)


def race_started(controller) -> None:
    for n, car in enumerate((RED, BLUE, YELLOW, BLACK, PURPLE, GREEN)):
        sell(controller, n % 2, 0, car)


def test_the_cards_are_dealt_by_hand_and_the_auction_is_entered_as_winner_and_price(table):
    controller, out = table
    game = controller.game
    assert game.hands is None and game.phase is Phase.BID
    assert "who won this auction? Anna" in out.said[-1]
    controller.handle(NEXT)  # Ben
    controller.handle(OK)
    controller.handle(NEXT)
    controller.handle(NEXT)  # 30,000
    controller.handle(PASS)  # 20,000
    assert "Ben pays 20,000" in controller.prompt
    controller.handle(OK)
    assert game.log[-1] == Sold(1, 20_000) and game.money[1] == 180_000
    assert game.phase is Phase.TAKE_CAR


def test_the_winner_scans_a_car_token_and_picks_a_starting_space(table):
    controller, out = table
    sell(controller, 0, 1, GREEN, start_steps=2)
    game = controller.game
    assert game.owner[GREEN] == 0
    assert game.board.at[GREEN] == TRACK.starting_spaces[3]


def test_a_speed_card_laid_on_the_reader_is_played_and_moves_are_confirmed_with_ok(table):
    controller, out = table
    race_started(controller)
    game = controller.game
    assert controller.prompt == "Anna: lay a speed card on the discard pile"
    controller.handle(card_tag(13))  # Yellow 6 / Red 4 / Black 2
    assert game.phase is Phase.MOVE_CAR and game.moving.car == YELLOW
    ends = game.move_ends()
    controller.handle(NEXT)
    controller.handle(OK)
    assert game.log[-1] == MoveCar(YELLOW, ends[1 % len(ends)])
    assert game.moving.car == RED


def test_refusals_change_nothing_and_buzz(table):
    controller, out = table
    race_started(controller)
    controller.handle(card_tag(13))
    game = controller.game
    before, log = game.snapshot(), len(game.log)
    for bad, reason in [
        (TagLaid("discard", b"\x07\x07\x07\x07"), "this tag is not enrolled: run toprace-pi enrol cards"),
        (card_tag(1), "finish the card in play first"),
        (car_tag(RED), "no car token is asked for now"),
        (PASS, "PASS means nothing now"),
        (ButtonPressed("undo"), "hold UNDO to take back the last step"),
    ]:
        out.sounds.clear()
        controller.handle(bad)
        assert reason in out.said[-1] and out.sounds == ["refuse"]
        assert game.snapshot() == before and len(game.log) == log


def test_a_card_lying_on_the_pile_read_again_is_no_input(table):
    """The discard reader sees the pile: after a missed poll, a nudge, or the top card
    lifted off to show the one below, the card lying there is read again. Nothing
    happens: no refusal, no buzz, no step."""
    controller, out = table
    race_started(controller)
    controller.handle(card_tag(13))
    while controller.game.phase is not Phase.PLAY_CARD:
        controller.handle(OK)
    controller.handle(card_tag(1))
    while controller.game.phase is not Phase.PLAY_CARD:
        controller.handle(OK)
    before, said, sounds = controller.game.snapshot(), len(out.said), len(out.sounds)
    for number in (1, 13, 1):  # the top card again; lifted, the one below; laid back
        controller.handle(card_tag(number))
    assert controller.game.snapshot() == before and out.said[said:] == [] and out.sounds[sounds:] == []


def test_undo_takes_back_the_last_step_and_survives_as_a_replay(table):
    controller, out = table
    race_started(controller)
    controller.handle(card_tag(13))
    controller.handle(OK)
    moved = controller.game.snapshot()
    controller.handle(UNDO)
    assert controller.game.log[-1] == PlayCard(13) and controller.game.moving.car == YELLOW
    assert "took back: move yellow" in out.said[-2]
    controller.handle(OK)
    assert controller.game.snapshot() == moved


def test_nothing_to_take_back_at_the_start(table):
    controller, out = table
    controller.handle(UNDO)
    assert out.said[-1] == "there is nothing to take back"


def test_finishes_are_announced_with_the_prize_and_the_owner(table):
    controller, out = table
    race_started(controller)
    game = controller.game
    game.board.set_up({YELLOW: TRACK.index("a38")})  # three steps from the line, and a Yellow 6 to play
    controller.handle(card_tag(13))
    assert game.move_ends() == ["finish"]
    controller.handle(OK)
    assert any(s.startswith("Yellow finishes first: 200,000 to Anna") for s in out.said)
    assert "finish 1" in out.sounds


def test_device_news_is_passed_on(table):
    controller, out = table
    controller.handle(DeviceStatus("discard reader", False, "the discard reader is missing: still looking"))
    assert out.said[-1] == "the discard reader is missing: still looking"


# --- what the players hear, at the pace they play --------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def paced_table(repeat_prompt: float = 0.0):
    out, asked, clock = Recorder(), [], Clock()
    game = TopRace(Settings(NAMES[:2]), TRACK, DECK)
    controller = TableController(game, identify=identify, say=out.say, ask=asked.append, sound=out,
                                 clock=clock, repeat_prompt=repeat_prompt)
    return controller, out, asked, clock


def idle(controller, clock, seconds: float, tick: float = 0.01) -> None:
    """The table's loop with nobody touching anything: a tick every 10 ms."""
    for _ in range(round(seconds / tick)):
        clock.now += tick
        controller.tick(clock.now)


def test_the_prompt_is_said_once_however_long_the_table_waits():
    controller, out, asked, clock = paced_table()
    assert asked == [controller.prompt]  # the first auction
    idle(controller, clock, 60.0)
    assert asked == [controller.prompt] and out.said == []  # 6,000 ticks, nothing more


def test_a_short_press_of_next_that_means_nothing_else_says_the_prompt_again():
    controller, out, asked, clock = paced_table()
    race_started(controller)
    assert controller.game.phase is Phase.PLAY_CARD and controller.choice is None
    prompts = len(asked)
    controller.handle(NEXT)
    assert asked[prompts:] == [controller.prompt] and out.sounds[-1] != "refuse"
    controller.handle(ButtonPressed("next", held=True))
    assert out.sounds[-1] == "refuse" and len(asked) == prompts + 1


def test_after_a_quiet_time_set_in_the_config_the_prompt_is_said_again():
    controller, out, asked, clock = paced_table(repeat_prompt=30.0)
    idle(controller, clock, 29.0)
    assert len(asked) == 1
    idle(controller, clock, 1.5)
    assert asked == [controller.prompt] * 2
    clock.now += 20.0
    controller.handle(NEXT)  # someone is at it: the next candidate is said, and the quiet time starts again
    assert len(asked) == 3 and "Ben" in asked[-1]
    idle(controller, clock, 29.0)
    assert len(asked) == 3
    idle(controller, clock, 1.5)
    assert asked[3:] == [asked[2]]


class RefusingJournal:
    """A journal on a disk that refuses every write."""

    records = 0

    def append(self, *args, **kwargs) -> None:
        raise OSError(28, "No space left on device")

    append_undo = append


def test_a_step_that_could_not_be_saved_is_the_one_taken_once_it_is_saved():
    controller, out, asked, clock = paced_table()
    race_started(controller)
    controller.handle(card_tag(1))  # Red 6 / Yellow 4 / Black 2 / Blue 1
    choice = controller.choice
    assert choice is not None and len(choice.labels) > 1
    controller.handle(NEXT)
    wanted, log = choice.current, list(controller.game.log)
    controller.journal = RefusingJournal()  # type: ignore[assignment]
    controller.handle(OK)
    assert out.said[-1].startswith("the step could not be saved: the disk that holds the journal is full")
    controller.handle(OK)  # pressed again meanwhile: nothing more is taken
    assert out.said[-1] == "wait: the step is not saved yet (the table tries again in 1 s)"
    assert controller.game.log == log
    controller.journal = None
    idle(controller, clock, 1.0)
    assert controller.game.log == [*log, wanted]  # the move the player chose, not the first option


class DealRefusingJournal(RefusingJournal):
    """A disk that fills up just when the next race is to be dealt."""

    def __init__(self) -> None:
        self.deals = 0

    def append(self, actions, **kwargs) -> None:
        if any(isinstance(a, Deal) for a in actions):
            self.deals += 1
            if self.deals > 1:
                raise OSError(28, "No space left on device")


def test_a_deal_that_could_not_be_saved_after_a_step_was_taken_says_exactly_that():
    out = Recorder()
    game = TopRace(Settings(NAMES[:2], races=2), straight(12), DECK)
    controller = TableController(game, identify=identify, say=out.say, sound=out,
                                 dealer=lambda g: g.deal(random.Random(1)), journal=DealRefusingJournal())
    while controller.game.race == 1 or controller.game.phase is not Phase.DEAL:
        game = controller.game
        if game.phase is Phase.PLAY_CARD:
            controller.handle(card_tag(game.playable_cards()[0]))
        elif game.phase is Phase.TAKE_CAR:
            controller.handle(car_tag(game.cars_for_sale()[0]))
        else:
            controller.handle(OK)
    assert controller.game.race == 2 and controller.game.results  # the race's last step was taken
    assert out.said[-1] == ("the last step was taken, but the deal could not be saved: the disk that holds the journal "
                            "is full. Make room on it: the table tries again by itself (next in 1 s)")
