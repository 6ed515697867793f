"""The reader hub: its line protocol, its firmware logic under CPython, and the host's HubReader over a pty."""

from __future__ import annotations

from pathlib import Path

import pytest
from emulators.hub import FIRMWARE, FakeClock, FieldReader, Hub, HubRig, protocol
from hypothesis import given, settings
from hypothesis import strategies as st

from toprace_pi.hardware import ReaderError, hub_protocol, ndef
from toprace_pi.hardware.events import DeviceStatus, TagLaid, TagLifted
from toprace_pi.hardware.readers.hub import HubReader, find_hub_port

ProtocolError, decode, encode = protocol.ProtocolError, protocol.decode, protocol.encode

# --- protocol ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("firmware", "host"), [("protocol.py", hub_protocol), ("ndef.py", ndef)])
def test_the_firmware_shares_its_protocol_and_record_reading_with_the_host(firmware, host):
    """One file serves both sides: the firmware's copy is a link to the host module."""
    assert (FIRMWARE / firmware).resolve() == Path(host.__file__).resolve()


def test_crc_is_ccitt_false():
    assert protocol.crc16(b"123456789") == protocol.bitwise_crc16(b"123456789") == 0x29B1


@pytest.mark.parametrize("data", [b"", b"\xff" * 7, b"LAID 0 04a1b2c3d4e517 toprace%20card%2017 3"])
def test_the_hosts_crc_in_c_is_the_hubs_bit_by_bit(data):
    assert protocol.crc16(data) == protocol.bitwise_crc16(data)


@pytest.mark.parametrize(
    ("kind", "fields", "decoded"),
    [
        ("HELLO", ("1.0", 4), ("1.0", 4)),
        ("LAID", (2, b"\x04\xa1\xff\x00", "toprace card 17"), (2, b"\x04\xa1\xff\x00", "toprace card 17")),
        ("LAID", (0, b"\x04\x01\x02\x03\x04\x05\x06", None), (0, b"\x04\x01\x02\x03\x04\x05\x06", None)),
        ("LAID", (1, b"\x01\x02\x03\x04", "-"), (1, b"\x01\x02\x03\x04", "-")),
        ("LIFTED", (3, b"\xde\xad\xbe\xef"), (3, b"\xde\xad\xbe\xef")),
        ("ERROR", (1, "no ACK from PN532"), (1, "no ACK from PN532")),
        ("READY", (1,), (1,)),
        ("BEAT", (), ()),
        ("STATUS", (True, False, True), ("ok", "failing", "ok")),
    ],
)
def test_round_trip(kind, fields, decoded):
    line = encode(7, kind, *fields)
    assert line.endswith(b"\n") and b"  " not in line
    assert decode(line) == protocol.Message(7, kind, decoded)


def test_escapes_keep_spaces_percent_star_and_unicode():
    text = "100% * car  rot é ☃"
    line = encode(1, "LAID", 0, b"\x01\x02\x03\x04", text)
    assert line.count(b" ") == 5  # seq kind index uid record *crc
    assert decode(line).fields[2] == text


def test_sequence_numbers_wrap():
    assert decode(encode(65536 + 5, "BEAT")).seq == 5


@pytest.mark.parametrize(
    "line",
    [
        b"",
        b"\n",
        b"1 BEAT\n",  # no checksum
        b"1 BEAT *0000\n",  # wrong checksum
        b"1 BEAT *ZZZZ\n",
        b"1 BEAT *12345\n",
    ],
)
def test_malformed_lines_are_refused(line):
    with pytest.raises(ProtocolError):
        decode(line)


def _signed(body: str) -> bytes:
    return (body + " *%04X\n" % protocol.crc16(body.encode())).encode()


@pytest.mark.parametrize(
    "body",
    [
        "1 HOP",  # unknown kind
        "1 BEAT x",  # wrong field count
        "1 LIFTED 0",
        "1 LAID 0 04a1",
        "1 LIFTED 0 04g1",  # not hex
        "1 LIFTED 0 04a",  # odd length
        "1 LIFTED 9 04a1",  # reader index out of range
        "70000 BEAT",  # sequence out of range
        "-1 BEAT",
        "+1 BEAT",
        "1 ERROR 0 bad%zz",  # bad escape
        "1 LAID 0 04a1 %FF",  # not UTF-8
        "1 STATUS maybe",
        "1  BEAT",  # empty field
    ],
)
def test_lines_with_a_good_checksum_but_bad_content_are_refused(body):
    with pytest.raises(ProtocolError):
        decode(_signed(body))


def test_too_long_lines_are_refused():
    with pytest.raises(ProtocolError):
        encode(1, "ERROR", 0, "x" * 300)
    with pytest.raises(ProtocolError):
        decode(_signed("1 ERROR 0 " + "x" * 200))


@settings(max_examples=500, deadline=200)
@given(st.binary(max_size=300))
def test_decode_never_fails_otherwise(data):
    try:
        message = decode(data)
    except ProtocolError:
        return
    assert message.kind in protocol.KINDS


@settings(max_examples=300, deadline=200)
@given(
    st.integers(0, 65535),
    st.integers(0, 7),
    st.binary(min_size=4, max_size=10),
    st.none() | st.text(min_size=1, max_size=8),
)
def test_any_laid_round_trips(seq, index, uid, record):
    assert decode(encode(seq, "LAID", index, uid, record)).fields == (index, uid, record)


@settings(max_examples=300, deadline=200)
@given(st.binary(min_size=1, max_size=120), st.integers(0, 119))
def test_a_corrupted_byte_is_caught(record, where):
    line = encode(1, "LAID", 0, b"\x01\x02\x03\x04", record.hex())
    where %= len(line) - 1
    flipped = bytearray(line)
    flipped[where] ^= 0x01
    with pytest.raises(ProtocolError):
        decode(bytes(flipped))


# --- the firmware's Hub ------------------------------------------------------------------------------------------


def make_hub(count=2):
    readers = [FieldReader() for _ in range(count)]
    lines: list[bytes] = []
    clock = FakeClock()
    hub = Hub(readers, lines.append, clock)
    return hub, readers, lines, clock


def kinds(lines):
    return [(m.kind, m.fields) for m in map(decode, lines)]


def test_hub_says_hello_then_reports_laid_and_lifted_once():
    hub, readers, lines, _ = make_hub()
    hub.step()
    assert kinds(lines) == [("HELLO", (protocol.VERSION, 2))]
    lines.clear()
    readers[0].uid = b"\x04\x01\x02\x03"
    readers[1].uid = b"\x04\x09\x09\x09"
    for _ in range(5):
        hub.step()
    assert kinds(lines) == [("LAID", (0, b"\x04\x01\x02\x03", None)), ("LAID", (1, b"\x04\x09\x09\x09", None))]
    lines.clear()
    readers[0].uid = None
    hub.step()
    hub.step()
    assert lines == []  # two misses are not a lift
    hub.step()
    assert kinds(lines) == [("LIFTED", (0, b"\x04\x01\x02\x03"))]


def test_hub_a_missed_poll_is_not_a_lift_and_a_new_tag_replaces_at_once():
    hub, readers, lines, _ = make_hub(1)
    readers[0].uid = b"\x01\x01\x01\x01"
    hub.step()
    readers[0].uid = None
    hub.step()
    readers[0].uid = b"\x01\x01\x01\x01"
    hub.step()
    readers[0].uid = b"\x02\x02\x02\x02"
    hub.step()
    assert [k for k, _ in kinds(lines)] == ["HELLO", "LAID", "LIFTED", "LAID"]


def test_hub_sequence_numbers_count_up():
    hub, readers, lines, _ = make_hub(1)
    for uid in (b"\x01\x01\x01\x01", b"\x02\x02\x02\x02", b"\x03\x03\x03\x03"):
        readers[0].uid = uid
        hub.step()
    assert [decode(line).seq for line in lines] == list(range(len(lines)))


def test_hub_failing_reader_sends_one_error_and_is_retried():
    hub, readers, lines, clock = make_hub()
    hub.step()
    readers[1].broken = True
    for _ in range(5):
        hub.step()
        clock.now += 0.1
    assert kinds(lines)[1:] == [("ERROR", (1, "Did not receive expected ACK from PN532!"[:40]))]
    assert readers[1].reads >= 2  # retried after a second, not given up
    hub.command(b"STATUS?\n")
    assert kinds(lines)[-1] == ("STATUS", ("ok", "failing"))
    readers[1].broken = False
    readers[1].uid = b"\x05\x05\x05\x05"
    clock.now += 1.0
    hub.step()
    assert kinds(lines)[-3:-1] == [("READY", (1,)), ("LAID", (1, b"\x05\x05\x05\x05", None))]
    hub.command(b"STATUS?")
    assert kinds(lines)[-1] == ("STATUS", ("ok", "ok"))


def test_hub_beats_every_second_by_its_clock():
    hub, _, lines, clock = make_hub()
    hub.step()
    for _ in range(12):
        clock.now += 0.25
        hub.step()
    assert [k for k, _ in kinds(lines)].count("BEAT") == 3


def test_hub_ignores_unknown_commands():
    hub, _, lines, _ = make_hub()
    hub.command(b"REBOOT!")
    assert lines == []


def test_hub_sends_a_record_when_it_can_read_one():
    readers = [FieldReader()]
    lines: list[bytes] = []
    hub = Hub(readers, lines.append, FakeClock(), read_record=lambda reader, uid: "toprace card 17")
    readers[0].uid = b"\x01\x02\x03\x04"
    hub.step()
    assert decode(lines[-1]).fields == (0, b"\x01\x02\x03\x04", "toprace card 17")


# --- the host's HubReader over a pty -----------------------------------------------------------------------------


@pytest.fixture
def rigs():
    made: list[HubRig] = []

    def make(**options) -> HubRig:
        made.append(HubRig(**options))
        return made[-1]

    yield make
    for rig in made:
        rig.close()


def drain(reader: HubReader, polls: int = 8) -> list:
    events = []
    for _ in range(polls):
        events.extend(reader.poll())
    return events


def connect(rigs, names=None):
    """A hub rig and a HubReader opened on its port, both on one fake clock."""
    clock = FakeClock()
    rig = rigs(clock=clock)
    reader = HubReader(names, port=rig.port, clock=clock)
    assert reader.poll() == []  # opens the port before the hub writes: pyserial flushes what came before
    return rig, clock, reader, rig.hub, rig.readers


def test_host_turns_the_hub_lines_into_events(rigs):
    rig, clock, reader, hub, readers = connect(rigs, {0: "discard", 1: "cars"})
    with reader:
        hub.step()
        readers[0].uid = b"\x04\x01\x02\x03"
        readers[1].uid = b"\x04\x09\x09\x09"
        hub.step()
        events = drain(reader)
        assert reader.hello == (protocol.VERSION, 2)
        assert events == [TagLaid("discard", b"\x04\x01\x02\x03"), TagLaid("cars", b"\x04\x09\x09\x09")]
        readers[0].uid = None
        for _ in range(3):
            hub.step()
        assert drain(reader) == [TagLifted("discard", b"\x04\x01\x02\x03")]
        hub.command(b"STATUS?")
        drain(reader, 3)
        assert reader.status == ("ok", "ok")
        assert reader.gaps == 0 and reader.bad_lines == 0


def test_host_names_reader_zero_discard_by_default(rigs):
    rig, clock, reader, hub, readers = connect(rigs)
    readers[1].uid = b"\x01\x02\x03\x04"
    hub.step()
    assert drain(reader) == [TagLaid("reader1", b"\x01\x02\x03\x04")]
    assert reader.reader_name(0) == "discard"
    reader.close()


def test_host_skips_a_garbled_and_a_truncated_line(rigs):
    rig, clock, reader, hub, readers = connect(rigs)
    hub.step()
    garbled = bytearray(encode(1, "LAID", 0, b"\x01\x02\x03\x04", "x"))
    garbled[3] ^= 0x20
    rig.write(bytes(garbled))
    rig.write(encode(2, "LAID", 1, b"\x01\x02\x03\x04", "car red")[:12] + b"\n")
    rig.write(encode(3, "LAID", 1, b"\x05\x06\x07\x08", "car blue"))
    events = drain(reader)
    assert events == [TagLaid("reader1", b"\x05\x06\x07\x08", "car blue")]
    assert reader.bad_lines == 2
    assert reader.gaps == 1  # seq 0 (HELLO) then 3: reported once
    reader.close()


def test_host_gives_up_after_several_bad_lines_in_a_row(rigs):
    rig, clock, reader, hub, readers = connect(rigs)
    rig.write(b"noise\n" * 3)
    with pytest.raises(ReaderError, match="bad lines"):
        drain(reader)
    reader.close()


def test_host_silent_hub_is_a_reader_error_after_the_heartbeat_timeout(rigs):
    rig, clock, reader, hub, readers = connect(rigs)
    hub.step()
    drain(reader, 2)
    for _ in range(5):  # beats keep it alive
        clock.now += 1.0
        hub.step()
        drain(reader, 2)
    clock.now += 2.5
    assert reader.poll() == []
    clock.now += 1.0
    with pytest.raises(ReaderError, match="heartbeat"):
        reader.poll()
    # the next poll reopens the port; the hub speaks again and all is well
    assert reader.poll() == []
    hub.step()
    readers[0].uid = b"\x01\x02\x03\x04"
    hub.step()
    assert drain(reader) == [TagLaid("discard", b"\x01\x02\x03\x04")]
    reader.close()


def test_host_unplug_is_a_reader_error_and_a_new_port_works_after_reopen(rigs):
    rig, clock, reader, hub, readers = connect(rigs)
    hub.step()
    drain(reader, 2)
    rig.unplug()
    with pytest.raises(ReaderError, match="gone"):
        drain(reader, 3)
    rig.close()
    with pytest.raises(ReaderError, match="cannot open"):
        reader.poll()  # the old port is gone for good
    replugged = rigs(readers=readers, clock=clock)  # the hub restarted on being plugged in again
    reader.port = replugged.port
    assert reader.poll() == []
    hub2 = replugged.hub
    readers[1].uid = b"\x09\x09\x09\x09"
    hub2.step()
    assert drain(reader) == [TagLaid("reader1", b"\x09\x09\x09\x09")]
    reader.close()
    reader.close()  # idempotent
    with pytest.raises(ReaderError, match="closed"):
        reader.poll()


def test_host_restarted_hub_does_not_lay_a_lying_tag_again(rigs):
    rig, clock, reader, hub, readers = connect(rigs)
    readers[0].uid = b"\x01\x02\x03\x04"
    readers[1].uid = b"\x05\x06\x07\x08"
    hub.step()
    assert len(drain(reader)) == 2
    readers[1].uid = None  # lifted while the hub was restarting
    restarted = rig.restart()
    restarted.step()
    clock.now += 1.0
    restarted.step()  # BEAT
    assert drain(reader) == [TagLifted("reader1", b"\x05\x06\x07\x08")]
    reader.close()


def test_find_hub_port_by_usb_id(monkeypatch):
    from serial.tools import list_ports, list_ports_common

    def port(device, vid, pid, interface=None):
        info = list_ports_common.ListPortInfo(device, skip_link_detection=True)
        info.vid, info.pid, info.interface = vid, pid, interface
        return info

    monkeypatch.setattr(list_ports, "comports", lambda: [port("/dev/ttyS0", None, None)])
    with pytest.raises(ReaderError, match="no reader hub"):
        find_hub_port()
    monkeypatch.setattr(
        list_ports,
        "comports",
        lambda: [
            port("/dev/ttyS0", None, None),
            port("/dev/ttyACM0", 0x239A, 0x80F4, "CircuitPython CDC control"),
            port("/dev/ttyACM1", 0x239A, 0x80F4, "CircuitPython CDC2 control"),
        ],
    )
    assert find_hub_port() == "/dev/ttyACM1"


def test_host_says_at_the_table_when_a_reader_on_the_hub_fails_and_comes_back(rigs):
    rig, clock, reader, hub, readers = connect(rigs, {0: "discard", 1: "cars"})
    hub.step()
    readers[1].broken = True
    hub.step()
    assert drain(reader) == [
        DeviceStatus("cars reader", False, "the cars reader on the hub fails (Did not receive expected ACK from "
                                           "PN532!): check its cable; still trying")
    ]
    readers[1].broken = False
    clock.now += 1.0
    hub.step()
    assert drain(reader) == [DeviceStatus("cars reader", True, "the cars reader on the hub works again")]
    reader.close()


def test_host_names_configured_readers_the_hub_does_not_have(rigs):
    rig, clock, reader, hub, readers = connect(rigs, {0: "discard", 1: "cars", 2: "seat1", 3: "seat2"})
    hub.step()
    (status,) = drain(reader)
    assert isinstance(status, DeviceStatus) and not status.ok
    assert "has 2 readers: seat1, seat2 not connected" in status.message
    reader.close()


def test_hub_tries_a_failing_reader_less_and_less_often_until_it_answers():
    hub, readers, lines, clock = make_hub(1)
    readers[0].broken = True
    tries = []
    for _ in range(140):  # 70 s in steps of 0.5 s (exact in binary: no rounding drift)
        before = readers[0].reads
        hub.step()
        if readers[0].reads > before:
            tries.append(clock.now - 100.0)
        clock.now += 0.5
    assert tries[:7] == [0.0, 1.0, 3.0, 7.0, 15.0, 31.0, 47.0]  # waits of 1, 2, 4, 8, 16, 16 s
    readers[0].broken = False
    clock.now += 16.0
    hub.step()
    readers[0].broken = True
    clock.now += 0.5
    hub.step()
    before = readers[0].reads
    clock.now += 1.0
    hub.step()
    assert readers[0].reads == before + 1  # after it answered once, the first wait is 1 s again
    assert [k for k, _ in kinds(lines)].count("ERROR") == 2


def test_hub_answers_hello_as_at_a_start_and_announces_the_lying_tags_again():
    hub, readers, lines, _ = make_hub()
    readers[1].uid = b"\x07\x07\x07\x07"
    hub.step()
    hub.step()
    lines.clear()
    hub.command(b"HELLO?\r\n")
    hub.step()
    assert [(decode(line).seq, decode(line).kind) for line in lines] == [(0, "HELLO"), (1, "LAID")]


def test_host_greets_the_hub_and_a_new_host_learns_the_tags_lying_there(rigs):
    rig, clock, reader, hub, readers = connect(rigs)
    readers[0].uid = b"\x01\x02\x03\x04"
    rig.settle()
    assert drain(reader) == [TagLaid("discard", b"\x01\x02\x03\x04")]
    reader.close()
    restarted_host = HubReader(port=rig.port, clock=clock)  # the table's service restarted; the hub ran on
    assert restarted_host.poll() == []
    rig.settle()  # the hub hears HELLO?
    assert drain(restarted_host) == [TagLaid("discard", b"\x01\x02\x03\x04")]
    assert restarted_host.hello == (protocol.VERSION, 2)
    restarted_host.close()


def test_host_refuses_a_device_that_does_not_answer_hello(rigs):
    """Say, an older firmware, or another device on the configured port: it beats but never greets."""
    clock = FakeClock()
    rig = rigs(clock=clock)
    rig.hub.step()  # started before the host opened the port: its HELLO is gone
    reader = HubReader(port=rig.port, clock=clock)
    for _ in range(4):
        assert reader.poll() == []
        clock.now += 1.0
        rig.hub.step()  # BEAT, and the host's HELLO? is never read
    with pytest.raises(ReaderError, match="does not answer HELLO"):
        drain(reader)
    reader.close()


def test_host_asks_the_hub_again_when_lines_were_lost(rigs):
    rig, clock, reader, hub, readers = connect(rigs, {0: "discard", 1: "cars"})
    readers[1].uid = b"\x05\x06\x07\x08"
    rig.settle()
    assert drain(reader) == [TagLaid("cars", b"\x05\x06\x07\x08")]
    readers[0].uid = b"\x01\x02\x03\x04"
    readers[1].uid = None
    rig.lose(2)  # the LAID of the card and the LIFTED of the car token
    rig.settle()
    clock.now += 1.0
    hub.step()  # a BEAT: its sequence number shows two lines missing
    assert drain(reader) == [] and reader.gaps == 1
    rig.settle()  # the hub hears HELLO? and announces the card again
    clock.now += 1.0
    hub.step()  # the first BEAT after HELLO: what was not announced again has been lifted
    assert drain(reader) == [TagLaid("discard", b"\x01\x02\x03\x04"), TagLifted("cars", b"\x05\x06\x07\x08")]
    reader.close()


@pytest.mark.parametrize(
    ("read_record", "sent"),
    [
        (lambda reader, uid: "x" * 121, None),  # too long for one line
        (lambda reader, uid: "", None),
        (lambda reader, uid: 1 / 0, None),  # the tag was pulled away mid-read
        (lambda reader, uid: "toprace car red", "toprace car red"),
    ],
)
def test_hub_sends_no_record_it_cannot_read_or_fit_on_a_line(read_record, sent):
    readers = [FieldReader()]
    lines: list[bytes] = []
    hub = Hub(readers, lines.append, FakeClock(), read_record=read_record)
    readers[0].uid = b"\x01\x02\x03\x04"
    hub.step()
    assert decode(lines[-1]).fields == (0, b"\x01\x02\x03\x04", sent)
