"""What the pages are sent, checked as data: a seat's post is the spectators' with its own view
added, and no post changes when only what its reader may not know changes (another seat's sealed
card, tip or trade, a deck's order). Played on the shipped boards through the games' own pages."""

from __future__ import annotations

import json
import random

import pytest

from toprace_pi.core import registry
from toprace_pi.core.game import seat_actions
from toprace_pi.hardware.sound import SilentSound
from toprace_pi.table.controller import TableController
from toprace_pi.table.remote import SeatInput
from toprace_pi.web.posts import Poster

OWN = {"seat", "name", "mine", "options"}


def new_game(name: str, variant: str, **fields):
    problems: list[str] = []
    setup = registry.get(name).records.parse_section({"variant": variant, **fields}, problems)
    assert problems == []
    return setup, setup.new_game()[1]


def controller_for(name: str, setup, game) -> TableController:
    side = registry.get(name).table(setup)
    return TableController(game, identify=lambda _: None, say=lambda _: None, sound=SilentSound(), side=side)


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
            assert post["mine"] == page.secrets(game.view(seat))
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
