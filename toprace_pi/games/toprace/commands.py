"""Top Race's own commands: ``track`` (show, list, check), ``deck`` (check, list, labels) and ``tips``
(check). Declared as entry points of :data:`~toprace_pi.core.registry.COMMANDS_GROUP`, so this module
is imported for the command line's help: it imports the game's machinery only inside each command."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from toprace_pi.arguments import USAGE_ERROR, UsageParser
from toprace_pi.core import registry
from toprace_pi.errors import TopRaceError
from toprace_pi.text import printable_lines

if TYPE_CHECKING:
    from toprace_pi.render.ansi import ColourMode

def _colour(args: argparse.Namespace) -> ColourMode:
    from toprace_pi.render.ansi import ColourMode, colour_mode

    return ColourMode.NONE if args.no_colour else colour_mode(sys.stdout)


def _build_track(parser: argparse.ArgumentParser) -> None:
    track_commands = parser.add_subparsers(dest="track_command", required=True, parser_class=UsageParser)
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


def _build_deck(parser: argparse.ArgumentParser) -> None:
    from toprace_pi.games.toprace.data import DEFAULT_DECK

    deck_commands = parser.add_subparsers(dest="deck_command", required=True, parser_class=UsageParser)
    check = deck_commands.add_parser("check", help="validate a deck file: Top Race's edition's cars, joker and "
                                                   "pairs, and its fairness; TOP SPEED's (--game topspeed) "
                                                   "minicards by kind, and what each race type leaves")
    check.add_argument("--game", choices=registry.game_names(), default=registry.DEFAULT_GAME,
                       help=f"the game (default {registry.DEFAULT_GAME}; toprace-pi games lists them)")
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


def _build_tips(parser: argparse.ArgumentParser) -> None:
    tips_commands = parser.add_subparsers(dest="tips_command", required=True, parser_class=UsageParser)
    tips_check = tips_commands.add_parser("check", help="validate a tip table and print it")
    tips_check.add_argument("file", nargs="?", default="standard", help="a tip table file (default: the shipped one)")
    tips_check.set_defaults(run=_tips_check)


TRACK = registry.Command("show or check a track layout", _build_track)
DECK = registry.Command("check a speed-card deck file", _build_deck)
TIPS = registry.Command("check a tip table file (Tips variant)", _build_tips)


def _track_show(args: argparse.Namespace) -> int:
    import textwrap

    from toprace_pi.games.toprace.data import load_track
    from toprace_pi.games.toprace.render.svg import track_svg
    from toprace_pi.games.toprace.render.terminal import board_width, render_track

    track = load_track(args.name)
    width = board_width()
    print(render_track(track, colour=_colour(args), width=width))
    if track.reconstructed:
        print(textwrap.fill("A reconstructed layout: compare it with your board and correct the file where it "
                            "differs.", width))
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
    from toprace_pi.games.toprace.data import load_track, track_names
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
    from toprace_pi.games.toprace.data import load_track, track_names

    for name in track_names():
        track = load_track(name)
        print(f"{name:14} {track.name:14} {len(track.spaces):4} spaces, lap {track.finish_line:g}")
    return 0


def _deck_check(args: argparse.Namespace) -> int:
    """The deck of the game ``--game`` names, checked by that game."""
    entry = registry.get(args.game)
    if entry.check_deck is None:
        raise TopRaceError(f"{entry.info.title} has no deck to check")
    print("\n".join(entry.check_deck(args.file)))
    return 0


def check_deck(name: str) -> list[str]:
    """A Top Race deck file's check in lines: its cars, joker and pairs, and whether it is fair."""
    from toprace_pi.games.toprace.data import load_deck

    deck = load_deck(name)
    lines = [f"{name}: {deck.name}, {len(deck)} cards: the composition is valid"]
    cars = deck.cars
    width = max(len(word) for car in cars for word in (car.name, car.id))
    lines.append("cars:")
    for car, (count, total) in deck.colour_totals().items():
        lines.append(f"  {car.name:{width}}  id {car.id:{width}}  letter {car.letter}  rgb {car.rgb!s:15}"
                     f"  on {count:2} cards, total value {total}")
    jokers = sum(1 for c in deck.cards if getattr(c, "has_joker", False))
    lines.append(f"joker: {cars.joker.name} (id {cars.joker.id}, rgb {cars.joker.rgb}), on {jokers} cards")
    lines.append(f"Sprint/Breakdown pairs: {cars.pairs_text()}")
    unfair = deck.fairness_problems()
    lines += [f"warning: {problem}" for problem in unfair]
    if not unfair:
        lines.append("fair: every car appears equally often with the same total value")
    return lines


def _deck_list(args: argparse.Namespace) -> int:
    from toprace_pi.games.toprace.data import deck_names, load_deck

    for name in deck_names():
        deck = load_deck(name)
        print(f"{name:14} {deck.name}: cars {deck.cars.ids}; joker {deck.cars.joker.id}")
    return 0


def _deck_labels(args: argparse.Namespace) -> int:
    from toprace_pi.games.toprace.data import load_deck
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
