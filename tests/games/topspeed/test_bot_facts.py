"""The sensible rule reads its seat's facts off the view (the bot at the table) or off the full
game (the search's playouts, no view made): the two give the same choice in every state, and
the search leaves a riskless draw to that rule without a playout, and weighs a risky one as plans
(the round's later draws bolder or warier)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable

import pytest

from toprace_pi.core.search import Plan
from toprace_pi.games.topspeed.bots.search import (
    CAUTIONS,
    RoundCaution,
    draw_plans,
    riskless,
    search_bot,
    sensible_policy,
    win_chance,
)
from toprace_pi.games.topspeed.bots.sensible import (
    SensibleBot,
    ViewFacts,
    WorldFacts,
    behind_at_the_end,
    draw_odds,
    worth_a_draw,
)
from toprace_pi.games.topspeed.rules import Draw, HiddenShuffle, Pass, PitStop, Settings, Shuffle, TopSpeed

from .helpers import CIRCUIT, DECK, NAMES, RULES, place, play, race, stack


def states(seed: int, rules: dict, hidden: bool = False):
    """A race played mostly by the sensible bot, sometimes at random (so the states stray from its
    own), yielding (game, seat) at each seat's decision; ``hidden``: some decks shuffled by hand."""
    rng = random.Random(seed)
    game = TopSpeed(Settings(NAMES[:2 + seed % 5], laps=6, **rules), CIRCUIT, DECK)
    sensible = SensibleBot()
    while not game.is_over:
        if game.decision.chance:
            step = game.chance_outcomes().sample(rng)
            game.apply(HiddenShuffle(step.seat) if hidden and isinstance(step, Shuffle) and rng.random() < 0.5
                       else step)
            continue
        seat = game.turn
        yield game, seat
        options = game.legal_actions()
        game.apply(sensible.choose(game.view(seat)) if rng.random() < 0.8 else rng.choice(options))


def counted(left: Iterable[tuple[str, int]]) -> Counter[str]:
    """The cards a deck can hold, by word, their copies added up."""
    counts: Counter[str] = Counter()
    for word, copies in left:
        counts[word] += copies
    return counts


@pytest.mark.parametrize("rules", RULES)
def test_the_rule_chooses_the_same_off_the_game_as_off_the_view(rules):
    compared = 0
    for seed in range(6):
        for game, seat in states(seed, rules, hidden=seed % 3 == 2):
            view = game.view(seat)
            assert sensible_policy(game, seat, random.Random(0)) == SensibleBot().choose(view), (
                f"seed {seed}: the rule off the game differs from the bot on {view}")
            world, facts = WorldFacts(game, seat), ViewFacts(view)
            assert counted(world.left()) == counted(facts.left())
            compared += 1
    assert compared > 300


def test_the_rule_agrees_in_the_worlds_of_a_search():
    """In a world the search draws, every seat's facts off the world are those of its view there
    (another seat's card kept apart drawn anew, the deck without it)."""
    compared = 0
    for game, seat in states(1, {"kers": True}):
        world = game.determinized(seat, random.Random(compared))
        for other in range(len(world.names)):
            assert counted(WorldFacts(world, other).left()) == counted(ViewFacts(world.view(other)).left())
        compared += 1
    assert compared > 50


def test_a_riskless_draw_is_left_to_the_rule():
    """A row no card of the deck can pair with: the search draws, with no playout; with a risk, it searches."""
    settled = searched = 0
    for game, seat in states(2, {}):
        facts = ViewFacts(game.view(seat))
        if "pass" not in facts.options or "draw" not in facts.options:
            continue
        bot = search_bot(1, "easy")
        choice = bot.choose(game.seen_by(seat))
        if draw_odds(facts)[1] == 0:
            assert riskless(game.seen_by(seat), seat)
            assert choice == Draw(seat) and bot.last_playouts == 0
            settled += 1
        else:
            assert bot.last_playouts > 0
            searched += 1
        if settled >= 3 and searched >= 3:
            return
    pytest.fail(f"{settled} riskless and {searched} risky draws met")  # pragma: no cover


def test_a_playout_is_judged_by_the_chance_of_winning_from_where_the_cars_stand():
    game = race(3)
    game.progress[:] = [20, 20, 20]
    assert win_chance(game, 0) == pytest.approx(0.25)  # level with two others: half a chance against each
    game.progress[:] = [24, 20, 20]
    ahead, behind = win_chance(game, 0), win_chance(game, 1)
    assert 0.25 < ahead < 1 and 0 < behind < 0.25
    game.lap = game.settings.laps - 1  # the same lead on the last lap of the counter counts for more
    assert win_chance(game, 0) > ahead and win_chance(game, 1) < behind


def test_a_finished_race_is_worth_all_to_its_winner_and_nothing_to_the_rest():
    for game, _ in states(3, {}):
        pass
    assert game.is_over
    chances = [win_chance(game, seat) for seat in range(len(game.names))]
    assert chances.count(1.0) == 1 and chances.count(0.0) == len(chances) - 1
    assert chances.index(1.0) == game.winners()[0]


def test_held_up_by_yellow_flags_the_rule_draws_no_points_it_could_not_drive():
    """Two Yellow Flags on the table: Carla's row already takes her to the car ahead, so another card
    could only cost her; the leader, with the track open ahead, draws on. Off the game and off the
    view the rule reads the same room."""
    game = race(3)
    place(game, Anna=10, Ben=5, Carla=3)
    for seat, word in enumerate(("yellow_flag", "yellow_flag", "4")):
        stack(game, seat, word)
    play(game, "draw 0", "draw 1", "draw 2", "pass 0", "pass 1")
    view = game.view(2)
    assert view["yellow_flags"] == 2 and ViewFacts(view).room == WorldFacts(game, 2).room == 1
    assert SensibleBot().choose(view) == Pass(2)
    blind = ViewFacts(view)
    blind.room = None
    assert draw_odds(blind)[0] > draw_odds(blind)[1]  # counting every point, the draw would be worth it
    assert ViewFacts(game.view(0)).room == 24  # Anna, in the lead: 25 spaces to Carla, a lap behind


def test_without_two_yellow_flags_the_car_has_the_whole_track():
    game = race(3)
    place(game, Anna=10, Ben=5, Carla=3)
    stack(game, 0, "yellow_flag")
    play(game, "draw 0")
    assert ViewFacts(game.view(1)).room is None and WorldFacts(game, 1).room is None


def test_in_the_last_round_a_car_left_behind_draws_whatever_the_risk():
    """The race's last round: Ben passed with a row that keeps him ahead of Anna, so a row Anna could lose
    is worth nothing to her and she draws on. A round earlier she weighs the risk and passes, unless Ben's
    row takes him, the lead car, across the line (the counter's last lap, so this is the last round)."""
    row = ("4", "tire_trouble", "4", "engine_trouble", "3", "off_track", "drive_through")
    for lap, ben, drawn in ((8, 50, False), (9, 50, True), (8, 60, True)):
        game = race(2, laps=10)
        game.lap, game.lead_lap = lap, 1
        place(game, Anna=40, Ben=ben)  # Ben bound for 55 (short of the line at 64) or 65; Anna for 51
        stack(game, 0, *row)
        stack(game, 1, "3", "2")
        play(game, "draw 0", "draw 1", "draw 0", "draw 1", "draw 0", "pass 1", *["draw 0"] * 4)
        view = game.view(0)
        assert view["turn"] == 0 and view["rows"][0] == list(row)
        facts = ViewFacts(view)
        assert not worth_a_draw(facts)  # four troubles in the row: by the odds, a pass
        assert facts.standing() == WorldFacts(game, 0).standing()
        assert (SensibleBot().choose(view) == Draw(0)) is drawn


def before_the_first_draw(laps: int, lap: int, deck: int | None = None, damage: tuple[str, ...] = ()) -> TopSpeed:
    """Anna about to draw her round's first card, the lap counter at ``lap`` of ``laps``: her deck cut to
    ``deck`` cards (the rest in her discard pile) and ``damage`` taken from it into her damage row."""
    game = race(2, laps=laps)
    game.lap = lap
    cards = list(game.decks[0])
    taken = [next(card for card in cards if card.word == word) for word in damage]
    for card in taken:
        cards.remove(card)
    keep = len(cards) if deck is None else deck
    game.decks[0], game.discards[0] = tuple(cards[-keep:]), tuple(cards[:-keep])
    game.damage[0] = tuple(taken)
    assert game.turn == 0 and {"draw", "pit stop"} <= set(ViewFacts(game.view(0)).options)
    return game


@pytest.mark.parametrize(("laps", "lap", "pits"), [(10, 8, False), (10, 6, True), (40, 20, True)])
def test_a_short_deck_pits_only_if_it_would_run_dry_before_the_last_round(laps, lap, pits):
    """Eight cards left, about a round's worth and a bit: with the race's last two laps to go, the car
    drives them; with four laps or more to go, an empty deck would force a stop anyway, and one now
    spares a thin round."""
    game = before_the_first_draw(laps, lap, deck=8)
    assert (SensibleBot().choose(game.view(0)) == PitStop(0)) is pits
    assert sensible_policy(game, 0, random.Random(0)) == SensibleBot().choose(game.view(0))


@pytest.mark.parametrize(("laps", "lap", "pits"), [(10, 4, False), (30, 4, True)])
def test_a_heavy_damage_row_pits_only_if_the_rounds_left_repay_the_stop(laps, lap, pits):
    """An Engine and a Tire trouble in the damage row: two points off every round, and a pit stop would
    take the car 10 spaces back and cost the round; worth it with 26 laps to go, not with 6."""
    game = before_the_first_draw(laps, lap, damage=("engine_trouble", "tire_trouble"))
    facts = ViewFacts(game.view(0))
    assert facts.damage == 2 and facts.pit_back() == WorldFacts(game, 0).pit_back() == 10
    assert (SensibleBot().choose(game.view(0)) == PitStop(0)) is pits
    assert sensible_policy(game, 0, random.Random(0)) == SensibleBot().choose(game.view(0))


def test_a_draw_is_weighed_with_how_boldly_the_round_goes_on():
    """Where a pass is an option beside the draw, the search weighs four plans: the pass, the draw with the
    rule's own caution after it, and the draw followed by bolder or warier draws this round; before the
    first card (a pit stop the other option) the actions alone."""
    planned = unplanned = 0
    for game, seat in states(4, {}):
        seen, actions = game.seen_by(seat), game.options(seat)
        plans = draw_plans(seen, seat, actions, sensible_policy(game, seat, random.Random(0)))
        if Pass(seat) in actions and Draw(seat) in actions:
            assert plans == [Plan(Pass(seat)), Plan(Draw(seat)),
                             *(Plan(Draw(seat), RoundCaution(seat, game.round, c)) for c in CAUTIONS)]
            planned += 1
        else:
            assert plans is None
            unplanned += 1
    assert planned > 10 and unplanned > 10


def test_a_rounds_caution_is_the_planning_seats_in_that_round_alone():
    """A draw whose odds lie between a bold and a wary caution: the bold plan draws, the wary one passes;
    for another seat, or in another round, the plan's policy is the sensible rule."""
    for game, seat in states(5, {}):
        facts = WorldFacts(game, seat)
        if "pass" not in facts.options or "draw" not in facts.options:
            continue
        gain, risk = draw_odds(facts)
        if not CAUTIONS[0] * risk < gain < CAUTIONS[1] * risk or behind_at_the_end(facts):
            continue
        rng, rule = random.Random(0), sensible_policy(game, seat, random.Random(0))
        bold, wary = (RoundCaution(seat, game.round, c) for c in CAUTIONS)
        assert (bold(game, seat, rng), wary(game, seat, rng)) == (Draw(seat), Pass(seat))
        other = (seat + 1) % len(game.names)
        assert RoundCaution(other, game.round, CAUTIONS[1])(game, seat, rng) == rule
        assert RoundCaution(seat, game.round + 1, CAUTIONS[1])(game, seat, rng) == rule
        return
    pytest.fail("no draw between the two cautions")  # pragma: no cover


def test_with_a_card_kept_apart_every_option_is_weighed_and_the_search_answers():
    """KERS: a seat holding a kept card may draw, pass or use it; the plans weigh all three (the rule
    uses a kept card first, so that choice is the search's yardstick) and the search picks one of them."""
    met = 0
    for game, seat in (state for seed in range(12) for state in states(seed, {"kers": True})):
        actions = game.options(seat)
        if Draw(seat) not in actions or Pass(seat) not in actions or len(actions) < 3:
            continue
        plans = draw_plans(game.seen_by(seat), seat, actions, sensible_policy(game, seat, random.Random(0)))
        assert plans is not None and {plan.action for plan in plans} == set(actions)
        assert search_bot(1, "easy").choose(game.seen_by(seat)) in actions
        met += 1
        if met == 3:
            return
    pytest.fail(f"{met} decisions with a kept card met")  # pragma: no cover
