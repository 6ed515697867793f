"""A card reader without hardware, for the demo and the tests: tags are laid and lifted by calls.

It keeps the same promises as a real reader (one TagLaid per laying, a record
read from the tag, ReaderError while unplugged, an error after close) so that
code tested against it behaves the same on the table.
"""

from __future__ import annotations

from dataclasses import replace

from toprace_pi.hardware import Device, ReaderError
from toprace_pi.hardware.events import Event, TagLaid
from toprace_pi.hardware.ndef import encode_record
from toprace_pi.hardware.presence import TagPresence


class SimulatedReader(Device):
    """A reader named ``name`` whose tags are laid with :meth:`lay` and taken away with :meth:`lift`."""

    def __init__(self, name: str) -> None:
        self.name = name
        # A simulated tag is never missed, so one empty poll means it was lifted.
        self._presence = TagPresence(name, misses_to_lift=1)
        self._lying: bytes | None = None
        self._records: dict[bytes, str] = {}
        self._plugged = True
        self._closed = False

    def __repr__(self) -> str:
        lying = self._lying.hex() if self._lying else "no tag"
        return f"<SimulatedReader {self.name!r}: {lying}{'' if self._plugged else ', unplugged'}>"

    def lay(self, uid: bytes, record: str | None = None) -> None:
        """Lay the tag ``uid`` on the reader (replacing any other); ``record`` sets the text it carries.

        Without a record the tag keeps what was written to it before, like a real tag.
        """
        self._check_open()
        self._lying = bytes(uid)
        if record is not None:
            self._records[self._lying] = record

    def lift(self) -> None:
        self._check_open()
        self._lying = None

    def unplug(self) -> None:
        self._check_open()
        self._plugged = False

    def replug(self) -> None:
        self._check_open()
        self._plugged = True

    def poll(self) -> list[Event]:
        self._check_reachable()
        events = self._presence.update(self._lying)
        return [replace(e, record=self._records.get(e.uid)) if isinstance(e, TagLaid) else e for e in events]

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
