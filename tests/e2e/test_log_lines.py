"""Issue 28's loose end in a real browser: an undo takes back a step, not a resignation. The line saying
that a player resigned stays in the log of a player who takes a step back after it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.e2e.browser import CHROMIUM, watch
from tests.e2e.test_tables_social import holding
from tests.web.server import Server

pytestmark = pytest.mark.e2e

if not Path(CHROMIUM).exists() and os.environ.get("CI") != "true":
    pytest.skip("Debian's chromium is not installed (.ci/run installs it)", allow_module_level=True)

RESIGNED = "resigned: a bot plays their seat to the end, ranked last"


def test_the_resignation_line_stays_in_the_log_after_an_undo(server: Server, browser: Browser) -> None:
    api = server.client()
    mid, host, (ann, _bob, cat) = api.new_match(players=3, humans=3, length=30)
    errors: list[str] = []
    ctx = browser.new_context()
    try:
        holding(ctx, mid, {0: ann}, host)
        page = watch(ctx.new_page(), errors)
        page.goto(f"{server.url}/m/{mid}")
        page.wait_for_selector("button.action[data-act='0:dash']")
        api.ok("POST", f"/api/matches/{mid}/resign", cat, json={})
        page.wait_for_selector(f"#log >> text={RESIGNED}")
        page.wait_for_selector("#seat-list li[data-seat='2'] >> text=resigned")
        api.wait(mid, ann, lambda st: st["view"]["chosen"][2])  # the bot chose for Cat
        page.wait_for_function("document.getElementById('log').innerText.split('has chosen').length > 1")
        page.click("button.action[data-act='0:dash']")
        page.wait_for_selector("#undo-btn:not([hidden])")
        page.click("#undo-btn")
        page.wait_for_selector("#undo-btn[hidden]", state="attached")
        page.wait_for_selector("button.action[data-act='0:dash']")
        assert api.state(mid, ann)["view"]["chosen"] == [False, False, True], "Ann's step was taken back"
        assert page.inner_text("#log").count(RESIGNED) == 1, page.inner_text("#log")
        assert not errors, errors
    finally:
        ctx.close()
