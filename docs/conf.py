"""Sphinx configuration of the docs site: Markdown pages (MyST) and the package's docstrings (autodoc).

Build with warnings as errors, as CI does::

    .venv/bin/python -m sphinx -W --keep-going -b html docs docs/_build/html
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from sphinx.application import Sphinx

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))  # autodoc imports the package from the checkout, installed or not

project = "toprace_pi"
author = "the toprace_pi authors"
copyright = "the toprace_pi authors, MIT licence"

extensions = ["myst_parser", "sphinx.ext.autodoc"]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build"]
myst_heading_anchors = 3  # the guides link to each other's sections by their GitHub-style anchors
autodoc_member_order = "bysource"
autodoc_typehints = "description"
html_theme = "alabaster"
html_title = "toprace_pi"
html_theme_options = {"page_width": "1100px", "sidebar_width": "230px"}
#: Every page shows the site's contents beside it, and a search box.
html_sidebars = {"**": ["navigation.html", "relations.html", "searchbox.html"]}


LINK = re.compile(r"\]\((?!https?:|mailto:|#)([^)\s#]+)(#[^)\s]*)?\)")


def site_target(target: Path, page_dir: Path) -> Path:
    """Where a link to ``target`` points in the site: a guide kept beside the code (``hardware/build.md``) is
    also a page of the site under the same path in ``docs/``, which includes it; any other file is itself."""
    if target.suffix == ".md" and DOCS not in target.parents:
        mirror = DOCS / target.relative_to(ROOT)
        if mirror.exists():
            target = mirror
    return Path(os.path.relpath(target, page_dir))


def relink(text: str, written_in: Path, page_dir: Path) -> str:
    """``text`` with each local link, written relative to ``written_in``, made to work from ``page_dir``, so the
    same links work on the repository's web view and in the site."""
    def fix(match: re.Match[str]) -> str:
        target = (written_in / match[1]).resolve()
        if not target.exists() or not target.is_relative_to(ROOT):
            return match[0]
        return f"]({site_target(target, page_dir).as_posix()}{match[2] or ''})"
    return LINK.sub(fix, text)


def relink_page(app: Sphinx, docname: str, source: list[str]) -> None:
    page_dir = Path(app.env.doc2path(docname)).parent
    source[0] = relink(source[0], page_dir, page_dir)


def relink_included(app: Sphinx, path: Path, parent: str, source: list[str]) -> None:
    """A guide is included by its page at the same path under ``docs/`` (MyST names only the page's stem)."""
    written_in = (DOCS / path).resolve().parent
    source[0] = relink(source[0], written_in, DOCS / written_in.relative_to(ROOT))


def setup(app: Sphinx) -> None:
    app.connect("source-read", relink_page)
    app.connect("include-read", relink_included)
