"""The buzzer's signals as notes: a tone name ("A4", "C#5") or ``None`` for silence, each with its length."""

from __future__ import annotations

#: One step of a signal: a tone name ("A4", "C#5") or ``None`` for silence, and its length in seconds.
Note = tuple[str | None, float]
Melody = tuple[Note, ...]

#: A short low buzz: long enough to tell apart from the click on a one-pitch buzzer.
REFUSE: Melody = (("A3", 0.35),)
#: A short high click.
CONFIRM: Melody = (("E6", 0.025),)
#: Two quick high beeps: a timed window (the pit stop claims) is about to close.
HURRY: Melody = (("C6", 0.06), (None, 0.06), ("C6", 0.06))
_FANFARE = ("C5", "E5", "G5", "C6")


def fanfare(place: int) -> Melody:
    """The notes for a car finishing in ``place`` (1 = first).

    The winner gets the whole rising fanfare, second place one note less, later
    places two notes, so the table hears who won without looking. Notes are
    separated by rests so a one-pitch buzzer sounds them as separate beeps.
    """
    if isinstance(place, bool) or not isinstance(place, int) or place < 1:
        raise ValueError(f"a place is a whole number from 1, not {place!r}")
    tones = _FANFARE[: max(2, len(_FANFARE) + 1 - place)]
    melody: list[Note] = []
    for tone in tones[:-1]:
        melody += [(tone, 0.12), (None, 0.04)]
    return (*melody, (tones[-1], 0.4))

