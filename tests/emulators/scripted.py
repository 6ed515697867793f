"""A reader for the enrolment: a box of tags laid on it one after another, each lifted again."""

from __future__ import annotations

from toprace_pi.hardware.events import TagLaid, TagLifted


class ScriptedReader:
    """Feeds the enrolment a box of tags laid one after another, each lifted again; keeps the records written."""

    name = "discard"

    def __init__(self, uids: list[bytes]) -> None:
        self.events = [e for uid in uids for e in (TagLaid(self.name, uid), TagLifted(self.name, uid))]
        self.records: list[str] = []

    def poll(self) -> list[TagLaid | TagLifted]:
        return [self.events.pop(0)] if self.events else []

    def write_record(self, text: str) -> bool:
        self.records.append(text)
        return True

    def close(self) -> None:
        pass
