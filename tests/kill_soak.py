"""The kill test at full count: ``python3 tests/kill_soak.py [--kills 120] [--seed 1]``.

Several recorded games are played by ``kill_runner.py`` in a child process that is
SIGKILLed after random delays and restarted until the game ends, game after
game, until the number of kills is reached; each game must end exactly as the
same script played without a kill. Prints the figures; exits 1 if any game
differed. Not a pytest module (``test_kill.py`` runs a short version in CI).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from kill_script import KillStats, killed_game, record_script, run_once  # noqa: E402

#: (players, seed, races)
SCRIPTS = [(3, 1, 1), (4, 2, 2), (4, 5, 1), (3, 7, 2), (2, 3, 1), (4, 11, 1)]


def soak(kills: int, seed: int, variant: str = "base", out=print) -> bool:
    rng = random.Random(seed)
    total = KillStats()
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        games = []
        for players, script_seed, races in SCRIPTS:
            recorded = record_script(players, script_seed, races=races, variant=variant)
            path = recorded.write(folder / f"script-{players}-{script_seed}-{races}.json")
            run = run_once(path, folder / f"{path.stem}-reference.jsonl", folder / f"{path.stem}-reference.json")
            reference = json.loads((folder / f"{path.stem}-reference.json").read_text("utf-8"))
            total.equal.append(reference == recorded.reference)
            games.append((path, reference, run.after_ready))
            out(f"{path.stem}: {len(recorded.events)} inputs, {len(recorded.reference['log'])} steps, "
                f"{recorded.refusals} refusals, {recorded.undos} undos; uninterrupted {run.seconds:.2f} s "
                f"({run.after_ready:.2f} s after ready); equal to the recording: {total.equal[-1]}")
        while total.kills < kills:
            for path, reference, duration in games:
                result, stats = killed_game(path, folder, rng, max_delay=duration)
                stats.equal.append(result == reference)
                total.add(stats)
    seconds = time.perf_counter() - began
    same = all(total.equal)
    out(f"variant {variant}: {total.kills} kills ({total.mid_game} after the journal had grown, "
        f"{total.torn} leaving a record cut short), {total.restarts} restarts, {total.games} killed games "
        f"of {len(SCRIPTS)} scripts, {seconds:.1f} s; all equal to the uninterrupted run: {'yes' if same else 'no'}"
        + ("" if same else f" ({total.equal.count(False)} differed)"))
    return same


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=120)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", default="base")
    args = parser.parse_args()
    return 0 if soak(args.kills, args.seed, args.variant) else 1


if __name__ == "__main__":
    sys.exit(main())
