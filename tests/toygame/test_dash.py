"""Dash, the toy game of docs/adding-a-game.md, joins the command line through the registry's door
alone, and the doc shows its files as they are."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from toprace_pi.cli import main
from toprace_pi.core import registry
from toprace_pi.errors import TopRaceError

from .plugin import ENTRY

DOC = Path(__file__).resolve().parents[2] / "docs" / "adding-a-game.md"
HERE = Path(__file__).resolve().parent


@pytest.fixture(autouse=True)
def dash():
    registry.register(ENTRY)
    yield
    registry.unregister("dash")


def test_dash_is_listed_and_simulated_like_a_shipped_game(capsys):
    assert main(["games"]) == 0
    assert "dash       Dash: 2-4 players; chance; rules version 1" in capsys.readouterr().out
    assert main(["simulate", "--game", "dash", "--players", "3", "--seed", "4"]) == 0
    assert re.fullmatch(r"Dash, seed 4: \w+ wins in \d+ steps\n", capsys.readouterr().out)
    assert main(["simulate", "--game", "dash", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["seed"] == 0


def test_a_game_not_registered_is_unknown_again():
    registry.unregister("dash")
    with pytest.raises(TopRaceError, match="no game called 'dash'"):
        registry.get("dash")


def test_the_docs_blocks_are_the_toy_games_files():
    """Each code block the doc opens with ``# tests/toygame/NAME`` is that file, whole."""
    blocks = re.findall(r"```python\n# tests/toygame/(\S+)\n(.*?)```", DOC.read_text("utf-8"), re.S)
    assert {name for name, _ in blocks} >= {"rules.py", "records.py", "cli.py", "plugin.py"}
    for name, text in blocks:
        assert text == (HERE / name).read_text("utf-8"), name
