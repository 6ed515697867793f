"""Fuzz tests: every parser of outside input gives a valid result or a clean error.

Outside input is what a person or a device hands the table: the track, deck,
tip table and board profile files, the table's configuration, the tag registry
and the records on NFC tags, action notation, and saved game logs. For ANY such
input each parser must either return a valid object (checked here against what
the rest of the package relies on) or raise the package's own error:
:class:`~toprace_pi.errors.DataError` naming the file for data files,
:class:`~toprace_pi.errors.NotationError` for notation,
:class:`~toprace_pi.errors.IllegalActionError` for a log the rules refuse. Any
other exception fails the test with its traceback, and so does a parse that
hangs (:func:`support.hang.hang_guard`: a runaway loop is stopped, while a
parse slowed down by a busy machine is not a failure).

The inputs are hypothesis strategies of four kinds: raw bytes and text written
to a file (invalid TOML or JSON, binary, huge numbers, deep nesting), text-level
edits of the real shipped files (near-valid documents that reach the checks
behind the parser), arbitrary JSON-like values built with ``st.recursive``, and
structured mutations of the real parsed documents (fields dropped, duplicated,
swapped or replaced by values of the wrong type, NaN, infinities, huge or
negative numbers, ids reused so ``next`` lists form cycles or go backward).
"""

from __future__ import annotations

import copy
import datetime as dt
import json
import math
import os
import random
import re
import tempfile
import tomllib
import zlib
from collections.abc import Callable
from dataclasses import asdict, replace
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import pytest
from emulators.hub import FieldReader, Hub
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context
from scenarios import CARS, OLDER, VOCAB
from support.hang import hang_guard

from toprace_pi.errors import DataError, IllegalActionError, NotationError, TopRaceError
from toprace_pi.games.toprace.data import load_deck, load_tip_table, load_track
from toprace_pi.games.toprace.rules.actions import Action, Deal, parse_action
from toprace_pi.games.toprace.rules.cards import DECK_SIZE, VALUES, Deck, MovementCard, SprintBreakdownCard
from toprace_pi.games.toprace.rules.cars import EDITION_CARS, Car, CarSet
from toprace_pi.games.toprace.rules.game import Settings, TopRace
from toprace_pi.games.toprace.rules.track import FINISH, Track
from toprace_pi.games.toprace.rules.variants import new_game, replay_game, variant_names
from toprace_pi.games.toprace.rules.variants.tips import TipTable
from toprace_pi.games.toprace.table.board import PLACES, TrackBoard, load_profile
from toprace_pi.hardware import ReaderError, hub_protocol
from toprace_pi.hardware.events import DeviceStatus, TagLaid, TagLifted
from toprace_pi.hardware.ndef import decode_record, encode_record
from toprace_pi.hardware.profile import MAX_SEATS, Profile
from toprace_pi.hardware.readers.hub import HubReader
from toprace_pi.hardware.strip import StripSettings
from toprace_pi.hardware.strip.frame import MAX_LEDS
from toprace_pi.hardware.tags import TagRegistry, parse_record, record_text
from toprace_pi.table.config import BUSES, READER_KINDS, TableConfig, load_config, parse_config
from toprace_pi.table.journal import FORMAT as JOURNAL_FORMAT
from toprace_pi.table.journal import UNCHAINED as JOURNAL_VERSION  # each record's CRC its own: see crc_line
from toprace_pi.table.journal import Journal, Loaded
from toprace_pi.table.journal import load as journal_load

T = TypeVar("T")


#: ``FUZZ_SCALE=20 pytest tests/test_fuzz.py`` runs 20 times the examples (a soak run).
SCALE = float(os.environ.get("FUZZ_SCALE", "1"))


def fuzz(examples: int) -> Callable[[T], T]:
    """Hypothesis settings sized so the whole file runs in well under a minute."""
    return settings(
        deadline=None,
        max_examples=max(1, round(examples * SCALE)),
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )


def attempt(call: Callable[[], T], expected: type[BaseException] | tuple[type[BaseException], ...]):
    """Run ``call``: its result and ``None``, or ``None`` and the expected error it
    raised. Any other exception propagates (the test fails with its traceback); a
    call that hangs fails the test."""
    try:
        with hang_guard(what="the parse"):
            result = call()
    except expected as exc:
        error: BaseException | None = exc
        result = None
    else:
        error = None
    if currently_in_test_context():
        event("clean error" if error is not None else "valid result")
    return result, error

def expect(parse: Callable[[], Any], source: str, valid: Callable[[Any], None]) -> None:
    """``parse()`` gives an object that passes ``valid``, or a clean DataError naming ``source``."""
    result, error = attempt(parse, DataError)
    if error is not None:
        assert_data_error(error, source)
    else:
        valid(result)



def assert_data_error(error: BaseException, source: str) -> None:
    """A clean DataError: names the file, lists at least one readable problem."""
    assert isinstance(error, DataError)
    assert error.source == source
    assert error.problems and all(isinstance(p, str) and p for p in error.problems)
    assert str(error).startswith(f"{source}: ")


# --- the shipped documents ------------------------------------------------------------------------------------------


def shipped_text(kind: str, name: str) -> str:
    return resources.files("toprace_pi.games.toprace.data").joinpath(kind, f"{name}.toml").read_text("utf-8")


TRACK_TEXT = shipped_text("tracks", "speed-street")
DECK_TEXT = shipped_text("decks", "standard")
OLDER_DECK_TEXT = shipped_text("decks", "older-edition")
TIPS_TEXT = shipped_text("tips", "standard")
PROFILE_TEXT = shipped_text("profiles", "speed-street")
CONFIG_TEXT = (Path(__file__).parents[1] / "config.example.toml").read_text("utf-8")
TRACK_DOC = tomllib.loads(TRACK_TEXT)
DECK_DOC = tomllib.loads(DECK_TEXT)
OLDER_DECK_DOC = tomllib.loads(OLDER_DECK_TEXT)
TIPS_DOC = tomllib.loads(TIPS_TEXT)
PROFILE_DOC = tomllib.loads(PROFILE_TEXT)
CONFIG_DOC = tomllib.loads(CONFIG_TEXT)
REGISTRY_DOC: dict[str, Any] = {
    "version": 1,
    "tags": {"04a1b2c3d4e580": "card 17", "04a1b2c3": "car red", "04a1b2c3d4e5f60718": "pit 2"},
}
REGISTRY_TEXT = json.dumps(REGISTRY_DOC, indent=2)


@cache
def speed_street() -> Track:
    return load_track("speed-street")


@cache
def standard_deck() -> Deck:
    return load_deck("standard")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def write(folder: Path, content: bytes, name: str = "fuzzed.toml") -> Path:
    path = folder / name
    path.write_bytes(content)
    return path


# --- strategies -----------------------------------------------------------------------------------------------------

HUGE = 10**400
SPECIAL_VALUES = [
    math.nan, math.inf, -math.inf, -0.0, 1e308, -1e308, 5e-324, HUGE, -HUGE, 2**63, -(2**63) - 1, 2**64,
    -1, 0, 1, 6, 7, 255, 256, True, False, "", " ", "finish", "\x00", "é", [], {}, [[]], [{}], {"": {}},
]
#: Fresh copies: a mutation must never change the shared list or table of SPECIAL_VALUES.
special_values = st.sampled_from(SPECIAL_VALUES).map(copy.deepcopy)

leaves = st.one_of(
    st.booleans(),
    st.integers(),
    st.integers(min_value=-HUGE, max_value=HUGE),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    special_values,
    st.datetimes(timezones=st.none() | st.just(dt.timezone.utc)),
    st.dates(),
    st.times(),
)
#: Values as tomllib can give them (no None): leaves, lists and string-keyed tables.
toml_values = st.recursive(
    leaves,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5),
    max_leaves=25,
)
#: Values as json.loads can give them.
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20) | st.sampled_from([HUGE, ""]),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=20), children, max_size=5),
    max_leaves=25,
)


def strings_in(doc: object) -> list[str]:
    """Every string in a document, keys included: reused as values, they make
    duplicate ids, steps to earlier spaces (cycles, backward steps) and so on."""
    found: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, dict):
            for key, item in value.items():
                found.add(key)
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(doc)
    return sorted(found)


def numbers_in(doc: object) -> list[int | float]:
    found: set[int | float] = set()

    def walk(value: object) -> None:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            found.add(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(doc)
    return sorted(found)


def _containers(doc: object) -> list[Any]:
    """Every dict and list in a document, the document first."""
    found = []
    todo = [doc]
    while todo:
        value = todo.pop()
        if isinstance(value, (dict, list)):
            found.append(value)
            todo.extend(value.values() if isinstance(value, dict) else value)
    return found


def mutate(
    data: st.DataObject, doc: dict[str, Any], *, max_mutations: int = 4, values: st.SearchStrategy[Any] = toml_values
) -> dict[str, Any]:
    """A deep copy of ``doc`` with 1 to ``max_mutations`` structural changes.

    Each change picks a table or list anywhere in the document (deep ones as
    likely as shallow ones) and drops, duplicates, swaps or replaces one of its
    entries, with a value of any type, a special value (NaN, infinities, huge
    and negative numbers, empty containers), or a string or number found
    elsewhere in the document (so ids are reused and fields swap values).
    ``values`` are the values of any type (``json_values`` for JSON documents).
    """
    doc = copy.deepcopy(doc)
    reused_strings = strings_in(doc)
    reused_numbers = numbers_in(doc)
    value = st.one_of(
        values,
        special_values,
        st.sampled_from(reused_strings),
        st.sampled_from(reused_numbers),
        st.lists(st.sampled_from(reused_strings), max_size=4),
    )
    for _ in range(data.draw(st.integers(1, max_mutations), label="mutations")):
        containers = _containers(doc)
        target = containers[data.draw(st.integers(0, len(containers) - 1), label="container")]
        if isinstance(target, dict):
            keys = sorted(target)
            op = data.draw(st.sampled_from(["drop", "set", "add", "rename", "swap"] if keys else ["add"]))
            if op == "add":
                target[data.draw(st.text(max_size=8) | st.sampled_from(reused_strings))] = data.draw(value)
                continue
            key = data.draw(st.sampled_from(keys))
            if op == "drop":
                del target[key]
            elif op == "set":
                target[key] = data.draw(value)
            elif op == "rename":
                target[data.draw(st.text(max_size=8) | st.sampled_from(reused_strings))] = target.pop(key)
            else:
                other = data.draw(st.sampled_from(keys))
                target[key], target[other] = target[other], target[key]
        else:
            op = data.draw(st.sampled_from(["drop", "set", "duplicate", "swap", "append", "clear", "reverse"]
                                           if target else ["append"]))
            if op == "append":
                target.append(data.draw(value))
                continue
            if op == "clear":
                target.clear()
                continue
            if op == "reverse":
                target.reverse()
                continue
            i = data.draw(st.integers(0, len(target) - 1))
            if op == "drop":
                del target[i]
            elif op == "set":
                target[i] = data.draw(value)
            elif op == "duplicate":
                target.insert(data.draw(st.integers(0, len(target))), copy.deepcopy(target[i]))
            else:
                j = data.draw(st.integers(0, len(target) - 1))
                target[i], target[j] = target[j], target[i]
    return doc


#: Snippets that break or stretch a TOML (or JSON) file when spliced in.
SNIPPETS = [
    "[", "]", "{", "}", "=", '"', "'", '"""', "'''", "\n", "\r\n", "\r", "#", ",", ".", "\\", "\\u0000", "\x00",
    "\t", "\ufeff", "é", "\U0001f3ce", "nan", "-inf", "+inf", "1e999", "-1e999", "0x", "0xffffffffffffffffffff",
    "9" * 30, "9" * 5000, "1979-05-27T07:32:00Z", "true", "[track]", "[[track]]", "[track.spaces]", "spaces = []",
    "a.b.c = 1", "[" * 3000, "{a=" * 3000, "]" * 10, "null", "NaN", "Infinity",
]


def edited(text: str) -> st.SearchStrategy[bytes]:
    """``text`` with a few splices: spans deleted, snippets or random text inserted,
    numbers made huge. Most results are near-valid documents, so the checks
    behind the parser see odd values, not only the parser its syntax errors."""

    @st.composite
    def build(draw: st.DrawFn) -> bytes:
        result = text
        for _ in range(draw(st.integers(1, 4))):
            at = draw(st.integers(0, len(result)))
            cut = draw(st.integers(0, 40))
            insert = draw(st.sampled_from(SNIPPETS) | st.text(max_size=10))
            result = result[:at] + insert + result[at + draw(st.sampled_from([0, cut])):]
        if draw(st.booleans()):
            numbers = list(re.finditer(r"\b\d+(\.\d+)?\b", result))
            if numbers:
                match = draw(st.sampled_from(numbers))
                bigger = draw(st.sampled_from(["9" * 400, "9" * 4400, "-" + match.group(), "1e400", "nan", "inf"]))
                result = result[: match.start()] + bigger + result[match.end():]
        return result.encode("utf-8", "surrogatepass")

    return build()


def nested(depth: st.SearchStrategy[int]) -> st.SearchStrategy[bytes]:
    """Deeply nested TOML: arrays, inline tables, dotted keys and table headers."""
    shapes = [
        lambda n: "a = " + "[" * n + "]" * n,
        lambda n: "a = " + "[" * n,
        lambda n: "a = " + "{b = " * n + "1" + "}" * n,
        lambda n: ".".join(["k"] * n) + " = 1",
        lambda n: "[" + ".".join(["k"] * n) + "]\nx = 1",
        lambda n: "[[" + ".".join(["k"] * n) + "]]\nx = 1",
    ]
    return st.builds(lambda shape, n: shape(n).encode(), st.sampled_from(shapes), depth)


def raw_files(text: str) -> st.SearchStrategy[bytes]:
    """Any bytes a file of this kind could hold."""
    return st.one_of(
        st.binary(max_size=300),
        st.text(max_size=300).map(lambda s: s.encode("utf-8", "surrogatepass")),
        edited(text),
        nested(st.integers(1, 5000)),
        st.just(text.encode("utf-16")),
        st.just(text.encode("utf-8")[: len(text) // 2]),
    )


# --- 1. tracks ------------------------------------------------------------------------------------------------------


def assert_valid_track(track: Track) -> None:
    """What the rules engine relies on: six starting spaces, every step forward
    to a space of this track or the finish, finite positions, a route to the line."""
    assert isinstance(track, Track)
    assert isinstance(track.name, str) and track.name.strip()
    assert 1 <= track.lanes <= 6
    assert track.spaces
    assert sorted(track.starting_spaces) == [1, 2, 3, 4, 5, 6]
    assert math.isfinite(track.finish_line)
    assert all(math.isfinite(t) for t in track.tip_lines)
    assert list(track.tip_lines) == sorted(set(track.tip_lines)) and track.tip_lines[-1] < track.finish_line
    for space in track.spaces:
        assert 0 <= space.lane < track.lanes
        assert all(math.isfinite(v) for v in (space.front, space.back, space.x, space.y, space.heading))
        assert space.front <= track.finish_line
        assert space.steps
        for step in space.steps:
            assert step == FINISH or track.spaces[step].front > space.front
    for start in track.starting_spaces.values():
        steps, ends = track.moves(start, 6, ())
        assert 0 <= steps <= 6 and all(e == FINISH or 0 <= e < len(track.spaces) for e in ends)


@fuzz(250)
@given(data=st.data())
def test_track_mutations(data: st.DataObject) -> None:
    doc = mutate(data, TRACK_DOC)
    expect(lambda: Track.from_dict(doc, "tracks/fuzzed.toml"), "tracks/fuzzed.toml", assert_valid_track)


@fuzz(60)
@given(doc=st.dictionaries(st.text(max_size=10), toml_values, max_size=4)
       | st.builds(lambda header: {"track": header}, st.dictionaries(st.sampled_from(
           ["name", "lanes", "finish_line", "tip_lines", "reconstructed", "note", "spaces"]), toml_values)))
def test_track_from_any_table(doc: dict[str, Any]) -> None:
    expect(lambda: Track.from_dict(doc, "odd.toml"), "odd.toml", assert_valid_track)


@fuzz(150)
@given(content=raw_files(TRACK_TEXT))
def test_track_files(folder: Path, content: bytes) -> None:
    path = write(folder, content)
    expect(lambda: load_track(path), str(path), assert_valid_track)


@fuzz(60)
@given(name=st.text(max_size=300) | st.sampled_from(["", ".", "/", "/tmp", "x" * 5000, "a/" * 3000, "\x00"]))
def test_track_names(name: str) -> None:
    """A name that is neither a shipped track nor a readable file is a DataError naming it."""
    expect(lambda: load_track(name), name, assert_valid_track)


# --- 2. decks -------------------------------------------------------------------------------------------------------


def assert_valid_edition(cars: CarSet) -> None:
    """Six cars in index order with distinct ids, names, letters and colours; a joker of its own; three pairs
    that hold every car once."""
    assert isinstance(cars, CarSet) and len(cars) == EDITION_CARS
    assert [car.index for car in cars] == list(range(EDITION_CARS))
    for car in cars:
        assert re.fullmatch("[a-z]+", car.id) and car.name.strip() and re.fullmatch("[A-Z]", car.letter)
        assert len(car.rgb) == 3 and all(isinstance(v, int) and 0 <= v <= 255 for v in car.rgb)
        assert cars.parse(car.id.upper()) is car
    for key in ("id", "name", "letter", "rgb"):
        assert len({getattr(car, key) for car in cars}) == EDITION_CARS, key
    assert re.fullmatch("[a-z]+", cars.joker.id) and cars.joker.id not in {car.id for car in cars}
    assert sorted(car for pair in cars.pairs for car in pair) == list(cars)


def assert_valid_deck(deck: Deck) -> None:
    assert isinstance(deck, Deck) and isinstance(deck.name, str)
    assert len(deck) == DECK_SIZE and len(set(deck.numbers)) == DECK_SIZE
    assert all(isinstance(n, int) and n >= 1 for n in deck.numbers)
    assert_valid_edition(deck.cars)
    pairs = sorted(c.pair for c in deck.cards if isinstance(c, SprintBreakdownCard))
    assert pairs == sorted(deck.cars.pairs)
    for card in deck.cards:
        assert deck[card.number] is card
        if isinstance(card, MovementCard):
            assert 1 <= len(card.moves) <= 6 and card.joker == deck.cars.joker
            assert all(value in VALUES and (car is None or car in deck.cars) for car, value in card.moves)
    assert isinstance(deck.note, str) and isinstance(deck.reconstructed, bool)


@fuzz(200)
@given(data=st.data())
def test_deck_mutations(data: st.DataObject) -> None:
    doc = mutate(data, data.draw(st.sampled_from([DECK_DOC, OLDER_DECK_DOC]), label="deck"))
    expect(lambda: Deck.from_dict(doc, "decks/fuzzed.toml"), "decks/fuzzed.toml", assert_valid_deck)


@fuzz(60)
@given(doc=st.dictionaries(st.text(max_size=10), toml_values, max_size=4)
       | st.builds(lambda header: {"deck": header}, st.dictionaries(st.sampled_from(
           ["name", "reconstructed", "note", "cars", "joker", "sprint_breakdown_pairs", "cards"]), toml_values)))
def test_deck_from_any_table(doc: dict[str, Any]) -> None:
    expect(lambda: Deck.from_dict(doc, "odd.toml"), "odd.toml", assert_valid_deck)


@fuzz(120)
@given(content=raw_files(DECK_TEXT) | raw_files(OLDER_DECK_TEXT))
def test_deck_files(folder: Path, content: bytes) -> None:
    path = write(folder, content)
    expect(lambda: load_deck(path), str(path), assert_valid_deck)


# --- 3. tip tables --------------------------------------------------------------------------------------------------


def assert_valid_tip_table(table: TipTable) -> None:
    assert isinstance(table, TipTable) and isinstance(table.name, str)
    assert len(table.rows) == 3
    for row in table.rows:
        assert len(row) == PLACES
        assert all(isinstance(v, int) and not isinstance(v, bool) and v % 10_000 == 0 for v in row)
    assert all(isinstance(table.payout(r, p), int) for r in range(3) for p in range(1, PLACES + 1))


@fuzz(150)
@given(data=st.data())
def test_tip_table_mutations(data: st.DataObject) -> None:
    doc = mutate(data, TIPS_DOC)
    expect(lambda: TipTable.from_dict(doc, "tips/fuzzed.toml"), "tips/fuzzed.toml", assert_valid_tip_table)


@fuzz(60)
@given(doc=st.dictionaries(st.text(max_size=10), toml_values, max_size=4)
       | st.builds(lambda header: {"tips": header}, st.dictionaries(st.sampled_from(
           ["name", "reconstructed", "first", "second", "third"]), toml_values | st.lists(st.integers(), max_size=7))))
def test_tip_table_from_any_table(doc: dict[str, Any]) -> None:
    expect(lambda: TipTable.from_dict(doc, "odd.toml"), "odd.toml", assert_valid_tip_table)


@fuzz(100)
@given(content=raw_files(TIPS_TEXT))
def test_tip_table_files(folder: Path, content: bytes) -> None:
    path = write(folder, content)
    expect(lambda: load_tip_table(path), str(path), assert_valid_tip_table)


# --- 4. board profiles ----------------------------------------------------------------------------------------------


def assert_valid_profile(profile: Profile, track: Track) -> None:
    """Every space of the track has LEDs on the strip; no LED serves twice."""
    assert isinstance(profile, Profile)
    assert profile.track == track.slug
    assert isinstance(profile.led_count, int) and profile.led_count > 0
    assert set(profile.spaces) == {s.id for s in track.spaces}
    groups = [*profile.spaces.values(), *profile.placements, *profile.seats]
    leds = [led for group in groups for led in group]
    assert all(group for group in groups)
    assert all(isinstance(led, int) and 0 <= led < profile.led_count for led in leds)
    assert len(leds) == len(set(leds))
    assert len(profile.placements) == PLACES and len(profile.seats) <= MAX_SEATS
    assert isinstance(profile.calibrated, bool) and isinstance(profile.note, str)
    assert len(profile.frame_for()) == profile.led_count


@fuzz(150)
@given(data=st.data())
def test_profile_mutations(data: st.DataObject) -> None:
    doc = mutate(data, PROFILE_DOC)
    board = TrackBoard(speed_street())
    profile, error = attempt(lambda: Profile.from_dict(doc, "profiles/fuzzed.toml", board), DataError)
    if error is not None:
        assert_data_error(error, "profiles/fuzzed.toml")
    else:
        assert_valid_profile(profile, speed_street())


@fuzz(60)
@given(doc=st.dictionaries(st.text(max_size=10), toml_values, max_size=4)
       | st.builds(lambda header, spaces: {"profile": header, "spaces": spaces},
                   st.dictionaries(st.sampled_from(
                       ["track", "led_count", "calibrated", "note", "placements", "seats"]), toml_values),
                   st.dictionaries(st.sampled_from(["a1", "b2", "finish", ""]), toml_values)))
def test_profile_from_any_table(doc: dict[str, Any]) -> None:
    profile, error = attempt(lambda: Profile.from_dict(doc, "odd.toml", TrackBoard(speed_street())), DataError)
    if error is not None:
        assert_data_error(error, "odd.toml")
    else:
        assert_valid_profile(profile, speed_street())


@fuzz(100)
@given(content=raw_files(PROFILE_TEXT), with_track=st.booleans())
def test_profile_files(folder: Path, content: bytes, with_track: bool) -> None:
    """With its track given, or found by the ``track`` the file names."""
    path = write(folder, content)
    track = speed_street() if with_track else None
    profile, error = attempt(lambda: load_profile(path, track), DataError)
    if error is not None:
        assert_data_error(error, str(path))
    else:
        assert_valid_profile(profile, load_track(profile.track))


# --- 5. the table's configuration -----------------------------------------------------------------------------------


def assert_valid_config(config: TableConfig) -> None:
    assert isinstance(config, TableConfig)
    assert isinstance(config.settings.track, str)
    assert 2 <= len(config.settings.players) <= 6 and len(set(config.settings.players)) == len(config.settings.players)
    assert all(isinstance(name, str) and name for name in config.settings.players)
    assert isinstance(config.settings.races, int) and 1 <= config.settings.races <= 99
    assert config.settings.variant in variant_names()
    for number in (config.settings.claim_window, config.buttons.hold_time):
        assert isinstance(number, float) and math.isfinite(number) and number > 0
    names = [r.name for r in config.readers]
    assert set(names) <= {"discard", "cars"}
    if config.hub is not None:
        assert 1 <= len(config.hub.readers) <= 8 and len(set(config.hub.readers)) == len(config.hub.readers)
        assert not set(config.hub.readers) & set(names)
        assert config.hub.port is None or (isinstance(config.hub.port, str) and config.hub.port)
        names += config.hub.readers
    assert names.count("discard") == 1
    assert config.strip.count is None or 1 <= config.strip.count <= MAX_LEDS  # checked on load: opens as it is
    assert 2 <= config.strip.pin <= 27
    for reader in config.readers:
        assert reader.kind in READER_KINDS and reader.bus in BUSES
        assert isinstance(reader.port, str) and isinstance(reader.cs_pin, str)
        assert isinstance(reader.address, int) and not isinstance(reader.address, bool)
    assert all(isinstance(pin, int) and not isinstance(pin, bool) and 2 <= pin <= 27
               for pin in config.buttons.pins.values())
    assert isinstance(config.registry, Path)
    assert config.profile is None or isinstance(config.profile, str)


@fuzz(250)
@given(data=st.data())
def test_config_mutations(data: st.DataObject) -> None:
    doc = mutate(data, CONFIG_DOC)
    expect(lambda: parse_config(doc, "config.toml"), "config.toml", assert_valid_config)


@fuzz(100)
@given(doc=st.dictionaries(st.sampled_from(["game", "readers", "hub", "strip", "buttons", "sound", "files", "x"]),
                           toml_values, max_size=4))
def test_config_from_any_table(doc: dict[str, Any]) -> None:
    expect(lambda: parse_config(doc, "config.toml"), "config.toml", assert_valid_config)


@fuzz(120)
@given(content=raw_files(CONFIG_TEXT))
def test_config_files(folder: Path, content: bytes) -> None:
    path = write(folder, content, "config.toml")
    expect(lambda: load_config(path), str(path), assert_valid_config)


def test_config_paths_that_are_no_files(folder: Path) -> None:
    for path in (folder / "missing.toml", folder, Path("x" * 5000)):
        config, error = attempt(lambda: load_config(path), DataError)
        assert config is None
        assert_data_error(error, str(path))


# --- 6. tag records and the registry --------------------------------------------------------------------------------


def assert_valid_identity(identity: object) -> None:
    assert isinstance(identity, tuple) and len(identity) == 2
    kind, value = identity
    if kind == "card":
        assert isinstance(value, int) and 1 <= value <= DECK_SIZE
    elif kind == "car":
        assert isinstance(value, Car) and value in CARS
    else:
        assert kind == "pit" and isinstance(value, int) and 0 <= value < MAX_SEATS


@st.composite
def tag_memories(draw: st.DrawFn) -> bytes:
    """User memory of an NTAG: random bytes, or a real record with a few bytes
    changed, cut short or padded (so the length fields point anywhere)."""
    if draw(st.booleans()):
        return draw(st.binary(max_size=200))
    text = draw(st.sampled_from([record_text("card 17"), record_text("car red")]) | st.text(max_size=40))
    memory = bytearray(encode_record(text))
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(memory) - 1))
        memory[at] = draw(st.integers(0, 255) | st.sampled_from([0x00, 0x03, 0xFE, 0xFF, 0xD1, 0x54, 0x80]))
    cut = draw(st.integers(0, len(memory)))
    return bytes(memory[:cut]) + draw(st.binary(max_size=20))


@fuzz(1500)
@given(memory=tag_memories())
def test_decode_record_never_raises(memory: bytes) -> None:
    text, _ = attempt(lambda: decode_record(memory), ())
    assert text is None or isinstance(text, str)
    if text is not None:
        identity, _ = attempt(lambda: parse_record(text, VOCAB), ())
        if identity is not None:
            assert_valid_identity(identity)


record_words = st.sampled_from(
    ["toprace", "TOPRACE", "card", "car", "pit", "red", "RED", "white", "lightblue", "0", "1", "6", "7", "48", "49",
     "-1", "١٧", "17.0", "1_7", "99999999999999999999", "9" * 5000, "", " ", "\x00"]
) | st.text(max_size=8)


@fuzz(1000)
@given(text=st.none() | st.text(max_size=60) | st.lists(record_words, max_size=5).map(" ".join))
def test_parse_record(text: str | None) -> None:
    identity, _ = attempt(lambda: parse_record(text, VOCAB), ())
    if identity is not None:
        assert_valid_identity(identity)
        assert parse_record(record_text(VOCAB.key(identity)), VOCAB) == identity


def assert_valid_registry(registry: TagRegistry) -> None:
    assert isinstance(registry, TagRegistry)
    for uid in registry:
        assert isinstance(uid, bytes) and len(uid) in (4, 7, 10)
        assert_valid_identity(registry.get(uid))
    assert TagRegistry.from_dict(registry.to_dict(), "again", VOCAB).to_dict() == registry.to_dict()


@fuzz(200)
@given(data=st.data())
def test_registry_mutations(data: st.DataObject) -> None:
    doc = mutate(data, REGISTRY_DOC)
    expect(lambda: TagRegistry.from_dict(doc, "tags.json", VOCAB), "tags.json", assert_valid_registry)


@fuzz(150)
@given(doc=json_values | st.fixed_dictionaries(
    {"version": st.sampled_from([1, 1.0, True, "1", 2]),
     "tags": st.dictionaries(st.text(max_size=24) | st.text("0123456789abcdefABCDEF ", max_size=24),
                             json_values | record_words.map(lambda w: f"card {w}"), max_size=5)}))
def test_registry_from_any_json(doc: object) -> None:
    expect(lambda: TagRegistry.from_dict(doc, "tags.json", VOCAB), "tags.json", assert_valid_registry)


@fuzz(150)
@given(content=st.one_of(
    st.binary(max_size=300),
    st.text(max_size=300).map(str.encode),
    edited(REGISTRY_TEXT),
    st.integers(1, 100_000).map(lambda n: b"[" * n),
    st.integers(1, 100_000).map(lambda n: b'{"a":' * n),
    st.sampled_from([b"1" * 5000, b'{"version": 1, "tags": {"04a1b2c3": "card ' + b"9" * 5000 + b'"}}',
                     b"NaN", b"Infinity", b'{"version": 1e999, "tags": {}}', b"\xef\xbb\xbf{}"]),
))
def test_registry_files(folder: Path, content: bytes) -> None:
    path = write(folder, content, "tags.json")
    expect(lambda: TagRegistry.load(path, VOCAB), str(path), assert_valid_registry)


def test_registry_paths_that_are_no_files(folder: Path) -> None:
    """No file yet is an empty registry; a folder or an unreadable name is a DataError."""
    registry, error = attempt(lambda: TagRegistry.load(folder / "none.json", VOCAB), DataError)
    assert error is None and registry is not None and len(registry) == 0
    for path in (folder, Path("x" * 5000)):
        registry, error = attempt(lambda: TagRegistry.load(path, VOCAB), DataError)
        assert registry is None
        assert_data_error(error, str(path))


# --- 7. action notation ---------------------------------------------------------------------------------------------

VERBS = ["deal", "bid", "pass", "sold", "take", "start", "play", "joker", "tip", "reveal", "sprint", "breakdown",
         "move", "return", "claim", "pit", "collect", "pick", "grid", "trade"]
#: Both editions' car ids (one edition reads the other's as unknown).
COLOURS = sorted({car.id for edition in (CARS, OLDER.cars) for car in edition})
TOKENS = st.one_of(
    st.integers(-(10**6), 10**6).map(str),
    st.sampled_from(
        [*COLOURS, "RED", "white", "finish", "hidden", "offer", "box", "out", "discard", "sell", "buy", "a1", "b12",
         "c60", "/", ",", ",,", "1,2,3", "1,2/3,4", "red,blue", "red,", "-0", "+5", "1_000", "0x10", "١٢", "½", "1e5",
         "99999999999999999999999", "9" * 5000, "nan", "\x00"]
    ),
    st.text(max_size=6),
    st.lists(st.integers(-5, 60).map(str), max_size=8).map(",".join),
    st.lists(st.lists(st.integers(-5, 60).map(str), max_size=5).map(",".join), max_size=6).map("/".join),
)
#: Numbers as written in a log, odd ones included (int() reads "١٢" and "1_0" too).
NUMBER = st.integers(-3, 60).map(str) | st.sampled_from(["0", "-1", "48", "49", "200000", "1_0", "١٢", "+7", "2" * 30])
COLOUR = st.sampled_from([*COLOURS, "Red", "GREEN", "white", "pink"])
SPACE = st.sampled_from(["a1", "b2", "c3", "a54", "b62", "c63", "finish", "d1", "A1", ""]) | st.text(max_size=4)
NUMBERS = st.lists(NUMBER, max_size=10).map(",".join)
COLOURS_LIST = st.lists(COLOUR, min_size=1, max_size=7).map(",".join)
DEAL = st.builds(
    lambda hands, extra: " ".join(["deal", hands, *extra]),
    st.just("hidden") | st.lists(NUMBERS, min_size=1, max_size=7).map("/".join),
    st.lists(st.tuples(st.sampled_from(["offer", "box", "out"]), NUMBERS).map(" ".join), max_size=3),
)
#: Actions of the right shape: each verb with arguments of the kind it takes.
well_formed = st.one_of(
    DEAL,
    st.sampled_from(["pass", "sprint", "breakdown", "claim", "pit discard"]),
    st.tuples(st.sampled_from(["bid", "start", "play", "collect", "pick", "pit box"]), NUMBER).map(" ".join),
    st.tuples(st.just("sold"), NUMBER, NUMBER).map(" ".join),
    st.tuples(st.sampled_from(["take", "joker", "tip", "reveal"]), COLOUR).map(" ".join),
    st.tuples(st.sampled_from(["move", "return"]), COLOUR, SPACE).map(" ".join),
    COLOURS_LIST.map("grid {}".format),
    st.tuples(COLOURS_LIST, COLOURS_LIST).map(lambda t: f"trade sell {t[0]} buy {t[1]}"),
)
notations = well_formed | st.builds(
    lambda verb, args: " ".join([verb, *args]),
    st.sampled_from(VERBS) | st.sampled_from(VERBS).map(str.upper),
    st.lists(TOKENS, max_size=6),
)


@fuzz(1500)
@given(text=st.text(max_size=80) | notations, cars=st.sampled_from([CARS, OLDER.cars]))
def test_parse_action(text: str, cars: CarSet) -> None:
    """Any text is an action whose notation reads back the same, or a NotationError, in either edition."""
    action, error = attempt(lambda: parse_action(text, cars), NotationError)
    if error is not None:
        assert isinstance(error, NotationError) and str(error)
    else:
        assert parse_action(str(action), cars) == action


# --- 8. saved games: fuzzed logs ------------------------------------------------------------------------------------


def fuzzed_entry(legal: list[str]) -> st.SearchStrategy[str]:
    """A log entry: random text, a well-formed action of any kind, or one of the
    actions legal now with one word (or one number of a list) changed."""

    @st.composite
    def altered(draw: st.DrawFn) -> str:
        pieces = re.split(r"([ ,/])", draw(st.sampled_from(legal)))
        at = draw(st.integers(0, len(pieces) - 1))
        pieces[at] = draw(TOKENS | st.sampled_from(["", pieces[at] * 2, "-" + pieces[at]]))
        return "".join(pieces)

    options = [st.text(max_size=40), notations]
    if legal:
        options.append(altered())
    return st.one_of(options)


def legal_now(game: TopRace, rng: random.Random) -> list[str]:
    if game.is_over:
        return []
    if game.decision.chance:
        return [str(game.chance(rng))]
    return [str(a) for a in game.legal_actions()]


@fuzz(200)
@given(data=st.data())
def test_replay_fuzzed_logs(data: st.DataObject) -> None:
    """A legal game of any variant played some way in, then a few fuzzed entries.

    ``TopRace.replay`` of the log must give a game or raise IllegalActionError /
    NotationError; the same entries applied one by one must be refused exactly
    when the replay refuses, and a refused entry must leave the game unchanged.
    """
    variant = data.draw(st.sampled_from(variant_names()), label="variant")
    game_settings = Settings(
        tuple(f"P{n}" for n in range(data.draw(st.integers(2, 6), label="players"))),
        races=data.draw(st.integers(1, 2), label="races"),
        first_opener=1,
        variant=variant,
        tips_at_end="tips" in variant and data.draw(st.booleans(), label="tips_at_end"),
    )
    track, deck = speed_street(), standard_deck()
    rng = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
    hidden = data.draw(st.booleans(), label="hidden deal")
    game = new_game(game_settings, track, deck)
    log: list[str] = []
    for _ in range(data.draw(st.integers(0, 700), label="legal steps")):
        if game.is_over:
            break
        action: Action = game.chance(rng) if game.decision.chance else rng.choice(game.legal_actions())
        if hidden and isinstance(action, Deal):
            action = replace(action, hands=None, left_out=())
        game.apply(action)
        log.append(str(action))

    junk: list[str] = []
    first_error: BaseException | None = None
    for _ in range(data.draw(st.integers(1, 4), label="fuzzed entries")):
        entry = data.draw(fuzzed_entry(legal_now(game, random.Random(0))), label="entry")
        junk.append(entry)
        before = (game.to_dict(), len(game.events), game.phase, game.to_move)
        applied, error = attempt(lambda: game.apply_notation(entry), (IllegalActionError, NotationError))
        if error is not None:
            assert (game.to_dict(), len(game.events), game.phase, game.to_move) == before, "a refused entry changed it"
            first_error = error
            break
        assert applied is not None and str(applied) == str(game.log[-1])

    replayed, error = attempt(lambda: replay_game(game_settings, track, deck, log + junk), TopRaceError)
    if first_error is not None:
        assert isinstance(error, (IllegalActionError, NotationError))
        assert type(error) is type(first_error) and str(error) == str(first_error)
    else:
        assert error is None and replayed is not None
        assert replayed.to_dict() == game.to_dict()


@fuzz(200)
@given(log=st.lists(st.text(max_size=30) | notations, max_size=6),
       variant=st.sampled_from(variant_names()), players=st.integers(2, 6))
def test_replay_logs_from_nothing(log: list[str], variant: str, players: int) -> None:
    """Logs made of junk from the first entry on (the deal itself fuzzed)."""
    game_settings = Settings(tuple(f"P{n}" for n in range(players)), variant=variant)
    game, error = attempt(lambda: replay_game(game_settings, speed_street(), standard_deck(), log), TopRaceError)
    if error is not None:
        assert isinstance(error, (IllegalActionError, NotationError)) and str(error)
    else:
        assert isinstance(game, TopRace) and len(game.log) == len(log)


# --- 9. the game journal --------------------------------------------------------------------------------------------


def crc_line(record: dict[str, Any]) -> bytes:
    """A journal record with a correct CRC (as a version 1 journal has it: each its own, not chained),
    so fuzzed records get past the CRC check to the checks behind it."""
    body = json.dumps(record, sort_keys=True, separators=(",", ":"))
    crc = f"{zlib.crc32(body.encode('utf-8')):08x}"
    return json.dumps({**record, "crc": crc}, sort_keys=True, separators=(",", ":")).encode() + b"\n"


JOURNAL_SETTINGS = Settings(("Anna", "Ben", "Carla"), races=2, variant="pitstop")
JOURNAL_HEADER = {"format": JOURNAL_FORMAT, "version": JOURNAL_VERSION, "settings": asdict(JOURNAL_SETTINGS), "n": 0}


@cache
def real_journal() -> tuple[bytes, tuple[tuple[str, ...], ...]]:
    """A journal written by :class:`Journal` for a game played some way in with a
    few undos and records of two steps, and the steps it holds after each record
    (``held[0]``: the header, no steps; ``held[k]``: after the k-th record behind it)."""
    game = new_game(JOURNAL_SETTINGS, speed_street(), standard_deck())
    rng = random.Random(7)
    steps: list[str] = []
    held: list[tuple[str, ...]] = [()]

    def play() -> Action:
        action = game.chance(rng) if game.decision.chance else rng.choice(game.legal_actions())
        game.apply(action)
        steps.append(str(action))
        return action

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "journal.jsonl"
        journal = Journal.create(path, JOURNAL_SETTINGS)
        for n in range(45):
            if n % 9 == 8:
                journal.append_undo(input_number=n)
                steps.pop()
            elif n % 9 == 4:
                journal.append([play(), play()], input_number=n)
            else:
                journal.append(play(), input_number=n)
            held.append(tuple(steps))
        journal.close()
        return path.read_bytes(), tuple(held)


def assert_valid_journal(loaded: Loaded, content: bytes) -> None:
    assert isinstance(loaded, Loaded) and isinstance(loaded.settings, Settings)
    assert 2 <= len(loaded.settings.players) <= 6
    assert all(parse_action(str(step), CARS) == step for step in loaded.steps)
    assert 0 <= loaded.records and 0 <= loaded.whole_bytes <= len(content)
    assert content[: loaded.whole_bytes].count(b"\n") == loaded.records + 1
    assert loaded.last_input is None or isinstance(loaded.last_input, int)


def test_journal_cut_short_anywhere(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Power lost at any byte: the steps up to the last whole record, or no game at all."""
    # Every load of a cut with a whole header makes the game that header names, and so reads and
    # builds the same deck and track files again (some 40 ms a time, 2,500 times). The first such
    # load reads them; the rest share what it read (a Track and a Deck are never changed once made,
    # see core.clone.shared), so the loop's time goes to the cuts themselves.
    from toprace_pi.games.toprace import records

    monkeypatch.setattr(records, "load_track", cache(records.load_track))
    monkeypatch.setattr(records, "load_deck", cache(records.load_deck))
    content, held = real_journal()
    path = folder / "journal.jsonl"
    for cut in range(len(content) + 1):
        path.write_bytes(content[:cut])
        loaded, error = attempt(lambda: journal_load(path), DataError)
        whole = content[:cut].count(b"\n")
        if whole == 0:
            assert_data_error(error, str(path))
            continue
        assert error is None and loaded is not None, f"cut at byte {cut}: {error}"
        assert_valid_journal(loaded, content[:cut])
        assert [str(step) for step in loaded.steps] == list(held[whole - 1]), f"cut at byte {cut}"
        assert loaded.records == whole - 1
        assert loaded.torn == (not content[:cut].endswith(b"\n"))
        assert loaded.settings == JOURNAL_SETTINGS


@st.composite
def damaged(draw: st.DrawFn, content: bytes) -> bytes:
    """``content`` with a few bytes flipped, overwritten, deleted or inserted."""
    result = bytearray(content)
    for _ in range(draw(st.integers(1, 3))):
        # Anywhere, or in the last records (where a torn write lands).
        at = draw(st.integers(0, len(result) - 1) | st.integers(max(0, len(result) - 200), len(result) - 1))
        op = draw(st.sampled_from(["flip", "set", "delete", "insert"]))
        if op == "flip":
            result[at] ^= 1 << draw(st.integers(0, 7))
        elif op == "set":
            result[at] = draw(st.sampled_from(b'\n"{}[]:,0\\\xff\x00') | st.integers(0, 255))
        elif op == "delete":
            del result[at: at + draw(st.integers(1, 30))]
        else:
            result[at:at] = draw(st.binary(min_size=1, max_size=8) | st.sampled_from([b"\n", b"\n\n", b"[" * 5000]))
    return bytes(result)


@fuzz(200)
@given(data=st.data())
def test_journal_damaged(folder: Path, data: st.DataObject) -> None:
    """A damaged journal is refused naming the file, or read as it was after some
    whole record; resuming it cuts a torn tail off and reads the same again."""
    original, held = real_journal()
    content = data.draw(damaged(original))
    path = write(folder, content, "journal.jsonl")
    loaded, error = attempt(lambda: journal_load(path), DataError)
    if error is not None:
        assert_data_error(error, str(path))
        return
    assert loaded is not None
    assert_valid_journal(loaded, content)
    assert loaded.settings == JOURNAL_SETTINGS
    assert [str(step) for step in loaded.steps] == list(held[loaded.records])
    journal, again = Journal.resume(path)
    journal.close()
    assert again.steps == loaded.steps and not journal_load(path).torn
    assert path.read_bytes() == content[: loaded.whole_bytes]


@st.composite
def journal_records(draw: st.DrawFn) -> bytes:
    """Lines of records with correct CRCs: the header, then fuzzed steps."""
    lines = [crc_line(JOURNAL_HEADER)]
    for n in range(1, draw(st.integers(0, 5)) + 1):
        record: dict[str, Any] = {"n": draw(st.just(n) | st.sampled_from([0, n + 1, -1, True, str(n), 1.0 * n]))}
        for key in draw(st.lists(st.sampled_from(["step", "steps", "undo"]), min_size=1, max_size=2, unique=True)):
            value = notations | st.text(max_size=20) | json_values | st.just(True)
            record[key] = draw(st.lists(value, max_size=4) if key == "steps" and draw(st.booleans()) else value)
        if draw(st.booleans()):
            record["in"] = draw(json_values)
        lines.append(crc_line(record))
    return b"".join(lines)


@fuzz(150)
@given(data=st.data())
def test_journal_fuzzed_records(folder: Path, data: st.DataObject) -> None:
    """Records that pass the CRC but say anything: the header's settings mutated,
    steps of any notation or type, running numbers out of order."""
    lines = data.draw(journal_records()).splitlines(keepends=True)
    if data.draw(st.booleans()):
        lines[0] = crc_line(mutate(data, JOURNAL_HEADER, values=json_values))
    content = b"".join(lines)
    path = write(folder, content, "journal.jsonl")
    loaded, error = attempt(lambda: journal_load(path), DataError)
    if error is not None:
        assert_data_error(error, str(path))
    else:
        assert_valid_journal(loaded, content)


@fuzz(150)
@given(content=st.one_of(
    st.binary(max_size=300),
    st.text(max_size=300).map(str.encode),
    st.integers(1, 100_000).map(lambda n: b"[" * n + b"\n"),
    st.integers(1, 100_000).map(lambda n: crc_line(JOURNAL_HEADER) + b'{"a":' * n + b"\n"),
    st.sampled_from([b"", b"\n", b"\n\n", b"1" * 5000 + b"\n", b"NaN\n", b"{}\n", b'{"crc": "0"}\n']),
))
def test_journal_any_bytes(folder: Path, content: bytes) -> None:
    path = write(folder, content, "journal.jsonl")
    loaded, error = attempt(lambda: journal_load(path), DataError)
    if error is not None:
        assert_data_error(error, str(path))
    else:
        assert_valid_journal(loaded, content)


def test_journal_paths_that_are_no_files(folder: Path) -> None:
    for path in (folder / "none.jsonl", folder, Path("x" * 5000)):
        loaded, error = attempt(lambda: journal_load(path), DataError)
        assert loaded is None
        assert_data_error(error, str(path))


# --- the reader hub's line stream ----------------------------------------------------------------------------------


class LineFeed:
    """The hub's serial port as HubReader reads it, handing over ``chunks`` of bytes as they arrive."""

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = [c for c in chunks if c]

    @property
    def in_waiting(self) -> int:
        return len(self.chunks[0]) if self.chunks else 0

    def read(self, size: int) -> bytes:
        if not self.chunks:
            return b""
        chunk, rest = self.chunks[0][:size], self.chunks[0][size:]
        self.chunks[0:1] = [rest] if rest else []
        return chunk

    def write(self, data: bytes) -> None:
        pass

    def close(self) -> None:
        pass


def hub_lines() -> st.SearchStrategy[bytes]:
    """Well-formed hub lines, which the noise around them must not keep from being read."""
    uid = st.binary(min_size=4, max_size=10)
    return st.one_of(
        st.builds(lambda seq, i, u, r: hub_protocol.encode(seq, "LAID", i, u, r),
                  st.integers(0, 65535), st.integers(0, 7), uid, st.none() | st.text(min_size=1, max_size=20)),
        st.builds(lambda seq, i, u: hub_protocol.encode(seq, "LIFTED", i, u), st.integers(0, 65535),
                  st.integers(0, 7), uid),
        st.builds(lambda seq: hub_protocol.encode(seq, "BEAT"), st.integers(0, 65535)),
        st.builds(lambda seq, n: hub_protocol.encode(seq, "HELLO", st_version(seq), n), st.integers(0, 65535),
                  st.integers(0, 8)),
    )


def st_version(seq: int) -> str:
    """Mostly this host's version, now and then another major one (which the host must refuse cleanly)."""
    return hub_protocol.VERSION if seq % 7 else "9.0"


@fuzz(300)
@given(chunks=st.lists(st.binary(max_size=250) | hub_lines(), max_size=12))
def test_hub_reader_takes_any_bytes(chunks: list[bytes]) -> None:
    """Any bytes from the hub give events or a clean ReaderError, never another exception or a hang."""
    feed = LineFeed(chunks)
    reader = HubReader({0: "discard", 1: "cars"}, port="/dev/fuzz", open_serial=lambda port: feed,
                       clock=lambda: 0.0)
    for _ in range(len(chunks) * 3 + 2):
        events, _ = attempt(reader.poll, ReaderError)
        assert all(isinstance(e, (TagLaid, TagLifted, DeviceStatus)) for e in events or ())
    reader.close()


@fuzz(300)
@given(line=st.binary(max_size=120))
def test_the_hub_takes_any_command_line(line: bytes) -> None:
    """The firmware answers HELLO? and STATUS? and ignores every other line the host (or noise) may send."""
    sent: list[bytes] = []
    hub = Hub([FieldReader()], sent.append, lambda: 0.0)
    hub.command(line)
    answers = {b"HELLO?": ["HELLO"], b"STATUS?": ["STATUS"]}
    assert [hub_protocol.decode(s).kind for s in sent] == answers.get(line.strip(), [])


# --- the LED strip's settings ----------------------------------------------------------------------------------------

STRIP_KEYS = ["count", "backend", "pin", "brightness", "colour_order", "supply_amps", "reserve_amps", "x"]


@fuzz(300)
@given(section=st.dictionaries(st.sampled_from(STRIP_KEYS), toml_values | st.integers(-(10**12), 10**12), max_size=7))
def test_strip_settings_from_any_section(section: dict[str, Any]) -> None:
    """Settings a strip can be opened with (a sane LED count, a GPIO pin), or a DataError naming every problem."""
    config, error = attempt(lambda: parse_config({"strip": section}, "table.toml"), DataError)
    if error is not None:
        assert_data_error(error, "table.toml")
    else:
        settings = config.strip
        assert isinstance(settings, StripSettings)
        assert settings.count is None or 1 <= settings.count <= MAX_LEDS
        assert 2 <= settings.pin <= 27
        assert settings.supply_amps > settings.reserve_amps >= 0
