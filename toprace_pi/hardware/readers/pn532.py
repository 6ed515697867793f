"""A PN532 NFC reader as a :class:`~toprace_pi.hardware.readers.CardReader`, on the real adafruit driver.

The driver (adafruit-circuitpython-pn532 2.4.9) blocks; reports line noise as
bare RuntimeErrors or IndexErrors; returns "no card" both when no tag is there
and when the chip does not answer at all; lets an unplugged serial port surface
as ``termios.error`` (from pyserial's input flush, no OSError) and swallows the
OSError of a failed write; and leaves every recovery to its caller. This module
keeps all of that inside :meth:`Pn532Reader.poll`: a failed exchange is retried
with back-off, reported as :class:`ReaderError` once it keeps failing or the
port is gone, and the chip is set up again when it answers again.
"""

from __future__ import annotations

import termios
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any, Literal

from toprace_pi.hardware import Device, ReaderError
from toprace_pi.hardware.events import Event
from toprace_pi.hardware.ndef import FIRST_USER_PAGE, PAGE_SIZE, encode_record, read_record
from toprace_pi.hardware.readers.presence import TagPresence

Bus = Literal["uart", "i2c", "spi"]
#: The buses a PN532 may be on.
BUSES: tuple[Bus, ...] = ("uart", "i2c", "spi")

BAUD_RATE = 115200
#: Longest wait for the bytes of one serial read; reads end as soon as a whole frame is in.
READ_TIMEOUT = 0.05
#: A live PN532 ACKs within milliseconds; a longer wait only costs time when it is gone.
ACK_TIMEOUT = 0.1
#: One InDataExchange round trip (an NTAG READ or WRITE).
EXCHANGE_TIMEOUT = 0.1
#: Seconds between tries after a failure: doubling from the first to the last.
BACKOFF_FIRST, BACKOFF_MAX = 0.05, 2.0
MAX_FAILURES = 5

_ACK = bytes.fromhex("00 00 ff 00 ff 00")
_WAKEUP = b"\x55\x55" + bytes(15)
# SAMConfiguration (normal mode, timeout 1 s, use IRQ) and its reply, as the driver's constructor sends it.
_SAM_CONFIGURATION = bytes.fromhex("00 00 ff 05 fb d4 14 01 14 01 02 00")
_SAM_REPLY = bytes.fromhex("00 00 ff 02 fe d5 15 16 00")
_IN_DATA_EXCHANGE = 0x40
_NTAG_READ, _NTAG_WRITE = 0x30, 0xA2
_CAPABILITY_PAGE = 3
_NDEF_MAGIC = 0xE1


class _Trouble(Exception):
    """One failed exchange with the chip; ``lost`` when the port or bus itself is gone.

    Deliberately not an OSError: the driver swallows OSErrors raised while it writes.
    """

    def __init__(self, message: str, *, lost: bool = False) -> None:
        super().__init__(message)
        self.lost = lost


@dataclass(frozen=True)
class _Link:
    """A working connection: the driver, how to release its bus, and what the chip said it is."""

    driver: Any
    close: Callable[[], None]
    firmware: tuple[int, int, int, int]


class Pn532Reader(Device):
    """A PN532 on a UART (a serial port), I2C or SPI; ``name`` is the reader's place on the table.

    Nothing is opened until the first :meth:`poll` (or :attr:`firmware_version`),
    so the table starts even with the reader unplugged. ``clock`` times the back-off
    only; tests pass a fake one.
    """

    def __init__(
        self,
        name: str,
        *,
        bus: Bus = "uart",
        port: str = "/dev/serial0",
        address: int = 0x24,
        cs_pin: str = "D5",
        poll_timeout: float = 0.05,
        misses_to_lift: int = 3,
        max_failures: int = MAX_FAILURES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if bus not in BUSES:
            raise ValueError(f"bus must be one of {', '.join(BUSES)}, not {bus!r}")
        self.name = name
        self.bus = bus
        self.port = port
        self.address = address
        self.cs_pin = cs_pin
        self.poll_timeout = poll_timeout
        self.max_failures = max_failures
        self._clock = clock
        self._presence = TagPresence(name, misses_to_lift=misses_to_lift)
        self._link: _Link | None = None
        self._closed = False
        self._failures = 0
        self._error_count = 0
        self._backoff = BACKOFF_FIRST
        self._lost = False
        self._retry_at = float("-inf")

    def __repr__(self) -> str:
        return f"<Pn532Reader {self.name!r} {self.bus} {self._place}>"

    @property
    def _place(self) -> str:
        return {"uart": self.port, "i2c": f"0x{self.address:02x}", "spi": f"cs {self.cs_pin}"}[self.bus]

    @property
    def _where(self) -> str:
        return f"the {self.name} reader (PN532 on {self.bus} {self._place})"

    @property
    def failures(self) -> int:
        """Failed tries in a row (0 once a poll works again)."""
        return self._failures

    @property
    def error_count(self) -> int:
        """Failed tries since the reader was made, for diagnostics."""
        return self._error_count

    @property
    def firmware_version(self) -> tuple[int, int, int, int]:
        """(IC, version, revision, support) as the chip reported when connected; connects if need be."""
        self._check_open()
        try:
            return (self._link or self._connect()).firmware
        except _Trouble as trouble:
            raise ReaderError(f"{self._where}: {trouble}") from trouble

    def poll(self) -> list[Event]:
        """One short look: the tag events since the last poll; ``[]`` while backing off after a failure.

        Raises :class:`ReaderError` after ``max_failures`` failed tries in a row,
        and at once when the port is gone; later polls keep trying to reconnect.
        """
        self._check_open()
        if self._clock() < self._retry_at:
            if self._lost:  # once reported lost, it stays lost until a poll succeeds
                raise ReaderError(f"{self._where}: still unreachable; retrying")
            return []
        try:
            events = self._poll_once()
        except _Trouble as trouble:
            self._failed(trouble)
            return []
        self._failures = 0
        self._lost = False
        self._backoff = BACKOFF_FIRST
        return events

    def write_record(self, text: str) -> bool:
        """Write ``text`` as the record of the NTAG lying on the reader now, and read it back.

        ``False`` when no tag lies there, the tag is not an NDEF-formatted NTAG
        with room for the record, or it refused the write. Raises
        :class:`ReaderError` when the reader cannot be reached.
        """
        self._check_open()
        memory = encode_record(text)
        try:
            return self._write(memory, text)
        except _Trouble as trouble:
            if trouble.lost:
                self._disconnect()
            raise ReaderError(f"{self._where}: writing the record failed: {trouble}") from trouble

    def close(self) -> None:
        """Release the port. Idempotent."""
        self._disconnect()
        self._closed = True

    # --- failures -------------------------------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise ReaderError(f"{self._where} is closed")

    def _failed(self, trouble: _Trouble) -> None:
        """Back off; raise once the failures keep coming or the port is gone, and start afresh next time."""
        self._failures += 1
        self._error_count += 1
        self._retry_at = self._clock() + self._backoff
        self._backoff = min(self._backoff * 2, BACKOFF_MAX)
        if trouble.lost or self._failures >= self.max_failures:
            self._lost = True
            self._disconnect()
            tries = f"; {self._failures} failed tries in a row" if self._failures > 1 else ""
            raise ReaderError(f"{self._where}: {trouble}{tries}; retrying") from trouble

    def _disconnect(self) -> None:
        link, self._link = self._link, None
        if link is not None:
            with suppress(OSError):  # closing a port that vanished may complain; it is closed either way
                link.close()

    # --- one look -------------------------------------------------------------------------------------------------

    def _poll_once(self) -> list[Event]:
        driver = self._driver()
        uid = self._read_uid(driver)
        record = self._read_record(driver) if uid is not None and uid != self._presence.current else None
        return list(self._presence.update(uid, record))

    def _driver(self) -> Any:
        return (self._link or self._connect()).driver

    def _read_uid(self, driver: Any) -> bytes | None:
        """The uid of the tag in the field, or ``None``. Two halves so that silence is told apart from "no tag"."""
        with _driver_errors():
            if not driver.listen_for_passive_target(timeout=ACK_TIMEOUT):
                raise _Trouble("no answer from the PN532 (is it powered and connected?)")
            uid = driver.get_passive_target(timeout=self.poll_timeout)
        if uid is not None and not uid:
            raise _Trouble("garbled answer from the PN532: a tag with an empty uid")
        return None if uid is None else bytes(uid)

    def _read_record(self, driver: Any) -> str | None:
        """The text record of the tag just listed."""
        text: str | None = read_record(lambda page: self._read_pages(driver, page))
        return text

    def _read_pages(self, driver: Any, page: int) -> bytes:
        """16 bytes from ``page`` on (NTAG READ), or ``b""`` when the tag refuses (not an NTAG, or gone)."""
        data = self._exchange(driver, bytes([_NTAG_READ, page]), response_length=17)
        if data is not None and len(data) != 16:
            raise _Trouble(f"garbled answer from the PN532: {len(data)} bytes read from page {page}, not 16")
        return data or b""

    def _exchange(self, driver: Any, command: bytes, *, response_length: int) -> bytes | None:
        """Send a tag command through InDataExchange: its answer, or ``None`` when the tag did not take it."""
        with _driver_errors():
            response = driver.call_function(
                _IN_DATA_EXCHANGE, response_length=response_length, params=b"\x01" + command, timeout=EXCHANGE_TIMEOUT
            )
        if not response:
            raise _Trouble("no answer from the PN532 to a tag command")
        return bytes(response[1:]) if response[0] == 0x00 else None

    def _write(self, memory: bytes, text: str) -> bool:
        driver = self._driver()
        if self._read_uid(driver) is None or not self._has_room(driver, len(memory)):
            return False
        for offset in range(0, len(memory), PAGE_SIZE):
            command = bytes([_NTAG_WRITE, FIRST_USER_PAGE + offset // PAGE_SIZE]) + memory[offset : offset + PAGE_SIZE]
            if self._exchange(driver, command, response_length=1) is None:
                return False
        return self._read_record(driver) == text

    def _has_room(self, driver: Any, size: int) -> bool:
        """Whether the capability container (page 3) says NDEF with at least ``size`` bytes of data area."""
        container = self._read_pages(driver, _CAPABILITY_PAGE)[:4]
        return len(container) == 4 and container[0] == _NDEF_MAGIC and container[2] * 8 >= size

    # --- connecting -----------------------------------------------------------------------------------------------

    def _connect(self) -> _Link:
        opener = {"uart": self._open_uart, "i2c": self._open_i2c, "spi": self._open_spi}[self.bus]
        self._link = opener()
        return self._link

    def _open_uart(self) -> _Link:
        import serial
        from adafruit_pn532.uart import PN532_UART

        try:
            port = _UartPort(serial.Serial(self.port, BAUD_RATE, timeout=READ_TIMEOUT, exclusive=True))
        except (OSError, ValueError) as exc:
            raise _Trouble(f"cannot open {self.port}: {exc}", lost=True) from exc
        return _start(lambda: PN532_UART(port) if port.wake() else None, port.close)

    def _open_i2c(self) -> _Link:
        import board
        import busio
        from adafruit_pn532.i2c import PN532_I2C

        with _bus_errors("I2C"):
            i2c = busio.I2C(board.SCL, board.SDA)
        return _start(lambda: PN532_I2C(i2c, address=self.address), i2c.deinit)

    def _open_spi(self) -> _Link:
        import board
        import busio
        import digitalio
        from adafruit_pn532.spi import PN532_SPI

        with _bus_errors("SPI"):
            spi = busio.SPI(board.SCK, board.MOSI, board.MISO)
            cs = digitalio.DigitalInOut(getattr(board, self.cs_pin))

        def close() -> None:
            cs.deinit()
            spi.deinit()

        return _start(lambda: PN532_SPI(spi, cs), close)


def _start(make_driver: Callable[[], Any], close: Callable[[], None]) -> _Link:
    """Make the driver (which wakes and configures the chip) and read its firmware; release the bus on failure."""
    try:
        with _driver_errors():
            driver = make_driver()
            if driver is None:
                raise _Trouble("no answer from the PN532 when waking it")
            firmware = bytes(driver.firmware_version)
            if len(firmware) != 4:
                raise _Trouble(f"garbled answer from the PN532: firmware version {firmware.hex(' ')}")
    except BaseException:
        close()
        raise
    ic, version, revision, support = firmware
    return _Link(driver, close, (ic, version, revision, support))


@contextmanager
def _driver_errors() -> Iterator[None]:
    """Turn what the driver raises on line noise or a failing bus into :class:`_Trouble`.

    RuntimeError: a bad ACK, frame or checksum (noise, or a reply that came after
    the driver gave up). BusyError: nothing to read. IndexError: a frame too short
    for the bytes the driver picks out of it. OSError: an I2C or SPI transfer failed
    (UART errors arrive as _Trouble already).
    """
    from adafruit_pn532.adafruit_pn532 import BusyError

    try:
        yield
    except (RuntimeError, BusyError, IndexError, OSError) as exc:
        reason = exc.args[0] if exc.args else "no detail"
        raise _Trouble(f"garbled or missing answer from the PN532 ({type(exc).__name__}: {reason})") from exc


@contextmanager
def _bus_errors(bus: str) -> Iterator[None]:
    """The bus library's failures as the reader's trouble; off a Pi Blinka has no I2C or SPI pins to give
    and says so with an ImportError."""
    try:
        yield
    except (OSError, ValueError, RuntimeError, AttributeError, ImportError) as exc:
        raise _Trouble(f"cannot open the {bus} bus: {exc}", lost=True) from exc


class _UartPort:
    """A pyserial port as the driver's ``uart``, mending two things.

    Reads end when a whole frame is in: the driver asks for the longest answer it
    could get (73 bytes to list a tag whose answer is 22), so plain pyserial waits
    out its timeout on every tag seen. And a vanished port raises
    :class:`_Trouble`: the driver would swallow pyserial's OSError on a write and
    report "no tag", and a flush on a dead pty raises termios.error, no OSError at all.
    """

    def __init__(self, serial: Any) -> None:
        self._serial = serial

    @property
    def in_waiting(self) -> int:
        with _port_errors():
            return int(self._serial.in_waiting)

    def reset_input_buffer(self) -> None:
        with _port_errors():
            self._serial.reset_input_buffer()

    def write(self, data: bytes) -> None:
        with _port_errors():
            self._serial.write(data)

    def read(self, count: int) -> bytes:
        data = bytearray()
        with _port_errors():
            while (wanted := _missing(data, count)) > 0:
                chunk = self._serial.read(wanted)
                if not chunk:
                    break
                data += chunk
        return bytes(data)

    def wake(self) -> bool:
        """Wake the chip and configure its SAM as the driver's constructor does, but give up after a short wait.

        The driver waits 1.5 s for a chip that does not answer; this runs on every reconnect.
        """
        self.reset_input_buffer()
        self.write(_WAKEUP + _SAM_CONFIGURATION)
        deadline = time.monotonic() + ACK_TIMEOUT
        while not self.in_waiting:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.005)
        return self.read(len(_ACK)) == _ACK and self.read(len(_SAM_REPLY)) == _SAM_REPLY

    def close(self) -> None:
        self._serial.close()


def _missing(data: bytes | bytearray, count: int) -> int:
    """How many more bytes complete the first frame in ``data`` (an ACK or a normal frame), at most up to ``count``."""
    room = count - len(data)
    start = data.find(b"\x00\xff")
    if start < 0:
        return min(room, max(1, len(_ACK) - len(data)))
    if len(data) < start + 4:
        return min(room, start + 4 - len(data))
    length, lcs = data[start + 2], data[start + 3]
    if (length, lcs) == (0x00, 0xFF):
        end = start + 5  # 00 FF 00 FF 00
    elif (length + lcs) & 0xFF:
        return 0  # not a frame: hand it over, the driver reports it
    else:
        end = start + 4 + length + 2  # data, DCS, postamble
    return min(room, end - len(data))


@contextmanager
def _port_errors() -> Iterator[None]:
    try:
        yield
    except (OSError, termios.error) as exc:
        reason = exc.args[-1] if isinstance(exc, termios.error) and exc.args else exc
        raise _Trouble(f"the serial port is gone ({reason})", lost=True) from exc
