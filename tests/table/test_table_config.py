"""The table's configuration file and the device supervision that keeps the table going."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from emulators.scripted import ScriptedReader
from scenarios import OLDER, VOCAB

from toprace_pi.errors import DataError
from toprace_pi.games.toprace.table.tags import TopRaceVocabulary, table_tags
from toprace_pi.hardware import ReaderError, StripError
from toprace_pi.hardware.events import DeviceStatus, TagLaid
from toprace_pi.hardware.strip import StripSettings
from toprace_pi.table.config import load_config, parse_config
from toprace_pi.table.run import RETRY, ReaderSlot, StripSlot

ROOT = Path(__file__).resolve().parents[2]
#: One complete example configuration a game, by the game's name.
EXAMPLES = {"toprace": ROOT / "config.example.toml", "autorace": ROOT / "examples" / "autorace.config.toml",
            "topspeed": ROOT / "examples" / "topspeed.config.toml"}
#: An option of an example, "# key = value" or "# [section]": a maker turns it on by removing the "# ".
OPTION = re.compile(r"^# (?=\[[a-z0-9_.]+\][ \t]*(?:#.*)?$|[a-z_]+ = )", re.M)
SECTION = re.compile(r"^\[([a-z0-9_.]+)\]", re.M)


def run_check(config: Path) -> subprocess.CompletedProcess[str]:
    """``toprace-pi check --config FILE`` as a maker runs it, gpiozero left to find its pins as it would here."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GPIOZERO_")}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-m", "toprace_pi", "check", "--config", str(config)], cwd=config.parent,
                          env=env, capture_output=True, text=True, timeout=120)


def every_option_on(example: Path) -> str:
    return OPTION.sub("", example.read_text("utf-8"))


def test_an_empty_file_is_a_table_of_simulated_devices(tmp_path):
    path = tmp_path / "table.toml"
    path.write_text("", "utf-8")
    config = load_config(path)
    game = config.settings
    assert game.track == "speed-street" and game.deck == "standard" and len(game.players) == 4
    assert [r.name for r in config.readers] == ["discard"] and config.strip.backend == "simulated"
    assert set(config.buttons.pins) == {"next", "ok", "undo", "pass"} and config.buttons.kind == "simulated"
    assert config.readers[0].kind == "simulated" and config.sound.buzzer is None


def test_a_buttons_section_puts_the_buttons_on_the_gpio():
    for section in ({}, {"hold_time": 2.0}, {"next": 5, "ok": 6, "undo": 13, "pass": 19}):
        assert parse_config({"buttons": section}, "t").buttons.kind == "gpio"
    assert parse_config({"buttons": {"kind": "simulated"}}, "t").buttons.kind == "simulated"


def test_check_finds_an_empty_file_a_table_of_simulated_devices(tmp_path):
    """Every device the file leaves out is simulated (speech is the machine's: espeak-ng installed or not), and
    nothing opens the GPIO, so a computer that is not a Pi hears no word about its pins."""
    path = tmp_path / "table.toml"
    path.write_text("", "utf-8")
    done = run_check(path)
    found = {}
    for line in done.stdout.splitlines()[:-1]:
        device, _, said = line.partition(": ")
        found[device] = re.split(r":| \(", said)[0]
    assert found.pop("speech") in ("ok", "missing")
    assert found == {"discard reader": "simulated", "LED strip": "simulated", "buttons": "simulated", "buzzer": "off"}
    assert done.stderr == ""


@pytest.mark.parametrize("game", EXAMPLES)
def test_checks_reading_of_each_games_example_passes(game, tmp_path):
    """The real ``check`` reads each example, as shipped and with every option turned on, without a problem (a
    config problem is exit code 2 and a list on stderr); then it tests the devices the file names, each of them
    missing on a machine that is not the table."""
    example = EXAMPLES[game]
    config = load_config(example)
    assert config.game == game and OPTION.search(example.read_text("utf-8"))
    for name, text in (("shipped.toml", example.read_text("utf-8")), ("options.toml", every_option_on(example))):
        path = tmp_path / name
        path.write_text(text, "utf-8")
        done = run_check(path)
        assert done.returncode in (0, 1) and "problem" not in done.stderr, done.stderr
        devices = [line.partition(": ")[0] for line in done.stdout.splitlines()[:-1]]
        read = load_config(path)
        readers = [f"{reader.name} reader" for reader in read.readers]
        assert devices[:len(readers)] == readers and "LED strip" in devices and "buttons" in devices
        assert ("reader hub" in devices) == (read.hub is not None)


@pytest.mark.parametrize("game", EXAMPLES)
def test_check_names_a_key_it_does_not_know_in_each_section_of_each_example(game, tmp_path):
    """A stray key in each section of the example (every option on) and at its top is named by ``check``: so the
    keys of the example, which pass, are every one a key the table reads, none left out without a word."""
    text = every_option_on(EXAMPLES[game])
    strays = ["unknown_top"] + [f"unknown_{name.replace('.', '_')}" for name in SECTION.findall(text)]
    assert len(strays) >= 10
    path = tmp_path / "stray.toml"
    path.write_text("unknown_top = 1\n" + SECTION.sub(lambda m: f"{m[0]}\nunknown_{m[1].replace('.', '_')} = 1",
                                                       text), "utf-8")
    done = run_check(path)
    assert done.returncode == 2 and done.stdout == ""
    assert [stray for stray in strays if stray not in done.stderr] == []


def test_each_example_sets_up_the_buzzer_the_build_guide_recommends():
    """The build's part is a passive piezo, which plays tunes only with ``tonal = true``."""
    build = (ROOT / "hardware" / "build.md").read_text("utf-8")
    found = re.search(r"\*\*Buzzer\*\*: a passive piezo .*?set\s+`\[sound\] buzzer = (\d+)` and `tonal = (true|false)`",
                      build, re.S)
    assert found is not None
    for example in EXAMPLES.values():
        sound = load_config(example).sound
        assert (sound.buzzer, sound.tonal) == (int(found[1]), found[2] == "true"), example.name


def test_a_full_configuration():
    config = parse_config({
        "game": {"track": "turbo-town", "deck": "older-edition", "players": ["Ann", "Bo", "Cy"], "races": 3},
        "readers": {"discard": {"kind": "pn532", "bus": "uart", "port": "/dev/ttyAMA0"},
                    "cars": {"kind": "pn532", "bus": "i2c"}},
        "strip": {"backend": "ws281x", "count": 274, "supply_amps": 10},
        "buttons": {"next": 5, "ok": 6, "undo": 13, "pass": 19, "hold_time": 1.5},
        "files": {"registry": "/var/lib/toprace-pi/tags.json"},
    }, "table.toml")
    assert config.settings.players == ("Ann", "Bo", "Cy") and config.settings.races == 3
    assert config.buttons.hold_time == 1.5
    assert config.settings.deck == "older-edition"
    assert [(r.name, r.bus) for r in config.readers] == [("discard", "uart"), ("cars", "i2c")]
    assert config.profile is None and config.settings.track == "turbo-town"  # its own board profile


def test_every_problem_is_named_with_the_file():
    with pytest.raises(DataError) as caught:
        parse_config({
            "game": {"track": "monaco", "deck": "pink", "players": ["Ann"], "races": 0},
            "readers": {"cars": {"kind": "laser"}},
            "buttons": {"next": 5, "ok": 5, "undo": 99, "fire": 7},
            "extra": {},
        }, "table.toml")
    text = str(caught.value)
    assert text.startswith("table.toml:")
    for expected in ("unknown section(s): extra", "'monaco' is neither a shipped track",
                     "[game] deck: 'pink' is neither a shipped deck (older-edition, standard) nor a file",
                     "2 to 6 different names",
                     "[game] races", "kind is one of", "the discard pile needs a reader",
                     "[buttons] undo: a GPIO number", "[buttons] unknown key(s): fire", "two buttons on one pin",
                     "missing pass"):
        assert expected in text


@pytest.mark.parametrize("strength", [[], {}, ["strong"]])
def test_a_bots_strength_that_is_no_word_is_named_not_a_crash(strength):
    with pytest.raises(DataError, match=r"\[bots\] strength: one of easy, normal, strong, not"):
        parse_config({"bots": {"strength": strength}}, "table.toml")


def test_an_unreadable_or_broken_file(tmp_path):
    with pytest.raises(DataError, match="cannot be read"):
        load_config(tmp_path / "none.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[game\n", "utf-8")
    with pytest.raises(DataError, match="bad.toml: not valid TOML"):
        load_config(bad)


class FlakyReader:
    """A reader that can be unplugged: poll raises like a real one would."""

    name = "discard"

    def __init__(self, world: dict) -> None:
        self.world = world

    def poll(self):
        if not self.world["plugged"]:
            raise ReaderError("serial port vanished")
        return self.world.pop("events", [])

    def close(self) -> None:
        self.world["closed"] = self.world.get("closed", 0) + 1


def test_a_reader_missing_at_start_is_reported_once_and_picked_up_when_it_appears():
    now = [0.0]
    world = {"plugged": False}

    def opener():
        if not world["plugged"]:
            raise ReaderError("no PN532 on /dev/serial0")
        return FlakyReader(world)

    slot = ReaderSlot("discard", opener, lambda: now[0])
    assert slot.poll() == [DeviceStatus("discard reader", False, "the discard reader is missing: still looking")]
    assert slot.poll() == []  # said once; not retried before RETRY seconds
    world["plugged"] = True
    world["events"] = [TagLaid("discard", b"\x04\x01")]
    now[0] += RETRY
    assert slot.poll() == [DeviceStatus("discard reader", True, "the discard reader is back"),
                           TagLaid("discard", b"\x04\x01")]


def test_a_reader_that_vanishes_mid_game_is_reported_and_polled_again_later():
    now = [0.0]
    world = {"plugged": True}
    opened = []
    slot = ReaderSlot("discard", lambda: opened.append(1) or FlakyReader(world), lambda: now[0])
    assert slot.poll() == []
    world["plugged"] = False
    assert slot.poll()[0].ok is False
    world["plugged"] = True
    assert slot.poll() == []  # not polled again before RETRY seconds
    now[0] += RETRY
    assert slot.poll()[0] == DeviceStatus("discard reader", True, "the discard reader is back")
    assert len(opened) == 1  # the reader reconnects by itself: it is not reopened


class BrokenStrip:
    count = 3

    def __init__(self) -> None:
        self.broken = True
        self.shown: list = []

    def show(self, frame):
        if self.broken:
            raise StripError("show() failed")
        self.shown.append(list(frame))

    def close(self) -> None:
        pass


def test_a_strip_that_fails_is_written_again_when_it_recovers(caplog):
    strip = BrokenStrip()
    slot = StripSlot(strip)
    frame = [(1, 2, 3)] * 3
    slot.show(frame)
    slot.show(frame)
    assert slot.failing and caplog.text.count("the LED strip failed") == 1
    strip.broken = False
    slot.show(frame)
    assert strip.shown == [frame] and not slot.failing
    slot.show(frame)  # unchanged: not sent again
    assert len(strip.shown) == 1


def test_the_example_configuration_loads():
    config = load_config(ROOT / "config.example.toml")
    assert config.readers[0].kind == "pn532" and config.sound.buzzer == 12


def test_play_runs_the_table_until_stopped_and_tells_systemd(monkeypatch, tmp_path, pins):
    import socket
    import threading

    from toprace_pi.table.live import run_table

    sock_path = str(tmp_path / "notify")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(sock_path)
    listener.settimeout(10)
    monkeypatch.setenv("NOTIFY_SOCKET", sock_path)
    stop = threading.Event()
    config = parse_config({"sound": {"speech": False}, "files": {"registry": str(tmp_path / "tags.json"),
                                                                 "journal": str(tmp_path / "journal.jsonl")}}, "t")
    runner = threading.Thread(target=run_table, args=(config,), kwargs={"stop": stop})
    try:
        runner.start()
        assert listener.recv(100).startswith(b"READY=1")
        stop.set()
        runner.join(10)
        assert not runner.is_alive()
        assert listener.recv(100) == b"STOPPING=1"
    finally:
        stop.set()
        listener.close()


def test_enrolling_the_deck_saves_a_registry_and_writes_each_card_name(tmp_path):
    from toprace_pi.hardware.tags import TagRegistry
    from toprace_pi.table.tools import enrol

    config = parse_config({"files": {"registry": str(tmp_path / "tags.json")}}, "test")
    uids = [bytes([4, 0x10, 0, 0, 0, 0, n]) for n in range(1, 49)]
    reader = ScriptedReader(uids[:5] + uids[:1] + uids[5:])  # the first card laid again by mistake
    said: list[str] = []
    enrol("cards", config, said.append, tags=table_tags(config), reader=reader, tick=0)
    registry = TagRegistry.load(tmp_path / "tags.json", VOCAB)
    assert len(registry) == 48 and registry.get(uids[16]) == ("card", 17)
    assert reader.records[16] == "toprace card 17" and len(reader.records) == 48
    assert any("already enrolled" in s for s in said)
    assert said[0].startswith("scan speed card #1") and said[-1].startswith("saved 48 tags")


class GlitchingReader(ScriptedReader):
    """A scripted box of tags whose reader fails once (a loose cable) at one point of the walk,
    or is stopped there for good (Ctrl-C, a power cut)."""

    def __init__(self, uids: list[bytes], *, fail_at: int, error: BaseException) -> None:
        super().__init__(uids)
        self.left_when_failing = len(self.events) - 2 * fail_at  # a laid and a lifted event per tag
        self.error: BaseException | None = error

    def poll(self):
        if self.error is not None and len(self.events) == self.left_when_failing:
            error = self.error
            if isinstance(error, ReaderError):
                self.error = None  # a glitch: the next try works
            raise error
        return super().poll()


def ticking():
    """A clock that moves on a second at each look, so the retry after a failure comes at once."""
    now = [0.0]

    def clock() -> float:
        now[0] += 1.0
        return now[0]
    return clock


def test_a_reader_error_during_enrolment_is_said_retried_and_the_walk_goes_on(tmp_path):
    from toprace_pi.hardware.tags import TagRegistry
    from toprace_pi.table.tools import enrol

    config = parse_config({"files": {"registry": str(tmp_path / "tags.json")}}, "test")
    uids = [bytes([4, 0x10, 0, 0, 0, 0, n]) for n in range(1, 49)]
    reader = GlitchingReader(uids, fail_at=40, error=ReaderError("the serial port is gone"))
    said: list[str] = []
    enrol("cards", config, said.append, tags=table_tags(config), reader=reader, tick=0, clock=ticking())
    assert "the enrolment reader is missing: still looking" in said and "the enrolment reader is back" in said
    assert len(TagRegistry.load(tmp_path / "tags.json", VOCAB)) == 48


def test_an_interrupted_enrolment_keeps_what_was_enrolled_and_the_next_goes_on_from_there(tmp_path):
    from toprace_pi.hardware.tags import TagRegistry
    from toprace_pi.table.tools import enrol

    config = parse_config({"files": {"registry": str(tmp_path / "tags.json")}}, "test")
    uids = [bytes([4, 0x10, 0, 0, 0, 0, n]) for n in range(1, 49)]
    with pytest.raises(KeyboardInterrupt):
        enrol("cards", config, lambda _: None, tags=table_tags(config),
              reader=GlitchingReader(uids, fail_at=20, error=KeyboardInterrupt()), tick=0)
    registry = TagRegistry.load(tmp_path / "tags.json", VOCAB)
    assert len(registry) == 20 and registry.get(uids[19]) == ("card", 20)
    said: list[str] = []
    enrol("cards", config, said.append, tags=table_tags(config), reader=ScriptedReader(uids[20:]), tick=0)
    assert said[0].startswith("20 of 48 are enrolled already") and said[1].startswith("scan speed card #21")
    assert len(TagRegistry.load(tmp_path / "tags.json", VOCAB)) == 48
    said.clear()
    enrol("cards", config, said.append, tags=table_tags(config), reader=ScriptedReader(uids), tick=0,
          again=True)  # all anew
    assert said[0].startswith("scan speed card #1") and said[-1].startswith("saved 48 tags")


def test_enrolling_the_car_tokens_walks_the_configured_decks_cars(tmp_path):
    from toprace_pi.hardware.tags import TagRegistry
    from toprace_pi.table.tools import enrol

    config = parse_config({"game": {"deck": "older-edition"}, "files": {"registry": str(tmp_path / "tags.json")}},
                          "test")
    uids = [bytes([4, 0xCA, 0, 0, 0, 0, n]) for n in range(6)]
    reader = ScriptedReader(uids)
    said: list[str] = []
    enrol("cars", config, said.append, tags=table_tags(config), reader=reader, tick=0)
    assert said[0] == "scan the Yellow car" and reader.records[2] == "toprace car lightblue"
    registry = TagRegistry.load(tmp_path / "tags.json", TopRaceVocabulary(OLDER.cars))
    assert [registry.get(u) for u in uids] == [("car", car) for car in OLDER.cars]
    with pytest.raises(DataError, match="'car lightblue' is not"):
        TagRegistry.load(tmp_path / "tags.json", VOCAB)  # a registry holds one edition's car tokens


def test_calibrating_a_board_saves_a_profile_that_loads(tmp_path):
    from toprace_pi.games.toprace.data import load_track
    from toprace_pi.games.toprace.table.board import calibration_target, load_profile
    from toprace_pi.table.tools import calibrate_board

    config = parse_config({}, "test")
    track = load_track("speed-street")
    presses = iter(["next"] + ["ok"] * (len(track.spaces) + 12))  # LED 0 lies under no space
    said: list[str] = []
    out = calibrate_board(calibration_target("speed-street", tmp_path / "board.toml"), config, presses, said.append)
    profile = load_profile(out)
    assert set(profile.spaces) == {s.id for s in track.spaces}
    assert 0 not in [led for leds in profile.spaces.values() for led in leds]
    assert said[-1].startswith(f"saved the profile to {out}")


def test_enrolling_the_pit_stop_cards_gives_each_seat_three(tmp_path):
    from toprace_pi.hardware.tags import TagRegistry
    from toprace_pi.table.tools import enrol

    config = parse_config({"game": {"players": ["Ann", "Bo"]}, "files": {"registry": str(tmp_path / "t.json")}}, "t")
    uids = [bytes([4, 0x91, 0, 0, 0, 0, n]) for n in range(6)]
    enrol("pitstops", config, lambda _: None, tags=table_tags(config), reader=ScriptedReader(uids), tick=0)
    registry = TagRegistry.load(tmp_path / "t.json", VOCAB)
    assert [registry.get(u) for u in uids] == [("pit", 0)] * 3 + [("pit", 1)] * 3


def test_a_bad_strip_section_is_named_when_the_file_is_read():
    with pytest.raises(DataError) as caught:
        parse_config({"strip": {"count": 10**9, "pin": -1, "lumens": 3}}, "table.toml")
    text = str(caught.value)
    for expected in ("[strip] unknown key(s): lumens",
                     "[strip] count: a number of LEDs from 1 to 10000, not 1000000000",
                     "[strip] pin: a GPIO number (BCM numbering) from 2 to 27, not -1"):
        assert expected in text
    # the LED count left to the board profile
    assert parse_config({"strip": {"backend": "ws281x"}}, "t").strip == StripSettings(backend="ws281x")
