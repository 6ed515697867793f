"""The package's layers import only downward: cli -> games -> table -> hardware -> data -> rules -> core;
and the table's layers (hardware, table) know no game: they import neither a game's folder nor the rules.

Read from the source, so that an upward import (the kind that turns into an import cycle later) fails here
with its file and line, whether it sits at the top of a module or inside a function.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "toprace_pi"
#: Lowest first. Modules outside these folders (cli, simulate, report, bots, render, service, errors) sit
#: beside the table or below the rules as their imports say; only these seven are held to an order. The core
#: (the game interface every game implements) is below every game; a game's folder (its side of the table)
#: is above the table.
LAYERS = ["core", "rules", "data", "hardware", "table", "games", "cli"]
#: The layers every game shares, so no game's rules in them.
GAME_AGNOSTIC = ("hardware", "table")
#: What belongs to a game: Top Race's rules (until they move into its folder) and the games' folders.
GAME_MODULES = ("toprace_pi.rules", "toprace_pi.games")
#: Files of the game-agnostic layers that still import a game, being moved into the game's folder: this list
#: only shrinks (a file that no longer imports a game must leave it, and no other file may join it).
STILL_IMPORT_A_GAME: set[str] = set()


def layer_of(module: str) -> int | None:
    parts = module.split(".")
    if parts[0] != "toprace_pi" or len(parts) < 2:
        return None
    return LAYERS.index(parts[1]) if parts[1] in LAYERS else None


def imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every import of the package in ``path``, relative ones resolved."""
    tree = ast.parse(path.read_text("utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
    return found


def module_layer(path: Path) -> int | None:
    relative = path.relative_to(PACKAGE.parent).with_suffix("")
    return layer_of(".".join(relative.parts))


SOURCES = sorted(p for p in PACKAGE.rglob("*.py") if module_layer(p) is not None)


def is_game(module: str) -> bool:
    return any(module == game or module.startswith(f"{game}.") for game in GAME_MODULES)


def name(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix()


@pytest.mark.parametrize("path", SOURCES, ids=name)
def test_imports_point_down(path):
    own = module_layer(path)
    moving = name(path) in STILL_IMPORT_A_GAME
    upward = [f"line {line}: {module}" for line, module in imports(path)
              if (layer := layer_of(module)) is not None and own is not None and layer > own
              and not (moving and is_game(module))]
    assert upward == [], f"{path.relative_to(PACKAGE)} imports a layer above its own ({LAYERS[own]})"


AGNOSTIC_SOURCES = sorted(p for folder in GAME_AGNOSTIC for p in (PACKAGE / folder).rglob("*.py"))


@pytest.mark.parametrize("path", AGNOSTIC_SOURCES, ids=name)
def test_the_tables_layers_import_no_game(path):
    games = [f"line {line}: {module}" for line, module in imports(path) if is_game(module)]
    if name(path) in STILL_IMPORT_A_GAME:
        assert games, f"{name(path)} imports no game any more: take it off STILL_IMPORT_A_GAME"
    else:
        assert games == [], f"{name(path)} is in a layer every game shares, but imports a game"


def test_the_files_still_moving_exist():
    assert {name(path) for path in AGNOSTIC_SOURCES} >= STILL_IMPORT_A_GAME


def test_the_rules_engine_imports_no_hardware_or_io_library():
    forbidden = {"serial", "gpiozero", "rpi_ws281x", "adafruit_pn532", "board", "busio", "socket", "subprocess"}
    for path in (PACKAGE / "rules").rglob("*.py"):
        found = {module.split(".")[0] for _, module in imports(path)} & forbidden
        assert not found, f"{path.relative_to(PACKAGE)} imports {found}"
