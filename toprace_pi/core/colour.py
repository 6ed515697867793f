"""Colours as the LED strip and every picture take them: ``(red, green, blue)``, 0-255."""

import functools

RGB = tuple[int, int, int]
#: A dark LED.
OFF: RGB = (0, 0, 0)
#: A white LED: the seat to move, a cursor that is not about a car, a light being calibrated.
WHITE: RGB = (255, 255, 255)


@functools.lru_cache(maxsize=1024)
def dim(rgb: RGB, share: float) -> RGB:
    """``rgb`` at ``share`` of its brightness: a glow that marks a space without hiding what lies on it.
    Remembered: a frame dims the same few colours every time, and one object per glow is
    checked once on its way to the strip."""
    r, g, b = rgb
    return (round(r * share), round(g * share), round(b * share))


def is_light(rgb: RGB) -> bool:
    """Whether dark ink reads better than white on ``rgb`` (its perceived brightness)."""
    r, g, b = rgb
    return 0.299 * r + 0.587 * g + 0.114 * b > 140
