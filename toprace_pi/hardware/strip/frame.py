"""A frame for the LED strip: one ``(r, g, b)`` colour per LED, checked once on its way to the strip.

Every backend checks frames with :func:`check_frame`, so a frame the simulated strip accepts is one the real
strip accepts. A frame that has passed is a :class:`CheckedFrame`, which a strip takes as it is.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence

from toprace_pi.core.colour import OFF as DARK
from toprace_pi.core.colour import RGB

#: More LEDs than any board has: a frame is a list of that many colours.
MAX_LEDS = 10_000
#: The orders in which a strip's chips expect the three colours; WS2812B is GRB.
COLOUR_ORDERS = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")


class CheckedFrame(list[RGB]):
    """A frame that has passed the check: plain ``(r, g, b)`` tuples of ints 0-255, with ``channels``,
    the sum of all their values (which the current is linear in).

    :func:`check_frame` hands it back as it is (if its length is right), so a frame is
    checked once on its way through a :class:`BrightnessCap` to a strip: where it is
    composed (:func:`compose`) or where the cap takes it. Only this package makes one,
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
    return CheckedFrame(frame, channel_sum(frame))


def compose(count: int, lit: Mapping[int, RGB]) -> CheckedFrame:
    """A frame of ``count`` LEDs, dark but for the ``lit`` ones (LED index: colour), checked as it is
    made: the few colours lit, not each LED, so a board's frame takes no check of its own on the way."""
    if lit and not 0 <= min(lit) <= max(lit) < count:
        raise ValueError(f"a frame of {count} LEDs has no LED {min(lit) if min(lit) < 0 else max(lit)}")
    if not _all_plain(lit.values()):
        lit = {led: _checked(led, colour) for led, colour in lit.items()}
    frame = CheckedFrame([DARK] * count, channel_sum(lit.values()))
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
    if not (isinstance(colour, (tuple, list)) and len(colour) == 3 and all(is_byte(v) for v in colour)):
        raise ValueError(f"LED {n}: {colour!r} is not an (r, g, b) colour of whole numbers 0-255")
    return (colour[0], colour[1], colour[2])


def is_byte(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 255


def check_colour_order(order: str) -> None:
    """Refuse a colour order no strip has, with :class:`ValueError` naming the ones there are."""
    if order not in COLOUR_ORDERS:
        raise ValueError(f"colour order {order!r} is not one of {', '.join(COLOUR_ORDERS)}")


def channel_sum(colours: Iterable[RGB]) -> int:
    """The sum of every value of ``colours``, which the current is linear in."""
    return sum(itertools.chain.from_iterable(colours))
