"""The README stays a short front door and the docs' links stay true.

The site itself is built by CI with warnings as errors (docs/testing.md); these checks need no Sphinx, so they
run with the other tests and tell a broken link in a second.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
#: The README is the front door, not the manual: the rest lives in docs/.
README_LIMIT = 12 * 1024
#: The pages of the site: the README, docs/ and the guides kept beside the code, which docs/ includes.
PAGES = [README, *sorted((ROOT / "docs").rglob("*.md")), *sorted((ROOT / "hardware").glob("*.md")),
         *sorted((ROOT / "firmware").glob("*.md")), ROOT / "systemd" / "README.md"]
#: A path into the repository named in code (`toprace_pi/core/game.py`, `python3 benchmarks/bench_web.py`);
#: ``NAME`` stands for any game and ``*`` for anything.
NAMED_PATH = re.compile(r"(?<![\w/.])((?:toprace_pi|tests|benchmarks|tools|firmware)/[\w/.*\-]*)")
#: A Markdown link or image: its target up to an optional ``#anchor``; web addresses are not followed.
LINK = re.compile(r"\]\((?!https?:|mailto:)([^)\s#]*)(?:#([^)\s]+))?\)")


def headings_anchors(markdown: str) -> set[str]:
    """The anchors GitHub and MyST give a page's headings: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"```.*?```", "", markdown, flags=re.S)
    return {re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")
            for title in re.findall(r"^#{1,6} (.+)$", text, re.M)}


def links(page: Path) -> list[tuple[str, str]]:
    """The local links of ``page`` outside code: (target path, anchor), the path empty for one on the page."""
    text = re.sub(r"```.*?```|`[^`\n]*`", "", page.read_text("utf-8"), flags=re.S)
    return LINK.findall(text)


def test_the_readme_is_a_short_front_door():
    assert README.stat().st_size < README_LIMIT


def test_the_quick_start_holds_exactly_the_two_commands():
    readme = README.read_text("utf-8")
    section = readme[readme.index("## Quick start"):]
    section = section[:section.index("\n## ")]
    [block] = re.findall(r"```sh\n(.*?)```", section, re.S)
    commands = [re.sub(r"\s+#.*$", "", line).strip() for line in block.splitlines()]
    assert commands == ["python3 dev.py demo", "python3 dev.py test"]


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_every_local_link_resolves(page: Path):
    broken = []
    for target, anchor in links(page):
        path = (page.parent / target).resolve() if target else page
        if not path.exists():
            broken.append(target)
        elif anchor and path.suffix == ".md" and anchor not in headings_anchors(path.read_text("utf-8")):
            broken.append(f"{target}#{anchor}")
    assert broken == []


def test_every_path_the_docs_name_exists():
    """The docs name modules, tests and scripts in code spans; a move that forgets them fails here."""
    missing = []
    for page in [README, *sorted((ROOT / "docs").glob("*.md"))]:
        for span in re.findall(r"`([^`\n]+)`", page.read_text("utf-8")):
            for path in NAMED_PATH.findall(span):
                if not any(ROOT.glob(path.rstrip("/.").replace("NAME", "*"))):
                    missing.append(f"{page.name}: {path}")
    assert missing == []


def test_every_docs_page_is_in_the_readmes_table_or_the_sites_tree():
    """A page nobody can reach from the front door is a page nobody reads."""
    readme = README.read_text("utf-8")
    index = (ROOT / "docs" / "index.md").read_text("utf-8")
    unreachable = [page.stem for page in sorted((ROOT / "docs").glob("*.md"))
                   if f"(docs/{page.name})" not in readme and f"\n{page.stem}\n" not in index]
    assert unreachable == []
