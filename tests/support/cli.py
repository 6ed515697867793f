"""The ``toprace-pi`` command line run in the test's process, as a user would type it."""

from __future__ import annotations

from toprace_pi.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """The exit code, standard output and standard error of ``toprace-pi ARGV...``."""
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse exits on usage errors and after --help
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err
