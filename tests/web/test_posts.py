"""What the pages are sent, checked as data: a seat's post is the spectators' with its own view
added, and no post changes when only what its reader may not know changes (another seat's sealed
card, tip or trade, a deck's order). What the posts say: a speed card by its moves wherever it is
named, prompts in the pages' own words (no button of the table), a car's move as a space to tap on
the board and in the words players use, and the time left of a pit stop claim window. Played on the
shipped boards through the games' own pages."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from toprace_pi.core import registry
from toprace_pi.core.game import seat_actions
from toprace_pi.games.toprace.data import load_track
from toprace_pi.games.toprace.rules import MoveCar
from toprace_pi.games.toprace.rules.actions import ReturnCar
from toprace_pi.games.toprace.rules.board import Board
from toprace_pi.games.toprace.rules.variants.pitstop import PIT_STOP_CLAIM
from toprace_pi.games.toprace.table.entries import ClaimWindow
from toprace_pi.games.toprace.table.landmarks import where
from toprace_pi.hardware.sound import SilentSound
from toprace_pi.table.controller import TableController
from toprace_pi.table.remote import SeatInput
from toprace_pi.web.feed import Feed
from toprace_pi.web.posts import Poster

OWN = {"seat", "name", "mine", "options"}


def new_game(name: str, variant: str, **fields):
    problems: list[str] = []
    setup = registry.get(name).records.parse_section({"variant": variant, **fields}, problems)
    assert problems == []
    return setup, setup.new_game()[1]


def controller_for(name: str, setup, game, clock=None) -> TableController:
    side = registry.get(name).table(setup)
    return TableController(game, identify=lambda _: None, say=lambda _: None, sound=SilentSound(), side=side,
                           **({"clock": clock} if clock else {}))


def posts(controller: TableController) -> tuple[dict, list[dict]]:
    made = Poster(controller.side.page()).post(controller)
    assert made is not None
    return json.loads(made[0]), [json.loads(text) for text in made[1]]


def random_step(game, rng: random.Random) -> None:
    game.apply(game.chance_outcomes().sample(rng) if game.decision.chance else rng.choice(game.legal_actions()))


@pytest.mark.parametrize(("name", "variant"), [("toprace", "tips"), ("toprace", "stocks"), ("toprace", "pitstop"),
                                               ("autorace", "base"), ("topspeed", "normal+kers")])
def test_every_post_of_a_game_holds_the_public_view_and_each_seat_its_own(name, variant):
    setup, game = new_game(name, variant)
    rng = random.Random(4)
    controller = controller_for(name, setup, game)
    page = controller.side.page()
    steps = 0
    while not controller.game.is_over and steps < 400:
        game = controller.game
        public, seats = posts(controller)
        assert OWN.isdisjoint(public) and "my_" not in json.dumps(public)
        for seat, post in enumerate(seats):
            assert {k: v for k, v in post.items() if k not in OWN} == public
            assert post["mine"] == page.secrets(game, game.view(seat))
            offered = {option["act"] for option in post["options"]}
            assert offered <= {str(a) for a in seat_actions(game, seat)}
        if game.decision.chance:
            random_step(game, rng)
            controller = controller_for(name, setup, game)  # a table's own step: the next controller sees it
        else:
            seat = rng.choice(game.decision.seats)
            options = seats[seat]["options"] or [{"act": str(rng.choice(seat_actions(game, seat) or
                                                                       game.legal_actions()))}]
            if seats[seat]["options"]:
                answers: list = []
                controller.handle(SeatInput(seat, rng.choice(options)["act"], len(game.log), answers.append))
                assert answers == [None]
            else:  # entered at the table (an auction held aloud)
                controller.game.apply(rng.choice(controller.game.legal_actions()))
                controller = controller_for(name, setup, controller.game)
        steps += 1
    assert steps > 30


def blind_pair(name: str, variant: str, ready, choices, fields=None, seed: int = 2):
    """Two tables of the same game up to the moment ``ready(game)`` says, then each takes one of
    ``choices(game)``'s two actions, entered on the deciding seat's page; their posts."""
    setup, game = new_game(name, variant, **(fields or {}))
    rng = random.Random(seed)
    while not ready(game):
        assert not game.is_over, "the moment never came"
        random_step(game, rng)
    seat, first, second = choices(game)
    out = []
    for action in (first, second):
        copy = game.clone()
        controller = controller_for(name, setup, copy)
        answers: list = []
        controller.handle(SeatInput(seat, action, len(copy.log), answers.append))
        assert answers == [None], answers
        out.append((seat, posts(controller)))
    return out


def assert_blind(pair) -> None:
    """The spectators and every other seat got the same posts; the deciding seat's own differ."""
    (seat, (public_a, seats_a)), (_, (public_b, seats_b)) = pair
    assert public_a == public_b
    for other in range(len(seats_a)):
        if other != seat:
            assert seats_a[other] == seats_b[other]
    assert seats_a[seat] != seats_b[seat]


def test_a_sealed_card_reaches_no_other_page():
    def choices(game):
        seat = game.decision.seats[0]
        cards = [a for a in game.legal_actions() if getattr(a, "seat", None) == seat]
        return seat, str(cards[0]), str(cards[-1])

    assert_blind(blind_pair("autorace", "base", lambda g: g.round == 3 and not g.decision.chance, choices))


def test_a_tip_reaches_no_other_page():
    def ready(game):
        return getattr(game.phase, "name", "") == "TIP"

    def choices(game):
        return game.decision.seats[0], "tip " + game.cars[0].id, "tip " + game.cars[1].id

    assert_blind(blind_pair("toprace", "tips", ready, choices, {"tips": "phones"}))


def test_a_stock_trade_reaches_no_other_page():
    def ready(game):
        return getattr(game.phase, "name", "") == "TRADE"

    def choices(game):
        trades = [a for a in game.legal_actions() if a.sell != a.buy]  # a trade that changes something
        return game.decision.seats[0], str(trades[0]), str(trades[-1])

    assert_blind(blind_pair("toprace", "stocks", ready, choices))


def test_a_decks_order_reaches_no_page():
    """Two races that differ in the order a deck was shuffled into, until a card of it is drawn."""
    setup, game = new_game("topspeed", "normal")
    rng = random.Random(5)
    while not (game.decision.chance and "shuffle" in str(game.chance_outcomes()[0])):
        random_step(game, rng)
    outcomes = game.chance_outcomes()
    tables = []
    for index in (0, outcomes.total - 1):
        copy = game.clone()
        copy.apply(outcomes[index])
        while copy.decision.chance:  # the other decks, shuffled alike on both tables
            copy.apply(copy.chance_outcomes()[0])
        tables.append(posts(controller_for("topspeed", setup, copy)))
    assert tables[0] == tables[1]


def test_the_board_is_drawn_again_when_a_bonus_is_paid_and_only_then():
    setup, game = new_game("autorace", "base")
    rng = random.Random(3)
    controller = controller_for("autorace", setup, game)
    poster = Poster(controller.side.page())
    keys, paid = [], []
    while not game.is_over:
        poster.post(controller)
        keys.append(poster.board_key)
        paid.append(tuple(sorted(game.paid)))
        random_step(game, rng)
    changes = sum(1 for a, b in zip(keys, keys[1:], strict=False) if a != b)
    assert changes == sum(1 for a, b in zip(paid, paid[1:], strict=False) if a != b) > 0


# --- what the posts say ---------------------------------------------------------------------------

#: Every game and variant whose posts are read below.
GAMES = [("toprace", "base"), ("toprace", "pitstop"), ("toprace", "stocks"), ("toprace", "tips"),
         ("toprace", "quick"), ("autorace", "base"), ("topspeed", "normal+kers")]
#: The table's buttons: words for the people at the table, never for a page.
BUTTON_WORDS = re.compile(r"\b(NEXT|OK|PASS|UNDO)\b")


def played(name: str, variant: str, seed: int = 4, steps: int = 700) -> Iterator[tuple[Any, dict, list[dict]]]:
    """A game played at random (each step a new controller, which takes the steps due by themselves, as
    the table does), with the game, its public post and each seat's before each step."""
    setup, game = new_game(name, variant)
    rng = random.Random(seed)
    for _ in range(steps):
        public, seats = posts(controller_for(name, setup, game))
        yield game, public, seats
        if game.is_over:
            return
        random_step(game, rng)


def named(text: str, deck: Any) -> bool:
    """Whether every speed card ``text`` names by number is named with its moves (``#17 Red 6 / ...``)."""
    return all(text[found.start():].startswith(str(deck[int(found.group(1))]))
               for found in re.finditer(r"#(\d+)", text))


@pytest.mark.parametrize("variant", ["pitstop", "stocks"])
def test_a_speed_card_is_named_by_its_moves_wherever_a_page_names_it(variant):
    offered = set()
    for game, public, seats in played("toprace", variant):
        assert all(named(line, game.deck) for line in [public["prompt"], *public["news"]])
        for seat, post in enumerate(seats):
            if game.hands is not None:  # the hand a card a line, each with its moves
                cards = [str(game.deck[number]) for number in game.hands[seat]]
                hand = [f"Your hand ({len(cards)} cards):", *cards] if cards else ["Your hand: empty"]
                assert post["mine"][:len(hand)] == hand
            for option in post["options"]:
                number = getattr(game.parse(option["act"]), "number", None)
                assert named(option["words"], game.deck)
                if number is not None:  # a card played or taken: named in full
                    assert str(game.deck[number]) in option["words"]
                    offered.add(option["act"].split()[0])
    assert offered >= ({"play", "pit", "collect"} if variant == "pitstop" else {"play", "pick"})


@pytest.mark.parametrize(("name", "variant"), GAMES)
def test_no_prompt_on_a_page_names_a_button_of_the_table(name, variant):
    prompts = {public["prompt"] for _, public, _ in played(name, variant)}
    assert len(prompts) > 5 and not [prompt for prompt in prompts if BUTTON_WORDS.search(prompt)]


def test_the_prompts_on_the_pages_in_each_game():
    pages = {name: {public["prompt"] for _, public, _ in played(name, variant, steps=200)}
             for name, variant in [("toprace", "pitstop"), ("autorace", "base"), ("topspeed", "normal+kers")]}
    assert {"Anna: choose where the car ends its move", "auction 1: the bids are made aloud at the table",
            "Anna: play a speed card"} <= pages["toprace"]
    assert any(re.fullmatch(r"pit stop\? (\w+ or )*\w+ may claim #\d+ .+", p) for p in pages["toprace"])
    assert "round 1: Anna, Ben, Carla and David choose a card face down" in pages["autorace"]
    assert "round 1: David chooses a card face down" in pages["autorace"]
    assert any(re.fullmatch(r"\w+, lap 1 of 10: draw a card or .+", p) for p in pages["topspeed"])


def test_a_cars_move_is_offered_on_the_board_where_it_ends_and_where_the_car_stands():
    moves = 0
    for game, _, seats in played("toprace", "pitstop", seed=6):
        for post in seats:
            for option in post["options"]:
                action = game.parse(option["act"])
                if not isinstance(action, (MoveCar, ReturnCar)):
                    assert "at" not in option
                    continue
                moves += 1
                now = game.board.at[action.car] if isinstance(action, MoveCar) else game.board.waiting[action.car].space
                assert (option["at"], option["from"]) == (action.to, game.track.space_id(now))
                there = where(game.track, game.board, game.track.index(action.to), moving=action.car)
                assert option["words"].endswith(there)
                assert action.to == "finish" or f" {action.to}: " in option["words"]
    assert moves > 50


@pytest.mark.parametrize(("track", "space", "words"), [
    ("speed-street", "a5", "inside lane, the 5th space from the start"),
    ("speed-street", "b1", "middle lane, the 1st space from the start"),
    ("speed-street", "c9", "outside lane, the last space before the curve"),
    ("speed-street", "a10", "inside lane, the 1st space of the curve"),
    ("speed-street", "b12", "middle lane, the 3rd space of the curve"),
    ("speed-street", "a13", "inside lane, the 1st space after the curve"),
    ("speed-street", "a54", "inside lane, the last space before the finish line"),
    ("turbo-town", "a1", "outside lane, the 1st space from the start"),  # a track that turns right first
    ("turbo-town", "c14", "inside lane, the 2nd space of the curve"),
    ("turbo-town", "c63", "inside lane, the 2nd space before the curve"),
])
def test_a_space_in_the_words_players_use(track, space, words):
    track = load_track(track)
    _, game = new_game("toprace", "base")
    board = Board(track, game.cars)
    assert where(track, board, track.index(space), moving=game.cars[0]) == words


def test_a_space_level_with_other_cars_is_told_by_them_and_the_finish_by_its_line():
    track = load_track("speed-street")
    _, game = new_game("toprace", "base")
    blue, red, yellow = game.cars[0], game.cars[1], game.cars[2]
    board = Board(track, game.cars)
    board.set_up({blue: track.index("a1"), red: track.index("a6"), yellow: track.index("c6")})
    assert where(track, board, track.index("b6"), moving=blue) == f"middle lane, beside {red} and {yellow}"
    assert where(track, board, track.index("b6"), moving=red) == f"middle lane, beside {yellow}"
    assert where(track, board, track.index("finish"), moving=blue) == "across the finish line"


def test_a_claim_window_is_posted_with_its_time_left_and_each_page_is_told_what_is_left_when_sent():
    now = [100.0]
    setup, game = new_game("toprace", "pitstop")
    rng = random.Random(2)
    while game.phase is not PIT_STOP_CLAIM:
        random_step(game, rng)
    controller = controller_for("toprace", setup, game, clock=lambda: now[0])
    window = controller.entry
    assert isinstance(window, ClaimWindow)
    poster = Poster(controller.side.page())
    now[0] += 2.5
    made = poster.post(controller)
    assert made is not None and made[2] == pytest.approx(setup.claim_window - 2.5)
    feed = Feed(clock=lambda: now[0])
    post = feed.add(*made)
    now[0] += 1.0  # sent a second later: a page that connects late is told what is left then
    sent = json.loads(post.sent(0, feed.clock()))
    assert sent["closes_in"] == pytest.approx(setup.claim_window - 3.5) and sent["seat"] == 0
    assert json.loads(post.sent(None, now[0] + 60))["closes_in"] == 0
    controller.tick(now[0] + setup.claim_window)  # the time is up: the table closes the window
    assert controller.entry is not window
    after = poster.post(controller)
    assert after is not None and after[2] is None and "closes_in" not in feed.add(*after).sent(None, now[0])
