"""The whole hub chain without hardware: emulated PN532s, read by the firmware's TagReader on the real adafruit
driver, reported by the firmware's Hub over a pty, read by the host's HubReader with real pyserial.

On the device the driver talks SPI (``PN532_SPI``); here it talks UART (``PN532_UART``) to the emulator. Both are
the same driver class above the transport, and the firmware only calls that shared part.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import serial
from emulators.hub import FakeClock, HubRig, TagReader
from emulators.pn532 import Pn532Emulator, Tag
from scenarios import RED, VOCAB

from toprace_pi.hardware.events import DeviceStatus, TagLaid, TagLifted
from toprace_pi.hardware.ndef import encode_record
from toprace_pi.hardware.readers.hub import HubReader
from toprace_pi.hardware.tags import TagRegistry

CARD_17 = Tag("04a1b2c3d4e517", encode_record("toprace card 17"))
RED_CAR = Tag("04ca0000000101", encode_record("toprace car red"))
BLANK = Tag("04000000000001")


class Chain:
    """Two emulated PN532s behind the firmware, the host's HubReader in front."""

    def __init__(self) -> None:
        self.emulators = [Pn532Emulator(), Pn532Emulator()]
        self.ports = [serial.Serial(e.port, 115200, timeout=0.02) for e in self.emulators]
        self.clock = FakeClock()
        readers = [TagReader(self._maker(port)) for port in self.ports]
        self.rig = HubRig(readers, clock=self.clock, read_record=lambda reader, uid: reader.read_record(),
                          read_timeout=0.02)
        self.host = HubReader({0: "discard", 1: "cars"}, port=self.rig.port, clock=self.clock)
        assert self.host.poll() == []  # the host opens the port first: pyserial flushes what came before

    @staticmethod
    def _maker(port: serial.Serial):
        def make():
            from adafruit_pn532.uart import PN532_UART

            pn532 = PN532_UART(port)
            pn532.SAM_configuration()
            return pn532

        return make

    def events(self) -> list:
        """Run the hub's loop until changes are reported, then let the host read them."""
        self.rig.settle()
        return [event for _ in range(3) for event in self.host.poll()]

    def close(self) -> None:
        self.host.close()
        self.rig.close()
        for port in self.ports:
            port.close()
        for emulator in self.emulators:
            emulator.close()


@pytest.fixture
def chain() -> Iterator[Chain]:
    chain = Chain()
    yield chain
    chain.close()
    assert [e.errors for e in chain.emulators] == [[], []], "the firmware broke the PN532 protocol"


def test_a_card_laid_on_the_hub_reaches_the_host_with_its_record(chain):
    chain.emulators[0].lay(CARD_17)
    chain.emulators[1].lay(RED_CAR)
    events = chain.events()
    assert events == [
        TagLaid("discard", CARD_17.uid, "toprace card 17"),
        TagLaid("cars", RED_CAR.uid, "toprace car red"),
    ]
    registry = TagRegistry(vocabulary=VOCAB)  # nothing enrolled: the records alone say what the tags are
    assert [registry.identify(e) for e in events] == [("card", 17), ("car", RED)]
    chain.emulators[0].lift()
    assert chain.events() == [TagLifted("discard", CARD_17.uid)]
    assert chain.events() == []  # a tag lying still is one event


def test_a_tag_without_a_record_is_laid_with_none(chain):
    chain.emulators[1].lay(BLANK)
    assert chain.events() == [TagLaid("cars", BLANK.uid, None)]


def test_the_record_is_read_only_as_far_as_it_reaches(chain):
    chain.emulators[0].lay(CARD_17)
    chain.events()
    reads = [frame for frame in chain.emulators[0].frames if frame[1:3] == b"\x40\x01"]
    assert len(reads) == 2  # 24 bytes of NDEF: two 16-byte reads, not all 36 pages


def test_a_silent_reader_is_reported_and_welcomed_back(chain):
    chain.events()
    chain.emulators[1].go_silent()
    assert chain.events() == [
        DeviceStatus("cars reader", False,
                     "the cars reader on the hub fails (no answer from the PN532): check its cable; still trying")
    ]
    chain.emulators[1].wake()
    chain.clock.now += 1.0  # the hub tries a failing reader again once a second
    chain.emulators[1].lay(RED_CAR)
    assert chain.events() == [
        DeviceStatus("cars reader", True, "the cars reader on the hub works again"),
        TagLaid("cars", RED_CAR.uid, "toprace car red"),
    ]
