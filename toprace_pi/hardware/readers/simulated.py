"""A card reader without hardware, for the demo and the tests: tags are laid and lifted by calls (or, for the
maker's tools, by keys: :class:`TypedTags`).

It keeps the same promises as a real reader (one TagLaid per laying, a record
read from the tag, ReaderError while unplugged, an error after close) so that
code tested against it behaves the same on the table.
"""

from __future__ import annotations

import os

from toprace_pi.hardware import Device, ReaderError
from toprace_pi.hardware.events import DeviceStatus, Event
from toprace_pi.hardware.keyboard import ENTER_KEYS, KeySource
from toprace_pi.hardware.ndef import encode_record
from toprace_pi.hardware.readers.presence import TagPresence

#: The keys that lay a new tag on :class:`TypedTags`: Enter or space.
LAY_KEYS = (*ENTER_KEYS, " ")


class SimulatedReader(Device):
    """A reader named ``name`` whose tags are laid with :meth:`lay` and taken away with :meth:`lift`.

    With ``pile=True`` it is the reader under the discard pile: a tag laid goes on
    top of the ones already there and :meth:`lift` takes the top one off, so the
    one below is read again. The reader sees the top tag (a reader tuned to see
    only the top of the pile; see hardware/README.md on what a real PN532 does
    under a pile). :meth:`nudge` makes it miss a few polls, as a card pushed
    aside does, after which the tag lying there is read again.
    """

    def __init__(self, name: str, *, pile: bool = False) -> None:
        self.name = name
        self.pile = pile
        # A simulated tag is never missed, so one empty poll means it was lifted.
        self._presence = TagPresence(name, misses_to_lift=1)
        self._tags: list[bytes] = []
        self._records: dict[bytes, str] = {}
        self._missing_polls = 0
        self._plugged = True
        self._closed = False

    def __repr__(self) -> str:
        lying = self._lying.hex() if self._lying else "no tag"
        return f"<SimulatedReader {self.name!r}: {lying}{'' if self._plugged else ', unplugged'}>"

    @property
    def tags(self) -> tuple[bytes, ...]:
        """The tags lying on the reader, bottom to top."""
        return tuple(self._tags)

    @property
    def _lying(self) -> bytes | None:
        """The tag the reader sees: the only one, or the top of the pile."""
        return self._tags[-1] if self._tags else None

    def lay(self, uid: bytes, record: str | None = None) -> None:
        """Lay the tag ``uid`` on the reader (on top of the pile, or replacing any other);
        ``record`` sets the text it carries.

        Without a record the tag keeps what was written to it before, like a real tag.
        """
        self._check_open()
        if not self.pile:
            self._tags.clear()
        self._tags.append(bytes(uid))
        if record is not None:
            self._records[bytes(uid)] = record

    def lift(self) -> None:
        """Take the tag (the pile's top one) away."""
        self._check_open()
        if self._tags:
            self._tags.pop()

    def nudge(self, polls: int = 3) -> None:
        """The next ``polls`` polls miss the tag lying there; then it is read again."""
        self._check_open()
        self._missing_polls = polls

    def unplug(self) -> None:
        self._check_open()
        self._plugged = False

    def replug(self) -> None:
        self._check_open()
        self._plugged = True

    def poll(self) -> list[Event]:
        self._check_reachable()
        seen = self._lying
        if self._missing_polls:
            self._missing_polls -= 1
            seen = None
        return list(self._presence.update(seen, self._records.get(seen) if seen is not None else None))

    def write_record(self, text: str) -> bool:
        """Store ``text`` on the tag lying here; ``False`` when there is none. Long texts fail as on an NTAG213."""
        self._check_reachable()
        encode_record(text)  # refuses a text too long for an NTAG213, as the real reader does
        if self._lying is None:
            return False
        self._records[self._lying] = text
        return True

    def close(self) -> None:
        """Idempotent; any later use raises :class:`ReaderError`."""
        self._closed = True

    def _check_open(self) -> None:
        if self._closed:
            raise ReaderError(f"the {self.name} reader (simulated) is closed")

    def _check_reachable(self) -> None:
        self._check_open()
        if not self._plugged:
            raise ReaderError(f"the {self.name} reader (simulated) is unplugged")


def made_up_uid() -> bytes:
    """A 7-byte UID as an NTAG's looks (NXP's 0x04 first), random so that no two tags laid share one."""
    return b"\x04" + os.urandom(6)


class TypedTags(Device):
    """The simulated ``reader`` with tags laid from the keyboard ``keys``, for the maker's tools on a table
    without readers: each Enter (or space) lays a tag never seen before in place of the one lying there,
    as a person lays one card after another. One key a poll, so that every tag is seen laid."""

    def __init__(self, reader: SimulatedReader, keys: KeySource) -> None:
        self.reader = reader
        self.keys = keys
        self.name = reader.name
        self._pending: list[str] = []

    def __repr__(self) -> str:
        return f"<TypedTags on {self.reader!r}>"

    def poll(self) -> list[Event]:
        self._pending.extend(self.keys.read())
        news: list[Event] = []
        while self._pending:
            key = self._pending.pop(0)
            if key in LAY_KEYS:
                self.reader.lay(made_up_uid())
                break
            news.append(DeviceStatus(self.name, True, f"the key {key!r} lays nothing: Enter lays the next tag"))
        return news + self.reader.poll()

    def write_record(self, text: str) -> bool:
        return self.reader.write_record(text)

    def close(self) -> None:
        """Idempotent: lets go of the keys (a terminal is set back) and the reader."""
        self.keys.close()
        self.reader.close()
