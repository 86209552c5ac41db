"""A rule citation a player reads names the rule in words, never a decision code (the event keeps it)."""

from __future__ import annotations

import random
import re

import pytest

import slipstream
from slipstream.cli.play import cite
from tests.playout import random_states

CODE = re.compile(r"[A-Z][A-Z0-9]{0,3}-[A-Z]?\d+")


@pytest.mark.parametrize(("rule", "shown"), [
    ("Main Enemy Moves (HH-A9)", "\u2014 Main Enemy Moves"),
    ("Racer abilities: Jackal (SR-A2, SR-A3)", "\u2014 Racer abilities: Jackal"),
    ("RIU-G13", ""),
    ("Setup 7)", "\u2014 Setup 7."),
])
def test_cite_drops_codes(rule: str, shown: str) -> None:
    assert cite(rule) == shown


@pytest.mark.parametrize("gid", sorted(slipstream.available_games()))
def test_no_code_in_event_text_or_citation(gid: str) -> None:
    game = slipstream.load(gid)
    for state in random_states(game.start(seed=1), random.Random(1)):
        for event in state.events:
            assert not CODE.search(event.text), event.text
            assert not CODE.search(cite(event.rule)), event.rule


def test_the_code_stays_in_the_events_data() -> None:
    """What the player reads drops the code; the event's rule keeps it for programs and the rules link."""
    coded = set()
    for gid in sorted(slipstream.available_games()):
        game = slipstream.load(gid)
        for state in random_states(game.start(seed=1), random.Random(1)):
            coded.update(event.rule for event in state.events if CODE.search(event.rule))
    assert coded, "no event of any game carried a decision code in its rule"


def test_the_page_gets_the_same_words_as_the_terminal() -> None:
    """The browser shows ``rule_words`` from the event's JSON: the terminal's citation, without its dash."""
    for rule in ("Main Enemy Moves (HH-A9)", "Setup 7)", "RIU-G13", "Racer abilities: Jackal (SR-A2, SR-A3)"):
        shown = slipstream.Event("note", "text", rule).to_json()
        assert shown["rule"] == rule
        assert shown["rule_words"] == cite(rule).removeprefix("\u2014 ")
