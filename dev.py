#!/usr/bin/env python3
"""Bootstrap and run the project's two everyday tasks from a fresh clone.

    python3 dev.py demo [ARGS...]   watch bots play a whole game in the terminal
    python3 dev.py test [ARGS...]   run the test suite (creates .venv on first use),
                                    spread over the machine's cores (ARGS -n 0: in one process)
    python3 dev.py test --fast      the tests not marked slow: every game, the table, the web
                                    server, in under a minute (pytest -m "not slow")

Only Python 3.11+ is needed. The first run makes a virtual environment in
``.venv`` with the package and what its demo and tests use (gpiozero for the
demo's mock buttons, pytest, hypothesis, the PN532 driver and pyserial for the
hardware tests); later runs reuse it, and bring it up to date when
pyproject.toml changes. The tests also drive programs of the system (a real
Chromium, strace, systemd-analyze): ``test`` installs those that are missing
with apt where it may (as root), and otherwise names them in one line.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".installed"
#: The system's programs the tests drive, and Debian's package of each: the web pages and the playback page
#: in a real browser, the journal's disk made to fail, the service's unit checked.
PROGRAMS = {"chromium": "chromium", "strace": "strace", "systemd-analyze": "systemd"}
#: What ``test --fast`` stands for: the tests that tests/conftest.py does not mark slow.
FAST = ["-m", "not slow"]


def main(argv: list[str]) -> int:
    if sys.version_info < (3, 11):
        sys.exit(f"toprace_pi needs Python 3.11 or newer, this is {sys.version.split()[0]}")
    if not argv or argv[0] not in ("demo", "test"):
        sys.exit(__doc__)
    task, rest = argv[0], argv[1:]
    python = _env()
    if task == "demo":
        return subprocess.call([str(python), "-m", "toprace_pi", "demo", *rest], cwd=ROOT)
    _programs()
    rest = [arg for a in rest for arg in (FAST if a == "--fast" else [a])]
    return subprocess.call([str(python), "-m", "pytest", *_workers(rest), *rest], cwd=ROOT)


def _workers(args: list[str]) -> list[str]:
    """pytest-xdist's options: one worker per core, each test file on one worker (the hub's
    tests walk one emulated board through a module), unless ``args`` say otherwise (``-n 0``
    runs the tests in one process, as plain ``pytest`` does)."""
    if "no:xdist" in args or any(a.startswith(("-n", "--numprocesses", "--dist")) for a in args):
        return []
    return ["-n", "auto", "--dist", "loadfile"]  # a file's tests on one worker: some share a module's device


def _programs() -> None:
    """The system's programs the tests need: installed with apt if missing (as root), else named and stopped."""
    missing = sorted({package for program, package in PROGRAMS.items() if shutil.which(program) is None})
    if not missing:
        return
    apt = shutil.which("apt-get")
    if apt is None or getattr(os, "geteuid", lambda: -1)() != 0:
        sys.exit(f"the tests need {', '.join(missing)}: sudo apt-get install {' '.join(missing)}")
    print(f"installing {', '.join(missing)} (first run only)...", flush=True)
    quiet = {"stdout": subprocess.DEVNULL, "env": {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}}
    for step in (["update", "-q"], ["install", "-y", "-q", *missing]):
        if subprocess.call([apt, *step], **quiet):
            sys.exit(f"cannot install {', '.join(missing)} with apt-get: install them and run the tests again")


def _env() -> Path:
    """A virtual environment with the package and its test extras, made once."""
    python = VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    pyproject = ROOT / "pyproject.toml"
    if STAMP.exists() and STAMP.stat().st_mtime >= pyproject.stat().st_mtime and python.exists():
        return python
    if not python.exists():  # made once; a pyproject.toml changed since is installed into it (a run may be using it)
        print(f"setting up {VENV.name} (first run only)...", flush=True)
        try:
            venv.EnvBuilder(with_pip=True).create(VENV)
        except (OSError, subprocess.CalledProcessError) as exc:
            sys.exit(f"cannot create {VENV}: {exc}\n(on Debian/Ubuntu: apt install python3-venv)")
    pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.check_call([*pip, "-e", f"{ROOT}[test]"])
    STAMP.touch()
    return python


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
