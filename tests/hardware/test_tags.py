"""Tag identity: NDEF text records, the registry file, and the enrolment walk."""

from __future__ import annotations

import json
import os
import pty
import termios
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scenarios import BLUE, CARS, GREEN, RED, VOCAB, enrolment

from toprace_pi.errors import DataError
from toprace_pi.games.toprace.data import load_deck
from toprace_pi.games.toprace.table.tags import UNKNOWN_TAG, TopRaceVocabulary
from toprace_pi.hardware.events import TagLaid, TagLifted
from toprace_pi.hardware.keyboard import TerminalKeys
from toprace_pi.hardware.ndef import USER_BYTES, decode_record, encode_record, record_extent
from toprace_pi.hardware.tags import TagRegistry, parse_record, record_text

UID = bytes.fromhex("04a1b2c3d4e580")


def uid(n: int) -> bytes:
    return bytes([0x04, 0, 0, 0, 0, 0, n])


def laid(tag: bytes, record: str | None = None) -> TagLaid:
    return TagLaid("discard", tag, record)


class TestRecords:
    def test_a_card_record_is_one_ndef_text_record_in_whole_pages(self):
        memory = encode_record("toprace card 17")
        # TLV 03 + length 22 | header D1 (MB ME SR, TNF 1), type length 1, payload 18, "T" | status 02 "en" | text | FE
        assert memory == bytes.fromhex("0316 d101125402656e") + b"toprace card 17" + bytes.fromhex("fe000000")
        assert len(memory) % 4 == 0
        assert decode_record(memory) == "toprace card 17"

    @given(st.text(max_size=140))
    def test_any_text_that_fits_comes_back_unchanged(self, text):
        try:
            memory = encode_record(text)
        except ValueError:
            assert len(text.encode()) > USER_BYTES - 10
            return
        assert decode_record(memory + bytes(USER_BYTES - len(memory))) == text
        assert record_extent(memory) <= len(memory)

    def test_a_text_too_long_for_an_ntag213_is_refused(self):
        with pytest.raises(ValueError, match="an NTAG213 holds 144"):
            encode_record("x" * 140)

    @given(st.binary(max_size=200))
    def test_garbage_never_raises(self, memory):
        assert decode_record(memory) is None or isinstance(decode_record(memory), str)
        assert record_extent(memory) >= 0

    @given(st.binary(max_size=80))
    def test_garbage_inside_an_ndef_tlv_never_raises(self, message):
        memory = bytes([0x03, len(message)]) + message + b"\xfe"
        text = decode_record(memory)
        assert text is None or isinstance(text, str)

    @given(st.integers(0, 27), st.integers(0, 255))
    def test_a_damaged_record_decodes_to_text_or_nothing(self, index, value):
        memory = bytearray(encode_record("toprace car red"))
        memory[index] = value
        text = decode_record(bytes(memory))
        assert text is None or isinstance(text, str)

    def test_blank_and_foreign_memory_holds_no_record(self):
        assert decode_record(bytes.fromhex("0300fe00")) is None  # a new NTAG: empty NDEF message
        assert decode_record(bytes(16)) is None
        uri = bytes.fromhex("030bd101075504") + b"abc.de" + b"\xfe"  # a URI record, not text
        assert decode_record(uri) is None
        utf16 = bytes.fromhex("0309d101055482656e6869fe")  # a UTF-16 text record
        assert decode_record(utf16) is None

    def test_null_and_other_tlvs_before_the_message_are_skipped(self):
        lock_control = bytes.fromhex("0103a00c34")
        assert decode_record(b"\x00\x00" + lock_control + encode_record("toprace car red")) == "toprace car red"

    def test_a_three_byte_length_is_read(self):
        record = encode_record("toprace card 3")
        long_form = b"\x03\xff\x00" + record[1:2] + record[2:]
        assert decode_record(long_form) == "toprace card 3"

    def test_the_extent_tells_a_reader_how_far_to_read(self):
        memory = encode_record("toprace card 17")  # 24 bytes of TLV, read 16 at a time
        assert record_extent(memory[:16]) == 24
        assert record_extent(memory[:1]) > 1  # even a cut length field asks for more
        assert record_extent(bytes.fromhex("0300fe00")) == 2
        assert record_extent(bytes(16)) == 0
        assert decode_record(memory[:16]) is None


class TestIdentities:
    def test_records_name_every_card_and_car_and_read_back(self):
        identities = [("card", n) for n in range(1, 49)] + [("car", car) for car in CARS]
        for identity in identities:
            assert parse_record(record_text(VOCAB.key(identity)), VOCAB) == identity
        assert record_text(VOCAB.key(("card", 17))) == "toprace card 17"
        assert record_text(VOCAB.key(("car", RED))) == "toprace car red"

    @pytest.mark.parametrize("text", [None, "", "hello", "toprace card 0", "toprace card 49", "toprace card ١٢",
                                      "toprace car white", "toprace card 1 2", "TOPRACE card 1", "toprace dice 3"])
    def test_other_texts_name_nothing(self, text):
        assert parse_record(text, VOCAB) is None

    def test_descriptions_use_the_deck_when_given(self):
        deck = load_deck()
        described = TopRaceVocabulary(CARS, deck).describe(("card", 1))
        assert described == "speed card #1 Red 6 / Yellow 4 / Black 2 / Blue 1"
        assert VOCAB.describe(("card", 1)) == "speed card #1"
        assert VOCAB.describe(("car", BLUE)) == "the Blue car"


class TestRegistry:
    def test_saved_and_loaded_again(self, tmp_path):
        path = tmp_path / "tags.json"
        registry = TagRegistry({uid(1): ("card", 17), UID: ("car", RED)}, vocabulary=VOCAB)
        registry.save(path)
        assert json.loads(path.read_text()) == {"version": 1, "tags": {"04000000000001": "card 17",
                                                                       "04a1b2c3d4e580": "car red"}}
        loaded = TagRegistry.load(path, VOCAB)
        assert loaded.get(UID) == ("car", RED) and loaded.get(uid(1)) == ("card", 17) and len(loaded) == 2
        assert os.listdir(tmp_path) == ["tags.json"]  # no temp file left behind

    def test_saving_replaces_the_old_file_or_leaves_it_whole(self, tmp_path, monkeypatch):
        path = tmp_path / "tags.json"
        TagRegistry({uid(1): ("card", 1)}, vocabulary=VOCAB).save(path)
        TagRegistry({uid(2): ("card", 2)}, vocabulary=VOCAB).save(path)
        assert list(TagRegistry.load(path, VOCAB)) == [uid(2)]

        def crash(*args):
            raise OSError("disk full")

        monkeypatch.setattr(os, "replace", crash)
        with pytest.raises(OSError, match="disk full"):
            TagRegistry({uid(3): ("card", 3)}, vocabulary=VOCAB).save(path)
        assert list(TagRegistry.load(path, VOCAB)) == [uid(2)]
        assert os.listdir(tmp_path) == ["tags.json"]

    def test_no_file_yet_is_an_empty_registry(self, tmp_path):
        assert len(TagRegistry.load(tmp_path / "tags.json", VOCAB)) == 0

    @pytest.mark.parametrize("content, problem", [
        ("{not json", "not valid JSON (line 1)"),
        ('["04a1b2c3d4e580"]', 'expected {"version": 1'),
        ('{"version": 2, "tags": {}}', 'expected {"version": 1'),
    ])
    def test_a_corrupt_file_is_a_data_error_naming_it(self, tmp_path, content, problem):
        path = tmp_path / "tags.json"
        path.write_text(content)
        with pytest.raises(DataError) as caught:
            TagRegistry.load(path, VOCAB)
        assert str(caught.value).startswith(f"{path}: ") and problem in str(caught.value)

    def test_every_bad_entry_is_reported_at_once(self, tmp_path):
        path = tmp_path / "tags.json"
        path.write_text(json.dumps({"version": 1, "tags": {"04zz": "card 1", "04a1b2c3d4e580": "card 99",
                                                           "04000000000001": "car red"}}))
        with pytest.raises(DataError) as caught:
            TagRegistry.load(path, VOCAB)
        assert caught.value.source == str(path)
        assert caught.value.problems == [
            "tag '04zz': a uid is 4, 7 or 10 bytes in hex, like '04a1b2c3d4e580'",
            "tag '04a1b2c3d4e580': 'card 99' is not 'card N' (1-48), 'car COLOUR' (a car of this deck: blue, red, "
            "yellow, black, purple, green) or 'pit SEAT' (1-6)",
        ]

    def test_a_file_that_is_not_text_is_a_data_error(self, tmp_path):
        path = tmp_path / "tags.json"
        path.write_bytes(b"\xff\xfe\x00")
        with pytest.raises(DataError, match="not UTF-8 text"):
            TagRegistry.load(path, VOCAB)

    def test_identify_asks_the_registry_first_then_the_record(self):
        registry = TagRegistry({UID: ("card", 5)}, vocabulary=VOCAB)
        assert registry.identify(laid(UID, "toprace card 9")) == ("card", 5)
        assert registry.identify(laid(uid(7), "toprace car green")) == ("car", GREEN)
        assert registry.identify(laid(uid(7))) is None
        assert registry.identify(laid(uid(7), "some other app")) is None
        assert UNKNOWN_TAG == "this tag is not enrolled: run toprace-pi enrol cards"


class TestEnrolment:
    def test_a_walk_over_the_shipped_deck(self):
        deck = load_deck()
        walk = enrolment("cards", deck)
        assert walk.prompt == "scan speed card #1 Red 6 / Yellow 4 / Black 2 / Blue 1"
        for n in deck.numbers:
            assert walk.offer(laid(uid(n))) == f"enrolled speed card {deck[n]}"
            walk.offer(TagLifted("discard", uid(n)))
        assert walk.done and walk.prompt == "all 48 tags are enrolled"
        assert [(e.uid, e.identity) for e in walk.enrolled] == [(uid(n), ("card", n)) for n in deck.numbers]
        assert walk.enrolled[16].record == "toprace card 17"
        assert walk.offer(laid(uid(99))) == ""

    def test_a_walk_resumed_says_all_of_its_items_are_enrolled_at_its_end(self):
        registry = TagRegistry(vocabulary=VOCAB)
        registry.add(uid(100), ("car", BLUE))
        registry.add(uid(101), ("car", RED))
        walk = enrolment("cars", known=registry)
        assert walk.resume() == 2
        for n, car in enumerate(c for c in CARS if c not in (BLUE, RED)):
            walk.offer(laid(uid(n)))
            walk.offer(TagLifted("cars", uid(n)))
        assert walk.done and walk.prompt == f"all {len(CARS)} tags are enrolled"  # not only the 4 of this run

    def test_a_tag_enrolled_already_is_refused_and_the_card_still_asked_for(self):
        deck = load_deck()
        walk = enrolment("cards", deck)
        walk.offer(laid(uid(1)))
        walk.offer(TagLifted("discard", uid(1)))
        assert walk.offer(laid(uid(1))) == (
            "this tag is already enrolled as speed card #1 Red 6 / Yellow 4 / Black 2 / Blue 1")
        assert walk.prompt.startswith("scan speed card #2 ")
        assert len(walk.enrolled) == 1

    def test_a_tag_lying_still_is_ignored(self):
        walk = enrolment("cards")
        assert walk.offer(laid(uid(1))).startswith("enrolled")
        assert walk.offer(laid(uid(1))) == ""
        assert walk.offer(TagLifted("discard", uid(1))) == ""
        assert walk.prompt.startswith("scan speed card #2 ")

    def test_tags_known_from_before_are_refused_for_other_cards_and_taken_for_their_own(self):
        known = TagRegistry({uid(1): ("card", 1), uid(50): ("card", 30)}, vocabulary=VOCAB)
        walk = enrolment("cards", known=known)
        assert walk.offer(laid(uid(50))).startswith("this tag is already enrolled as speed card #30 ")
        walk.offer(TagLifted("discard", uid(50)))
        assert walk.offer(laid(uid(1))).startswith("enrolled speed card #1 ")

    def test_a_walk_over_the_cars(self):
        walk = enrolment("cars")
        assert walk.prompt == "scan the Blue car"
        for n, car in enumerate(CARS):
            assert walk.offer(TagLaid("cars", uid(n))) == f"enrolled the {car} car"
        assert walk.done
        assert [e.record for e in walk.enrolled] == [f"toprace car {car.id}" for car in CARS]


def test_pit_stop_cards_are_enrolled_three_to_a_seat_and_named_in_their_records():
    walk = enrolment("pitstops", players=2)
    uids = [bytes([4, 0x91, 0, 0, 0, n // 3, n % 3]) for n in range(6)]
    for n, tag in enumerate(uids):
        if n == 1:
            assert walk.offer(TagLaid("discard", uids[0])).startswith("this tag is already enrolled")
        walk.offer(TagLaid("discard", tag))
        walk.offer(TagLifted("discard", tag))
    assert walk.done and [e.identity for e in walk.enrolled] == [("pit", 0)] * 3 + [("pit", 1)] * 3
    assert walk.enrolled[3].record == "toprace pit 2" and parse_record("toprace pit 2", VOCAB) == ("pit", 1)
    assert parse_record("toprace pit 7", VOCAB) is None


class TestEnrolmentWithoutAReader:
    """A table whose reader is simulated (no hardware yet): each Enter typed lays a new tag on it, through
    the same walk, registry and records as a real reader's tags."""

    @staticmethod
    def table(tmp_path):
        from toprace_pi.table.config import parse_config

        return parse_config({"sound": {"speech": False}, "files": {"registry": str(tmp_path / "tags.json"),
                                                                    "journal": str(tmp_path / "j.jsonl")}}, "t")

    def test_enter_lays_a_new_tag_for_each_car_and_the_table_then_knows_them(self, tmp_path):
        from toprace_pi.core import registry
        from toprace_pi.table.live import open_table
        from toprace_pi.table.tools import enrol

        config = self.table(tmp_path)
        leader, follower = pty.openpty()
        before = termios.tcgetattr(follower)
        keys = TerminalKeys(follower)
        os.write(leader, b"\n\n\rx   ")  # typed ahead: a stray key, and space lays a tag as Enter does
        said: list[str] = []
        try:
            enrol("cars", config, said.append, tags=registry.get("toprace").table(config.settings).tags(), keys=keys,
                  tick=0)
            assert termios.tcgetattr(follower) == before  # the terminal is set back once the walk is done
        finally:
            os.close(leader)
            os.close(follower)
        assert said[0].startswith('the discard reader is simulated (kind = "simulated" under [readers.discard]): '
                                  "Enter lays a new made-up tag on it")
        assert said[1] == "scan the Blue car" and "the key 'x' lays nothing: Enter lays the next tag" in said
        assert [s for s in said if s.startswith("enrolled")] == [f"enrolled the {car} car" for car in CARS]
        assert said[-1] == f"saved 6 tags to {tmp_path / 'tags.json'}"
        saved = TagRegistry.load(tmp_path / "tags.json", VOCAB)
        assert len(set(saved)) == 6 and all(len(tag) == 7 for tag in saved)
        live = open_table(config)  # the table of toprace-pi play reads the registry the walk saved
        try:
            identify = live.table.controller.identify
            assert sorted(identify(TagLaid("cars", tag, None))[1].id for tag in saved) == sorted(c.id for c in CARS)
        finally:
            live.close()

    def test_a_simulated_reader_without_keys_to_lay_its_tags_is_said_at_once(self, tmp_path):
        from toprace_pi.core import registry
        from toprace_pi.errors import TopRaceError
        from toprace_pi.table.tools import enrol

        config = self.table(tmp_path)
        failed: list[BaseException] = []

        def walk() -> None:
            try:
                enrol("cards", config, lambda _: None, tags=registry.get("toprace").table(config.settings).tags())
            except TopRaceError as exc:
                failed.append(exc)

        walker = threading.Thread(target=walk, daemon=True)
        walker.start()
        walker.join(30)
        assert not walker.is_alive(), "the walk waits for a tag that nobody can lay"
        assert [str(exc) for exc in failed] == ['the discard reader is simulated (kind = "simulated" under '
                                                "[readers.discard]): run the enrolment in a terminal, where Enter "
                                                "lays a tag on it"]
        assert not (tmp_path / "tags.json").exists()
