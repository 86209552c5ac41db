"""Issue 28's loose end in a real browser: a rematch holds Bob's seat for him for ``rematch_hold`` (300 s),
so a stranger's page shows it held, with no Join box; once the hold has run out it is an open seat with
its Join box, and the stranger takes it. The server's clock is moved on (``tests/web/clockserve.py``:
the server started again with its clock ahead, ``web/clock.py``) instead of waiting five minutes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from slipstream.web.limits import Limits
from tests.e2e.browser import CHROMIUM, watch
from tests.web.conftest import ROOMY
from tests.web.server import Server

pytestmark = pytest.mark.e2e

if not Path(CHROMIUM).exists() and os.environ.get("CI") != "true":
    pytest.skip("Debian's chromium is not installed (.ci/run installs it)", allow_module_level=True)

JOIN_BOX = "input.join-name[data-seat='1'], button.join[data-seat='1']"


def test_a_held_rematch_seat_gets_its_join_box_when_the_hold_runs_out(
    browser: Browser, tmp_path: Path, shots: Path
) -> None:
    server = Server(
        str(tmp_path / "hold.sqlite3"), tmp_path / "server.log", env=dict(ROOMY), module="tests.web.clockserve"
    ).start()
    errors: list[str] = []
    eve_ctx = browser.new_context()
    try:
        api = server.client()
        mid, _host, (ann, bob) = api.new_match(players=2, humans=2, length=4)
        api.play_out(mid, [ann, bob])
        rematch = api.ok("POST", f"/api/matches/{mid}/rematch", ann, json={})
        assert rematch["seat"] == 0, "Ann asked for it: she is in her seat"
        link = f"{server.url}/m/{rematch['id']}"

        eve = watch(eve_ctx.new_page(), errors)
        eve.goto(link)
        eve.wait_for_selector("#seat-list li[data-seat='1'].held >> text=held for seat1")
        assert eve.locator(JOIN_BOX).count() == 0, "no Join box while the seat is held for Bob"
        eve.screenshot(path=str(shots / "rematch-hold-before-expiry.png"), full_page=True)

        eve.close()  # its page would log its reconnections while the server is down
        # the hold runs out: the server comes back (same address) with its clock a minute past it
        port = server.port
        server.stop()
        server.env["SLIPSTREAM_TEST_CLOCK_OFFSET"] = str(Limits.rematch_hold + 60)
        server.start(port=port)
        eve = watch(eve_ctx.new_page(), errors)
        eve.goto(link)
        eve.wait_for_selector("input.join-name[data-seat='1']")
        assert eve.locator("#seat-list li[data-seat='1'].held").count() == 0, "no longer shown held"
        assert "held for" not in eve.inner_text("#seat-list")
        eve.screenshot(path=str(shots / "rematch-hold-after-expiry.png"), full_page=True)
        eve.fill("input.join-name[data-seat='1']", "Eve")
        eve.click("button.join[data-seat='1']")
        eve.wait_for_selector("#seat-list li[data-seat='1'] >> text=Eve")
        assert not errors, errors
    finally:
        eve_ctx.close()
        server.stop()
