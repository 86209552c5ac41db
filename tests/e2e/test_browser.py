"""End to end in a real headless Chromium (Debian's ``chromium``, driven by Playwright): create a
race in the lobby, join the second seat from another browser context, play to the end, check what
each seat sees, replay the race, and save screenshots (to $SLIPSTREAM_ARTIFACTS or a tmp dir).

Uses Toy Dash and the generic board drawing, so it does not depend on any game's own drawing.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from slipstream.engine.record import check
from tests import toygame
from tests.e2e.browser import CHROMIUM, watch
from tests.e2e.test_play import open_lobby
from tests.web.server import Server

pytestmark = pytest.mark.e2e

if not Path(CHROMIUM).exists() and os.environ.get("CI") != "true":
    pytest.skip("Debian's chromium is not installed (.ci/run installs it)", allow_module_level=True)


def create_race(page: Page, server: Server, hotseat: bool, length: int | None = None) -> None:
    open_lobby(page, server, "toy-dash", 2)
    page.fill("#my-name", "Ann")
    page.check("#hotseat" if hotseat else "#mode-friends")
    if length is not None:
        page.fill("#opt-length", str(length))
    page.click("#create-btn")
    page.wait_for_url(re.compile(r".*/m/[\w-]+$"))


def hand(page: Page) -> str:
    return page.locator(".view-table tr:has(th:text-is('hand')) td").inner_text().strip()


def play_step(page: Page) -> bool:
    """Click this seat's action if it has one (preferring dash and roll); whether it clicked."""
    buttons = page.locator("button.action:not([disabled])")
    if buttons.count() == 0:
        return False
    labels = buttons.all_inner_texts()
    pick = next((i for i, t in enumerate(labels) if t.endswith(("dash", "roll"))), 0)
    try:
        buttons.nth(pick).click(timeout=2000)
    except Exception:  # the buttons were redrawn by a new state between count and click
        return False
    return True


def over(page: Page) -> bool:
    return "Race over" in page.inner_text("#turn")


def test_two_browsers_race_to_the_end(server: Server, browser: Browser, shots: Path) -> None:
    errors: list[str] = []
    ann_ctx, bob_ctx = browser.new_context(), browser.new_context(viewport={"width": 390, "height": 844})
    ann, bob = watch(ann_ctx.new_page(), errors), watch(bob_ctx.new_page(), errors)
    create_race(ann, server, hotseat=False)
    link = ann.url
    ann.wait_for_selector("text=Waiting for players: 1 open seat")
    bob.goto(link)
    bob.fill("input.join-name[data-seat='1']", "Bob")
    bob.click("button.join[data-seat='1']")
    ann.wait_for_selector("text=All seats filled")
    ann.screenshot(path=str(shots / "lobby-filled.png"))
    ann.click("#start-btn")
    ann.wait_for_selector("button.action")
    bob.wait_for_selector("button.action")
    ann_gem, bob_gem = hand(ann), hand(bob)
    assert bob.locator("#log").inner_text().count("you are dealt") == 1, (
        "each seat's log has its own deal only"
    )
    assert ann_gem in toygame.GEMS and bob_gem in toygame.GEMS and ann_gem != bob_gem
    assert "Choose now" in ann.inner_text("#turn")
    assert ann.locator("button.action").all_inner_texts() == ["0:dash", "0:walk"]
    assert bob.locator("button.action").all_inner_texts() == ["1:dash", "1:walk"]
    assert ann_gem not in bob.inner_text("body") and bob_gem not in ann.inner_text("body")
    ann.screenshot(path=str(shots / "seat1-choose.png"))
    bob.screenshot(path=str(shots / "seat2-phone-choose.png"), full_page=True)
    # Ann chooses first: Bob sees that she has chosen, not what
    ann.locator("button.action", has_text="0:dash").click()
    bob.wait_for_selector(".log li:has-text('P1 has chosen'), .log li:has-text('Ann has chosen')")
    assert "0:dash" not in bob.inner_text("body")
    bob.reload()  # a reload keeps the seat (its token is in this browser) and shows the current state
    bob.wait_for_selector("button.action")
    assert hand(bob) == bob_gem and "you" in bob.inner_text("#seat-list")
    assert bob.locator("button.action").all_inner_texts() == ["1:dash", "1:walk"]
    dice_seen = set()
    for _ in range(400):
        if over(ann) and over(bob):
            break
        for page in (ann, bob):
            dice_seen.update(page.locator("#dice .die").all_inner_texts())
        if not (play_step(ann) or play_step(bob)):
            ann.wait_for_timeout(50)
    else:
        pytest.fail("the race did not end in the browsers")
    assert dice_seen <= set("⚀⚁⚂⚃⚄⚅") and dice_seen, "dice faces are shown as they are rolled"
    ann.screenshot(path=str(shots / "seat1-finished.png"), full_page=True)
    bob.screenshot(path=str(shots / "seat2-phone-finished.png"), full_page=True)
    assert "Winner" in ann.inner_text("#result") and ann.inner_text("#result") == bob.inner_text("#result")
    for page in (ann, bob):
        text = page.inner_text(".view-table")
        assert ann_gem in text and bob_gem in text, "the end reveals every gem"
        assert "reveal" in page.inner_text("#log")
    assert not errors, errors
    ann_ctx.close()
    bob_ctx.close()


def test_hot_seat_play_and_replay(server: Server, browser: Browser, shots: Path) -> None:
    errors: list[str] = []
    ctx = browser.new_context()
    page = watch(ctx.new_page(), errors)
    create_race(page, server, hotseat=True)
    page.wait_for_selector("#seat-tabs button >> nth=1")
    curtains = 0
    for _ in range(400):
        if over(page):
            break
        if page.locator("#curtain-show").is_visible():
            # hot-seat: the board stays hidden until the next player says they have the device
            assert "Pass the device to" in page.inner_text("#curtain")
            curtains += 1
            page.click("#curtain-show")
        if not play_step(page):
            page.wait_for_timeout(50)
    else:
        pytest.fail("the hot-seat race did not end")
    assert curtains > 0, "the device was passed between the two seats"
    page.wait_for_selector("#replay:not([hidden])")
    total = int(page.get_attribute("#rp-slider", "max") or 0)
    assert total > 0
    page.click("#rp-first")
    page.wait_for_selector(f"text=move 0 / {total}")
    assert page.inner_text(".view-table tr:has(th:text-is('phase')) td").strip() == "deal"
    page.click("#rp-next")
    page.wait_for_selector(f"text=move 1 / {total}")
    page.screenshot(path=str(shots / "replay.png"), full_page=True)
    record = page.request.get(server.url + (page.locator("#record-link").get_attribute("href") or "")).json()
    check(record)
    assert record["game"] == "toy-dash" and len(record["actions"]) == total
    assert not errors, errors
    ctx.close()


def buttons_shown(page: Page) -> None:
    """Waits for the seat's enabled buttons, passing hot-seat's pass screen (it hides them) on the way."""
    for _ in range(300):
        if page.locator("#curtain-show").is_visible():
            page.click("#curtain-show")
        if page.locator("button.action:not([disabled])").count():
            return
        page.wait_for_timeout(100)
    pytest.fail("no button to click")


def test_the_page_reconnects_after_the_server_is_killed_and_restarted(
    browser: Browser, shots: Path, tmp_path: Path
) -> None:
    """SIGKILL the server mid-race and start it again on the same port and database: the open page
    reconnects by itself, shows the same position, and the race goes on to the end."""
    srv = Server(str(tmp_path / "restart.sqlite3"), tmp_path / "server.log").start()
    errors: list[str] = []
    ctx = browser.new_context()
    try:
        page = watch(ctx.new_page(), errors)
        create_race(page, srv, hotseat=True, length=30)  # rolls play themselves: a short race could end first
        page.wait_for_selector("button.action")
        for _ in range(3):
            if page.locator("#curtain-show").is_visible():
                page.click("#curtain-show")
            play_step(page)
            page.wait_for_timeout(200)
        buttons_shown(page)
        before = page.inner_text(".view-table")
        port = srv.port
        srv.kill()
        page.wait_for_selector("#conn.off")
        srv.start(port=port)
        page.wait_for_selector("#conn.on")
        buttons_shown(page)
        assert page.inner_text(".view-table") == before, "the same position after the restart"
        page.screenshot(path=str(shots / "after-restart.png"), full_page=True)
        for _ in range(400):
            if over(page):
                break
            if page.locator("#curtain-show").is_visible():
                page.click("#curtain-show")
            if not play_step(page):
                page.wait_for_timeout(50)
        else:
            pytest.fail("the race did not end after the restart")
        unexpected = [e for e in errors if "ERR_CONNECTION_REFUSED" not in e]  # while the server was down
        assert not unexpected, unexpected
    finally:
        ctx.close()
        srv.stop()
