"""Driving rules from the rulebook's "Race Sequence": full value, diagonals, curves, blockages."""

from __future__ import annotations

import pytest
from tracks import straight

from toprace_pi.games.toprace.rules.track import FINISH, Track

# A two-lane right-hand curve drawn after the rulebook's curve example. Lane a is the
# outside lane (short spaces), lane b the inside (one long space a3-a6 lie beside).
CURVE = {
    "track": {
        "name": "Curve Example",
        "lanes": 2,
        "finish_line": 7.0,
        "tip_lines": [1.0, 2.0, 5.0],
        "spaces": [
            {"id": "s6", "lane": 0, "front": -2.0, "next": ["s4", "s3"], "start": 6},
            {"id": "s5", "lane": 1, "front": -2.0, "next": ["s3", "s4"], "start": 5},
            {"id": "s4", "lane": 0, "front": -1.0, "next": ["s2", "s1"], "start": 4},
            {"id": "s3", "lane": 1, "front": -1.0, "next": ["s1", "s2"], "start": 3},
            {"id": "s2", "lane": 0, "front": 0.0, "next": ["a1", "b1"], "start": 2},
            {"id": "s1", "lane": 1, "front": 0.0, "next": ["b1", "a1"], "start": 1},
            {"id": "a1", "lane": 0, "front": 1.0, "next": ["a2", "b2"]},
            {"id": "b1", "lane": 1, "front": 1.0, "next": ["b2", "a2"]},
            {"id": "a2", "lane": 0, "front": 2.0, "next": ["a3", "b3"]},
            {"id": "b2", "lane": 1, "front": 2.0, "next": ["b3", "a3"]},
            {"id": "a3", "lane": 0, "front": 2.5, "next": ["a4", "b3", "b4"], "curve": "right"},
            {"id": "a4", "lane": 0, "front": 3.0, "next": ["a5", "b3", "b4"], "curve": "right"},
            {"id": "a5", "lane": 0, "front": 3.5, "next": ["a6", "b3", "b4"], "curve": "right"},
            {"id": "a6", "lane": 0, "front": 4.0, "next": ["a7", "b4"], "curve": "right"},
            {"id": "b3", "lane": 1, "front": 4.0, "next": ["b4", "a7"], "curve": "right"},
            {"id": "a7", "lane": 0, "front": 5.0, "next": ["a8", "b5"]},
            {"id": "b4", "lane": 1, "front": 5.0, "next": ["b5", "a8"]},
            {"id": "a8", "lane": 0, "front": 6.0, "next": ["a9", "b6"]},
            {"id": "b5", "lane": 1, "front": 6.0, "next": ["b6", "a9"]},
            {"id": "a9", "lane": 0, "front": 7.0, "next": ["finish"]},
            {"id": "b6", "lane": 1, "front": 7.0, "next": ["finish"]},
        ],
    }
}
for _space in CURVE["track"]["spaces"]:
    _space.update(x=_space["front"], y=-_space["lane"], heading=0.0)


@pytest.fixture(scope="module")
def road() -> Track:
    return straight(40)


@pytest.fixture(scope="module")
def curve() -> Track:
    return Track.from_dict(CURVE, "curve example")


def ends(track: Track, start: str, points: int, blocked: tuple[str, ...] = ()) -> tuple[int, set[str]]:
    steps, found = track.moves(track.index(start), points, {track.index(b) for b in blocked})
    return steps, {track.space_id(s) for s in found}


class TestStraight:
    def test_a_car_uses_its_full_value_on_any_lane_it_can_reach(self, road):
        assert ends(road, "b5", 4) == (4, {"a9", "b9", "c9"})

    def test_one_step_goes_straight_or_diagonally_never_sideways(self, road):
        steps, found = ends(road, "b5", 1)
        assert found == {"a6", "b6", "c6"}
        assert not found & {"a5", "c5"}

    def test_from_the_edge_lane_a_diagonal_cannot_jump_two_lanes(self, road):
        assert ends(road, "a5", 1) == (1, {"a6", "b6"})

    def test_full_value_wins_over_stopping_short(self, road):
        # a7 and b7 are taken but c7 leaves a way through: the car must use all 4 points.
        assert ends(road, "a5", 4, ("a7", "b7")) == (4, {"a9", "b9", "c9"})

    def test_lanes_a_blocked_path_cannot_reach_are_not_offered(self, road):
        # With b6 and c6 taken the car must go by a6, and then cannot reach c7 in two steps.
        assert ends(road, "b5", 2, ("b6", "c6")) == (2, {"a7", "b7"})

    def test_a_blockage_stops_the_car_and_the_rest_is_forfeited(self):
        lane = straight(20, lanes=1)
        # Rulebook: Purple must move 5 but Blue blocks the way: Purple drives 3.
        assert ends(lane, "a3", 5, ("a7",)) == (3, {"a6"})

    def test_a_car_boxed_in_cannot_move(self, road):
        assert ends(road, "b5", 3, ("a6", "b6", "c6")) == (0, set())

    def test_crossing_the_finish_line_uses_the_full_value(self, road):
        assert ends(road, "a38", 6) == (6, {"finish"})
        assert ends(road, "a40", 1) == (1, {"finish"})

    def test_the_last_space_before_the_line_is_an_end_when_exactly_reached(self, road):
        assert ends(road, "b36", 4) == (4, {"a40", "b40", "c40"})


class TestCurve:
    def test_sideways_onto_a_space_whose_front_lies_further_ahead(self, curve):
        steps, found = ends(curve, "a3", 1)
        assert "b3" in found  # sideways into the long inside space: its front (4) is ahead of 2.5
        assert found == {"a4", "b3", "b4"}

    def test_no_sideways_step_onto_a_space_that_is_not_further_ahead(self, curve):
        # From the long inside space b3 (front 4), a6 (front 4) and a5 (3.5) are not ahead.
        assert ends(curve, "b3", 1) == (1, {"b4", "a7"})

    def test_lane_changes_in_a_curve_count_as_steps(self, curve):
        # a2 -> a3 -> (sideways) b3 -> b4: three steps, the sideways one included.
        steps, found = ends(curve, "a2", 3)
        assert steps == 3 and "b4" in found

    def test_the_engine_shows_a_route_for_each_end(self, curve):
        route = curve.path(curve.index("a2"), 3, set(), curve.index("b4"))
        assert len(route) == 3 and curve.space_id(route[-1]) == "b4"
        assert all(curve.front(b) > curve.front(a) for a, b in zip(route, route[1:]))

    def test_inside_lane_follows_the_curve_direction(self, curve):
        # A right-hand curve: lane b (the right lane) is the inside one.
        assert curve.rank_key(curve.index("b5")) > curve.rank_key(curve.index("a8"))


class TestRoutes:
    def test_route_to_the_finish(self, road):
        route = road.path(road.index("b38"), 4, set(), FINISH)
        assert route[-1] == FINISH and len(route) == 3  # b39, b40, across the line

    def test_route_with_any_length_for_sprints(self, road):
        route = road.path(road.index("b5"), None, {road.index("b6")}, road.index("b9"))
        assert len(route) == 4 and road.index("b6") not in route

    def test_no_route_is_an_error(self, road):
        with pytest.raises(ValueError):
            road.path(road.index("b5"), 2, set(), road.index("b9"))
