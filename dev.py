#!/usr/bin/env python3
"""Bootstrap and run the project's two everyday tasks from a fresh clone.

    python3 dev.py demo [ARGS...]   watch bots play a whole game in the terminal
    python3 dev.py test [ARGS...]   run the test suite (creates .venv on first use),
                                    spread over the machine's cores (ARGS -n 0: in one process)

Only Python 3.11+ is needed. The first run makes a virtual environment in
``.venv`` with the package and what its demo and tests use (gpiozero for the
demo's mock buttons, pytest, hypothesis, the PN532 driver and pyserial for the
hardware tests); later runs reuse it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".installed"


def main(argv: list[str]) -> int:
    if sys.version_info < (3, 11):
        sys.exit(f"toprace_pi needs Python 3.11 or newer, this is {sys.version.split()[0]}")
    if not argv or argv[0] not in ("demo", "test"):
        sys.exit(__doc__)
    task, rest = argv[0], argv[1:]
    python = _env()
    if task == "demo":
        return subprocess.call([str(python), "-m", "toprace_pi", "demo", *rest], cwd=ROOT)
    return subprocess.call([str(python), "-m", "pytest", *_workers(rest), *rest], cwd=ROOT)


def _workers(args: list[str]) -> list[str]:
    """pytest-xdist's options: one worker per core, unless ``args`` say otherwise
    (``-n 0`` runs the tests in one process, as plain ``pytest`` does)."""
    if "no:xdist" in args or any(a.startswith(("-n", "--numprocesses", "--dist")) for a in args):
        return []
    return ["-n", "auto"]


def _env() -> Path:
    """A virtual environment with the package and its test extras, made once."""
    python = VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    pyproject = ROOT / "pyproject.toml"
    if STAMP.exists() and STAMP.stat().st_mtime >= pyproject.stat().st_mtime and python.exists():
        return python
    print(f"setting up {VENV.name} (first run only)...", flush=True)
    try:
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    except (OSError, subprocess.CalledProcessError) as exc:
        sys.exit(f"cannot create {VENV}: {exc}\n(on Debian/Ubuntu: apt install python3-venv)")
    pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.check_call([*pip, "-e", f"{ROOT}[test]"])
    STAMP.touch()
    return python


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
