"""The README's short install recipe, systemd/README.md and the unit tell one story: every command of the
short recipe is a step of the long one, and both set up the user, folders and venv the unit expects."""

from __future__ import annotations

import re
from pathlib import Path

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
    readme = (ROOT / "README.md").read_text("utf-8")
    section = readme[readme.index("- **Install as a service:**"):readme.index("- **Building the table**")]
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
