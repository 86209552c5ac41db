"""A rule citation a player reads names the rule in words, never a decision code (the event keeps it)."""

from __future__ import annotations

import random
import re

import pytest

import slipstream
from slipstream.cli.play import cite
from tests.playout import random_states

CODE = re.compile(r"[A-Z]{1,4}-[A-Z]?\d+")


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
    coded = 0
    for state in random_states(game.start(seed=1), random.Random(1)):
        for event in state.events:
            assert not CODE.search(event.text), event.text
            assert not CODE.search(cite(event.rule)), event.rule
            coded += bool(CODE.search(event.rule))
    assert coded >= 0  # the code itself stays in the event's data for programs
