"""The ``toprace-pi`` command line.

Errors in arguments or data files print one clear message on stderr and exit
with status 2; nothing prints a traceback for bad input.
"""

from __future__ import annotations

import argparse
import errno
import json
import logging
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from toprace_pi import __version__
from toprace_pi.core import registry
from toprace_pi.errors import TopRaceError
from toprace_pi.games.toprace.bots import BOT_KINDS
from toprace_pi.games.toprace.data import DEFAULT_DECK, DEFAULT_TRACK, deck_names, load_deck, load_track, track_names
from toprace_pi.games.toprace.report import json_report, text_report
from toprace_pi.games.toprace.rules.game import Game
from toprace_pi.games.toprace.rules.variants import variant_names
from toprace_pi.games.toprace.simulate import simulate
from toprace_pi.games.toprace.table.tags import WALK_NAMES
from toprace_pi.service import LogFormat, logs_to_journald
from toprace_pi.text import printable_lines

if TYPE_CHECKING:
    from toprace_pi.games.toprace.render.ansi import ColourMode
    from toprace_pi.table.config import TableConfig

USAGE_ERROR = 2
DEMO_JOURNAL = Path("~/.local/share/toprace-pi/demo-journal.jsonl")
#: Seconds the demo waits after each step, so a person can follow it.
DEMO_DELAY = 0.4


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line, not a usage dump."""

    def error(self, message: str) -> NoReturn:
        self.exit(USAGE_ERROR, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _players(text: str) -> int:
    value = int(text) if text.isdigit() else -1
    if not 2 <= value <= 6:
        raise argparse.ArgumentTypeError(f"players must be a whole number from 2 to 6, not {text!r}")
    return value


def _positive(text: str) -> int:
    value = int(text) if text.isdigit() else 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number from 1, not {text!r}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 60:
        raise argparse.ArgumentTypeError(f"expected seconds from 0 to 60, not {text!r}")
    return value


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"the seed must be a whole number, not {text!r}") from None


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="toprace-pi", description="Top Race on an augmented table: rules engine, bots and tools.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    game_choice = _Parser(add_help=False)
    game_choice.add_argument("--game", choices=registry.game_names(), default=registry.DEFAULT_GAME,
                             help=f"the game (default {registry.DEFAULT_GAME}; toprace-pi games lists them)")
    game_options = _Parser(add_help=False, parents=[game_choice])
    shipped = ", ".join(track_names())
    game_options.add_argument("--track", default=DEFAULT_TRACK, help=f"a shipped track ({shipped}) or a track file")
    game_options.add_argument("--players", type=_players, default=4, help="2 to 6 (default 4)")
    game_options.add_argument("--races", type=_positive, default=1, help="races in the match (default 1)")
    game_options.add_argument("--seed", type=_seed, default=0, help="seed for the deal and the bots (default 0)")
    game_options.add_argument(
        "--bots", choices=(*BOT_KINDS, "mixed"), default="greedy", help="bot kind (default greedy)"
    )
    decks = ", ".join(deck_names())
    game_options.add_argument("--deck", default=DEFAULT_DECK,
                              help=f"a shipped deck ({decks}) or a deck file (default {DEFAULT_DECK})")
    game_options.add_argument("--variant", choices=[v for v in variant_names() if "+" not in v], default="base",
                              help="the rules: base or a variant (default base); add --pitstop to combine")
    game_options.add_argument("--pitstop", action="store_true", help="add the Pit Stop rule")

    sim = commands.add_parser("simulate", parents=[game_options], help="play a whole bot game and print a report")
    sim.add_argument("--json", action="store_true", help="print the report as one JSON document")
    sim.set_defaults(run=_simulate)

    demo = commands.add_parser("demo", parents=[game_options], help="bots play a whole game at a simulated table")
    demo.add_argument("--human", action="append", default=[], metavar="NAME",
                      help="a seat played at the keyboard by NAME (repeat for more); the bots play the rest")
    demo.add_argument("--delay", type=_seconds, default=DEMO_DELAY, metavar="SECONDS",
                      help=f"the pause after each step (default {DEMO_DELAY:g}; space pauses, . steps, q quits)")
    demo.add_argument("--fast", action="store_true", help="no pauses between steps (--delay 0)")
    demo.add_argument("--no-colour", action="store_true", help="plain text, no colour codes")
    demo.add_argument("--svg-dir", type=Path, metavar="DIR", help="also write a picture of every step")
    demo.add_argument("--journal", type=Path, metavar="FILE", default=DEMO_JOURNAL,
                      help=f"where the game's journal goes (default {DEMO_JOURNAL}; the last few before it are kept)")
    demo.set_defaults(run=_demo)

    config_option = _Parser(add_help=False)
    config_option.add_argument("--config", type=Path, metavar="FILE", help="the table's configuration (TOML)")

    play = commands.add_parser("play", parents=[config_option, game_choice],
                               help="run the table on its hardware, resuming the game in progress")
    play.add_argument("--new", action="store_true", help="start a new game (the old journal is archived)")
    play.set_defaults(run=_play_table)
    replay = commands.add_parser("replay", parents=[game_choice],
                                 help="play a game journal back step by step on the simulated strip")
    replay.add_argument("journal", type=Path)
    replay.add_argument("--fast", action="store_true", help="no pauses between steps")
    replay.add_argument("--no-colour", action="store_true")
    replay.add_argument("--svg-dir", type=Path, metavar="DIR",
                        help="also write a picture of every step and an index.html that plays them back")
    replay.add_argument("--report", choices=("text", "json"),
                        help="print the game's report (as simulate does) instead of telling it step by step")
    replay.set_defaults(run=_replay)
    check_hw = commands.add_parser("check", parents=[config_option], help="self-test: readers, LED chase, buttons")
    check_hw.set_defaults(run=_check_hardware)
    enrol = commands.add_parser("enrol", parents=[config_option],
                                help="enrol the tags of the speed cards, the car tokens or each seat's pit stop cards")
    enrol.add_argument("what", choices=WALK_NAMES)
    enrol.add_argument("--again", action="store_true",
                       help="walk every item anew (by default a walk goes on where an earlier one stopped)")
    enrol.set_defaults(run=_enrol)
    calibrate = commands.add_parser("calibrate", parents=[config_option], help="assign the LEDs to a track's spaces")
    calibrate.add_argument("track", help="a shipped track or a track file")
    calibrate.add_argument("--out", type=Path, metavar="FILE",
                           help="where to save the profile (default: beside a track file, as NAME.profile.toml; "
                                "for a shipped track TRACK.toml)")
    calibrate.set_defaults(run=_calibrate)

    commands.add_parser("games", help="list the games the table plays").set_defaults(run=_games)
    track = commands.add_parser("track", help="show or check a track layout")
    track_commands = track.add_subparsers(dest="track_command", required=True, parser_class=_Parser)
    show = track_commands.add_parser("show", help="draw a track in the terminal")
    show.add_argument("name", help="a shipped track or a track file")
    show.add_argument("--svg", type=Path, metavar="FILE", help="also write a picture of the track")
    show.add_argument("--no-colour", action="store_true")
    show.set_defaults(run=_track_show)
    track_commands.add_parser("list", help="list the shipped tracks").set_defaults(run=_track_list)
    track_check = track_commands.add_parser("check", help="validate a track file and its board profile, naming "
                                                          "every problem")
    track_check.add_argument("file", help="a track file (or a shipped track)")
    track_check.set_defaults(run=_track_check)

    deck = commands.add_parser("deck", help="check a speed-card deck file")
    deck_commands = deck.add_subparsers(dest="deck_command", required=True, parser_class=_Parser)
    check = deck_commands.add_parser("check", help="validate a deck file: its edition's cars, joker and pairs, and "
                                                   "its fairness")
    check.add_argument("file", nargs="?", default=DEFAULT_DECK,
                       help=f"a shipped deck or a deck file (default: {DEFAULT_DECK})")
    check.set_defaults(run=_deck_check)
    deck_commands.add_parser("list", help="list the shipped decks").set_defaults(run=_deck_list)
    labels = deck_commands.add_parser("labels", help="write a printable sheet of labels for the tags of a deck's "
                                                     "speed cards, its car tokens and the pit stop cards")
    labels.add_argument("file", nargs="?", default=DEFAULT_DECK,
                        help=f"a shipped deck or a deck file (default: {DEFAULT_DECK})")
    labels.add_argument("--svg", type=Path, metavar="FILE", required=True, help="where to write the sheet (SVG)")
    labels.set_defaults(run=_deck_labels)
    tips = commands.add_parser("tips", help="check a tip table file (Tips variant)")
    tips_commands = tips.add_subparsers(dest="tips_command", required=True, parser_class=_Parser)
    tips_check = tips_commands.add_parser("check", help="validate a tip table and print it")
    tips_check.add_argument("file", nargs="?", default="standard", help="a tip table file (default: the shipped one)")
    tips_check.set_defaults(run=_tips_check)
    for command in commands.choices.values():
        if command.get_default("run") is None:
            continue  # a group of commands (track, deck, tips): their output is the point, not the log
        loudness = command.add_mutually_exclusive_group()
        loudness.add_argument("-v", "--verbose", action="store_true", help="log debugging detail too")
        loudness.add_argument("-q", "--quiet", action="store_true", help="log warnings and errors only")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    _set_up_logging(args)
    try:
        return int(args.run(args) or 0)
    except TopRaceError as exc:
        print(f"toprace-pi: {printable_lines(str(exc))}", file=sys.stderr)
        return USAGE_ERROR
    except BrokenPipeError:
        return 0
    except OSError as exc:  # a full or read-only disk, a folder the user may not write, ...
        print(f"toprace-pi: {printable_lines(_os_problem(exc))}", file=sys.stderr)
        return USAGE_ERROR
    except KeyboardInterrupt:
        return 130


def _set_up_logging(args: argparse.Namespace) -> None:
    """Warnings and device news go to stderr: the journal under systemd, with
    each line's priority. ``play`` and ``check`` tell device news (INFO) by
    default; ``-v`` adds debugging detail, ``--quiet`` keeps warnings only."""
    level = logging.INFO if args.command in ("play", "check") else logging.WARNING
    if getattr(args, "verbose", False):
        level = logging.DEBUG
    elif getattr(args, "quiet", False):
        level = logging.WARNING
    root = logging.getLogger()
    root.setLevel(level)
    if not root.handlers:  # a host (a test runner) may have set up its own
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(LogFormat(journald=logs_to_journald(sys.stderr)))
        root.addHandler(handler)
    logging.captureWarnings(True)  # a library's warnings (gpiozero's pin fallback) with their priority too


def _tell(text: str) -> None:
    """Print a line of the hardware tools, which may quote a device (a hub's version
    string, a reader's error): made printable first."""
    print(printable_lines(text), flush=True)


def _os_problem(exc: OSError) -> str:
    """An operating system error in words, naming the file and what to check."""
    where = f"{exc.filename}: " if exc.filename else ""
    hint = {errno.EACCES: "check who owns it and its folder (the service runs as the user toprace)",
            errno.EPERM: "check who owns it and its folder (the service runs as the user toprace)",
            errno.EROFS: "the file system is read-only: check the SD card and how it is mounted",
            errno.ENOSPC: "the disk is full: make room and start again"}.get(exc.errno or 0)
    return f"{where}{exc.strerror or exc}" + (f"; {hint}" if hint else "")


def _simulate(args: argparse.Namespace) -> int:
    game = _play(args)
    _print_report(game, "json" if args.json else "text", {"seed": args.seed, "bots": args.bots,
                                                          "variant": _variant(args)})
    return 0


def _print_report(game: Game, kind: str | None, extra: dict[str, object]) -> None:
    """The one report of a game, as text or JSON (``None``: none)."""
    if kind == "json":
        print(json.dumps(json_report(game, extra), indent=2))
    elif kind == "text":
        print(text_report(game, extra))


def _variant(args: argparse.Namespace) -> str:
    """The variant's registered name: ``--pitstop`` joins the Pit Stop rule to it."""
    if not args.pitstop or args.variant == "pitstop":
        return str(args.variant)
    name = "pitstop" if args.variant == "base" else f"pitstop+{args.variant}"
    if name not in variant_names():
        raise TopRaceError(f"the Pit Stop rule does not go with --variant {args.variant}")
    return name


def _play(args: argparse.Namespace) -> Game:
    track, deck = load_track(args.track), load_deck(args.deck)
    return simulate(track, deck, players=args.players, races=args.races, seed=args.seed, bots=args.bots,
                    variant=_variant(args), deck_name=_deck_name(args.deck))


def _deck_name(name: str) -> str:
    """A shipped deck's name, or a deck file's absolute path: what the game records, so that its journal
    replays from any folder (a track file records its path by itself, as its slug)."""
    return name if name in deck_names() else str(Path(name).resolve())


def _demo(args: argparse.Namespace) -> int:
    try:
        from toprace_pi.games.toprace.table.demo import run_demo
        from toprace_pi.hardware.keyboard import TerminalKeys
        from toprace_pi.table.screen import DemoScreen
    except ImportError as exc:
        print(f"toprace-pi: the demo presses its buttons through gpiozero's mock pins ({exc}): "
              "pip install gpiozero, or run python3 dev.py demo", file=sys.stderr)
        return USAGE_ERROR

    keys = TerminalKeys()
    if args.human and not keys.is_terminal:
        print("toprace-pi: --human needs a terminal to type on (standard input is not one)", file=sys.stderr)
        return USAGE_ERROR
    screen = DemoScreen(lambda text: print(text, end="", flush=True), live=sys.stdout.isatty())
    try:
        run_demo(track_name=args.track, players=args.players, races=args.races, seed=args.seed, bots=args.bots,
                 variant=_variant(args), deck=_deck_name(args.deck), delay=0.0 if args.fast else args.delay,
                 colour=_colour(args), svg_dir=args.svg_dir, journal=args.journal.expanduser(), humans=args.human,
                 keys=keys if keys.is_terminal else None, screen=screen)
    finally:
        keys.close()
    return 0


def _colour(args: argparse.Namespace) -> ColourMode:
    """The board's colours: none with ``--no-colour``, else what the terminal and
    the environment allow (``NO_COLOR``, ``TERM``, ``COLORTERM``)."""
    from toprace_pi.games.toprace.render.ansi import ColourMode, colour_mode

    return ColourMode.NONE if args.no_colour else colour_mode(sys.stdout)


def _config(args: argparse.Namespace) -> TableConfig:
    from toprace_pi.table.config import TableConfig, load_config

    return load_config(args.config) if args.config else TableConfig()


def _play_table(args: argparse.Namespace) -> int:
    from toprace_pi.table.live import run_table

    config = _config(args)
    _same_game(args.game, config.game, f"the configuration ({args.config or 'the defaults'})")
    return run_table(config, new=args.new)


def _same_game(asked: str, found: str, where: str) -> None:
    """``--game`` names the game the table is set up for, or is refused."""
    if asked != found:
        raise TopRaceError(f"--game {asked}, but {where} is for {registry.get(found).info.title} ({found})")


def _games(args: argparse.Namespace) -> int:
    for name in registry.game_names():
        entry = registry.get(name)
        info = entry.info
        nature = ", ".join(word for word, has in (("chance", info.chance), ("secrets", info.secret_information),
                                                  ("simultaneous moves", info.simultaneous)) if has)
        print(f"{name:10} {info.title}: {info.min_players}-{info.max_players} players; {nature}; "
              f"rules version {info.version}")
        print(f"{'':10} variants: {', '.join(entry.variants())}")
    return 0


def _replay(args: argparse.Namespace) -> int:
    from toprace_pi.games.toprace.render.terminal import board_width
    from toprace_pi.games.toprace.table.replay import replay_journal

    def warn(text: str) -> None:
        print(text, file=sys.stderr)

    from toprace_pi.table.journal import journal_game

    _same_game(args.game, journal_game(args.journal), str(args.journal))
    game = replay_journal(args.journal, pause=0.0 if args.fast or args.report else 0.4,
                          colour=_colour(args), width=board_width(), svg_dir=args.svg_dir,
                          narrate=args.report is None, out=warn if args.report else print, warn=warn)
    _print_report(game, args.report, {"journal": str(args.journal)})
    return 0


def _check_hardware(args: argparse.Namespace) -> int:
    from toprace_pi.table.selftest import self_test

    return 1 if self_test(_config(args), _tell) else 0


def _enrol(args: argparse.Namespace) -> int:
    from toprace_pi.table.tools import enrol

    config = _config(args)
    enrol(args.what, config, _tell, tags=registry.get(config.game).table(config.settings).tags(), again=args.again)
    return 0


def _calibrate(args: argparse.Namespace) -> int:
    import queue

    from toprace_pi.games.toprace.table.board import calibration_target
    from toprace_pi.table.live import open_buttons
    from toprace_pi.table.tools import button_presses, calibrate_board, typed_presses

    config = _config(args)
    target = calibration_target(args.track, args.out)
    if config.button_kind == "simulated":
        calibrate_board(target, config, typed_presses(sys.stdin, _tell), _tell)
        return 0
    events: queue.Queue = queue.Queue()
    with open_buttons(config, events):
        calibrate_board(target, config, button_presses(events), _tell)
    return 0


def _track_show(args: argparse.Namespace) -> int:
    from toprace_pi.games.toprace.render.svg import track_svg
    from toprace_pi.games.toprace.render.terminal import board_width, render_track

    track = load_track(args.name)
    print(render_track(track, colour=_colour(args), width=board_width()))
    if track.reconstructed:
        print("A reconstructed layout: compare it with your board and correct the file where it differs.")
    if args.svg:
        try:
            args.svg.write_text(track_svg(track), "utf-8")
        except OSError as exc:
            print(f"toprace-pi: cannot write {args.svg}: {exc.strerror}", file=sys.stderr)
            return USAGE_ERROR
        print(f"wrote {args.svg}")
    return 0


def _track_check(args: argparse.Namespace) -> int:
    """Every problem of the track and of its board profile in words, exit code 1 if there is one."""
    from toprace_pi.errors import DataError
    from toprace_pi.games.toprace.table.board import load_profile, profile_beside
    from toprace_pi.hardware.profile import Profile

    beside = profile_beside(args.file) if args.file not in track_names() else None
    profile: Profile | None = None
    try:
        track = load_track(args.file)
        if beside is None:
            profile = load_profile(args.file)
        else:
            profile = load_profile(beside, track) if beside.is_file() else None
    except DataError as exc:
        print(printable_lines(str(exc)))
        return 1
    starts = ", ".join(track.space_id(track.starting_spaces[n]) for n in sorted(track.starting_spaces))
    print(printable_lines(f"{args.file}: {track.name}: valid: {len(track.spaces)} spaces in {track.lanes} lanes, "
                          f"finish line at {track.finish_line:g}, tip lines at "
                          f"{', '.join(f'{x:g}' for x in track.tip_lines)}, starting spaces 1-6 on {starts}"))
    if profile is None:
        print(printable_lines(f"board profile: none beside it yet ({beside}): the table lights the default layout "
                              f"until toprace-pi calibrate {args.file} saves one there"))
    else:
        kind = "calibrated" if profile.calibrated else "a default layout, not calibrated"
        print(f"board profile: {profile.led_count} LEDs ({kind})")
    return 0


def _track_list(args: argparse.Namespace) -> int:
    for name in track_names():
        track = load_track(name)
        print(f"{name:14} {track.name:14} {len(track.spaces):4} spaces, lap {track.finish_line:g}")
    return 0


def _deck_check(args: argparse.Namespace) -> int:
    deck = load_deck(args.file)
    print(f"{args.file}: {deck.name}, {len(deck)} cards: the composition is valid")
    cars = deck.cars
    width = max(len(word) for car in cars for word in (car.name, car.id))
    print("cars:")
    for car, (count, total) in deck.colour_totals().items():
        print(f"  {car.name:{width}}  id {car.id:{width}}  letter {car.letter}  rgb {car.rgb!s:15}"
              f"  on {count:2} cards, total value {total}")
    jokers = sum(1 for c in deck.cards if getattr(c, "has_joker", False))
    print(f"joker: {cars.joker.name} (id {cars.joker.id}, rgb {cars.joker.rgb}), on {jokers} cards")
    print(f"Sprint/Breakdown pairs: {cars.pairs_text()}")
    unfair = deck.fairness_problems()
    for problem in unfair:
        print(f"warning: {problem}")
    if not unfair:
        print("fair: every car appears equally often with the same total value")
    return 0


def _deck_list(args: argparse.Namespace) -> int:
    for name in deck_names():
        deck = load_deck(name)
        print(f"{name:14} {deck.name}: cars {deck.cars.ids}; joker {deck.cars.joker.id}")
    return 0


def _deck_labels(args: argparse.Namespace) -> int:
    from toprace_pi.games.toprace.table.labels import deck_labels, labels_svg

    deck = load_deck(args.file)
    labels = deck_labels(deck)
    args.svg.write_text(labels_svg(labels, f"Top Race tag labels: {deck.name}"), "utf-8")
    cards = len(deck)
    print(f"wrote {args.svg}: {len(labels)} labels ({cards} speed cards, {len(deck.cars)} car tokens, "
          f"{len(labels) - cards - len(deck.cars)} pit stop cards)")
    return 0


def _tips_check(args: argparse.Namespace) -> int:
    from toprace_pi.games.toprace.data import load_tip_table
    from toprace_pi.games.toprace.rules.events import money

    table = load_tip_table(args.file)
    print(f"{args.file}: {table.name}: valid" + (" (reconstructed)" if table.reconstructed else ""))
    print("place      " + "".join(f"{n:>10}" for n in range(1, 7)))
    for name, row in zip(("1st tip", "2nd tip", "3rd tip"), table.rows, strict=True):
        print(f"{name:10} " + "".join(f"{money(v):>10}" for v in row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
