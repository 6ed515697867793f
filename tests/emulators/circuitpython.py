"""CircuitPython's board modules on CPython, with PN532s on SPI or I2C, so that the hub's ``code.py`` runs here.

:func:`installed` puts stand-ins for ``board``, ``busio``, ``digitalio`` and
``usb_cdc`` into ``sys.modules`` for as long as a ``with`` block lasts; the
real ``adafruit_pn532.spi``/``.i2c``, ``adafruit_tca9548a`` and
``adafruit_bus_device`` run on top of them.

Behind each SPI chip-select pin, or each channel of the I2C multiplexer, sits
a :class:`~emulators.pn532.Pn532Emulator`. :class:`SpiPn532` speaks the
PN532's SPI framing to the driver (a first byte says data write, status read
or data read; every byte goes least significant bit first), :class:`I2cPn532`
its I2C framing (every read starts with a status byte), and both hand the
frames inside to the emulator over its pty, so the chip's answers are the
emulator's, byte for byte. :class:`I2cBus` plays the TCA9548A: a write to
0x70 picks the channels, and a PN532 answers at 0x24 only on its own channel.
``usb_cdc.data`` is the device's end of a pty; the host opens
:attr:`Board.port` with pyserial.

What is not emulated: bus timing and clock settings (recorded in
:attr:`SpiBus.settings`), I2C clock stretching, a chip-select line that
floats, and CircuitPython itself (its own interpreter and C modules).
"""

from __future__ import annotations

import errno
import importlib.util
import os
import select
import sys
import time
import tty
import types
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

from emulators.hub import FIRMWARE
from emulators.pn532 import Pn532Emulator
from toprace_pi.hardware.readers.hub import HubReader

_DATA_WRITE, _STATUS_READ, _DATA_READ = 0x01, 0x02, 0x03
_READY = 0x01
PN532_ADDRESS = 0x24
MUX_ADDRESS = 0x70


def reverse_bits(byte: int) -> int:
    return int(f"{byte:08b}"[::-1], 2)


class Pin:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"board.{self.name}"


class DigitalInOut:
    """``digitalio.DigitalInOut``: only what adafruit_bus_device uses of a chip-select pin."""

    def __init__(self, pin: Pin) -> None:
        self.pin = pin
        self.value = True
        self.output = False

    def switch_to_output(self, value: bool = False, **_: Any) -> None:
        self.output = True
        self.value = value


class Pn532Link:
    """The PN532's side of a bus: the frames the driver sends go to the emulator over its pty; the emulator's
    answers wait until the driver reads them."""

    def __init__(self, emulator: Pn532Emulator) -> None:
        self.emulator = emulator
        self._fd = os.open(emulator.port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        self._pending = bytearray()  # what the chip has to say, not yet read

    def send(self, frame: bytes) -> None:
        self._pull()
        self._pending.clear()  # a new command replaces whatever answer was still waiting
        os.write(self._fd, frame)

    def ready(self) -> bool:
        self._pull()
        return bool(self._pending)

    def take(self, count: int) -> bytes:
        """The next ``count`` bytes of the answer, zeros past its end."""
        self._pull(wait=0.0 if self._pending else 0.1)
        out, self._pending[:] = self._pending[:count], self._pending[count:]
        return bytes(out) + bytes(count - len(out))

    def _pull(self, wait: float = 0.0) -> None:
        """Take in what the emulator has sent; with ``wait``, give it that long to send something."""
        deadline = time.monotonic() + wait
        while True:
            ready, _, _ = select.select([self._fd], [], [], max(0.0, deadline - time.monotonic()) if wait else 0)
            if not ready:
                return
            try:
                self._pending += os.read(self._fd, 4096)
            except BlockingIOError:
                return
            wait = 0.0  # once something came, take only what is there

    def close(self) -> None:
        os.close(self._fd)


class SpiPn532(Pn532Link):
    """A PN532 in SPI mode: each chip-select period starts with data write, status read or data read."""

    def transfer(self, data: bytes) -> bytes:
        """One chip-select period: the bytes sent (as on the wire, LSB first) and the bytes read back."""
        plain = bytes(reverse_bits(b) for b in data)
        if not plain:
            return b""
        if plain[0] == _DATA_WRITE:
            self.send(plain[1:])
            answer = bytes(len(plain))
        elif plain[0] == _STATUS_READ:
            answer = bytes([0, _READY if self.ready() else 0]) + bytes(max(0, len(plain) - 2))
        elif plain[0] == _DATA_READ:
            answer = bytes([0]) + self.take(len(plain) - 1)
        else:
            answer = bytes(len(plain))
        return bytes(reverse_bits(b) for b in answer)


class I2cPn532(Pn532Link):
    """A PN532 in I2C mode: every read starts with its status byte (1: an answer is ready), then the answer."""

    def write(self, data: bytes) -> None:
        if data:  # an empty write is the bus probing for the chip
            self.send(data)

    def read(self, count: int) -> bytes:
        if not self.ready():
            return bytes(count)
        return bytes([_READY]) + (self.take(count - 1) if count > 1 else b"")


class SpiBus:
    """``busio.SPI``: transfers go to the device whose chip-select is low."""

    def __init__(self, board: Board, clock: Pin, MOSI: Pin | None = None, MISO: Pin | None = None) -> None:  # noqa: N803
        self.board = board
        self.pins = (clock, MOSI, MISO)
        self.settings: dict[str, Any] = {}
        board.buses.append(self)

    def try_lock(self) -> bool:
        return True

    def unlock(self) -> None:
        pass

    def configure(self, **settings: Any) -> None:
        self.settings = settings

    def write(self, buffer: bytes, start: int = 0, end: int | None = None) -> None:
        self._transfer(bytes(buffer[start:end]))

    def readinto(self, buffer: bytearray, start: int = 0, end: int | None = None, write_value: int = 0) -> None:
        end = len(buffer) if end is None else end
        buffer[start:end] = self._transfer(bytes([write_value]) * (end - start))

    def write_readinto(self, out: bytes, into: bytearray, out_start: int = 0, out_end: int | None = None,
                       in_start: int = 0, in_end: int | None = None) -> None:
        answer = self._transfer(bytes(out[out_start:out_end]))
        in_end = len(into) if in_end is None else in_end
        into[in_start:in_end] = answer[: in_end - in_start]

    def _transfer(self, data: bytes) -> bytes:
        selected = [pin for pin in self.board.selects if not pin.value]
        assert len(selected) <= 1, f"two chip-selects low at once: {selected}"
        device = self.board.devices.get(selected[0].pin.name) if selected else None
        return device.transfer(data) if device is not None else bytes(len(data))  # nobody there: MISO reads 0


class I2cBus:
    """``busio.I2C`` with a TCA9548A multiplexer on it and a PN532 (address 0x24) on some of its channels."""

    def __init__(self, board: Board, scl: Pin, sda: Pin) -> None:
        self.board = board
        self.pins = (scl, sda)
        self.channels_on = 0  # the multiplexer's channel mask
        board.buses.append(self)

    def try_lock(self) -> bool:
        return True

    def unlock(self) -> None:
        pass

    def writeto(self, address: int, buffer: bytes, *, start: int = 0, end: int | None = None) -> None:
        data = bytes(buffer[start:end])
        if address == MUX_ADDRESS and self.board.mux is not None:
            self.channels_on = data[0] if data else self.channels_on
            return
        self._device(address).write(data)

    def readfrom_into(self, address: int, buffer: bytearray, *, start: int = 0, end: int | None = None) -> None:
        end = len(buffer) if end is None else end
        buffer[start:end] = self._device(address).read(end - start)

    def _device(self, address: int) -> I2cPn532:
        mux = self.board.mux or {}
        found = [mux[c] for c in range(8) if self.channels_on >> c & 1 and c in mux and address == PN532_ADDRESS]
        if not found:
            raise OSError(errno.ENODEV, f"no answer at I2C address 0x{address:02x}")  # the address byte was NAKed
        assert len(found) == 1, "two PN532s at 0x24 on the bus at once: the multiplexer selects one channel at a time"
        return found[0]


class UsbData:
    """``usb_cdc.data``: the device's end of a pty."""

    def __init__(self, fd: int) -> None:
        self._fd = fd

    @property
    def in_waiting(self) -> int:
        ready, _, _ = select.select([self._fd], [], [], 0)
        return 64 if ready else 0

    def read(self, count: int) -> bytes:
        try:
            return os.read(self._fd, count)
        except BlockingIOError:
            return b""

    def write(self, data: bytes) -> int:
        return os.write(self._fd, data)


class Board:
    """The hub's board: PN532 emulators on SPI chip-select pins (``spi``, by pin name) or on the channels of a
    TCA9548A I2C multiplexer (``mux``, by channel; ``None``: no multiplexer), and a USB data port the host opens at
    :attr:`port`."""

    def __init__(self, spi: dict[str, Pn532Emulator] | None = None,
                 mux: dict[int, Pn532Emulator] | None = None) -> None:
        self.devices = {pin: SpiPn532(emulator) for pin, emulator in (spi or {}).items()}
        self.mux = None if mux is None else {channel: I2cPn532(emulator) for channel, emulator in mux.items()}
        self.selects: list[DigitalInOut] = []
        self.buses: list[Any] = []
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        os.set_blocking(self._master, False)
        self.port = os.ttyname(self._slave)
        self.usb = UsbData(self._master)

    def modules(self) -> dict[str, types.ModuleType]:
        board = _module("board", __getattr__=lambda name: Pin(name) if name.startswith("GP") else _no(name))
        busio = _module("busio", SPI=lambda clock, MOSI=None, MISO=None: SpiBus(self, clock, MOSI, MISO),  # noqa: N803
                        I2C=lambda scl, sda, **_: I2cBus(self, scl, sda))
        digitalio = _module("digitalio", DigitalInOut=self._digital_in_out,
                            Direction=types.SimpleNamespace(INPUT="input", OUTPUT="output"))
        usb_cdc = _module("usb_cdc", data=self.usb, console=None)
        return {"board": board, "busio": busio, "digitalio": digitalio, "usb_cdc": usb_cdc}

    def _digital_in_out(self, pin: Pin) -> DigitalInOut:
        made = DigitalInOut(pin)
        self.selects.append(made)
        return made

    def close(self) -> None:
        for device in [*self.devices.values(), *(self.mux or {}).values()]:
            device.close()
        for fd in (self._master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass


def _module(name: str, **attributes: Any) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__dict__.update(attributes)
    return module


def _no(name: str) -> Any:
    raise AttributeError(name)


@contextmanager
def installed(board: Board) -> Iterator[None]:
    """The board's modules importable by their CircuitPython names inside the block."""
    modules = board.modules()
    saved = {name: sys.modules.get(name) for name in modules}
    sys.modules.update(modules)
    try:
        yield
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


# --- the hub as flashed ------------------------------------------------------------------------------------------

#: The names the host gives the hub's four readers in :class:`HubDevice`.
READER_NAMES = ("discard", "cars", "seat1", "seat2")


def load_code_py() -> ModuleType:
    """``firmware/code.py`` under another name: ``code`` is a standard library module on CPython."""
    spec = importlib.util.spec_from_file_location("hub_code_py", FIRMWARE / "code.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class HubDevice:
    """The hub as flashed: code.py's make_hub and serve on the emulated board. Two readers answer, on GP17 and
    GP20 (``bus="spi"``) or on multiplexer channels 0 and 1 (``bus="i2c"``); settings.py names four."""

    def __init__(self, bus: str = "spi") -> None:
        self.emulators = [Pn532Emulator(), Pn532Emulator()]
        if bus == "spi":
            self.board = Board(spi={"GP17": self.emulators[0], "GP20": self.emulators[1]})
        else:
            self.board = Board(mux={0: self.emulators[0], 1: self.emulators[1]})
        self.code = load_code_py()
        self.host = HubReader(dict(enumerate(READER_NAMES)), port=self.board.port)
        assert self.host.poll() == []  # the host opens the port first: pyserial flushes what came before
        settings, wired = self.code.settings, self.code.settings.BUS
        settings.BUS = bus  # as if settings.py said so
        try:
            with installed(self.board):
                self.hub, self.port = self.code.make_hub()
        finally:
            settings.BUS = wired
        self.pending = b""

    def run(self, turns: int = 1) -> list:
        """Turns of the firmware's main loop, then what the host reads."""
        with installed(self.board):
            for _ in range(turns):
                self.pending = self.code.serve(self.hub, self.port, self.pending)
        return [event for _ in range(3) for event in self.host.poll()]

    def close(self) -> None:
        self.host.close()
        self.board.close()
        for emulator in self.emulators:
            emulator.close()
