"""Notation: every action string reads into a typed value and back; bad input changes nothing."""

from __future__ import annotations

import random

import pytest

import slipstream
from slipstream.engine.errors import IllegalActionError
from slipstream.games.rush_n_crush import notation
from slipstream.games.rush_n_crush.types import Direction, Kind, Move
from tests.playout import random_states

from .helpers import moving, new, place


def test_every_action_of_random_races_round_trips() -> None:
    seen: set[str] = set()
    for seed, course in enumerate(("sprint", "ring", "grand-prix")):
        game = slipstream.load("rush-n-crush", players=4, course=course)
        for state in random_states(game.start(seed=seed), random.Random(seed)):
            seen.update(state.legal_actions())
    for action in seen:
        assert notation.write(notation.parse(action)) == action
    assert {"ahead", "left+mine", "keep", "done", "end"} <= seen


@pytest.mark.parametrize(("action", "move"), [
    ("right+bumper+saw+mine", Move(Kind.STEP, int(Direction.RIGHT), bumper=True, saw=True, mine=True)),
    ("die:6", Move(Kind.DIE, 6)),
    ("gear:g3y", Move(Kind.GEAR, name="g3y")),
    ("grid:P6", Move(Kind.GRID, 5)),
    ("boost:2+mine", Move(Kind.BOOST, 2, mine=True)),
    ("boost:3+mine@2", Move(Kind.BOOST, 3, mine=True, mine_square=2)),
    ("swerve-left", Move(Kind.SWERVE, int(Direction.LEFT))),
    ("swerve-right+mine", Move(Kind.SWERVE, int(Direction.RIGHT), mine=True)),
])
def test_parse(action: str, move: Move) -> None:
    assert notation.parse(action) == move


@pytest.mark.parametrize("action", ["", "forward", "ahead+turbo", "ahead+mine+mine", "rnc:1", "die:x",
                                    "keep+mine", "grid:3", "swerve-ahead", "swerve-left+bumper",
                                    "boost:2+mine@1", "boost:2+mine@3", "boost:3+mine@x", "ahead+mine@2",
                                    "boost:3@2", "boost:3+mine@2+mine"])
def test_strings_of_no_known_shape(action: str) -> None:
    with pytest.raises(IllegalActionError):
        notation.parse(action)


@pytest.mark.parametrize("action", ["left", "ahead+mine", "right+bumper", "use:machine-gun", "boost:1",
                                    "gear:g6r", "forward", "die:4"])
def test_an_illegal_step_changes_nothing(action: str) -> None:
    """Bad input gets a clear error naming the input and the legal actions; the state is unchanged."""
    s = moving(place(new(), {0: "2.1.1", 1: "0.3.7"}), "g1r", lane_changes=2)
    before = (s.view(0), s.legal_actions(), list(s.square), s.ply)
    with pytest.raises(IllegalActionError, match="legal actions: ahead"):
        s.apply(action)
    assert (s.view(0), s.legal_actions(), list(s.square), s.ply) == before
