"""The ``ws281x`` backend: rpi_ws281x on a Raspberry Pi 1-4 or Zero (not the Pi 5).

The default pin is GPIO10, the SPI mode: it needs no root (the PWM and PCM pins need /dev/mem), only SPI
enabled and the ``spi`` and ``gpio`` groups. The library is imported when a strip is opened.
"""

from __future__ import annotations

import atexit
import importlib
import re
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from toprace_pi.hardware import Device, StripError
from toprace_pi.hardware.strip.frame import DARK, RGB, check_colour_order, check_frame
from toprace_pi.hardware.strip.spi import BUFSIZ_FIX, SPI_FIX

#: Read for the board model, to say what to do on a board rpi_ws281x does not know; tests point it elsewhere.
DEVICE_MODEL = Path("/proc/device-tree/model")

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
        check_colour_order(colour_order)
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



def _import_library(name: str, install: str) -> ModuleType:
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise StripError(f"{name} cannot be imported: {exc} ({install})") from exc

