"""Issue 15: a log entry's rule tag opens our rules text (docs/rules/<game>.md, served at /rules/<game>)
at the rule's prose, not at the row of the coverage table that lists the same rule (rules.js)."""

from __future__ import annotations

import os
import re
import urllib.parse
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from tests.e2e.browser import CHROMIUM, watch
from tests.web.server import Server

pytestmark = pytest.mark.e2e

if not Path(CHROMIUM).exists() and os.environ.get("CI") != "true":
    pytest.skip("Debian's chromium is not installed (.ci/run installs it)", allow_module_level=True)

TARGET = """() => {
    const el = document.getElementById('rule-target');
    return el && {tag: el.tagName, text: el.textContent, top: el.getBoundingClientRect().top,
                  inTable: !!el.closest('table')};
}"""

PROSE = [
    # (game, a rule tag the game's events carry, the element it lands on, how its text starts): the "How
    # to play" section of each rules text names the rules as the rulebook does
    ("scrap-racer", "Boost markers: Re-roll", "LI", "Boost markers: Re-roll"),
    ("brc-grand-prix", "Dynamic Weather", "H3", "Sprint mode and Dynamic Weather"),
    ("rev-it-up", "Rev Track", "H3", "Rev Track"),
    ("highway-heist", "Take Boost Token", "LI", "Take Boost Token: one from the supply"),
    ("rush-n-crush", "Movement: Side Ram", "LI", "Movement: Side Ram. A diagonal step into a car"),
]


def open_rule(server: Server, browser: Browser, game: str, rule: str) -> tuple[dict[str, Any], list[str]]:
    """The rules page of ``game`` opened at ``rule``: what it marked (``TARGET``), the table rows' texts."""
    errors: list[str] = []
    ctx = browser.new_context()
    page = watch(ctx.new_page(), errors)
    page.goto(f"{server.url}/rules/{game}?rule={urllib.parse.quote(rule)}")
    rows = page.eval_on_selector_all("#rules tr", "els => els.map(e => e.textContent.toLowerCase())")
    page.wait_for_selector("#rule-target")
    hit = page.evaluate(TARGET)
    assert 0 <= hit["top"] < page.evaluate("innerHeight"), "scrolled into view"
    assert not errors, errors
    ctx.close()
    return hit, rows


@pytest.mark.parametrize(("game", "rule", "tag", "prose"), PROSE)
def test_a_rule_tag_lands_on_the_rules_prose_not_the_coverage_table(
    server: Server, browser: Browser, game: str, rule: str, tag: str, prose: str
) -> None:
    """The tag also names a row of the coverage table, which comes later in the page: the link lands on
    the heading, paragraph or list item of the rules' prose that names the rule, scrolled into view and
    marked."""
    hit, rows = open_rule(server, browser, game, rule)
    assert any(rule.lower() in row for row in rows), "the tag is in a table too (the case this checks)"
    assert hit["tag"] == tag and not hit["inTable"], hit
    assert str(hit["text"]).startswith(prose), str(hit["text"])[:200]


@pytest.mark.parametrize(("rule", "prose"), [
    ("Items: Trap", "Items: Trap: drop Oil Slick"), ("Items: Attack", "Items: Attack: Rocket hits"),
    ("Items: Weapon", "Item: EMP (Items: Weapon)"), ("Items: Profit", "Items: Profit: Sponsor"),
    ("Items: Shield", "Items: Shield: never played"),
])
def test_an_item_used_lands_on_its_types_line(server: Server, browser: Browser, rule: str, prose: str) -> None:
    """Rev it Up tags an item used with its type, capitalised as the rules' Items section writes it: the
    link lands on that type's line (the tags were lower case, and a tag is matched in its own case)."""
    hit, _rows = open_rule(server, browser, "rev-it-up", rule)
    assert hit["tag"] == "LI" and str(hit["text"]).startswith(prose), hit


def test_a_one_word_tag_lands_on_the_heading_of_that_name(server: Server, browser: Browser) -> None:
    """Rush 'n' Crush tags a new round "Round": the link lands on the "Round" heading of the rules, not on
    the options table's row that holds "once-per-round" (where it landed while one word was searched
    for in table rows only)."""
    hit, _rows = open_rule(server, browser, "rush-n-crush", "Round")
    assert (hit["tag"], str(hit["text"]).strip()) == ("H3", "Round"), hit


def test_a_one_word_tag_only_a_sentence_holds_lands_on_its_table_row(server: Server, browser: Browser) -> None:
    """Highway Heist's "Shake" is named in its prose only inside a sentence ("... Shake (manned, Control 2)
    or Brawl ..."), which is not the rule's own paragraph: the link lands on the table row that names it."""
    hit, _rows = open_rule(server, browser, "highway-heist", "Shake")
    assert hit["tag"] == "TR" and "Shake" in str(hit["text"]), str(hit["text"])[:200]


def test_a_table_row_names_a_tag_as_a_whole_word(server: Server, browser: Browser) -> None:
    """"RIU-A1" is not named by a row that holds only "RIU-A10" (it landed on the laps option's row)."""
    hit, _rows = open_rule(server, browser, "rev-it-up", "RIU-A1")
    assert hit["tag"] == "TR" and re.search(r"RIU-A1(?!\d)", str(hit["text"])), str(hit["text"])[:200]


def test_the_rules_text_flows_as_a_page(server: Server, browser: Browser) -> None:
    """The rules text is one column: a heading directly followed by a shorter one ("How to play", then its
    first section) stacks, not side by side (the page's main element was a wrapping flex row)."""
    ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    page = ctx.new_page()
    page.goto(f"{server.url}/rules/highway-heist")
    boxes = page.evaluate("""() => {
        const h2 = [...document.querySelectorAll('#rules h2')].find(h => h.textContent === 'How to play');
        const next = h2.nextElementSibling;
        return [h2.getBoundingClientRect().toJSON(), next.tagName, next.getBoundingClientRect().toJSON()];
    }""")
    h2, tag, below = boxes
    assert tag == "H3" and below["top"] >= h2["bottom"], boxes
    ctx.close()

