"""The game journal: every confirmed step on disk before the table shows it.

A Pi under a table loses power when someone trips over the cable. The journal
is an append-only file of JSON lines: a header with the game's settings, then
one record per confirmed step (an action in its notation, or an undo), each with
a running number and a CRC-32. Every record is written, flushed and fsynced
before the step is applied, and the folder is fsynced when the file is created,
so after a power cut the game resumes from the last confirmed step.

Reading back: a last record cut short (power lost mid-write) is dropped with a
warning and everything before it kept; a record damaged in the middle, or a
journal of another format version, is refused with a message naming the file
and the line, and nothing is overwritten.

Every record belongs to its journal and its place. The header holds a random id
(128 bits, new for every journal) under its CRC, and each record's CRC goes on
from the CRC of the line before it (a chain). A record copied in from another
journal of the same game, even at the same number and with a legal step, fails
its CRC: that journal's chain began at another id. So does a record moved, left
out or doubled within the journal, and one of an older copy of the same journal
from after the two went different ways (a cut, and other steps taken: the
running number alone would not catch it). The id alone would not do the last; the chain alone would not
tell apart two journals with the same settings, whose headers are equal. Both
cost next to nothing: still one CRC per record, started from the previous one. A
CRC is no seal against someone who rewrites the file on purpose; it catches
lines put together by mistake, by a tool or by hand. Journals of version 1 (no
id, each record's CRC its own) are still read, and a game in one goes on in it.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import re
import secrets
import time
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from toprace_pi.core import registry
from toprace_pi.errors import DataError, IllegalActionError, TopRaceError
from toprace_pi.files import fsync_folder, make_folder, naming

log = logging.getLogger(__name__)

FORMAT = "toprace-pi journal"
#: The version new journals are written in: a journal id, and records chained (see above).
VERSION = 2
#: The version before it (each record's CRC its own), still read and gone on with.
UNCHAINED = 1
#: The header's ``id``: hex digits of 128 random bits.
ID_BYTES = 16
REFUSED = "the journal is refused and left as it is"
#: What a record whose CRC fails may be in a chained journal.
OUT_OF_PLACE = ("damaged record, or not the one that belongs here "
                "(one before it is missing or moved, or it is of another journal)")
#: The journal holds every secret entered at the table (tips, trades): its owner only.
PRIVATE = 0o600


#: A record as its CRC-32 is taken over: ASCII JSON, keys sorted, no spaces (an encoder made once:
#: ``json.dumps`` with options makes one each call).
_body = json.JSONEncoder(sort_keys=True, separators=(",", ":")).encode


def _line(record: dict[str, Any], previous: int = 0) -> tuple[bytes, int]:
    """One record (never empty: it has its number) as a line, and its CRC-32: taken over the rest of the
    record, going on from ``previous`` (the CRC of the line before it in a chained journal, else 0), and
    added as the last key. The body is encoded once, and :func:`_record` takes the CRC out wherever it
    stands and sorts the rest again."""
    body = _body(record)
    crc = zlib.crc32(body.encode(), previous)
    return f'{body[:-1]},"crc":"{crc:08x}"}}\n'.encode(), crc


@dataclass
class Loaded:
    """What a journal holds: the settings and the confirmed steps (undos applied)."""

    settings: Any
    steps: list[Any]
    #: A new game of the settings, before any step (its deck read the steps): apply them to it.
    game: Any
    #: The journal line each step was read from, for messages that point at it.
    lines: list[int] = field(default_factory=list)
    last_input: int | None = None
    records: int = 0
    torn: bool = False
    whole_bytes: int = 0
    warnings: list[str] = field(default_factory=list)
    #: The CRC the next record's goes on from (the last whole record's), or None in a version 1 journal.
    chain: int | None = None


class Journal:
    """An open journal, appending records. Use :meth:`create` or :meth:`resume`."""

    def __init__(self, path: Path, file: BinaryIO, records: int, *, chain: int | None) -> None:
        """``chain``: the CRC the next record's goes on from (the last record's), None for a
        version 1 journal, whose records each have a CRC of their own."""
        self.path = path
        self._file = file
        self.records = records
        self._chain = chain

    def __repr__(self) -> str:
        return f"<Journal {self.path}: {self.records} records>"

    @classmethod
    def create(cls, path: str | Path, settings: Any, *, game: str = registry.DEFAULT_GAME) -> Journal:
        """A new journal for a new game; refuses to overwrite an existing file.

        The header goes to a file beside it first and is renamed into place once it
        is on disk: a crash meanwhile leaves no journal or a whole one, never an
        empty file that the next start would refuse."""
        path = Path(path)
        make_folder(path.parent)
        if path.exists():
            raise FileExistsError(errno.EEXIST, "a journal is there already", str(path))
        entry = registry.get(game)
        header = {"format": FORMAT, "version": VERSION, "game": {"name": game, "version": entry.info.version},
                  "settings": entry.records.settings_to_dict(settings), "n": 0, "id": secrets.token_hex(ID_BYTES)}
        line, crc = _line(header)
        fresh = path.with_name(path.name + ".new")
        try:
            with open(os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE), "wb") as file:
                file.write(line)
                file.flush()
                os.fsync(file.fileno())
            os.replace(fresh, path)
        except OSError as exc:
            with contextlib.suppress(OSError):
                fresh.unlink(missing_ok=True)
            raise naming(exc, path) from None
        fsync_folder(path.parent)
        return cls(path, open(path, "ab"), 0, chain=crc)  # noqa: SIM115  (kept open for appending; closed by close())

    @classmethod
    def resume(cls, path: str | Path, loaded: Loaded | None = None) -> tuple[Journal, Loaded]:
        """Open an existing journal to go on with its game (``loaded``: what
        :func:`load` read from it just now); a torn last record is cut off."""
        path = Path(path)
        loaded = loaded or load(path)
        try:
            if path.stat().st_mode & 0o077:
                os.chmod(path, PRIVATE)  # written by an older version, readable by others
        except OSError as exc:
            log.warning("%s: cannot make it private to its owner: %s", path, exc.strerror)
        if loaded.torn:
            with open(path, "r+b") as file:
                file.truncate(loaded.whole_bytes)
                file.flush()
                os.fsync(file.fileno())
        return cls(path, open(path, "ab"), loaded.records, chain=loaded.chain), loaded  # noqa: SIM115

    def append(
        self, action: Any | Sequence[Any], *, input_number: int | None = None, by: str | None = None
    ) -> None:
        """Record a confirmed step durably. Raises OSError (disk full...) with the
        file as it was: the caller must then not take the step.

        The steps one input leads to (OK closing a pit stop claim window: a pass per
        seat asked, then the claim) go into one record, so a crash keeps all or none."""
        steps = [action] if not isinstance(action, Sequence) else list(action)
        record: dict[str, Any] = {"n": self.records + 1}
        if len(steps) == 1:
            record["step"] = str(steps[0])
        else:
            record["steps"] = [str(step) for step in steps]
        if input_number is not None:
            record["in"] = input_number
        if by is not None:
            record["by"] = by  # the input that led to the step, for people reading the journal
        self._add(record)

    def append_undo(self, *, input_number: int | None = None) -> None:
        record: dict[str, Any] = {"n": self.records + 1, "undo": True}
        if input_number is not None:
            record["in"] = input_number
        self._add(record)

    def _add(self, record: dict[str, Any]) -> None:
        """Write ``record`` as the next line; once it is on disk, the next goes on from its CRC (if chained)."""
        line, crc = _line(record, self._chain or 0)
        self._write(line)
        self.records += 1
        if self._chain is not None:
            self._chain = crc

    def _write(self, line: bytes) -> None:
        """Append ``line`` and fsync it. Written with os.write, past the file object's
        buffer: a record the disk refused must not stay in a buffer, to be written
        later behind the table's back (with the next record, or at close)."""
        fd = self._file.fileno()
        start = os.lseek(fd, 0, os.SEEK_END)
        try:
            done = 0
            while done < len(line):
                written = os.write(fd, line[done:])
                if not written:
                    raise OSError(errno.ENOSPC, "nothing could be written")
                done += written
            os.fsync(fd)
        except OSError as exc:
            self._cut_back(start)
            raise naming(exc, self.path) from None

    def _cut_back(self, size: int) -> None:
        """After a failed write, take a partial record off again, as far as possible."""
        try:
            os.ftruncate(self._file.fileno(), size)
        except OSError:
            log.warning("could not cut a partial record off %s; it will be dropped when read", self.path)

    def close(self) -> None:
        if not self._file.closed:
            self._file.close()


def journal_game(path: str | Path) -> str:
    """The name of the game a journal holds, read from its header alone (journals from
    before the header named it are Top Race's)."""
    path = Path(path)
    try:
        with open(path, "rb") as file:
            found = _record(file.readline().rstrip(b"\n"))
    except OSError as exc:
        raise DataError(str(path), [f"cannot be read: {exc.strerror}"]) from None
    if found is None or found[0].get("format") != FORMAT:
        raise DataError(str(path), ["not a toprace-pi game journal"])
    game = found[0].get("game", {"name": registry.DEFAULT_GAME})
    return str(game.get("name")) if isinstance(game, dict) else repr(game)


def load(path: str | Path) -> Loaded:
    """Read a journal: the settings and the steps, checked record by record.

    Only a provably torn final write is dropped: bytes after the last newline that
    begin like a record (or are the zeros of a write the disk never finished).
    Anything else that is wrong (a damaged or blank line, a record missing or
    out of order, other bytes at the end) is refused naming the line, and the
    file is left as it is for a person to look at."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DataError(str(path), [f"cannot be read: {exc.strerror}"]) from None
    lines = data.split(b"\n")
    complete, tail = lines[:-1], lines[-1]
    if tail and not _is_torn(tail):
        raise DataError(str(path), [f"line {len(lines)}: not a record, and not one cut short; {REFUSED}"])
    records: list[dict[str, Any]] = []
    chain: int | None = None
    for number, raw in enumerate(complete, 1):
        record, crc = _checked(raw, number, len(records), chain, str(path))
        if chain is not None or (number == 1 and _is_chained(record, str(path))):
            chain = crc
        records.append(record)
    if not records:
        raise DataError(str(path), ["holds no game (no header)"])
    entry = _game_of(records[0], str(path))
    settings = entry.records.settings_from_dict(records[0].get("settings"), str(path))
    fresh = entry.records.game_for(settings, str(path))
    steps, lines_of_steps, last_input = _steps(records[1:], fresh, str(path))
    loaded = Loaded(settings, steps, fresh, lines_of_steps, last_input, len(records) - 1, bool(tail),
                    sum(len(r) + 1 for r in complete), chain=chain)
    if tail:
        warning = f"{path}: the last record was cut short (power lost while writing?) and is dropped"
        log.warning(warning)
        loaded.warnings.append(warning)
    return loaded


def _is_torn(tail: bytes) -> bool:
    """Whether the bytes after the last newline are a record's write cut short: the
    start of a record (ASCII JSON, as :func:`_line` writes it), or zeros where the
    file had grown before its data reached the disk."""
    start = tail.rstrip(b"\0")
    return not start or (start.startswith(b"{") and start.isascii() and b"\0" not in start)


def _record(raw: bytes, previous: int = 0) -> tuple[dict[str, Any], int] | None:
    """The record on a line and its CRC, if its CRC (going on from ``previous``, see :func:`_line`) holds."""
    try:
        record = json.loads(raw)
    except (ValueError, RecursionError):  # not JSON, not UTF-8, nested too deeply
        return None
    if not isinstance(record, dict) or not isinstance(record.get("crc"), str):
        return None
    stated = record.pop("crc")
    crc = zlib.crc32(_body(record).encode(), previous)
    return (record, crc) if f"{crc:08x}" == stated else None


def _checked(raw: bytes, number: int, expected: int, chain: int | None, source: str) -> tuple[dict[str, Any], int]:
    """Line ``number``'s record and its CRC: its CRC holds (going on from ``chain``, None if the
    journal is not chained) and it is record ``expected``, or the journal is refused."""
    found = _record(raw, chain or 0)
    if found is None:
        raise DataError(source, [f"line {number}: {'damaged record' if chain is None else OUT_OF_PLACE}; {REFUSED}"])
    record, crc = found
    if record.get("n") != expected:
        raise DataError(source, [f"line {number}: record {record.get('n')!r} where record "
                                 f"{expected} belongs (one is missing or doubled); {REFUSED}"])
    return record, crc


def _is_chained(header: dict[str, Any], source: str) -> bool:
    """Whether the header's journal is of this version (an id, records chained) or the one before;
    another format or version is refused."""
    if header.get("format") != FORMAT:
        raise DataError(source, ["not a toprace-pi game journal"])
    if header.get("version") not in (VERSION, UNCHAINED):
        raise DataError(source, [f"written by another version (journal version {header.get('version')!r}, "
                                 f"this toprace-pi reads versions {UNCHAINED} and {VERSION}); it is left as it is"])
    if header["version"] == UNCHAINED:
        return False
    if not (isinstance(header.get("id"), str) and re.fullmatch(f"[0-9a-f]{{{2 * ID_BYTES}}}", header["id"])):
        raise DataError(source, [f"line 1: the header's journal id is not valid: {header.get('id')!r}; {REFUSED}"])
    return True


def _game_of(header: dict[str, Any], source: str) -> registry.GameEntry:
    """The game the journal is of, of this version of its rules (journals from before the
    header named a game are Top Race's)."""
    game = header.get("game", {"name": registry.DEFAULT_GAME, "version": 1})
    if not isinstance(game, dict) or not isinstance(game.get("name"), str):
        raise DataError(source, [f"the header's game is not valid: {game!r}"])
    try:
        entry = registry.get(game["name"])
    except TopRaceError:
        raise DataError(source, [f"a journal of the game {game['name']!r}, which this table cannot play back"]) \
            from None
    info = entry.info
    if game.get("version") != info.version:
        raise DataError(source, [f"written for version {game.get('version')!r} of {info.title}'s rules "
                                 f"(this toprace-pi plays version {info.version}); it is left as it is"])
    return entry


def _steps(records: list[dict[str, Any]], game: Any, source: str) -> tuple[list[Any], list[int], int | None]:
    """The steps the records hold (undos applied, read in ``game``'s notation), the line
    of each, and the last input."""
    steps: list[Any] = []
    lines: list[int] = []
    last_input = None
    for line, record in enumerate(records, 2):
        if record.get("undo") is True:
            if steps:
                steps.pop()
                lines.pop()
        else:
            texts = record["steps"] if isinstance(record.get("steps"), list) else [record.get("step")]
            try:
                steps.extend(game.parse(str(text)) for text in texts)
            except (ValueError, IllegalActionError) as exc:
                raise DataError(source, [f"line {line}: {exc}; {REFUSED}"]) from None
            lines.extend([line] * len(texts))
        if isinstance(record.get("in"), int):
            last_input = record["in"]
    return steps, lines, last_input


def applied_steps(game: Any, loaded: Loaded, source: str | Path) -> Iterator[Any]:
    """Apply the journal's steps to ``game`` one by one, yielding each once it is
    applied. A step the game refuses (a record well formed but not possible
    here) is a :class:`DataError` naming the journal and the step's line."""
    for step, line in zip(loaded.steps, loaded.lines, strict=True):
        try:
            game.apply(step)
        except IllegalActionError as exc:
            raise DataError(str(source), [f"line {line}: {step} cannot be played here ({exc}); {REFUSED}"]) from None
        yield step


#: How many archived journals :func:`archive_and_prune` keeps: the demo's, which nobody needs for long.
KEPT_ARCHIVES = 5


def archive(path: str | Path) -> Path:
    """Move a finished or abandoned journal aside (never deleted) for a new game."""
    path = Path(path)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.stem}-{stamp}{path.suffix}")
    n = 1
    while target.exists():
        target = path.with_name(f"{path.stem}-{stamp}-{n}{path.suffix}")
        n += 1
    path.rename(target)
    fsync_folder(path.parent)
    return target


def archived(path: str | Path) -> list[Path]:
    """The journals :func:`archive` has moved aside from ``path``, oldest first (by the time in their name)."""
    path = Path(path)
    pattern = re.compile(rf"{re.escape(path.stem)}-(\d{{8}}-\d{{6}})(?:-(\d+))?{re.escape(path.suffix)}")
    found = [(match[1], int(match[2] or 0), p) for p in path.parent.glob(f"{path.stem}-*{path.suffix}")
             if (match := pattern.fullmatch(p.name))]
    return [p for *_, p in sorted(found)]


def prune_archives(path: str | Path, keep: int) -> list[Path]:
    """Delete all but the newest ``keep`` archived journals of ``path``; returns those deleted.

    Never for a real table's journals (``play --new`` archives them and keeps them all): for the demo's,
    which would otherwise pile up, a game at a time."""
    doomed = archived(path)[:-keep] if keep else archived(path)
    for old in doomed:
        old.unlink()
    if doomed:
        fsync_folder(Path(path).parent)
    return doomed


def archive_and_prune(path: str | Path, keep: int = KEPT_ARCHIVES) -> Path:
    """:func:`archive`, then :func:`prune_archives` down to ``keep``: the demo's journals."""
    target = archive(path)
    prune_archives(path, keep)
    return target
