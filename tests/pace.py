"""A table played at human pace, for any game's tests: a fake clock the table loop runs by, and
speech through the real :class:`~toprace_pi.hardware.sound.speech.Announcer` to a speaker that takes
as long by that clock as each sentence takes aloud.

People lay a card every second or two and a sentence takes seconds to say, so speech falls
behind the game: :class:`Hearing` keeps what the table said (news and prompts apart) and what
was heard, and :func:`play_at_pace` plays a whole game one input every :data:`PACE` seconds.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from toprace_pi.hardware.sound.speech import Announcer

#: One input every 1.5 s; the loop ticks every 10 ms, as ``play`` does.
PACE, TICK = 1.5, 0.01
#: The speaker's speed: about 160 words a minute.
SECONDS_PER_CHARACTER = 0.06
PATIENCE = 30.0  # real seconds the speaker thread may take to catch up; never reached when all is well


class Clock:
    """The table's clock, moved on by the test; the speaker waits on it."""

    def __init__(self) -> None:
        self.now = 0.0
        self.moved = threading.Condition()

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        with self.moved:
            self.now += seconds
            self.moved.notify_all()


class SlowSpeaker:
    """Speaks each sentence for as long as it would take aloud, by the table's clock."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.heard: list[tuple[float, str]] = []
        self.stopped = False

    def __call__(self, argv, text: str) -> None:
        start = self.clock()
        with self.clock.moved:
            done = self.clock.moved.wait_for(
                lambda: self.stopped or self.clock() >= start + len(text) * SECONDS_PER_CHARACTER, PATIENCE)
        assert done, f"the table's clock stood still while {text!r} was spoken"
        self.heard.append((start, text))

    def stop(self) -> None:
        """The test is over (or failed): end the sentence being spoken now."""
        with self.clock.moved:
            self.stopped = True
            self.clock.moved.notify_all()


class Hearing:
    """What a table says (``say`` for news, ``ask`` for prompts) and what its speaker got to say."""

    def __init__(self) -> None:
        self.clock = Clock()
        self.speaker = SlowSpeaker(self.clock)
        self.news: list[str] = []
        self.prompts: list[str] = []
        #: News and prompts in the order said.
        self.said: list[str] = []
        self.announcer = Announcer(echo=lambda text: None, runner=self.speaker)
        assert self.announcer.speaks

    def say(self, text: str) -> None:
        self.news.append(text)
        self.said.append(text)
        self.announcer.say(text)

    def ask(self, text: str) -> None:
        self.prompts.append(text)
        self.said.append(text)
        self.announcer.say(text, prompt=True)

    @property
    def heard(self) -> list[str]:
        return [text for _, text in self.speaker.heard]

    def close(self) -> None:
        self.speaker.stop()
        self.announcer.close()


def run_loop(demo, clock: Clock, seconds: float) -> None:
    for _ in range(round(seconds / TICK)):
        clock.advance(TICK)
        demo.step()


def listen(demo, hearing: Hearing, tick: float = TICK) -> None:
    """The players wait until the table has said all it has to say, the table loop running meanwhile
    every ``tick`` seconds (at AUTORACE's reveal: they hear the round out while they move their figures)."""
    deadline = time.monotonic() + PATIENCE
    while not hearing.announcer.wait_idle(0.001):
        hearing.clock.advance(tick)
        demo.step()
        assert time.monotonic() < deadline, "the speaker never caught up"


def play_at_pace(demo, hearing: Hearing, act: Callable[[Any], None],
                 check: Callable[[Any], None] = lambda demo: None) -> None:
    """A whole game at ``demo`` (built with ``hearing``'s clock, ``say`` and ``ask``): ``act`` makes
    one input, the loop runs :data:`PACE` seconds and ``check`` looks at the table; then a minute of
    nobody touching the table, in which it must say nothing, and the speaker catches up."""
    clock = hearing.clock
    while not demo.controller.game.is_over:
        act(demo)
        run_loop(demo, clock, PACE)
        check(demo)
    said = len(hearing.news) + len(hearing.prompts)
    run_loop(demo, clock, 60.0)  # a minute of nobody touching the table
    assert len(hearing.news) + len(hearing.prompts) == said, "the table kept talking while nobody touched it"
    listen(demo, hearing)  # let the speaker finish what it has to say
