"""Spliced journals: ``python3 tests/splice.py`` prints, per game, how many swapped lines were accepted (none may be).

Two journals of each game are written by the demo (bots at a simulated table), with the same settings and
different seeds. Every record line of the first is replaced in turn by the same line of the second, by a few other
lines of the second and by a few other lines of its own, and the journal is read back as the table and ``replay``
read it (:func:`~toprace_pi.table.journal.load`, then every step applied). Each such journal must be refused,
naming the line that was replaced. ``test_splice.py`` asserts it for CI.
"""

from __future__ import annotations

import contextlib
import io
import random
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from toprace_pi import cli
from toprace_pi.errors import DataError
from toprace_pi.table.journal import applied_steps, load

#: The games as the count names them, each with the demo's options (both journals have these settings).
GAMES = {
    "Top Race (tips)": ["--game", "toprace", "--variant", "tips", "--players", "3", "--bots", "greedy"],
    "Top Race (stocks, pit stop)": ["--game", "toprace", "--variant", "stocks", "--pitstop", "--bots", "greedy"],
    "AUTORACE": ["--game", "autorace", "--bots", "sensible"],
    "TOP SPEED": ["--game", "topspeed", "--bots", "sensible"],
}
#: The demo's seeds of the two journals of a game.
SEEDS = (1, 2)


def demo_journal(folder: Path, options: list[str], seed: int) -> list[bytes]:
    """The lines of the journal a whole demo game writes (its output is not wanted)."""
    path = folder / f"demo-{seed}.jsonl"
    with contextlib.redirect_stdout(io.StringIO()):
        code = cli.main(["demo", *options, "--fast", "--no-colour", "--seed", str(seed), "--journal", str(path)])
    if code != 0:
        raise RuntimeError(f"the demo {' '.join(options)} --seed {seed} ended with exit code {code}")
    return path.read_bytes().split(b"\n")[:-1]


def swaps(own: list[bytes], other: list[bytes], rng: random.Random) -> Iterator[tuple[int, bytes]]:
    """(index, line): each record line of ``own`` (every line but the header) with the lines put in its place,
    the same line of ``other``, its neighbours and one at random, and the same of ``own``'s other records."""
    for i in range(1, len(own)):
        elsewhere = {i - 1, i + 1, rng.randrange(1, len(own))} - {0}
        for j in sorted(({i} | elsewhere) & set(range(1, len(other)))):
            yield i, other[j]
        for j in sorted(elsewhere - {i} & set(range(1, len(own)))):
            yield i, own[j]


def refusal(path: Path) -> str | None:
    """Why the journal at ``path`` is refused, or None if the table would go on with it."""
    try:
        loaded = load(path)
        for _ in applied_steps(loaded.game, loaded, path):
            pass
    except DataError as exc:
        return str(exc)
    return None


@dataclass
class Count:
    swapped: int = 0
    #: Swaps that put in the very bytes they replaced (two journals' lines alike, as version 1 could write them).
    alike: int = 0
    #: Each accepted swap, or refused naming another line than the one swapped: what went where.
    accepted: list[str] = field(default_factory=list)
    misnamed: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        alike = f" ({self.alike} of the swaps put in the same bytes)" if self.alike else ""
        wrong = f", {len(self.misnamed)} refused naming another line" if self.misnamed else ""
        return f"{self.swapped} lines swapped, {len(self.accepted)} accepted{wrong}{alike}"


def spliced(own: list[bytes], other: list[bytes], folder: Path, seed: int = 0) -> Count:
    """Every swap of :func:`swaps`, read back from a file in ``folder``."""
    count = Count()
    path = folder / "spliced.jsonl"
    for i, line in swaps(own, other, random.Random(seed)):
        path.write_bytes(b"\n".join([*own[:i], line, *own[i + 1:]]) + b"\n")
        why = refusal(path)
        count.swapped += 1
        count.alike += line == own[i]
        if why is None:
            count.accepted.append(f"line {i + 1}: {line.decode()}")
        elif not why.startswith(f"{path}: line {i + 1}:"):
            count.misnamed.append(f"line {i + 1}: {why}")
    return count


def count_game(options: list[str], folder: Path) -> Count:
    own, other = (demo_journal(folder, options, seed) for seed in SEEDS)
    return spliced(own, other, folder)


def main() -> int:
    with tempfile.TemporaryDirectory() as name:
        counts = {game: count_game(options, Path(name)) for game, options in GAMES.items()}
    for game, count in counts.items():
        print(f"{game}: {count}")
    total = Count(sum(c.swapped for c in counts.values()), sum(c.alike for c in counts.values()),
                  [a for c in counts.values() for a in c.accepted], [m for c in counts.values() for m in c.misnamed])
    print(f"all games: {total}")
    return 1 if total.accepted or total.misnamed else 0


if __name__ == "__main__":
    sys.exit(main())
