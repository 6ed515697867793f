"""LED strips: the real backends driven against fake libraries, the simulated strip,
the power cap and the factory's fallback. The real rpi_ws281x, Blinka and
neopixel_spi are never imported here: fakes stand in for them in sys.modules."""

from __future__ import annotations

import atexit
import logging
import sys
import types

import pytest
from support.strip import FAKE_STRIP_TYPES, FakePixelStrip

from toprace_pi.errors import DataError
from toprace_pi.hardware import ReaderError, StripError
from toprace_pi.hardware.strip import BrightnessCap, Pi5SpiStrip, SimulatedStrip, StripSettings, Ws281xStrip, open_strip
from toprace_pi.hardware.strip import frame as frame_module
from toprace_pi.hardware.strip import spi as spi_module
from toprace_pi.hardware.strip import ws281x as ws281x_module
from toprace_pi.hardware.strip.frame import CheckedFrame, check_frame, compose
from toprace_pi.hardware.strip.power import cap_scale, estimate_milliamps
from toprace_pi.table.config import parse_config

HW_NOT_SUPPORTED = "ws2811_init failed with code -3 (Hardware revision is not supported)"
RED, GREEN, BLUE, WHITE, DARK = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255), (0, 0, 0)


# --- fakes ---------------------------------------------------------------------


@pytest.fixture
def unregistered(monkeypatch):
    """Every atexit.unregister call, still passed on to the real one."""
    calls = []
    real = atexit.unregister

    def spy(func):
        calls.append(func)
        real(func)

    monkeypatch.setattr(atexit, "unregister", spy)
    return calls


@pytest.fixture
def no_pi(monkeypatch, tmp_path):
    """No device-tree model and no spidev module: what an x86 PC shows."""
    monkeypatch.setattr(ws281x_module, "DEVICE_MODEL", tmp_path / "no-model")
    monkeypatch.setattr(spi_module, "SPIDEV_BUFSIZ", tmp_path / "no-bufsiz")


class FakeSPI:
    def __init__(self):
        self.deinited = False

    def deinit(self):
        self.deinited = True


class FakeNeoPixelSPI:
    """Records what neopixel_spi's NeoPixel_SPI would be asked."""

    made: list[FakeNeoPixelSPI] = []

    def __init__(self, spi, n, *, bpp=3, brightness=1.0, auto_write=True, pixel_order=None, **timing):
        self.spi, self.n, self.brightness = spi, n, brightness
        self.auto_write, self.pixel_order = auto_write, pixel_order
        self.pixels = [(0, 0, 0)] * n
        self.shown: list[list[tuple[int, int, int]]] = []
        FakeNeoPixelSPI.made.append(self)

    def __setitem__(self, index, value):
        assert isinstance(index, slice) and isinstance(value, list)
        self.pixels[index] = value

    def show(self):
        self.shown.append(list(self.pixels))


@pytest.fixture
def neopixel_spi(monkeypatch, tmp_path):
    """Fake ``board`` and ``neopixel_spi`` modules, a 32 KiB spidev buffer, and
    SPI_BUFSIZE unset (restored afterwards)."""
    board = types.ModuleType("board")
    board.SPI = FakeSPI
    module = types.ModuleType("neopixel_spi")
    module.NeoPixel_SPI = FakeNeoPixelSPI
    monkeypatch.setitem(sys.modules, "board", board)
    monkeypatch.setitem(sys.modules, "neopixel_spi", module)
    monkeypatch.setattr(FakeNeoPixelSPI, "made", [])
    bufsiz = tmp_path / "bufsiz"
    bufsiz.write_text("32768\n")
    monkeypatch.setattr(spi_module, "SPIDEV_BUFSIZ", bufsiz)
    monkeypatch.setenv("SPI_BUFSIZE", "unset")  # records the variable's absence, to restore it
    monkeypatch.delenv("SPI_BUFSIZE")
    return module


# --- frames and the simulated strip -----------------------------------------------


class TestSimulatedStrip:
    def test_records_every_frame_and_calls_back(self):
        seen = []
        strip = SimulatedStrip(3, on_frame=seen.append)
        assert strip.last == [DARK] * 3
        strip.show([RED, GREEN, BLUE])
        strip.show([[1, 2, 3], DARK, WHITE])
        assert list(strip.frames) == [[RED, GREEN, BLUE], [(1, 2, 3), DARK, WHITE]]
        assert seen == list(strip.frames) and strip.last == [(1, 2, 3), DARK, WHITE]

    @pytest.mark.parametrize("frame, message", [
        ([RED, GREEN], "needs 3 colours"),
        ([RED, GREEN, BLUE, RED], "needs 3 colours"),
        ([RED, (256, 0, 0), BLUE], "LED 1"),
        ([RED, GREEN, (0, -1, 0)], "LED 2"),
        ([(0.5, 0, 0), GREEN, BLUE], "LED 0"),
        ([(True, 0, 0), GREEN, BLUE], "LED 0"),
        ([RED, (1, 2), BLUE], "LED 1"),
        ([RED, 0xFF0000, BLUE], "LED 1"),
        ([(1, 0, 0), (True, 0, 0), BLUE], "LED 1"),  # equal to a good colour, and still refused
        ([(1, 2, 3), (1.0, 2, 3), (1, 2, 3)], "LED 1"),
    ])
    def test_refuses_a_bad_frame(self, frame, message):
        strip = SimulatedStrip(3)
        with pytest.raises(ValueError, match=message):
            strip.show(frame)
        assert not strip.frames

    def test_close_goes_dark_once_and_refuses_use_after(self):
        strip = SimulatedStrip(2)
        strip.show([RED, RED])
        strip.close()
        strip.close()
        assert list(strip.frames) == [[RED, RED], [DARK, DARK]]
        with pytest.raises(StripError, match="closed"):
            strip.show([RED, RED])

    def test_keeps_only_the_latest_frames(self):
        strip = SimulatedStrip(1, keep=2)
        for value in range(5):
            strip.show([(value, 0, 0)])
        assert list(strip.frames) == [[(3, 0, 0)], [(4, 0, 0)]]

    def test_needs_an_led(self):
        with pytest.raises(ValueError):
            SimulatedStrip(0)

    def test_check_frame_returns_tuples(self):
        assert check_frame([[1, 2, 3]], 1) == [(1, 2, 3)]

    def test_a_checked_frame_is_taken_as_it_is_if_it_fits(self):
        checked = check_frame([RED, (1, 2, 3)], 2)
        assert isinstance(checked, CheckedFrame) and checked.channels == 261
        assert check_frame(checked, 2) is checked
        with pytest.raises(ValueError, match="needs 3 colours"):
            SimulatedStrip(3).show(checked)


class TestCompose:
    def test_dark_but_for_the_lit_leds(self):
        frame = compose(4, {3: RED, 1: (1, 2, 3)})
        assert frame == [DARK, (1, 2, 3), DARK, RED] and frame.channels == 261
        assert compose(2, {}) == [DARK, DARK] and compose(2, {}).channels == 0

    def test_a_strip_takes_it_as_it_is(self, monkeypatch):
        frame = compose(2, {0: RED})
        monkeypatch.setattr(frame_module, "_is_plain", lambda colour: pytest.fail("checked again"))
        strip = SimulatedStrip(2)
        BrightnessCap(strip, supply_amps=3.0).show(frame)
        assert strip.last is frame

    def test_a_list_is_taken_as_a_colour(self):
        assert compose(1, {0: [1, 2, 3]}) == [(1, 2, 3)]

    @pytest.mark.parametrize("lit, message", [
        ({2: (256, 0, 0)}, "LED 2: .256, 0, 0. is not an"),
        ({0: (True, 0, 0)}, "LED 0"),
        ({3: RED}, "a frame of 3 LEDs has no LED 3"),
        ({-1: RED, 1: RED}, "a frame of 3 LEDs has no LED -1"),
    ])
    def test_refuses_bad_colours_and_leds(self, lit, message):
        with pytest.raises(ValueError, match=message):
            compose(3, lit)


# --- rpi_ws281x ----------------------------------------------------------------------


class TestWs281xStrip:
    def test_starts_on_spi_pin_10_with_grb_by_default(self, ws281x):
        strip = Ws281xStrip(4)
        (made,) = FakePixelStrip.made
        assert (made.num, made.pin, made.strip_type) == (4, 10, FAKE_STRIP_TYPES["GRB"])
        assert (made.freq_hz, made.dma, made.channel, made.brightness) == (800_000, 10, 0, 255)
        strip.close()

    @pytest.mark.parametrize("order", sorted(FAKE_STRIP_TYPES))
    def test_colour_order_picks_the_library_strip_type(self, ws281x, order):
        Ws281xStrip(2, colour_order=order).close()
        assert FakePixelStrip.made[-1].strip_type == FAKE_STRIP_TYPES[order]

    def test_frames_arrive_on_the_right_leds_as_rgb_colours(self, ws281x):
        strip = Ws281xStrip(3, colour_order="BRG")
        strip.show([RED, GREEN, (1, 2, 3)])
        strip.show([DARK, DARK, BLUE])
        made = FakePixelStrip.made[0]
        assert made.shown == [[0xFF0000, 0x00FF00, 0x010203], [0, 0, 0x0000FF]]
        strip.close()

    def test_close_goes_dark_and_releases_the_library(self, ws281x, unregistered):
        strip = Ws281xStrip(2)
        strip.show([RED, RED])
        strip.close()
        strip.close()
        made = FakePixelStrip.made[0]
        assert made.shown[-1] == [0, 0] and made.cleaned and unregistered == [made._cleanup]
        with pytest.raises(StripError, match="closed"):
            strip.show([RED, RED])

    def test_a_bad_frame_is_refused_before_the_library_sees_it(self, ws281x):
        strip = Ws281xStrip(2)
        with pytest.raises(ValueError):
            strip.show([RED])
        assert FakePixelStrip.made[0].shown == []
        strip.close()

    def test_failing_begin_unregisters_the_segfaulting_cleanup_and_hints(self, ws281x, unregistered, no_pi):
        FakePixelStrip.begin_error = HW_NOT_SUPPORTED
        with pytest.raises(StripError) as caught:
            Ws281xStrip(10)
        made = FakePixelStrip.made[0]
        assert unregistered == [made._cleanup] and not made.cleaned
        message = str(caught.value)
        assert HW_NOT_SUPPORTED in message and "GPIO10" in message
        assert "not a Raspberry Pi?" in message and "pi5-spi" in message

    def test_on_a_pi_5_the_hint_names_the_pi5_backend(self, ws281x, unregistered, tmp_path, monkeypatch):
        model = tmp_path / "model"
        model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
        monkeypatch.setattr(ws281x_module, "DEVICE_MODEL", model)
        FakePixelStrip.begin_error = HW_NOT_SUPPORTED
        with pytest.raises(StripError, match=r"Raspberry Pi 5 Model B Rev 1\.0, which rpi_ws281x does not drive: "
                                             r"use backend pi5-spi"):
            Ws281xStrip(10)

    @pytest.mark.parametrize("code, hint", [
        (-13, "dtparam=spi=on"),
        (-5, "root"),
        (-11, r"use 10 \(SPI\)"),
        (-14, "spidev.bufsiz"),
        (-99, "return codes"),
    ])
    def test_hints_by_return_code(self, ws281x, unregistered, code, hint):
        FakePixelStrip.begin_error = f"ws2811_init failed with code {code} (some text)"
        with pytest.raises(StripError, match=hint):
            Ws281xStrip(10)

    def test_a_failing_show_is_a_strip_error(self, ws281x, monkeypatch):
        strip = Ws281xStrip(1)

        def fail():
            raise RuntimeError("ws2811_render failed with code -14 (SPI transfer error)")

        monkeypatch.setattr(FakePixelStrip.made[0], "show", fail)
        with pytest.raises(StripError, match="spidev.bufsiz"):
            strip.show([RED])

    def test_missing_library_is_a_strip_error(self, monkeypatch):
        monkeypatch.setitem(sys.modules, "rpi_ws281x", None)
        with pytest.raises(StripError, match="pip install rpi-ws281x"):
            Ws281xStrip(10)

    def test_unknown_colour_order(self, ws281x):
        with pytest.raises(ValueError, match="colour order"):
            Ws281xStrip(10, colour_order="RGBW")


# --- neopixel_spi (Pi 5) -------------------------------------------------------------


class TestPi5SpiStrip:
    def test_frames_arrive_on_the_right_leds_in_the_chosen_order(self, neopixel_spi):
        strip = Pi5SpiStrip(3, colour_order="RGB", brightness=51)
        (made,) = FakeNeoPixelSPI.made
        assert (made.n, made.pixel_order, made.auto_write, made.brightness) == (3, "RGB", False, 0.2)
        strip.show([RED, GREEN, (1, 2, 3)])
        assert made.shown == [[RED, GREEN, (1, 2, 3)]]
        strip.close()
        strip.close()
        assert made.shown[-1] == [DARK] * 3 and made.spi.deinited

    def test_grb_by_default_and_blinka_told_the_buffer_size(self, neopixel_spi):
        Pi5SpiStrip(3).close()
        assert FakeNeoPixelSPI.made[0].pixel_order == "GRB"
        assert spi_module.os.environ["SPI_BUFSIZE"] == "32768"

    def test_a_strip_longer_than_the_spidev_buffer_is_refused_with_the_fix(self, neopixel_spi):
        spi_module.SPIDEV_BUFSIZ.write_text("4096\n")
        Pi5SpiStrip(165).close()
        with pytest.raises(StripError, match=r"needs 4112 bytes .* holds 4096: add spidev\.bufsiz=32768"):
            Pi5SpiStrip(166)

    def test_only_gpio_10(self, neopixel_spi):
        with pytest.raises(StripError, match="GPIO10"):
            Pi5SpiStrip(3, pin=18)

    def test_no_spi_on_this_board(self, neopixel_spi, monkeypatch):
        def no_spi():
            raise AttributeError("module 'board' has no attribute 'SPI'")

        monkeypatch.setattr(sys.modules["board"], "SPI", no_spi)
        with pytest.raises(StripError, match="not a Raspberry Pi"):
            Pi5SpiStrip(3)

    def test_spi_not_enabled(self, neopixel_spi, monkeypatch):
        def missing():
            raise OSError("/dev/spidev0.0 does not exist")

        monkeypatch.setattr(sys.modules["board"], "SPI", missing)
        with pytest.raises(StripError, match="dtparam=spi=on"):
            Pi5SpiStrip(3)

    def test_missing_libraries(self, neopixel_spi, monkeypatch):
        monkeypatch.setitem(sys.modules, "neopixel_spi", None)
        with pytest.raises(StripError, match="pip install adafruit-circuitpython-neopixel-spi"):
            Pi5SpiStrip(3)

    def test_blinka_without_gpiod(self, neopixel_spi, monkeypatch):
        def no_gpiod():
            raise ModuleNotFoundError("No module named 'gpiod'", name="gpiod")

        monkeypatch.setattr(sys.modules["board"], "SPI", no_gpiod)
        with pytest.raises(StripError, match="pip install gpiod"):
            Pi5SpiStrip(3)

    def test_a_failing_write_is_a_strip_error(self, neopixel_spi, monkeypatch):
        strip = Pi5SpiStrip(1)

        def fail():
            raise OSError(90, "Message too long")

        monkeypatch.setattr(FakeNeoPixelSPI.made[0], "show", fail)
        with pytest.raises(StripError, match="spidev.bufsiz"):
            strip.show([RED])


# --- power ---------------------------------------------------------------------------


class TestCurrentEstimate:
    def test_numbers(self):
        assert estimate_milliamps([WHITE]) == pytest.approx(61.0)  # 3 x 20 mA + 1 mA idle
        assert estimate_milliamps([RED] * 10) == pytest.approx(210.0)
        assert estimate_milliamps([DARK] * 274) == pytest.approx(274.0)
        assert estimate_milliamps([(51, 102, 0)]) == pytest.approx(13.0)  # 0.2 + 0.4 of a channel

    def test_scale_brings_the_colour_current_within_budget(self):
        frame = [WHITE] * 100  # 6000 mA of colour + 100 mA idle
        assert cap_scale(frame, 2000.0) == pytest.approx(1900 / 6000)
        assert cap_scale(frame, 6100.0) == 1.0
        assert cap_scale(frame, 50.0) == 0.0
        assert cap_scale([DARK] * 5, 1.0) == 1.0


class TestBrightnessCap:
    def test_a_frame_within_budget_passes_unchanged(self):
        inner = SimulatedStrip(2)
        cap = BrightnessCap(inner, supply_amps=3.0, reserve_amps=1.0)
        cap.show([RED, (1, 2, 3)])
        assert inner.last == [RED, (1, 2, 3)] and cap.last_scale == 1.0
        assert cap.last_milliamps == pytest.approx(20 + 6 * 20 / 255 + 2)

    def test_full_white_on_a_3_amp_supply_less_1_amp_for_the_pi(self):
        inner = SimulatedStrip(100)
        cap = BrightnessCap(inner, supply_amps=3.0, reserve_amps=1.0)
        assert cap.budget_ma == pytest.approx(2000.0)
        cap.show([WHITE] * 100)
        assert cap.last_scale == pytest.approx(0.3167, abs=1e-4)
        assert inner.last == [(80, 80, 80)] * 100  # 255 x 0.3167, rounded down
        assert cap.last_milliamps == pytest.approx(1982.35, abs=0.01) and cap.last_milliamps <= 2000

    def test_brightness_dims_first_and_can_change(self):
        inner = SimulatedStrip(1)
        cap = BrightnessCap(inner, supply_amps=2.0, brightness=128)
        cap.show([(255, 100, 0)])
        assert inner.last == [(128, 50, 0)]
        cap.brightness = 0
        cap.show([WHITE])
        assert inner.last == [DARK]
        with pytest.raises(ValueError):
            cap.brightness = 256

    @pytest.mark.parametrize("brightness", [255, 128])
    def test_a_frame_is_checked_once_on_its_way_to_the_strip(self, monkeypatch, brightness):
        checked = []
        real = frame_module._is_plain
        monkeypatch.setattr(frame_module, "_is_plain", lambda colour: checked.append(colour) or real(colour))
        monkeypatch.setattr(frame_module, "_PLAIN", {})
        inner = SimulatedStrip(3)
        cap = BrightnessCap(inner, supply_amps=3.0, brightness=brightness)
        cap.show([RED, RED, (1, 2, 3)])
        assert checked == [RED, (1, 2, 3)]  # each colour once, however many LEDs show it
        assert isinstance(inner.last, CheckedFrame) and inner.last.channels == sum(map(sum, inner.last))
        cap.show([(1, 2, 3), RED, RED])
        assert checked == [RED, (1, 2, 3)]  # the same colour objects again: known, not checked again

    def test_a_colour_known_plain_does_not_vouch_for_an_equal_one(self, monkeypatch):
        monkeypatch.setattr(frame_module, "_PLAIN", {})
        inner = SimulatedStrip(2)
        inner.show([(1, 0, 0), DARK])
        inner.show([(1, 0, 0), [0, 0, 0]])  # a list equal to a colour known plain: made a tuple
        assert inner.last == [(1, 0, 0), DARK] and type(inner.last[1]) is tuple
        with pytest.raises(ValueError, match="LED 0"):
            inner.show([(True, 0, 0), DARK])  # equal to (1, 0, 0), which is known: refused all the same
        with pytest.raises(ValueError, match="LED 1"):
            inner.show([(1, 0, 0), (0, 0, 256)])

    def test_the_cache_of_known_colours_stays_bounded(self, monkeypatch):
        monkeypatch.setattr(frame_module, "_PLAIN", {})
        monkeypatch.setattr(frame_module, "PLAIN_CACHE", 8)
        inner = SimulatedStrip(1)
        for n in range(50):
            inner.show([(n, 0, 0)])
        assert 0 < len(frame_module._PLAIN) <= 8

    def test_passes_count_and_close_and_checks_frames(self):
        inner = SimulatedStrip(2)
        cap = BrightnessCap(inner, supply_amps=1.0)
        assert cap.count == 2
        with pytest.raises(ValueError):
            cap.show([RED])
        cap.close()
        assert inner.closed

    @pytest.mark.parametrize("supply, reserve", [(1.0, 1.0), (0.5, 1.0), (0.0, 0.0), (2.0, -1.0)])
    def test_needs_a_budget(self, supply, reserve):
        with pytest.raises(ValueError):
            BrightnessCap(SimulatedStrip(1), supply_amps=supply, reserve_amps=reserve)


# --- the factory ---------------------------------------------------------------------


class TestOpenStrip:
    def test_simulated_by_default_under_a_cap(self):
        strip = open_strip(StripSettings(count=5, brightness=100, supply_amps=4, reserve_amps=1.5), count=1)
        assert isinstance(strip, BrightnessCap) and isinstance(strip.strip, SimulatedStrip)
        assert (strip.count, strip.brightness, strip.budget_ma) == (5, 100, 2500.0)

    def test_ws281x_with_its_settings(self, ws281x):
        strip = open_strip(StripSettings(backend="ws281x", pin=12, colour_order="RGB"), count=3)
        assert isinstance(strip.strip, Ws281xStrip)
        made = FakePixelStrip.made[0]
        assert (made.pin, made.strip_type, made.brightness) == (12, FAKE_STRIP_TYPES["RGB"], 255)
        strip.show([RED, GREEN, BLUE])
        assert made.shown == [[0xFF0000, 0x00FF00, 0x0000FF]]
        strip.close()

    def test_pi5_spi(self, neopixel_spi):
        strip = open_strip(StripSettings(backend="pi5-spi"), count=3)
        assert isinstance(strip.strip, Pi5SpiStrip)
        strip.close()

    def test_falls_back_to_a_simulated_strip_with_a_warning(self, ws281x, unregistered, no_pi, caplog):
        FakePixelStrip.begin_error = HW_NOT_SUPPORTED
        with caplog.at_level(logging.WARNING, logger="toprace_pi.hardware.strip"):
            strip = open_strip(StripSettings(backend="ws281x"), count=4)
        assert isinstance(strip.strip, SimulatedStrip) and strip.count == 4
        (record,) = caplog.records
        assert record.levelno == logging.WARNING
        assert "ws281x" in record.getMessage() and HW_NOT_SUPPORTED in record.getMessage()
        assert "simulated" in record.getMessage()
        strip.show([RED] * 4)

    def test_falls_back_when_the_pi5_library_is_missing(self, monkeypatch, no_pi, caplog):
        monkeypatch.setitem(sys.modules, "board", None)
        with caplog.at_level(logging.WARNING):
            strip = open_strip(StripSettings(backend="pi5-spi"), count=4)
        assert isinstance(strip.strip, SimulatedStrip)
        assert "pi5-spi" in caplog.text and "pip install" in caplog.text

    def test_a_bad_section_names_every_problem(self):
        section = {"backend": "neon", "count": 0, "pin": "ten", "brightness": 300, "colour_order": "RGBW",
                   "supply_amps": 1, "reserve_amps": 2, "colour": "red"}
        with pytest.raises(DataError) as caught:
            parse_config({"strip": section}, "table.toml")
        problems = caught.value.problems
        assert len(problems) == 7 and str(caught.value).startswith("table.toml: 7 problems")
        for word in ("colour (did you mean colour_order?)", "count", "backend", "pin", "brightness", "colour_order",
                     "supply_amps"):
            assert any(word in p for p in problems), word

    def test_the_count_may_come_from_the_profile(self):
        assert parse_config({"strip": {"backend": "simulated"}}, "table.toml").strip.count is None
        assert open_strip(StripSettings(), count=191).count == 191
        assert open_strip(StripSettings(count=200), count=191).count == 200


def test_every_device_closes_at_the_end_of_a_with_block():
    from toprace_pi.hardware.readers.simulated import SimulatedReader

    with SimulatedStrip(3) as strip, SimulatedReader("discard") as reader:
        strip.show([(1, 2, 3)] * 3)
    assert strip.closed and strip.last == [DARK] * 3
    with pytest.raises(ReaderError, match="closed"):
        reader.poll()
