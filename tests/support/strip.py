"""A fake rpi_ws281x: what its PixelStrip is asked, recorded strip by strip (the fixture ``ws281x`` installs it)."""

from __future__ import annotations

import atexit


class FakePixelStrip:
    """Records what rpi_ws281x's PixelStrip would be asked, registering its atexit
    cleanup in the constructor as the real one does."""

    begin_error: str | None = None
    made: list[FakePixelStrip] = []

    def __init__(self, num, pin, freq_hz=800000, dma=10, invert=False, brightness=255, channel=0,
                 strip_type=None, gamma=None):
        self.num, self.pin, self.strip_type, self.brightness = num, pin, strip_type, brightness
        self.freq_hz, self.dma, self.channel = freq_hz, dma, channel
        self.leds = [0] * num
        self.shown: list[list[int]] = []
        self.cleaned = False
        FakePixelStrip.made.append(self)
        atexit.register(self._cleanup)

    def begin(self):
        if FakePixelStrip.begin_error:
            raise RuntimeError(FakePixelStrip.begin_error)

    def setPixelColor(self, n, color):
        self.leds[n] = color

    def show(self):
        self.shown.append(list(self.leds))

    def _cleanup(self):
        self.cleaned = True


def fake_color(red, green, blue, white=0):
    return (white << 24) | (red << 16) | (green << 8) | blue


FAKE_STRIP_TYPES = {"RGB": 0x00100800, "RBG": 0x00100008, "GRB": 0x00081000,
                    "GBR": 0x00080010, "BRG": 0x00001008, "BGR": 0x00000810}

