"""Issue 15, phones (390 px): a table's words wrap at spaces, never in the middle of a word ("Heuri|stic
bot"), and a table wider than the screen scrolls sideways in its own box: nothing is cut off and the
page itself is never wider than the phone. The games' dashboards and the rules text alike."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from tests.e2e.browser import CHROMIUM, watch
from tests.e2e.test_play import PHONE, lobby_race, open_lobby
from tests.web.server import Server

pytestmark = pytest.mark.e2e

if not Path(CHROMIUM).exists() and os.environ.get("CI") != "true":
    pytest.skip("Debian's chromium is not installed (.ci/run installs it)", allow_module_level=True)

BROKEN_WORDS = r"""(selector) => {
    const broken = [];
    for (const cell of document.querySelectorAll(selector)) {
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const m of node.data.matchAll(/[^\s\-\u2013\u2014\/,·]+/g)) {
                const range = document.createRange();
                range.setStart(node, m.index);
                range.setEnd(node, m.index + m[0].length);
                const rects = [...range.getClientRects()].filter((r) => r.width > 0);
                const lines = new Set(rects.map((r) => Math.round(r.top)));
                if (lines.size > 1) broken.push(m[0]);
            }
        }
    }
    return broken;
}"""
"""The words of the cells that the browser laid out on more than one line (a hyphen, dash or slash
is a place to break; a letter is not)."""

CUT_TABLES = """(selector) => {
    const width = document.documentElement.clientWidth;
    const cut = [];
    for (const table of document.querySelectorAll(selector)) {
        const box = table.closest('.table-scroll') || table;
        const scrolls = ['auto', 'scroll'].includes(getComputedStyle(box).overflowX);
        const right = box.getBoundingClientRect().right;
        if (right > width + 1) cut.push(['box runs off the screen', right, width]);
        const wider = table.getBoundingClientRect().width > box.clientWidth + 1;
        if (wider && !scrolls) cut.push(['cut without a scroll', table.className]);
    }
    return cut;
}"""
"""Tables that run off the screen, or are wider than their box without the box scrolling."""


def check_tables(page: Page, selector: str) -> None:
    assert page.locator(selector).count(), selector
    broken = page.evaluate(BROKEN_WORDS, f"{selector} td, {selector} th")
    assert not broken, f"words cut in the middle: {broken[:10]}"
    assert page.evaluate(CUT_TABLES, selector) == []
    width = page.evaluate("document.documentElement.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1, "nothing is wider than the phone"


@pytest.mark.parametrize("game", ["scrap-racer", "brc-grand-prix"])
def test_phone_dashboards_wrap_at_spaces(server: Server, browser: Browser, shots: Path, game: str) -> None:
    """The dashboard of a race with two heuristic bots ("Heuristic bot 2", "Steel Jacket", "boost
    markers", "distance") at 390 px: every word whole, the table inside the screen or scrolling."""
    errors: list[str] = []
    ctx = browser.new_context(viewport=PHONE)
    page = watch(ctx.new_page(), errors)
    lobby_race(page, server, game, 3, bots={1: "heuristic", 2: "heuristic"}, name="Ann")
    page.wait_for_selector("#board table.dash td")
    page.wait_for_timeout(300)
    page.screenshot(path=str(shots / f"{game}-phone-table.png"), full_page=True)
    check_tables(page, "#board table")
    assert not errors, errors
    ctx.close()


def test_phone_rules_tables_scroll_in_their_own_box(server: Server, browser: Browser) -> None:
    """The rules text's tables (the coverage table's long test names) at 390 px: no word cut, each
    table scrolls sideways in its own box, and the page keeps the phone's width."""
    errors: list[str] = []
    ctx = browser.new_context(viewport=PHONE)
    page = watch(ctx.new_page(), errors)
    page.goto(f"{server.url}/rules/scrap-racer")
    page.click("#reference summary")  # the rules in full are folded below how to play
    page.wait_for_selector("#rules .table-scroll table")
    check_tables(page, "#rules table")
    boxes = "[...document.querySelectorAll('#rules .table-scroll')]"
    assert page.evaluate(f"{boxes}.some(b => b.scrollWidth > b.clientWidth)"), "a wide table scrolls in its box"
    assert not errors, errors
    ctx.close()


def test_the_lobby_keeps_the_phones_width(server: Server, browser: Browser) -> None:
    """The lobby at 390 px: its menus (the games with their seat counts, the paces) fit the screen."""
    errors: list[str] = []
    ctx = browser.new_context(viewport=PHONE)
    page = watch(ctx.new_page(), errors)
    open_lobby(page, server, "toy-dash", 2)
    width = page.evaluate("document.documentElement.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1, "nothing is wider than the phone"
    assert not errors, errors
    ctx.close()
