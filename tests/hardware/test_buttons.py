"""TableButtons on gpiozero's MockFactory: presses are driven on the mock pins,
and held presses go through gpiozero's own hold thread."""

import logging
import queue

import pytest
from gpiozero import Button
from gpiozero.pins.mock import MockFactory

from toprace_pi.errors import DataError
from toprace_pi.hardware import HardwareError
from toprace_pi.hardware.buttons import BOUNCE_TIME, ButtonSettings, TableButtons, open_buttons
from toprace_pi.hardware.events import ButtonPressed
from toprace_pi.table.config import parse_config

PINS = {"next": 5, "ok": 6, "undo": 13, "pass": 19}
#: A safety net for waits on gpiozero's threads; a passing test never waits this long.
PATIENCE = 10.0


@pytest.fixture
def events():
    return queue.Queue()


def press(pins, gpio):
    pins.pin(gpio).drive_low()
    pins.pin(gpio).drive_high()


def drain(events):
    found = []
    while not events.empty():
        found.append(events.get_nowait())
    return found


def test_each_press_puts_its_button_on_the_queue(pins, events):
    with TableButtons(PINS, events):
        for gpio in (5, 6, 19, 5):
            press(pins, gpio)
    assert drain(events) == [ButtonPressed("next"), ButtonPressed("ok"), ButtonPressed("pass"), ButtonPressed("next")]


def test_buttons_use_the_pull_up_and_debounce(pins, events):
    with TableButtons(PINS, events):
        for gpio in PINS.values():
            assert pins.pin(gpio).pull == "up"
            assert pins.pin(gpio).bounce == BOUNCE_TIME
            assert pins.pin(gpio).state is True  # idle: pulled high, not pressed


def test_a_press_is_reported_on_the_way_down_not_on_release(pins, events):
    with TableButtons(PINS, events):
        pins.pin(6).drive_low()
        assert drain(events) == [ButtonPressed("ok")]
        pins.pin(6).drive_high()
        assert drain(events) == []


def test_a_short_undo_press_is_reported_as_not_held(pins, events):
    with TableButtons(PINS, events, hold_time=60):
        pins.pin(13).drive_low()
        assert drain(events) == []  # nothing yet: it may still become a hold
        pins.pin(13).drive_high()
    assert drain(events) == [ButtonPressed("undo", held=False)]


def test_a_long_undo_press_is_reported_once_as_held(pins, events):
    with TableButtons(PINS, events, hold_time=0.01):
        pins.pin(13).drive_low()
        assert events.get(timeout=PATIENCE) == ButtonPressed("undo", held=True)
        pins.pin(13).drive_high()
        assert drain(events) == []  # the release of a hold says nothing more


def test_a_hold_arriving_after_the_release_is_ignored(pins, events):
    with TableButtons(PINS, events, hold_time=60) as buttons:
        pins.pin(13).drive_low()
        pins.pin(13).drive_high()
        buttons._undo.held()  # gpiozero's hold thread losing the race with the release
    assert drain(events) == [ButtonPressed("undo", held=False)]


def test_a_full_queue_drops_the_press_with_a_warning(pins, caplog):
    full = queue.Queue(maxsize=1)
    with TableButtons(PINS, full), caplog.at_level(logging.WARNING):
        press(pins, 5)
        press(pins, 6)
    assert drain(full) == [ButtonPressed("next")]
    assert "dropped" in caplog.text


@pytest.mark.parametrize(
    "section, expected",
    [
        ({**PINS, "nxt": 7},
         "[buttons] unknown key(s): nxt (did you mean next?); known: hold_time, next, ok, undo, pass, kind"),
        ({"next": 5, "ok": 6, "undo": 13}, "[buttons]: missing pass"),
        ({**PINS, "pass": 40}, "[buttons] pass: a GPIO number (BCM numbering) from 2 to 27, not 40"),
        ({**PINS, "pass": 1}, "[buttons] pass: a GPIO number (BCM numbering) from 2 to 27, not 1"),
        ({**PINS, "pass": "19"}, "[buttons] pass: a GPIO number (BCM numbering) from 2 to 27, not '19'"),
        ({**PINS, "pass": True}, "[buttons] pass: a GPIO number (BCM numbering) from 2 to 27, not True"),
        ({**PINS, "pass": 5}, "[buttons]: two buttons on one pin"),
        ({**PINS, "hold_time": 0}, "[buttons] hold_time: a number of seconds from 0.05 to 10, not 0"),
    ],
)
def test_bad_buttons_are_refused_with_the_config(section, expected):
    """The pins are checked once, when the config is read: the buttons open from checked settings."""
    with pytest.raises(DataError) as refused:
        parse_config({"buttons": section}, "table.toml")
    assert expected in refused.value.problems
    assert isinstance(refused.value, ValueError)


def test_the_gpio_kind_opens_the_buttons_of_the_settings(pins, events):
    with open_buttons(ButtonSettings("gpio", PINS, hold_time=1.5), events) as buttons:
        assert isinstance(buttons, TableButtons) and buttons.hold_time == 1.5
    assert open_buttons(ButtonSettings(), events) is None


def test_a_pin_in_use_is_a_hardware_error_and_frees_the_pins_already_taken(pins, events):
    squatter = Button(13)
    with pytest.raises(HardwareError, match="the UNDO button on GPIO13: pin GPIO13 is already in use"):
        TableButtons(PINS, events)
    squatter.close()
    with TableButtons(PINS, events):  # NEXT and OK, opened before UNDO failed, were released
        press(pins, 5)
    assert drain(events) == [ButtonPressed("next")]


def test_close_is_idempotent_and_releases_the_pins(pins, events):
    buttons = TableButtons(PINS, events)
    buttons.close()
    buttons.close()
    assert buttons.closed
    press(pins, 5)
    assert drain(events) == []
    Button(5).close()  # the pin is free again


def test_an_explicit_pin_factory_is_used(events):
    factory = MockFactory()
    try:
        with TableButtons(PINS, events, pin_factory=factory):
            press(factory, 19)
        assert drain(events) == [ButtonPressed("pass")]
    finally:
        factory.reset()


def test_repr_shows_the_pins_and_the_state(pins, events):
    buttons = TableButtons(PINS, events, hold_time=1.5)
    assert repr(buttons) == "<TableButtons next=GPIO5, ok=GPIO6, undo=GPIO13, pass=GPIO19, hold_time=1.5>"
    buttons.close()
    assert repr(buttons).endswith("pass=GPIO19, closed>")
