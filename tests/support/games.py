"""A registered game as a table would start it, for the tests that run every game alike."""

from __future__ import annotations

from toprace_pi.core import registry


def new_game(name: str, variant: str):
    """The game a table with an empty ``[game]`` section (but ``variant``) would start."""
    problems: list[str] = []
    setup = registry.get(name).records.parse_section({"variant": variant}, problems)
    assert problems == []
    return setup.new_game()[1]
