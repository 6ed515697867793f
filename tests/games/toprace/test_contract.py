"""The variant contract: phases, legal actions and handlers declared per class and
collected along the method resolution order; replay and the variant name; dead code gone."""

from __future__ import annotations

import ast
import copy
import pickle
import random
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from scenarios import DECK, NAMES
from tracks import straight

from toprace_pi.errors import IllegalActionError, SettingsError
from toprace_pi.games.toprace.rules.actions import Action, Bid, Pass, one_argument, register_notation, whole_number
from toprace_pi.games.toprace.rules.board import Board
from toprace_pi.games.toprace.rules.game import Phase, Settings, TopRace, handles, legal
from toprace_pi.games.toprace.rules.variants import VARIANTS, replay_game
from toprace_pi.games.toprace.rules.variants.pitstop import PIT_STOP_CLAIM, PitStopGame, PitStopTipsGame
from toprace_pi.games.toprace.rules.variants.pitstop_stocks import PitStopStocksGame
from toprace_pi.games.toprace.rules.variants.stocks import TRADE, StocksGame
from toprace_pi.games.toprace.rules.variants.tips import TIP, TipsGame
from toprace_pi.games.toprace.settings import CLAIM_WINDOW
from toprace_pi.hardware.buttons import DEFAULT_PINS
from toprace_pi.table.config import TableConfig
from toprace_pi.table.modes import Choice

VARIANTS_DIR = Path(__file__).resolve().parents[3] / "toprace_pi" / "games" / "toprace" / "rules" / "variants"
TRACK = straight(20)


def declared_union(cls: type[TopRace]) -> dict:
    """The handler table built by hand from each class's own declarations, base first."""
    table: dict = {}
    for klass in reversed(cls.__mro__):
        for name, member in vars(klass).items():
            for phase, kind, check in getattr(member, "_handles", ()):
                table.setdefault(phase, {})[kind] = (getattr(cls, check), getattr(cls, name))
        for phase, kind in vars(klass).get("WITHDRAWN", ()):
            del table[phase][kind]
    return table


@pytest.mark.parametrize("cls", list(VARIANTS.values()), ids=list(VARIANTS))
def test_every_handler_table_is_the_union_of_the_declarations_along_the_mro(cls):
    assert cls.HANDLERS == declared_union(cls)


def test_a_combined_variant_has_both_parents_phases_and_the_first_parents_turn():
    table = PitStopTipsGame.HANDLERS
    assert TIP in table and PIT_STOP_CLAIM in table
    assert table[Phase.PLAY_CARD][Pass] == (PitStopGame._check_pass_turn, PitStopGame._apply_pass_turn)
    assert PitStopTipsGame.LEGAL[Phase.PLAY_CARD] is PitStopGame.turn_actions
    assert TRADE in PitStopStocksGame.HANDLERS and PIT_STOP_CLAIM in PitStopStocksGame.HANDLERS
    assert PitStopStocksGame.LEGAL[Phase.PLAY_CARD] is PitStopGame.turn_actions
    assert TIP not in TopRace.HANDLERS and TRADE not in TipsGame.HANDLERS


def test_no_variant_merges_a_table_by_hand():
    for path in VARIANTS_DIR.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Assign):
                names = {t.attr for t in node.targets if isinstance(t, ast.Attribute)}
                assert not names & {"LEGAL", "HANDLERS"}, f"{path.name} line {node.lineno}"


# --- a toy variant through the contract alone ------------------------------------------

BOOST = Phase("TEST_BOOST", "say how far the leader may boost")


@dataclass(frozen=True, slots=True)
class Boost(Action):
    steps: int

    def __str__(self) -> str:
        return f"boost {self.steps}"


register_notation("boost", one_argument(Boost, whole_number))


class BoostGame(TopRace):
    """After the deal the first opener names a boost of 1 or 2, then the auctions run."""

    VARIANT = "test-boost"

    def _begin_race(self) -> None:
        super()._begin_race()
        self.boost: int | None = None

    def _next_auction_step(self) -> None:
        if self.boost is None:
            assert self.auction is not None
            self.phase, self.to_move = BOOST, self.auction.to_act
            return
        super()._next_auction_step()

    @legal(BOOST)
    def _legal_boosts(self) -> list[Action]:
        return [Boost(1), Boost(2)]

    def _check_boost(self, action: Boost) -> None:
        if action.steps not in (1, 2):
            raise IllegalActionError(f"a boost is 1 or 2, not {action.steps}")

    @handles(BOOST, Boost, check="_check_boost")
    def _apply_boost(self, action: Boost) -> None:
        self.boost = action.steps
        self._next_auction_step()


def boost_game() -> BoostGame:
    game = BoostGame(Settings(NAMES[:2], variant="test-boost"), TRACK, DECK)
    game.apply(game.deal(random.Random(3)))
    return game


def test_a_toy_variant_adds_a_phase_and_an_action_through_the_contract_alone():
    game = boost_game()
    assert game.phase is BOOST and game.legal_actions() == [Boost(1), Boost(2)]
    with pytest.raises(IllegalActionError, match="1 or 2, not 3"):
        game.apply_notation("boost 3")
    with pytest.raises(IllegalActionError, match="must say how far the leader may boost; bid 10000"):
        game.apply(Bid(10_000))
    assert game.apply_notation("boost 2") == Boost(2)
    assert game.boost == 2 and game.phase is Phase.BID
    again = BoostGame.replay(game.settings, TRACK, DECK, [str(a) for a in game.log])
    assert type(again) is BoostGame and again.snapshot() == game.snapshot()
    assert BOOST not in TopRace.HANDLERS and BOOST not in TopRace.LEGAL


def test_phases_are_singletons_through_copies_and_pickles():
    assert copy.deepcopy(BOOST) is BOOST and copy.copy(Phase.BID) is Phase.BID
    assert pickle.loads(pickle.dumps(TIP)) is TIP and Phase.named("TEST_BOOST") is BOOST
    assert Phase.BID.value == "bid or pass" and Phase.BID.name == "BID"
    with pytest.raises(ValueError, match="already"):
        Phase("BID", "twice")
    with pytest.raises(AttributeError):
        Phase.BID.value = "changed"  # type: ignore[misc]


def test_the_base_game_names_no_variant_phase():
    assert not any(hasattr(Phase, name) for name in ("TIP", "REVEAL", "PIT_STOP_CLAIM", "TAKE_OFFER", "GRID", "TRADE"))


# --- replay and the variant name -----------------------------------------------------------


@pytest.mark.parametrize("name", list(VARIANTS))
def test_replay_builds_the_class_it_is_called_on(name):
    cls = VARIANTS[name]
    settings = Settings(NAMES[:3], variant=name)
    game = cls(settings, TRACK, DECK)
    game.apply(game.deal(random.Random(1)))
    assert type(cls.replay(settings, TRACK, DECK, game.log)) is cls
    assert type(replay_game(settings, TRACK, DECK, [str(a) for a in game.log])) is cls


@pytest.mark.parametrize(("cls", "variant"), [(TopRace, "stocks"), (TipsGame, "base"), (StocksGame, "pitstop+stocks")])
def test_a_class_refuses_settings_of_another_variant(cls, variant):
    with pytest.raises(SettingsError, match=f"{cls.__name__} plays the '{cls.VARIANT}' rules"):
        cls(Settings(NAMES[:2], variant=variant), TRACK, DECK)
    with pytest.raises(SettingsError, match=re.escape(f"settings name '{variant}'")):
        cls.replay(Settings(NAMES[:2], variant=variant), TRACK, DECK, [])


# --- names and dead code -----------------------------------------------------------------------


def test_the_seat_count_is_player_count_and_the_names_are_names():
    game = TopRace(Settings(NAMES[:3]), TRACK, DECK)
    assert game.player_count == 3 and game.names == NAMES[:3] and not hasattr(game, "players")


def test_dead_code_is_gone():
    assert not hasattr(TopRace, "move_route") and not hasattr(Board, "route")
    assert not hasattr(Choice, "point_at") and not hasattr(StocksGame, "holdings")


def test_table_defaults_come_from_one_place():
    config = TableConfig()
    assert config.settings.claim_window == CLAIM_WINDOW and dict(config.buttons.pins) == dict(DEFAULT_PINS)
