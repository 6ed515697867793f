"""What a tag stands for: its text record, the registry of enrolled tags, and enrolment.

A tag is known in two ways, so that a lost registry or a new table does not
strand a box of tagged cards: an NTAG carries its meaning as a text record in
its own memory (``toprace card 17``, ``toprace car red``), and the registry maps
uids to meanings for tags that cannot hold a record. The registry wins when both
speak. The record's format is in :mod:`toprace_pi.hardware.ndef`.

What the words mean is the game's: this module knows no game, only a
:class:`Vocabulary` that turns a KEY (the words after the prefix, ``"card 17"``)
into an IDENTITY (what the game makes of it, ``("card", 17)``) and back. Every
game's records share the prefix, written before games other than Top Race came,
so the tags written then keep working.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, Protocol, TypeVar

from toprace_pi.errors import DataError
from toprace_pi.files import write_atomically
from toprace_pi.hardware.events import Event, TagLaid, TagLifted

#: The first word of every record the table writes.
RECORD_PREFIX = "toprace"
REGISTRY_VERSION = 1
#: The lengths of an NFC uid: single, double and triple size.
UID_SIZES = (4, 7, 10)
#: A game's identity type (Top Race: a tuple such as ``("card", 17)``).
Ident = TypeVar("Ident")


class Vocabulary(Protocol[Ident]):
    """A game's words for its tags. An identity is whatever the game compares and acts on (Top Race:
    ``("card", 17)``); a key is its words in a record and in the registry file (``"card 17"``)."""

    def identity(self, key: str) -> Ident | None:
        """What ``key`` stands for in this game; ``None`` when it names nothing here."""

    def key(self, identity: Ident) -> str:
        """The words that name ``identity``: ``identity(key(x)) == x``."""

    def describe(self, identity: Ident) -> str:
        """``identity`` for people, as prompts and answers name it ("the Blue car token")."""

    def unknown(self, key_or_record: str | None) -> str:
        """Why a tag whose key or record names nothing here is refused."""

    def key_forms(self) -> str:
        """The keys this game knows, for a registry file's error message (``"'card N' (1-48) or ..."``)."""


def record_text(key: str) -> str:
    """The text record written to a tag: ``"toprace card 17"``."""
    return f"{RECORD_PREFIX} {key}"


def record_key(text: str | None) -> str | None:
    """The key in one of our records (the words after the prefix); ``None`` for another app's text."""
    words = (text or "").split(maxsplit=1)
    return words[1] if len(words) == 2 and words[0] == RECORD_PREFIX else None


def parse_record(text: str | None, vocabulary: Vocabulary[Ident]) -> Ident | None:
    """The identity a record names in ``vocabulary``; ``None`` for any other text."""
    key = record_key(text)
    return vocabulary.identity(key) if key is not None else None


# --- the registry -------------------------------------------------------------------------------------------------


class TagRegistry(Generic[Ident]):
    """Enrolled tags: uid -> identity in ``vocabulary``, kept in a JSON file of keys.

    File format: ``{"version": 1, "tags": {"04a1b2c3d4e580": "card 17", "04...": "car red"}}``.
    The file holds keys, not identities, so it reads the same under any version of the game's code; a key
    the vocabulary does not know (a car token of another edition) is refused when the file is loaded.
    """

    def __init__(self, entries: Mapping[bytes, Ident] | None = None, *, vocabulary: Vocabulary[Ident]) -> None:
        self.vocabulary = vocabulary
        self._tags: dict[bytes, Ident] = dict(entries or {})

    def __repr__(self) -> str:
        return f"<TagRegistry: {len(self._tags)} tags>"

    def __len__(self) -> int:
        return len(self._tags)

    def __contains__(self, uid: object) -> bool:
        return uid in self._tags

    def __iter__(self) -> Iterator[bytes]:
        return iter(self._tags)

    def get(self, uid: bytes) -> Ident | None:
        return self._tags.get(uid)

    def add(self, uid: bytes, identity: Ident) -> None:
        self._tags[bytes(uid)] = identity

    def identify(self, event: TagLaid) -> Ident | None:
        """What the tag just laid stands for: from the registry, else from its record; ``None`` if unknown."""
        return self._tags.get(event.uid) or parse_record(event.record, self.vocabulary)

    def to_dict(self) -> dict[str, object]:
        tags = {uid.hex(): self.vocabulary.key(identity) for uid, identity in sorted(self._tags.items())}
        return {"version": REGISTRY_VERSION, "tags": tags}

    def save(self, path: str | Path) -> None:
        """Write the file atomically: a crash mid-write leaves the old file, never half a registry."""
        write_atomically(Path(path), json.dumps(self.to_dict(), indent=2) + "\n")

    @classmethod
    def load(cls, path: str | Path, vocabulary: Vocabulary[Ident]) -> TagRegistry[Ident]:
        """The registry in ``path`` read with ``vocabulary``; empty when there is no such file yet (tags
        with records still work).

        Raises :class:`DataError` naming the file when it is not a valid registry.
        """
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls(vocabulary=vocabulary)
        except OSError as exc:  # a folder, no permission, a name too long...
            raise DataError(str(path), [f"cannot be read: {exc.strerror}"]) from None
        except UnicodeDecodeError:
            raise DataError(str(path), ["not a tag registry: the file is not UTF-8 text"]) from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DataError(str(path), [f"not valid JSON (line {exc.lineno}): {exc.msg}"]) from None
        except ValueError as exc:  # an integer of more than 4300 digits
            raise DataError(str(path), [f"not valid JSON: {exc}"]) from None
        except RecursionError:
            raise DataError(str(path), ["not valid JSON: nested too deeply"]) from None
        return cls.from_dict(data, str(path), vocabulary)

    @classmethod
    def from_dict(cls, data: object, source: str, vocabulary: Vocabulary[Ident]) -> TagRegistry[Ident]:
        """Build a registry from parsed JSON, reporting every problem at once."""
        if not isinstance(data, dict) or data.get("version") != REGISTRY_VERSION or not isinstance(
            data.get("tags"), dict
        ):
            raise DataError(source, [f'expected {{"version": {REGISTRY_VERSION}, "tags": {{uid: "card 17", ...}}}}'])
        problems: list[str] = []
        entries = [_entry(key, value, vocabulary, problems) for key, value in data["tags"].items()]
        if problems:
            raise DataError(source, problems)
        return cls(dict(entry for entry in entries if entry is not None), vocabulary=vocabulary)


def _entry(key: str, value: object, vocabulary: Vocabulary[Ident], problems: list[str]) -> tuple[bytes, Ident] | None:
    try:
        uid = bytes.fromhex(key)
    except ValueError:
        uid = b""
    identity = vocabulary.identity(value) if isinstance(value, str) else None
    if len(uid) not in UID_SIZES:
        problems.append(f"tag {key!r}: a uid is 4, 7 or 10 bytes in hex, like '04a1b2c3d4e580'")
    if identity is None:
        problems.append(f"tag {key!r}: {value!r} is not {vocabulary.key_forms()}")
    return (uid, identity) if identity is not None else None


# --- enrolment ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Walk(Generic[Ident]):
    """One enrolment walk a game offers (``toprace-pi enrol NAME``): the identities to enrol, in the order
    they are asked for (one repeated for several tags that stand for the same), and the reader they are laid
    on (``None``: the table's discard reader)."""

    identities: tuple[Ident, ...]
    reader: str | None = None


@dataclass(frozen=True)
class TagBook(Generic[Ident]):
    """A game's tags at one table: the vocabulary they are read with, and its walks by name (what
    ``toprace-pi enrol NAME`` may enrol)."""

    vocabulary: Vocabulary[Ident]
    walks: Mapping[str, Walk[Ident]]


@dataclass(frozen=True, slots=True)
class Enrolled(Generic[Ident]):
    """One tag taken on: what it stands for, and the record to write to it if it is an NTAG."""

    uid: bytes
    identity: Ident
    record: str


class Enrolment(Generic[Ident]):
    """The walk that asks for each item of a :class:`Walk` in turn and takes the next tag laid for it.

    Pure logic fed with reader events: the command line shows :attr:`prompt`,
    passes each event to :meth:`offer`, prints the answer, and in the end adds
    :attr:`enrolled` to the registry and writes each record to its tag. Tags in
    ``known`` (an earlier enrolment) are refused for anything but what they
    already stand for, so a box can be enrolled again, or added to, safely.
    """

    def __init__(
        self, wanted: Sequence[Ident], vocabulary: Vocabulary[Ident], *, known: TagRegistry[Ident] | None = None
    ) -> None:
        self.total = len(wanted)
        self.vocabulary = vocabulary
        self._wanted = tuple(wanted)
        self._known = known
        self._enrolled: list[Enrolled[Ident]] = []
        self._lying: bytes | None = None

    def __repr__(self) -> str:
        return f"<Enrolment: {len(self._enrolled)} of {len(self._wanted)} tags>"

    def resume(self) -> int:
        """Leave out what the known registry already holds (an interrupted walk goes on
        where it stopped); returns how many items that was. Call before the first tag."""
        assert not self._enrolled, "resume before the walk begins"
        held = Counter(self._known.get(uid) for uid in self._known) if self._known is not None else Counter()
        rest = []
        for identity in self._wanted:
            if held[identity]:
                held[identity] -= 1
            else:
                rest.append(identity)
        skipped = len(self._wanted) - len(rest)
        self._wanted = tuple(rest)
        return skipped

    @property
    def done(self) -> bool:
        return len(self._enrolled) == len(self._wanted)

    @property
    def enrolled(self) -> tuple[Enrolled[Ident], ...]:
        return tuple(self._enrolled)

    @property
    def prompt(self) -> str:
        if self.done:
            return f"all {self.total} tags are enrolled"
        return f"scan {self.vocabulary.describe(self._wanted[len(self._enrolled)])}"

    def offer(self, event: Event) -> str:
        """Take a reader event; answer what became of it ("" when it is ignored)."""
        if isinstance(event, TagLifted):
            self._lying = None if event.uid == self._lying else self._lying
            return ""
        if not isinstance(event, TagLaid) or event.uid == self._lying or self.done:
            return ""
        self._lying = event.uid
        return self._take(event.uid)

    def _take(self, uid: bytes) -> str:
        wanted = self._wanted[len(self._enrolled)]
        if any(e.uid == uid for e in self._enrolled):
            return f"this tag is already enrolled as {self.vocabulary.describe(self._taken_as(uid) or wanted)}"
        taken = self._taken_as(uid)
        if taken is not None and taken != wanted:
            return f"this tag is already enrolled as {self.vocabulary.describe(taken)}"
        self._enrolled.append(Enrolled(uid, wanted, record_text(self.vocabulary.key(wanted))))
        return f"enrolled {self.vocabulary.describe(wanted)}"

    def _taken_as(self, uid: bytes) -> Ident | None:
        earlier = next((e.identity for e in self._enrolled if e.uid == uid), None)
        return earlier or (self._known.get(uid) if self._known is not None else None)
