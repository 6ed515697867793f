"""The reader hub on the host: an RP2040 that polls up to eight PN532 readers and reports over USB serial.

:class:`HubReader` is a CardReader for all the hub's readers at once: each
``TagLaid``/``TagLifted`` carries the name of the reader it happened on. The
line format lives in :mod:`toprace_pi.hardware.hub_protocol` (the same file as
``firmware/protocol.py``). pyserial is imported lazily.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from toprace_pi.hardware import Device, ReaderError
from toprace_pi.hardware import hub_protocol as protocol
from toprace_pi.hardware.events import DeviceStatus, Event, TagLaid, TagLifted
from toprace_pi.text import printable

log = logging.getLogger(__name__)

#: USB ids of a Raspberry Pi Pico running CircuitPython.
HUB_VID = 0x239A
HUB_PID = 0x80F4
BAUD_RATE = 115200
#: Reads take what has come and never wait: the table's loop polls every reader in turn.
READ_TIMEOUT = 0.0
HEARTBEAT_TIMEOUT = 3.0
BAD_LINES_IN_A_ROW = 3

SerialOpener = Callable[[str], Any]


def find_hub_port() -> str:
    """The device path of the hub's data port, found by USB VID/PID. Raises :class:`ReaderError`."""
    from serial.tools import list_ports

    ports = [p for p in list_ports.comports() if p.vid == HUB_VID and p.pid == HUB_PID]
    if not ports:
        raise ReaderError(f"no reader hub found (no USB serial port with id {HUB_VID:04X}:{HUB_PID:04X})")
    # With boot.py enabling the data port, CircuitPython shows two ports; the data one says "CDC2".
    # Without interface names, the data port is the second one (ttyACM0 console, ttyACM1 data).
    data = [p for p in ports if "CDC2" in (p.interface or "")]
    if data:
        return str(data[0].device)
    return str(sorted(p.device for p in ports)[-1])


def _open_serial(port: str) -> Any:
    import serial

    return serial.Serial(port, BAUD_RATE, timeout=READ_TIMEOUT, exclusive=True)  # one table per hub


class HubReader(Device):
    """All the readers of one hub. ``name_for_index`` names them (default: reader 0 is ``"discard"``)."""

    def __init__(
        self,
        name_for_index: dict[int, str] | None = None,
        *,
        port: str | None = None,
        clock: Callable[[], float] = time.monotonic,
        open_serial: SerialOpener | None = None,
        heartbeat_timeout: float = HEARTBEAT_TIMEOUT,
    ) -> None:
        self.name = "hub"
        self.names = dict(name_for_index) if name_for_index is not None else {0: "discard"}
        #: The port given, or ``None`` to find the hub by USB id at each (re)open.
        self.port = port
        self.heartbeat_timeout = heartbeat_timeout
        self._clock = clock
        self._open = open_serial or _open_serial
        self._serial: Any = None
        self._device = ""
        self._buffer = b""
        self._last_heard = 0.0
        self._last_seq: int | None = None
        self._bad_in_a_row = 0
        self._pending: ReaderError | None = None
        self._lying: dict[int, bytes] = {}
        # Tags lying when the hub said HELLO again (it restarted): it announces those still there before its
        # first BEAT; the rest were lifted meanwhile.
        self._before_restart: dict[int, bytes] = {}
        self._closed = False
        self._greeted = False
        self._opened_at = 0.0
        #: Counters for diagnostics.
        self.bad_lines = 0
        self.gaps = 0
        #: The hub's HELLO (version, reader count) and its last STATUS answer.
        self.hello: tuple[str, int] | None = None
        self.status: tuple[str, ...] | None = None

    def __repr__(self) -> str:
        return f"<HubReader {self._device or self.port or 'not connected yet'}>"

    @property
    def device(self) -> str:
        """The serial device the hub was last opened on, or ``""`` before the first."""
        return self._device

    def reader_name(self, index: int) -> str:
        return self.names.get(index, f"reader{index}")

    # --- CardReader ------------------------------------------------------------------------------------------------

    def poll(self) -> list[Event]:
        if self._closed:
            raise ReaderError("the reader hub is closed")
        if self._pending is not None:
            error, self._pending = self._pending, None
            raise error
        if self._serial is None:
            self._connect()
        events: list[Event] = []
        try:
            for line in self._read_lines():
                events.extend(self._handle(line))
            now = self._clock()
            if now - self._last_heard > self.heartbeat_timeout:
                raise ReaderError(
                    f"the reader hub on {self._device} sent nothing for {self.heartbeat_timeout:g} s (no heartbeat)"
                )
            if not self._greeted and now - self._opened_at > self.heartbeat_timeout:
                raise ReaderError(f"the device on {self._device} does not answer HELLO? like a reader hub "
                                  "(is the firmware from firmware/ on it?)")
        except ReaderError as exc:
            self._fail(exc, events)
        except OSError as exc:  # serial.SerialException is an OSError
            self._fail(ReaderError(f"the reader hub on {self._device} is gone: {exc}"), events, exc)
        return events

    def request_status(self) -> None:
        """Ask the hub for its readers' state; the answer lands in :attr:`status` during a later poll."""
        if self._serial is None:
            raise ReaderError("the reader hub is not connected")
        try:
            self._serial.write(protocol.STATUS_COMMAND + b"\n")
        except OSError as exc:
            self._disconnect()
            raise ReaderError(f"the reader hub on {self._device} is gone: {exc}") from exc

    def close(self) -> None:
        """Idempotent; any later poll raises :class:`ReaderError`."""
        self._closed = True
        self._disconnect()

    # --- inside ----------------------------------------------------------------------------------------------------

    def _connect(self) -> None:
        device = self.port if self.port is not None else find_hub_port()
        try:
            self._serial = self._open(device)
        except (OSError, ValueError) as exc:
            raise ReaderError(f"cannot open the reader hub on {device}: {exc}") from exc
        self._device = device
        self._buffer = b""
        self._opened_at = self._last_heard = self._clock()
        self._last_seq = None
        self._bad_in_a_row = 0
        self._greeted = False
        log.info("reader hub opened on %s", device)
        try:
            self._ask_hello()
        except ReaderError:
            self._disconnect()
            raise

    def _ask_hello(self) -> None:
        """Ask the hub to say HELLO and announce again every tag lying on its readers."""
        try:
            self._serial.write(protocol.HELLO_COMMAND + b"\n")
        except OSError as exc:
            raise ReaderError(f"the reader hub on {self._device} is gone: {exc}") from exc

    def _disconnect(self) -> None:
        serial, self._serial = self._serial, None
        if serial is not None:
            try:
                serial.close()
            except OSError:
                pass

    def _fail(self, error: ReaderError, events: list[Event], cause: BaseException | None = None) -> None:
        """Drop the port so the next poll reopens it; raise now, or after returning events already read."""
        self._disconnect()
        if cause is not None:
            error.__cause__ = cause
        if events:
            self._pending = error
            return
        raise error

    def _read_lines(self) -> list[bytes]:
        serial = self._serial
        chunk = serial.read(max(1, serial.in_waiting))
        if chunk:
            waiting = serial.in_waiting
            if waiting:
                chunk += serial.read(waiting)
        self._buffer += chunk
        *lines, self._buffer = self._buffer.split(b"\n")
        if len(self._buffer) > protocol.MAX_LINE:
            lines.append(self._buffer)  # no newline in sight: counts as one bad line
            self._buffer = b""
        return lines

    def _handle(self, line: bytes) -> list[Event]:
        """The events one line brings; a bad line is skipped, several in a row raise :class:`ReaderError`."""
        try:
            message = protocol.decode(line + b"\n")
        except protocol.ProtocolError as exc:
            self.bad_lines += 1
            self._bad_in_a_row += 1
            log.debug("reader hub: skipped a bad line %r: %s", line[:60], exc)
            if self._bad_in_a_row >= BAD_LINES_IN_A_ROW:
                raise ReaderError(
                    f"the reader hub on {self._device} sent {self._bad_in_a_row} bad lines in a row ({exc})"
                ) from exc
            return []
        self._bad_in_a_row = 0
        self._last_heard = self._clock()
        self._check_seq(message)
        handler: Callable[..., list[Event]] = getattr(self, f"_on_{message.kind.lower()}")
        return handler(*message.fields)

    def _on_hello(self, version: str, count: int) -> list[Event]:
        if version.split(".")[0] != protocol.VERSION.split(".")[0]:
            raise ReaderError(f"the reader hub speaks protocol {version}, this host {protocol.VERSION}")
        if self.hello is not None:  # the hub started again, or answered HELLO? after the port was reopened
            self._before_restart = dict(self._lying)
        self.hello = (version, count)
        self._greeted = True
        log.info("reader hub %s: firmware %s, %d readers", self._device, version, count)
        return self._unwired(count)

    def _on_status(self, *states: str) -> list[Event]:
        self.status = states
        return []

    def _on_error(self, index: int, text: str) -> list[Event]:
        """A reader fails: said, shown and logged with the hub's words made printable (they may hold any
        character, escaped on the line)."""
        name = self.reader_name(index)
        text = printable(text)
        log.warning("reader hub: the %s reader fails: %s", name, text)
        return [DeviceStatus(f"{name} reader", False, f"the {name} reader on the hub fails ({text}): "
                                                      "check its cable; still trying")]

    def _on_ready(self, index: int) -> list[Event]:
        name = self.reader_name(index)
        return [DeviceStatus(f"{name} reader", True, f"the {name} reader on the hub works again")]

    def _on_beat(self) -> list[Event]:
        """After a new HELLO, the first beat ends the re-announcements: tags not announced again were lifted."""
        gone, self._before_restart = self._before_restart, {}
        return [event for index, uid in gone.items() for event in self._on_lifted(index, uid)]

    def _on_laid(self, index: int, uid: bytes, record: str | None) -> list[Event]:
        if self._before_restart.get(index) == uid:
            del self._before_restart[index]
            return []  # announced again after a HELLO: it was lying already
        events: list[Event] = []
        if index in self._lying:  # its LIFTED line was lost
            events.append(TagLifted(self.reader_name(index), self._lying[index]))
        self._lying[index] = uid
        events.append(TagLaid(self.reader_name(index), uid, record))
        return events

    def _on_lifted(self, index: int, uid: bytes) -> list[Event]:
        if self._lying.get(index) != uid:
            return []
        del self._lying[index]
        return [TagLifted(self.reader_name(index), uid)]

    def _unwired(self, count: int) -> list[Event]:
        """A word at the table for readers named in the configuration that the hub does not have."""
        missing = sorted(self.names[i] for i in self.names if i >= count)
        if not missing:
            return []
        message = (f"the reader hub has {count} readers: {', '.join(missing)} not connected to it "
                   "(see CS_PINS in the hub's settings.py)")
        log.warning(message)
        return [DeviceStatus("reader hub", False, message)]

    def _check_seq(self, message: Any) -> None:
        seq = message.seq
        if message.kind == "HELLO":
            self._last_seq = seq  # the hub (re)started
            return
        if self._last_seq is not None and seq != (self._last_seq + 1) & 0xFFFF:
            self.gaps += 1
            log.warning("reader hub: sequence jumped from %d to %d (lines lost): asking it again", self._last_seq, seq)
            self._ask_hello()  # a lost LAID is announced again; a lost LIFTED shows at the next BEAT
        self._last_seq = seq
