"""The page's "Text board" box in a real browser: the server draws the game's text board only for a
client that shows it (issue 14's load work), so the box asks for it when opened and keeps it current."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.e2e.browser import CHROMIUM, watch
from tests.e2e.test_play import click_action, lobby_race
from tests.web.server import Server

pytestmark = pytest.mark.e2e

if not Path(CHROMIUM).exists() and os.environ.get("CI") != "true":
    pytest.skip("Debian's chromium is not installed (.ci/run installs it)", allow_module_level=True)


def test_the_text_board_is_sent_while_its_box_is_open(server: Server, browser: Browser) -> None:
    errors: list[str] = []
    ctx = browser.new_context()
    page = watch(ctx.new_page(), errors)
    lobby_race(page, server, "scrap-racer", 2, bots={1: "random"}, name="Alice")
    page.wait_for_selector("#board-text-box:not([hidden])")
    assert page.inner_text("#board-text") == "", "no text board is drawn while the box is closed"
    page.click("#board-text-box summary")
    page.wait_for_function("document.getElementById('board-text').textContent.includes('read clockwise')")
    first = page.eval_on_selector("#board-text", "e => e.textContent")
    for _ in range(100):
        if page.eval_on_selector("#board-text", "e => e.textContent") != first:
            break
        click_action(page)
        page.wait_for_timeout(100)
    later = page.eval_on_selector("#board-text", "e => e.textContent")
    assert later != first and "read clockwise" in later, "the open box follows the race"
    page.reload()  # the box starts closed again: the new connection asks for nothing
    page.wait_for_selector("#board-text-box:not([hidden])")
    assert page.inner_text("#board-text") == ""
    assert not errors, errors
    ctx.close()
