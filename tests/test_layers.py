"""The package's layers import only downward: cli -> table -> hardware -> data -> rules -> core.

Read from the source, so that an upward import (the kind that turns into an import cycle later) fails here
with its file and line, whether it sits at the top of a module or inside a function.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "toprace_pi"
#: Lowest first. Modules outside these folders (cli, simulate, report, bots, render, service, errors) sit
#: beside the table or below the rules as their imports say; only these six are held to an order. The core
#: (the game interface every game implements) is below every game.
LAYERS = ["core", "rules", "data", "hardware", "table", "cli"]


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


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_point_down(path):
    own = module_layer(path)
    upward = [f"line {line}: {module}" for line, module in imports(path)
              if (layer := layer_of(module)) is not None and own is not None and layer > own]
    assert upward == [], f"{path.relative_to(PACKAGE)} imports a layer above its own ({LAYERS[own]})"


def test_the_rules_engine_imports_no_hardware_or_io_library():
    forbidden = {"serial", "gpiozero", "rpi_ws281x", "adafruit_pn532", "board", "busio", "socket", "subprocess"}
    for path in (PACKAGE / "rules").rglob("*.py"):
        found = {module.split(".")[0] for _, module in imports(path)} & forbidden
        assert not found, f"{path.relative_to(PACKAGE)} imports {found}"
