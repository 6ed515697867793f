"""The LED strip under the track: real backends, a simulated one, a power cap and the factory.

Backends (all implement :class:`LedStrip`):

``ws281x`` -> :class:`Ws281xStrip`
    rpi_ws281x on a Raspberry Pi 1-4 or Zero. The default pin is GPIO10, the SPI
    mode: it needs no root (the PWM and PCM pins need /dev/mem), only SPI enabled
    and the ``spi`` and ``gpio`` groups. rpi_ws281x does not drive the Pi 5.
``pi5-spi`` -> :class:`Pi5SpiStrip`
    Adafruit's neopixel_spi over SPI0 (GPIO10) through Blinka: the Pi 5's way
    (it works on a Pi 3 or 4 as well). Long strips need a larger spidev buffer,
    checked at start.
``simulated`` -> :class:`SimulatedStrip`
    No hardware: remembers the frames shown. The demo and the tests use it, and
    :func:`open_strip` falls back to it when a real strip cannot start, because
    the table service must run without its strip.

Real backends import their library lazily, so nothing here needs it to be
installed until a real strip is opened. Every backend checks frames with
:func:`check_frame`, so a frame the simulation accepts is one the real strip
accepts. :class:`BrightnessCap` wraps any strip to keep its estimated current
within the power supply's rating; it checks each frame once and hands its strip
a :class:`CheckedFrame`, which the strip takes as it is.
"""

from __future__ import annotations

import atexit
import importlib
import itertools
import logging
import os
import re
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

from toprace_pi.core.colour import OFF as DARK
from toprace_pi.core.colour import RGB
from toprace_pi.errors import DataError
from toprace_pi.hardware import Device, StripError
from toprace_pi.hardware.gpio import HEADER_GPIOS
from toprace_pi.schema import BYTE, Range, shown, unknown_keys

log = logging.getLogger(__name__)

#: More LEDs than any board has: a frame is a list of that many colours.
MAX_LEDS = 10_000
#: A 5 V supply's current: 100 A (500 W) is more than any table's strip draws at full white.
AMPS = Range(float, 0.0, 100.0, "a number of amperes")
LED_COUNT = Range(int, 1, MAX_LEDS, "a number of LEDs")
#: Every number of the strip's part of the table's configuration, and its range.
NUMBERS: dict[str, Range[Any]] = {"count": LED_COUNT, "pin": HEADER_GPIOS, "brightness": BYTE, "supply_amps": AMPS,
                                  "reserve_amps": AMPS}

#: The orders in which a strip's chips expect the three colours; WS2812B is GRB.
COLOUR_ORDERS = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")
BACKENDS = ("ws281x", "pi5-spi", "simulated")

#: Current of one colour channel at 255 (so about 60 mA for a full-white LED), linear below.
MA_PER_CHANNEL = 20.0
#: What a WS2812B draws even when dark: it adds up along a few hundred LEDs.
IDLE_MA_PER_LED = 1.0

#: Read for the board model and the spidev buffer size; tests point these elsewhere.
DEVICE_MODEL = Path("/proc/device-tree/model")
SPIDEV_BUFSIZ = Path("/sys/module/spidev/parameters/bufsiz")
#: neopixel_spi sends one SPI byte per data bit (24 per RGB LED) plus 64 reset bytes before and after.
SPI_BYTES_PER_LED = 24
SPI_RESET_BYTES = 2 * 64
BUFSIZ_FIX = "add spidev.bufsiz=32768 to /boot/firmware/cmdline.txt and reboot"
SPI_FIX = "enable SPI: dtparam=spi=on in /boot/firmware/config.txt, then reboot"


class LedStrip(Protocol):
    """What the controller needs of a strip (see :mod:`toprace_pi.hardware`)."""

    @property
    def count(self) -> int: ...

    def show(self, frame: Sequence[RGB]) -> None: ...

    def close(self) -> None: ...


class CheckedFrame(list[RGB]):
    """A frame that has passed the check: plain ``(r, g, b)`` tuples of ints 0-255, with ``channels``,
    the sum of all their values (which the current is linear in).

    :func:`check_frame` hands it back as it is (if its length is right), so a frame is
    checked once on its way through a :class:`BrightnessCap` to a strip: where it is
    composed (:func:`compose`) or where the cap takes it. Only this module makes one,
    and nothing changes one once made."""

    __slots__ = ("channels",)

    def __init__(self, colours: Iterable[RGB], channels: int) -> None:
        super().__init__(colours)
        self.channels = channels


def check_frame(frame: Sequence[RGB], count: int) -> CheckedFrame:
    """``frame`` as a list of ``(r, g, b)`` tuples, or :class:`ValueError` naming the
    first bad LED: a wrong frame is the caller's bug, not the strip's failure."""
    if len(frame) != count:
        raise ValueError(f"a frame needs {count} colours, one per LED, not {len(frame)}")
    if isinstance(frame, CheckedFrame):
        return frame
    if not _all_plain(_distinct(frame)):
        frame = [_checked(n, colour) for n, colour in enumerate(frame)]
    return CheckedFrame(frame, _channels(frame))


def compose(count: int, lit: Mapping[int, RGB]) -> CheckedFrame:
    """A frame of ``count`` LEDs, dark but for the ``lit`` ones (LED index: colour), checked as it is
    made: the few colours lit, not each LED, so a board's frame takes no check of its own on the way."""
    if lit and not 0 <= min(lit) <= max(lit) < count:
        raise ValueError(f"a frame of {count} LEDs has no LED {min(lit) if min(lit) < 0 else max(lit)}")
    if not _all_plain(lit.values()):
        lit = {led: _checked(led, colour) for led, colour in lit.items()}
    frame = CheckedFrame([DARK] * count, _channels(lit.values()))
    for led, colour in lit.items():
        frame[led] = colour
    return frame


def _distinct(colours: Iterable[RGB]) -> Iterable[object]:
    """Each colour object once: a frame repeats a few colours (dark, above all), so checking each object
    once checks a whole frame at C speed. By identity, not by equality, since ``(True, 0, 0) == (1, 0, 0)``."""
    return {id(colour): colour for colour in colours}.values()


#: Colour objects found plain, by identity. Each is kept alive by the cache, so its id is not
#: another object's while it is in it; a tuple of ints cannot change, so it stays plain.
_PLAIN: dict[int, object] = {}
#: The cache is emptied when it holds this many: a board lights a few dozen colours.
PLAIN_CACHE = 4096


def _all_plain(colours: Iterable[object]) -> bool:
    """Whether every one of ``colours`` is plain (:func:`_is_plain`): the palette's colours and the
    glows made from them recur in every frame, so each is checked once, then known by identity."""
    known = _PLAIN
    for colour in colours:
        if known.get(id(colour)) is not colour:
            if not _is_plain(colour):
                return False
            if len(known) >= PLAIN_CACHE:
                known.clear()
            known[id(colour)] = colour
    return True


def _is_plain(colour: object) -> bool:
    """Whether ``colour`` is a tuple of three ints 0-255 as it stands (lists, bools and the like
    go to :func:`_checked`, which converts them or names them)."""
    if type(colour) is not tuple or len(colour) != 3:
        return False
    r, g, b = colour
    return type(r) is type(g) is type(b) is int and 0 <= r <= 255 and 0 <= g <= 255 and 0 <= b <= 255


def _checked(n: int, colour: object) -> RGB:
    """``colour`` as a plain tuple, or :class:`ValueError` naming LED ``n``."""
    if not (isinstance(colour, (tuple, list)) and len(colour) == 3 and all(_is_byte(v) for v in colour)):
        raise ValueError(f"LED {n}: {colour!r} is not an (r, g, b) colour of whole numbers 0-255")
    return (colour[0], colour[1], colour[2])


def _is_byte(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 255


def _check_colour_order(order: str) -> None:
    if order not in COLOUR_ORDERS:
        raise ValueError(f"colour order {order!r} is not one of {', '.join(COLOUR_ORDERS)}")


# --- simulated ---------------------------------------------------------------


class SimulatedStrip(Device):
    """A strip that only remembers: the frames shown, oldest first, in ``frames``.

    As strict as the real ones (and stricter than a real strip could be about
    use after :meth:`close`), so tests catch what would fail at the table.
    ``keep`` bounds the memory because the service may run on it for days after a
    fallback; ``None`` keeps every frame. ``on_frame`` is called with each frame
    shown, for example to draw it in a terminal.
    """

    def __init__(
        self, count: int, *, keep: int | None = 1000, on_frame: Callable[[list[RGB]], None] | None = None,
        stands_in: str | None = None,
    ) -> None:
        if count < 1:
            raise ValueError(f"a strip needs at least one LED, not {count}")
        self.count = count
        #: Why it stands in for the configured real strip (:func:`open_strip`'s fallback), for the self-test.
        self.stands_in = stands_in
        self.frames: deque[list[RGB]] = deque(maxlen=keep)
        self.on_frame = on_frame
        self.closed = False

    @property
    def last(self) -> list[RGB]:
        """The frame the LEDs would show now (all dark before the first)."""
        return self.frames[-1] if self.frames else [DARK] * self.count

    def show(self, frame: Sequence[RGB]) -> None:
        if self.closed:
            raise StripError("the simulated strip is closed")
        checked = check_frame(frame, self.count)
        self.frames.append(checked)
        if self.on_frame is not None:
            self.on_frame(checked)

    def close(self) -> None:
        """Go dark (recorded as a last frame); closing twice is harmless."""
        if not self.closed:
            self.show([DARK] * self.count)
            self.closed = True


# --- rpi_ws281x ----------------------------------------------------------------

_WS281X_HINTS = {
    -5: "mmap() failed: the PWM and PCM pins need root; use pin 10 (SPI), which does not",
    -9: "no mailbox device: the PWM and PCM pins need root; use pin 10 (SPI), which does not",
    -11: "this pin cannot drive a strip: use 10 (SPI), or 12/18 (PWM) or 21 (PCM) as root",
    -13: f"SPI is not enabled or not allowed? {SPI_FIX}; the user needs the spi and gpio groups",
    -14: f"SPI transfer failed: for a long strip {BUFSIZ_FIX}",
}


class Ws281xStrip(Device):
    """A WS281x strip driven by rpi_ws281x (Raspberry Pi 1-4 and Zero; not the Pi 5).

    ``brightness`` (0-255) is the library's own scaling; leave it at 255 under a
    :class:`BrightnessCap`, whose current estimate assumes the values it sends are
    the values shown. ``colour_order`` picks the library's strip type: the
    library reorders the channels, frames are always ``(r, g, b)``.
    """

    def __init__(
        self,
        count: int,
        *,
        pin: int = 10,
        brightness: int = 255,
        colour_order: str = "GRB",
        freq_hz: int = 800_000,
        dma: int = 10,
        channel: int = 0,
    ) -> None:
        _check_colour_order(colour_order)
        lib = _import_library("rpi_ws281x", "pip install rpi-ws281x")
        self.count = count
        self._color = lib.Color
        strip = lib.PixelStrip(
            count, pin, freq_hz=freq_hz, dma=dma, brightness=brightness, channel=channel,
            strip_type=getattr(lib.ws, f"WS2811_STRIP_{colour_order}"),
        )
        try:
            strip.begin()
        except RuntimeError as exc:
            # The library registered an atexit cleanup that would call ws2811_fini
            # on the half-initialised struct and segfault the interpreter at exit.
            atexit.unregister(strip._cleanup)
            raise StripError(f"rpi_ws281x cannot start the strip on GPIO{pin}: {exc} ({_ws281x_hint(exc)})") from exc
        self._strip: Any = strip

    def show(self, frame: Sequence[RGB]) -> None:
        if self._strip is None:
            raise StripError("the LED strip is closed")
        self._write(self._strip, check_frame(frame, self.count))

    def close(self) -> None:
        """Go dark and release the SPI device and DMA channel; closing twice is harmless."""
        strip, self._strip = self._strip, None
        if strip is None:
            return
        try:
            self._write(strip, [DARK] * self.count)
        finally:
            atexit.unregister(strip._cleanup)
            strip._cleanup()

    def _write(self, strip: Any, frame: list[RGB]) -> None:
        for n, (r, g, b) in enumerate(frame):
            strip.setPixelColor(n, self._color(r, g, b))
        try:
            strip.show()
        except RuntimeError as exc:
            raise StripError(f"rpi_ws281x cannot show a frame: {exc} ({_ws281x_hint(exc)})") from exc


def _ws281x_hint(exc: Exception) -> str:
    """What to do about an rpi_ws281x error, from the return code in its message."""
    found = re.search(r"code (-?\d+)", str(exc))
    code = int(found.group(1)) if found else None
    if code == -3:
        return _unsupported_hardware_hint()
    return _WS281X_HINTS.get(code, "see the rpi_ws281x return codes") if code is not None else "unexpected error"


def _unsupported_hardware_hint() -> str:
    model = _board_model()
    if "Raspberry Pi 5" in model:
        return f"this is a {model}, which rpi_ws281x does not drive: use backend pi5-spi"
    if "Raspberry Pi" in model:
        return f"rpi_ws281x does not know this {model}: try backend pi5-spi, or a newer rpi-ws281x"
    return "not a Raspberry Pi? On a Pi 5, use backend pi5-spi"


def _board_model() -> str:
    try:
        return DEVICE_MODEL.read_text("utf-8", "replace").strip("\x00\n ")
    except OSError:
        return ""


# --- neopixel_spi (Raspberry Pi 5) ---------------------------------------------


class Pi5SpiStrip(Device):
    """A WS281x strip on SPI0's MOSI (GPIO10), driven by Adafruit's neopixel_spi.

    The Pi 5's RP1 chip leaves rpi_ws281x without its PWM/DMA path, but SPI
    works on every Pi, and needs no root: only SPI enabled and the ``spi`` and
    ``gpio`` groups. Needs adafruit-circuitpython-neopixel-spi and, on a Pi,
    gpiod for Blinka. A frame is one SPI transfer of 24 bytes per LED; a strip
    longer than the kernel's spidev buffer (4096 bytes by default, 165 LEDs)
    would be split with gaps that latch the LEDs mid-frame, so this refuses to
    start then and says how to enlarge the buffer, and tells Blinka's SPI (via
    ``SPI_BUFSIZE``, unless already set) to send the frame in one piece.
    """

    def __init__(self, count: int, *, pin: int = 10, brightness: int = 255, colour_order: str = "GRB") -> None:
        _check_colour_order(colour_order)
        if pin != 10:
            raise StripError(f"backend pi5-spi drives GPIO10 (SPI0 MOSI) only, not GPIO{pin}")
        self.count = count
        _claim_spidev_buffer(count * SPI_BYTES_PER_LED + SPI_RESET_BYTES)
        try:
            board = importlib.import_module("board")
            neopixel_spi = importlib.import_module("neopixel_spi")
            self._spi: Any = board.SPI()
        except Exception as exc:  # Blinka fails by board: ImportError, AttributeError, OSError, RuntimeError...
            raise StripError(f"neopixel_spi cannot open SPI0: {exc} ({_spi_hint(exc)})") from exc
        try:
            self._pixels: Any = neopixel_spi.NeoPixel_SPI(
                self._spi, count, pixel_order=colour_order, auto_write=False, brightness=brightness / 255
            )
        except Exception as exc:
            self._spi.deinit()
            raise StripError(f"neopixel_spi cannot start the strip: {exc} ({_spi_hint(exc)})") from exc

    def show(self, frame: Sequence[RGB]) -> None:
        if self._pixels is None:
            raise StripError("the LED strip is closed")
        self._write(check_frame(frame, self.count))

    def close(self) -> None:
        """Go dark and release SPI0; closing twice is harmless."""
        if self._pixels is None:
            return
        try:
            self._write([DARK] * self.count)
        finally:
            self._pixels = None
            self._spi.deinit()

    def _write(self, frame: list[RGB]) -> None:
        self._pixels[0 : self.count] = frame  # a list, so never read as one colour for all
        try:
            self._pixels.show()
        except Exception as exc:  # PureIO raises OSError, or a bare Exception on an ioctl timeout
            raise StripError(f"neopixel_spi cannot show a frame: {exc} ({_spi_hint(exc)})") from exc


def _claim_spidev_buffer(needed: int) -> None:
    """Refuse a frame longer than the kernel's spidev buffer; else let Blinka use all of it."""
    try:
        bufsiz = int(SPIDEV_BUFSIZ.read_text("ascii"))
    except (OSError, ValueError):
        return  # no spidev module loaded: opening SPI will fail with its own hint
    if bufsiz < needed:
        raise StripError(
            f"a frame needs {needed} bytes in one SPI transfer but the spidev buffer holds {bufsiz}: {BUFSIZ_FIX}"
        )
    os.environ.setdefault("SPI_BUFSIZE", str(bufsiz))


def _spi_hint(exc: Exception) -> str:
    if isinstance(exc, ModuleNotFoundError):
        if exc.name == "gpiod":
            return "Blinka needs gpiod on a Raspberry Pi: pip install gpiod"
        return "pip install adafruit-circuitpython-neopixel-spi"
    if isinstance(exc, PermissionError):
        return "the user needs the spi and gpio groups"
    if isinstance(exc, (AttributeError, NotImplementedError)):
        return "not a Raspberry Pi? Blinka finds no SPI on this board"
    if "does not exist" in str(exc) or isinstance(exc, FileNotFoundError):
        return SPI_FIX
    if "Message too long" in str(exc):
        return BUFSIZ_FIX
    return f"is SPI enabled? {SPI_FIX}"


def _import_library(name: str, install: str) -> ModuleType:
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise StripError(f"{name} cannot be imported: {exc} ({install})") from exc


# --- power ---------------------------------------------------------------------


def estimate_milliamps(frame: Sequence[RGB]) -> float:
    """The current a strip draws showing ``frame``: 20 mA per channel at 255,
    linear below, plus the idle draw of every LED, lit or not."""
    return _milliamps(_channels(frame), len(frame))


def cap_scale(frame: Sequence[RGB], budget_ma: float) -> float:
    """The factor (at most 1) for every colour value that brings ``frame``'s
    estimate within ``budget_ma``. Only the colour current scales; the idle
    current stays, so a budget below it gives 0 (dark); a dark frame needs no scaling."""
    return _fit(_channels(frame), len(frame), budget_ma)


def _channels(colours: Iterable[RGB]) -> int:
    """The sum of every value of ``colours``, which the current is linear in."""
    return sum(itertools.chain.from_iterable(colours))


def _milliamps(channels: int, leds: int) -> float:
    return channels * MA_PER_CHANNEL / 255 + IDLE_MA_PER_LED * leds


def _fit(channels: int, leds: int, budget_ma: float) -> float:
    """:func:`cap_scale` of a frame of ``leds`` LEDs whose colour values add up to ``channels``."""
    idle = IDLE_MA_PER_LED * leds
    colour = _milliamps(channels, leds) - idle
    if colour <= 0 or colour + idle <= budget_ma:
        return 1.0
    return max(0.0, (budget_ma - idle) / colour)


def _scaled(frame: CheckedFrame, factor: float) -> CheckedFrame:
    """Rounds down, so a frame scaled by :func:`cap_scale` stays within budget; each colour is
    scaled once, however many LEDs show it (a checked frame holds plain tuples, equal when alike)."""
    if factor == 1.0:
        return frame
    scaled = {colour: (int(colour[0] * factor), int(colour[1] * factor), int(colour[2] * factor))
              for colour in set(frame)}
    colours = list(map(scaled.__getitem__, frame))
    return CheckedFrame(colours, _channels(colours))


class BrightnessCap(Device):
    """A strip that dims every frame so its estimated current stays within the supply.

    The budget is ``supply_amps`` (the 5 V supply's rating) less ``reserve_amps``
    (what else draws from it, such as the Pi: about 1 A for a Pi 4, 0 when the
    strip has its own supply). A weak supply is the classic failure of LED
    boards: the voltage sags and the Pi resets. ``brightness`` (0-255) dims every
    frame first; the cap then scales further only if needed. ``last_scale`` and
    ``last_milliamps`` tell what the last frame needed and drew.
    """

    def __init__(
        self, strip: LedStrip, *, supply_amps: float, reserve_amps: float = 0.0, brightness: int = 255
    ) -> None:
        if not supply_amps > reserve_amps >= 0:
            raise ValueError(f"need supply_amps > reserve_amps >= 0, not {supply_amps} and {reserve_amps}")
        self.strip = strip
        self.count = strip.count
        self.budget_ma = (supply_amps - reserve_amps) * 1000
        self.brightness = brightness
        self.last_scale = 1.0
        self.last_milliamps = 0.0

    @property
    def brightness(self) -> int:
        return self._brightness

    @brightness.setter
    def brightness(self, value: int) -> None:
        if not _is_byte(value):
            raise ValueError(f"brightness must be a whole number 0-255, not {value!r}")
        self._brightness = value

    def show(self, frame: Sequence[RGB]) -> None:
        """Check ``frame``, dim it and hand it on, checked: the strip does not check it again."""
        dimmed = _scaled(check_frame(frame, self.count), self.brightness / 255)
        self.last_scale = _fit(dimmed.channels, self.count, self.budget_ma)
        if self.last_scale < 1.0:
            dimmed = _scaled(dimmed, self.last_scale)
        self.last_milliamps = _milliamps(dimmed.channels, self.count)
        self.strip.show(dimmed)

    def close(self) -> None:
        self.strip.close()


# --- factory -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StripSettings:
    """The strip's part of the table's configuration, checked. Defaults suit a
    WS2812B strip on GPIO10 sharing a 5 V 3 A supply with a Pi 4."""

    count: int
    backend: str = "simulated"
    pin: int = 10
    brightness: int = 255
    colour_order: str = "GRB"
    supply_amps: float = 3.0
    reserve_amps: float = 1.0

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> StripSettings:
        """Check a config mapping (keys as the fields, named as the config's ``[strip]`` section), reporting
        every problem at once as a :class:`~toprace_pi.errors.DataError`."""
        problems: list[str] = []
        unknown_keys(config, tuple(cls.__dataclass_fields__), "[strip]", problems)
        problems += _config_problems({**_defaults(), **config})
        if problems:
            raise DataError("LED strip config", problems)
        return cls(**{k: v for k, v in config.items() if k != "colour_order"}, colour_order=_order(config))


def _defaults() -> dict[str, Any]:
    return {name: field.default for name, field in StripSettings.__dataclass_fields__.items() if name != "count"}


def _order(config: Mapping[str, Any]) -> str:
    return str(config.get("colour_order", "GRB")).upper()


def _config_problems(config: Mapping[str, Any]) -> list[str]:
    problems: list[str] = []
    for key, allowed in NUMBERS.items():
        allowed.check(config.get(key), f"[strip] {key}", problems)
    if config["backend"] not in BACKENDS:
        problems.append(f"[strip] backend: one of {', '.join(BACKENDS)}, not {shown(config['backend'])}")
    if _order(config) not in COLOUR_ORDERS:
        problems.append(f"[strip] colour_order: one of {', '.join(COLOUR_ORDERS)}, not {shown(config['colour_order'])}")
    supply, reserve = config["supply_amps"], config["reserve_amps"]
    if supply in AMPS and reserve in AMPS and not supply > reserve:
        problems.append(f"[strip] supply_amps: more than reserve_amps, not {supply!r} and {reserve!r}")
    return problems


def open_strip(config: Mapping[str, Any], *, count: int | None = None) -> BrightnessCap:
    """The strip the config asks for, under its :class:`BrightnessCap`.

    ``config`` keys: ``backend`` ("ws281x", "pi5-spi", "simulated"), ``count``,
    ``pin``, ``brightness``, ``colour_order``, ``supply_amps``, ``reserve_amps``
    (see :class:`StripSettings` for the defaults). ``count`` here is used when the
    config gives none: pass the board profile's ``led_count``. A bad config raises
    :class:`~toprace_pi.errors.DataError`; a real strip that cannot start is
    replaced by a :class:`SimulatedStrip` with a WARNING saying why, so the
    service runs on without its LEDs.
    """
    settings = StripSettings.from_config(config if count is None else {"count": count, **config})
    return capped(_start(settings), settings)


def capped(strip: LedStrip, settings: StripSettings) -> BrightnessCap:
    """``strip`` under the :class:`BrightnessCap` that ``settings`` ask for: the table's, or the demo's
    (the defaults), so the demo's frames take the table's path to its strip."""
    return BrightnessCap(strip, supply_amps=settings.supply_amps, reserve_amps=settings.reserve_amps,
                         brightness=settings.brightness)


def _start(settings: StripSettings) -> LedStrip:
    if settings.backend == "simulated":
        return SimulatedStrip(settings.count)
    try:
        if settings.backend == "ws281x":
            return Ws281xStrip(settings.count, pin=settings.pin, colour_order=settings.colour_order)
        return Pi5SpiStrip(settings.count, pin=settings.pin, colour_order=settings.colour_order)
    except StripError as exc:
        log.warning("LED strip (backend %s) not started, using a simulated strip instead: %s", settings.backend, exc)
        return SimulatedStrip(settings.count, stands_in=str(exc))
