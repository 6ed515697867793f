"""What a strip draws from the 5 V supply, and how far a frame must be dimmed to stay within it.

A weak supply is the classic failure of LED boards: the voltage sags and the Pi resets. These estimates are
what :class:`~toprace_pi.hardware.strip.BrightnessCap` keeps every frame within.
"""

from __future__ import annotations

from collections.abc import Sequence

from toprace_pi.hardware.strip.frame import RGB, CheckedFrame, channel_sum

#: Current of one colour channel at 255 (so about 60 mA for a full-white LED), linear below.
MA_PER_CHANNEL = 20.0
#: What a WS2812B draws even when dark: it adds up along a few hundred LEDs.
IDLE_MA_PER_LED = 1.0


def estimate_milliamps(frame: Sequence[RGB]) -> float:
    """The current a strip draws showing ``frame``: 20 mA per channel at 255,
    linear below, plus the idle draw of every LED, lit or not."""
    return milliamps(channel_sum(frame), len(frame))


def cap_scale(frame: Sequence[RGB], budget_ma: float) -> float:
    """The factor (at most 1) for every colour value that brings ``frame``'s
    estimate within ``budget_ma``. Only the colour current scales; the idle
    current stays, so a budget below it gives 0 (dark); a dark frame needs no scaling."""
    return fit_scale(channel_sum(frame), len(frame), budget_ma)


def milliamps(channels: int, leds: int) -> float:
    """The estimate for ``leds`` LEDs whose colour values add up to ``channels``."""
    return channels * MA_PER_CHANNEL / 255 + IDLE_MA_PER_LED * leds


def fit_scale(channels: int, leds: int, budget_ma: float) -> float:
    """:func:`cap_scale` of a frame of ``leds`` LEDs whose colour values add up to ``channels``."""
    idle = IDLE_MA_PER_LED * leds
    colour = milliamps(channels, leds) - idle
    if colour <= 0 or colour + idle <= budget_ma:
        return 1.0
    return max(0.0, (budget_ma - idle) / colour)


def scaled(frame: CheckedFrame, factor: float) -> CheckedFrame:
    """Rounds down, so a frame scaled by :func:`cap_scale` stays within budget; each colour is
    scaled once, however many LEDs show it (a checked frame holds plain tuples, equal when alike)."""
    if factor == 1.0:
        return frame
    dimmed = {colour: (int(colour[0] * factor), int(colour[1] * factor), int(colour[2] * factor))
              for colour in set(frame)}
    colours = list(map(dimmed.__getitem__, frame))
    return CheckedFrame(colours, channel_sum(colours))

