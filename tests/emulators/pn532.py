"""A PN532 NFC reader on the far side of a pseudo-terminal, to test the real driver against.

The emulator speaks the PN532's HSU (UART) frame protocol on the master side of
an ``os.openpty()`` pair, in a background thread. The code under test opens
:attr:`Pn532Emulator.port` (the slave side) with real pyserial and talks to it
through the real ``adafruit_pn532`` driver, so the tests exercise the same bytes
a PN532 breakout would see. Frames, both ways::

    00 | 00 FF | LEN | LCS | TFI | PD0..PDn | DCS | 00

LEN counts TFI..PDn, LEN + LCS = 0 and TFI + PD0 + .. + PDn + DCS = 0 (mod 256),
TFI is D4 from the host and D5 from the PN532, whose reply code is the command
code + 1. Every well-formed command frame is ACKed with ``00 00 FF 00 FF 00``.

Tags can lie one at a time (:meth:`~Pn532Emulator.lay`) or pile up
(:meth:`~Pn532Emulator.stack`), as speed cards on the discard pile; with several in
the field, InListPassiveTarget finds the one anticollision selects, by UID.

Like the real chip, an InListPassiveTarget with no tag in the field is ACKed and
then left waiting (the driver never limits the retries): the answer comes when a
tag is laid, and the host must have given up by then. A host ACK aborts the
wait. Host frames that break the protocol are refused and listed in
:attr:`~Pn532Emulator.errors`, which a test fixture can require to stay empty.
"""

from __future__ import annotations

import os
import select
import threading
import tty
from typing import Literal

ACK = bytes.fromhex("0000ff00ff00")
#: The PN532's "application level error" frame, its answer to a command it cannot parse.
ERROR_FRAME = bytes.fromhex("0000ff01ff7f8100")
HOST_TO_PN532, PN532_TO_HOST = 0xD4, 0xD5
#: IC, version, revision, support: what a PN532 v1.6 reports.
FIRMWARE = bytes([0x32, 0x01, 0x06, 0x07])

SAM_CONFIGURATION = 0x14
GET_FIRMWARE_VERSION = 0x02
IN_LIST_PASSIVE_TARGET = 0x4A
IN_DATA_EXCHANGE = 0x40
NTAG_READ, NTAG_WRITE = 0x30, 0xA2

STATUS_OK = 0x00
#: InDataExchange status when no target answers (tag lifted).
STATUS_TIMEOUT = 0x01
#: InDataExchange status when the tag refuses the command (NAK); the value the real chip uses is not verified.
STATUS_NAK = 0x14

Where = Literal["ack", "reply"]


def checksum(data: bytes) -> int:
    """The byte that makes ``data`` plus itself sum to 0 mod 256 (LCS, DCS)."""
    return -sum(data) & 0xFF


def frame(data: bytes) -> bytes:
    """A normal information frame around ``data`` (TFI and PD bytes)."""
    if not 1 <= len(data) <= 254:
        raise ValueError(f"a normal frame carries 1 to 254 bytes, not {len(data)}")
    return bytes([0x00, 0x00, 0xFF, len(data), checksum(bytes([len(data)]))]) + data + bytes([checksum(data), 0x00])


def reply(code: int, payload: bytes = b"") -> bytes:
    return frame(bytes([PN532_TO_HOST, code]) + payload)


class Tag:
    """An NTAG213: a 7-byte NXP uid (``04...``) and 45 pages of 4 bytes.

    Pages 0-2 hold the uid with its check bytes and the static lock bytes, page 3
    the capability container ``E1 10 12 00`` (NDEF, 144 bytes of data), pages
    4-39 the user memory, which a new tag holds as an empty NDEF message; the
    lock and configuration pages 40-44 read as zeros here.
    Only user pages can be written here: lock, capability and configuration
    writes are not emulated and are refused like a NAK.
    """

    PAGES = 45
    FIRST_USER_PAGE, LAST_USER_PAGE = 4, 39
    CAPABILITY_CONTAINER = bytes.fromhex("e1101200")
    EMPTY_NDEF = bytes.fromhex("0300fe")

    def __init__(self, uid: bytes | str, user_memory: bytes = EMPTY_NDEF) -> None:
        uid = bytes.fromhex(uid) if isinstance(uid, str) else bytes(uid)
        if len(uid) != 7 or uid[0] != 0x04:
            raise ValueError(f"an NTAG uid is 7 bytes starting 04 (NXP), not {uid.hex()}")
        user_bytes = (self.LAST_USER_PAGE - self.FIRST_USER_PAGE + 1) * 4
        if len(user_memory) > user_bytes:
            raise ValueError(f"an NTAG213 holds {user_bytes} bytes of user memory, not {len(user_memory)}")
        self.uid = uid
        self.memory = bytearray(self.PAGES * 4)
        self.memory[0:12] = _uid_pages(uid)
        self.memory[12:16] = self.CAPABILITY_CONTAINER
        self.memory[16 : 16 + len(user_memory)] = user_memory

    def __repr__(self) -> str:
        return f"Tag({self.uid.hex()!r})"

    @property
    def user_memory(self) -> bytes:
        return bytes(self.memory[self.FIRST_USER_PAGE * 4 : (self.LAST_USER_PAGE + 1) * 4])

    def read(self, page: int) -> bytes | None:
        """READ: 16 bytes from ``page`` on, rolling over to page 0 past the end; ``None`` (NAK) past the last page."""
        if not 0 <= page < self.PAGES:
            return None
        doubled = self.memory + self.memory
        return bytes(doubled[page * 4 : page * 4 + 16])

    def write(self, page: int, data: bytes) -> bool:
        """WRITE: 4 bytes to a user page; ``False`` (NAK) for any other page."""
        if len(data) != 4 or not self.FIRST_USER_PAGE <= page <= self.LAST_USER_PAGE:
            return False
        self.memory[page * 4 : page * 4 + 4] = data
        return True


def _uid_pages(uid: bytes) -> bytes:
    """Pages 0-2: uid0-2, BCC0 (with the cascade tag 88), uid3-6, BCC1, internal byte 48, two lock bytes."""
    bcc0 = 0x88 ^ uid[0] ^ uid[1] ^ uid[2]
    bcc1 = uid[3] ^ uid[4] ^ uid[5] ^ uid[6]
    return uid[:3] + bytes([bcc0]) + uid[3:] + bytes([bcc1, 0x48, 0x00, 0x00])


class Pn532Emulator:
    """A PN532 on a pty; open :attr:`port` with pyserial. Use as a context manager or call :meth:`close`."""

    def __init__(self, *, field_depth: int | None = None) -> None:
        #: How many tags of a pile the field reaches, from the top (``None``: all of them).
        self.field_depth = field_depth
        self._master, self._slave = os.openpty()
        # Raw from the start: a cooked pty would echo the host's bytes back before pyserial opens it.
        tty.setraw(self._slave)
        self.port = os.ttyname(self._slave)
        self._stop_read, self._stop_write = os.pipe()
        self._lock = threading.RLock()
        self._buffer = bytearray()
        self._frames: list[bytes] = []
        self._errors: list[str] = []
        self._pile: list[Tag] = []  # bottom to top
        self._selected = False
        self._awaiting_tag = False
        self._silent = False
        self._noise: dict[Where, bytes] = {"ack": b"", "reply": b""}
        self._closed = False
        self._thread = threading.Thread(target=self._serve, name=f"pn532 emulator {self.port}", daemon=True)
        self._thread.start()

    def __repr__(self) -> str:
        state = "unplugged" if self._closed else "silent" if self._silent else "answering"
        return f"<Pn532Emulator {self.port} {state}, tag {self._tag!r}>"

    def __enter__(self) -> Pn532Emulator:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- what the tests see ----------------------------------------------------------------------------------------

    @property
    def frames(self) -> list[bytes]:
        """Every well-formed frame received, as its TFI and data bytes (``d4 4a 01 00``)."""
        with self._lock:
            return list(self._frames)

    @property
    def commands(self) -> list[int]:
        """The command code of every frame received."""
        return [data[1] for data in self.frames]

    @property
    def errors(self) -> list[str]:
        """Protocol violations by the host (and emulator failures), in order."""
        with self._lock:
            return list(self._errors)

    @property
    def tag(self) -> Tag | None:
        return self._tag

    @property
    def _tag(self) -> Tag | None:
        """The tag an InListPassiveTarget finds: with several in the field, the one the
        ISO 14443-3 anticollision selects (see :func:`anticollision_winner`)."""
        in_field = self._pile if self.field_depth is None else self._pile[-self.field_depth:]
        return anticollision_winner(in_field)

    # --- what the tests do -----------------------------------------------------------------------------------------

    def lay(self, tag: Tag) -> None:
        """Put ``tag`` in the field (replacing any other); answers an InListPassiveTarget still waiting."""
        with self._lock:
            self._pile = []
            self.stack(tag)

    def stack(self, tag: Tag) -> None:
        """Lay ``tag`` on top of the tags already there, as a card played onto the discard pile."""
        with self._lock:
            self._pile.append(tag)
            self._selected = False
            if self._awaiting_tag and not self._silent and self._tag is not None:
                self._awaiting_tag = False
                self._send(self._target_found())

    def lift(self) -> None:
        """Take every tag away."""
        with self._lock:
            self._pile = []
            self._selected = False

    def lift_top(self) -> None:
        """Take the top tag of the pile away; the ones below stay."""
        with self._lock:
            if self._pile:
                self._pile.pop()
            self._selected = False

    def garbage(self, noise: bytes, *, before: Where = "ack") -> None:
        """Send ``noise`` ahead of the ACK (or the reply) to the next command: line noise the host must survive.

        Noise sent at once would be pointless: the driver flushes its input before each command.
        """
        with self._lock:
            self._noise[before] += bytes(noise)

    def go_silent(self) -> None:
        """Stop answering anything, like a hung chip or a cut wire; frames are still recorded."""
        with self._lock:
            self._silent = True
            self._awaiting_tag = False

    def wake(self) -> None:
        with self._lock:
            self._silent = False

    def unplug(self) -> None:
        """Close the pty's master side: to the host the port is gone, as when a USB adapter is pulled."""
        self.close()

    def close(self) -> None:
        """Stop the thread and close the pty. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._awaiting_tag = False
            os.write(self._stop_write, b"x")
        self._thread.join(timeout=5)
        for fd in (self._master, self._slave, self._stop_read, self._stop_write):
            os.close(fd)

    # --- the line --------------------------------------------------------------------------------------------------

    def _serve(self) -> None:
        try:
            while True:
                ready, _, _ = select.select([self._master, self._stop_read], [], [])
                if self._stop_read in ready:
                    return
                data = os.read(self._master, 4096)
                with self._lock:
                    self._buffer += data
                    self._take_frames()
        except Exception as exc:  # a dead emulator thread must show up in the test, not vanish
            with self._lock:
                self._errors.append(f"emulator failed: {exc!r}")

    def _send(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self._master, view) :]

    def _report(self, problem: str) -> None:
        self._errors.append(problem)

    def _take_frames(self) -> None:
        while (data := self._next_frame()) is not None:
            self._frames.append(data)
            if not self._silent:
                self._answer(data[1], data[2:])

    def _next_frame(self) -> bytes | None:
        """Take the next command frame off the buffer (TFI and data), or ``None`` until one is complete.

        Wakeup bytes (55) and preambles (00) before a start code are fine; other
        junk, bad checksums and frames this emulator does not speak are refused.
        """
        buf = self._buffer
        while (start := buf.find(b"\x00\xff")) >= 0:
            self._skip(start)
            if len(buf) < 4:
                return None
            length, lcs = buf[2], buf[3]
            if (length, lcs) == (0x00, 0xFF):  # an ACK from the host aborts the command in progress
                del buf[:4]
                self._awaiting_tag = False
                continue
            if (length + lcs) & 0xFF:
                self._report(_length_problem(length, lcs))
                del buf[:2]
                continue
            if len(buf) < length + 6:
                return None
            data, dcs, postamble = bytes(buf[4 : 4 + length]), buf[4 + length], buf[5 + length]
            del buf[: length + 6]
            problem = _frame_problem(data, dcs, postamble)
            if problem is None:
                return data
            self._report(problem)
        self._skip(len(buf) - 1 if buf.endswith(b"\x00") else len(buf))  # a trailing 00 may begin a start code
        return None

    def _skip(self, count: int) -> None:
        junk = bytes(b for b in self._buffer[:count] if b not in (0x55, 0x00))
        if junk:
            self._report(f"junk before a frame: {junk.hex(' ')}")
        del self._buffer[:count]

    # --- the chip --------------------------------------------------------------------------------------------------

    def _answer(self, command: int, params: bytes) -> None:
        """ACK, then answer: in one write, so that a busy test machine cannot wedge a delay between the two."""
        self._awaiting_tag = False  # a new command ends any wait for a tag
        handler = {
            SAM_CONFIGURATION: self._sam_configuration,
            GET_FIRMWARE_VERSION: self._firmware_version,
            IN_LIST_PASSIVE_TARGET: self._in_list_passive_target,
            IN_DATA_EXCHANGE: self._in_data_exchange,
        }.get(command)
        if handler is None:
            self._report(f"command {command:02x} is not emulated")
            answer: bytes | None = ERROR_FRAME
        else:
            answer = handler(params)
        self._send(self._noise["ack"] + ACK + self._noise["reply"] + (answer or b""))
        self._noise = {"ack": b"", "reply": b""}

    def _bad(self, problem: str) -> bytes:
        self._report(problem)
        return ERROR_FRAME

    def _sam_configuration(self, params: bytes) -> bytes:
        if not 1 <= len(params) <= 3 or params[0] not in (1, 2, 3, 4):
            return self._bad(f"SAMConfiguration: bad parameters {params.hex(' ')}")
        return reply(SAM_CONFIGURATION + 1)

    def _firmware_version(self, params: bytes) -> bytes:
        if params:
            return self._bad(f"GetFirmwareVersion takes no parameters, got {params.hex(' ')}")
        return reply(GET_FIRMWARE_VERSION + 1, FIRMWARE)

    def _in_list_passive_target(self, params: bytes) -> bytes | None:
        if len(params) != 2 or params[0] not in (1, 2) or params[1] != 0x00:
            return self._bad(f"InListPassiveTarget: only 1-2 targets at 106 kbps type A, got {params.hex(' ')}")
        if self._tag is None:
            self._selected = False
            self._awaiting_tag = True
            return None
        return self._target_found()

    def _target_found(self) -> bytes:
        """One target: Tg 1, ATQA 00 44 and SAK 00 (NTAG21x), then the uid."""
        assert self._tag is not None
        self._selected = True
        return reply(IN_LIST_PASSIVE_TARGET + 1, bytes([1, 1, 0x00, 0x44, 0x00, 7]) + self._tag.uid)

    def _in_data_exchange(self, params: bytes) -> bytes:
        if len(params) < 2 or params[0] != 1:
            return self._bad(f"InDataExchange: needs target 1 and a tag command, got {params.hex(' ')}")
        if self._tag is None or not self._selected:
            return self._status(STATUS_TIMEOUT)
        command, args = params[1], params[2:]
        if command == NTAG_READ and len(args) == 1:
            data = self._tag.read(args[0])
            return self._status(STATUS_NAK) if data is None else self._status(STATUS_OK, data)
        if command == NTAG_WRITE and len(args) == 5:
            return self._status(STATUS_OK if self._tag.write(args[0], args[1:]) else STATUS_NAK)
        self._report(f"InDataExchange: tag command {params[1:].hex(' ')} is not emulated")
        return self._status(STATUS_NAK)

    def _status(self, status: int, data: bytes = b"") -> bytes:
        return reply(IN_DATA_EXCHANGE + 1, bytes([status]) + data)


def anticollision_winner(tags: list[Tag]) -> Tag | None:
    """Which of ``tags`` answers alone at the end of ISO 14443-3 anticollision.

    The reader sends the UID bits it has resolved, each byte least significant bit
    first; where the tags' answers collide it picks a value and carries on with the
    tags that agree. This emulator picks 1 at each collision, as many readers do;
    what the PN532's firmware picks is NOT verified. Either way the choice goes by
    UID, never by which tag came into the field last.
    """
    if not tags:
        return None
    return max(tags, key=lambda tag: bytes(int(f"{b:08b}"[::-1], 2) for b in tag.uid))


def _length_problem(length: int, lcs: int) -> str:
    if (length, lcs) == (0xFF, 0xFF):
        return "extended frames (LEN FF, LCS FF) are not emulated"
    if (length, lcs) == (0xFF, 0x00):
        return "NACK frames (asking to resend) are not emulated"
    return f"length checksum: LEN {length:02x} + LCS {lcs:02x} is not 0 mod 256"


def _frame_problem(data: bytes, dcs: int, postamble: int) -> str | None:
    if (sum(data) + dcs) & 0xFF:
        return f"data checksum wrong in frame {data.hex(' ')} (DCS {dcs:02x})"
    if postamble != 0x00:
        return f"postamble is {postamble:02x}, not 00, after frame {data.hex(' ')}"
    if len(data) < 2 or data[0] != HOST_TO_PN532:
        return f"frame {data.hex(' ')} does not start with TFI D4 and a command"
    return None
