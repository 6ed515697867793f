"""The table with its readers on the reader hub: configuration, the self-test, enrolment, and whole demo games
played through the hub's firmware, a pty and the host's HubReader."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from emulators.hub import FakeClock, HubRig, hub_readers
from support.hang import HANG_LIMIT

from toprace_pi.errors import DataError
from toprace_pi.games.toprace.data import load_track
from toprace_pi.games.toprace.rules import TopRace
from toprace_pi.games.toprace.table.demo import DemoPlayers, build_demo_table
from toprace_pi.games.toprace.table.tags import table_tags
from toprace_pi.hardware.events import DeviceStatus, TagLaid, TagLifted
from toprace_pi.hardware.readers import HubSettings, hub_opener
from toprace_pi.hardware.readers import hub as host_hub
from toprace_pi.hardware.readers.hub import HubReader
from toprace_pi.table.config import parse_config
from toprace_pi.table.demo import play_demo
from toprace_pi.table.live import open_table, reader_slots
from toprace_pi.table.run import RETRY, ReaderSlot
from toprace_pi.table.selftest import self_test
from toprace_pi.table.tools import enrol

# --- configuration -----------------------------------------------------------------------------------------------


def test_a_hub_section_names_the_hub_readers_and_finds_the_port_by_default():
    config = parse_config({"hub": {}}, "test")
    assert config.hub == HubSettings(("discard", "cars"), None)
    assert config.readers == ()  # the discard pile's reader is on the hub


def test_a_hub_beside_a_reader_on_the_pi():
    config = parse_config({"hub": {"port": "/dev/ttyACM1", "readers": ["cars", "seat1", "seat2"]},
                           "readers": {"discard": {"kind": "pn532"}}}, "test")
    assert config.hub == HubSettings(("cars", "seat1", "seat2"), "/dev/ttyACM1")
    assert [r.name for r in config.readers] == ["discard"]
    assert [slot.name for slot in reader_slots(config, time.monotonic)] == ["discard", "hub"]


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"hub": {"port": ""}}, '[hub] port: "auto" or a serial device'),
        ({"hub": {"port": 7}}, '[hub] port: "auto" or a serial device'),
        ({"hub": {"readers": []}}, "[hub] readers: a list of 1 to 8 different names"),
        ({"hub": {"readers": ["discard", "discard"]}}, "[hub] readers: a list of 1 to 8 different names"),
        ({"hub": {"readers": ["Discard pile"]}}, "[hub] readers: a list of 1 to 8 different names"),
        ({"hub": {"readers": [f"r{i}" for i in range(9)]}}, "[hub] readers: a list of 1 to 8"),
        ({"hub": {"speed": 9600}}, "[hub] unknown key(s): speed"),
        ({"hub": "usb"}, "[hub] must be a table"),
        ({"hub": {}, "readers": {"discard": {}}}, "the discard reader is also on the hub"),
        ({"hub": {"readers": ["cars"]}, "readers": {"cars": {}}}, "the discard pile needs a reader"),
    ],
)
def test_a_bad_hub_section_is_named(section, message):
    with pytest.raises(DataError) as caught:
        parse_config(section, "table.toml")
    assert message in str(caught.value)


# --- the hub on a thread, as at the table ------------------------------------------------------------------------


@pytest.fixture
def running_rig() -> Iterator[HubRig]:
    """A hub rig whose firmware loop runs on its own thread, as the Pico runs beside the Pi."""
    rig = HubRig()
    stop = threading.Event()

    def loop() -> None:
        while not stop.is_set():
            rig.hub.step()
            rig.answer()
            time.sleep(0.002)

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    yield rig
    stop.set()
    thread.join(timeout=5)
    rig.close()


def test_the_self_test_asks_the_hub_for_each_reader(running_rig, pins):
    running_rig.readers[1].broken = True
    config = parse_config({"hub": {"port": running_rig.port, "readers": ["discard", "cars", "seat1"]},
                           "sound": {"speech": False}, "buttons": {}}, "test")
    said: list[str] = []
    problems = self_test(config, said.append, button_wait=0.01, simulated_pins=lambda: None)
    assert said[:4] == [f"reader hub: ok (on {running_rig.port}, protocol 1.1, 2 readers)",
                        "discard reader (hub reader 0): ok",
                        "cars reader (hub reader 1): missing: failing",
                        "seat1 reader (hub reader 2): missing: not connected to the hub"]
    assert problems == 2 + 1 + 4  # two hub readers, the simulated strip, and four buttons nobody pressed


def test_the_self_test_says_when_no_hub_is_plugged_in(monkeypatch, pins):
    from serial.tools import list_ports

    monkeypatch.setattr(list_ports, "comports", lambda: [])
    said: list[str] = []
    self_test(parse_config({"hub": {}}, "test"), said.append, button_wait=0.01)
    assert said[0] == "reader hub: missing: no reader hub found (no USB serial port with id 239A:80F4)"


def test_enrolling_car_tokens_on_the_hub(running_rig, tmp_path):
    config = parse_config({"hub": {"port": running_rig.port},
                           "files": {"registry": str(tmp_path / "tags.json")}}, "test")
    said: list[str] = []
    enrolled: list[object] = []
    tags = table_tags(config)
    enrolment = threading.Thread(target=lambda: enrolled.append(enrol("cars", config, said.append, tags=tags,
                                                                      tick=0.005)), daemon=True)
    enrolment.start()
    cars = running_rig.readers[1]
    for number in range(1, 7):  # the six car tokens laid on the hub's cars reader, one after another
        cars.lay(bytes([4, 0xCA, 0, 0, 0, 1, number]))
        time.sleep(0.1)
        cars.lift()
        time.sleep(0.1)
    enrolment.join(timeout=10)
    assert not enrolment.is_alive(), f"the enrolment is still waiting: {said[-3:]}"
    (registry,) = enrolled
    assert len(registry) == 6
    assert said.count("(the reader hub writes no records: this tag is known by the registry only)") == 6


def test_the_table_in_service_reads_its_cards_through_the_hub(running_rig, tmp_path, pins, capsys):
    config = parse_config({"hub": {"port": running_rig.port}, "sound": {"speech": False},
                           "files": {"registry": str(tmp_path / "tags.json"),
                                     "journal": str(tmp_path / "journal.jsonl")}}, "test")
    live = open_table(config)
    try:
        running_rig.readers[0].lay(b"\x04\x55\x55\x55\x55\x55\x55")  # a tag nobody enrolled
        deadline = time.monotonic() + HANG_LIMIT
        while "this tag is not enrolled" not in capsys.readouterr().out:
            assert time.monotonic() < deadline, "the tag never reached the controller"
            live.table.step()
            time.sleep(0.01)
        assert [slot.name for slot in live.table.readers] == ["hub"]
    finally:
        live.close()


# --- whole games through the hub ---------------------------------------------------------------------------------


def play(track: str, players: int, seed: int, variant: str, readers=None) -> tuple[TopRace, list[str], object]:
    said: list[str] = []
    options = {} if readers is None else {"readers": readers}
    demo = build_demo_table(load_track(track), players, seed, variant=variant, say=said.append, **options)
    try:
        game = play_demo(demo, DemoPlayers(["greedy"] * players, seed))
    finally:
        demo.close()
    return game, said, demo


@pytest.mark.parametrize(("track", "players", "variant"), [("speed-street", 4, "base"), ("lake-lane", 3, "pitstop")])
def test_a_whole_demo_game_through_the_hub_is_the_game_played_on_simulated_readers(track, players, variant):
    rigs: list[HubRig] = []
    hosts: list[HubReader] = []
    game, said, demo = play(track, players, 5, variant, hub_readers(rigs, hosts))
    rigs[0].close()
    expected, _, _ = play(track, players, 5, variant)
    assert game.is_over and game.log == expected.log
    assert demo.controller.refusals == 0 and said[-1].startswith("Game over")
    (host,) = hosts  # opened once: never lost
    assert host.bad_lines == 0 and host.gaps == 0 and host.hello == ("1.1", 2)
    assert not [line for line in said if "missing" in line], "the hub was never reported missing"


def test_a_tag_laid_through_the_hub_reaches_the_controller():
    rigs: list[HubRig] = []
    said: list[str] = []
    demo = build_demo_table(load_track("speed-street"), 2, 1, say=said.append, readers=hub_readers(rigs))
    try:
        demo.lay(demo.discard, b"\x04\x55\x55\x55\x55\x55\x55")  # a tag nobody enrolled
        assert "this tag is not enrolled: run toprace-pi enrol cards" in said
        assert demo.controller.refusals == 1
        host = demo.table.readers[0].reader
        assert isinstance(host, HubReader) and host.bad_lines == 0 and host.gaps == 0
    finally:
        demo.close()
        rigs[0].close()


def test_the_table_says_when_the_hub_is_unplugged_and_finds_it_again_by_its_usb_id(monkeypatch):
    clock = FakeClock()
    plugged = [HubRig(clock=clock)]
    monkeypatch.setattr(host_hub, "find_hub_port", lambda: plugged[-1].port)  # the USB id search, as on the Pi
    slot = ReaderSlot("hub", hub_opener(HubSettings(("discard", "cars"), None)), clock)
    try:
        assert slot.poll() == []
        card = b"\x04\x01\x02\x03\x04\x05\x06"
        plugged[-1].readers[0].lay(card)
        plugged[-1].settle()
        assert slot.poll() == [TagLaid("discard", card)]
        plugged[-1].unplug()
        assert slot.poll() == [DeviceStatus("hub reader", False, "the hub reader is missing: still looking")]
        plugged.append(HubRig(plugged[-1].readers, clock=clock))  # plugged in again: a new ttyACM, the hub restarted
        clock.now += RETRY
        assert slot.poll() == [DeviceStatus("hub reader", True, "the hub reader is back")]
        plugged[-1].settle()  # it hears HELLO? and announces the card still lying there
        assert slot.poll() == []  # known to lie there already: not laid twice
        plugged[-1].readers[0].lift()
        plugged[-1].settle()
        assert slot.poll() == [TagLifted("discard", card)]
    finally:
        slot.close()
        for rig in plugged:
            rig.close()
