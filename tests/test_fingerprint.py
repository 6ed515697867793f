"""tools/engine_fingerprint.py: the same games give the same hashes, and a change to what a game shows changes
them (on AUTORACE's four games, the quickest of the three games it plays)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from toprace_pi.games.autorace.rules import Autorace

TOOL = Path(__file__).resolve().parent.parent / "tools" / "engine_fingerprint.py"


@pytest.fixture(scope="module")
def fingerprint():
    spec = importlib.util.spec_from_file_location("engine_fingerprint", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def hashes(fingerprint):
    return fingerprint.autorace_games()


def test_the_same_games_hash_alike(fingerprint, hashes):
    assert len(hashes) == 4 and len(set(hashes.values())) == 4  # two kinds of bots, two seeds: four games
    assert fingerprint.autorace_games() == hashes


def test_a_view_that_shows_less_changes_every_hash(fingerprint, hashes, monkeypatch):
    real = Autorace.view

    def less(self, seat=None):
        shown = real(self, seat)
        shown.pop("round", None)
        return shown

    monkeypatch.setattr(Autorace, "view", less)
    changed = fingerprint.autorace_games()
    assert changed.keys() == hashes.keys()
    assert all(changed[name] != hashes[name] for name in hashes)


def test_legal_actions_in_another_order_change_the_hashes(fingerprint, hashes, monkeypatch):
    real = Autorace.legal_actions
    monkeypatch.setattr(Autorace, "legal_actions", lambda self, *args: list(reversed(real(self, *args))))
    assert fingerprint.autorace_games() != hashes
