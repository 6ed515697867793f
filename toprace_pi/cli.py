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
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toprace_pi import __version__
from toprace_pi.arguments import USAGE_ERROR, UsageParser, listen_address, seconds, seed
from toprace_pi.core import registry
from toprace_pi.errors import TopRaceError
from toprace_pi.text import printable_lines

if TYPE_CHECKING:
    from toprace_pi.render.ansi import ColourMode
    from toprace_pi.table.config import TableConfig

DEMO_JOURNAL = Path("~/.local/share/toprace-pi/demo-journal.jsonl")
#: Seconds the demo waits after each step, so a person can follow it.
DEMO_DELAY = 0.4
#: Seconds ``replay`` waits after each step (unless ``--fast``).
REPLAY_PAUSE = 0.4
#: Why a command of the web pages cannot run.
WEB_MISSING = "the web pages need aiohttp and segno ({exc}): pip install 'toprace-pi[web]'"
_Parser = UsageParser
#: A command's arguments, added to its parser for the game asked for.
Builder = Callable[[argparse.ArgumentParser, str], None]


def build_parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The command line for ``argv``: every command is listed, but only the one ``argv`` runs gets
    its arguments (``simulate`` and ``demo`` those of the game ``--game`` names), so the help and
    each command import only what they need: no game's variants and bots for ``--help``."""
    command, game = _command_in(argv), _game_in(argv)
    parser = _Parser(prog="toprace-pi", description="Games on an augmented table (Top Race, AUTORACE, TOP SPEED): "
                                                    "rules engines, bots and tools.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name, (text, build, loud) in _every_command(command).items():
        sub = commands.add_parser(name, help=text, description=text[:1].upper() + text[1:] + ".")
        if name != command:
            continue
        build(sub, game)
        if loud:
            loudness = sub.add_mutually_exclusive_group()
            loudness.add_argument("-v", "--verbose", action="store_true", help="log debugging detail too")
            loudness.add_argument("-q", "--quiet", action="store_true", help="log warnings and errors only")
    return parser


def _every_command(command: str | None) -> dict[str, tuple[str, Builder, bool]]:
    """The shared commands, and the games' own ones unless ``command`` is a shared one (their modules are
    light, but a shared command needs none of them)."""
    if command in _COMMANDS:
        return _COMMANDS
    return {**_COMMANDS, **{word: (own.help, _bound(own), own.loud) for word, own in registry.commands().items()}}


def _bound(command: registry.Command) -> Builder:
    """A game's command's builder as the shared ones are called (it asks no game: it is one)."""
    return lambda parser, game: command.build(parser)


def _parse(words: list[str]) -> argparse.Namespace:
    """``words`` read by the parser built for them; an option another game has is named as not this one's."""
    parser = build_parser(words)
    args, unknown = parser.parse_known_args(words)
    if unknown:
        hint = ""
        if args.command in ("simulate", "demo"):
            hint = (f": not an option of {registry.get(args.game).info.title} "
                    f"(toprace-pi {args.command} --game {args.game} --help lists its options)")
        parser.exit(USAGE_ERROR, f"toprace-pi: unrecognized arguments: {' '.join(unknown)}{hint}\n")
    return args


def _command_in(argv: Sequence[str]) -> str | None:
    """The command ``argv`` runs: its first word that is not an option (the top level's take no value)."""
    return next((word for word in argv if not word.startswith("-")), None)


class _GameScan(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise ValueError(message)


def _game_in(argv: Sequence[str]) -> str:
    """The game ``--game`` names in ``argv`` (read as argparse reads it), or the default game for any
    other: the full parse then names the problem."""
    scan = _GameScan(add_help=False)
    scan.add_argument("--game")
    try:
        found = scan.parse_known_args(list(argv))[0].game
    except ValueError:
        found = None
    return found if found in registry.game_names() else registry.DEFAULT_GAME


def game_cli(name: str) -> registry.GameCommandLine:
    """The game's part of the shared commands (:class:`~toprace_pi.core.registry.GameCommandLine`)."""
    return registry.get(name).command_line()


def _game_choice(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", choices=registry.game_names(), default=registry.DEFAULT_GAME,
                        help=f"the game (default {registry.DEFAULT_GAME}; toprace-pi games lists them)")


def _game_options(parser: argparse.ArgumentParser, command: str, game: str) -> None:
    """``--game``, the seed, and the options of the game asked for; the help says whose they are."""
    title = registry.get(game).info.title
    others = ", ".join(name for name in registry.game_names() if name != game)
    parser.description = (f"{parser.description} The options below are {title}'s (--game {game}); "
                          f"add --game NAME to see another game's ({others}).")
    _game_choice(parser)
    parser.add_argument("--seed", type=seed, default=0,
                        help="seed for chance and the bots (default 0): the same seed plays the same game every "
                             "time, on any machine")
    game_cli(game).add_options(parser, command)


def _build_simulate(parser: argparse.ArgumentParser, game: str) -> None:
    _game_options(parser, "simulate", game)
    parser.add_argument("--json", action="store_true", help="print the report as one JSON document")
    parser.set_defaults(run=_simulate)


def _build_demo(parser: argparse.ArgumentParser, game: str) -> None:
    _game_options(parser, "demo", game)
    parser.add_argument("--human", action="append", default=[], metavar="NAME",
                        help="a seat played at the keyboard by NAME (repeat for more); the bots play the rest")
    parser.add_argument("--delay", type=seconds, default=DEMO_DELAY, metavar="SECONDS",
                        help=f"the pause after each step (default {DEMO_DELAY:g}; space pauses, . steps, q quits)")
    parser.add_argument("--fast", action="store_true", help="no pauses between steps (--delay 0)")
    parser.add_argument("--no-colour", action="store_true", help="plain text, no colour codes")
    parser.add_argument("--web", metavar="HOST:PORT", type=listen_address,
                        help="serve the table's web pages there (the board for everyone, a page per seat); "
                             "0.0.0.0:8080 lets phones on the network in")
    parser.add_argument("--remote", action="append", default=[], metavar="NAME",
                        help="a player who plays their seat from their phone's page (needs --web); repeatable")
    parser.add_argument("--journal", type=Path, metavar="FILE", default=DEMO_JOURNAL,
                        help=f"where the game's journal goes (default {DEMO_JOURNAL}; the last few before it are "
                             "kept)")
    parser.set_defaults(run=_demo)


def _config_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, metavar="FILE", help="the table's configuration (TOML)")


def _build_play(parser: argparse.ArgumentParser, game: str) -> None:
    _config_option(parser)
    parser.add_argument("--game", choices=registry.game_names(),
                        help="the game the configuration must be for (by default, the one it names)")
    parser.add_argument("--new", action="store_true", help="start a new game (the old journal is archived)")
    parser.set_defaults(run=_play_table)


def _build_web_links(parser: argparse.ArgumentParser, game: str) -> None:
    _config_option(parser)
    parser.set_defaults(run=_web_links)


def _build_replay(parser: argparse.ArgumentParser, game: str) -> None:
    _game_choice(parser)
    parser.add_argument("journal", type=Path)
    parser.add_argument("--fast", action="store_true", help="no pauses between steps")
    parser.add_argument("--no-colour", action="store_true")
    parser.add_argument("--svg-dir", type=Path, metavar="DIR",
                        help="also write a picture of every step and an index.html that plays them back")
    parser.add_argument("--report", choices=("text", "json"),
                        help="print the game's report (as simulate does) instead of telling it step by step")
    parser.set_defaults(run=_replay)


def _build_check(parser: argparse.ArgumentParser, game: str) -> None:
    _config_option(parser)
    parser.set_defaults(run=_check_hardware)


def _build_enrol(parser: argparse.ArgumentParser, game: str) -> None:
    _config_option(parser)
    parser.add_argument("what", help=f"the walk: which of the config's game's tags to enrol; {_every_walk()} (a "
                                     "colour's walk is one seat's cards, there when that seat plays)")
    parser.add_argument("--again", action="store_true",
                        help="walk every item anew (by default a walk goes on where an earlier one stopped)")
    parser.set_defaults(run=_enrol)


def _every_walk() -> str:
    """Each game's enrolment walks, as its own tags name them at the biggest table it seats."""
    walks = []
    for name in registry.game_names():
        entry = registry.get(name)
        problems: list[str] = []
        players = [f"player {seat}" for seat in range(1, entry.info.max_players + 1)]
        setup = entry.records.parse_section({"players": players}, problems)
        assert not problems, problems
        walks.append(f"{entry.info.title}: {', '.join(entry.table(setup).tags().walks)}")
    return "; ".join(walks)


def _build_calibrate(parser: argparse.ArgumentParser, game: str) -> None:
    _config_option(parser)
    parser.add_argument("track", help="a shipped track or a track file (AUTORACE: a board)")
    parser.add_argument("--out", type=Path, metavar="FILE",
                        help="where to save the profile (default: beside a track file, as NAME.profile.toml; "
                             "for a shipped track TRACK.toml)")
    parser.add_argument("--again", action="store_true",
                        help="start from LED 0 (by default a walk cut short goes on where it stopped: its presses "
                             "are kept beside the profile, in FILE.progress)")
    parser.set_defaults(run=_calibrate)


def _build_games(parser: argparse.ArgumentParser, game: str) -> None:
    parser.set_defaults(run=_games)


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    args = _parse(words)
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
        from toprace_pi.service import LogFormat, logs_to_journald  # not for the help, which exits first

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
            errno.ENOSPC: "the disk is full: make room and start again",
            errno.EIO: "the disk failed to read or write it: check the SD card (dmesg tells more)"}.get(exc.errno or 0)
    return f"{where}{exc.strerror or exc}" + (f"; {hint}" if hint else "")


def _simulate(args: argparse.Namespace) -> int:
    part = game_cli(args.game)
    game, extra = part.simulate(args)
    print_report(part, game, "json" if args.json else "text", {"seed": args.seed, **extra})
    return 0


def print_report(reports: registry.Reports, game: Any, kind: str | None, extra: dict[str, object]) -> None:
    """A finished game's one report, as text or JSON (``None``: none)."""
    if kind == "json":
        print(json.dumps(reports.json_report(game, extra), indent=2))
    elif kind == "text":
        text = reports.text_report(game, extra)
        print(text, end="" if text.endswith("\n") else "\n")


def _demo(args: argparse.Namespace) -> int:
    """The game's demo at a simulated table: the game binds its own options (``demo(args)``), the
    table's screen, keys and journal are the same for every game."""
    title = registry.get(args.game).info.title
    try:
        run = game_cli(args.game).demo(args)
        import gpiozero.pins.mock  # noqa: F401  (the demo's buttons are mock pins: found now, not mid-game)

        from toprace_pi.hardware.keyboard import TerminalKeys
        from toprace_pi.table.screen import DemoScreen
    except ImportError as exc:
        if "gpiozero" in str(exc):
            print(f"toprace-pi: the demo presses its buttons through gpiozero's mock pins ({exc}): "
                  "pip install gpiozero, or run python3 dev.py demo", file=sys.stderr)
        else:
            print(f"toprace-pi: {title}'s demo cannot start: {exc}", file=sys.stderr)
        return USAGE_ERROR

    keys = TerminalKeys()
    if args.human and not keys.is_terminal:
        print("toprace-pi: --human needs a terminal to type on (standard input is not one)", file=sys.stderr)
        return USAGE_ERROR
    if args.remote and not args.web:
        print("toprace-pi: --remote plays a seat from its web page: give --web HOST:PORT too", file=sys.stderr)
        return USAGE_ERROR
    screen = DemoScreen(lambda text: print(text, end="", flush=True), live=sys.stdout.isatty())
    journal = args.journal.expanduser()
    try:
        pages = _demo_pages(args.web, journal, args.remote, screen) if args.web else None
        run(delay=0.0 if args.fast else args.delay, colour=_colour(args), journal=journal,
            humans=args.human, keys=keys if keys.is_terminal else None, screen=screen,
            **({"remotes": args.remote, "pages": pages} if pages else {}))
    finally:
        keys.close()
    return 0


def _demo_pages(listen: tuple[str, int], journal: Path, remotes: list[str], screen: Any) -> Callable[[Any], Any]:
    """What opens the web pages on the demo's table once it is built: the server started, its
    addresses told (a QR code for each seat played from a phone), the pages kept up a while after
    the game so that everyone sees its end."""
    try:
        from toprace_pi.web.live import DEMO_LINGER, TableWeb
    except ImportError as exc:
        raise TopRaceError(WEB_MISSING.format(exc=exc)) from None
    host, port = listen

    def open_pages(table: Any) -> Any:
        web = TableWeb(table, host=host, port=port, journal=journal, linger=DEMO_LINGER)
        web.start()
        names = table.controller.game.names
        for line in web.links(qr=[s for s, name in enumerate(names) if name in remotes]):
            screen.news(line)
        return web

    return open_pages


def _colour(args: argparse.Namespace) -> ColourMode:
    """The board's colours: none with ``--no-colour``, else what the terminal and
    the environment allow (``NO_COLOR``, ``TERM``, ``COLORTERM``)."""
    from toprace_pi.render.ansi import ColourMode, colour_mode

    return ColourMode.NONE if args.no_colour else colour_mode(sys.stdout)


def _config(args: argparse.Namespace) -> TableConfig:
    from toprace_pi.table.config import TableConfig, load_config

    return load_config(args.config) if args.config else TableConfig()


def _play_table(args: argparse.Namespace) -> int:
    from toprace_pi.table.garbage import collections_off

    with collections_off():  # until the table's loop: it collects what the start-up left, once
        from toprace_pi.table.live import run_table

        config = _config(args)
        if args.game is not None:
            _same_game(args.game, config.game, f"the configuration ({args.config or 'the defaults'})")
        return run_table(config, new=args.new, pages=_table_pages(config))


def _table_pages(config: TableConfig) -> Any:
    """What opens ``[web]``'s pages on the table, if the config asks for them (and says why not, aloud, if
    what they need is not installed: the table plays on without them)."""
    if config.web is None:
        return None
    try:
        from toprace_pi.web.live import open_pages
    except ImportError as exc:
        reason = f"the web page needs aiohttp and segno ({exc}): pip install 'toprace-pi[web]'"

        def missing(config: TableConfig, table: Any, announcer: Any, *, new_game: bool) -> list[Any]:
            announcer.say(f"{reason}; the table plays on without it")
            return []

        return missing
    return open_pages


def _web_links(args: argparse.Namespace) -> int:
    """The boards' links of the table the config sets up: the table's own board is a secret of its screen,
    so ``play`` never logs it; whoever may read the table's files asks for it here."""
    try:
        from toprace_pi.web.live import table_links
    except ImportError as exc:
        raise TopRaceError(WEB_MISSING.format(exc=exc)) from None
    for line in table_links(_config(args)):
        print(line)
    return 0


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
    """A journal played back by its own game (``--game`` only confirms which that is), step by step on the
    terminal (with ``--svg-dir`` a picture of each step too), or (``--report``) as its game's report."""
    from toprace_pi.table.journal import journal_game

    found = journal_game(args.journal)
    _same_game(args.game, found, str(args.journal))
    part = game_cli(found)

    def warn(text: str) -> None:
        print(text, file=sys.stderr)

    game = part.play_back(args.journal, pause=0.0 if args.fast or args.report else REPLAY_PAUSE, colour=_colour(args),
                          svg_dir=args.svg_dir, narrate=args.report is None, out=warn if args.report else print,
                          warn=warn)
    print_report(part, game, args.report, {"journal": str(args.journal)})
    return 0


def _check_hardware(args: argparse.Namespace) -> int:
    from toprace_pi.table.selftest import self_test

    return 1 if self_test(_config(args), _tell) else 0


def _enrol(args: argparse.Namespace) -> int:
    """The walk asked for; a simulated reader (none on this machine) gets its tags from the terminal's keys."""
    from toprace_pi.hardware.keyboard import TerminalKeys
    from toprace_pi.table.tools import enrol

    config = _config(args)
    book = registry.get(config.game).table(config.settings).tags()
    if args.what not in book.walks:
        raise TopRaceError(f"{registry.get(config.game).info.title} has no tags called {args.what!r} to enrol "
                           f"(its walks: {', '.join(book.walks)})")
    keys = TerminalKeys()
    try:
        enrol(args.what, config, _tell, tags=book, keys=keys if keys.is_terminal else None, again=args.again)
    finally:
        keys.close()
    return 0


def _calibrate(args: argparse.Namespace) -> int:
    import queue

    from toprace_pi.hardware.buttons import open_buttons
    from toprace_pi.table.tools import button_presses, calibrate_board, typed_presses

    config = _config(args)
    target = game_cli(config.game).calibration_target(args.track, args.out)
    if config.buttons.kind == "simulated":
        calibrate_board(target, config, typed_presses(sys.stdin, _tell), _tell, again=args.again)
        return 0
    events: queue.Queue = queue.Queue()
    buttons = open_buttons(config.buttons, events)
    assert buttons is not None  # the gpio kind
    with buttons:
        calibrate_board(target, config, button_presses(events), _tell, again=args.again)
    return 0


#: Every command: its help line, what adds its arguments (for the game asked for), and whether it
#: takes -v/-q (a group of commands does not: its output is the point, not the log).
_COMMANDS: dict[str, tuple[str, Builder, bool]] = {
    "simulate": ("play a whole bot game and print a report", _build_simulate, True),
    "demo": ("bots play a whole game at a simulated table", _build_demo, True),
    "play": ("run the table on its hardware, resuming the game in progress", _build_play, True),
    "replay": ("play a game journal back step by step on the simulated strip", _build_replay, True),
    "check": ("self-test: readers, LED chase, buttons", _build_check, True),
    "enrol": ("enrol the tags of the game's cards and tokens, one after another", _build_enrol, True),
    "calibrate": ("assign the LEDs to a track's spaces", _build_calibrate, True),
    "web-links": ("print the links of the table's web boards, its own one with the seats' join codes too",
                  _build_web_links, False),
    "games": ("list the games the table plays", _build_games, True),
}


if __name__ == "__main__":
    sys.exit(main())
