"""Text from outside (names, device messages) reaches terminals, logs and speech made printable."""

from __future__ import annotations

import io
import logging
import os
from dataclasses import asdict

import pytest

from toprace_pi.errors import DataError
from toprace_pi.games.toprace.rules import Settings
from toprace_pi.service import LogFormat, logs_to_journald
from toprace_pi.table import journal as journal_module
from toprace_pi.table.config import parse_config
from toprace_pi.table.journal import FORMAT, VERSION, load
from toprace_pi.text import printable, printable_lines

ESCAPE = "\x1b[2J\x1b[31mfake line\r\n"


def test_control_characters_become_visible_escapes_and_printable_text_is_kept():
    assert printable("Anna") == "Anna" and printable("Zoë 😀") == "Zoë 😀"
    assert printable(ESCAPE) == "\\x1b[2J\\x1b[31mfake line\\x0d\\x0a"
    assert printable("a\u2028b\x00") == "a\\u2028b\\x00"
    assert printable_lines("one\ntwo\x07") == "one\ntwo\\x07"


def test_a_log_line_cannot_be_forged_and_carries_journalds_priority_under_systemd():
    record = logging.LogRecord("toprace_pi.hardware.hub", logging.WARNING, __file__, 1,
                               "the hub says %s", ("oops\nINFO forged: all well\x1b[0m",), None)
    plain = LogFormat(journald=False).format(record)
    assert plain == "WARNING toprace_pi.hardware.hub: the hub says oops\nINFO forged: all well\\x1b[0m"
    journald = LogFormat(journald=True).format(record)
    assert journald.split("\n") == ["<4>WARNING toprace_pi.hardware.hub: the hub says oops",
                                    "<4>INFO forged: all well\\x1b[0m"]  # the second line keeps the warning's priority
    record.levelno, record.levelname = logging.INFO, "INFO"
    assert LogFormat(journald=True).format(record).startswith("<6>INFO")


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
    path.write_bytes(journal_module._line({"format": FORMAT, "version": VERSION, "settings": settings, "n": 0}))
    with pytest.raises(DataError, match="no control characters"):
        load(path)
