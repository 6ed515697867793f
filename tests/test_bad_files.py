"""A config or data file holding what the table does not understand is refused, in the words a maker needs.

Each example of the issue is written to a file and given to the real commands (``check --config`` and
``play --config`` for every game, ``deck check``, ``track check``, ``tips check``, ``simulate``), as a maker
would: exit code 2 (``track check``: 1), one message naming the file, the key and what it must be, and no
traceback. The files the project ships still pass through the same commands.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.cli import run
from support.hang import hang_guard

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("toprace", "autorace", "topspeed")
DATA = ROOT / "toprace_pi" / "games"
#: Each game's example configuration, as shipped.
EXAMPLES = {"toprace": ROOT / "config.example.toml", "autorace": ROOT / "examples" / "autorace.config.toml",
            "topspeed": ROOT / "examples" / "topspeed.config.toml"}
HUGE = "99999999999999999999"


def refused(capsys, argv: list[str], source: Path, *expected: str, code: int = 2) -> str:
    """Run the command: it exits with ``code``, naming ``source`` and each of ``expected``, no traceback (a
    ``play`` that took the file would start its table and never return: the guard stops it)."""
    with hang_guard(what=" ".join(argv[:1])):
        done, out, err = run(capsys, *argv)
    said = err if code == 2 else out
    assert done == code, (out, err)
    assert said.startswith(f"{'toprace-pi: ' if code == 2 else ''}{source}:"), said
    assert "Traceback" not in out + err
    for text in expected:
        assert text in said, said
    return said


def config(tmp_path: Path, game: str, text: str) -> Path:
    path = tmp_path / f"{game}.toml"
    path.write_text(f'[game]\nname = "{game}"\n{text}\n', "utf-8")
    return path


def copy_of(tmp_path: Path, shipped: Path, old: str, new: str) -> Path:
    """A maker's copy of a shipped data file with ``old`` (a regular expression, its first match) made ``new``."""
    text, found = re.subn(old, new, shipped.read_text("utf-8"), count=1, flags=re.M)
    assert found == 1, old
    path = tmp_path / shipped.name
    path.write_text(text, "utf-8")
    return path


# --- the table's configuration: every game, check and play --------------------------------------------------------

#: What fits every game's table: what the file says, what the message says.
EVERY_GAME = [
    ('[files]\njounral = "my-journal.jsonl"', "[files] unknown key(s): jounral (did you mean journal?)"),
    ("[buttons]\nhold_time = 1e308", "[buttons] hold_time: a number of seconds from 0.05 to 10, not 1e+308"),
    ("[strip]\nsupply_amps = inf", "[strip] supply_amps: a number of amperes from 0 to 100, not inf"),
    ("[strip]\nsupply_amps = nan", "[strip] supply_amps: a number of amperes from 0 to 100, not nan"),
    ("[strip]\nbrightness = -1", "[strip] brightness: a whole number from 0 to 255, not -1"),
    (f"[strip]\ncount = {HUGE}", f"[strip] count: a number of LEDs from 1 to 10000, not {HUGE}"),
    ("[sound]\nrepeat_prompt = 1e308", "[sound] repeat_prompt: a number of seconds (0: never) from 0 to 3600"),
    ('[web]\nlisten = "0.0.0.0:99999"', "[web] listen: HOST:PORT with a port from 1 to 65535"),
    ('[bots]\nstrength = []', "[bots] strength: one of easy, normal, strong, not []"),
    ("[bots]\nstrenght = \"strong\"", "[bots] unknown key(s): strenght (did you mean strength?)"),
    ("[sond]\nbuzzer = 12", "unknown section(s): sond (did you mean sound?)"),
    ("plyers = [\"Ann\", \"Bo\"]", "[game] unknown key(s): plyers (did you mean players?)"),
]


@pytest.mark.parametrize("command", ["check", "play"])
@pytest.mark.parametrize("text, message", EVERY_GAME)
@pytest.mark.parametrize("game", GAMES)
def test_every_games_table_refuses_misspelt_keys_and_numbers_out_of_range(capsys, tmp_path, game, text, message,
                                                                         command):
    path = config(tmp_path, game, text)
    refused(capsys, [command, "--config", str(path)], path, message)


@pytest.mark.parametrize("command", ["check", "play"])
@pytest.mark.parametrize("game, text, message", [
    ("toprace", "claim_window = 1e308", "[game] claim_window: a number of seconds from 1 to 60, not 1e+308"),
    ("toprace", "claim_window = -6.0", "[game] claim_window: a number of seconds from 1 to 60, not -6.0"),
    ("toprace", f"races = {HUGE}", f"[game] races: a whole number from 1 to 99, not {HUGE}"),
    ("autorace", f"boost = {HUGE}", f"[game] boost: an amount from 0 to 1000, not {HUGE}"),
    ("autorace", "games = inf", "[game] games: a whole number from 1 to 99, not inf"),
    ("topspeed", f"laps = {HUGE}", f"[game] laps: a whole number from 2 to 200, not {HUGE}"),
    ("topspeed", 'dekcs = "physical"', "[game] unknown key(s): dekcs (did you mean decks?)"),
])
def test_each_games_own_numbers_and_keys_are_checked(capsys, tmp_path, game, text, message, command):
    path = config(tmp_path, game, text)
    refused(capsys, [command, "--config", str(path)], path, message)


# --- the data files a config names, and the commands that check them ---------------------------------------------

TOPRACE_DECK = DATA / "toprace" / "data" / "decks" / "standard.toml"
BOARD = DATA / "autorace" / "data" / "boards" / "standard.toml"
TOPSPEED_DECK = DATA / "topspeed" / "data" / "decks" / "standard.toml"
CIRCUIT = DATA / "topspeed" / "data" / "circuits" / "montmelo.toml"
TRACK = DATA / "toprace" / "data" / "tracks" / "speed-street.toml"
TIPS = DATA / "toprace" / "data" / "tips" / "standard.toml"


@pytest.mark.parametrize("command", ["check", "play"])
def test_a_deck_card_numbered_beyond_the_deck_is_refused_where_the_composition_was_said_valid(capsys, tmp_path,
                                                                                            command):
    deck = copy_of(tmp_path, TOPRACE_DECK, r"number = 48\b", f"number = {HUGE}")
    message = f"card #48 in the list: 'number' must be a card number from 1 to 48, not {HUGE}"
    said = refused(capsys, ["deck", "check", str(deck)], deck, message)
    assert "the composition is valid" not in said
    path = config(tmp_path, "toprace", f'deck = "{deck}"')
    refused(capsys, [command, "--config", str(path)], path, f"[game] deck: {deck}: {message}")


@pytest.mark.parametrize("argv", [["check", "--config"], ["play", "--config"], ["simulate", "--game", "autorace",
                                                                                "--board"]])
def test_an_autorace_bonus_beyond_any_amount_is_refused(capsys, tmp_path, argv):
    board = copy_of(tmp_path, BOARD, r"^72 = 12$", f"72 = {HUGE}")
    message = f"[board.bonuses] 72: an amount from 0 to 1000, not {HUGE}"
    if argv[0] == "simulate":
        refused(capsys, [*argv, str(board)], board, message)
        return
    path = config(tmp_path, "autorace", f'board = "{board}"')
    refused(capsys, [*argv, str(path)], path, f"[game] board: {board}: {message}")


@pytest.mark.parametrize("game, kind, shipped, key, value, message", [
    ("autorace", "board", BOARD, "finish", HUGE, f"[board] finish: the last space from 2 to 500, not {HUGE}"),
    ("autorace", "board", BOARD, "start_capital", "-32", "[board] start_capital: an amount from 0 to 1000, not -32"),
    ("autorace", "board", BOARD, "highest_card", HUGE,
     f"[board] highest_card: a whole number from 1 to 50, not {HUGE}"),
    ("autorace", "board", BOARD, "draw_cost", "inf", "[board] draw_cost: an amount from 0 to 1000, not inf"),
    ("autorace", "board", BOARD, "name", '"AUTORACE"\ncolour = "red"', "[board] unknown key(s): colour"),
    ("topspeed", "circuit", CIRCUIT, "spaces", HUGE, f"[circuit] spaces: a whole number from 16 to 500, not {HUGE}"),
    ("topspeed", "circuit", CIRCUIT, "grand_prix_laps", "1e308",
     "[circuit] grand_prix_laps: a whole number from 1 to 200, not 1e+308"),
    ("topspeed", "circuit", CIRCUIT, "name", '"Kart"\nlenght = 3', "[circuit] unknown key(s): lenght"),
])
def test_a_board_or_circuits_numbers_and_keys_are_checked(capsys, tmp_path, game, kind, shipped, key, value,
                                                          message):
    copied = copy_of(tmp_path, shipped, rf"^{key} = .*$", f"{key} = {value}")
    path = config(tmp_path, game, f'{kind} = "{copied}"')
    refused(capsys, ["check", "--config", str(path)], path, f"[game] {kind}: {copied}: {message}")


@pytest.mark.parametrize("copies", [HUGE, "999999999", "-8", "nan"])
def test_a_top_speed_deck_with_huge_counts_is_refused_not_a_crash(capsys, tmp_path, copies):
    """A count of 10**20 copies crashed with OverflowError, 999999999 with MemoryError."""
    deck = copy_of(tmp_path, TOPSPEED_DECK, r'^"4" = 8', f'"4" = {copies}')
    message = f"[deck.cards] 4: a number of copies from 1 to 72, not {copies}"
    refused(capsys, ["deck", "check", "--game", "topspeed", str(deck)], deck, message)
    path = config(tmp_path, "topspeed", f'deck = "{deck}"')
    refused(capsys, ["check", "--config", str(path)], path, f"[game] deck: {deck}: {message}")


@pytest.mark.parametrize("old, new, message", [
    (r"^finish_line = \S+", "finish_line = 1e308", "[track] finish_line: a number from 0 to 1000, not 1e+308"),
    (r"^lanes = \S+", f"lanes = {HUGE}", f"[track] lanes: a whole number from 1 to 6, not {HUGE}"),
    (r"front = 1.0", "front = inf", "space a1: 'front' must be a number from -1000 to 1000, not inf"),
    (r"x = 0.5", "x = nan", "space a1: 'x' must be a number from -1000 to 1000, not nan"),
    (r"heading = 0.0", "heading = 1e308", "space a1: 'heading' must be a number from -360 to 360, not 1e+308"),
    (r"^lanes = ", "lanse = 3\nlanes = ", "[track] unknown key(s): lanse (did you mean lanes?)"),
])
def test_a_tracks_numbers_and_keys_are_checked(capsys, tmp_path, old, new, message):
    track = copy_of(tmp_path, TRACK, old, new)
    refused(capsys, ["track", "check", str(track)], track, message, code=1)


def test_a_tip_table_of_endless_amounts_is_refused(capsys, tmp_path):
    tips = copy_of(tmp_path, TIPS, r"\b100000\b", HUGE)
    refused(capsys, ["tips", "check", str(tips)], tips,
            "[tips] first: a list of 6 amounts, one per place, each an amount from -1000000 to 1000000")


# --- what the project ships still passes -------------------------------------------------------------------------

@pytest.mark.parametrize("game, key, shipped", [
    ("toprace", "track", TRACK), ("toprace", "deck", TOPRACE_DECK),
    ("toprace", "deck", DATA / "toprace" / "data" / "decks" / "older-edition.toml"),
    ("autorace", "board", BOARD), ("topspeed", "circuit", CIRCUIT), ("topspeed", "deck", TOPSPEED_DECK),
])
def test_a_copy_of_each_shipped_data_file_is_a_maker_file_that_check_reads(capsys, tmp_path, game, key, shipped):
    """A config naming a copy of a shipped file by path passes its reading (a config problem is exit code 2)."""
    copy = tmp_path / shipped.name
    copy.write_text(shipped.read_text("utf-8"), "utf-8")
    path = config(tmp_path, game, f'{key} = "{copy}"')
    code, _, err = run(capsys, "check", "--config", str(path))
    assert code in (0, 1) and "problem" not in err and "Traceback" not in err, err


@pytest.mark.parametrize("game", GAMES)
def test_each_shipped_example_still_passes_its_reading(capsys, game):
    code, _, err = run(capsys, "check", "--config", str(EXAMPLES[game]))
    assert code in (0, 1) and "toprace-pi:" not in err, err
