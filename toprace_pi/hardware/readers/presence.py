"""Turning a reader's poll results into laid and lifted events.

A PN532 now and then misses a tag that lies still on it for one poll. Reporting
every miss as a lift would make the table see one card played twice, so a tag
counts as lifted only after several empty polls in a row, while a different tag
replacing it counts at once. Pure logic: no device, no clock.
"""

from __future__ import annotations

from toprace_pi.hardware.events import TagLaid, TagLifted


class TagPresence:
    """Which tag lies on the ``reader`` named, from one poll result at a time."""

    def __init__(self, reader: str, *, misses_to_lift: int = 3) -> None:
        if misses_to_lift < 1:
            raise ValueError(f"misses_to_lift must be at least 1, not {misses_to_lift}")
        self.reader = reader
        self.misses_to_lift = misses_to_lift
        self._current: bytes | None = None
        self._misses = 0

    def __repr__(self) -> str:
        held = self._current.hex() if self._current else "nothing"
        return f"<TagPresence {self.reader!r}: {held}, {self._misses} misses>"

    @property
    def current(self) -> bytes | None:
        """The uid of the tag taken to lie on the reader, or ``None``."""
        return self._current

    def update(self, uid: bytes | None, record: str | None = None) -> list[TagLaid | TagLifted]:
        """Feed one poll result: the uid seen, or ``None`` when no tag answered, and the text
        ``record`` read from the tag, which a :class:`TagLaid` carries."""
        if uid is None:
            return self._missed()
        self._misses = 0
        if uid == self._current:
            return []
        events: list[TagLaid | TagLifted] = self._lift()
        self._current = uid
        events.append(TagLaid(self.reader, uid, record))
        return events

    def _missed(self) -> list[TagLaid | TagLifted]:
        if self._current is None:
            return []
        self._misses += 1
        return self._lift() if self._misses >= self.misses_to_lift else []

    def _lift(self) -> list[TagLaid | TagLifted]:
        if self._current is None:
            return []
        lifted = TagLifted(self.reader, self._current)
        self._current = None
        self._misses = 0
        return [lifted]
