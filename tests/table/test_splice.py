"""A journal cannot be spliced (issue #31): a record from another journal of the same game, or from another place in
its own, is refused naming its line, over every record line of a pair of journals of every game. The counts are
printed by ``python3 tests/splice.py``."""

from __future__ import annotations

import tempfile
from functools import cache
from pathlib import Path

import pytest
from splice import GAMES, SEEDS, demo_journal, spliced

from toprace_pi.errors import DataError
from toprace_pi.table.config import parse_config
from toprace_pi.table.journal import Journal, load
from toprace_pi.table.live import open_game


@cache
def journals(game: str) -> tuple[list[bytes], ...]:
    """The lines of the two demo journals of ``game`` (the same settings, other seeds)."""
    with tempfile.TemporaryDirectory() as folder:
        return tuple(demo_journal(Path(folder), GAMES[game], seed) for seed in SEEDS)


@pytest.mark.parametrize("game", GAMES)
def test_no_line_swapped_in_from_another_journal_or_from_elsewhere_in_its_own_is_accepted(game, tmp_path):
    own, other = journals(game)
    count = spliced(own, other, tmp_path)
    print(f"\n{game}: {count}")
    assert count.swapped >= 3 * (len(own) - 1)  # every record line, each with lines of both journals
    assert count.accepted == [] and count.misnamed == [] and count.alike == 0


@pytest.mark.parametrize("game", GAMES)
def test_the_table_refuses_a_spliced_journal_naming_the_line_and_leaves_it_as_it_is(game, tmp_path):
    own, other = journals(game)
    middle = len(own) // 2
    path = tmp_path / "journal.jsonl"
    path.write_bytes(b"\n".join([*own[:middle], other[middle], *own[middle + 1:]]) + b"\n")
    before = path.read_bytes()
    config = parse_config({"files": {"journal": str(path)}}, "test")
    for read in (lambda: open_game(config, lambda _: None), lambda: Journal.resume(path)):
        with pytest.raises(DataError) as error:
            read()
        assert str(error.value).startswith(f"{path}: line {middle + 1}: damaged record, or not the one that belongs")
        assert "another journal" in str(error.value)
    assert path.read_bytes() == before


@pytest.mark.parametrize("game", GAMES)
def test_the_header_of_another_journal_of_the_same_settings_is_refused_at_the_first_record(game, tmp_path):
    own, other = journals(game)
    path = tmp_path / "journal.jsonl"
    path.write_bytes(b"\n".join([other[0], *own[1:]]) + b"\n")
    with pytest.raises(DataError, match=f"^{path}: line 2: damaged record, or not the one that belongs"):
        load(path)
