"""Issue 28 in a real browser: two players sign up, race a rated Toy Dash to the end, and each finds
the race and a changed rating on their player page; the leaderboard ranks them. Pages are shot at
desktop and phone size."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from tests.e2e.browser import CHROMIUM, watch
from tests.e2e.test_play import PHONE, click_action, open_lobby
from tests.web.server import Server

pytestmark = pytest.mark.e2e

if not Path(CHROMIUM).exists() and os.environ.get("CI") != "true":
    pytest.skip("Debian's chromium is not installed (.ci/run installs it)", allow_module_level=True)

PASSWORD = "a long enough secret"
TITLE = '<i id="pwn">Grudge</i> match'
"""A race title that would be markup if a page wrote it as HTML."""


def sign_up(page: Page, server: Server, name: str) -> None:
    page.goto(server.url + "/")
    page.fill("#account-name", name)
    page.fill("#account-password", PASSWORD)
    page.click("#sign-up")
    page.wait_for_selector(f"#my-page >> text={name}")
    assert page.input_value("#my-name") == name, "the lobby takes the account's name"


def test_two_accounts_race_rated_and_see_it_on_their_pages(server: Server, browser: Browser, shots: Path) -> None:
    errors: list[str] = []
    ann_ctx, bob_ctx = browser.new_context(), browser.new_context()
    ann, bob = watch(ann_ctx.new_page(), errors), watch(bob_ctx.new_page(), errors)
    stamp = str(int(time.time() * 1000) % 10**6)
    ann_name, bob_name = f"Ann_{stamp}", f"Bob-{stamp}"
    sign_up(ann, server, ann_name)
    sign_up(bob, server, bob_name)

    open_lobby(ann, server, "toy-dash", 2)
    ann.check("#mode-friends")
    ann.check("#rated")
    ann.fill("#title", TITLE)
    ann.screenshot(path=str(shots / "lobby-logged-in.png"), full_page=True)
    ann.click("#create-btn")
    ann.wait_for_url(re.compile(r".*/m/[\w-]+$"))
    link = ann.url
    match_id = link.rsplit("/", 1)[1]

    ann.goto(f"{server.url}/players/{ann_name}")  # the race waits for a player: on the page, its title as text
    ann.wait_for_selector(f"#active a[href='/m/{match_id}']")
    assert ann.locator("#pwn").count() == 0 and TITLE in ann.inner_text("#active")
    ann.goto(link)

    bob.goto(link)
    bob.click("button.join[data-seat='1']")
    ann.wait_for_selector("#start-btn:not([disabled])")
    assert bob_name in ann.inner_text("#seat-list") and ann_name in ann.inner_text("#seat-list")
    ann.wait_for_selector(f"#seat-list a.account-link[href='/players/{bob_name}']")
    assert "Rated race" in ann.inner_text("#seat-list .rated-note")
    ann.screenshot(path=str(shots / "match-rated-seats.png"))
    ann.click("#start-btn")
    for _ in range(600):
        if "Race over" in ann.inner_text("#turn") and "Race over" in bob.inner_text("#turn"):
            break
        moved = [click_action(page, ("dash",)) for page in (ann, bob)]
        if not any(moved):
            ann.wait_for_timeout(50)
    else:
        pytest.fail("the race did not end")

    for page, name in ((ann, ann_name), (bob, bob_name)):
        page.goto(f"{server.url}/players/{name}")
        page.wait_for_selector(".rating-row[data-game='toy-dash']", timeout=20_000)
        page.wait_for_selector(f"#finished a[href='/m/{match_id}']")
        text = page.inner_text(".rating-row[data-game='toy-dash'] .rating")
        mu = float(text.split("±")[0])
        assert mu != 25.0, f"{name}'s rating moved from the start: {text}"
        row = page.inner_text("#finished .finished-row")
        assert re.search(r"(1st|2nd) of 2", row) and re.search(r"[+-]\d+\.\d\d", row), row
        assert page.locator("#pwn").count() == 0
        page.screenshot(path=str(shots / f"player-page-{'ann' if page is ann else 'bob'}.png"), full_page=True)

    ann.goto(f"{server.url}/leaderboard/toy-dash")
    ann.wait_for_selector(".board-row")
    rows = ann.locator(".board-row").all_inner_texts()
    assert any(ann_name in r for r in rows) and any(bob_name in r for r in rows)
    ann.screenshot(path=str(shots / "leaderboard.png"), full_page=True)

    phone_ctx = browser.new_context(viewport=PHONE, storage_state=ann_ctx.storage_state())
    phone = watch(phone_ctx.new_page(), errors)
    phone.goto(f"{server.url}/players/{ann_name}")
    phone.wait_for_selector(".rating-row")
    phone.screenshot(path=str(shots / "player-page-phone.png"), full_page=True)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a phone"
    phone.goto(f"{server.url}/leaderboard/toy-dash")
    phone.wait_for_selector(".board-row")
    phone.screenshot(path=str(shots / "leaderboard-phone.png"), full_page=True)
    phone.goto(server.url + "/")
    phone.wait_for_selector("#my-page")
    phone.screenshot(path=str(shots / "lobby-phone.png"))

    bob.goto(server.url + "/")
    bob.wait_for_selector("#log-out")
    assert not bob.evaluate("document.cookie.includes('slipstream_session')"), "HttpOnly: no script reads it"
    bob.click("#log-out")
    bob.wait_for_selector("#log-in")
    assert not bob.input_value("#my-name").startswith("Bob-"), "a guest again: the name box is theirs to fill"
    assert not errors, errors
    for ctx in (ann_ctx, bob_ctx, phone_ctx):
        ctx.close()


def test_a_logged_in_player_still_plays_hot_seat(server: Server, browser: Browser) -> None:
    """Hot-seat joins every seat from one device: the first is the account's, the others guests'."""
    errors: list[str] = []
    ctx = browser.new_context()
    page = watch(ctx.new_page(), errors)
    name = f"Hot_{int(time.time() * 1000) % 10**6}"
    sign_up(page, server, name)
    open_lobby(page, server, "toy-dash", 2)
    page.check("#hotseat")
    page.click("#create-btn")
    page.wait_for_url(re.compile(r".*/m/[\w-]+$"))
    page.wait_for_selector(f"#seat-list a.account-link[href='/players/{name}']")
    page.wait_for_selector("button.action")
    seats = page.inner_text("#seat-list")
    assert name in seats and "Seat 2: P2" in seats, seats
    assert not errors, errors
    ctx.close()
