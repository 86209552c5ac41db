"""Rush 'n' Crush driven on the board in a real browser (Chromium), as a newcomer would: the gear chosen
on the gear matrix, a move planned by clicking the square to reach and confirming (Movement: "A move
into the square directly ahead of you uses one of your movement allowance. A move diagonally forward
uses one movement allowance and one lane change"), on a laptop and on a phone (docs/rules/rush-n-crush.md,
"In the terminal, the browser and the simulator").

The path is the engine's (the ``move_plans`` hook, sent to the seat to play in its state message); the
page sends its steps one after the other, each still legal in the position the one before produced."""

from __future__ import annotations

import contextlib
import json
import os
import random
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.e2e.browser import CHROMIUM, watch
from tests.e2e.test_board_moves import SENT
from tests.e2e.test_play import lobby_race
from tests.web.server import Server

pytestmark = pytest.mark.e2e

if not Path(CHROMIUM).exists() and os.environ.get("CI") != "true":
    pytest.skip("Debian's chromium is not installed (.ci/run installs it)", allow_module_level=True)

GEAR_NODES = "#board .rnc-node[data-action].clickable"
TARGETS = "#board g.rnc-square[data-rc-plan]"


def _token(page: Page, seat: int) -> tuple[str, str]:
    """The match id and this page's seat token (kept in the browser's localStorage)."""
    match_id = page.url.rsplit("/", 1)[-1]
    saved = json.loads(page.evaluate(f"localStorage.getItem('slipstream:{match_id}')"))
    return match_id, saved["seats"][str(seat)]


def _sent(page: Page) -> list[str]:
    sent: list[str] = page.evaluate("window.sentActions")
    return sent


def _other_move(page: Page, rng: random.Random) -> None:
    """A move that is neither the gearstick nor a step: random among the buttons (folded or not)."""
    page.evaluate("document.querySelectorAll('details.all-moves').forEach((d) => { d.open = true; })")
    buttons = page.locator("#actions button.action:not([disabled])")
    labels = buttons.all_inner_texts()
    picks = [i for i, text in enumerate(labels) if not text.lower().startswith(("step", "gearstick"))]
    if picks:
        with contextlib.suppress(Exception):  # redrawn by a newer state between reading and clicking
            buttons.nth(rng.choice(picks)).click(timeout=1000)


def _choose_gear(page: Page, rng: random.Random, top: bool) -> None:
    """Click a reachable node of the gear matrix (the highest with ``top``): the page sends its action."""
    nodes = page.locator(GEAR_NODES)
    count = nodes.count()
    if not count:
        return
    node = nodes.nth(count - 1 if top else rng.randrange(count))
    action = node.get_attribute("data-action")
    before = len(_sent(page))
    with contextlib.suppress(Exception):
        node.click(timeout=1000)
        page.wait_for_function(f"window.sentActions.length > {before}", timeout=5000)
        assert _sent(page)[before:] == [action]


def drive_to_a_planned_square(page: Page, server: Server, seat: int, rng: random.Random,
                              min_steps: int, seconds: float = 240) -> dict[str, Any]:
    """Play the seat's race on the board (gears on the matrix, other moves by their buttons) until its car
    has a plan of at least ``min_steps`` steps, whose square is then clicked and the move confirmed on
    the course; the plan the server offered."""
    api = server.client()
    match_id, token = _token(page, seat)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if page.inner_text("#turn").startswith("Race over"):
            pytest.fail("the race ended before a long enough move came up")
        if not page.locator("#actions button.action:not([disabled])").count():
            page.wait_for_timeout(40)
            continue
        if page.locator(GEAR_NODES).count():
            _choose_gear(page, rng, top=True)
            continue
        if not page.locator(TARGETS).count():
            _other_move(page, rng)
            continue
        state = api.state(match_id, token)
        paths = (state.get("plans") or {}).get("paths") or []
        long = [p for p in paths if len(p["steps"]) >= min_steps and p["square"] != "finish"]
        if not long or not page.locator(TARGETS).count():
            _other_move(page, rng)
            continue
        plan = rng.choice(long)
        square = page.locator(f"#board g.rnc-square[data-square='{plan['square']}'][data-rc-plan]")
        square.click()
        # attached: a straight path's line has a zero-wide box, which Playwright calls hidden
        page.wait_for_selector("#board .rnc-selection polyline", state="attached")
        drive = page.locator("#board .rnc-plan button[data-actions]")
        assert drive.get_attribute("data-actions") == " ".join(plan["steps"])
        assert page.locator("#board .rnc-go[data-actions]").get_attribute("data-actions") == " ".join(plan["steps"])
        return plan
    pytest.fail("no long enough move came up in time")
    raise AssertionError


def test_a_move_is_made_by_clicking_its_square_and_confirming(server: Server, browser: Browser, shots: Path) -> None:
    """Against a random bot, at 1280 px: the gear is chosen on the gear matrix; once Ann's car can reach a
    square three steps away or more, clicking it shows the path and what it spends; "Drive there" sends
    exactly the plan's steps, one after the other, and her car stands on that square."""
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = watch(context.new_page(), errors)
    page.add_init_script(SENT)
    lobby_race(page, server, "rush-n-crush", 2, bots={1: "random"}, name="Ann")
    page.wait_for_selector(GEAR_NODES)
    page.screenshot(path=str(shots / "rush-n-crush-gear-1280.png"), full_page=True)
    plan = drive_to_a_planned_square(page, server, 0, random.Random(7), min_steps=3)
    lead = page.inner_text("#board .rnc-plan")
    assert f"{len(plan['steps'])} squares" in lead and "Drive there" in lead
    page.screenshot(path=str(shots / "rush-n-crush-plan-1280.png"), full_page=True)
    before = len(_sent(page))
    page.click("#board .rnc-plan button[data-actions]")
    page.wait_for_selector(f"#board g.racer[data-seat='0'][data-at='{plan['square']}']")
    page.wait_for_function(f"window.sentActions.length >= {before + len(plan['steps'])}")
    assert _sent(page)[before:] == plan["steps"]
    page.screenshot(path=str(shots / "rush-n-crush-driven-1280.png"), full_page=True)
    assert not errors, errors
    context.close()


def test_on_a_phone_the_squares_are_large_enough_to_tap(server: Server, browser: Browser, shots: Path) -> None:
    """At 390 px: the gear is tapped on the matrix; every square a move can reach is a target of at least
    32 px on a straight (a curve's shortest inner squares at least 24 px along the lane, the lane's full
    width across it); a square tapped and the "Drive" bubble tapped on the course move the car there."""
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = watch(context.new_page(), errors)
    page.add_init_script(SENT)
    lobby_race(page, server, "rush-n-crush", 2, bots={1: "random"}, name="Bob")
    page.wait_for_selector(GEAR_NODES)
    box = page.locator(GEAR_NODES).first.bounding_box()
    assert box and min(box["width"], box["height"]) >= 28, box
    page.screenshot(path=str(shots / "rush-n-crush-gear-390.png"))
    plan = drive_to_a_planned_square(page, server, 0, random.Random(3), min_steps=2)
    sizes = sorted(sorted((b["width"], b["height"])) for b in
                   (page.locator(TARGETS).nth(k).bounding_box() for k in range(page.locator(TARGETS).count())) if b)
    assert sizes and all(small >= 24 and large >= 32 for small, large in sizes), sizes
    assert sizes[len(sizes) // 2][0] >= 32, sizes
    page.locator("#board .rnc-go").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "rush-n-crush-plan-390.png"))
    before = len(_sent(page))
    page.locator("#board .rnc-go").tap()
    page.wait_for_selector(f"#board g.racer[data-seat='0'][data-at='{plan['square']}']")
    page.wait_for_function(f"window.sentActions.length >= {before + len(plan['steps'])}")
    assert _sent(page)[before:] == plan["steps"]
    assert not errors, errors
    context.close()
