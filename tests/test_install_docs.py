"""The short install recipe (docs/install.md), systemd/README.md and the unit tell one story: every command of the
short recipe is a step of the long one, and both set up the user, folders and venv the unit expects. And the
build guide (hardware/) counts what each game needs as the code does: readers, tags, LEDs, current."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from toprace_pi.core import registry
from toprace_pi.games.autorace.data import load_board
from toprace_pi.games.toprace.data import load_track
from toprace_pi.games.topspeed.data import load_circuit
from toprace_pi.hardware.strip.power import IDLE_MA_PER_LED, MA_PER_CHANNEL
from toprace_pi.table.config import parse_config

ROOT = Path(__file__).resolve().parent.parent


def commands(markdown: str) -> list[str]:
    """The shell commands of the ``sh`` blocks, each ``&&`` part on its own, comments and line breaks dropped."""
    found = []
    for block in re.findall(r"```sh\n(.*?)```", markdown, re.S):
        for line in re.sub(r"\\\n\s*", "", block).splitlines():
            code = re.sub(r"\s+#.*$", "", line.strip())
            found += [part.strip() for part in code.split(" && ") if part.strip()]
    return found


def short_recipe() -> list[str]:
    page = (ROOT / "docs" / "install.md").read_text("utf-8")
    section = page[page.index("## Install as a service"):page.index("## Configuration")]
    return commands(section)


def unit() -> dict[str, str]:
    text = (ROOT / "systemd" / "toprace-pi.service").read_text("utf-8")
    return dict(re.findall(r"^(\w+)=(.*)$", text, re.M))


def test_every_command_of_the_short_recipe_is_a_step_of_the_long_one():
    long = commands((ROOT / "systemd" / "README.md").read_text("utf-8"))
    recipe = short_recipe()
    assert len(recipe) >= 12
    assert [command for command in recipe if command not in long] == []


def test_both_set_up_what_the_unit_expects():
    settings = unit()
    program, _, arguments = settings["ExecStart"].partition(" ")
    config = arguments.split("--config ")[1]
    recipe = " ".join(short_recipe())
    assert f"useradd --system --user-group --home-dir {settings['WorkingDirectory']}" in recipe
    assert f"-o {settings['User']} -g {settings['Group']} -m 0750 /var/lib/{settings['StateDirectory']}" in recipe
    assert f"usermod -aG {settings['SupplementaryGroups'].replace(' ', ',')} {settings['User']}" in recipe
    assert f"python3 -m venv --system-site-packages {Path(program).parent.parent}" in recipe
    assert f"sudo cp /opt/toprace-pi/src/config.example.toml {config}" in recipe
    assert f"cd {settings['WorkingDirectory']}" in recipe  # lgpio writes its pipes in the working folder


# --- hardware/: what each game needs, counted as the code counts it ------------------------------------------------

HARDWARE = ROOT / "hardware"
#: Each game's loader of a shipped board by a profile's name, for the board's name as the guide writes it.
BOARD_LOADERS = {"toprace": load_track, "autorace": load_board, "topspeed": load_circuit}


def tables(markdown: str) -> list[list[dict[str, str]]]:
    """Each Markdown table as its rows, a row as its cells by their column's header."""
    found, block = [], []
    for line in markdown.splitlines() + [""]:
        if line.startswith("|"):
            block.append([cell.strip() for cell in line.strip().strip("|").split("|")])
        elif block:
            header, _, *rows = block
            found.append([dict(zip(header, row)) for row in rows])
            block = []
    return found


def rows(name: str) -> list[dict[str, str]]:
    return [row for table in tables((HARDWARE / name).read_text("utf-8")) for row in table]


def tags(game: str, players: int) -> dict[str, int]:
    """How many tags each enrolment walk of ``game`` holds at a table of ``players``."""
    names = [f"P{seat}" for seat in range(1, players + 1)]
    settings = parse_config({"game": {"name": game, "players": names}}, "test").settings
    return {name: len(walk.identities) for name, walk in registry.get(game).table(settings).tags().walks.items()}


def board_leds() -> dict[str, dict[str, int]]:
    """Each game's shipped board profiles: the board's name -> the profile's LED count."""
    found: dict[str, dict[str, int]] = {}
    for game, load in BOARD_LOADERS.items():
        for profile in sorted((ROOT / "toprace_pi" / "games" / game / "data" / "profiles").glob("*.toml")):
            name = load(profile.stem).name
            found.setdefault(game, {})[name] = tomllib.loads(profile.read_text("utf-8"))["profile"]["led_count"]
    return found


def test_the_hardware_guide_names_each_games_readers_and_counts_its_tags_as_the_code_does():
    by_game = {row["game"]: row for row in rows("README.md") if "game" in row}
    assert set(by_game) == {registry.get(game).info.title for game in registry.game_names()}
    for game in registry.game_names():
        row = by_game[registry.get(game).info.title]
        assert [role for role in registry.get(game).records.READERS if f"`{role}`" not in row["readers"]] == []
    race = registry.get("toprace").info
    few, most = tags("toprace", race.min_players), tags("toprace", race.max_players)
    cards, said = few["cards"] + few["cars"], by_game["Top Race"]["tags"]
    assert f"{few['cards']} speed cards + {few['cars']} car tokens = {cards}" in said
    assert (f"{most['pitstops'] // race.max_players} pit stop cards a seat: {cards + few['pitstops']}-"
            f"{cards + most['pitstops']} at {race.min_players} to {race.max_players} players") in said
    for game, walk, what in (("autorace", "cards", ""), ("topspeed", "minicards", "minicards ")):
        info = registry.get(game).info
        low, high = tags(game, info.min_players)[walk], tags(game, info.max_players)[walk]
        each = low // info.min_players
        assert high == each * info.max_players
        assert (f"{each} {what}a player" in by_game[info.title]["tags"]
                and f"{low}-{high} at {info.min_players} to {info.max_players} players" in by_game[info.title]["tags"])


def test_the_parts_list_buys_enough_tags_for_each_game():
    race, auto, speed = (registry.get(game).info for game in ("toprace", "autorace", "topspeed"))
    most_race = sum(tags("toprace", race.max_players).values())
    most_auto = tags("autorace", auto.max_players)["cards"]
    most_speed = tags("topspeed", speed.max_players)["minicards"]
    general, minicards = [row for row in rows("bom.md") if row.get("item", "").startswith("NTAG213")]
    assert f"up to {most_race}" in general["notes"] and f"up to {most_auto}" in general["notes"]
    assert int(general["qty"]) >= max(most_race, most_auto)
    assert f"up to {most_speed}" in minicards["notes"] and int(minicards["qty"].split("-")[-1]) >= most_speed


def test_the_hardware_guide_gives_each_boards_leds_strip_and_current_as_its_profile_does():
    """Every shipped board profile's LED count, in the game table and wherever a table has a row for the board;
    the metres of strip and the current follow from it (the current by the strip module's own model)."""
    leds = board_leds()
    by_game = {row["game"]: row["LEDs"] for row in rows("README.md") if "game" in row}
    for game, boards in leds.items():
        assert [f"{name} {count}" for name, count in boards.items()
                if f"{name} {count}" not in by_game[registry.get(game).info.title]] == []
    every = {name: count for boards in leds.values() for name, count in boards.items()}
    for doc in ("leds-per-track.md", "power.md"):
        seen = set()
        for row in rows(doc):
            first = next(iter(row.values()))
            name = next((name for name in every if first == name or first.startswith(f"{name} (")), None)
            if name is None or "LEDs" not in row:
                continue
            seen.add(name)
            count = every[name]
            assert row["LEDs"] == str(count), (doc, name)
            for header, cell in row.items():
                if (per_metre := re.fullmatch(r"at (\d+) LEDs/m.*", header)) is not None:
                    assert cell == f"{count / int(per_metre[1]):.2f} m", (doc, name, header)
                elif (brightness := re.search(r"brightness (\d+)", header)) is not None:
                    amps = count * (3 * MA_PER_CHANNEL * int(brightness[1]) / 255 + IDLE_MA_PER_LED) / 1000
                    assert cell == f"{amps:.1f} A", (doc, name, header)
                elif header == "dark (idle)":
                    assert cell == f"{count * IDLE_MA_PER_LED / 1000:.2f} A", (doc, name)
        assert seen == set(every), doc


def test_the_strip_capacitors_rating_is_the_same_wherever_it_is_given():
    """10 V or more across a 5 V rail, in the parts list, the wiring guide and the wiring picture alike."""
    ratings: dict[str, list[str]] = {}
    for path in [*sorted(HARDWARE.glob("*.md")), HARDWARE / "wiring.svg"]:
        text = path.read_text("utf-8")
        assert "6.3 V" not in text, path.name
        for rating in re.findall(r"1000 uF[^.|<\n]*?(\d+(?:\.\d+)?) V or more", text):
            ratings.setdefault(path.name, []).append(rating)
    assert {"bom.md", "wiring.md", "wiring.svg"} <= set(ratings)
    assert {rating for found in ratings.values() for rating in found} == {"10"}
