"""Properties of AUTORACE over random series: hypothesis picks the players, each seat's bot, the
games, the boost and the seed; the series is then driven one seat at a time (so a later seat
chooses while earlier seats' cards lie sealed) and checked after every action:

* money is conserved: the players' money and the bank's take always add up to the start capital,
  and at the end the money is explained by the events (fines, draws, outs, bonuses, boosts);
* every game ends, and the series with it;
* the log replays to the same game;
* no seat's view holds another seat's sealed card (its ``view`` and its ``seen_by`` game, whose log
  is not there at all), and a bot's card is the same whatever another seat has sealed;
* the bots lay only cards of their ``my_options``.

A failure replays with :func:`play_checked` and the example hypothesis prints."""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toprace_pi.games.autorace.bots import SIMPLE_KINDS, Bot, make_bot
from toprace_pi.games.autorace.data import load_board
from toprace_pi.games.autorace.rules import Autorace, Choose, Reveal, Settings, TakeBack
from toprace_pi.games.autorace.rules import events as ev
from toprace_pi.games.autorace.simulate import player_names, simulate

BOARD = load_board()
#: No game of the shipped board lasts this long: positions only grow, and every draw costs money.
MOST_ROUNDS = 400


@dataclass(frozen=True)
class Series:
    bots: tuple[str, ...]
    games: int
    boost: int
    seed: int

    @property
    def players(self) -> int:
        return len(self.bots)


@st.composite
def series(draw: st.DrawFn) -> Series:
    players = draw(st.integers(2, len(BOARD.suits)))
    bots = draw(st.lists(st.sampled_from(SIMPLE_KINDS), min_size=players, max_size=players))
    return Series(tuple(bots), draw(st.integers(1, 3)), draw(st.sampled_from((0, 32))), draw(st.integers(0, 2**20)))


def play_checked(case: Series) -> Autorace:
    """The series of ``case``, every property checked on the way."""
    game = Autorace(Settings(player_names(case.players, BOARD), games=case.games, boost=case.boost), BOARD)
    bots = [make_bot(kind, case.seed * 100 + seat) for seat, kind in enumerate(case.bots)]
    rounds = 0
    while not game.is_over:
        if game.decision.chance:
            game.apply(Reveal())
            rounds += 1
            assert rounds <= MOST_ROUNDS * case.games, "a game that does not end"
        else:
            seat = game.decision.seats[0]
            game.apply(Choose(seat, choice(game, seat, bots[seat])))
        check_money(game)
        check_views(game)
    check_end(game, case)
    return game


def choice(game: Autorace, seat: int, bot: Bot) -> int:
    """The bot's card, one of its options, and the same card whatever the others have sealed."""
    view = game.view(seat)
    card = twin(bot).choose(view)
    assert card in view["my_options"]
    for other, sealed in enumerate(game.sealed):
        if other != seat and sealed is not None and game.playable(other):
            for elsewhere in blind_variants(game, other):
                assert elsewhere.view(seat) == view
                assert twin(bot).choose(elsewhere.view(seat)) == card
            break
    return int(bot.choose(view))


def twin(bot: Bot) -> Bot:
    """A copy of ``bot`` that will draw the same numbers (every bot here keeps its generator as ``rng``):
    a deep copy costs ten times more."""
    other = copy.copy(bot)
    other.rng = random.Random()  # type: ignore[attr-defined]
    other.rng.setstate(bot.rng.getstate())  # type: ignore[attr-defined]
    return other


def blind_variants(game: Autorace, other: int) -> list[Autorace]:
    """Copies of ``game`` in which ``other`` has sealed another of its options instead (its lowest and
    its highest other: enough to tell a bot that peeks, and cheap)."""
    others = [card for card in game.options(other) if card != game.sealed[other]]
    variants = []
    for card in {others[0], others[-1]} if others else ():
        variant = game.clone()
        variant.apply(TakeBack(other))
        variant.apply(Choose(other, card))
        variants.append(variant)
    return variants


def check_money(game: Autorace) -> None:
    assert sum(game.money) + game.bank == BOARD.start_capital * len(game.names)
    assert all(money >= 0 for money in game.money)


def check_views(game: Autorace) -> None:
    for seat in range(len(game.names)):
        view = game.view(seat)
        json.dumps(view)
        assert "sealed" not in view and view["my_sealed"] == game.sealed[seat]
        seen = game.seen_by(seat)
        assert [card for other, card in enumerate(seen.sealed) if other != seat] == [None] * (len(game.names) - 1)
        with pytest.raises(AttributeError):
            seen.log  # noqa: B018  (the attribute's absence is the point)


def check_end(game: Autorace, case: Series) -> None:
    assert game.replayed(game.log).to_dict() == game.to_dict()
    assert len(game.results) <= case.games and game.results[-1] == tuple(game.money)
    assert set(game.winners()) == {s for s, m in enumerate(game.money) if m == max(game.money)}
    assert sum(game.money) == BOARD.start_capital * case.players + explained(game)


#: What each event of a payment to the bank says was paid.
PAID = {ev.Fined: "amount", ev.Drew: "cost", ev.OutOfRace: "paid"}


def explained(game: Autorace) -> int:
    """The money the events say went to the players (bonuses, boosts), less what they paid."""
    total, staying = 0, len(game.names)
    for event in game.events:
        if isinstance(event, ev.BonusPaid):
            total += event.amount
        elif type(event) in PAID:
            total -= getattr(event, PAID[type(event)])
        elif isinstance(event, ev.GameStarted):
            staying -= len(event.dropped)
            total += event.boost * staying
    return total


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(series())
def test_random_series_keep_every_property(case):
    play_checked(case)


@pytest.mark.parametrize("bots", ["random", "sensible"])
def test_the_same_seed_plays_the_same_series(bots):
    first = simulate(players=4, games=2, boost=32, seed=9, bots=bots)
    assert simulate(players=4, games=2, boost=32, seed=9, bots=bots).to_dict() == first.to_dict()


def test_every_game_of_many_ends_and_the_reasons_are_the_rules():
    reasons = set()
    for seed in range(40):
        game = simulate(players=2 + seed % 4, games=1 + seed % 2, seed=seed, bots="random,sensible" if seed % 4 == 0
                        else "random")
        assert game.is_over
        reasons |= {e.reason for e in game.events if isinstance(e, ev.GameEnded)}
    assert reasons <= {"finish", "stuck", "stalled"} and "finish" in reasons
