"""The variants at the table: pit stop claims and the box, the Stocks offer row, grid
and stock rounds, entered with tags and buttons."""

from __future__ import annotations

import queue

import pytest
from scenarios import BLACK, BLUE, CARS, DECK, DECKS, GREEN, NAMES, PURPLE, RED, YELLOW, assert_played_with_its_edition
from support.controller import NEXT, OK, PASS, UNDO, Recorder
from support.toprace_table import Clock
from tracks import straight

from toprace_pi.games.toprace.data import load_track
from toprace_pi.games.toprace.rules import Car, Deal, Phase, PlayCard, Settings
from toprace_pi.games.toprace.rules.variants import new_game
from toprace_pi.games.toprace.rules.variants.pitstop import PIT_STOP_CLAIM, ClaimPitStop, TakeFromBox, TakeFromDiscard
from toprace_pi.games.toprace.rules.variants.stocks import GRID, TAKE_OFFER, TRADE, Grid, Trade
from toprace_pi.games.toprace.table.board import TrackBoard
from toprace_pi.games.toprace.table.demo import DemoPlayers, build_demo_table
from toprace_pi.games.toprace.table.entries import CLAIM_WINDOW, ClaimWindow, LayoutEntry, TradeEntry
from toprace_pi.hardware.events import TagLaid
from toprace_pi.hardware.profile import default_profile
from toprace_pi.hardware.strip import SimulatedStrip
from toprace_pi.table.controller import HURRY_BEFORE, LATE_PRESS, TableController
from toprace_pi.table.demo import play_demo
from toprace_pi.table.run import StripSlot, Table

TRACK = straight(40)


def tag(kind: int, value: int, reader: str = "discard") -> TagLaid:
    return TagLaid(reader, bytes([4, kind, 0, 0, 0, 0, value]))


def identify(event: TagLaid):
    kind, value = event.uid[1], event.uid[-1]
    return {0: ("card", value), 1: ("car", CARS[value] if value < 6 else None), 2: ("pit", value)}.get(kind)


def card(n: int) -> TagLaid:
    return tag(0, n)


def car(c: Car) -> TagLaid:
    return tag(1, int(c), "cars")


def pit(seat: int) -> TagLaid:
    return tag(2, seat)


def table(variant: str, players: int = 3):
    out, clock = Recorder(), Clock()
    game = new_game(Settings(NAMES[:players], variant=variant), TRACK, DECK)
    controller = TableController(game, identify=identify, say=out.say, sound=out, clock=clock)
    return controller, out, clock


def table_loop(controller, clock) -> Table:
    """The table's own loop around ``controller``: no readers, a queue of button presses, a strip."""
    view = controller.side.view(default_profile(TrackBoard(TRACK)))
    return Table(controller, view, [], StripSlot(SimulatedStrip(view.profile.led_count)), queue.Queue(), clock=clock)


def sell_all(controller) -> None:
    """Auctions aloud: Anna wins every auction she may bid in, at 10,000."""
    while controller.game.phase in (Phase.BID, Phase.TAKE_CAR, Phase.PLACE_CAR):
        controller.handle(OK)


class TestPitStopAtTheTable:
    def test_the_box_laid_out_face_up_is_scanned_after_a_deal_by_hand(self):
        controller, out, _ = table("pitstop")
        assert isinstance(controller.entry, LayoutEntry) and "box cards" in controller.prompt
        for n in range(1, 6):
            controller.handle(card(n))
        controller.handle(card(5))
        assert out.said[-1] == "speed card #5 is laid out already"
        controller.handle(card(6))
        assert controller.game.log[0] == Deal(None, box=(1, 2, 3, 4, 5, 6))
        assert controller.game.phase is Phase.BID

    def started(self):
        controller, out, clock = table("pitstop")
        for n in range(1, 7):
            controller.handle(card(n))
        sell_all(controller)
        assert controller.game.phase is Phase.PLAY_CARD
        return controller, out, clock

    def test_a_box_card_laid_at_the_start_of_a_turn_is_taken_for_a_pit_stop(self):
        controller, out, _ = self.started()
        controller.handle(card(4))
        assert controller.game.log[-1] == TakeFromBox(4) and controller.game.pit_stops[0] == 2  # Anna used one

    def test_claims_in_the_window_go_to_the_nearest_in_turn_order(self):
        controller, out, clock = self.started()
        game = controller.game
        controller.handle(card(20))  # Anna plays a card from her (hidden) hand
        while game.phase is not PIT_STOP_CLAIM:
            controller.handle(OK)
        assert isinstance(controller.entry, ClaimWindow)
        controller.handle(pit(0))
        assert out.said[-1] == "Anna cannot claim the card they just played"
        controller.handle(pit(2))  # Carla claims first...
        controller.handle(pit(1))  # ...but Ben sits nearer in turn order
        clock.now += CLAIM_WINDOW
        controller.tick(clock.now)
        assert game.log[-1] == ClaimPitStop() and game.pit_waiting[1] == [20]
        assert any("Ben" in s and "pit stop" in s for s in out.said[-4:])

    def test_a_turn_that_must_collect_a_pit_stop_card_says_no_card_may_be_laid(self):
        controller, out, clock = self.in_the_window()
        controller.handle(pit(1))  # Ben claims Anna's #20
        controller.tick(clock.now + CLAIM_WINDOW)
        game = controller.game
        assert game.to_move == 1 and game.playable_cards() == []
        assert controller.prompt.startswith("Ben: no speed card may be laid this turn; NEXT/OK for collect #20")

    def test_a_window_nobody_claims_in_closes_by_itself(self):
        controller, out, clock = self.started()
        game = controller.game
        controller.handle(card(20))
        while game.phase is not PIT_STOP_CLAIM:
            controller.handle(OK)
        controller.tick(clock.now + CLAIM_WINDOW - 0.1)
        assert game.phase is PIT_STOP_CLAIM
        controller.tick(clock.now + CLAIM_WINDOW)
        assert game.phase is Phase.PLAY_CARD and game.to_move == 1 and game.discard[-1] == 20

    def in_the_window(self):
        """Anna has played #20; Ben and Carla may claim it."""
        controller, out, clock = self.started()
        controller.handle(card(20))
        while controller.game.phase is not PIT_STOP_CLAIM:
            controller.handle(OK)
        return controller, out, clock

    def test_the_window_counts_down_and_beeps_once_before_it_closes(self):
        controller, out, clock = self.in_the_window()
        window = controller.entry
        assert window.time_left(clock.now) == CLAIM_WINDOW
        controller.tick(clock.now + CLAIM_WINDOW - HURRY_BEFORE - 0.01)
        assert "hurry" not in out.sounds
        for late in (HURRY_BEFORE, HURRY_BEFORE / 2):
            controller.tick(clock.now + CLAIM_WINDOW - late)
        assert out.sounds.count("hurry") == 1 and controller.entry is window
        assert window.time_left(clock.now + CLAIM_WINDOW + 5) == 0

    def test_ok_pressed_before_the_window_ran_out_closes_it_and_never_acts_on_the_next_turn(self):
        """The table loop takes the presses queued since its last look before it lets time pass: an OK
        pressed to close the window, looked at only once its time is up, closes the window. (It used to
        reach the next player's turn, whose NEXT/OK choice was a pit stop from the box.)"""
        controller, _, clock = self.in_the_window()
        board = table_loop(controller, clock)
        clock.now += CLAIM_WINDOW  # the loop looks again only after the window's time
        board.buttons.put(OK)
        board.step()
        game = controller.game
        assert game.phase is Phase.PLAY_CARD and game.to_move == 1
        assert not any(isinstance(a, TakeFromBox) for a in game.log)

    def test_ok_just_after_the_window_closed_by_itself_is_refused_not_taken_for_the_next_turn(self):
        controller, out, clock = self.in_the_window()
        clock.now += CLAIM_WINDOW
        controller.tick(clock.now)
        game = controller.game
        assert game.phase is Phase.PLAY_CARD and controller.choice is not None  # Ben may pit from the box
        steps = len(game.log)
        clock.now += LATE_PRESS / 2
        controller.handle(OK)
        assert len(game.log) == steps and out.said[-1].startswith("too late: the time was up before that OK")
        controller.handle(OK)  # pressed again: meant for this turn
        assert len(game.log) == steps + 1

    def test_the_piles_top_card_read_again_is_no_pit_stop_which_is_chosen_with_next_ok(self):
        """The reader under the pile sees its top card all the time: reading it again at
        the next turn's start once made a pit stop for that player. Now only a
        deliberate NEXT/OK takes it."""
        controller, out, clock = self.started()
        game = controller.game
        controller.handle(card(20))
        while game.phase is not PIT_STOP_CLAIM:
            controller.handle(OK)
        controller.tick(clock.now + CLAIM_WINDOW)
        assert game.phase is Phase.PLAY_CARD and game.to_move == 1 and game.discard[-1] == 20
        before, refusals = game.snapshot(), controller.refusals
        for _ in range(3):
            controller.handle(card(20))  # missed polls, a nudge: the card on the pile read again
        assert game.snapshot() == before and controller.refusals == refusals and game.pit_stops[1] == 3
        choice = controller.choice
        assert choice is not None and TakeFromDiscard() in choice.options
        while choice.current != TakeFromDiscard():
            controller.handle(NEXT)
        controller.handle(OK)
        assert game.log[-1] == TakeFromDiscard() and game.pit_stops[1] == 2 and 20 not in game.discard


class TestStocksAtTheTable:
    def test_offer_row_grid_and_a_stock_round_entered_with_tokens_and_buttons(self):
        controller, out, _ = table("stocks", players=3)
        game = controller.game
        # 3 players: the offer row is the three Sprint/Breakdown cards alone, nothing to scan.
        assert game.log[0] == Deal(None, offer=(46, 47, 48)) and game.phase is Phase.BID
        while game.phase in (Phase.BID, TAKE_OFFER):
            controller.handle(OK)
        assert game.phase is GRID
        for c in (GREEN, RED, RED, BLUE, YELLOW, BLACK, PURPLE):
            controller.handle(car(c))
        assert "Red is on starting space 2 already" in out.said
        assert game.log[-1] == Grid((GREEN, RED, BLUE, YELLOW, BLACK, PURPLE))
        for _ in range(3):  # a round of turns
            controller.handle(card(game.playable_cards()[0]))
            while game.phase not in (Phase.PLAY_CARD, TRADE):
                controller.handle(OK)
        assert game.phase is TRADE and isinstance(controller.entry, TradeEntry)
        seat = game.seat
        controller.handle(car(PURPLE))
        controller.handle(car(BLACK))
        controller.handle(PASS)  # takes Black back
        controller.handle(car(BLACK))
        controller.handle(OK)  # the cursor's car: Blue
        controller.handle(car(BLUE))
        assert game.log[-1] == Trade((PURPLE, BLACK), (BLUE, BLUE))
        assert game.stocks[seat][BLUE] == 7 and game.stocks[seat][PURPLE] == 4
        trading = out.said[out.said.index(next(s for s in out.said if "sell a stock" in s)):]
        assert not any(str(c) in s for s in trading for c in CARS)  # the trade stays secret
        assert f"{game.names[seat]} has traded" in trading
        controller.handle(UNDO)
        assert out.said[-2] == "took back a trade"

    def test_a_trade_beyond_the_limits_is_refused_and_entered_again(self):
        controller, out, _ = table("stocks", players=3)
        game = controller.game
        while game.phase is not TRADE:
            if game.phase is GRID:
                for c in CARS:
                    controller.handle(car(c))
            elif game.phase is Phase.PLAY_CARD:
                controller.handle(card(game.playable_cards()[0]))
            else:
                controller.handle(OK)
        seat = game.seat
        game.stocks[seat][RED], game.stocks[seat][BLUE] = 0, 10  # as after earlier rounds
        before, steps, said = game.snapshot(), len(game.log), len(out.said)
        for c in (RED, GREEN, BLUE, BLUE):
            controller.handle(car(c))
        assert out.sounds[-1] == "refuse" and out.said[-1].startswith("that trade is not possible")
        heard = " ".join(out.said[said:])  # everyone at the table hears it: no car, no holding
        assert not any(str(c) in heard for c in CARS) and "holds" not in heard
        assert game.snapshot() == before and len(game.log) == steps
        for c in (GREEN, GREEN, BLUE, BLUE):  # entered again from the start
            controller.handle(car(c))
        assert game.log[-1] == Trade((GREEN, GREEN), (BLUE, BLUE))


@pytest.mark.parametrize("variant, players, deck", [
    ("pitstop", 3, "standard"), ("stocks", 4, "standard"), ("pitstop+tips", 2, "standard"), ("stocks", 2, "standard"),
    ("pitstop", 6, "standard"),
    *((variant, 4, "older-edition") for variant in ("base", "tips", "quick", "stocks", "pitstop", "pitstop+tips",
                                                    "pitstop+stocks")),
])
def test_bots_play_whole_variant_games_through_the_devices(variant, players, deck):
    said: list[str] = []
    demo = build_demo_table(load_track("speed-street"), players, 5, variant=variant, deck=deck, say=said.append)
    try:
        game = play_demo(demo, DemoPlayers(["greedy", "random"][:1] * players, seed=5))
    finally:
        demo.close()
    assert game.is_over and demo.controller.refusals == 0, said[-5:]
    assert game.settings.deck == deck and list(game.cars) == list(DECKS[deck].cars)
    assert_played_with_its_edition(game)
    again = type(game).replay(game.settings, game.track, game.deck, game.log)
    assert again.snapshot() == game.snapshot()


def test_a_hidden_deal_card_played_from_the_hand_is_recorded():
    controller, out, _ = table("pitstop")
    for n in range(1, 7):
        controller.handle(card(n))
    sell_all(controller)
    controller.handle(card(30))
    assert PlayCard(30) in controller.game.log
