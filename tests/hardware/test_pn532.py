"""The PN532 reader on the real adafruit driver and real pyserial, against the emulator on a pty.

No test sleeps for the back-off: the reader gets a fake clock, which either stands
still until a test moves it, or moves ten seconds at every reading so that a rare
slow answer from the emulator thread never leaves a later poll backing off.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
import serial
from emulators.pn532 import (
    ACK,
    ERROR_FRAME,
    IN_LIST_PASSIVE_TARGET,
    SAM_CONFIGURATION,
    Pn532Emulator,
    Tag,
    frame,
    reply,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toprace_pi.hardware import HardwareError, ReaderError
from toprace_pi.hardware.events import Event, TagLaid, TagLifted
from toprace_pi.hardware.ndef import encode_record
from toprace_pi.hardware.readers.pn532 import BACKOFF_MAX, Pn532Reader
from toprace_pi.hardware.readers.simulated import SimulatedReader

A, B = "04a1b2c3d4e580", "04ffeeddccbb01"
UID_A, UID_B = bytes.fromhex(A), bytes.fromhex(B)
#: What the driver's constructor sends, as recorded on a real pty (HARDWARE-NOTES section 1).
SAM_FRAME = bytes.fromhex("00 00 ff 05 fb d4 14 01 14 01 02 00")
LIST_FRAME = bytes.fromhex("00 00 ff 04 fc d4 4a 01 00 e1 00")


class FakeClock:
    """Stands still unless advanced, or moves ``step`` seconds at every reading."""

    def __init__(self, step: float = 0.0) -> None:
        self.now = 1000.0
        self.step = step

    def __call__(self) -> float:
        now = self.now
        self.now += self.step
        return now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def emulator() -> Iterator[Pn532Emulator]:
    with Pn532Emulator() as emulator:
        yield emulator
        assert emulator.errors == [], "the host broke the PN532 protocol"


def make_reader(port: str, clock: FakeClock | None = None, **options) -> Pn532Reader:
    return Pn532Reader("discard", port=port, poll_timeout=0.02, clock=clock or FakeClock(step=10.0), **options)


@pytest.fixture
def reader(emulator) -> Iterator[Pn532Reader]:
    with make_reader(emulator.port) as reader:
        yield reader


def polls(reader, count: int) -> list[Event]:
    return [event for _ in range(count) for event in reader.poll()]


def poll_until(reader, kind: type, limit: int = 10) -> list[Event]:
    """All events up to and including the first of ``kind``; fails after ``limit`` polls."""
    events: list[Event] = []
    for _ in range(limit):
        events += reader.poll()
        if any(isinstance(event, kind) for event in events):
            return events
    raise AssertionError(f"no {kind.__name__} in {limit} polls: {events}")


def card(uid: str, text: str | None = None) -> Tag:
    return Tag(uid, encode_record(text)) if text else Tag(uid)


class TestRealDriverAgainstTheEmulator:
    """The emulator answers the adafruit driver byte for byte as recorded in the hardware notes."""

    def test_firmware_tag_and_ntag_pages(self, emulator):
        from adafruit_pn532.uart import PN532_UART

        with serial.Serial(emulator.port, 115200, timeout=0.05) as port:
            pn532 = PN532_UART(port)
            assert pn532.firmware_version == (0x32, 1, 6, 7)
            assert pn532.read_passive_target(timeout=0.02) is None
            emulator.lay(Tag(A))
            assert bytes(pn532.read_passive_target(timeout=0.5)) == UID_A
            assert pn532.ntag2xx_read_block(3) == bytes.fromhex("e1101200")
            assert pn532.ntag2xx_write_block(6, b"CAR3") is True
            assert pn532.ntag2xx_read_block(6) == b"CAR3"
            emulator.lift()
            assert pn532.ntag2xx_write_block(7, b"GONE") is False  # InDataExchange status 01: no target
        assert emulator.frames[:2] == [SAM_FRAME[5:-2], bytes.fromhex("d402")]
        assert emulator.frames[3] == LIST_FRAME[5:-2]
        assert emulator.frames[6] == bytes.fromhex("d4 40 01 a2 06 43 41 52 33")

    def test_the_frame_helpers_match_the_recorded_frames(self):
        assert frame(SAM_FRAME[5:-2]) == SAM_FRAME
        assert reply(0x15) == bytes.fromhex("0000ff02fed5151600")
        assert reply(0x03, bytes([0x32, 1, 6, 7])) == bytes.fromhex("0000ff06fad50332010607e800")


class TestEmulatorStrictness:
    def send(self, emulator, data: bytes, expect: int, timeout: float = 0.5) -> bytes:
        with serial.Serial(emulator.port, 115200, timeout=timeout) as port:
            port.write(data)
            return port.read(expect)

    def test_wakeup_bytes_are_tolerated_and_each_frame_acked(self):
        with Pn532Emulator() as emulator:
            answer = self.send(emulator, b"\x55\x55" + bytes(15) + frame(bytes.fromhex("d402")), 6 + 13)
            assert answer == ACK + reply(0x03, bytes([0x32, 1, 6, 7]))
            assert emulator.errors == []

    def test_broken_frames_are_refused_without_an_ack_and_listed(self):
        with Pn532Emulator() as emulator:
            good = frame(bytes.fromhex("d402"))
            bad_checksum = good[:-2] + b"\x00\x00"
            bad_length = b"\x00\x00\xff\x02\x00" + good[5:]
            assert self.send(emulator, bad_checksum + bad_length + b"\x12", 6, timeout=0.05) == b""
            assert emulator.errors == ["data checksum wrong in frame d4 02 (DCS 00)",
                                       "length checksum: LEN 02 + LCS 00 is not 0 mod 256",
                                       "junk before a frame: 02 d4 02 2a 12"]
            assert emulator.frames == []

    def test_an_unknown_command_gets_the_error_frame(self):
        with Pn532Emulator() as emulator:
            assert self.send(emulator, frame(bytes.fromhex("d40400")), 14) == ACK + ERROR_FRAME
            assert emulator.errors == ["command 04 is not emulated"]

    def test_with_no_tag_the_list_command_is_acked_then_answered_when_a_tag_comes(self):
        with Pn532Emulator() as emulator, serial.Serial(emulator.port, 115200, timeout=0.05) as port:
            port.write(LIST_FRAME)
            assert port.read(6) == ACK and port.read(1) == b""
            emulator.lay(Tag(A))
            found = reply(IN_LIST_PASSIVE_TARGET + 1, bytes.fromhex("01 01 0044 00 07") + UID_A)
            assert port.read(len(found)) == found
            assert emulator.errors == []

    def test_tags_are_ntag213(self):
        tag = Tag(A, encode_record("toprace card 1"))
        # uid0-2, BCC0 = 88^04^a1^b2, uid3-6, BCC1 = c3^d4^e5^80, internal 48, lock bytes
        assert tag.read(0)[:12] == bytes.fromhex("04a1b2 9f c3d4e580 72 48 0000")
        assert tag.read(3)[:4] == bytes.fromhex("e1101200")
        assert tag.read(44)[4:8] == tag.read(0)[:4]  # READ rolls over past the last page
        assert tag.read(45) is None
        assert tag.write(39, b"LAST") and not tag.write(40, b"LOCK") and not tag.write(3, b"CC!!")
        with pytest.raises(ValueError, match="7 bytes starting 04"):
            Tag("08a1b2c3")


class TestPolling:
    def test_firmware_version_and_repr(self, reader, emulator):
        assert reader.firmware_version == (0x32, 1, 6, 7)
        assert repr(reader) == f"<Pn532Reader 'discard' uart {emulator.port}>"

    def test_a_tag_is_laid_once_with_its_record_while_it_lies_still(self, reader, emulator):
        assert polls(reader, 2) == []
        emulator.lay(card(A, "toprace card 17"))
        assert polls(reader, 20) == [TagLaid("discard", UID_A, "toprace card 17")]

    def test_the_record_is_read_only_as_far_as_it_goes(self, reader, emulator):
        emulator.lay(card(A, "toprace card 17"))
        poll_until(reader, TagLaid)
        reads = [data[4] for data in emulator.frames if data[1] == 0x40]
        assert reads == [4, 8]  # 28 bytes of record: two READs of 4 pages
        emulator.lift()
        poll_until(reader, TagLifted)
        emulator.lay(card(B))
        assert poll_until(reader, TagLaid)[-1] == TagLaid("discard", UID_B, None)  # a blank NTAG

    def test_lifted_and_laid_again_is_laid_again(self, reader, emulator):
        tag = card(A, "toprace car red")
        emulator.lay(tag)
        poll_until(reader, TagLaid)
        emulator.lift()
        assert poll_until(reader, TagLifted) == [TagLifted("discard", UID_A)]
        emulator.lay(tag)
        assert poll_until(reader, TagLaid) == [TagLaid("discard", UID_A, "toprace car red")]

    def test_a_tag_pushed_off_by_another(self, reader, emulator):
        emulator.lay(card(A))
        poll_until(reader, TagLaid)
        emulator.lay(card(B, "toprace card 3"))
        assert poll_until(reader, TagLaid) == [TagLifted("discard", UID_A), TagLaid("discard", UID_B, "toprace card 3")]

    def test_a_record_written_is_read_back_when_the_tag_is_laid_again(self, reader, emulator):
        tag = card(A)
        emulator.lay(tag)
        assert poll_until(reader, TagLaid)[-1].record is None
        assert reader.write_record("toprace card 17") is True
        assert tag.user_memory.startswith(encode_record("toprace card 17"))
        emulator.lift()
        poll_until(reader, TagLifted)
        emulator.lay(tag)
        assert poll_until(reader, TagLaid) == [TagLaid("discard", UID_A, "toprace card 17")]

    def test_no_record_is_written_without_a_formatted_ntag_with_room(self, reader, emulator):
        assert reader.write_record("toprace card 1") is False  # no tag
        tag = card(A)
        tag.memory[12] = 0x00  # capability container: not NDEF
        emulator.lay(tag)
        assert reader.write_record("toprace card 1") is False
        tag.memory[12:16] = bytes.fromhex("e1100200")  # NDEF, but 16 bytes of data area
        assert reader.write_record("toprace card 1") is False
        assert tag.user_memory == Tag(A).user_memory


class TestAPileOfCards:
    """The discard reader under a pile of tagged cards, through the real driver.

    The emulator's anticollision picks by UID (its exact rule is assumed, see
    ``anticollision_winner``); ``field_depth`` says how many cards of the pile the
    field reaches. NTAG UIDs all begin with 04, so here B (04 ff ...) wins over A
    (04 a1 ...) whenever both are in the field."""

    def test_a_reader_that_reaches_only_the_top_card_sees_each_new_card_and_the_one_below_when_it_goes(self):
        with Pn532Emulator(field_depth=1) as emulator, make_reader(emulator.port) as reader:
            emulator.stack(Tag(B))
            assert poll_until(reader, TagLaid)[-1] == TagLaid("discard", UID_B)
            emulator.stack(Tag(A))  # a card that would lose the anticollision, but alone in the field
            assert TagLaid("discard", UID_A) in poll_until(reader, TagLaid)
            emulator.lift_top()  # taken off (a pit stop): the card below is read again
            assert TagLaid("discard", UID_B) in poll_until(reader, TagLaid)
            assert emulator.errors == []

    def test_with_the_whole_pile_in_the_field_a_new_card_can_go_unseen(self):
        """The risk hardware/README.md warns of: one target per poll, chosen by UID."""
        with Pn532Emulator() as emulator, make_reader(emulator.port) as reader:
            emulator.stack(Tag(B))
            assert poll_until(reader, TagLaid)[-1] == TagLaid("discard", UID_B)
            emulator.stack(Tag(A))  # played on top, but B still wins the anticollision
            events = [e for _ in range(10) for e in reader.poll()]
            assert events == [] and emulator.tag.uid == UID_B


class TestFailures:
    def test_noise_before_the_ack_is_a_counted_failure_and_the_next_poll_works(self, reader, emulator):
        emulator.lay(card(A, "toprace card 2"))
        emulator.garbage(b"\x12\x34\x56")
        assert reader.poll() == [] and reader.failures == 1 and reader.error_count == 1
        assert reader.poll() == [TagLaid("discard", UID_A, "toprace card 2")]
        assert reader.failures == 0 and reader.error_count == 1

    def test_a_late_reply_read_as_the_ack_is_survived(self, reader, emulator):
        emulator.lay(card(A))
        stale = reply(IN_LIST_PASSIVE_TARGET + 1, bytes.fromhex("010100440007") + UID_B)
        emulator.garbage(stale)
        assert reader.poll() == [] and reader.failures == 1
        assert reader.poll() == [TagLaid("discard", UID_A)]

    def test_a_hiccup_while_a_tag_lies_still_makes_no_second_scan(self, reader, emulator):
        emulator.lay(card(A))
        poll_until(reader, TagLaid)
        for where in ("ack", "reply", "ack", "reply"):
            emulator.garbage(b"\x00\xff\x07", before=where)
            reader.poll()
        assert reader.error_count == 4 and polls(reader, 3) == []

    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(noise=st.binary(min_size=1, max_size=80), where=st.sampled_from(["ack", "reply"]))
    def test_any_noise_is_survived_without_phantom_events(self, reader, emulator, noise, where):
        if emulator.tag is None:
            emulator.lay(card(A))
            poll_until(reader, TagLaid)
        emulator.garbage(noise, before=where)
        assert reader.poll() == []  # only ReaderError could escape, and one failure does not raise
        assert polls(reader, 2) == []
        assert reader.failures == 0

    def test_backing_off_doubles_up_to_the_limit_without_touching_the_device(self, emulator):
        clock = FakeClock()
        with make_reader(emulator.port, clock, max_failures=100) as reader:
            reader.poll()
            emulator.garbage(b"\x99")
            assert reader.poll() == [] and reader.failures == 1
            for failures, delay in enumerate((0.05, 0.1, 0.2, 0.4, 0.8, 1.6, BACKOFF_MAX, BACKOFF_MAX), start=1):
                sent = len(emulator.frames)
                clock.advance(delay * 0.99)
                assert reader.poll() == [] and len(emulator.frames) == sent
                emulator.garbage(b"\x99")
                clock.advance(delay * 0.02)
                assert reader.poll() == [] and reader.failures == failures + 1
            clock.advance(BACKOFF_MAX)
            assert reader.poll() == [] and reader.failures == 0

    def test_silence_raises_after_repeated_failures_and_the_reader_recovers_on_wake(self, emulator):
        clock = FakeClock()
        with make_reader(emulator.port, clock, max_failures=3) as reader:
            emulator.lay(card(A))
            assert reader.poll() == [TagLaid("discard", UID_A)]
            emulator.go_silent()
            assert reader.poll() == [] and reader.failures == 1
            clock.advance(0.05)
            assert reader.poll() == [] and reader.failures == 2
            clock.advance(0.1)
            with pytest.raises(ReaderError) as caught:
                reader.poll()
            assert str(caught.value) == (f"the discard reader (PN532 on uart {emulator.port}): no answer from "
                                         "the PN532 (is it powered and connected?); 3 failed tries in a row; retrying")
            emulator.wake()
            clock.advance(0.2)
            sent = len(emulator.frames)
            assert reader.poll() == []  # the tag still lies there: no second scan
            assert reader.failures == 0 and SAM_CONFIGURATION in emulator.commands[sent:]  # set up afresh
            emulator.lift()
            assert poll_until(reader, TagLifted) == [TagLifted("discard", UID_A)]

    def test_an_unplugged_reader_raises_a_clear_reader_error(self, emulator):
        clock = FakeClock()
        with make_reader(emulator.port, clock) as reader:
            reader.poll()
            emulator.unplug()
            with pytest.raises(ReaderError, match="the serial port is gone") as caught:
                reader.poll()
            assert type(caught.value) is ReaderError and isinstance(caught.value, HardwareError)
            with pytest.raises(ReaderError, match="still unreachable"):
                reader.poll()  # backing off, and still lost: not mistaken for a quiet reader
            clock.advance(0.1)
            with pytest.raises(ReaderError, match=f"cannot open {emulator.port}"):
                reader.poll()
            with pytest.raises(ReaderError, match=f"cannot open {emulator.port}"):
                _ = reader.firmware_version

    def test_a_port_another_table_holds_is_refused_not_shared(self, emulator):
        """Two processes reading one serial port would steal each other's answers."""
        with make_reader(emulator.port) as first:
            first.poll()
            with make_reader(emulator.port) as second:
                with pytest.raises(ReaderError, match=f"cannot open {emulator.port}.*lock"):
                    second.poll()
            first.poll()  # the first table reads on undisturbed

    def test_a_reader_plugged_back_in_is_opened_again(self, tmp_path):
        clock = FakeClock()
        port = tmp_path / "ttyPN532"  # a stable name, as a udev symlink gives
        first = Pn532Emulator()
        port.symlink_to(first.port)
        tag = card(A, "toprace car blue")
        with make_reader(str(port), clock) as reader, first:
            first.lay(tag)
            assert reader.poll() == [TagLaid("discard", UID_A, "toprace car blue")]
            first.unplug()
            with pytest.raises(ReaderError):
                reader.poll()
            with Pn532Emulator() as second:
                port.unlink()
                port.symlink_to(second.port)
                second.lay(tag)
                clock.advance(1)
                assert reader.poll() == [] and reader.failures == 0  # the same card still lies there
                second.lay(card(B))
                assert reader.poll() == [TagLifted("discard", UID_A), TagLaid("discard", UID_B)]
                assert second.errors == []

    def test_no_device_on_the_port(self, tmp_path):
        with make_reader(str(tmp_path / "ttyUSB9")) as reader:
            with pytest.raises(ReaderError, match=r"cannot open .*ttyUSB9"):
                reader.poll()

    def test_closed_means_closed(self, emulator):
        reader = make_reader(emulator.port)
        reader.poll()
        reader.close()
        reader.close()
        with pytest.raises(ReaderError, match="is closed"):
            reader.poll()
        with pytest.raises(ReaderError, match="is closed"):
            reader.write_record("toprace card 1")

    def test_a_bad_bus_is_refused(self):
        with pytest.raises(ValueError, match="bus must be"):
            Pn532Reader("discard", bus="usb")  # type: ignore[arg-type]


# --- the CardReader contract, for the simulated and the real reader alike ---------------------------------------------


class SimulatedBench:
    def __init__(self) -> None:
        self.reader = SimulatedReader("discard")

    def lay(self, uid: str, record: str | None = None) -> None:
        self.reader.lay(bytes.fromhex(uid), record)

    def lift(self) -> None:
        self.reader.lift()

    def unplug(self) -> None:
        self.reader.unplug()

    def close(self) -> None:
        self.reader.close()


class EmulatedBench:
    def __init__(self) -> None:
        self.emulator = Pn532Emulator()
        self.reader = make_reader(self.emulator.port)
        self.tags: dict[str, Tag] = {}

    def lay(self, uid: str, record: str | None = None) -> None:
        if record is not None or uid not in self.tags:
            self.tags[uid] = card(uid, record)
        self.emulator.lay(self.tags[uid])

    def lift(self) -> None:
        self.emulator.lift()

    def unplug(self) -> None:
        self.emulator.unplug()

    def close(self) -> None:
        self.reader.close()
        self.emulator.close()
        assert self.emulator.errors == []


@pytest.fixture(params=["simulated", "pn532"])
def bench(request):
    bench = SimulatedBench() if request.param == "simulated" else EmulatedBench()
    yield bench
    bench.close()


class TestContract:
    def test_lay_still_lift_and_lay_again(self, bench):
        reader = bench.reader
        assert polls(reader, 2) == []
        bench.lay(A, "toprace card 17")
        assert poll_until(reader, TagLaid) == [TagLaid("discard", UID_A, "toprace card 17")]
        assert polls(reader, 10) == []
        bench.lift()
        assert poll_until(reader, TagLifted) == [TagLifted("discard", UID_A)]
        assert polls(reader, 3) == []
        bench.lay(A)
        assert poll_until(reader, TagLaid) == [TagLaid("discard", UID_A, "toprace card 17")]
        bench.lay(B)
        assert poll_until(reader, TagLaid) == [TagLifted("discard", UID_A), TagLaid("discard", UID_B, None)]

    def test_a_written_record_is_read_when_laid_again(self, bench):
        reader = bench.reader
        assert reader.write_record("toprace car red") is False
        bench.lay(B)
        poll_until(reader, TagLaid)
        assert reader.write_record("toprace car red") is True
        with pytest.raises(ValueError, match="NTAG213"):
            reader.write_record("x" * 200)
        bench.lift()
        poll_until(reader, TagLifted)
        bench.lay(B)
        assert poll_until(reader, TagLaid) == [TagLaid("discard", UID_B, "toprace car red")]

    def test_unplugged_raises_reader_error_and_closed_raises_too(self, bench):
        reader = bench.reader
        reader.poll()
        bench.unplug()
        with pytest.raises(ReaderError):
            reader.poll()
        reader.close()
        reader.close()
        with pytest.raises(ReaderError, match="closed"):
            reader.poll()
        assert "'discard'" in repr(reader)


class TestSimulatedReader:
    def test_replugged_it_works_again_and_keeps_what_lies_there(self):
        with SimulatedReader("cars") as reader:
            reader.lay(UID_A, "toprace car red")
            assert reader.poll() == [TagLaid("cars", UID_A, "toprace car red")]
            reader.unplug()
            with pytest.raises(ReaderError, match="the cars reader .simulated. is unplugged"):
                reader.poll()
            with pytest.raises(ReaderError, match="unplugged"):
                reader.write_record("toprace car red")
            reader.replug()
            assert reader.poll() == []
            assert repr(reader) == "<SimulatedReader 'cars': 04a1b2c3d4e580>"

    def test_use_after_close_raises(self):
        reader = SimulatedReader("cars")
        reader.close()
        for use in (lambda: reader.lay(UID_A), reader.lift, reader.unplug, reader.replug, reader.poll):
            with pytest.raises(ReaderError, match="closed"):
                use()


def test_nothing_is_left_open():
    """The emulator closes its pty and pipe: a leak would exhaust ptys over a long test run."""
    before = len(os.listdir("/proc/self/fd"))
    for _ in range(5):
        with Pn532Emulator() as other, make_reader(other.port) as reader:
            reader.poll()
    assert len(os.listdir("/proc/self/fd")) == before
