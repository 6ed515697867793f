"""Track and deck files: the shipped ones are valid, broken ones are refused clearly."""

from __future__ import annotations

import copy

import pytest
from scenarios import RED
from tracks import straight_dict

from toprace_pi.errors import DataError
from toprace_pi.games.toprace.data import deck_names, load_deck, load_track, track_names
from toprace_pi.games.toprace.rules import MovementCard, SprintBreakdownCard, Track
from toprace_pi.games.toprace.rules.cards import CARDS_PER_PLAYER
from toprace_pi.games.toprace.rules.track import FINISH

RULEBOOK_TRACKS = {"speed-street": "Speed Street", "lake-lane": "Lake Lane",
                   "desert-drive": "Desert Drive", "turbo-town": "Turbo Town"}


class TestShippedTracks:
    def test_the_four_rulebook_tracks_ship_and_say_they_are_reconstructed(self):
        assert track_names() == sorted(RULEBOOK_TRACKS)
        for slug, name in RULEBOOK_TRACKS.items():
            track = load_track(slug)
            assert track.name == name and track.slug == slug
            assert track.reconstructed and "econstructed" in track.note
            assert sorted(track.starting_spaces) == [1, 2, 3, 4, 5, 6]

    def test_turbo_town_is_the_longest(self):
        laps = {slug: load_track(slug).finish_line for slug in RULEBOOK_TRACKS}
        assert max(laps, key=laps.get) == "turbo-town"

    def test_tracks_have_curves_with_sideways_steps_and_narrow_chicanes(self):
        for slug in RULEBOOK_TRACKS:
            track = load_track(slug)
            sideways = [
                (s, t) for s in track.spaces for t in s.steps
                if t >= 0 and track.spaces[t].lane != s.lane and track.spaces[t].back < s.front
            ]
            assert sideways and all(s.is_curve for s, _ in sideways)
            lanes_at = {}
            for s in track.spaces:
                lanes_at.setdefault(round(s.front), set()).add(s.lane)
            assert any(len(lanes) < track.lanes for lanes in lanes_at.values()), slug

    def test_tip_lines_lie_between_start_and_finish(self):
        for slug in RULEBOOK_TRACKS:
            track = load_track(slug)
            assert 0 < track.tip_lines[0] < track.tip_lines[1] < track.tip_lines[2] < track.finish_line


    def test_tip_lines_and_the_finish_line_are_crossed_alike(self):
        """A car on a space whose front edge is on a line has not crossed it: no
        space has crossed the finish line, only driving on to the finish does."""
        for slug in RULEBOOK_TRACKS:
            track = load_track(slug)
            assert not any(track.has_crossed(s.index, track.finish_line) for s in track.spaces)
            assert track.has_crossed(FINISH, track.finish_line)
            for line in track.tip_lines:
                on_line = [s for s in track.spaces if s.front == line]
                assert on_line, f"{slug}: no row ends on the tip line {line}"
                assert not any(track.has_crossed(s.index, line) for s in on_line)

def problems(data: dict) -> list[str]:
    with pytest.raises(DataError) as caught:
        Track.from_dict(data, "my-board.toml")
    assert str(caught.value).startswith("my-board.toml:")
    return caught.value.problems


def space(data: dict, space_id: str) -> dict:
    return next(s for s in data["track"]["spaces"] if s["id"] == space_id)


class TestBrokenTracks:
    def test_an_unknown_neighbour_is_named_with_its_space(self):
        data = straight_dict(10)
        space(data, "b4")["next"].append("z9")
        assert "space b4: unknown neighbour 'z9'" in problems(data)

    def test_a_backward_or_sideways_step_on_a_straight_is_refused(self):
        data = straight_dict(10)
        space(data, "b4")["next"].append("b3")
        space(data, "a6")["next"].append("b6")
        found = problems(data)
        assert "space b4: the step to b3 goes sideways or backward" in found
        assert "space a6: the step to b6 goes sideways or backward" in found

    def test_a_missing_starting_space_and_every_other_problem_are_reported_together(self):
        data = straight_dict(10)
        del space(data, "c1")["start"]
        space(data, "a5")["lane"] = 7
        found = problems(data)
        assert "starting spaces: starting space 6 is missing" in found
        assert any(p.startswith("space a5: 'lane'") for p in found)

    def test_unreachable_spaces_and_dead_ends(self):
        data = straight_dict(10)
        for s in data["track"]["spaces"]:
            s["next"] = [t for t in s["next"] if t != "c5"]
        space(data, "c5")["next"] = []
        found = problems(data)
        assert "space c5: unreachable from the starting spaces" in found
        assert "space c5: a dead end: no step forward and no step to the finish" in found

    def test_a_lane_change_that_jumps_two_lanes_or_skips_a_space(self):
        data = straight_dict(10)
        space(data, "a3")["next"].append("c4")
        space(data, "b3")["next"].append("b5")
        found = problems(data)
        assert "space a3: the step to c4 jumps over a lane" in found
        assert "space b3: the step to b5 skips a space of its lane" in found

    def test_the_finish_line_must_be_reached(self):
        data = straight_dict(10)
        for lane in "abc":
            space(data, f"{lane}10")["next"] = []
        assert any("no route from here to the finish line" in p for p in problems(data))

    def test_header_and_types(self):
        data = straight_dict(10)
        data["track"]["tip_lines"] = [3.0, 2.0, 4.0]
        space(data, "a2")["front"] = "two"
        found = problems(data)
        assert any("tip_lines" in p for p in found)
        assert "space a2: 'front' must be a number from -1000 to 1000, not 'two'" in found

    def test_a_bad_file_on_disk_names_the_file(self, tmp_path):
        bad = tmp_path / "board.toml"
        bad.write_text("[track\nname=", "utf-8")
        with pytest.raises(DataError, match=r"board\.toml: not valid TOML"):
            load_track(bad)
        with pytest.raises(DataError, match="not a shipped track"):
            load_track(tmp_path / "missing.toml")


class TestDeck:
    def test_the_shipped_deck_is_48_cards_fair_and_holds_the_rulebook_examples(self):
        deck = load_deck()
        assert deck_names() == ["older-edition", "standard"] and len(deck) == 48 and deck.reconstructed
        assert sum(isinstance(c, SprintBreakdownCard) for c in deck.cards) == 3
        assert deck.fairness_problems() == []
        counts = {count for count, _ in deck.colour_totals().values()}
        assert len(counts) == 1
        printed = {str(c).split(" ", 1)[1] for c in deck.cards}
        for example in ("Red 6 / Yellow 4 / Black 2 / Blue 1", "Purple 6 / Yellow 4 / White 2 / Blue 1",
                        "Yellow 6 / Red 4 / Black 2"):
            assert example in printed
        values = {v for c in deck.cards if isinstance(c, MovementCard) for _, v in c.moves}
        assert values == {1, 2, 3, 4, 5, 6, 10}

    def test_dealing_table(self):
        assert CARDS_PER_PLAYER == {2: 24, 3: 16, 4: 12, 5: 9, 6: 8}
        assert 48 - 5 * CARDS_PER_PLAYER[5] == 3

    def test_broken_decks_are_refused_with_every_problem(self):
        import tomllib
        from importlib import resources

        shipped = resources.files("toprace_pi.games.toprace.data").joinpath("decks/standard.toml")
        data = tomllib.loads(shipped.read_text())
        broken = copy.deepcopy(data)
        cards = broken["deck"]["cards"]
        cards[0]["moves"] = ["red 7", "blue 1"]
        cards[1]["moves"] = ["red 6", "red 1"]
        cards[2]["number"] = 4
        cards[-1]["sprint_breakdown"] = ["blue", "green"]
        with pytest.raises(DataError) as caught:
            from toprace_pi.games.toprace.rules.cards import Deck
            Deck.from_dict(broken, "my-deck.toml")
        text = str(caught.value)
        for expected in ("card 1: 'red 7' is not a colour and a value", "card 2: a car appears twice",
                         "card 4: number used twice", "sprint_breakdown must be one of the pairs"):
            assert expected in text

    def test_an_unfair_deck_is_valid_but_reported(self):
        from toprace_pi.games.toprace.rules.cards import Deck

        deck = load_deck()
        cards = list(deck.cards)
        cards[0] = MovementCard(cards[0].number, ((RED, 10),), deck.cars.joker)
        unfair = Deck("x", tuple(cards), cars=deck.cars, reconstructed=False)
        assert any("appear equally often" in p for p in unfair.fairness_problems())
