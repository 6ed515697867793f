"""Text from outside (names, device messages) reaches terminals, logs and speech made printable."""

from __future__ import annotations

import io
import logging
import os
import sys
from dataclasses import asdict

import pytest
from emulators.hub import FakeClock, HubRig, protocol

from toprace_pi.errors import DataError
from toprace_pi.games.toprace.rules import Settings
from toprace_pi.hardware.events import DeviceStatus
from toprace_pi.hardware.readers.hub import HubReader
from toprace_pi.hardware.sound.speech import Announcer
from toprace_pi.service import LogFormat, logs_to_journald
from toprace_pi.table import journal as journal_module
from toprace_pi.table.config import parse_config
from toprace_pi.table.journal import FORMAT, VERSION, load
from toprace_pi.text import printable, printable_lines

ESCAPE = "\x1b[2J\x1b[31mfake line\r\n"


def test_control_characters_become_visible_escapes_and_printable_text_is_kept():
    assert printable("Anna") == "Anna" and printable("Zoë 😀") == "Zoë 😀"
    assert printable(ESCAPE) == "\\x1b[2J\\x1b[31mfake line\\r\\n"
    assert printable("a\u2028b\x00") == "a\\u2028b\\x00"
    assert printable_lines("one\ntwo\x07") == "one\ntwo\\x07"


def test_a_log_line_cannot_be_forged_and_carries_journalds_priority_under_systemd():
    record = logging.LogRecord("toprace_pi.hardware.readers.hub", logging.WARNING, __file__, 1,
                               "the hub says %s", ("oops\nINFO forged: all well\x1b[0m",), None)
    plain = LogFormat(journald=False).format(record)
    assert plain == "WARNING toprace_pi.hardware.readers.hub: the hub says oops\\nINFO forged: all well\\x1b[0m"
    journald = LogFormat(journald=True).format(record)
    assert journald == "<4>" + plain
    record.levelno, record.levelname = logging.INFO, "INFO"
    assert LogFormat(journald=True).format(record).startswith("<6>INFO")


def test_a_traceback_is_indented_under_its_record_so_no_line_of_it_passes_for_a_record():
    try:
        raise ValueError("bad\nERROR toprace_pi.table.controller: FORGED LINE")
    except ValueError:
        record = logging.LogRecord("toprace_pi.web.server", logging.ERROR, __file__, 1, "failed", (), sys.exc_info())
    first, *more = LogFormat(journald=False).format(record).split("\n")
    assert first == "ERROR toprace_pi.web.server: failed"
    assert more[0] == "  Traceback (most recent call last):" and all(line.startswith("  ") for line in more)


def test_a_hub_error_frame_holding_a_newline_forges_no_log_line_nor_a_second_spoken_line():
    """The frame as a hub sends it (its text %-escaped, %0A for the newline), read by the HubReader over
    a pty and logged through the table's own log format, in journald's form and a terminal's."""
    forged = "no ACK\nERROR toprace_pi.table.controller: FORGED LINE\x1b[2J"
    rig = HubRig(clock=FakeClock())
    reader = HubReader(port=rig.port, clock=rig.clock)
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(LogFormat(journald=True))
    logging.getLogger().addHandler(handler)
    try:
        assert reader.poll() == []
        rig.write(protocol.encode(0, "HELLO", protocol.VERSION, 2))
        frame = protocol.encode(1, "ERROR", 0, forged)
        assert b"%0AERROR" in frame
        rig.write(frame)
        events = [event for _ in range(8) for event in reader.poll()]
    finally:
        logging.getLogger().removeHandler(handler)
        reader.close()
        rig.close()
    told = [line for line in stream.getvalue().splitlines() if "fails" in line]
    assert told == ["<4>WARNING toprace_pi.hardware.readers.hub: reader hub: the discard reader fails: "
                    "no ACK\\nERROR toprace_pi.table.controller: FORGED LINE\\x1b[2J"]
    assert not any("FORGED" in line and "fails" not in line for line in stream.getvalue().splitlines())
    status = next(event for event in events if isinstance(event, DeviceStatus))
    assert status.message.isprintable() and "no ACK\\nERROR" in status.message
    written: list[str] = []
    with Announcer(echo=written.append, speech=False) as announcer:
        announcer.say(status.message)
    assert written == [status.message]


def test_journald_is_recognised_by_the_stream_systemd_names(tmp_path):
    with open(tmp_path / "stream", "w") as stream:
        info = os.fstat(stream.fileno())
        assert logs_to_journald(stream, environ={"JOURNAL_STREAM": f"{info.st_dev}:{info.st_ino}"})
        assert not logs_to_journald(stream, environ={"JOURNAL_STREAM": "1:2"})
        assert not logs_to_journald(stream, environ={})
    assert not logs_to_journald(io.StringIO(), environ={"JOURNAL_STREAM": "1:2"})


def test_a_player_name_with_control_characters_is_refused_in_the_config():
    with pytest.raises(DataError) as error:
        parse_config({"game": {"players": ["Anna", "Ben\x1b[2J"]}}, "table.toml")
    assert "no control characters (Ben\\x1b[2J)" in str(error.value) and "\x1b" not in str(error.value)


def test_a_journal_whose_names_hold_control_characters_is_refused(tmp_path):
    settings = asdict(Settings(("Anna", "Ben")))
    settings["players"] = ["Anna", "Ben\x1b[2J"]
    path = tmp_path / "journal.jsonl"
    header, _ = journal_module._line({"format": FORMAT, "version": VERSION, "settings": settings, "n": 0,
                                      "id": "0" * 32})
    path.write_bytes(header)
    with pytest.raises(DataError, match="no control characters"):
        load(path)
