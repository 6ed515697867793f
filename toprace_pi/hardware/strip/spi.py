"""The ``pi5-spi`` backend: Adafruit's neopixel_spi over SPI0 (GPIO10) through Blinka, the Pi 5's way (it works
on a Pi 3 or 4 as well). Long strips need a larger spidev buffer, checked at start. The libraries are imported
when a strip is opened.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from toprace_pi.hardware import Device, StripError
from toprace_pi.hardware.strip.frame import DARK, RGB, check_colour_order, check_frame

#: Read for the spidev buffer size; tests point it elsewhere.
SPIDEV_BUFSIZ = Path("/sys/module/spidev/parameters/bufsiz")
#: neopixel_spi sends one SPI byte per data bit (24 per RGB LED) plus 64 reset bytes before and after.
SPI_BYTES_PER_LED = 24
SPI_RESET_BYTES = 2 * 64
BUFSIZ_FIX = "add spidev.bufsiz=32768 to /boot/firmware/cmdline.txt and reboot"
SPI_FIX = "enable SPI: dtparam=spi=on in /boot/firmware/config.txt, then reboot"



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
        check_colour_order(colour_order)
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
