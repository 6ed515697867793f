"""The line protocol between the reader hub (RP2040, CircuitPython) and the table's host.

One file serves both sides: the host imports it as
``toprace_pi.hardware.hub_protocol`` and ``firmware/protocol.py`` is a link to it,
copied to the CIRCUITPY drive with the firmware. See ``firmware/PROTOCOL.md`` for
the format. Plain Python that runs on both
CircuitPython and CPython: no dataclasses, no typing, no f-strings.
"""

VERSION = "1.1"
MAX_LINE = 200
MAX_READERS = 8

# kind -> (least, most) number of fields
KINDS = {
    "HELLO": (2, 2),  # firmware version, reader count
    "LAID": (3, 3),  # reader index, uid hex, record text or "-"
    "LIFTED": (2, 2),  # reader index, uid hex
    "ERROR": (2, 2),  # reader index, short message
    "READY": (1, 1),  # reader index: it answers again after an ERROR
    "BEAT": (0, 0),
    "STATUS": (1, MAX_READERS),  # "ok" or "failing", one per reader
}

STATUS_COMMAND = b"STATUS?"
#: The host's greeting on opening the port: the hub answers as if it had just started.
HELLO_COMMAND = b"HELLO?"

_HEX = "0123456789abcdefABCDEF"
_DIGITS = "0123456789"
# Characters sent as they are; everything else in a text field is %XX-escaped (UTF-8 bytes).
_PLAIN = "".join(chr(c) for c in range(0x21, 0x7F) if chr(c) not in "%*")


class ProtocolError(ValueError):
    """A line that is not a well-formed message of this protocol."""


class Message:
    """A decoded line. ``fields`` hold converted values: reader indexes and the
    reader count as ints, uids as bytes, a missing record as None, texts as str."""

    def __init__(self, seq, kind, fields):
        self.seq = seq
        self.kind = kind
        self.fields = tuple(fields)

    def __eq__(self, other):
        return (
            isinstance(other, Message)
            and self.seq == other.seq
            and self.kind == other.kind
            and self.fields == other.fields
        )

    def __repr__(self):
        return "Message(%r, %r, %r)" % (self.seq, self.kind, self.fields)


def bitwise_crc16(data):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor), bit by bit."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
    return crc


try:
    from binascii import crc_hqx
except ImportError:  # CircuitPython's binascii has no crc_hqx: the hub works it out bit by bit
    crc16 = bitwise_crc16
else:

    def crc16(data):
        """:func:`bitwise_crc16` in C, as CPython's binascii has it: the host checks every line it reads."""
        return crc_hqx(data, 0xFFFF)


def escape(text):
    """``text`` as a field: printable ASCII stays, the rest (space, %, *, non-ASCII) becomes %XX."""
    out = []
    for char in text:
        if char in _PLAIN:
            out.append(char)
        else:
            for byte in char.encode("utf-8"):
                out.append("%%%02X" % byte)
    return "".join(out)


def unescape(field):
    raw = bytearray()
    i = 0
    while i < len(field):
        char = field[i]
        if char == "%":
            pair = field[i + 1 : i + 3]
            if len(pair) != 2 or pair[0] not in _HEX or pair[1] not in _HEX:
                raise ProtocolError("bad escape in field " + repr(field))
            raw.append(int(pair, 16))
            i += 3
        elif char in _PLAIN:
            raw.append(ord(char))
            i += 1
        else:
            raise ProtocolError("bad character in field " + repr(field))
    try:
        return bytes(raw).decode("utf-8")
    except UnicodeError:
        raise ProtocolError("field is not UTF-8: " + repr(field))


def uid_hex(uid):
    return "".join("%02x" % b for b in uid)


def parse_uid(text):
    if not 2 <= len(text) <= 20 or len(text) % 2:
        raise ProtocolError("bad uid length: " + repr(text))
    for char in text:
        if char not in _HEX:
            raise ProtocolError("uid is not hex: " + repr(text))
    return bytes(int(text[i : i + 2], 16) for i in range(0, len(text), 2))


def _parse_number(text, top, what):
    if not text or len(text) > 5:
        raise ProtocolError("bad " + what + ": " + repr(text))
    for char in text:
        if char not in _DIGITS:
            raise ProtocolError("bad " + what + ": " + repr(text))
    value = int(text)
    if value > top:
        raise ProtocolError(what + " out of range: " + text)
    return value


def _to_field(value):
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "ok" if value else "failing"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, (bytes, bytearray)):
        return uid_hex(value)
    text = str(value)
    if text == "":
        raise ProtocolError("empty field")
    if text == "-":
        return "%2D"  # a bare "-" means "no record"
    return escape(text)


def encode(seq, kind, *fields):
    """One line (bytes, ending in newline). Raises ProtocolError for anything decode would refuse."""
    body = " ".join([str(seq & 0xFFFF), kind] + [_to_field(f) for f in fields])
    line = (body + " *%04X\n" % crc16(body.encode("ascii"))).encode("ascii")
    decode(line)  # checks kind, field count and length; raises ProtocolError
    return line


def _convert(kind, raw):
    if kind == "BEAT":
        return ()
    if kind == "STATUS":
        for value in raw:
            if value not in ("ok", "failing"):
                raise ProtocolError("bad status: " + repr(value))
        return tuple(raw)
    if kind == "HELLO":
        return (unescape(raw[0]), _parse_number(raw[1], MAX_READERS, "reader count"))
    index = _parse_number(raw[0], MAX_READERS - 1, "reader index")
    if kind == "READY":
        return (index,)
    if kind == "ERROR":
        return (index, unescape(raw[1]))
    uid = parse_uid(raw[1])
    if kind == "LIFTED":
        return (index, uid)
    record = None if raw[2] == "-" else unescape(raw[2])
    return (index, uid, record)


def decode(line):
    """The Message in ``line`` (bytes, the newline optional). Raises ProtocolError for anything malformed."""
    if len(line) > MAX_LINE:
        raise ProtocolError("line too long: %d bytes" % len(line))
    if line.endswith(b"\n"):
        line = line[:-1]
    if line.endswith(b"\r"):
        line = line[:-1]
    for byte in line:
        if byte < 0x20 or byte > 0x7E:
            raise ProtocolError("line is not printable ASCII")
    text = line.decode("ascii")
    cut = text.rfind(" *")
    if cut < 0:
        raise ProtocolError("no checksum")
    body = text[:cut]
    given = text[cut + 2 :]
    if len(given) != 4 or any(c not in _HEX for c in given):
        raise ProtocolError("bad checksum field: " + repr(given))
    if int(given, 16) != crc16(body.encode("ascii")):
        raise ProtocolError("checksum mismatch")
    parts = body.split(" ")
    if len(parts) < 2:
        raise ProtocolError("no kind")
    seq = _parse_number(parts[0], 0xFFFF, "sequence number")
    kind = parts[1]
    if kind not in KINDS:
        raise ProtocolError("unknown kind: " + repr(kind))
    raw = parts[2:]
    least, most = KINDS[kind]
    if not least <= len(raw) <= most:
        raise ProtocolError("%s takes %d to %d fields, not %d" % (kind, least, most, len(raw)))
    for field in raw:
        if not field:
            raise ProtocolError("empty field")
    return Message(seq, kind, _convert(kind, raw))
