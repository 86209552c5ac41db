"""Issue 31, Highway Heist in words, in a real browser (Chromium): tapping an Enemy card or a Stunt card on
the board shows its effect text (the rulebook's Enemy Cards: "because you can see the Activated effect in
advance, the team can work together to avoid the danger"), and the cards print their effects."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

import slipstream
from slipstream.games.highway_heist.game import HighwayHeist
from tests.e2e.browser import CHROMIUM, watch
from tests.web.server import Api, Server

pytestmark = pytest.mark.e2e

if not Path(CHROMIUM).exists() and os.environ.get("CI") != "true":
    pytest.skip("Debian's chromium is not installed (.ci/run installs it)", allow_module_level=True)

PREFER = ("end-turn", ":play", ":pass", "keep")
"""The quickest way through turns: end them at once, never assist (the Enemy Die does the rest)."""


def play_until_an_enemy_card(api: Api, match_id: str, tokens: list[str]) -> dict[str, Any]:
    """Play both seats (ending each turn at once) until an Enemy card lies in the row, two at most."""
    for _ in range(400):
        for token in tokens:
            st = api.state(match_id, token)
            row = [c for c in st["view"]["enemy_row"] if c]
            if row or st["result"] is not None:
                return st
            if st["legal"]:
                pick = next((a for word in PREFER for a in st["legal"] if a.endswith(word)), st["legal"][0])
                api.call("POST", f"/api/matches/{match_id}/actions", token, json={"action": pick, "ply": st["ply"]})
    raise AssertionError("no Enemy card came up")


def test_tapping_an_enemy_card_or_a_stunt_card_shows_its_effect(server: Server, browser: Browser, shots: Path) -> None:
    api = server.client()
    match_id, _host, tokens = api.new_match("highway-heist", players=2, humans=2)
    st = play_until_an_enemy_card(api, match_id, tokens)
    assert st["result"] is None, "the game ended before an Enemy card was revealed"
    game = slipstream.load("highway-heist", players=2)
    assert isinstance(game, HighwayHeist)
    terms = game.words.terms
    card = next(c for c in st["view"]["enemy_row"] if c)
    stunt = next(s["card"] for s in st["view"]["stunt_row"] if s)

    errors: list[str] = []
    ctx = browser.new_context(has_touch=True, viewport={"width": 390, "height": 844}, is_mobile=True)
    page = watch(ctx.new_page(), errors)
    page.goto(f"{server.url}/m/{match_id}")          # a spectator: a tap only tells, it plays nothing
    enemy = page.locator(f".hh-card.enemy[data-card='{card}'] .term")
    enemy.wait_for()
    # the card prints both its effects, and its name carries them as a tip
    printed = page.inner_text(f".hh-card.enemy[data-card='{card}']")
    assert game.words.reveal[card] in printed or "ACTIVATE!" in printed
    assert (game.words.activated[card] or "nothing") in printed
    enemy.tap()
    tip = page.locator("#tip")
    tip.wait_for(state="visible")
    assert terms[card].name in tip.inner_text() and terms[card].text in tip.inner_text()
    assert "Enemy card" in tip.inner_text().upper() or "ENEMY CARD" in tip.inner_text().upper()
    page.screenshot(path=str(shots / "highway-heist-enemy-card-tip.png"))

    page.locator(f".hh-card.stunt[data-card='{stunt}'] .term").tap()
    page.wait_for_function("(name) => document.querySelector('#tip .tip-name')?.textContent === name",
                           arg=terms[stunt].name)
    assert terms[stunt].text in tip.inner_text()
    assert game.words.card_texts[stunt] in page.inner_text(f".hh-card.stunt[data-card='{stunt}']")
    page.screenshot(path=str(shots / "highway-heist-stunt-card-tip.png"))

    page.locator(".hh-card.stunt .term").first.tap()            # a second tap on the same name hides it
    page.wait_for_timeout(100)
    assert not errors, errors
    ctx.close()


def test_the_lobby_names_and_describes_the_scenario_and_the_difficulty(server: Server, browser: Browser) -> None:
    """The lobby listed the difficulty as "beast" beside words: each scenario and difficulty is named,
    and the picked one is described under its list."""
    errors: list[str] = []
    ctx = browser.new_context()
    page = watch(ctx.new_page(), errors)
    page.goto(server.url + "/")
    page.wait_for_selector("#game-select option[value='highway-heist']", state="attached")
    page.select_option("#game-select", "highway-heist")
    page.wait_for_selector("#opt-difficulty")
    assert [t.strip() for t in page.locator("#opt-difficulty option").all_inner_texts()] == [
        "Easy", "Standard", "Hard", "It's a Beast!"]
    assert [t.strip() for t in page.locator("#opt-scenario option").all_inner_texts()] == [
        "Tank Assault", "Semi Heist", "Chopper Takedown"]
    page.select_option("#opt-difficulty", label="It's a Beast!")
    page.select_option("#opt-scenario", label="Semi Heist")
    assert page.inner_text("#opt-difficulty-text").startswith("It's a Beast!: 5 Stunt cards in the deck")
    assert page.inner_text("#opt-scenario-text").startswith("Semi Heist: Rob the Semi")
    options = page.inner_text("#options")
    assert "beast" not in options and "tank-assault" not in options and "semi-heist" not in options
    assert not errors, errors
    ctx.close()
