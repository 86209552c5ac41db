"""Rush 'n' Crush, steering on the board in a real browser (Chromium): Movement, "A move into the square
directly ahead of you uses one of your movement allowance. A move diagonally forward uses one movement
allowance and one lane change." The squares the car to play can step to are highlighted; a click on one
sends that step and the car stands there (docs/rules/rush-n-crush.md, "In the terminal, the browser and
the simulator")."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from playwright.sync_api import Browser

import slipstream
from tests.e2e.browser import CHROMIUM, watch
from tests.e2e.test_board_moves import SENT, click_on_board, play_until
from tests.e2e.test_play import lobby_race
from tests.web.server import Server

pytestmark = pytest.mark.e2e

if not Path(CHROMIUM).exists() and os.environ.get("CI") != "true":
    pytest.skip("Debian's chromium is not installed (.ci/run installs it)", allow_module_level=True)

EMPTY_TARGETS = """() => [...document.querySelectorAll('#board g[data-square][data-action].clickable')]
    .filter((g) => !g.querySelector('circle, text'))
    .map((g) => [g.dataset.square, g.dataset.action])"""
"""The highlighted squares with nothing on them (no car, mine, wreck or obstruction), so the step
enters the square: ``[square, action]``."""


def test_a_click_on_a_highlighted_square_moves_the_car_there(server: Server, browser: Browser, shots: Path) -> None:
    """Against a random bot, at 1280 px: once Ann's car has a step to an empty square, clicking that
    square sends the step (its button stays for the keyboard) and her car is drawn there, with the step
    in the log, in words. Every step variant offered as a button under the course is a legal move."""
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = watch(context.new_page(), errors)
    page.add_init_script(SENT)
    lobby_race(page, server, "rush-n-crush", 2, bots={1: "random"}, name="Ann")
    steps = ("ahead", "left", "right")
    play_until(page, lambda: page.evaluate(EMPTY_TARGETS), random.Random(7), keep=steps)
    square, action = page.evaluate(EMPTY_TARGETS)[0]
    legal = page.eval_on_selector_all("#actions button.action", "els => els.map(e => e.dataset.act)")
    for variant in page.eval_on_selector_all("#board button.step-variant", "els => els.map(e => e.dataset.action)"):
        assert variant in legal and "+" in variant, variant
    page.screenshot(path=str(shots / "rush-n-crush-steer-1280.png"), full_page=True)
    click_on_board(page, f"g[data-square='{square}']", action)
    page.wait_for_selector(f"#board g[data-square='{square}'] g.racer[data-seat='0']")
    track = slipstream.load("rush-n-crush", players=2).track
    page.wait_for_selector(f"#log li:has-text('moves to {track.places[track.square_named(square)]}')")
    page.screenshot(path=str(shots / "rush-n-crush-stepped-1280.png"), full_page=True)
    assert not errors, errors
    context.close()
