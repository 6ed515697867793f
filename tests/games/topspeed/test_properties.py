"""TOP SPEED over many random races, each seat played by the random bot from its own view:
every race ends, its log replays it exactly, every card stays its player's, and no seat's
view holds a deck's order or another seat's card kept apart."""

from __future__ import annotations

import json
import random

import pytest

from toprace_pi.games.topspeed.bots import make_bot
from toprace_pi.games.topspeed.rules import Settings, TopSpeed, card_of

from .helpers import CIRCUIT, DECK, NAMES, RULES, conserved

CASES = [(seed, rules) for seed in range(4) for rules in RULES]


def pushing(view: dict) -> str:
    """A player who races: draws until 6 points or two trouble cards, pit stops on a short deck."""
    seat, options = view["seat"], view["my_options"]
    row = view["rows"][seat]
    troubles = sum(not word.isdigit() for word in row)
    points = sum(int(word) for word in row if word.isdigit())
    if f"pit stop {seat}" in options and view["deck_sizes"][seat] < 10:
        return f"pit stop {seat}"
    if f"pass {seat}" in options and (points >= 6 or troubles >= 2):
        return f"pass {seat}"
    for wish in ("keep", "use kept", "draw"):
        if f"{wish} {seat}" in options:
            return f"{wish} {seat}"
    return options[0]


def random_race(seed: int, rules: dict, laps: int = 12, each_step=None, players: int = 0,
                pushy: bool = False) -> TopSpeed:
    players = players or 2 + seed % 7
    game = TopSpeed(Settings(NAMES[:players], laps=laps, **rules), CIRCUIT, DECK)
    rng, bots = random.Random(seed), [make_bot("random", seed * 10 + s) for s in range(players)]
    steps = 0
    while not game.is_over:
        if game.decision.chance:
            game.apply(game.chance_outcomes().sample(rng))
        else:
            (seat,) = game.decision.seats
            view = game.view(seat)
            racing = pushy and seat < 5  # a sixth player or more plays at random, to be lapped
            game.apply(game.parse(pushing(view)) if racing else bots[seat].choose(view))
        if each_step:
            each_step(game, steps)
        steps += 1
        assert steps < 50_000, "the race does not end"
    return game


def dump(game: TopSpeed) -> str:
    return json.dumps(game.to_dict(), sort_keys=True)


@pytest.mark.parametrize(("seed", "rules"), CASES)
@pytest.mark.parametrize("pushy", [False, True])
def test_every_random_race_ends_with_one_winner_and_its_log_replays_it_exactly(seed, rules, pushy):
    game = random_race(seed, rules, pushy=pushy)
    assert game.decision.is_terminal and len(game.winners()) == 1 and game.winners() == game.race_order()[:1]
    assert game.lap == game.settings.laps
    assert dump(game.replayed(game.log)) == dump(game)
    assert dump(game.replayed([str(a) for a in game.log])) == dump(game)


@pytest.mark.parametrize(("seed", "rules"), CASES[::3])
@pytest.mark.parametrize("pushy", [False, True])
def test_every_card_stays_its_players_deck_row_discard_pile_damage_row_or_kept_apart(seed, rules, pushy):
    def check(game, step):
        assert conserved(game), f"step {step}"

    random_race(seed, rules, each_step=check, pushy=pushy)


def _others_changed(game: TopSpeed, seat: int) -> TopSpeed:
    """The same moment with every deck in another order and every other seat's secret cards changed."""
    other = game.clone()
    other.decks = [deck[::-1] for deck in other.decks]
    for s in range(len(other.names)):
        if s != seat:
            other.kept[s], other.drawn[s] = _another(other.kept[s]), _another(other.drawn[s])
    return other


def _another(card):
    """Another green card in place of ``card`` (if there is one): whether a seat keeps a card is public."""
    return None if card is None else card_of("1" if card.points == 9 else "9")


@pytest.mark.parametrize(("seed", "rules"), [(5, RULES[4]), (6, RULES[6]), (1, RULES[0])])
@pytest.mark.parametrize("pushy", [False, True])
def test_a_seats_view_holds_no_decks_order_and_no_other_seats_kept_card(seed, rules, pushy):
    def check(game, step):
        if step % 7:
            return
        for seat in [None, *range(len(game.names))]:
            assert game.view(seat) == _others_changed(game, -1 if seat is None else seat).view(seat)
        seen = game.seen_by(0)
        for hidden in ("decks", "log", "to_dict", "clone", "replayed", "__dict__"):
            with pytest.raises(AttributeError):
                getattr(seen, hidden)
        assert all(card is None for card in seen.kept[1:]) and all(card is None for card in seen.drawn[1:])

    random_race(seed, {**rules, "kers": True}, each_step=check, pushy=pushy)


def test_long_races_bring_out_the_safety_car_lap_cars_and_end():
    events = set()
    for seed in range(3):
        game = random_race(seed, {"race": "wet", "kers": True}, laps=30, players=6, pushy=True)
        events |= {type(e).__name__ for e in game.events}
        assert all(isinstance(e.text(game.names), str) and e.text(game.names) for e in game.events)
    assert {"SafetyCar", "LeaderCrossed", "OutOfRound", "Damaged", "PitStopDeclared", "Lapped", "KeptApart",
            "UsedKept", "TableCards"} <= events


@pytest.mark.parametrize(("seed", "rules"), CASES[1::3])
@pytest.mark.parametrize("pushy", [False, True])
def test_no_two_cars_share_a_space_and_the_lap_counter_never_moves_back(seed, rules, pushy):
    laps: list[int] = []

    def look(game: TopSpeed, step: int) -> None:
        snapshot = game.snapshot()
        spaces = snapshot["spaces"]
        on_the_grid = snapshot["stage"] in ("RACE", "OVER")  # before, the cars wait for their places
        assert not on_the_grid or len(set(spaces)) == len(spaces), f"step {step}: two cars on one space: {spaces}"
        assert not laps or game.lap >= laps[-1], f"step {step}: the lap counter went back to {game.lap}"
        laps.append(game.lap)

    game = random_race(seed, rules, pushy=pushy, each_step=look)
    assert laps[-1] == game.settings.laps and len(laps) > 20
