"""The page that plays a game back, opened from the disk in a real Chromium, as a person would."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from playwright.sync_api import Page, sync_playwright

from toprace_pi.games.toprace.table.demo import run_demo
from toprace_pi.table.screen import DemoScreen

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="module")
def pictures(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("pictures")
    run_demo(players=2, seed=3, delay=0.0, colour=False, svg_dir=folder, journal=None,
             screen=DemoScreen(lambda _: None, live=False))
    return folder


@pytest.fixture(scope="module")
def page(pictures):
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto((pictures / "index.html").as_uri())
        yield page
        browser.close()


def where(page: Page) -> tuple[int, int]:
    at, count = page.inner_text("#where").split(" / ")
    return int(at), int(count)


def test_the_page_opens_on_the_first_picture_with_its_caption(page, pictures):
    frames = sorted(pictures.glob("frame-*.svg"))
    assert where(page) == (1, len(frames)) and len(frames) > 50
    assert page.get_attribute("#picture", "src") == frames[0].name
    page.wait_for_function("document.getElementById('picture').naturalWidth > 0")  # the SVG loads from the disk
    assert page.inner_text("#caption b").startswith("Race 1 of 1")


def test_the_buttons_and_the_slider_step_through_the_game(page, pictures):
    count = len(list(pictures.glob("frame-*.svg")))
    page.click("#first")
    first_caption = page.inner_text("#caption")
    page.click("#forward")
    assert where(page)[0] == 2 and page.get_attribute("#picture", "src") == "frame-0002.svg"
    page.click("#back")
    assert where(page)[0] == 1 and page.inner_text("#caption") == first_caption
    page.fill("#slider", str(count - 1))
    assert where(page) == (count, count) and "over" in page.inner_text("#caption")
    page.keyboard.press("ArrowLeft")
    assert where(page)[0] == count - 1


def test_play_moves_on_by_itself_and_pause_stops_it(page):
    page.click("#first")
    page.click("#play")
    page.wait_for_function("document.getElementById('where').textContent.startsWith('3 /')")
    page.click("#play")
    stopped = where(page)
    page.wait_for_timeout(1500)
    assert where(page) == stopped and page.inner_text("#play") == "Play"
