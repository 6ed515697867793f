"""The keyboard as a table device: each key stands for a press or a tag laid, as a
reader or button would report it, and a real terminal is read key by key and set back."""

from __future__ import annotations

import os
import pty
import termios

import pytest
from scenarios import BLACK, CARS, PURPLE, RED, VOCAB, YELLOW

from toprace_pi.games.toprace.table.keys import key_map
from toprace_pi.hardware.events import ButtonPressed, DeviceStatus, TagLaid
from toprace_pi.hardware.keyboard import KEY_UID, Keyboard, TerminalKeys
from toprace_pi.hardware.tags import TagRegistry


class Keys:
    """Keys a test types: each read hands over what was typed since the last."""

    def __init__(self, text: str = "") -> None:
        self.typed = list(text)
        self.closed = False

    def read(self) -> list[str]:
        keys, self.typed = self.typed, []
        return keys

    def close(self) -> None:
        self.closed = True


def identities(keyboard: Keyboard, text: str) -> list[object]:
    """What each event of the keys ``text`` stands for, as the table's registry reads it."""
    registry = TagRegistry(vocabulary=VOCAB)
    keyboard.keys = Keys(text)
    out: list[object] = []
    for event in keyboard.poll():
        if isinstance(event, TagLaid):
            assert event.uid == KEY_UID
            out.append((event.reader, registry.identify(event)))
        else:
            out.append(event)
    return out


def test_button_keys_press_the_buttons_and_capital_u_holds_undo():
    keyboard = Keyboard(Keys(), key_map(CARS))
    assert identities(keyboard, "nopuU") == [ButtonPressed("next"), ButtonPressed("ok"), ButtonPressed("pass"),
                                           ButtonPressed("undo"), ButtonPressed("undo", held=True)]


def test_a_card_number_and_enter_lays_that_card_on_the_discard_pile_and_erasing_works():
    keyboard = Keyboard(Keys(), key_map(CARS))
    assert identities(keyboard, "17\r") == [("discard", ("card", 17))]
    assert identities(keyboard, "4") == [] and keyboard.typed == "4"
    assert identities(keyboard, "5\x7f8\n") == [("discard", ("card", 48))]
    assert identities(keyboard, "3\x1b\n") == []  # escape drops what was typed
    assert identities(keyboard, "99\n") == [("discard", None)]  # no such card: the table refuses it


def test_car_letters_lay_their_tokens_and_button_letters_stay_buttons():
    keyboard = Keyboard(Keys(), key_map(CARS))
    assert identities(keyboard, "rYP") == [("cars", ("car", RED)), ("cars", ("car", YELLOW)),
                                           ("cars", ("car", PURPLE))]
    assert identities(keyboard, "k") == [("cars", ("car", BLACK))]
    assert identities(keyboard, "p") == [ButtonPressed("pass")]  # lower case p is PASS, not Purple


def test_s_lays_the_pit_stop_card_of_the_seat_at_the_keyboard_or_of_the_seat_named():
    assert identities(Keyboard(Keys(), key_map(CARS), pit_seat=2), "s") == [("discard", ("pit", 2))]
    anyone = Keyboard(Keys(), key_map(CARS))
    assert identities(anyone, "s") == [] and anyone.typed == "s"
    assert identities(anyone, "4") == [("discard", ("pit", 3))]
    [refused] = identities(anyone, "sx")
    assert isinstance(refused, DeviceStatus) and "seat number" in refused.message


def test_a_key_that_means_nothing_is_said_with_the_keys_that_do():
    [said] = identities(Keyboard(Keys(), key_map(CARS)), "z")
    assert isinstance(said, DeviceStatus) and "'z' means nothing" in said.message and "Y=Yellow" in said.message


def test_a_terminal_is_read_key_by_key_without_enter_and_set_back_on_close():
    leader, follower = pty.openpty()
    try:
        before = termios.tcgetattr(follower)
        keys = TerminalKeys(follower)
        assert keys.is_terminal
        assert not termios.tcgetattr(follower)[3] & termios.ICANON  # cbreak: no waiting for Enter
        assert keys.read() == []
        os.write(leader, b"n1")
        assert keys.read() == ["n", "1"]
        keys.close()
        assert termios.tcgetattr(follower) == before
        keys.close()  # twice is harmless
    finally:
        os.close(leader)
        os.close(follower)


def test_what_is_not_a_terminal_gives_no_keys(tmp_path):
    with open(tmp_path / "keys.txt", "w+b") as file:
        file.write(b"ooo")
        file.flush()
        keys = TerminalKeys(file.fileno())
        assert not keys.is_terminal and keys.read() == []
        keys.close()


def test_no_standard_input_is_not_a_terminal():
    assert not TerminalKeys(-1).is_terminal


def test_play_with_the_keyboard_configured_takes_keys_from_its_terminal(tmp_path, monkeypatch):
    """``[keyboard] enabled``: the table running in a terminal reads its keys as inputs."""
    from toprace_pi.table.config import parse_config
    from toprace_pi.table.live import open_table

    leader, follower = pty.openpty()
    terminal = os.fdopen(follower, "r")
    monkeypatch.setattr("sys.stdin", terminal)
    before = termios.tcgetattr(follower)
    config = parse_config({"keyboard": {"enabled": True}, "buttons": {"kind": "simulated"},
                           "sound": {"speech": False},
                           "files": {"journal": str(tmp_path / "j.jsonl"), "registry": str(tmp_path / "t.json")}},
                          "t")
    live = open_table(config)
    try:
        controller = live.table.controller
        inputs, refusals = controller.inputs, controller.refusals
        os.write(leader, b"uU")  # a short UNDO is refused; a held one finds nothing to take back
        live.table.step()
        live.table.step()
        assert controller.inputs == inputs + 2 and controller.refusals == refusals + 2
    finally:
        live.close()
        assert termios.tcgetattr(follower) == before  # the terminal is set back when the table stops
        terminal.close()
        os.close(leader)


def test_the_keyboard_setting_is_checked():
    from toprace_pi.errors import DataError
    from toprace_pi.table.config import parse_config

    assert not parse_config({}, "t").keyboard
    for bad, why in (({"enabled": "yes"}, "true or false"), ({"on": True}, "unknown key")):
        with pytest.raises(DataError, match=why):
            parse_config({"keyboard": bad}, "t")


def test_play_at_the_keyboard_shows_the_board_and_says_what_a_car_token_did(tmp_path):
    """``[keyboard] enabled``, ``toprace-pi play`` in a terminal: the board and the standings are drawn as the
    demo draws them after every step, and the car token laid for the auction won is said with its space."""
    import re
    import signal

    from on_a_terminal import OnATerminal

    config = tmp_path / "table.toml"
    config.write_text('[keyboard]\nenabled = true\n[buttons]\nkind = "simulated"\n[sound]\nspeech = false\n'
                      f'[files]\njournal = "{tmp_path / "j.jsonl"}"\nregistry = "{tmp_path / "t.json"}"\n', "utf-8")
    terminal = OnATerminal("play", "--config", str(config), columns=120, rows=50)
    try:
        terminal.wait_for("auction 1: who won this auction? Anna")
        terminal.wait_for("Race 1 of 1, 0 cards played")  # the standings, under the board
        for key, answer in (("o", "Anna pays 10,000"), ("o", "Anna: take a car?"),
                            ("G", "Anna: put the car on a starting space? starting space 1"),
                            ("o", "Anna takes Green and puts it on starting space 1")):
            terminal.press(key)
            terminal.wait_for(answer)
        terminal.wait_for("auction 2: who won this auction?")
        shown = terminal.text
    finally:
        code = terminal.close(signal.SIGINT)
    assert code == 0, terminal.text
    assert "Speed Street" in shown and re.search(r"^a +\S*G", shown, re.MULTILINE), shown  # Green on lane a
    assert re.search(r"Anna +190,000 +Green", shown) and "a car letter lays its token" in shown


def test_the_table_at_the_keyboard_says_what_a_car_token_did_and_draws_the_board_after_it(tmp_path, monkeypatch,
                                                                                           capsys):
    """The table's own loop fed by the keys of its terminal, its output piped: each sentence on a line as it is
    said, the board and the standings printed again once a step is taken."""
    import re

    from toprace_pi.table.config import parse_config
    from toprace_pi.table.live import open_table

    leader, follower = pty.openpty()
    terminal = os.fdopen(follower, "r")
    monkeypatch.setattr("sys.stdin", terminal)
    config = parse_config({"keyboard": {"enabled": True}, "sound": {"speech": False},
                           "files": {"journal": str(tmp_path / "j.jsonl"), "registry": str(tmp_path / "t.json")}},
                          "t")
    live = open_table(config)
    try:
        live.table.step()
        for key in b"ooGo":  # Anna wins the first auction at 10,000, lays the Green car's token, takes space 1
            os.write(leader, bytes([key]))
            live.table.step()
    finally:
        live.close()
        terminal.close()
        os.close(leader)
    out = capsys.readouterr().out
    said = out.index("Anna takes Green and puts it on starting space 1\n")
    assert "Speed Street" in out[said:] and re.search(r"Anna +190,000 +Green", out[said:])
