"""The table's tags, enrolment and board profiles serve any game: a toy one here, with no Top Race in it.

The toy has per-seat number cards 1-10 in a seat's colour (keys ``number 7 red``) and a straight
board of 73 cells numbered 0 to 72, with three placement spaces beside it.
"""

from __future__ import annotations

import json
import tomllib

import pytest
from emulators.scripted import ScriptedReader

from toprace_pi.errors import DataError
from toprace_pi.hardware.calibrate import Calibration, ProfileTarget, calibrate
from toprace_pi.hardware.events import TagLaid
from toprace_pi.hardware.profile import Profile, default_profile
from toprace_pi.hardware.strip import SimulatedStrip
from toprace_pi.hardware.tags import Enrolment, TagBook, TagRegistry, Walk, parse_record, record_text
from toprace_pi.table.config import parse_config
from toprace_pi.table.tools import calibrate_board, enrol

COLOURS = ("red", "blue")
NumberCard = tuple[str, int]


class NumberCards:
    """A vocabulary of number cards: ``("red", 7)`` is ``number 7 red``."""

    def identity(self, key: str) -> NumberCard | None:
        words = key.split()
        if len(words) != 3 or words[0] != "number" or not words[1].isdigit() or words[2] not in COLOURS:
            return None
        return (words[2], int(words[1])) if 1 <= int(words[1]) <= 10 else None

    def key(self, identity: NumberCard) -> str:
        colour, number = identity
        return f"number {number} {colour}"

    def describe(self, identity: NumberCard) -> str:
        colour, number = identity
        return f"the {colour} {number}"

    def unknown(self, key_or_record: str | None) -> str:
        return "not one of this game's cards"

    def key_forms(self) -> str:
        return "'number N COLOUR'"


class Straight:
    """A straight board of cells 0 to 72; the strip runs along it from 0."""

    slug = "straight-72"
    name = "Straight 72"
    cells = [str(n) for n in range(73)]
    places = 3
    note = "one LED a cell from 0"

    def label(self, cell: str) -> str:
        return f"cell {cell}"


VOCABULARY = NumberCards()
BOOK = TagBook(VOCABULARY, {"numbers": Walk(tuple((colour, n) for colour in COLOURS for n in range(1, 11)))})


def uid(n: int) -> bytes:
    return bytes([0x04, 0x70, 0, 0, 0, 0, n])


class TestTags:
    def test_a_registry_of_another_games_keys_is_saved_loaded_and_identifies(self, tmp_path):
        path = tmp_path / "tags.json"
        TagRegistry({uid(1): ("red", 7)}, vocabulary=VOCABULARY).save(path)
        assert json.loads(path.read_text()) == {"version": 1, "tags": {"04700000000001": "number 7 red"}}
        registry = TagRegistry.load(path, VOCABULARY)
        assert registry.identify(TagLaid("discard", uid(1))) == ("red", 7)
        assert registry.identify(TagLaid("discard", uid(2), "toprace number 10 blue")) == ("blue", 10)
        assert registry.identify(TagLaid("discard", uid(2), "toprace card 17")) is None

    def test_a_key_the_game_does_not_know_is_refused_by_its_forms(self, tmp_path):
        path = tmp_path / "tags.json"
        path.write_text(json.dumps({"version": 1, "tags": {"04700000000001": "number 11 red"}}))
        with pytest.raises(DataError) as caught:
            TagRegistry.load(path, VOCABULARY)
        assert caught.value.problems == ["tag '04700000000001': 'number 11 red' is not 'number N COLOUR'"]

    def test_records_carry_the_shared_prefix_and_any_number_of_words(self):
        record = record_text(VOCABULARY.key(("blue", 3)))
        assert record == "toprace number 3 blue" and parse_record(record, VOCABULARY) == ("blue", 3)


class TestEnrolment:
    def test_a_walk_of_the_game_asks_in_its_words_and_resumes(self):
        known = TagRegistry({uid(1): ("red", 1)}, vocabulary=VOCABULARY)
        walk = Enrolment(BOOK.walks["numbers"].identities, VOCABULARY, known=known)
        assert walk.resume() == 1 and walk.prompt == "scan the red 2"
        assert walk.offer(TagLaid("discard", uid(1))) == "this tag is already enrolled as the red 1"
        assert walk.offer(TagLaid("discard", uid(2))) == "enrolled the red 2"
        assert walk.enrolled[0].record == "toprace number 2 red"

    def test_the_table_enrols_the_games_walk_by_name(self, tmp_path):
        config = parse_config({"files": {"registry": str(tmp_path / "tags.json")}}, "test")
        reader = ScriptedReader([uid(n) for n in range(20)])
        said: list[str] = []
        registry = enrol("numbers", config, said.append, tags=BOOK, reader=reader, tick=0)
        assert said[0] == "scan the red 1" and said[-1] == f"saved 20 tags to {config.registry}"
        assert reader.records[19] == "toprace number 10 blue"
        assert TagRegistry.load(config.registry, VOCABULARY).get(uid(19)) == ("blue", 10) == registry.get(uid(19))


class TestBoard:
    def test_the_default_profile_follows_the_cells_then_the_places_then_the_seats(self):
        profile = default_profile(Straight())
        assert profile.spaces["0"] == (0,) and profile.spaces["72"] == (72,)
        assert profile.placements == ((73,), (74,), (75,)) and profile.seats[0] == (76,)
        assert Profile.from_dict(tomllib.loads(profile.to_toml()), "x", Straight()) == profile

    def test_a_calibration_walks_the_board_and_saves_a_profile_that_loads(self, tmp_path):
        leds = len(Straight.cells) + Straight.places + 6  # the default's count, as calibrate_board opens the strip
        presses = ["next"] + ["ok"] * leds  # LED 0 lies under no cell, so the 6th seat light has none
        walk = Calibration(Straight(), leds)
        assert "Is it under cell 0, 1 of 73?" in walk.prompt
        profile = calibrate(Straight(), SimulatedStrip(leds), iter(presses), say=lambda _: None)
        assert profile.spaces["0"] == (1,) and profile.placements[2] == (76,) and len(profile.seats) == 5
        out = tmp_path / "straight.toml"
        target = ProfileTarget(Straight(), default_profile(Straight()), out)
        said: list[str] = []
        calibrate_board(target, parse_config({}, "test"), iter(presses), said.append)
        assert Profile.from_dict(tomllib.loads(out.read_text()), str(out), Straight()) == profile
        assert said[-1].startswith(f"saved the profile to {out}; set [files] profile")

    def test_a_profile_is_checked_against_the_boards_cells(self):
        data = tomllib.loads(default_profile(Straight()).to_toml())
        data["spaces"]["73"] = data["spaces"].pop("72")
        with pytest.raises(DataError) as caught:
            Profile.from_dict(data, "straight.toml", Straight())
        assert caught.value.problems == ["space 73: Straight 72 has no such space", "space 72: has no LED"]
