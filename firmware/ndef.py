"""NDEF text records in NTAG user memory: written by the host, read by the host and by the reader hub.

One file serves both sides: the host imports it as ``toprace_pi.hardware.ndef``
and ``firmware/ndef.py`` is a link to it, copied to the CIRCUITPY drive with the
firmware. Plain Python that runs on both CircuitPython and CPython: no
dataclasses, no typing, no f-strings.

Record format: an NDEF message in NTAG user memory from page 4: TLV ``03``,
length, one NDEF Text record (TNF 1, type ``T``, language ``en``, UTF-8), then
the terminator TLV ``FE``, padded with zeros to whole 4-byte pages.
"""

#: NTAG memory layout (NTAG213, the smallest of the family).
PAGE_SIZE = 4
FIRST_USER_PAGE = 4
USER_BYTES = 144
#: An NTAG READ answers 16 bytes: four pages.
READ_SIZE = 16

_NULL_TLV, _NDEF_TLV, _TERMINATOR_TLV = 0x00, 0x03, 0xFE
# NDEF record header bits: message begin/end, chunked, short record, id length present; TNF 1 = well known.
_MB, _ME, _CF, _SR, _IL = 0x80, 0x40, 0x20, 0x10, 0x08
_TNF_WELL_KNOWN = 0x01
_TEXT_TYPE = b"T"
_LANGUAGE = b"en"
_UTF16 = 0x80


def encode_record(text):
    """User memory (from page 4) holding ``text`` as the only NDEF Text record, padded to whole pages.

    Raises ValueError for a text that does not fit an NTAG213."""
    payload = bytes([len(_LANGUAGE)]) + _LANGUAGE + text.encode("utf-8")
    header = _MB | _ME | _SR | _TNF_WELL_KNOWN
    record = bytes([header, len(_TEXT_TYPE)]) + _length_byte(payload) + _TEXT_TYPE + payload
    tlv = bytes([_NDEF_TLV]) + _length_byte(record) + record + bytes([_TERMINATOR_TLV])
    memory = tlv + bytes(-len(tlv) % PAGE_SIZE)
    if len(memory) > USER_BYTES:
        raise ValueError("record %r needs %d bytes; an NTAG213 holds %d" % (text, len(memory), USER_BYTES))
    return memory


def _length_byte(data):
    if len(data) > 0xFE:
        raise ValueError("a part of %d bytes is too long for a short NDEF record" % len(data))
    return bytes([len(data)])


def read_record(read_pages):
    """The text record of the tag in the field, reading only as many pages as the record spans.

    ``read_pages(page)`` returns the 16 bytes from ``page`` on, or an empty value
    or None when the tag refuses (not an NTAG, or gone); its exceptions pass."""
    memory = b""
    for page in range(FIRST_USER_PAGE, FIRST_USER_PAGE + USER_BYTES // PAGE_SIZE, READ_SIZE // PAGE_SIZE):
        chunk = read_pages(page)
        if not chunk:
            break
        memory += bytes(chunk)
        if record_extent(memory) <= len(memory):
            break
    return decode_record(memory)


def decode_record(memory):
    """The text of the first NDEF record in user memory, or None for anything else. Never raises."""
    bounds = _message_bounds(memory)
    if bounds is None or bounds[1] > len(memory):
        return None
    return _text_of(memory[bounds[0] : bounds[1]])


def record_extent(memory):
    """How many bytes of user memory the NDEF message reaches to, as far as ``memory`` (its start) tells.

    More than ``len(memory)`` means: read on; 0 means there is no NDEF message.
    """
    bounds = _message_bounds(memory)
    return 0 if bounds is None else bounds[1]


def _message_bounds(memory):
    """(start, end) of the first NDEF message TLV's value, or None; the end may lie past ``memory``."""
    pos = 0
    while pos < len(memory):
        kind = memory[pos]
        if kind == _NULL_TLV:
            pos += 1
            continue
        if kind == _TERMINATOR_TLV:
            return None
        start, length = _tlv_header(memory, pos + 1)
        if kind == _NDEF_TLV:
            return start, start + length
        pos = start + length
    return None


def _tlv_header(memory, at):
    """Start and length of the value of a TLV whose length field is at ``at`` (1 byte, or FF and 2 bytes).

    When the field itself is cut off, the start returned lies past the end of ``memory``.
    """
    if at >= len(memory):
        return at + 1, 0
    if memory[at] != 0xFF:
        return at + 1, memory[at]
    if at + 3 > len(memory):
        return at + 3, 0
    return at + 3, int.from_bytes(memory[at + 1 : at + 3], "big")


def _text_of(message):
    """The text of the message's first record if it is an unchunked UTF-8 Text record."""
    if len(message) < 3:
        return None
    header, type_length = message[0], message[1]
    if not header & _MB or header & _CF or header & 0x07 != _TNF_WELL_KNOWN:
        return None
    size = 1 if header & _SR else 4
    payload_length = int.from_bytes(message[2 : 2 + size], "big")
    pos = 2 + size
    id_length = message[pos] if header & _IL and pos < len(message) else 0
    pos += 1 if header & _IL else 0
    record_type = message[pos : pos + type_length]
    payload_start = pos + type_length + id_length
    payload = message[payload_start : payload_start + payload_length]
    if record_type != _TEXT_TYPE or payload_start + payload_length > len(message) or not payload:
        return None
    return _text_payload(payload)


def _text_payload(payload):
    status = payload[0]
    text_start = 1 + (status & 0x3F)
    if status & _UTF16 or text_start > len(payload):
        return None
    try:
        return bytes(payload[text_start:]).decode("utf-8")
    except UnicodeError:  # CircuitPython has no UnicodeDecodeError
        return None
