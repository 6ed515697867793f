"""The package's exception tree.

Every error the package raises on purpose derives from :class:`TopRaceError`,
so a caller can catch one type. Each leaf is also a :class:`ValueError`,
because each means "this input was wrong", never "the program is broken".
"""


class TopRaceError(Exception):
    """Root of every error raised by toprace_pi on purpose."""


class IllegalActionError(TopRaceError, ValueError):
    """An action the rules do not allow now; the game state is unchanged."""


class SettingsError(IllegalActionError):
    """Settings no game can be played with (too many players, a variant the rules do not have).

    An :class:`IllegalActionError` too, which callers caught before there was a type of its own."""


class NotationError(TopRaceError, ValueError):
    """Text that is not a well-formed action (``"bid 40000"``, ``"move red b12"``...)."""


class DataError(TopRaceError, ValueError):
    """A track, deck or saved game that fails its checks.

    ``problems`` lists every problem found, each naming the file and the place
    in it, so a maker can fix a data file in one pass.
    """

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = list(problems)
        if len(self.problems) == 1:
            super().__init__(f"{source}: {self.problems[0]}")
        else:
            lines = "\n".join(f"  - {p}" for p in self.problems)
            super().__init__(f"{source}: {len(self.problems)} problems:\n{lines}")
