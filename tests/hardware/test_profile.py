"""Board profiles: the shipped defaults are valid and cover every space, frames are
composed by space, files round-trip, and broken files are refused with every problem."""

from __future__ import annotations

import tomllib

import pytest
from tracks import straight_dict

from toprace_pi.errors import DataError
from toprace_pi.games.toprace.data import load_track, profile_names, track_names
from toprace_pi.games.toprace.rules import Track
from toprace_pi.games.toprace.table.board import TrackBoard, load_profile, snake_order
from toprace_pi.hardware.profile import Profile, default_profile

RED, BLUE, DARK = (230, 30, 30), (30, 100, 255), (0, 0, 0)


@pytest.fixture
def small() -> Track:
    """3 lanes x 4 rows: a1-a4, b1-b4, c1-c4."""
    return Track.from_dict(straight_dict(4), "small.toml")


def profile_dict(track: Track) -> dict:
    return tomllib.loads(default_profile(TrackBoard(track)).to_toml())


def problems(data: dict, track: Track) -> list[str]:
    with pytest.raises(DataError) as caught:
        Profile.from_dict(data, "my-board.toml", TrackBoard(track))
    assert str(caught.value).startswith("my-board.toml:")
    return caught.value.problems


class TestShippedProfiles:
    @pytest.mark.parametrize("name", track_names())
    def test_every_track_has_a_valid_default_profile_covering_every_space_once(self, name):
        track = load_track(name)
        profile = load_profile(name)
        assert profile.track == name and not profile.calibrated and "DEFAULT" in profile.note
        assert sorted(profile.spaces) == sorted(s.id for s in track.spaces)
        assert all(len(leds) == 1 for leds in profile.spaces.values())
        assert profile.led_count == len(track.spaces) + 6 + 6
        used = [led for leds in [*profile.spaces.values(), *profile.placements, *profile.seats] for led in leds]
        assert sorted(used) == list(range(profile.led_count))
        assert len(profile.placements) == 6 and len(profile.seats) == 6

    def test_one_profile_per_shipped_track(self):
        assert profile_names() == track_names()

    def test_checked_against_a_given_track(self):
        track = load_track("lake-lane")
        assert load_profile("lake-lane", track).track == "lake-lane"
        with pytest.raises(DataError, match="'track' is 'speed-street', but this is 'lake-lane'"):
            load_profile("speed-street", track)


class TestDefaultLayout:
    def test_the_strip_snakes_lane_by_lane(self, small):
        assert snake_order(small) == ["a1", "a2", "a3", "a4", "b4", "b3", "b2", "b1", "c1", "c2", "c3", "c4"]

    def test_then_placements_then_seats(self, small):
        profile = default_profile(TrackBoard(small))
        assert profile.spaces["a1"] == (0,) and profile.spaces["b4"] == (4,) and profile.spaces["c4"] == (11,)
        assert profile.placements == ((12,), (13,), (14,), (15,), (16,), (17,))
        assert profile.seats == ((18,), (19,), (20,), (21,), (22,), (23,)) and profile.led_count == 24

    def test_consecutive_leds_are_neighbouring_spaces_on_a_shipped_track(self):
        track = load_track("turbo-town")
        order = snake_order(track)
        spaces = {s.id: s for s in track.spaces}
        for here, there in zip(order, order[1:]):
            a, b = spaces[here], spaces[there]
            assert a.lane == b.lane or abs(a.front - b.front) < 1.5, (here, there)


class TestFrames:
    def test_colours_land_on_the_leds_of_their_spaces(self, small):
        default = default_profile(TrackBoard(small))
        profile = Profile(track=small.slug, led_count=30, spaces={**default.spaces, "a1": (0, 25)},
                          placements=default.placements, seats=((18,), (19,)))
        frame = profile.frame_for({"a1": RED, "b4": BLUE}, placements={1: BLUE, 6: RED}, seats={1: RED, 4: BLUE})
        lit = {n: colour for n, colour in enumerate(frame) if colour != DARK}
        assert lit == {0: RED, 25: RED, 4: BLUE, 12: BLUE, 17: RED, 19: RED}
        assert len(frame) == 30 and frame.channels == 1930  # checked as composed (6 LEDs of 290 and 385)

    def test_an_empty_call_is_all_dark(self, small):
        assert default_profile(TrackBoard(small)).frame_for() == [DARK] * 24

    @pytest.mark.parametrize("kwargs, message", [
        ({"spaces": {"z9": RED}}, "no space 'z9'"),
        ({"placements": {0: RED}}, "place 0"),
        ({"placements": {7: RED}}, "place 7"),
        ({"seats": {6: RED}}, "seat 6"),
    ])
    def test_unknown_places_are_refused(self, small, kwargs, message):
        with pytest.raises(ValueError, match=message):
            default_profile(TrackBoard(small)).frame_for(**kwargs)


class TestToml:
    def test_round_trip(self, small, tmp_path):
        profile = Profile(
            track=small.slug, led_count=40, calibrated=True, note='measured "by hand"\non the kitchen table',
            spaces={s.id: (n * 2, n * 2 + 1) if n == 3 else (n * 2,) for n, s in enumerate(small.spaces)},
            placements=tuple((30 + n,) for n in range(6)), seats=((37,), (39, 38)),
        )
        path = tmp_path / "mine.toml"
        path.write_text(profile.to_toml())
        assert load_profile(path, small) == profile
        assert "a2 = [6, 7]" in profile.to_toml()

    def test_default_round_trip_and_spaces_in_strip_order(self, small):
        text = default_profile(TrackBoard(small)).to_toml()
        assert Profile.from_dict(tomllib.loads(text), "x", TrackBoard(small)) == default_profile(TrackBoard(small))
        assert text.index("b4 = 4") < text.index("b3 = 5") < text.index("c1 = 8")
        assert "DEFAULT" in text

    def test_odd_space_ids_are_quoted(self, small):
        data = straight_dict(2)
        data["track"]["spaces"][0]["id"] = "a 1"
        for entry in data["track"]["spaces"]:
            entry["next"] = ["a 1" if t == "a1" else t for t in entry["next"]]
        track = Track.from_dict(data, "odd.toml")
        text = default_profile(TrackBoard(track)).to_toml()
        assert '"a 1" = 0' in text
        assert Profile.from_dict(tomllib.loads(text), "x", TrackBoard(track)) == default_profile(TrackBoard(track))


class TestBrokenFiles:
    def test_every_problem_at_once_naming_the_space(self, small):
        data = profile_dict(small)
        del data["spaces"]["b2"]
        data["spaces"]["z9"] = 3
        data["spaces"]["a3"] = 0  # a1's LED
        data["spaces"]["c2"] = 99
        del data["profile"]["placements"]
        assert problems(data, small) == [
            "[profile]: 'placements' missing: the LEDs of the 6 placement spaces",
            "space a3: LED 0 is already used by space a1",
            "space c2: LED 99 lies outside the strip (LEDs 0-23)",
            "space z9: Test Straight has no such space",
            "space b2: has no LED",
        ]

    def test_a_file_error_names_the_file(self, small, tmp_path):
        path = tmp_path / "board.toml"
        path.write_text(default_profile(TrackBoard(small)).to_toml().replace("c4 = 11", "c4 = 12"))
        with pytest.raises(DataError) as caught:
            load_profile(path, small)
        assert caught.value.source == str(path)
        assert caught.value.problems == ["placement 1st: LED 12 is already used by space c4"]

    @pytest.mark.parametrize("change, expected", [
        (lambda d: d["profile"].update(placements=[12, 13, 14, 15, 16]), "lists 5 placement spaces, not 6"),
        (lambda d: d["profile"].update(seats=[18, 19, 20, 21, 22, 23, 0]), "seat 7: LED 0 is already used"),
        (lambda d: d["profile"].update(seats=list(range(17, 24))), "lists 7 seats, at most 6"),
        (lambda d: d["profile"].update(placements=12), "'placements' must be a list"),
        (lambda d: d["profile"].update(led_count=0), "'led_count' must be a number of LEDs from 1 to 10000"),
        (lambda d: d["profile"].update(led_count=True), "'led_count' must be a number of LEDs from 1 to 10000"),
        (lambda d: d["profile"].update(calibrated="yes"), "'calibrated' must be true or false"),
        (lambda d: d["profile"].update(note=3), "'note' must be a string"),
        (lambda d: d["profile"].update(colour="red"), "unknown key(s): colour"),
        (lambda d: d["profile"].update(track="lake-lane"), "'track' is 'lake-lane', but this is 'test-straight'"),
        (lambda d: d["spaces"].update(a1=[]), "space a1: [] is not an LED index"),
        (lambda d: d["spaces"].update(a1=-1), "space a1: -1 is not an LED index"),
        (lambda d: d["spaces"].update(a1=[0, "1"]), "space a1: [0, '1'] is not an LED index"),
        (lambda d: d["spaces"].update(a1=True), "space a1: True is not an LED index"),
        (lambda d: d["spaces"].update(finish=0), "space finish: Test Straight has no such space"),
        (lambda d: d.update(extra={}), "unknown table(s): extra"),
        (lambda d: d.pop("spaces"), "[spaces]: missing table"),
        (lambda d: d.pop("profile"), "[profile]: missing table"),
    ])
    def test_refused(self, small, change, expected):
        data = profile_dict(small)
        change(data)
        assert any(expected in p for p in problems(data, small)), problems(data, small)

    def test_seats_are_optional(self, small):
        data = profile_dict(small)
        del data["profile"]["seats"]
        profile = Profile.from_dict(data, "x", TrackBoard(small))
        assert profile.seats == ()
        assert profile.frame_for(seats={0: RED}) == [DARK] * 24

    def test_unknown_name_or_track(self, tmp_path):
        with pytest.raises(DataError, match="not a shipped profile"):
            load_profile("monaco")
        path = tmp_path / "p.toml"
        path.write_text('[profile]\ntrack = "monaco"\n')
        with pytest.raises(DataError, match="'monaco' is not a shipped track"):
            load_profile(path)
