"""Helpers for Rush 'n' Crush scenarios: set up a position, force the rolls, make the choices."""

from __future__ import annotations

import json
import tempfile
import tomllib
from functools import cache
from pathlib import Path
from typing import Any, Final

import slipstream
from slipstream.engine.fields import replaced
from slipstream.games.rush_n_crush import rules
from slipstream.games.rush_n_crush.content import CONTENT_PATH, PIECES
from slipstream.games.rush_n_crush.state import RushState
from slipstream.games.rush_n_crush.types import Stage

PROPOSAL_NUMBERS: Final = {"dice": {"red_per_zone": [0, 1, 2, 3]},
                           "ram-mines": {"turbo": 4}}
"""The numbers of rules/rush-n-crush-content.md that the shipped content changed by measure (docs/rules/
rush-n-crush.md, Balance): no red die in blue, and Ram & Mines with 4 Turbo points."""


@cache
def proposal_content() -> str:
    """A content file: the shipped one with the content proposal's numbers (``PROPOSAL_NUMBERS``). The rule
    scenarios were written against them; they test the rules, which read every number from the content,
    so the balance of the shipped numbers can be tuned without rewriting them."""
    data = tomllib.loads(CONTENT_PATH.read_text())
    data["dice"].update(PROPOSAL_NUMBERS["dice"])
    for car in data["cars"]:
        car.update(PROPOSAL_NUMBERS.get(car["id"], {}))
    path = Path(tempfile.mkdtemp(prefix="rush-n-crush-")) / "proposal-content.json"
    path.write_text(json.dumps(data))
    return str(path)


def scenario_options(**options: Any) -> dict[str, Any]:
    """The options the rule scenarios were written for: the sprint (the course their squares name), every
    gear line, the content proposal's numbers; ``options`` override them."""
    return {"course": "sprint", "gear_lines": "full", "content": proposal_content(), **options}


def new(players: int = 2, **options: Any) -> RushState:
    """A race with the grid dealt (seat k on grid slot k+1), at the first car's gearstick decision, with
    ``scenario_options``."""
    state = slipstream.load("rush-n-crush", players=players, **scenario_options(**options)).start(seed=1)
    assert isinstance(state, RushState)
    for seat in range(players - 1):
        state = state.apply(f"grid:P{seat + 1}")
    assert state.stage is Stage.GEAR
    return state


def place(s: RushState, squares: dict[int, str], active: int = 0, order: tuple[int, ...] | None = None,
          **fields: Any) -> RushState:
    """A copy of ``s`` with cars moved to the named squares ("tile.lane.index"), ``active`` to play
    at its gearstick decision with a fresh turn, and any other fields set (test set-up only)."""
    s = s.copy()
    track = s.game.track
    for car, name in squares.items():
        s.square[car] = track.square_named(name)
    others = tuple(c for c in range(s.game.players) if c != active)
    s.order = order if order is not None else (active, *others)
    s.turn = s.order.index(active)
    s.stage = s.phase = Stage.GEAR
    rules.reset_turn(s, 2)
    for name, value in fields.items():
        setattr(s, name, value)
    s.destructions = max(s.destroyed)
    return s.copy()


def moving(s: RushState, node: str, lane_changes: int = -1, movement: int | None = None) -> RushState:
    """A copy of ``s`` with the active car at gearstick ``node``, its dice rolled, ready to step."""
    s = s.copy()
    car = s.order[s.turn]
    n = s.game.gear.node(node)
    s.node = replaced(s.node, car, n)
    s.movement = s.game.gear.speed[n] if movement is None else movement
    s.lane_changes = lane_changes
    s.stage = s.phase = Stage.MOVE
    return s.copy()


def armed(s: RushState, car: int, *pieces: str) -> RushState:
    """A copy of ``s`` with the car's pieces armed (armed on an earlier turn)."""
    s = s.copy()
    bits = s.armed[car]
    for p in pieces:
        bits |= 1 << PIECES.index(p)
    s.armed = replaced(s.armed, car, bits)
    return s.copy()


def play(s: RushState, *actions: str) -> RushState:
    for action in actions:
        s = s.apply(action)
    return s


def where(s: RushState, car: int) -> str:
    return s.game.track.name_of(s.square[car])


def outcomes(s: RushState) -> dict[str, float]:
    return dict(s.chance_outcomes())


__all__ = ["armed", "moving", "new", "outcomes", "place", "play", "proposal_content", "scenario_options",
           "where"]
