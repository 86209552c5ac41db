"""Notation: every action string parses to a typed action and back to the same string."""

from __future__ import annotations

import random

import pytest

import slipstream
from slipstream.games.highway_heist import notation
from slipstream.games.highway_heist.notation import Verb
from tests.playout import random_states


@pytest.mark.parametrize("scenario", ["tank-assault", "semi-heist", "chopper-takedown"])
def test_every_action_of_random_games_round_trips(scenario: str) -> None:
    seen: set[str] = set()
    for seed in range(3):
        game = slipstream.load("highway-heist", players=3, scenario=scenario)
        for state in random_states(game.start(seed=seed), random.Random(seed)):
            seen.update(state.legal_actions())
    assert len(seen) > 100
    for action in seen:
        assert notation.text(notation.parse(action)) == action


def test_examples() -> None:
    assert notation.parse("drive:c5l3") == notation.Action(Verb.DRIVE, (5, 3))
    assert notation.parse("leap:wheel").space == notation.WHEEL
    assert notation.parse("2:assist") == notation.Action(Verb.ASSIST, seat=2)
    assert notation.parse("stunt:ta-s1a@c4l2") == notation.Action(Verb.STUNT, (4, 2), "ta-s1a")
    assert notation.parse("effort:2s1b0x").dice == (2, 1, 0)
    assert notation.parse("enemy-die:main_left").name == "main_left"
    for order in ("first:0", "first:enemy"):
        assert notation.text(notation.parse(order)) == order
    assert notation.first(-1) == "first:enemy" and notation.first(2) == "first:2"
    with pytest.raises(ValueError, match="not a space"):
        notation.parse_space("d5l3")
