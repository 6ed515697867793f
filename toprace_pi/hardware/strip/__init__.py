"""The LED strip under the track: its protocol, its settings, the power cap, and its backends by name.

Backends (each opens a :class:`LedStrip`; :data:`BACKENDS` finds them by the name ``[strip] backend`` gives):

``ws281x`` -> :class:`~toprace_pi.hardware.strip.ws281x.Ws281xStrip`
    rpi_ws281x on a Raspberry Pi 1-4 or Zero, on GPIO10 (SPI) by default. rpi_ws281x does not drive the Pi 5.
``pi5-spi`` -> :class:`~toprace_pi.hardware.strip.spi.Pi5SpiStrip`
    Adafruit's neopixel_spi over SPI0 (GPIO10) through Blinka: the Pi 5's way (a Pi 3 or 4's too).
``simulated`` -> :class:`~toprace_pi.hardware.strip.simulated.SimulatedStrip`
    No hardware: remembers the frames shown; :func:`open_strip` falls back to it when a real strip cannot start,
    because the table service must run without its strip.

Real backends import their library only when a strip is opened. :class:`BrightnessCap` wraps any strip to keep
its estimated current within the power supply's rating; it checks each frame once and hands its strip a
:class:`~toprace_pi.hardware.strip.frame.CheckedFrame`, which the strip takes as it is.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from toprace_pi.hardware import Device, StripError
from toprace_pi.hardware.gpio import HEADER_GPIOS
from toprace_pi.hardware.strip.frame import MAX_LEDS, RGB, check_frame, is_byte
from toprace_pi.hardware.strip.power import fit_scale, milliamps, scaled
from toprace_pi.hardware.strip.simulated import SimulatedStrip
from toprace_pi.hardware.strip.spi import Pi5SpiStrip
from toprace_pi.hardware.strip.ws281x import Ws281xStrip
from toprace_pi.schema import BYTE, Range

log = logging.getLogger(__name__)

#: A 5 V supply's current: 100 A (500 W) is more than any table's strip draws at full white.
AMPS = Range(float, 0.0, 100.0, "a number of amperes")
LED_COUNT = Range(int, 1, MAX_LEDS, "a number of LEDs")
#: Every number of the strip's part of the table's configuration, and its range.
NUMBERS: dict[str, Range[Any]] = {"count": LED_COUNT, "pin": HEADER_GPIOS, "brightness": BYTE, "supply_amps": AMPS,
                                  "reserve_amps": AMPS}


class LedStrip(Protocol):
    """``count`` LEDs; ``show(frame)`` shows a whole frame (``count`` ``(r, g, b)`` tuples, 0-255) at once and
    raises :class:`~toprace_pi.hardware.StripError` when the strip cannot be written; ``close()`` turns it dark."""

    @property
    def count(self) -> int: ...

    def show(self, frame: Sequence[RGB]) -> None: ...

    def close(self) -> None: ...


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
        if not is_byte(value):
            raise ValueError(f"brightness must be a whole number 0-255, not {value!r}")
        self._brightness = value

    def show(self, frame: Sequence[RGB]) -> None:
        """Check ``frame``, dim it and hand it on, checked: the strip does not check it again."""
        dimmed = scaled(check_frame(frame, self.count), self.brightness / 255)
        self.last_scale = fit_scale(dimmed.channels, self.count, self.budget_ma)
        if self.last_scale < 1.0:
            dimmed = scaled(dimmed, self.last_scale)
        self.last_milliamps = milliamps(dimmed.channels, self.count)
        self.strip.show(dimmed)

    def close(self) -> None:
        self.strip.close()



@dataclass(frozen=True, slots=True)
class StripSettings:
    """The ``[strip]`` section, checked when the configuration is read (:mod:`toprace_pi.table.config`), so the
    strip opens from it without checking again. Defaults suit a WS2812B strip on GPIO10 sharing a 5 V 3 A supply
    with a Pi 4; ``count`` ``None`` leaves the number of LEDs to the board profile."""

    count: int | None = None
    backend: str = "simulated"
    pin: int = 10
    brightness: int = 255
    colour_order: str = "GRB"
    supply_amps: float = 3.0
    reserve_amps: float = 1.0


#: Each backend by its ``[strip] backend`` name: what opens it, given its settings and the number of LEDs.
BACKENDS: dict[str, Callable[[StripSettings, int], LedStrip]] = {
    "ws281x": lambda settings, count: Ws281xStrip(count, pin=settings.pin, colour_order=settings.colour_order),
    "pi5-spi": lambda settings, count: Pi5SpiStrip(count, pin=settings.pin, colour_order=settings.colour_order),
    "simulated": lambda settings, count: SimulatedStrip(count),
}


def open_strip(settings: StripSettings, *, count: int) -> BrightnessCap:
    """The strip ``settings`` ask for, under its :class:`BrightnessCap`; ``count`` (the board profile's number of
    LEDs) counts when the settings give none. A real strip that cannot start is replaced by a
    :class:`SimulatedStrip` with a WARNING saying why, so the service runs on without its LEDs."""
    leds = count if settings.count is None else settings.count
    try:
        strip = BACKENDS[settings.backend](settings, leds)
    except StripError as exc:
        log.warning("LED strip (backend %s) not started, using a simulated strip instead: %s", settings.backend, exc)
        strip = SimulatedStrip(leds, stands_in=str(exc))
    return capped(strip, settings)


def capped(strip: LedStrip, settings: StripSettings) -> BrightnessCap:
    """``strip`` under the :class:`BrightnessCap` that ``settings`` ask for: the table's, or the demo's
    (the defaults), so the demo's frames take the table's path to its strip."""
    return BrightnessCap(strip, supply_amps=settings.supply_amps, reserve_amps=settings.reserve_amps,
                         brightness=settings.brightness)
