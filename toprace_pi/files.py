"""Files that survive a power cut: written whole or not at all, in folders that stay.

The table runs on a Pi whose power may go at any moment. A file rewritten in
place can be left half written; a file created in a folder the disk has not yet
recorded can vanish with the folder. So files are written beside their place
and renamed over it once on disk, and every folder the table makes, and every
folder a file is renamed in, is fsynced too.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_atomically(path: Path, text: str, *, mode: int = 0o644) -> None:
    """Write ``text`` to ``path`` whole: a temporary file in the same folder,
    fsynced, renamed over the old file, the folder fsynced. On any failure the
    old file is untouched and no temporary file is left behind."""
    make_folder(path.parent)
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(handle, mode)
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            Path(temp).unlink(missing_ok=True)
        raise
    fsync_folder(path.parent)


def make_folder(folder: Path) -> None:
    """Create ``folder`` and any missing parents (private to the user), each made
    durable in its parent: a power cut must not lose the folder of a file already fsynced."""
    missing = []
    while not folder.exists():
        missing.append(folder)
        if folder.parent == folder:
            break
        folder = folder.parent
    for made in reversed(missing):
        made.mkdir(mode=0o700)
        fsync_folder(made.parent)


def fsync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    except OSError as exc:
        raise naming(exc, folder) from None
    finally:
        os.close(fd)


def naming(exc: OSError, path: Path) -> OSError:
    """``exc`` naming ``path``, if it names no file (a write or an fsync): every message names the file."""
    return exc if exc.filename else OSError(exc.errno, exc.strerror, str(path))
