"""Issue 28 in a real browser: the rematch invites the other player and holds their seat, the table chat
reaches the other seat and a spectator and survives a restart, presence shows who is there and who
watches, and a timed race shows each player's clock in their row."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from tests.e2e.browser import CHROMIUM, watch
from tests.web.conftest import ROOMY
from tests.web.server import Api, Server

pytestmark = pytest.mark.e2e

if not Path(CHROMIUM).exists() and os.environ.get("CI") != "true":
    pytest.skip("Debian's chromium is not installed (.ci/run installs it)", allow_module_level=True)

PHONE = {"width": 390, "height": 844}


def holding(ctx: BrowserContext, match_id: str, seats: dict[int, str], host: str | None = None) -> None:
    """This browser holds these seats' tokens (and the host's) for the match, as after joining."""
    kept = json.dumps({"host": host, "seats": {str(s): t for s, t in seats.items()}})
    ctx.add_init_script(f"localStorage.setItem('slipstream:{match_id}', {json.dumps(kept)})")


def test_the_rematch_invites_bob_and_a_stranger_cannot_take_his_seat(
    server: Server, browser: Browser, shots: Path
) -> None:
    api = server.client()
    mid, host, (ann, bob) = api.new_match(players=3, humans=2, length=4)
    errors: list[str] = []
    ann_ctx, bob_ctx, eve_ctx = browser.new_context(), browser.new_context(viewport=PHONE), browser.new_context()
    try:
        holding(ann_ctx, mid, {0: ann}, host)
        holding(bob_ctx, mid, {1: bob})
        ann_page, bob_page = watch(ann_ctx.new_page(), errors), watch(bob_ctx.new_page(), errors)
        for page in (ann_page, bob_page):
            page.goto(f"{server.url}/m/{mid}")
            page.wait_for_selector("#seat-list li[data-seat='1']")
        api.play_out(mid, [ann, bob])
        for page in (ann_page, bob_page):
            page.wait_for_selector("#rematch-btn:not([hidden])")
        assert bob_page.locator("#rematch-banner").is_hidden(), "no rematch asked yet"
        ann_page.click("#rematch-btn")
        ann_page.wait_for_url(lambda url: url.rstrip("/") != f"{server.url}/m/{mid}")
        rematch_url = ann_page.url
        # Bob's page changes by itself and tells him
        bob_page.wait_for_selector("#rematch-banner:not([hidden]) >> text=you are invited")
        assert re.search(r"held for you for [45]:\d\d", bob_page.inner_text("#rematch-banner"))
        bob_page.screenshot(path=str(shots / "rematch-banner-phone.png"), full_page=True)
        # a stranger's browser sees the seat held for Bob, with no Join box and no way in
        eve = watch(eve_ctx.new_page(), errors)
        eve.goto(rematch_url)
        eve.wait_for_selector("#seat-list li[data-seat='1'].held >> text=held for seat1")
        assert eve.locator("input.join-name[data-seat='1'], button.join[data-seat='1']").count() == 0
        ann_page.wait_for_selector("#seat-list li[data-seat='1'].held")
        assert ann_page.locator("select.bot-pick[data-seat='1']").count() == 0, "the host cannot put a bot in it"
        bot_tag = ann_page.locator("#seat-list li[data-seat='2'] span.tag >> text=bot")
        assert bot_tag.count() == 1, "the bot kept its seat"
        ann_page.screenshot(path=str(shots / "rematch-held-desktop.png"), full_page=True)
        status, body = Api(server.url).call(
            "POST", f"/api/matches/{rematch_url.rsplit('/', 1)[1]}/seats/1/join", json={"name": "Eve"}
        )
        assert (status, body["error"]["code"]) == (409, "seat_held")
        # one click, and Bob is in his seat: the rematch starts by itself
        bob_page.click("#rematch-join")
        bob_page.wait_for_url(rematch_url)
        for page in (ann_page, bob_page, eve):
            page.wait_for_selector("#seat-list li[data-seat='1'] >> text=seat1")
        bob_page.wait_for_function("!document.getElementById('turn').textContent.includes('Waiting for players')")
        assert "Spectating" in eve.inner_text("#audience")
        assert not errors, errors
    finally:
        for ctx in (ann_ctx, bob_ctx, eve_ctx):
            ctx.close()


def say(page: Page, text: str) -> None:
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")


def test_chat_reaches_the_other_seat_and_the_spectator_and_survives_a_restart(
    browser: Browser, tmp_path: Path, shots: Path
) -> None:
    """Ann writes a ``<script>``: Bob and a spectator read it as text (nothing runs); presence shows who is
    there and who watches; the server is killed and started again and the line is still there."""
    server = Server(str(tmp_path / "chat.sqlite3"), tmp_path / "server.log", env=ROOMY).start()
    errors: list[str] = []
    contexts = [browser.new_context(), browser.new_context(viewport=PHONE), browser.new_context()]
    try:
        api = server.client()
        made = api.ok("POST", "/api/matches", json={"game": "toy-dash", "players": 2, "options": {"length": 30},
                                                    "turn_seconds": 600})
        mid, host = made["id"], made["host_token"]
        ann, bob = (api.ok("POST", f"/api/matches/{mid}/seats/{s}/join", json={"name": n})["token"]
                    for s, n in ((0, "Ann"), (1, "Bob")))
        api.ok("POST", f"/api/matches/{mid}/start", host)
        holding(contexts[0], mid, {0: ann}, host)
        holding(contexts[1], mid, {1: bob})
        ann_page, bob_page, spec = (watch(ctx.new_page(), errors) for ctx in contexts)
        for page in (ann_page, bob_page, spec):
            page.goto(f"{server.url}/m/{mid}")
        ann_page.wait_for_selector("#seat-list li[data-seat='1'] .presence.on")
        spec.wait_for_selector("#audience:not([hidden]) >> text=Spectating")
        ann_page.wait_for_selector("#audience:not([hidden]) >> text=1 watching")
        clock = ann_page.inner_text("#seat-list li[data-seat='0'] .seat-clock")
        assert re.fullmatch(r"10:00|9:[0-5]\d", clock.strip()), clock
        evil = "<script>window.hacked = 1</script><img src=x onerror='window.hacked=2'> see you at the line"
        say(ann_page, evil)
        for page in (ann_page, bob_page, spec):
            page.wait_for_selector("#chat-log li >> text=see you at the line")
            assert page.locator("#chat-log li .chat-text").first.inner_text() == evil
            assert page.locator("#chat-log script, #chat-log img").count() == 0
            assert page.evaluate("window.hacked") is None
        say(spec, "go Bob!")
        bob_page.wait_for_selector("#chat-log li.spectator >> text=go Bob!")
        ann_page.wait_for_selector("#chat-log li.spectator button.mute")
        ann_page.screenshot(path=str(shots / "chat-desktop.png"), full_page=True)
        bob_page.screenshot(path=str(shots / "chat-phone.png"), full_page=True)
        spec.screenshot(path=str(shots / "chat-spectator.png"), full_page=True)
        bob_page.close()
        ann_page.wait_for_selector("#seat-list li[data-seat='1'] .presence.off >> text=away")
        ann_page.screenshot(path=str(shots / "presence-away-desktop.png"), full_page=True)
        server.kill()
        server.start(port=server.port)
        spec.reload()
        spec.wait_for_selector("#chat-log li >> text=see you at the line")
        spec.wait_for_selector("#chat-log li >> text=go Bob!")
        ann_page.wait_for_selector("#conn.on")
        say(ann_page, "still here")
        spec.wait_for_selector("#chat-log li >> text=still here")
        assert spec.locator("#chat-log li").count() == 3, "each line once, after the reconnection too"
        assert not [e for e in errors if "WebSocket" not in e], errors
    finally:
        for ctx in contexts:
            ctx.close()
        server.stop()


def test_hot_seat_spectator_and_finished_views_at_both_sizes(server: Server, browser: Browser, shots: Path) -> None:
    """Screenshots of the views issue 28 changed, at laptop and phone size: hot-seat (one browser, both
    seats), a spectator, and the finished race with the rematch banner; and a seat whose race is run
    (a game's view marks it finished) is offered no Resign."""
    api = server.client()
    mid, host, (ann, bob) = api.new_match(players=3, humans=2, length=6)
    errors: list[str] = []
    for size, viewport in (("desktop", {"width": 1280, "height": 800}), ("phone", PHONE)):
        hot, spectator = browser.new_context(viewport=viewport), browser.new_context(viewport=viewport)
        try:
            holding(hot, mid, {0: ann, 1: bob}, host)
            page, watcher = watch(hot.new_page(), errors), watch(spectator.new_page(), errors)
            for p in (page, watcher):
                p.goto(f"{server.url}/m/{mid}")
            page.wait_for_selector("#seat-tabs button")
            watcher.wait_for_selector("#audience >> text=Spectating")
            page.wait_for_selector("#audience >> text=1 watching")
            if size == "desktop":
                finished = page.evaluate(
                    """async () => { const m = await import('/static/presence.js');
                    return [m.seatFinished({cars: [{seat: 0, finished: true}, {seat: 1, finished: false}]}, 0),
                            m.seatFinished({cars: [{seat: 0, finished: true}, {seat: 1, finished: false}]}, 1),
                            m.seatFinished({finished: [1]}, 1), m.seatFinished({}, 0)]; }"""
                )
                assert finished == [True, False, True, False]
            page.wait_for_selector("#curtain-show")
            if page.locator("#curtain-show").is_visible():
                page.click("#curtain-show")
            page.wait_for_selector("button.action")
            page.screenshot(path=str(shots / f"hot-seat-{size}.png"), full_page=True)
            watcher.screenshot(path=str(shots / f"spectator-{size}.png"), full_page=True)
        finally:
            hot.close()
            spectator.close()
    api.play_out(mid, [ann, bob])
    api.ok("POST", f"/api/matches/{mid}/rematch", host, json={})
    for size, viewport in (("desktop", {"width": 1280, "height": 800}), ("phone", PHONE)):
        ctx = browser.new_context(viewport=viewport)
        try:
            holding(ctx, mid, {1: bob})
            page = watch(ctx.new_page(), errors)
            page.goto(f"{server.url}/m/{mid}")
            page.wait_for_selector("#rematch-banner >> text=Join the rematch")
            page.wait_for_selector("#result:not([hidden])")
            assert page.locator("#rematch-btn").is_hidden(), "made already: the banner's button takes the seat"
            page.screenshot(path=str(shots / f"finished-rematch-{size}.png"), full_page=True)
        finally:
            ctx.close()
    assert not errors, errors
