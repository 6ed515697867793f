"""A game's side of the table answers four narrow protocols, one a concern, and writes only what
differs from :class:`~toprace_pi.table.side.TableSide`'s defaults."""

from __future__ import annotations

import inspect

import pytest

from toprace_pi.core import registry
from toprace_pi.table.pages import GamePage, PageBase
from toprace_pi.table.side import GameTable, TableInput, TableLights, TablePages, TableSide, TableWords

CONCERNS = (TableInput, TableWords, TableLights, TablePages)
#: A protocol this long is still one concern a newcomer reads at a glance.
NARROW = 7


def methods(protocol: type) -> set[str]:
    """The methods ``protocol`` declares itself (not those of the protocols it joins)."""
    return {name for name, value in vars(protocol).items() if inspect.isfunction(value) and not name.startswith("_")}


def test_the_concerns_are_narrow_and_share_no_method():
    sizes = {protocol.__name__: len(methods(protocol)) for protocol in CONCERNS}
    assert all(size <= NARROW for size in sizes.values()), sizes
    assert sum(sizes.values()) == len(set().union(*map(methods, CONCERNS)))


def test_a_game_table_is_the_four_concerns_and_nothing_more():
    every = {name for name, _ in inspect.getmembers(GameTable, inspect.isfunction) if not name.startswith("_")}
    assert every == set().union(*map(methods, CONCERNS))


@pytest.mark.parametrize("game", registry.game_names())
def test_every_games_side_answers_each_concern_with_the_protocols_signatures(game):
    side = registry.get(game).table(None)
    assert isinstance(side, TableSide)
    for protocol in CONCERNS:
        for name in methods(protocol):
            ours = inspect.signature(getattr(side, name))
            theirs = inspect.signature(getattr(protocol, name))
            assert list(ours.parameters) == list(theirs.parameters)[1:], f"{game}: {name}"


@pytest.mark.parametrize("game", registry.game_names())
def test_every_games_page_answers_the_page_protocol(game):
    page = registry.get(game).table(None).page()
    assert isinstance(page, PageBase)
    for name in methods(GamePage):
        assert list(inspect.signature(getattr(page, name)).parameters) == list(
            inspect.signature(getattr(GamePage, name)).parameters)[1:], f"{game}: {name}"


def test_the_base_answers_for_a_game_without_picks_passes_deals_fanfares_or_secrets():
    side: TableSide[object] = TableSide()
    assert side.choice(object()) is None and side.passing(object()) is None
    assert not side.is_deal(object())
    assert side.undo_refusal("a step") is None and side.finish_place("an event") is None
    assert side.pages_open() is None
