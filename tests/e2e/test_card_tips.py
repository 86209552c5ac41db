"""Issue 31, effects one tap away, in a real browser (Chromium): on Rev it Up's, Scrap Racer's and BRC Grand
Prix's boards a card, item or chip is shown by its name, and a tap on it shows its effect as a tip; racers
on one space never cover each other."""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

import slipstream
from slipstream.engine.game import State
from slipstream.engine.hooks import hooks_of
from slipstream.engine.play import pending_seats
from slipstream.games.brc_grand_prix import words
from tests.e2e.browser import CHROMIUM, watch
from tests.e2e.test_play import BOXES, PHONE, lobby_race, overlaps, rgb
from tests.playout import random_action
from tests.web.server import Server

pytestmark = pytest.mark.e2e

if not Path(CHROMIUM).exists() and os.environ.get("CI") != "true":
    pytest.skip("Debian's chromium is not installed (.ci/run installs it)", allow_module_level=True)


def phone_page(browser: Browser, errors: list[str]) -> Page:
    """A phone: 390 px wide, taps and no hover."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    return watch(context.new_page(), errors)


def tap_shows_tip(page: Page, selector: str) -> tuple[str, str]:
    """Tap the first ``selector`` on the board: the tip shows, with a name and an effect text; (name, text)."""
    target = page.locator(f"#board {selector}").first
    target.scroll_into_view_if_needed()
    target.tap()
    page.wait_for_selector("#tip:not([hidden])")
    name = page.inner_text("#tip .tip-name")
    text = page.inner_text("#tip .tip-text")
    assert name and len(text) > 15, (name, text)
    assert page.locator("#tip").is_visible()
    return name, text


def no_racer_covers_another(page: Page) -> None:
    """The racers' tokens on the board (each racer's outer disc): no two overlap."""
    boxes = page.eval_on_selector_all("#board svg g.racer > circle:first-of-type", BOXES)
    assert len(boxes) >= 2, boxes
    shrunk = [{**b, "x": b["x"] + 1, "y": b["y"] + 1, "width": b["width"] - 2, "height": b["height"] - 2}
              for b in boxes]
    hits = [(i, j) for i in range(len(shrunk)) for j in range(i) if overlaps(shrunk[i], shrunk[j])]
    assert not hits, f"racer tokens {hits} cover each other: {boxes}"


DRAW = """async ([game, view, ctx]) => {
    const common = await import("/static/common.js");
    const board = await import(`/boards/${game}.js`);
    const term = (id, fallback) => common.term(ctx.glossary, id, fallback);
    const full = { ...ctx, colours: common.SEAT_COLOURS, term };
    const width = ctx.narrow ? 380 : 900;
    document.body.innerHTML = `<main id="board" style="width:${width}px">${board.draw(view, full)}</main>`;
}"""
"""Draws a game's board (its board.js, as the match page does) from a view, alone on the page."""


def draw_state(page: Page, server: Server, state: State, seat: int = 0, narrow: bool = False) -> None:
    """The board of ``state`` as ``seat`` sees it, drawn alone in the page (with the page's tips)."""
    game = state.game
    glossary = hooks_of(game).glossary
    ctx = {"seat": seat, "legal": state.legal_actions(seat) if seat in pending_seats(state) else [],
           "names": [f"Player {s + 1}" for s in range(game.players)], "narrow": narrow, "hints": [],
           "glossary": {k: t.to_json() for k, t in glossary(game).items()} if glossary else {}}
    page.goto(server.url + "/")
    page.evaluate(DRAW, [game.id, json.loads(json.dumps(state.view(seat))), ctx])
    page.evaluate("async () => (await import('/static/common.js')).installTips()")


def draw_alone(page: Page, server: Server, game_id: str, players: int, seat: int = 0, narrow: bool = False,
               **options: Any) -> None:
    """The board of a new race of ``game_id`` as ``seat`` sees it at the start, drawn in the page."""
    draw_state(page, server, slipstream.load(game_id, players=players, **options).start(seed=1), seat, narrow)


def racer_rings(page: Page) -> list[str]:
    """The ring colour of every racer token on the board, as the browser computes it."""
    return page.eval_on_selector_all("#board svg g.racer > circle:first-of-type",
                                     "els => els.map(e => getComputedStyle(e).stroke)")


@pytest.mark.parametrize("narrow", [False, True])
def test_six_rev_it_up_racers_on_the_start_line_stand_side_by_side(server: Server, browser: Browser, shots: Path,
                                                                    narrow: bool) -> None:
    """Rev it Up: all six racers start on the start line; their tokens are drawn side by side, none
    covering another, on a wide screen and a phone."""
    errors: list[str] = []
    page = watch(browser.new_context().new_page(), errors)
    draw_alone(page, server, "rev-it-up", 6, narrow=narrow)
    assert page.locator("#board svg g.racer").count() == 6
    no_racer_covers_another(page)
    shot = shots / f"rev-it-up-start-{'phone' if narrow else 'wide'}.png"
    page.locator("#board svg").first.screenshot(path=str(shot))
    assert not errors, errors
    page.context.close()


def test_rev_it_up_items_and_chips_show_their_effects_on_tap(server: Server, browser: Browser, shots: Path) -> None:
    """Rev it Up on a phone: the items in play and the chips in a bag are shown by name; a tap on an item
    shows what it does ("Trap. Drop on your space ..."), a tap on a chip its colour's effect and its own;
    a second tap hides it."""
    errors: list[str] = []
    page = phone_page(browser, errors)
    lobby_race(page, server, "rev-it-up", 4, bots={1: "random", 2: "random", 3: "random"}, name="Ann")
    page.wait_for_selector("#board .items-in-play .term")
    items = page.inner_text("#board .items-in-play")
    assert "Oil Slick" in items and not re.search(r"[a-z]+-[a-z]+", items), items
    name, text = tap_shows_tip(page, ".items-in-play .term")
    assert name == "Oil Slick" and text.startswith("Trap. Drop on your space"), (name, text)
    name, text = tap_shows_tip(page, ".racer-card.me .chip[data-chip='exhaust-2']")
    assert name == "Exhaust 2" and text.endswith("This chip: moves 2, heat 2."), (name, text)
    page.locator("#board .racer-card.me .chip[data-chip='exhaust-2']").first.tap()
    page.wait_for_selector("#tip", state="hidden")
    cards = page.inner_text("#board .racer-cards")
    assert "Nitro Nell" in cards and "racer-1" not in cards
    no_racer_covers_another(page)
    page.screenshot(path=str(shots / "rev-it-up-tip-phone.png"), full_page=True)
    assert not errors, errors
    page.context.close()


def a_scrap_racer_hand(players: int) -> State:
    """A random Scrap Racer race played until the first seat holds a bonus card, three racers on the track."""
    rng = random.Random(4)
    state = slipstream.load("scrap-racer", players=players).start(seed=4)
    while not (sum(state.bonus_cards[0]) and sum(p > 0 for p in state.progress) >= 3):  # type: ignore[attr-defined]
        assert state.actor is not None, "the race ended before the first seat drew a bonus card"
        state = state.apply(random_action(state, rng))
    return state


def test_scrap_racer_bonus_cards_and_racers_show_their_effects_on_tap(server: Server, browser: Browser,
                                                                       shots: Path) -> None:
    """Scrap Racer on a phone: a bonus card in the hand is shown by its name; a tap shows what it does
    (rulebook, "Bonus cards"); a racer's name in the dashboards shows its ability; boost markers and
    decks are names too. Tokens are ringed in a colour no seat has."""
    errors: list[str] = []
    page = phone_page(browser, errors)
    state = a_scrap_racer_hand(4)
    content = state.game.content  # type: ignore[attr-defined]
    draw_state(page, server, state, narrow=True)
    card = page.get_attribute("#board .bonus-hand .bonus-card", "data-card") or ""
    name, text = tap_shows_tip(page, ".bonus-hand .term")
    assert (name, text) == (content.titles[card], content.texts[card])
    view = state.view(None)
    racer = view["racers"][view["standings"][0]]["id"]
    name, text = tap_shows_tip(page, "table .term")
    assert (name, text) == (dict(content.racers)[racer], content.racer_texts[racer])
    shown = page.inner_text("#board")
    assert "Crash cards 1/2" in shown and not re.search(r"crash-|steel-jacket|plus-minus|\bid\b", shown), shown
    seats = {rgb(c) for c in page.evaluate("async () => (await import('/static/common.js')).SEAT_COLOURS")}
    rings = racer_rings(page)
    assert rings and not seats & set(rings), rings
    no_racer_covers_another(page)
    page.screenshot(path=str(shots / "scrap-racer-tip-phone.png"), full_page=True)
    assert not errors, errors
    page.context.close()


def test_scrap_racer_racers_in_a_live_race_show_their_abilities(server: Server, browser: Browser) -> None:
    """A Scrap Racer race in the lobby, on a phone: a tap on a racer's name shows its ability."""
    errors: list[str] = []
    page = phone_page(browser, errors)
    lobby_race(page, server, "scrap-racer", 3, bots={1: "random", 2: "random"}, name="Ann")
    page.wait_for_selector("#board table .term")
    name, text = tap_shows_tip(page, "table tr.me .term")
    assert name in {"Swifty", "Jackal", "Crusher", "Hover", "Twister", "Steel Jacket"}, name
    assert name.split()[0] in text or "racer" in text, text
    assert not errors, errors
    page.context.close()


def a_brc_race(players: int, until: str, laps: int = 2) -> State:
    """A random BRC Grand Prix race, played until ``until``: "flag" (a flag card has just been drawn and
    a car holds an effect) or "end" (every car has finished)."""
    rng = random.Random(7)
    state = slipstream.load("brc-grand-prix", players=players, laps=laps).start(seed=7)
    while state.actor is not None:  # not play(): it stops at the first flag card
        state = state.apply(random_action(state, rng))
        if until == "flag" and any(e.kind == "card" for e in state.events) and any(state.perks):  # type: ignore[attr-defined]
            return state
    assert until == "end", "the race ended before a flag card was drawn"
    return state


def test_brc_flag_card_and_flag_spaces_show_their_effects_on_tap(server: Server, browser: Browser,
                                                                  shots: Path) -> None:
    """BRC Grand Prix on a phone: the last flag card drawn shows on the board by its name; a tap shows its
    three lines in words ("Flag spaces: Execution"). A flag space is a striped pennant (never a seat's
    plain colour) whose tap says what landing there does; a held effect (DRS, Tyre saver, No overtaking)
    shows what it does."""
    errors: list[str] = []
    page = phone_page(browser, errors)
    state = a_brc_race(4, "flag")
    game = state.game
    draw_state(page, server, state, narrow=True)
    card = page.get_attribute("#board .flag-card", "data-card") or ""
    index = game.content.card_ids.index(card)  # type: ignore[attr-defined]
    name, text = tap_shows_tip(page, ".flag-card .term")
    assert (name, text) == (game.card_names[index], words.card_text(game.content, index))  # type: ignore[attr-defined]
    assert text.startswith("Green: ") and " Yellow: " in text and " Blue: " in text
    fills = page.eval_on_selector_all("#board .flag-mark path:nth-of-type(2)",
                                      "els => els.map(e => e.getAttribute('fill'))")
    assert fills and all(f.startswith("url(#flag-") for f in fills), fills
    strokes = page.eval_on_selector_all("#board .track-space rect", "els => els.map(e => getComputedStyle(e).stroke)")
    seats = {rgb(c) for c in page.evaluate("async () => (await import('/static/common.js')).SEAT_COLOURS")}
    assert not seats & set(strokes), "a track space is outlined in a seat's colour"
    name, text = tap_shows_tip(page, ".track-space[data-flag]")
    assert name.endswith("flag") and text.startswith("Land exactly here"), (name, text)
    name, text = tap_shows_tip(page, "table .term[data-tip-kind='flag card effect']")
    assert name in {"DRS", "Tyre saver", "No overtaking"}, name
    page.screenshot(path=str(shots / "brc-flag-card-phone.png"), full_page=True)
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize("narrow", [False, True])
def test_brc_cars_at_the_finish_stand_side_by_side(server: Server, browser: Browser, shots: Path, narrow: bool) -> None:
    """BRC Grand Prix, Race to the End: every car has crossed the line; the finishers stand in a row in
    finishing order, none covering another (they all stood on the line's space)."""
    errors: list[str] = []
    page = watch(browser.new_context().new_page(), errors)
    draw_state(page, server, a_brc_race(6, "end"), narrow=narrow)
    assert page.locator("#board svg g.racer").count() == 6
    no_racer_covers_another(page)
    page.locator("#board svg").first.screenshot(path=str(shots / f"brc-finish-{'phone' if narrow else 'wide'}.png"))
    assert not errors, errors
    page.context.close()
