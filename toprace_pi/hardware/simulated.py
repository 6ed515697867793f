"""A card reader without hardware, for the demo and the tests: tags are laid and lifted by calls.

It keeps the same promises as a real reader (one TagLaid per laying, a record
read from the tag, ReaderError while unplugged, an error after close) so that
code tested against it behaves the same on the table.
"""

from __future__ import annotations

from toprace_pi.hardware import Device, ReaderError
from toprace_pi.hardware.events import Event
from toprace_pi.hardware.ndef import encode_record
from toprace_pi.hardware.presence import TagPresence


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
