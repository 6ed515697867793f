"""Dash's rules engine on the core interface (:mod:`toprace_pi.core.game`): no secrets, one chance
decision (the die), a seat's decision otherwise."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from toprace_pi.core.clone import clone
from toprace_pi.core.game import CHANCE, NOBODY, ChanceOutcomes, Decision, GameInfo
from toprace_pi.errors import IllegalActionError, NotationError, SettingsError

GOAL = 10
DIE = (1, 2, 3)
MOVES = ("walk", "roll")


@dataclass(frozen=True)
class Settings:
    players: tuple[str, ...] = ("Anna", "Ben")

    def __post_init__(self) -> None:
        if not 2 <= len(self.players) <= 4 or len(set(self.players)) < len(self.players):
            raise SettingsError(f"Dash is for 2 to 4 players with different names, not {self.players}")


@dataclass(frozen=True)
class Move:
    """A seat's move (``walk`` or ``roll``), or with ``die`` what the die showed."""

    word: str
    die: int = 0

    def __str__(self) -> str:
        return f"die {self.die}" if self.die else self.word


@dataclass(frozen=True)
class Moved:
    """An event: a seat went forward."""

    seat: int
    cells: int

    def text(self, names: tuple[str, ...]) -> str:
        return f"{names[self.seat]} moves {self.cells}"


class Dash:
    info: ClassVar[GameInfo] = GameInfo("dash", "Dash", 2, 4, chance=True, secret_information=False,
                                        simultaneous=False)

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.names = settings.players
        self.cells = [0] * len(self.names)
        self.turn = 0
        self.rolling = False
        self.log: list[Move] = []
        self.events: list[Moved] = []

    @property
    def decision(self) -> Decision:
        if self.is_over:
            return NOBODY
        return CHANCE if self.rolling else Decision.of(self.turn)

    @property
    def is_over(self) -> bool:
        return max(self.cells) >= GOAL

    def legal_actions(self) -> list[Move]:
        return [] if self.is_over or self.rolling else [Move(word) for word in MOVES]

    def chance_outcomes(self) -> ChanceOutcomes[Move]:
        if not self.rolling:
            raise IllegalActionError("chance decides nothing now")
        return ChanceOutcomes.of([Move("die", n) for n in DIE])

    def check(self, action: Any) -> None:
        allowed = self.chance_outcomes() if self.rolling else self.legal_actions()
        if action not in allowed:
            raise IllegalActionError(f"{action} is not a move now")

    def apply(self, action: Move) -> None:
        self.check(action)
        self.log.append(action)
        if action.word == "roll":
            self.rolling = True
            return
        self.rolling = False
        self._move(action.die or 1)

    def _move(self, cells: int) -> None:
        self.cells[self.turn] = min(GOAL, self.cells[self.turn] + cells)
        self.events.append(Moved(self.turn, cells))
        self.turn = (self.turn + 1) % len(self.names)

    def parse(self, text: str) -> Move:
        word, _, number = text.partition(" ")
        if text in MOVES:
            return Move(text)
        if word == "die" and number.isdigit():
            return Move("die", int(number))
        raise NotationError(f"not a move of Dash: {text!r}")

    def winners(self) -> list[int]:
        return [seat for seat, cell in enumerate(self.cells) if cell >= GOAL]

    def snapshot(self) -> dict[str, Any]:
        return {"cells": list(self.cells), "turn": self.turn, "rolling": self.rolling}

    def to_dict(self) -> dict[str, Any]:
        return {"players": list(self.names), "log": [str(a) for a in self.log], **self.snapshot()}

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.snapshot()  # nothing is secret

    def seen_by(self, seat: int | None) -> Self:
        return self.clone()

    def conceal(self, seat: int | None) -> None:
        """Nothing to take out: Dash has no secrets."""

    def clone(self) -> Self:
        return clone(self)

    def replayed(self, log: Sequence[Move]) -> Self:
        game = type(self)(self.settings)
        for action in log:
            game.apply(action)
        return game
