"""The reader hub's logic, free of CircuitPython modules so it runs under CPython in the tests.

``Hub(readers, write, clock)``: ``readers`` are PN532-like objects (duck-typed:
``read_passive_target(timeout=...)`` returns a uid or None; any exception counts
as a reader failure), ``write(bytes)`` sends one encoded line to the host,
``clock()`` returns seconds (``time.monotonic``). Call ``step()`` in a loop and
``command(line)`` for each line the host sends.
"""

import protocol

MISSES_TO_LIFT = 3
BEAT_INTERVAL = 1.0
# A failing reader is tried again after 1 s, then 2, 4, 8 and at most 16 s: each try on a PN532 that does not
# answer holds up the loop for the driver's waits (about 0.25 s as code.py caps them), stalling the readers that work.
RETRY_INTERVAL = 1.0
RETRY_MAX = 16.0
READ_TIMEOUT = 0.05
# Escaped length of the longest record sent; a LAID line with it stays under the protocol's 200 bytes.
MAX_RECORD = 120


class _Slot:
    def __init__(self, reader):
        self.reader = reader
        self.current = None  # uid (bytes) taken to lie on the reader
        self.misses = 0
        self.failing = False
        self.retry_at = 0.0
        self.retry_interval = RETRY_INTERVAL


class Hub:
    def __init__(self, readers, write, clock, read_timeout=READ_TIMEOUT, read_record=None):
        if len(readers) > protocol.MAX_READERS:
            raise ValueError("at most %d readers" % protocol.MAX_READERS)
        self._slots = [_Slot(r) for r in readers]
        self._write = write
        self._clock = clock
        self._read_timeout = read_timeout
        # read_record(reader, uid) -> text or None: the tag's text record, when the firmware can read it.
        self._read_record = read_record
        self._seq = 0
        self._started = False
        self._next_beat = 0.0

    def send(self, kind, *fields):
        line = protocol.encode(self._seq, kind, *fields)
        self._seq = (self._seq + 1) & 0xFFFF
        self._write(line)

    def step(self):
        """Poll every reader once; send HELLO first, BEAT once a second."""
        if not self._started:
            self._greet()
        for index in range(len(self._slots)):
            self._poll(index)
        now = self._clock()
        if now >= self._next_beat:
            self.send("BEAT")
            self._next_beat += BEAT_INTERVAL  # no drift
            if self._next_beat <= now:  # fell far behind: start again from now
                self._next_beat = now + BEAT_INTERVAL

    def command(self, line):
        """Answer one line from the host; unknown commands are ignored."""
        line = bytes(line).strip()
        if line == protocol.HELLO_COMMAND:
            self._greet()
        elif line == protocol.STATUS_COMMAND and self._slots:
            self.send("STATUS", *[not slot.failing for slot in self._slots])

    def _greet(self):
        """Say HELLO as at a start: the count starts again, and tags lying now are announced again."""
        self._started = True
        self._seq = 0
        self.send("HELLO", protocol.VERSION, len(self._slots))
        self._next_beat = self._clock() + BEAT_INTERVAL
        for slot in self._slots:
            slot.current = None
            slot.misses = 0

    def _poll(self, index):
        slot = self._slots[index]
        if slot.failing and self._clock() < slot.retry_at:
            return
        try:
            uid = slot.reader.read_passive_target(timeout=self._read_timeout)
        except Exception as exc:  # a PN532 that is unplugged or confused raises all kinds
            self._failed(index, exc)
            return
        if slot.failing:
            slot.failing = False
            slot.retry_interval = RETRY_INTERVAL
            self.send("READY", index)
        if uid is None:
            self._missed(index)
        elif bytes(uid) == slot.current:
            slot.misses = 0
        else:
            self._laid(index, bytes(uid))

    def _missed(self, index):
        """No tag this time: a tag lying there is taken as lifted only after a few misses in a row."""
        slot = self._slots[index]
        if slot.current is not None:
            slot.misses += 1
            if slot.misses >= MISSES_TO_LIFT:
                self._lift(index)

    def _laid(self, index, uid):
        """A new tag on the reader (one lying there before counts as lifted)."""
        self._lift(index)
        slot = self._slots[index]
        slot.current = uid
        self.send("LAID", index, uid, self._record(slot.reader, uid))

    def _record(self, reader, uid):
        """The tag's text record if it can be read and fits one line, else None (the host reads "no record")."""
        if self._read_record is None:
            return None
        try:
            record = self._read_record(reader, uid)
        except Exception:
            return None
        if not record or len(protocol.escape(record)) > MAX_RECORD:
            return None
        return record

    def _failed(self, index, exc):
        """Report a reader's first failure; try it again later, each time after a longer wait."""
        slot = self._slots[index]
        if slot.failing:
            slot.retry_interval = min(slot.retry_interval * 2, RETRY_MAX)
        else:
            slot.failing = True
            message = (str(exc) or type(exc).__name__)[:40]
            self.send("ERROR", index, message)
        slot.retry_at = self._clock() + slot.retry_interval

    def _lift(self, index):
        slot = self._slots[index]
        if slot.current is not None:
            self.send("LIFTED", index, slot.current)
        slot.current = None
        slot.misses = 0
