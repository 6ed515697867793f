"""Buzzer signals on gpiozero's MockFactory, the silent stand-in, and the announcer
with a fake espeak-ng and an injected runner."""

import logging
import os
import queue
import shutil
import stat
import threading
import time

import pytest

from toprace_pi.errors import DataError
from toprace_pi.hardware import HardwareError, SoundClosedError
from toprace_pi.hardware.sound import BuzzerSound, SilentSound, SoundSettings, open_sound
from toprace_pi.hardware.sound.buzzer import _Player
from toprace_pi.hardware.sound.melody import CONFIRM, REFUSE, fanfare
from toprace_pi.hardware.sound.speech import Announcer, run_espeak
from toprace_pi.table.config import parse_config

#: A safety net for waits on background threads; a passing test never waits this long.
PATIENCE = 10.0
#: Shrinks every duration of a signal, so a whole fanfare plays in about a millisecond.
FAST = 0.001


def played(pin):
    """The pin's states, in order. (MockPin.assert_states zips, so it would pass a list of the wrong length.)"""
    return [state.state for state in pin.states]


def wait_until(condition):
    deadline = time.monotonic() + PATIENCE
    while not condition():
        assert time.monotonic() < deadline, "gave up waiting"
        time.sleep(0.001)


# --- the signals ---------------------------------------------------------------


def test_the_winner_gets_the_longest_fanfare():
    assert [len([n for n in fanfare(place) if n[0]]) for place in range(1, 7)] == [4, 3, 2, 2, 2, 2]
    assert fanfare(1)[-1] == ("C6", 0.4)
    assert all(tone is None for tone, _ in fanfare(1)[1::2])  # rests between the notes


@pytest.mark.parametrize("place", [0, -1, 1.0, True, "1"])
def test_a_place_is_a_whole_number_from_one(place):
    with pytest.raises(ValueError):
        fanfare(place)


# --- BuzzerSound on a one-pitch buzzer --------------------------------------------


@pytest.mark.parametrize(
    "signal, states",
    [
        (lambda s: s.confirm(), [False, True, False]),
        (lambda s: s.refuse(), [False, True, False]),
        (lambda s: s.finish(1), [False, True, False, True, False, True, False, True, False]),
        (lambda s: s.finish(2), [False, True, False, True, False, True, False]),
        (lambda s: s.finish(5), [False, True, False, True, False]),
    ],
)
def test_buzzer_beeps_are_recorded_on_the_pin(pins, signal, states):
    with BuzzerSound(22, tempo=FAST) as sound:
        pins.pin(22).clear_states()
        signal(sound)
        assert sound.wait_idle(PATIENCE)
    assert played(pins.pin(22)) == states


def test_the_caller_does_not_wait_for_the_signal(pins):
    with BuzzerSound(22, tempo=1000) as sound:  # the buzz would last 350 s
        sound.refuse()
        assert not sound.wait_idle(0)  # still buzzing, yet refuse() has returned
        wait_until(lambda: pins.pin(22).state)
    assert pins.pin(22).state is False  # closing cut it short and silenced the pin


def test_closing_releases_the_pin_and_is_idempotent(pins):
    sound = BuzzerSound(22, tempo=FAST)
    sound.close()
    sound.close()
    with pytest.raises(SoundClosedError, match="closed"):
        sound.confirm()
    BuzzerSound(22, tempo=FAST).close()  # the pin is free again


def test_buzzer_pin_is_checked_with_the_config():
    with pytest.raises(DataError, match=r"\[sound\] buzzer: a GPIO number \(BCM numbering\) from 2 to 27, not 28"):
        parse_config({"sound": {"buzzer": 28}}, "table.toml")


def test_the_settings_choose_the_sound(pins):
    assert isinstance(open_sound(SoundSettings()), SilentSound)
    with open_sound(SoundSettings(buzzer=22, tonal=False)) as buzzer:
        assert isinstance(buzzer, BuzzerSound) and (buzzer.pin, buzzer.tonal) == (22, False)


def test_a_pin_in_use_is_a_hardware_error(pins):
    with BuzzerSound(22):
        with pytest.raises(HardwareError, match="the buzzer on GPIO22: pin GPIO22 is already in use"):
            BuzzerSound(22)


def test_repr(pins):
    sound = BuzzerSound(22)
    assert repr(sound) == "<BuzzerSound buzzer on GPIO22>"
    sound.close()
    assert repr(sound) == "<BuzzerSound buzzer on GPIO22, closed>"


# --- BuzzerSound on a passive piezo (TonalBuzzer, PWM) ---------------------------


def test_tonal_signals_play_their_notes(pwm_pins):
    with BuzzerSound(24, tonal=True, tempo=FAST) as sound:
        pwm_pins.pin(24).clear_states()
        sound.finish(1)
        assert sound.wait_idle(PATIENCE)
    assert played(pwm_pins.pin(24)) == [0, 0.5, 0, 0.5, 0, 0.5, 0, 0.5, 0]


def test_the_refusal_is_a_low_tone_and_the_click_a_high_one(pwm_pins):
    pin = pwm_pins.pin(24)
    for signal, hertz in ((BuzzerSound.refuse, 220.0), (BuzzerSound.confirm, 1318.5)):
        with BuzzerSound(24, tonal=True, tempo=1000) as sound:
            signal(sound)
            wait_until(lambda: pin.frequency is not None)
            assert pin.frequency == pytest.approx(hertz, abs=0.1)
        assert pin.frequency is None  # closing stopped the tone


def test_a_tonal_buzzer_needs_a_pwm_pin(pins):
    with pytest.raises(HardwareError, match="the buzzer on GPIO24: PinPWMUnsupported"):
        BuzzerSound(24, tonal=True)


# --- the player behind BuzzerSound -------------------------------------------------


def test_a_new_signal_cuts_the_one_playing_short():
    heard = queue.Queue()
    both_handed_over = threading.Event()

    def output(tone):
        heard.put(tone)
        if tone is None:  # the player cannot take the next melody before this returns
            assert both_handed_over.wait(PATIENCE)

    player = _Player(output, tempo=1000, name="test")
    try:
        player.play((("A4", 1.0),))  # would last 1000 s
        assert heard.get(timeout=PATIENCE) == "A4"
        player.play(CONFIRM)
        player.play(REFUSE)  # replaces CONFIRM, which never started
        both_handed_over.set()
        assert heard.get(timeout=PATIENCE) is None  # A4 was cut
        assert heard.get(timeout=PATIENCE) == "A3"
    finally:
        player.close()
    assert heard.get(timeout=PATIENCE) is None  # closing cut REFUSE too
    assert heard.empty()


# --- SilentSound -----------------------------------------------------------------


def test_silent_sound_records_the_calls():
    sound = SilentSound()
    sound.refuse()
    sound.confirm()
    sound.finish(2)
    assert sound.calls == ["refuse", "confirm", "finish 2"]
    with pytest.raises(ValueError):
        sound.finish(0)
    sound.close()
    with pytest.raises(SoundClosedError):
        sound.confirm()
    assert repr(sound) == "<SilentSound 3 calls, closed>"


# --- Announcer -----------------------------------------------------------------------


@pytest.fixture
def espeak(tmp_path, monkeypatch):
    """An executable named espeak-ng, alone on PATH: it writes its arguments and stdin to files."""
    # PATH will hold only this folder, so the script names cat by its full path.
    program = tmp_path / "bin" / "espeak-ng"
    program.parent.mkdir()
    program.write_text(f'#!/bin/sh\necho "$@" > {tmp_path}/argv\n{shutil.which("cat")} > {tmp_path}/text\n')
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", str(program.parent))
    return program


@pytest.fixture
def no_espeak(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))


class FakeSpeech:
    """A runner that records each sentence and, while ``hold`` is clear, keeps "speaking" it."""

    def __init__(self):
        self.spoken = []
        self.started = queue.Queue()
        self.hold = threading.Event()
        self.hold.set()

    def __call__(self, argv, text):
        self.spoken.append((tuple(argv), text))
        self.started.put(text)
        assert self.hold.wait(PATIENCE)


def test_announcements_are_written_and_spoken_with_espeak(espeak):
    written = []
    speech = FakeSpeech()
    with Announcer(echo=written.append, runner=speech, voice="de", words_per_minute=140) as announcer:
        assert announcer.speaks
        announcer.say("Red finishes first")
        assert announcer.wait_idle(PATIENCE)
    assert written == ["Red finishes first"]
    assert speech.spoken == [((str(espeak), "-v", "de", "-s", "140", "--stdin"), "Red finishes first")]


def test_an_announcement_quoting_a_device_is_written_and_spoken_printable(espeak):
    written = []
    speech = FakeSpeech()
    with Announcer(echo=written.append, runner=speech) as announcer:
        announcer.say("the hub reader failed: \x1b[2Jgone\r")
        assert announcer.wait_idle(PATIENCE)
    assert written == ["the hub reader failed: \\x1b[2Jgone\\r"]
    assert [text for _, text in speech.spoken] == written


def test_say_returns_while_the_sentence_is_still_spoken(espeak):
    speech = FakeSpeech()
    speech.hold.clear()
    announcer = Announcer(echo=lambda text: None, runner=speech)
    announcer.say("one")
    assert speech.started.get(timeout=PATIENCE) == "one"
    announcer.say("two")  # returns although "one" is still being spoken
    assert not announcer.wait_idle(0)
    speech.hold.set()
    assert announcer.wait_idle(PATIENCE)
    announcer.close()
    assert [text for _, text in speech.spoken] == ["one", "two"]


def test_news_is_never_dropped_and_a_waiting_prompt_gives_way_to_a_newer_one(espeak):
    """One input every 1.5 s while a sentence takes 4 s to speak: every finish and
    payout is still heard, in order; of the prompts only the newest waits."""
    written = []
    speech = FakeSpeech()
    speech.hold.clear()
    announcer = Announcer(echo=written.append, runner=speech)
    announcer.say("Yellow finishes first: 200,000 to Anna")
    assert speech.started.get(timeout=PATIENCE) == "Yellow finishes first: 200,000 to Anna"
    announcer.say("Ben: play a speed card", prompt=True)
    for news in ("Red finishes second: 150,000 to Ben", "Black finishes third: 100,000 to Anna",
                 "Blue finishes fourth: 60,000 to Ben", "Purple finishes fifth: 30,000 to Carla"):
        announcer.say(news)
    announcer.say("Carla: play a speed card", prompt=True)
    announcer.say("Anna: play a speed card", prompt=True)
    assert announcer.replaced == 2
    speech.hold.set()
    assert announcer.wait_idle(PATIENCE)
    announcer.close()
    assert [text for _, text in speech.spoken] == [
        "Yellow finishes first: 200,000 to Anna", "Red finishes second: 150,000 to Ben",
        "Black finishes third: 100,000 to Anna", "Blue finishes fourth: 60,000 to Ben",
        "Purple finishes fifth: 30,000 to Carla", "Anna: play a speed card"]
    assert len(written) == 8  # the console keeps every one


def test_without_espeak_announcements_are_only_written(no_espeak):
    written = []
    speech = FakeSpeech()
    with Announcer(echo=written.append, runner=speech) as announcer:
        assert not announcer.speaks
        announcer.say("Blue finishes second")
    assert written == ["Blue finishes second"]
    assert speech.spoken == []
    assert repr(announcer) == "<Announcer written only, closed>"


def test_speech_can_be_turned_off(espeak):
    speech = FakeSpeech()
    with Announcer(speech=False, echo=lambda text: None, runner=speech) as announcer:
        announcer.say("quiet")
    assert not announcer.speaks and speech.spoken == []


def test_a_failing_runner_is_logged_and_speech_goes_on(espeak, caplog):
    spoken = []

    def runner(argv, text):
        if text == "bad":
            raise OSError("no sound card")
        spoken.append(text)

    with caplog.at_level(logging.WARNING), Announcer(echo=lambda text: None, runner=runner) as announcer:
        announcer.say("bad")
        assert announcer.wait_idle(PATIENCE)
        announcer.say("good")
        assert announcer.wait_idle(PATIENCE)
    assert spoken == ["good"]
    assert "speaking 'bad' failed" in caplog.text


def test_close_drops_what_waits_and_refuses_more(espeak):
    speech = FakeSpeech()
    speech.hold.clear()
    announcer = Announcer(echo=lambda text: None, runner=speech)
    announcer.say("one")
    assert speech.started.get(timeout=PATIENCE) == "one"
    announcer.say("two")
    closing = threading.Thread(target=announcer.close)
    closing.start()  # it waits for "one" to be spoken to its end
    wait_until(lambda: "closed" in repr(announcer))
    speech.hold.set()
    closing.join(PATIENCE)
    assert not closing.is_alive()
    announcer.close()
    assert [text for _, text in speech.spoken] == ["one"]
    with pytest.raises(SoundClosedError):
        announcer.say("three")


def test_run_espeak_passes_the_text_on_stdin(espeak):
    run_espeak([str(espeak), "-v", "en", "--stdin"], "-5 for red")
    folder = espeak.parent.parent
    assert (folder / "argv").read_text() == "-v en --stdin\n"
    assert (folder / "text").read_text() == "-5 for red"


def test_run_espeak_logs_failures(tmp_path, caplog):
    broken = tmp_path / "espeak-ng"
    broken.write_text("#!/bin/sh\necho 'no voice' >&2\nexit 1\n")
    broken.chmod(0o755)
    with caplog.at_level(logging.WARNING):
        run_espeak([str(broken)], "hello")
        run_espeak([os.fspath(tmp_path / "missing")], "hello")
    assert "espeak-ng exited with 1: no voice" in caplog.text
    assert "espeak-ng failed" in caplog.text
