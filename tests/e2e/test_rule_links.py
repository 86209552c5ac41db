"""Issue 15: a log entry's rule tag opens our rules text (docs/rules/<game>.md, served at /rules/<game>)
at the rule's prose, not at the row of the coverage table that lists the same rule (rules.js)."""

from __future__ import annotations

import os
import urllib.parse
from pathlib import Path

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
    # (game, a rule tag the game's events carry, how its prose starts)
    ("scrap-racer", "Boost markers", "Boost markers change only the dice of the turn's own roll"),
    ("brc-grand-prix", "Dynamic Weather", "Other choices: a move whose final count lands on a car"),
    ("rev-it-up", "Rev Track", "Equivalent mutants"),
    ("highway-heist", "Take Boost Token", "test_rulebook_review.py is an independent review"),
]


@pytest.mark.parametrize(("game", "rule", "prose"), PROSE)
def test_a_rule_tag_lands_on_the_rules_prose_not_the_coverage_table(
    server: Server, browser: Browser, game: str, rule: str, prose: str
) -> None:
    """The tag also names a row of the coverage table, which comes first in the page: the link lands on
    the paragraph (or list item) that names the rule, scrolled into view and marked."""
    errors: list[str] = []
    ctx = browser.new_context()
    page = watch(ctx.new_page(), errors)
    page.goto(f"{server.url}/rules/{game}?rule={urllib.parse.quote(rule)}")
    rows = page.eval_on_selector_all("#rules tr", "els => els.map(e => e.textContent.toLowerCase())")
    assert any(rule.lower() in row for row in rows), "the tag is in a table too (the case this checks)"
    page.wait_for_selector("#rule-target")
    hit = page.evaluate(TARGET)
    assert hit["tag"] in ("P", "LI") and not hit["inTable"], hit
    assert hit["text"].startswith(prose) and rule in hit["text"], hit["text"][:200]
    assert 0 <= hit["top"] < page.evaluate("innerHeight"), "scrolled into view"
    assert not errors, errors
    ctx.close()


def test_a_rule_no_prose_names_lands_on_its_table_row(server: Server, browser: Browser) -> None:
    """Rush 'n' Crush's rules text names its rules only in the coverage table (no paragraph names
    "Movement: Side Ram"): the link lands on that row, not on a sentence holding one of its words."""
    errors: list[str] = []
    ctx = browser.new_context()
    page = watch(ctx.new_page(), errors)
    page.goto(f"{server.url}/rules/rush-n-crush?rule={urllib.parse.quote('Movement: Side Ram')}")
    page.wait_for_selector("#rule-target")
    hit = page.evaluate(TARGET)
    assert hit["tag"] == "TR" and hit["text"].strip().startswith("Movement"), hit["text"][:200]
    assert not errors, errors
    ctx.close()
