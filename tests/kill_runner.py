"""A table with simulated hardware in a process of its own, to be killed and restarted.

    python3 tests/kill_runner.py SCRIPT JOURNAL RESULT

SCRIPT is JSON: ``{"settings": {...}, "seed": n, "events": [...]}`` (a bare list
of events plays the default game: four players, seed 0). Each event is one input
of the table: ``["laid", reader, uid_hex]``, ``["lifted", reader, uid_hex]``,
``["press", button]`` or ``["hold", "undo"]``.

The game is built like the demo's (the speed-street track, the demo's tag
registry) with a dealer that shuffles with a generator seeded from the script's
seed and the race alone, so a deal made again after a restart is the same deal.
The journal at JOURNAL is resumed if it exists, as ``toprace-pi play`` does (the
game rebuilt from its steps, the input count taken from its last record), else
created. The script is then fed from the first input the journal does not cover,
one input per :meth:`Table.step`, through the table's button queue. At the end
``{"snapshot": ..., "log": [...]}`` goes to RESULT, atomically.

"ready" is printed (and flushed) once the imports are done, before the journal is
opened, so that a test can time its kill from there.
"""

from __future__ import annotations

import json
import os
import queue
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from toprace_pi.games.toprace.data import load_deck, load_track  # noqa: E402
from toprace_pi.games.toprace.rules import Deal, Settings, TopRace  # noqa: E402
from toprace_pi.games.toprace.rules.variants import new_game  # noqa: E402
from toprace_pi.games.toprace.simulate import player_names  # noqa: E402
from toprace_pi.games.toprace.table.board import load_profile  # noqa: E402
from toprace_pi.games.toprace.table.demo import demo_registry  # noqa: E402
from toprace_pi.games.toprace.table.view import TableView  # noqa: E402
from toprace_pi.hardware.events import ButtonPressed, Event, TagLaid, TagLifted  # noqa: E402
from toprace_pi.hardware.sound import SilentSound  # noqa: E402
from toprace_pi.hardware.strip import SimulatedStrip  # noqa: E402
from toprace_pi.table.controller import TableController  # noqa: E402
from toprace_pi.table.journal import Journal, Loaded  # noqa: E402
from toprace_pi.table.run import StripSlot, Table  # noqa: E402

TRACK = "speed-street"


# --- the script ------------------------------------------------------------------


def encode(event: Event) -> list[str]:
    """One input as a script item."""
    if isinstance(event, TagLaid):
        return ["laid", event.reader, event.uid.hex()]
    if isinstance(event, TagLifted):
        return ["lifted", event.reader, event.uid.hex()]
    if isinstance(event, ButtonPressed):
        return ["hold", event.button] if event.held else ["press", event.button]
    raise ValueError(f"no script item for {event!r}")


def decode(item: Sequence[str]) -> Event:
    kind, *rest = item
    if kind == "laid":
        return TagLaid(rest[0], bytes.fromhex(rest[1]))
    if kind == "lifted":
        return TagLifted(rest[0], bytes.fromhex(rest[1]))
    if kind in ("press", "hold"):
        return ButtonPressed(rest[0], held=kind == "hold")
    raise ValueError(f"not a script item: {item!r}")


def settings_for(players: int, seed: int, *, races: int = 1, variant: str = "base") -> Settings:
    """The demo's settings for ``players`` and ``seed``."""
    return Settings(player_names(players), races=races, first_opener=seed % players, track=TRACK,
                    variant=variant, tips_at_end=True)


def settings_to_json(settings: Settings) -> dict[str, Any]:
    return {**asdict(settings), "players": list(settings.players)}


def settings_from_json(data: dict[str, Any]) -> Settings:
    return Settings(**{**data, "players": tuple(data["players"])})


def read_script(path: str | Path) -> tuple[Settings, int, list[list[str]]]:
    data = json.loads(Path(path).read_text("utf-8"))
    if isinstance(data, list):
        return settings_for(4, 0), 0, data
    return settings_from_json(data["settings"]), int(data["seed"]), data["events"]


# --- the table ---------------------------------------------------------------------


def dealer_for(seed: int) -> Callable[[TopRace], Deal]:
    """A deal that depends on the seed and the race only, never on what came before
    in this process: a restarted table deals the same cards again."""
    return lambda game: game.deal(random.Random(seed * 1_000 + game.race))


def clock() -> float:
    """The table's clock stands still: nothing may depend on when the process ran."""
    return 0.0


def build_table(game: TopRace, seed: int, *, journal: Journal | None = None, inputs: int = 0,
                say: Callable[[str], None] = lambda _: None) -> Table:
    """The table around ``game``: the demo's registry, a simulated strip, no readers
    (the inputs go through the button queue)."""
    registry = demo_registry(game.deck)
    controller = TableController(game, identify=registry.identify, say=say, sound=SilentSound(),
                                 dealer=dealer_for(seed), clock=clock, journal=journal, inputs=inputs)
    profile = load_profile(game.track.slug)
    strip = SimulatedStrip(profile.led_count, keep=1)
    events: queue.Queue[Event] = queue.Queue()
    return Table(controller, TableView(profile), [], StripSlot(strip), events, clock=clock)


def rebuild(loaded: Loaded) -> TopRace:
    """The game of a journal, as ``toprace-pi play`` rebuilds it."""
    settings = loaded.settings
    game = new_game(settings, load_track(settings.track), load_deck(settings.deck))
    for step in loaded.steps:
        game.apply(step)
    return game


def open_table(settings: Settings, seed: int, path: Path,
               say: Callable[[str], None] = lambda _: None) -> tuple[Table, Journal]:
    """The table for the journal at ``path``: resumed if it exists, else a new game."""
    if path.exists():
        journal, loaded = Journal.resume(path)
        for warning in loaded.warnings:
            say(warning)
        return build_table(rebuild(loaded), seed, journal=journal, inputs=loaded.last_input or 0, say=say), journal
    game = new_game(settings, load_track(settings.track), load_deck(settings.deck))
    journal = Journal.create(path, settings)
    return build_table(game, seed, journal=journal, say=say), journal


def feed(table: Table, events: Sequence[Sequence[str]], stop: int | None = None) -> None:
    """Feed the script from the first input the table has not handled, up to ``stop``."""
    controller = table.controller
    stop = len(events) if stop is None else stop
    for index in range(controller.inputs, stop):
        table.buttons.put(decode(events[index]))
        table.step()
        if controller.inputs != index + 1:
            raise RuntimeError(f"input {index + 1} was handled as input {controller.inputs}")


def result_of(game: TopRace) -> dict[str, Any]:
    return {"snapshot": game.snapshot(), "log": [str(a) for a in game.log]}


def write_atomically(path: Path, data: dict[str, Any]) -> None:
    temporary = path.with_name(path.name + ".tmp")
    with open(temporary, "w", encoding="utf-8") as file:
        json.dump(data, file, sort_keys=True)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)


def main(argv: Sequence[str]) -> int:
    if len(argv) != 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    script, journal_path, result = (Path(a) for a in argv)
    settings, seed, events = read_script(script)
    print("ready", flush=True)
    table, journal = open_table(settings, seed, journal_path)
    try:
        feed(table, events)
    finally:
        journal.close()
    write_atomically(result, result_of(table.controller.game))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
