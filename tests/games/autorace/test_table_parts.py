"""AUTORACE's pieces of the table: its tags and their enrolment, its keys, its board under the LEDs
and what the LEDs show, and its terminal board on a narrow and a wide terminal."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from emulators.scripted import ScriptedReader

from toprace_pi.core import registry
from toprace_pi.core.colour import OFF, dim
from toprace_pi.errors import DataError
from toprace_pi.games.autorace import data
from toprace_pi.games.autorace.data import load_board
from toprace_pi.games.autorace.render.palette import OBJECTIVE, STATION, suit_letters
from toprace_pi.games.autorace.render.terminal import MIN_WIDTH, render_board, scoreboard
from toprace_pi.games.autorace.rules import BANNER, Suit
from toprace_pi.games.autorace.settings import TableGame
from toprace_pi.games.autorace.table.board import TrackLayout, calibration_target, load_profile
from toprace_pi.games.autorace.table.demo import card_uid, demo_registry
from toprace_pi.games.autorace.table.tags import UNKNOWN_TAG, AutoraceVocabulary, tag_book
from toprace_pi.games.autorace.table.view import ALTERNATE, GLOW, OUT, AutoraceView
from toprace_pi.hardware.events import ButtonPressed, DeviceStatus, TagLaid
from toprace_pi.hardware.keyboard import KEY_UID, Keyboard
from toprace_pi.hardware.profile import Profile, default_profile
from toprace_pi.hardware.tags import TagRegistry, parse_record
from toprace_pi.render.ansi import ColourMode
from toprace_pi.table.config import parse_config
from toprace_pi.table.tools import enrol

BOARD = load_board()
ESCAPES = re.compile(r"\x1b\[[0-9;]*m")


def new_game(players: int = 4):
    return TableGame(players=("Anna", "Ben", "Carla", "David", "Eva")[:players]).new_game()[1]


class TestTags:
    def test_a_cards_key_names_its_suit_and_number_or_the_banner_and_reads_back(self):
        words = AutoraceVocabulary(BOARD)
        assert words.identity("card red 7") == ("card", ("red", 7))
        assert words.identity("card purple banner") == ("card", ("purple", BANNER))
        for key in ("card red 7", "card blue banner", "card yellow 10"):
            assert words.key(words.identity(key)) == key
        for wrong in ("card red 11", "card red 0", "card orange 3", "card 17", "car red", "card red 7 x", "card red ٣"):
            assert words.identity(wrong) is None, wrong
        assert words.describe(("card", ("green", BANNER))) == "Green's banner"

    def test_a_tag_of_no_autorace_card_is_refused_without_echoing_its_record(self):
        game = new_game()
        side = registry.get("autorace").table()
        assert side.unknown_tag("toprace card orange 7", game) == UNKNOWN_TAG
        assert "7" not in UNKNOWN_TAG

    def test_the_walks_enrol_each_players_eleven_cards_of_the_suits_in_play(self):
        book = tag_book(BOARD, 3)
        assert list(book.walks) == ["cards", "red", "blue", "green"]
        cards = book.walks["cards"].identities
        assert len(cards) == 33 and cards[:11] == book.walks["red"].identities
        assert [c[1] for c in book.walks["blue"].identities] == [("blue", n) for n in (*range(1, 11), BANNER)]
        assert book.walks["cards"].reader is None  # on the seats' reader, the game's first
        assert registry.get("autorace").table(TableGame(players=("A", "B"))).tags().walks.keys() == {
            "cards", "red", "blue"}

    def test_the_table_enrols_a_players_set_and_writes_each_card_its_record(self, tmp_path):
        config = parse_config({"game": {"name": "autorace"}, "files": {"registry": str(tmp_path / "tags.json")}},
                              "test")
        reader = ScriptedReader([card_uid(1, n) for n in (*range(1, 11), BANNER)])
        said: list[str] = []
        book = registry.get("autorace").table(config.settings).tags()
        tags = enrol("blue", config, said.append, tags=book, reader=reader, tick=0)
        assert said[0] == "scan Blue's 1" and said[-1] == f"saved 11 tags to {config.registry}"
        assert reader.records[0] == "toprace card blue 1" and reader.records[-1] == "toprace card blue banner"
        assert TagRegistry.load(config.registry, book.vocabulary).get(card_uid(1, 3)) == ("card", ("blue", 3))
        assert tags.get(card_uid(1, BANNER)) == ("card", ("blue", BANNER))

    def test_the_demos_box_holds_every_card_of_every_suit(self):
        box = demo_registry(BOARD)
        assert len(box) == 55 and box.get(card_uid(4, BANNER)) == ("card", ("purple", BANNER))


class TestKeys:
    def keyboard(self, players: int = 5) -> Keyboard:
        return Keyboard(_NoKeys(), registry.get("autorace").table().key_map(new_game(players)))

    def typed(self, keyboard: Keyboard, keys: str) -> list:
        return [event for key in keys for event in keyboard.press(key)]

    def test_a_suits_letter_a_number_and_enter_lay_that_card_on_the_seats_reader(self):
        keyboard = self.keyboard()
        assert self.typed(keyboard, "r7\n") == [TagLaid("seats", KEY_UID, "toprace card red 7")]
        assert self.typed(keyboard, "B10\r") == [TagLaid("seats", KEY_UID, "toprace card blue 10")]
        assert self.typed(keyboard, "g0\n") == [TagLaid("seats", KEY_UID, "toprace card green banner")]
        assert self.typed(keyboard, "P3\n") == [TagLaid("seats", KEY_UID, "toprace card purple 3")]
        assert self.typed(keyboard, "y4\x7f5\n") == [TagLaid("seats", KEY_UID, "toprace card yellow 5")]
        vocabulary = AutoraceVocabulary(BOARD)
        assert parse_record(self.typed(keyboard, "Y0\n")[0].record, vocabulary) == ("card", ("yellow", BANNER))

    def test_the_buttons_keep_their_keys_and_a_number_alone_or_another_letter_says_how(self):
        keyboard = self.keyboard()
        assert self.typed(keyboard, "pnoU") == [ButtonPressed("pass"), ButtonPressed("next"), ButtonPressed("ok"),
                                               ButtonPressed("undo", held=True)]
        alone, = self.typed(keyboard, "7\n")
        assert isinstance(alone, DeviceStatus) and "a number alone means nothing" in alone.message
        other, = self.typed(keyboard, "x")
        assert isinstance(other, DeviceStatus) and "R=Red B=Blue G=Green Y=Yellow P=Purple" in other.message
        assert self.typed(keyboard, "r\n") == [] and self.typed(keyboard, "r3b2\n") == [
            TagLaid("seats", KEY_UID, "toprace card blue 2")]

    def test_only_the_suits_in_play_have_keys(self):
        keyboard = self.keyboard(players=2)
        assert set(keyboard.key_map.sets) == {"R", "B"}
        assert isinstance(self.typed(keyboard, "g")[0], DeviceStatus)

    def test_every_suit_gets_its_own_letter(self):
        suits = tuple(Suit(name, name.title(), (0, 0, 0)) for name in ("brown", "blue", "black", "umber", "b"))
        assert suit_letters(suits) == ("B", "L", "A", "M", "C")
        assert suit_letters(BOARD.suits) == ("R", "B", "G", "Y", "P")


class _NoKeys:
    def read(self) -> list[str]:
        return []

    def close(self) -> None:
        pass


class TestBoardUnderTheLeds:
    def test_the_shipped_profile_is_the_default_one_led_a_space_73_in_all(self):
        profile = load_profile("standard", BOARD)
        assert profile == default_profile(TrackLayout(BOARD, "standard"), seats=0)
        assert profile.led_count == 73 and profile.spaces["0"] == (0,) and profile.spaces["72"] == (72,)
        assert profile.placements == () and profile.seats == () and "DEFAULT" in profile.note
        layout = TrackLayout(BOARD, "standard")
        assert Profile.from_dict(tomllib.loads(profile.to_toml()), "x", layout) == profile
        assert [layout.label(c) for c in ("11", "12", "13")] == ["space 11 (filling station)", "space 12 (objective)",
                                                                 "space 13"]

    def test_a_board_file_of_ones_own_takes_the_profile_beside_it_or_the_default(self, tmp_path):
        mine = tmp_path / "my-board.toml"
        assert load_profile(str(mine), BOARD).track == "my-board"
        calibrated = default_profile(TrackLayout(BOARD, "my-board"), seats=0)
        text = calibrated.to_toml().replace("calibrated = false", "calibrated = true")
        (tmp_path / "my-board.profile.toml").write_text(text)
        assert load_profile(str(mine), BOARD).calibrated
        with pytest.raises(DataError, match="'track' is 'my-board', but this is 'standard'"):
            load_profile("standard", BOARD, tmp_path / "my-board.profile.toml")

    def test_calibration_saves_a_board_files_profile_beside_it_where_the_table_finds_it(self, tmp_path):
        shipped = calibration_target("standard", tmp_path / "mine.toml")
        assert len(shipped.board.cells) == 73 and shipped.expected == load_profile("standard", BOARD)
        assert shipped.out == tmp_path / "mine.toml" and not shipped.found_there
        board_file = tmp_path / "my-board.toml"
        board_file.write_text((Path(data.__file__).parent / "boards" / "standard.toml").read_text())
        target = calibration_target(str(board_file))
        assert target.out == tmp_path / "my-board.profile.toml" and target.found_there
        assert target.expected.track == "my-board"

    def test_the_leds_show_the_figures_in_turn_and_the_stations_and_objectives_still_to_win(self):
        game = new_game()
        view = AutoraceView(load_profile("standard", BOARD))
        colours = [s.rgb for s in BOARD.suits[:4]]
        at_start = [view.frame(game, None, n * ALTERNATE)[0] for n in range(5)]
        assert at_start == [*colours, colours[0]]
        frame = view.frame(game, None, 0.0)
        assert frame[11] == frame[66] == dim(STATION, GLOW) and frame[12] == frame[72] == dim(OBJECTIVE, GLOW)
        assert frame[1] == frame[13] == OFF
        game.positions[:] = [12, 12, 30, 40]
        game.paid.add(24)
        game.in_race[3] = False
        frame = view.frame(game, None, 0.0)
        assert frame[0] == OFF and frame[12] == colours[0] and view.frame(game, None, ALTERNATE)[12] == colours[1]
        assert frame[24] == OFF and frame[40] == dim(colours[3], OUT)

    def test_the_leds_never_light_where_a_player_could_go(self):
        game = new_game()
        frame = AutoraceView(load_profile("standard", BOARD)).frame(game, None, 0.0)
        lit = {led for led, colour in enumerate(frame) if colour != OFF}
        assert lit == {0} | set(BOARD.stations) | set(BOARD.bonuses)


class TestTerminalBoard:
    def game_in_play(self):
        game = new_game(5)
        game.positions[:] = [12, 12, 35, 72, 0]
        game.in_race[4] = False
        game.paid.add(12)
        game.bonuses[24] += 2
        return game

    def lines(self, width: int, colour=ColourMode.NONE) -> list[str]:
        game = self.game_in_play()
        return render_board(game.board, game.view(None), game.names, colour=colour, width=width).splitlines()

    def test_on_a_wide_terminal_the_track_is_one_row_with_the_figures_above_their_spaces(self):
        lines = self.lines(80)
        print("\n".join(lines))
        track = next(line for line in lines if line.startswith("track "))
        assert track[6:] == "".join("*" if n in BOARD.bonuses else "o" if n in BOARD.stations else "."
                                    for n in range(73))
        assert all(len(line) <= 80 for line in lines)
        over = lines[lines.index(track) - 2: lines.index(track)]
        assert [row[6 + 12] for row in over] == ["B", "R"] and over[1][6 + 35] == "G" and over[1][6 + 72] == "Y"
        assert over[1][6] == "p"  # out of the race: lower case
        bonus = lines[lines.index(track) + 1]
        assert bonus[6 + 12] == "-" and bonus[6 + 24: 6 + 26] == "6 " and bonus.endswith("12")

    def test_on_a_narrow_terminal_the_track_wraps_into_even_bands(self):
        lines = self.lines(40)
        print("\n".join(lines))
        assert all(len(line) <= 40 for line in lines)
        tracks = [line[6:] for line in lines if line.startswith("track ")]
        assert [len(t) for t in tracks] == [25, 25, 23] and "".join(tracks)[11] == "o"
        with pytest.raises(ValueError, match="too narrow"):
            self.lines(MIN_WIDTH - 1)

    def test_in_colour_each_figure_is_its_suits_colour_and_the_width_holds(self):
        lines = self.lines(80, ColourMode.TRUECOLOR)
        assert "\x1b[1;38;2;230;30;30mR\x1b[0m" in "\n".join(lines)
        assert all(len(ESCAPES.sub("", line)) <= 80 for line in lines)
        assert [ESCAPES.sub("", line) for line in lines] == self.lines(80)

    def test_the_scoreboard_tells_money_cards_places_and_the_bonuses_still_to_win(self):
        game = self.game_in_play()
        game.sealed[0] = 7
        board = scoreboard(game.board, game.view(None), game.names)
        print("\n".join(board))
        assert board[0] == "Game 1, round 1"
        assert board[1] == "  Anna (Red): $32, 10 cards and the banner in hand, at 12; has chosen"
        assert board[5] == "  Eva (Purple): $32, 10 cards and the banner in hand, at 0; out of the race"
        assert board[-1] == "  bonuses still to win: 24 $6, 36 $6, 48 $8, 60 $10, 72 $12"
        assert "7" not in board[1].split("at 12")[0]


class Typist:
    """A person at the keyboard who, whenever asked, moves the cursor on ``nexts`` times and presses OK."""

    def __init__(self, nexts: int) -> None:
        self.nexts = nexts
        self.console = None

    def read(self) -> list[str]:
        asked = self.console is not None and self.console.seat_asked() is not None
        return ["n"] * self.nexts + ["o"] if asked else ["o"]  # an OK typed into a bot's move is dropped

    def close(self) -> None:
        pass


def test_a_human_seat_lays_its_cards_at_the_keyboard_with_next_and_ok(tmp_path):
    from toprace_pi.games.autorace.table.demo import DemoPlayers, build_demo_table
    from toprace_pi.games.autorace.table.human import HumanConsole

    typist = Typist(nexts=1)
    console = HumanConsole(typist, [0])
    typist.console = console
    demo = build_demo_table(3, names=("Zoe", "Ben", "Carla"), say=lambda _: None, console=console,
                            journal=tmp_path / "journal.jsonl")
    panels: list[list[str]] = []
    console.changed = lambda: panels.append(console.panel())
    try:
        players = DemoPlayers(["random"] * 3, 5, humans=[0])
        while not demo.controller.game.is_over:
            players.act(demo)
    finally:
        demo.close()
    game = demo.controller.game
    zoes = [a for a in game.log if getattr(a, "seat", None) == 0]
    assert zoes and game.is_over and demo.controller.refusals == 0
    assert zoes[0].card == 2  # NEXT once from the first of her cards, then OK
    records = [r for r in (tmp_path / "journal.jsonl").read_text().splitlines() if '"choose 0 ' in r]
    assert records and all(KEY_UID.hex() in r for r in records)
    shown = next(p for p in panels if p and p[0].startswith("Zoe (you, Red)") and "[2]" in p[1])
    assert shown[:2] == ["Zoe (you, Red): $32, at 0",
                         "your cards (NEXT n, OK o lays it face down): 1 [2] 3 4 5 6 7 8 9 10 banner"]
    assert re.fullmatch(r"round 1: Zoe\b.*, lay your chosen card face down on the reader", shown[2])
    assert all(len(line) < 80 for panel in panels for line in panel)
