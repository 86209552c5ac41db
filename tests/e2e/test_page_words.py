"""Issue 31 in a real browser: the pages outside the boards speak to a player.

The lobby offers each option by names (a picker per seat, seats from 1), describes each game with a link
to how to play it and remembers the player; the end of a race is a results table on top, with the game's
scoreboard; the finished list names the game, the players, the winner and the date; hot-seat asks to pass
the device only when the next seat has something private to see, and still after a reload; a bad link
says so and leads back. Toy Kart (Toy Dash with names and a scoreboard, tests/toykart.py) where it is
enough, the real games where the point is theirs.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Route

from slipstream.engine.registry import game_class
from tests import words
from tests.e2e.browser import CHROMIUM, watch
from tests.e2e.test_play import click_action, lobby_race, open_lobby
from tests.toykart import KARTS
from tests.web.server import Server
from tests.words import Vocabulary

pytestmark = pytest.mark.e2e

if not Path(CHROMIUM).exists() and os.environ.get("CI") != "true":
    pytest.skip("Debian's chromium is not installed (.ci/run installs it)", allow_module_level=True)

ID_LIKE = re.compile(r"^[a-z0-9]+(?:[-_][a-z0-9]+)+$|^-?\d+$")
"""An option's text that is an id ("kart-red", "racer-1") or a bare number ("-1")."""


def option_texts(page: Page, selector: str) -> list[str]:
    return [t.strip() for t in page.locator(f"{selector} option").all_inner_texts()]


def match_info(page: Page, server: Server) -> dict[str, object]:
    mid = page.url.rsplit("/", 1)[1]
    info = page.request.get(f"{server.url}/api/matches/{mid}").json()
    assert isinstance(info, dict)
    return info


def click_any(page: Page, prefer: tuple[str, ...]) -> str | None:
    """``click_action``, with a board's folded list of moves ("All 34 moves as buttons") opened first."""
    page.evaluate("document.querySelectorAll('details.all-moves').forEach((d) => { d.open = true; })")
    return click_action(page, prefer)


def play_to_the_end(page: Page, prefer: tuple[str, ...] = ("dash", "roll")) -> None:
    for _ in range(400):
        if re.match(r"(Race|Game) over", page.inner_text("#turn")):
            return
        if page.locator("#curtain-show").is_visible():
            page.click("#curtain-show")
        if not click_any(page, prefer):
            page.wait_for_timeout(50)
    pytest.fail(f"the race did not end: {page.inner_text('#turn')!r}")


def test_the_lobbys_racer_choice_is_a_list_of_names(server: Server, browser: Browser) -> None:
    """Toy Kart's karts: a list per seat (two per seat with two players, as Scrap Racer's racers) whose
    entries are the glossary's names, never ids; the start player is a seat counted from 1; the race gets
    the ids of the names chosen, in seat order."""
    errors: list[str] = []
    ctx = browser.new_context()
    page = watch(ctx.new_page(), errors)
    open_lobby(page, server, "toy-kart", 3)
    names = [term.name for term in KARTS.values()]
    assert option_texts(page, "#opt-karts-0") == ["dealt at random", *names]
    assert page.locator(".per-seat[data-opt='karts']").count() == 3
    for text in option_texts(page, ".per-seat[data-opt='karts']") + option_texts(page, "#opt-first"):
        assert not ID_LIKE.match(text), f"an id in the lobby: {text!r}"
    assert option_texts(page, "#opt-first") == ["drawn at random", "Seat 1", "Seat 2", "Seat 3"]
    help_text = page.inner_text("#options")
    assert "0-based" not in help_text and "comma-separated" not in help_text
    page.fill("#players", "2")
    page.dispatch_event("#players", "change")
    assert page.locator(".per-seat[data-opt='karts']").count() == 4, "two karts a seat with two players"
    assert option_texts(page, "#opt-first") == ["drawn at random", "Seat 1", "Seat 2"]
    chosen = ["Gold Dust", "Red Rocket", "Green Gecko", "Blue Comet"]
    for k, name in enumerate(chosen):
        page.select_option(f"#opt-karts-{k}", label=name)
    page.select_option("#opt-first", label="Seat 2")
    page.check("#mode-friends")
    page.click("#create-btn")
    page.wait_for_url(re.compile(r".*/m/[\w-]+$"))
    options = match_info(page, server)["options"]
    assert isinstance(options, dict)
    by_name = {term.name: key for key, term in KARTS.items()}
    assert options["karts"] == ",".join(by_name[n] for n in chosen) and options["first"] == 1
    assert not errors, errors
    ctx.close()


def test_a_seat_left_open_among_chosen_ones_is_refused_in_words(server: Server, browser: Browser) -> None:
    errors: list[str] = []
    ctx = browser.new_context()
    page = watch(ctx.new_page(), errors)
    open_lobby(page, server, "toy-kart", 3)
    page.select_option("#opt-karts-0", label="Red Rocket")
    page.click("#create-btn")
    page.wait_for_selector(".toast >> text=Karts: choose for every seat, or leave every seat open")
    assert page.url.endswith("/"), "no race was made"
    ctx.close()


def test_scrap_racers_racers_are_named_in_the_lobby(server: Server, browser: Browser) -> None:
    """The issue's case: Scrap Racer's racers by name, one list per seat, a racer's ability under it."""
    ctx = browser.new_context()
    page = watch(ctx.new_page(), [])
    open_lobby(page, server, "scrap-racer", 4)
    texts = option_texts(page, "#opt-racers-0")
    assert texts[0] == "dealt at random" and "Steel Jacket" in texts and "Swifty" in texts, texts
    assert not any(ID_LIKE.match(t) for t in texts), texts
    assert [t.strip() for t in page.locator("#opt-track option").all_inner_texts()], "the circuit is a list too"
    ctx.close()


def test_the_lobby_describes_the_game_and_remembers_the_player(server: Server, browser: Browser) -> None:
    """Each game has its description and a "How to play" link; the page that opens starts with how to
    play (the rules in full come after, folded); the lobby remembers your name, game and way of playing."""
    errors: list[str] = []
    ctx = browser.new_context()
    page = watch(ctx.new_page(), errors)
    open_lobby(page, server, "rev-it-up", 3)
    about = page.inner_text("#game-about")
    assert game_class("rev-it-up").description in about and "2 to 6 players" in about
    with ctx.expect_page() as opened:
        page.click("#how-to-play")
    rules = watch(opened.value, errors)
    rules.wait_for_load_state()
    first = rules.locator("#rules h1, #rules h2, #rules h3").first.inner_text()
    assert first == "How to play Rev it Up", first
    assert rules.locator("#reference").get_attribute("open") is None, "the rules in full are folded"
    top = rules.evaluate("document.querySelector('#how-to-play').getBoundingClientRect().top")
    assert top < 200, "how to play opens the page"
    rules.close()
    page.select_option("#game-select", "toy-kart")
    page.fill("#my-name", "Zoe")
    page.check("#hotseat")
    page.click("#create-btn")
    page.wait_for_url(re.compile(r".*/m/[\w-]+$"))
    page.wait_for_selector("#how-to-play:not([hidden])")
    link = page.get_attribute("#how-to-play", "href")
    assert link == "/rules/toy-kart" or (link or "").endswith("/rules/toy-kart")
    page.goto(server.url + "/")
    page.wait_for_selector("#game-about p")
    assert page.input_value("#game-select") == "toy-kart"
    assert page.input_value("#my-name") == "Zoe"
    assert page.is_checked("#hotseat")
    assert not errors, errors
    ctx.close()


def test_the_results_table_shows_on_top_after_a_race(server: Server, browser: Browser) -> None:
    """Toy Kart against two bots, to the end: a results table above the board with a row per player in
    finishing order (place, name) and the game's scoreboard columns, whose numbers are the race's; the
    finished list (a race its host listed) names the game, the players, the winner, the length and the
    date."""
    errors: list[str] = []
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = watch(ctx.new_page(), errors)
    lobby_race(page, server, "toy-kart", 3, bots={1: "random", 2: "random"}, name="Ann")
    play_to_the_end(page)
    page.wait_for_selector("#result table")
    heads = [t.strip() for t in page.locator("#result th").all_inner_texts()]
    assert heads == ["Place", "Player", "Spaces", "Sprinted"], heads
    rows = [[c.strip() for c in row.split("\t")] for row in page.locator("#result tr[data-seat]").all_inner_texts()]
    assert [r[0] for r in rows] == ["1", "2", "3"]
    mid = page.url.rsplit("/", 1)[1]
    state = page.request.get(f"{server.url}/api/matches/{mid}/state").json()
    order = state["result"]["order"]
    names = [s["name"] for s in state["match"]["seats"]]
    assert [r[1] for r in rows] == [names[s] for s in order]
    assert [r[2] for r in rows] == [str(state["view"]["positions"][s]) for s in order]
    box = page.evaluate("document.getElementById('result').getBoundingClientRect().toJSON()")
    board = page.evaluate("document.getElementById('board').getBoundingClientRect().top")
    assert box["bottom"] <= board and box["top"] < 800, "on top of the board, in the first screen"
    held = page.evaluate("[...document.querySelectorAll('.play-bar, #hints')].map(e => e.style.minHeight)")
    assert held == ["", ""], f"the room held for turns goes when the race is over: {held}"
    assert "(the only move)" in page.inner_text("#log"), "a roll played for the player is said"
    for roll in page.locator("#dice .roll").all():
        assert roll.locator(".roll-text").inner_text().strip(), "every die shown comes with its words"
    listed = bots_race(server, "toy-kart")  # the lobby's races are reached by their link only (not listed)
    state = page.request.get(f"{server.url}/api/matches/{listed}/state").json()
    names = [s["name"] for s in state["match"]["seats"]]
    page.goto(server.url + "/")
    page.click("#list-tabs button[data-status='finished']")
    row = page.locator(f"#match-list li:has(a[href='/m/{listed}'])")
    row.wait_for()
    text = row.inner_text()
    winner = names[state["result"]["winners"][0]]
    assert "Toy Kart" in text and all(n in text for n in names) and f"won by {winner}" in text, text
    assert re.search(r"\d+ moves", text), f"the race's length: {text!r}"
    assert re.search(r"\d{1,2}:\d\d", text), f"a date and time: {text!r}"
    assert not errors, errors
    ctx.close()


def test_hot_seat_never_asks_to_pass_the_device_in_highway_heist(server: Server, browser: Browser) -> None:
    """Highway Heist is played in the open by one team: two players at one device are never asked to pass
    it (they were at 15 of 40 clicks)."""
    errors: list[str] = []
    ctx = browser.new_context()
    page = watch(ctx.new_page(), errors)
    lobby_race(page, server, "highway-heist", 2, hotseat=True, name="Dom")
    page.wait_for_selector("#seat-tabs button >> nth=1")
    clicks = switches = 0
    tab = page.inner_text("#seat-tabs button.active")
    for _ in range(400):
        assert not page.locator("#curtain").is_visible(), f"a pass screen after {clicks} clicks"
        if clicks >= 40 or re.match(r"Game over", page.inner_text("#turn")):
            break
        if click_any(page, ("take the next turn", "drive", "end")):
            clicks += 1
        else:
            page.wait_for_timeout(50)
        now = page.inner_text("#seat-tabs button.active")
        switches += now != tab
        tab = now
    assert clicks >= 20 and switches >= 1, (clicks, switches)
    assert not errors, errors
    ctx.close()


def test_hot_seat_pass_screen_is_kept_across_a_reload(server: Server, browser: Browser) -> None:
    """Toy Dash hot-seat: each seat holds a secret gem. After the first player chooses, the page asks to
    pass the device; a reload then still asks, and shows nothing of the next seat's view (its gem) until
    its player says they hold the device. That player's own reload shows their view at once."""
    errors: list[str] = []
    ctx = browser.new_context()
    page = watch(ctx.new_page(), errors)
    lobby_race(page, server, "toy-dash", 2, hotseat=True, name="Ann")
    page.wait_for_selector("button.action[data-act='0:dash']")
    assert not page.locator("#curtain").is_visible(), "the race's maker holds the device"
    mid = page.url.rsplit("/", 1)[1]
    tokens = page.evaluate(f"JSON.parse(localStorage.getItem('slipstream:{mid}'))")
    bob = page.request.get(f"{server.url}/api/matches/{mid}/state",
                           headers={"Authorization": f"Bearer {tokens['seats']['1']}"}).json()
    assert bob["private"] is True, "Bob's view holds his gem"
    gem = bob["view"]["hand"]
    page.click("button.action[data-act='0:dash']")
    page.wait_for_selector("#curtain:not([hidden])")
    assert "Pass the device to P2" in page.inner_text("#curtain")
    page.reload()
    page.wait_for_selector("#curtain:not([hidden])")
    page.wait_for_timeout(500)
    assert page.locator("#curtain").is_visible()
    assert gem not in page.inner_text("body"), "nothing of P2's view behind the pass screen"
    page.click("#curtain-show")
    page.wait_for_selector(f"#board >> text={gem}")
    page.reload()
    page.wait_for_selector(f"#board >> text={gem}")
    assert not page.locator("#curtain").is_visible(), "P2 reloaded: P2 still holds the device"
    ctx.close()
    fresh = browser.new_context()
    other = watch(fresh.new_page(), errors)
    other.goto(server.url + "/")
    other.evaluate(f"localStorage.setItem('slipstream:{mid}', {json.dumps(json.dumps(tokens))})")
    other.goto(f"{server.url}/m/{mid}")
    other.wait_for_selector("#curtain:not([hidden])")  # a new tab: whoever holds it is not known
    assert not errors, errors
    fresh.close()


def test_a_spectator_is_told_so(server: Server, browser: Browser) -> None:
    errors: list[str] = []
    ann_ctx, eve_ctx = browser.new_context(), browser.new_context()
    ann, eve = watch(ann_ctx.new_page(), errors), watch(eve_ctx.new_page(), errors)
    lobby_race(ann, server, "toy-dash", 2, bots={1: "random"}, name="Ann")
    ann.wait_for_selector("button.action")
    eve.goto(ann.url)
    eve.wait_for_selector("#turn >> text=Spectating")
    assert "Ann" in eve.inner_text("#turn") or "waiting for" in eve.inner_text("#turn")
    assert not errors, errors
    ann_ctx.close()
    eve_ctx.close()


def test_a_race_is_listed_in_the_lobby_only_when_its_host_says_so(server: Server, browser: Browser) -> None:
    """Issue 26: a race is listed publicly only if its host asks; the lobby asks with a box (before, the
    lobby never sent it, so no race made in the lobby was ever listed)."""
    errors: list[str] = []
    ctx = browser.new_context()
    page = watch(ctx.new_page(), errors)
    listed = lobby_race(page, server, "toy-dash", 2, name="Ann", title="Open to all", listed=True).rsplit("/", 1)[1]
    unlisted = lobby_race(page, server, "toy-dash", 2, name="Bo", title="Friends only").rsplit("/", 1)[1]
    page.goto(server.url + "/")
    page.locator(f"#match-list li:has(a[href='/m/{listed}'])").wait_for()
    assert "Open to all" in page.inner_text("#match-list")
    assert page.locator(f"#match-list a[href='/m/{unlisted}']").count() == 0, "reached by its link only"
    page.goto(f"{server.url}/m/{unlisted}")
    page.wait_for_selector("text=Friends only")
    assert not errors, errors
    ctx.close()


def test_a_bad_match_link_says_so_and_leads_back(server: Server, browser: Browser) -> None:
    ctx = browser.new_context()
    page = watch(ctx.new_page(), [])
    page.goto(f"{server.url}/m/no-such-race-here")
    page.wait_for_selector("#missing:not([hidden])")
    assert "No such race" in page.inner_text("#missing")
    assert not page.locator("#match-main").is_visible(), "no empty panels"
    page.click("#missing a[href='/']")
    page.wait_for_selector("#game-select option", state="attached")
    ctx.close()


def test_rule_tags_read_without_a_stray_bracket(server: Server, browser: Browser) -> None:
    """Scrap Racer's rule tags cite "A) Move the Racer" and "Setup 7)": shown as "A. Move the Racer" and
    "Setup 7.", as the terminal prints them, and still opening the rule."""
    errors: list[str] = []
    ctx = browser.new_context()
    page = watch(ctx.new_page(), errors)
    lobby_race(page, server, "scrap-racer", 2, bots={1: "heuristic"}, name="Ann")
    page.wait_for_selector("#log a.rule")
    for _ in range(30):
        if page.locator("#log a.rule:has-text('Move the Racer')").count():
            break
        click_action(page, ("stop", "roll"))
        page.wait_for_timeout(100)
    tags = page.locator("#log a.rule").all_inner_texts()
    assert tags and not [t for t in tags if re.search(r"(^|\s)([A-Z]|\d{1,2})\)", t)], tags
    assert any(t.startswith(("Setup 7.", "Setup 8.", "A. Move the Racer", "B. Doubles")) for t in tags), tags
    assert not errors, errors
    ctx.close()


FIRST_BOARD = """
window.__firstBoard = null;
new MutationObserver(() => {
  const board = document.getElementById('board');
  if (window.__firstBoard !== null || !board || !board.children.length) return;
  window.__firstBoard = { terms: board.querySelectorAll('.term').length, text: board.innerText };
}).observe(document, { subtree: true, childList: true });
"""
"""Kept in the page from its start: the board's first paint (its tips and its text)."""


@pytest.mark.parametrize("game_id", ["rev-it-up", "scrap-racer"])
def test_the_glossary_comes_before_the_first_board_draw(server: Server, browser: Browser, game_id: str) -> None:
    """With the glossary answered 1.5 s late (the race's state comes first over the WebSocket), the board's
    first paint already has its names with their tips and no id: the page waits for the glossary."""
    errors: list[str] = []
    ctx = browser.new_context()
    page = watch(ctx.new_page(), errors)
    lobby_race(page, server, game_id, 2, bots={1: "random"}, name="Ann")
    page.wait_for_selector("#board .term")
    final_terms = page.locator("#board .term").count()

    def late(route: Route) -> None:
        time.sleep(1.5)
        route.continue_()

    page.add_init_script(FIRST_BOARD)
    page.route("**/glossary", late)
    page.reload()
    page.wait_for_function("window.__firstBoard !== null")
    first = page.evaluate("window.__firstBoard")
    assert first["terms"] > 0 and first["terms"] >= final_terms // 2, (first["terms"], final_terms)
    leaks = Vocabulary.of(words.load(game_id, 2)).leaks(first["text"])
    assert not leaks, leaks
    assert not errors, errors
    ctx.close()


REAL_GAMES = sorted(g for g in ("brc-grand-prix", "highway-heist", "rev-it-up", "rush-n-crush", "scrap-racer"))
SHOWN_TEXT = """() => [document.body.innerText,
  ...[...document.querySelectorAll('[data-tip]')].map((el) => el.dataset.tip)].join('\\n')"""
"""What a player reads on a page: its visible text and every tip it shows on hover or tap."""


CLOCK = re.compile(r"\b\d{1,2}:\d\d(?::\d\d)?\b")
"""A time of day ("10:57", a finished race's date): the detector reads "10:57" as an action string."""


def leaks_on(page: Page, vocabulary: Vocabulary, where: str, found: list[str]) -> None:
    """Adds to ``found`` the ids in what the page shows now, line by line, with where they were."""
    for line in page.evaluate(SHOWN_TEXT).splitlines():
        ids = vocabulary.leaks(CLOCK.sub("", line))
        if ids:
            found.append(f"{where}: {', '.join(ids)} in {line.strip()[:140]!r}")


BOARD_DRAWN = "document.getElementById('board').children.length > 0"


def bots_race(server: Server, game_id: str) -> str:
    """A two-seat race between bots, listed in the lobby and played to its end on the server; its id."""
    client = server.client()
    try:
        made = client.ok("POST", "/api/matches", json={"game": game_id, "players": 2, "public": True,
                                                       "bots": {"0": "random", "1": "random"}})
        mid = str(made["id"])
        client.ok("POST", f"/api/matches/{mid}/start", made["host_token"])
        deadline = time.monotonic() + 120
        while client.ok("GET", f"/api/matches/{mid}")["status"] != "finished":
            assert time.monotonic() < deadline, "the bots' race did not end"
            time.sleep(0.2)
        return mid
    finally:
        client.http.close()


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_every_page_of_a_race_speaks_in_words(server: Server, browser: Browser, game_id: str) -> None:
    """The conformance walk of issue 31 in a real browser, with tests/words.py's detector over everything
    a player reads (visible text and tips): the lobby with the game chosen, its how-to-play section, the
    first moves of a race against a bot (a page after each click), a finished race's page with its
    results table and log, and the lobby's list of finished races. Zero ids."""
    vocabulary = Vocabulary.of(words.load(game_id, 2))
    found: list[str] = []
    errors: list[str] = []
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = watch(ctx.new_page(), errors)
    open_lobby(page, server, game_id, 2)
    page.wait_for_selector("#game-about p")
    leaks_on(page, vocabulary, "lobby", found)
    page.goto(f"{server.url}/rules/{game_id}")
    teach = page.inner_text("#how-to-play")
    found += [f"how to play: {', '.join(ids)} in {line[:140]!r}"
              for line in teach.splitlines() if (ids := vocabulary.leaks(line))]
    lobby_race(page, server, game_id, 2, bots={1: "random"}, name="Ann")
    page.wait_for_function(BOARD_DRAWN)
    for click in range(8):
        page.wait_for_timeout(300)
        leaks_on(page, vocabulary, f"race, after {click} clicks", found)
        if page.locator("#curtain-show").is_visible():
            page.click("#curtain-show")
        click_any(page, ("roll", "stop", "end", "take the next turn"))
    mid = bots_race(server, game_id)
    page.goto(f"{server.url}/m/{mid}")
    page.wait_for_selector("#result table")
    page.wait_for_function(BOARD_DRAWN)
    leaks_on(page, vocabulary, "results", found)
    page.goto(server.url + "/")
    page.click("#list-tabs button[data-status='finished']")
    page.locator(f"#match-list li:has(a[href='/m/{mid}'])").wait_for()
    leaks_on(page, vocabulary, "finished list", found)
    assert not found, "\n".join(found)
    assert not errors, errors
    ctx.close()
