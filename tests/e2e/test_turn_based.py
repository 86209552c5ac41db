"""Issue 28 in a real browser: a turn-based race resumes the next day. Ann makes a race of a move within
3 days in the lobby, Bob joins, Ann moves and both leave; the server comes back with its clock a day on
(``tests/web/clockserve.py``), Bob's lobby shows "Your turn" on that race, he plays, and Ann, whose page
is open and who allowed notifications, is told it is her turn and plays on. Then the notifications as
the browser shows them, through the service worker (``static/sw.js``), from the match page and the
lobby."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from tests.e2e.browser import CHROMIUM, watch
from tests.e2e.test_play import open_lobby
from tests.web.server import Server

pytestmark = pytest.mark.e2e

if not Path(CHROMIUM).exists() and os.environ.get("CI") != "true":
    pytest.skip("Debian's chromium is not installed (.ci/run installs it)", allow_module_level=True)

DAY = 86400
FAKE_NOTIFICATIONS = """
delete Navigator.prototype.serviceWorker;
window.shownNotifications = [];
window.Notification = class {
  static permission = "default";
  static requestPermission() { window.Notification.permission = "granted"; return Promise.resolve("granted"); }
  constructor(title, options) { window.shownNotifications.push([title, options && options.body]); }
};
"""
"""The notifications of a browser without service workers (``new Notification``), recorded, allowed
when asked."""
SHOWN = """async () => {
  const registration = await navigator.serviceWorker.getRegistration("/static/sw.js");
  const shown = registration ? await registration.getNotifications() : [];
  return shown.map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url }));
}"""
"""The notifications the service worker shows for this page's origin (an async function to evaluate)."""
PUT_AWAY = """async () => {
  const registration = await navigator.serviceWorker.getRegistration("/static/sw.js");
  for (const shown of await registration.getNotifications()) shown.close();
}"""
"""The shown notifications closed, as a player puts them away."""


def act(page: Page, action: str) -> None:
    """Click a move of the seat's."""
    page.locator(f"button.action[data-act='{action}']").click()


def test_a_turn_based_race_resumes_the_next_day_with_the_turn_shown_in_the_lobby(
    browser: Browser, tmp_path: Path, shots: Path
) -> None:
    server = Server(str(tmp_path / "turns.sqlite3"), tmp_path / "server.log", module="tests.web.clockserve").start()
    errors: list[str] = []
    ann_ctx, bob_ctx = browser.new_context(), browser.new_context(viewport={"width": 390, "height": 844})
    try:
        ann_ctx.add_init_script(FAKE_NOTIFICATIONS)
        ann, bob = watch(ann_ctx.new_page(), errors), watch(bob_ctx.new_page(), errors)
        open_lobby(ann, server, "toy-dash", 2)
        ann.fill("#my-name", "Ann")
        ann.check("#mode-friends")
        ann.select_option("#pace", "3-days")
        assert ann.locator("#turn-seconds-row").is_hidden(), "a turn-based race's move limit is its timer"
        ann.fill("#opt-length", "30")
        ann.click("#create-btn")
        ann.wait_for_url(re.compile(r".*/m/[\w-]+$"))
        link = ann.url
        match_id = link.rsplit("/", 1)[1]
        ann.wait_for_selector("#pace-words:text-is('Turn-based: a move within 3 days')")
        bob.goto(link)
        bob.fill("input.join-name[data-seat='1']", "Bob")
        bob.click("button.join[data-seat='1']")
        ann.wait_for_selector("text=All seats filled")
        ann.click("#start-btn")
        ann.wait_for_selector("button.action[data-act='0:dash']")
        bob.wait_for_selector("button.action[data-act='1:walk']")
        assert ann.title().startswith("(Your turn)")
        act(ann, "0:dash")
        bob.wait_for_selector(".log li:has-text('P1 has chosen'), .log li:has-text('Ann has chosen')")
        assert re.search(r"\d+ days? (\d+ hours? )?left", bob.inner_text("#seat-list")), "Bob's clock in days"
        ann.close()
        bob.close()

        # the next day: the server comes back (same address, so the browsers keep their seats) a day on
        port = server.port
        server.stop()
        server.env["SLIPSTREAM_TEST_CLOCK_OFFSET"] = str(DAY)
        server.start(port=port)
        ann, bob = watch(ann_ctx.new_page(), errors), watch(bob_ctx.new_page(), errors)
        ann.goto(link)
        ann.wait_for_function("!document.getElementById('turn').textContent.includes('Connecting')")
        assert not ann.title().startswith("(Your turn)"), "it is Bob's turn"
        ann.click("#notify-btn")
        ann.wait_for_selector("#notify-btn", state="hidden")
        bob.goto(server.url + "/")
        race = bob.locator(f"#mine li[data-match='{match_id}']")
        race.locator("text=Your turn").wait_for()
        assert re.search(r"1 day( \d+ hours?)? left to move", race.inner_text()), race.inner_text()
        assert "Turn-based: a move within 3 days" in race.inner_text()
        assert bob.title().startswith("(Your turn)")
        bob.screenshot(path=str(shots / "turn-based-lobby-your-turn-phone.png"), full_page=True)
        race.locator("a").click()
        bob.wait_for_url(link)
        bob.wait_for_selector("button.action[data-act='1:walk']")
        assert "turn timer" not in bob.inner_text("#log"), "no bot played Bob's move at a day of three"
        act(bob, "1:walk")

        # the race goes on: Ann's turn comes while her page is open, and she is told
        ann.wait_for_function("window.shownNotifications.length > 0")
        assert ann.evaluate("window.shownNotifications")[0] == ["Your turn · Slipstream", "Toy Dash: it is your turn"]
        # her roll, the only move, plays itself: the die is cast and a new round of choices comes
        ann.wait_for_selector("#dice .die")
        ann.wait_for_selector("button.action[data-act='0:dash']")
        bob.wait_for_selector("button.action[data-act='1:dash']")
        ann.screenshot(path=str(shots / "turn-based-resumed.png"), full_page=True)
        assert not errors, errors
    finally:
        ann_ctx.close()
        bob_ctx.close()
        server.stop()


def test_a_turn_is_told_through_the_service_worker_with_the_race_to_open(
    browser: Browser, server: Server, shots: Path
) -> None:
    """Ann and Bob allowed notifications: the real service worker shows them (headless Chromium lists
    them though it draws none), one per race, each with the race's page to open on a click. Ann's comes
    from her match page, Bob's from the lobby, where he waits while Ann chooses."""
    errors: list[str] = []
    ann_ctx, bob_ctx = browser.new_context(), browser.new_context(viewport={"width": 390, "height": 844})
    try:
        for context in (ann_ctx, bob_ctx):
            context.grant_permissions(["notifications"], origin=server.url)
        ann, bob = watch(ann_ctx.new_page(), errors), watch(bob_ctx.new_page(), errors)
        open_lobby(ann, server, "toy-dash", 2)
        assert ann.locator("#notify-btn").is_hidden(), "no button once notifications are allowed"
        ann.fill("#my-name", "Ann")
        ann.check("#mode-friends")
        ann.select_option("#pace", "3-days")
        ann.fill("#opt-length", "30")
        ann.click("#create-btn")
        ann.wait_for_url(re.compile(r".*/m/[\w-]+$"))
        link = ann.url
        match_id = link.rsplit("/", 1)[1]
        bob.goto(link)
        bob.fill("input.join-name[data-seat='1']", "Bob")
        bob.click("button.join[data-seat='1']")
        ann.wait_for_selector("text=All seats filled")
        assert ann.evaluate(SHOWN) == [], "no turn yet"
        ann.click("#start-btn")
        ann.wait_for_selector("button.action[data-act='0:dash']")
        ann.wait_for_function(f"({SHOWN})().then((shown) => shown.length > 0)")
        told = {"title": "Your turn · Slipstream", "body": "Toy Dash: it is your turn", "tag": match_id, "url": link}
        assert ann.evaluate(SHOWN) == [told]
        assert ann.evaluate("navigator.serviceWorker.controller") is None, "no page goes through the worker"

        # a round on: Bob chooses first and waits in the lobby; Ann's choice brings him a new turn
        act(ann, "0:dash")
        act(bob, "1:walk")
        for page in (ann, bob):  # her roll played itself: a new round
            page.wait_for_selector("#dice .die")
        ann.wait_for_selector("button.action[data-act='0:dash']")
        act(bob, "1:walk")
        bob.wait_for_selector("button.action[data-act='1:walk']", state="detached")
        assert bob.evaluate(SHOWN) == [told], "Bob's match page told him of his first turn"
        bob.evaluate(PUT_AWAY)
        assert bob.evaluate(SHOWN) == [], "Bob's notifications put away"
        bob.goto(server.url + "/")
        race = bob.locator(f"#mine li[data-match='{match_id}']")
        race.wait_for()
        assert "Your turn" not in race.inner_text(), "Ann has still to choose"
        act(ann, "0:dash")
        race.locator("text=Your turn").wait_for()
        bob.wait_for_function(f"({SHOWN})().then((shown) => shown.length > 0)")
        assert bob.evaluate(SHOWN) == [told], "the lobby tells of the race with its page to open"
        assert ann.evaluate(SHOWN) == [told], "Ann's second turn replaced her first's notification"
        bob.screenshot(path=str(shots / "turn-notified-lobby-phone.png"), full_page=True)
        assert not errors, errors
    finally:
        ann_ctx.close()
        bob_ctx.close()
