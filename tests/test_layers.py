"""The package's layers import only downward, and the table knows no game.

* Top level: cli -> games -> table -> hardware -> render -> core. The core (the interface
  every game implements, the registry) imports no game; the pictures every game draws alike
  (render) and the table's layers (hardware, table) import no game either: each game brings
  its side of the table and draws its own board with render's pieces.
* Inside a game's folder: its table side and tools -> its bots, pictures and reports
  -> its data loaders -> its rules engine, which is pure (no hardware, no table, no I/O
  library).
* No game imports another.
* No import cycle anywhere in the package, not even inside a game's table folder (a side and its page
  share their words through a third module instead).

Read from the source, so that an upward import (the kind that turns into an import cycle later) fails here
with its file and line, whether it sits at the top of a module or inside a function.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from toprace_pi.core import registry

PACKAGE = Path(__file__).resolve().parent.parent / "toprace_pi"
GAMES = PACKAGE / "games"
#: Lowest first. Modules outside these folders (errors, files, text, service) are used by any layer.
LAYERS = ["core", "render", "hardware", "table", "games", "web", "cli"]
#: A game's own folders, lowest first; its modules outside them (report, simulate) sit beside the bots.
GAME_LAYERS = ["rules", "data", "bots", "render", "table"]
#: The layers every game shares, so no game in them.
GAME_AGNOSTIC = ("core", "render", "hardware", "table", "web")


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


def dependencies(path: Path, modules: set[str]) -> set[str]:
    """The package's modules that ``path`` imports, at its top or inside a function: ``from a.b import c``
    names the module ``a.b.c`` where there is one, else ``a.b``."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names} & modules
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            named = {f"{node.module}.{alias.name}" for alias in node.names}
            found |= named & modules
            if not named <= modules and node.module in modules:
                found.add(node.module)
    return found


def parts(module: str) -> list[str]:
    return module.split(".")[1:] if module.startswith("toprace_pi.") else []


def layer_of(module: str) -> int | None:
    top = parts(module)[:1]
    return LAYERS.index(top[0]) if top and top[0] in LAYERS else None


def module_of(path: Path) -> str:
    return ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")


def name(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix()


SOURCES = sorted(p for p in PACKAGE.rglob("*.py") if layer_of(module_of(p)) is not None)
GAME_FOLDERS = sorted(p for p in GAMES.iterdir() if (p / "__init__.py").exists())
GAME_SOURCES = sorted(p for folder in GAME_FOLDERS for p in folder.rglob("*.py"))


@pytest.mark.parametrize("path", SOURCES, ids=name)
def test_imports_point_down(path):
    own = layer_of(module_of(path))
    assert own is not None
    upward = [f"line {line}: {module}" for line, module in imports(path)
              if (layer := layer_of(module)) is not None and layer > own]
    assert upward == [], f"{name(path)} imports a layer above its own ({LAYERS[own]})"


@pytest.mark.parametrize("path", sorted(p for folder in GAME_AGNOSTIC for p in (PACKAGE / folder).rglob("*.py")),
                         ids=name)
def test_the_layers_every_game_shares_import_no_game(path):
    games = [f"line {line}: {module}" for line, module in imports(path) if parts(module)[:1] == ["games"]]
    assert games == [], f"{name(path)} is in a layer every game shares, but imports a game"


def game_layer(path_or_module: list[str]) -> int | None:
    """The layer inside its game of a module given by its parts after ``games.NAME``."""
    return GAME_LAYERS.index(path_or_module[0]) if path_or_module[:1] and path_or_module[0] in GAME_LAYERS else None


@pytest.mark.parametrize("path", GAME_SOURCES, ids=name)
def test_inside_a_game_imports_point_down_and_no_game_imports_another(path):
    game, *inside = parts(module_of(path))[1:]
    own = game_layer(inside)
    for line, module in imports(path):
        found = parts(module)
        if found[:1] != ["games"] or len(found) < 2:
            continue
        assert found[1] == game, f"{name(path)} line {line} imports another game: {module}"
        theirs = game_layer(found[2:])
        if own is not None and theirs is not None:
            assert theirs <= own, f"{name(path)} line {line} imports {module}, above its own layer"


def test_every_games_rules_engine_is_pure():
    forbidden = {"serial", "gpiozero", "rpi_ws281x", "adafruit_pn532", "board", "busio", "socket", "subprocess"}
    for folder in GAME_FOLDERS:
        for path in (folder / "rules").rglob("*.py"):
            found = {module.split(".")[0] for _, module in imports(path)} & forbidden
            assert not found, f"{name(path)} imports {found}"
            outside = [m for _, m in imports(path) if parts(m)[:1] in (["hardware"], ["table"], ["cli"])]
            assert outside == [], f"{name(path)} imports {outside}"


def test_every_registered_game_has_a_folder_and_the_layers_are_where_they_say():
    assert [p.name for p in GAME_FOLDERS] == sorted(registry.game_names())
    assert all(registry.modules()[p.name].startswith(module_of(p / "__init__.py") + ".") for p in GAME_FOLDERS)
    assert all((PACKAGE / layer).is_dir() for layer in LAYERS[:-1])
    assert all((folder / layer).is_dir() for folder in GAME_FOLDERS for layer in ("rules", "table"))


def import_graph() -> dict[str, set[str]]:
    """Each module of the package with the package's modules it imports."""
    paths = {module_of(p): p for p in PACKAGE.rglob("*.py")}
    return {module: dependencies(path, set(paths)) - {module} for module, path in paths.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of ``graph`` as the modules along it (the first again at the end), or ``[]``.
    A depth-first walk: a module met again while it is still on the walk's path closes a cycle."""
    done: set[str] = set()
    path: list[str] = []

    def walk(module: str) -> list[str]:
        if module in path:
            return path[path.index(module):] + [module]
        if module in done:
            return []
        path.append(module)
        for imported in sorted(graph[module]):
            if cycle := walk(imported):
                return cycle
        path.pop()
        done.add(module)
        return []

    for module in sorted(graph):
        if cycle := walk(module):
            return cycle
    return []


def test_no_import_cycle_anywhere_in_the_package():
    cycle = find_cycle(import_graph())
    assert cycle == [], "an import cycle: " + " -> ".join(cycle)


def test_the_cycle_finder_names_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"b"}, "d": set()}
    assert find_cycle(graph) == ["b", "c", "b"]
    assert find_cycle({"a": {"b"}, "b": set()}) == []
