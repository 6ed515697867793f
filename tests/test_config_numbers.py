"""Every number of a config or data file has a range, and a value outside it is refused with the range.

The keys are taken from the files' own lists of numbers (the table's ``NUMBERS`` and ``READER_NUMBERS``,
each game's ``[game]`` ``NUMBERS``, an AUTORACE board's and a track's space's), so that a number added to
a file is tried here without a word more: by the real ``check --config`` with values too big, too small,
endless, not a number or of the wrong type, and by hypothesis with any value, which is taken exactly when
it lies in its range.
"""

from __future__ import annotations

import copy
import importlib
import math
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.cli import run

from toprace_pi.core import registry
from toprace_pi.errors import DataError
from toprace_pi.games.autorace.data import NUMBERS as BOARD_NUMBERS
from toprace_pi.games.autorace.data import board_from_dict
from toprace_pi.games.toprace.rules.track import SPACE_NUMBERS, Track
from toprace_pi.schema import Range, shown
from toprace_pi.table.config import NUMBERS, READER_NUMBERS, main_reader, parse_config

ROOT = Path(__file__).resolve().parent.parent
GAMES = registry.game_names()
HUGE = 99999999999999999999
EXAMPLES = [ROOT / "config.example.toml", *sorted((ROOT / "examples").glob("*.config.toml"))]
#: An option of an example, "# key = value" or "# [section]": turned on by removing the "# ".
OPTION = re.compile(r"^# (?=\[[a-z0-9_.]+\][ \t]*(?:#.*)?$|[a-z_]+ = )", re.M)


def game_numbers(game: str) -> dict[str, Range[Any]]:
    return importlib.import_module(f"toprace_pi.games.{game}.settings").NUMBERS


def numbers_of(game: str) -> list[tuple[str, str, Range[Any]]]:
    """(section, key, range) of every number a table of ``game`` reads from its config."""
    found = [(section, key, allowed) for section, keys in NUMBERS.items() for key, allowed in keys.items()]
    found += [(f"readers.{main_reader(game)}", key, allowed) for key, allowed in READER_NUMBERS.items()]
    return found + [("game", key, allowed) for key, allowed in game_numbers(game).items()]


CASES = [(game, *number) for game in GAMES for number in numbers_of(game)]


def literal(number: float) -> str:
    return repr(number) if isinstance(number, float) else str(number)


def wrong_values(allowed: Range[Any]) -> list[str]:
    """TOML values outside ``allowed``: just beyond each end, far beyond, endless, not a number, of other types."""
    values = [literal(allowed.high + 1), literal(allowed.low - 1), "1e308", "-1e308", "inf", "-inf", "nan",
              str(HUGE), str(-HUGE), '"5"', "true", "[]", "{}"]
    return values + ([literal(allowed.low + 0.5)] if allowed.kind is int else [])


def config_text(game: str, section: str, key: str, value: str) -> str:
    if section == "game":
        return f'[game]\nname = "{game}"\n{key} = {value}\n'
    return f'[game]\nname = "{game}"\n[{section}]\n{key} = {value}\n'


@pytest.mark.parametrize("game, section, key, allowed", CASES, ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in CASES])
def test_check_refuses_every_number_out_of_its_range_naming_file_key_and_range(capsys, tmp_path, game, section,
                                                                              key, allowed):
    path = tmp_path / "table.toml"
    for value in wrong_values(allowed):
        path.write_text(config_text(game, section, key, value), "utf-8")
        code, out, err = run(capsys, "check", "--config", str(path))
        assert code == 2 and out == "", (value, err)
        assert err.startswith(f"toprace-pi: {path}:") and "Traceback" not in err
        assert f"[{section}] {key}: {allowed}, not " in err, (value, err)


@pytest.mark.parametrize("game, section, key, allowed", CASES, ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in CASES])
def test_check_takes_each_end_of_every_range(capsys, tmp_path, game, section, key, allowed):
    path = tmp_path / "table.toml"
    for value in (allowed.low, allowed.high):
        path.write_text(config_text(game, section, key, literal(value)), "utf-8")
        _, _, err = run(capsys, "check", "--config", str(path))
        assert f"[{section}] {key}: {allowed}" not in err and "Traceback" not in err, (value, err)


def placed(game: str, section: str, key: str, value: object) -> dict[str, Any]:
    """A config document of ``game`` with ``[section] key = value`` (``readers.NAME`` nested, as TOML reads it)."""
    document: dict[str, Any] = {"game": {"name": game}}
    *outer, inner = section.split(".")
    table = document
    for name in [*outer, inner]:
        table = table.setdefault(name, {})
    table[key] = value
    return document


def any_value(allowed: Range[Any]) -> st.SearchStrategy[object]:
    """Anything a TOML number may be, near the range or far from it, and a few other types."""
    near = st.integers(int(allowed.low) - 3, math.ceil(allowed.high) + 3)
    return st.one_of(near, st.integers(), st.floats(), st.floats(allowed.low - 1, allowed.high + 1),
                     st.booleans(), st.text(max_size=3), st.just([]))


def problems_of(parse: Any) -> list[str]:
    try:
        parse()
    except DataError as exc:
        return exc.problems
    return []


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_a_config_number_is_taken_exactly_when_it_lies_in_its_range(data):
    game, section, key, allowed = data.draw(st.sampled_from(CASES))
    value = data.draw(any_value(allowed))
    problems = problems_of(lambda: parse_config(placed(game, section, key, value), "table.toml"))
    in_range = isinstance(value, (int, float)) and value in allowed
    assert (f"[{section}] {key}: {allowed}, not {shown(value)}" in problems) == (not in_range), problems


BOARD = tomllib.loads((ROOT / "toprace_pi/games/autorace/data/boards/standard.toml").read_text("utf-8"))
TRACK = tomllib.loads((ROOT / "toprace_pi/games/toprace/data/tracks/speed-street.toml").read_text("utf-8"))


def on_board(document: dict[str, Any], key: str, value: object) -> list[str]:
    document["board"][key] = value
    return problems_of(lambda: board_from_dict(document, "board.toml"))


def on_space(document: dict[str, Any], key: str, value: object) -> list[str]:
    document["track"]["spaces"][0][key] = value
    return problems_of(lambda: Track.from_dict(document, "track.toml"))


#: A data file's numbers: the shipped file, its ranges, where a value goes and what its refusal says.
DATA_NUMBERS = {
    "autorace-board": (BOARD, BOARD_NUMBERS, on_board, "[board] {key}: {allowed}, not {value}"),
    "toprace-track-space": (TRACK, SPACE_NUMBERS, on_space, "space a1: {key!r} must be {allowed}, not {value}"),
}


@pytest.mark.parametrize("kind", DATA_NUMBERS)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_a_data_files_number_is_taken_exactly_when_it_lies_in_its_range(kind, data):
    shipped, ranges, place, refusal = DATA_NUMBERS[kind]
    key = data.draw(st.sampled_from(list(ranges)))
    allowed = ranges[key]
    value = data.draw(any_value(allowed))
    problems = place(copy.deepcopy(shipped), key, value)
    in_range = isinstance(value, (int, float)) and value in allowed
    said = refusal.format(key=key, allowed=allowed, value=shown(value))
    assert (said in problems) == (not in_range), problems


def numbers_in(document: dict[str, Any], section: str = "") -> list[tuple[str, str]]:
    """(section, key) of every number in a parsed config (a reader's section as ``readers.NAME``)."""
    found = []
    for key, value in document.items():
        if isinstance(value, dict):
            found += numbers_in(value, f"{section}.{key}" if section else key)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            found.append((section, key))
    return found


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda path: path.name)
def test_every_number_of_each_example_has_its_range(example):
    """Every number an example shows (its options turned on) is in the lists the tests above take the keys from."""
    document = tomllib.loads(OPTION.sub("", example.read_text("utf-8")))
    game = document["game"]["name"]
    listed = {(section, key) for section, key, _ in numbers_of(game)}
    found = numbers_in(document)
    assert found and [number for number in found if number not in listed] == []
