"""The debouncer: one TagLaid per laying, however often the reader misses a tag lying still."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toprace_pi.hardware.events import TagLaid, TagLifted
from toprace_pi.hardware.readers.presence import TagPresence

A, B = bytes.fromhex("04a1b2c3d4e580"), bytes.fromhex("04ffeeddccbb01")


def feed(presence: TagPresence, *polls: bytes | None) -> list[TagLaid | TagLifted]:
    return [event for uid in polls for event in presence.update(uid)]


def test_a_tag_seen_after_absence_is_laid_once_however_long_it_lies():
    presence = TagPresence("discard")
    assert feed(presence, None, A) == [TagLaid("discard", A)]
    assert feed(presence, *[A] * 50) == []
    assert presence.current == A


def test_the_laying_carries_the_record_read_from_the_tag():
    presence = TagPresence("discard")
    assert presence.update(A, "toprace card 17") == [TagLaid("discard", A, "toprace card 17")]
    assert presence.update(A, "toprace card 17") == []


def test_a_single_miss_on_a_tag_lying_still_makes_no_second_scan():
    presence = TagPresence("discard")
    assert feed(presence, A, None, A, None, None, A) == [TagLaid("discard", A)]


def test_a_tag_is_lifted_after_the_given_number_of_misses_in_a_row():
    presence = TagPresence("cars", misses_to_lift=3)
    feed(presence, A)
    assert feed(presence, None, None) == []
    assert feed(presence, None) == [TagLifted("cars", A)]
    assert presence.current is None
    assert feed(presence, None, None, None) == []


def test_lifted_and_laid_again_is_a_second_laying():
    presence = TagPresence("discard", misses_to_lift=2)
    assert feed(presence, A, None, None, A) == [TagLaid("discard", A), TagLifted("discard", A), TagLaid("discard", A)]


def test_a_different_tag_replacing_the_first_lifts_it_at_once():
    presence = TagPresence("discard")
    feed(presence, A)
    assert feed(presence, B) == [TagLifted("discard", A), TagLaid("discard", B)]
    assert feed(presence, A, None, B) == [TagLifted("discard", B), TagLaid("discard", A),
                                          TagLifted("discard", A), TagLaid("discard", B)]


def test_one_miss_is_a_lift_when_asked():
    presence = TagPresence("sim", misses_to_lift=1)
    assert feed(presence, A, None) == [TagLaid("sim", A), TagLifted("sim", A)]


def test_at_least_one_miss_is_needed_to_lift():
    with pytest.raises(ValueError, match="misses_to_lift must be at least 1"):
        TagPresence("discard", misses_to_lift=0)


@given(st.lists(st.sampled_from([A, B, None]), max_size=60), st.integers(1, 4))
def test_events_always_tell_a_consistent_story(polls, misses_to_lift):
    presence = TagPresence("discard", misses_to_lift=misses_to_lift)
    lying = None
    for uid in polls:
        for event in presence.update(uid):
            if isinstance(event, TagLaid):
                assert lying is None and event.uid == uid
                lying = event.uid
            else:
                assert event.uid == lying
                lying = None
        assert presence.current == lying
        if uid is not None:
            assert lying == uid  # whatever is seen lies there after the poll
