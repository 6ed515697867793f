"""What the table's devices report to the controller."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

#: The buttons of the table, by the name printed on them.
BUTTONS = ("next", "ok", "undo", "pass")


@dataclass(frozen=True, slots=True)
class TagLaid:
    """A tag was laid on ``reader``. ``record`` is the text record read from an
    NTAG (``"toprace card 17"``, ``"toprace car red"``), or ``None``."""

    reader: str
    uid: bytes
    record: str | None = None

    def __str__(self) -> str:
        return f"tag {self.uid.hex()} laid on the {self.reader} reader"


@dataclass(frozen=True, slots=True)
class TagLifted:
    reader: str
    uid: bytes


@dataclass(frozen=True, slots=True)
class ButtonPressed:
    """``button`` is one of :data:`BUTTONS`; ``held`` for a long press."""

    button: str
    held: bool = False


@dataclass(frozen=True, slots=True)
class DeviceStatus:
    """A device went missing (``ok=False``) or came back (``ok=True``)."""

    device: str
    ok: bool
    message: str


Event = Union[TagLaid, TagLifted, ButtonPressed, DeviceStatus]
