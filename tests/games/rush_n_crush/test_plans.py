"""The ``move_plans`` hook (plans.py): the moves a player plans on the board, worked out by the engine.

Movement: "A move into the square directly ahead of you uses one of your movement allowance. A move
diagonally forward uses one movement allowance and one lane change." A plan is a path of such steps to
a square, each step a legal action of the position it is applied to; the board sends them one after
the other. Turn: the gearstick's options, each with its speed, zone and red dice ("Roll red dice based
on your current colour zone ... Any 1-2 on red dice gives you a heat point").
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import slipstream
from slipstream.engine.game import State
from slipstream.engine.hooks import hooks_of
from slipstream.games.rush_n_crush import plans, rules
from slipstream.games.rush_n_crush.plans import FINISH_LINE, PLAIN_STEPS
from slipstream.games.rush_n_crush.state import RushState
from slipstream.games.rush_n_crush.types import Stage
from slipstream.web.protocol import seat_payload
from tests.playout import random_states

from .helpers import armed, moving, new, place

RACES = [(4, 11, {}), (3, 12, {"course": "ring"}),
         (5, 13, {"course": "grand-prix", "gear_lines": "upshift-at-high-revs"}), (2, 14, {"course": "oval"})]


def _race(players: int, seed: int, options: dict[str, Any]) -> list[State]:
    game = slipstream.load("rush-n-crush", players=players, **options)
    return random_states(game.start(seed=seed), random.Random(seed))


def _follow(state: RushState, seat: int, plan: dict[str, Any]) -> RushState:
    """Apply the plan's steps one by one, each legal where it is applied, with the same seat moving and
    no die between them; the position after the last step."""
    track = state.game.track
    for k, action in enumerate(plan["steps"]):
        assert state.actor == seat and state.stage is Stage.MOVE, (plan, k)
        assert action in state.legal_actions(), (plan, k)
        if k in plan["mines"]:
            assert f"{action}+mine" in state.legal_actions(), (plan, k)
        state = state.apply(action)
        if k < len(plan["steps"]) - 1:
            assert track.name_of(state.square[seat]) == plan["through"][k], (plan, k)
    return state


@pytest.mark.parametrize(("players", "seed", "options"), RACES)
def test_every_plan_is_legal_step_by_step_and_ends_on_its_square(players: int, seed: int,
                                                                options: dict[str, Any]) -> None:
    """In random races, every plan offered to the car to play: its steps are legal in turn, the car
    stands on the plan's square after the last (or has won across the finish line), and the plan says
    truly what follows (the move goes on, a die, the move is over) and what it spent."""
    checked = 0
    for state in _race(players, seed, options)[::3]:
        if not isinstance(state, RushState) or state.stage is not Stage.MOVE:
            continue
        seat = state.actor
        assert isinstance(seat, int)
        found = plans.move_plans(state, seat)
        assert found is not None
        for plan in found["paths"]:
            after = _follow(state, seat, plan)
            if plan["square"] == FINISH_LINE:
                assert after.stage is Stage.OVER and after.winner == seat
            else:
                assert after.game.track.name_of(after.square[seat]) == plan["square"] == plan["through"][-1]
            diagonals = sum(1 for a in plan["steps"] if a != "ahead")
            assert plan["lane_changes"] == diagonals == plan["dice"] + plan["steering"]
            assert plan["steering"] == state.steering[seat] - after.steering[seat]
            assert plan["movement_left"] == after.movement
            expected = ("finish" if after.stage is Stage.OVER and after.winner == seat
                        else "roll" if after.is_chance else "move" if after.stage is Stage.MOVE and after.actor == seat
                        else "stop")
            assert plan["then"] == expected, plan
            checked += 1
        for other in range(players):
            if other != seat:
                assert plans.move_plans(state, other) is None
    assert checked > 20


def _reachable(state: RushState, seat: int) -> dict[str, int]:
    """Every square the car enters by some sequence of plain steps with no die between, with the fewest
    lane changes: a brute-force walk over every sequence (the plans' search keeps the best only)."""
    best: dict[str, int] = {}

    def walk(here: RushState, turns: int) -> None:
        for action in here.legal_actions():
            if action not in PLAIN_STEPS:
                continue
            direction = -1 if action == "left" else 1 if action == "right" else 0
            target = rules.neighbour(here, here.square[seat], direction)
            after = here.apply(action)
            won = after.stage is Stage.OVER and after.winner == seat
            if not won and (target < 0 or after.square[seat] != target):
                continue
            name = FINISH_LINE if won and target < 0 else here.game.track.name_of(target)
            spent = turns + (direction != 0)
            best[name] = min(best.get(name, spent), spent)
            if after.stage is Stage.MOVE and after.actor == seat:
                walk(after, spent)

    walk(state, 0)
    return best


@pytest.mark.parametrize(("squares", "node", "lane_changes", "course"), [
    ({0: "0.1.3", 1: "0.2.7"}, "g1y", -1, "sprint"),       # unlimited lane changes, a car in the way
    ({0: "1.0.0", 1: "1.1.3"}, "g1y", 1, "sprint"),        # into the first curve, one lane change
    ({0: "3.3.4", 1: "4.1.1"}, "g2b", 2, "sprint"),        # towards the rocks of R5b
    ({0: "5.1.3", 1: "0.2.7"}, "g1y", -1, "sprint"),       # the finish line within reach
    ({0: "3.0.2", 1: "0.0.1"}, "g1y", 0, "ring"),          # no dice: Steering points only
])
def test_plans_reach_every_square_with_the_fewest_lane_changes(squares: dict[int, str], node: str,
                                                              lane_changes: int, course: str) -> None:
    """The plans hold every square a sequence of plain steps can enter (no ram, no obstruction hit, no die
    on the way), each with the fewest lane changes any sequence spends to get there."""
    state = moving(place(new(2, course=course), squares), node, lane_changes=lane_changes)
    found = {p["square"]: p for p in plans.paths(state, 0)}
    brute = _reachable(state, 0)
    assert set(found) == set(brute)
    assert {square: p["lane_changes"] for square, p in found.items()} == brute
    if course == "sprint" and squares[0] == "5.1.3":
        assert found[FINISH_LINE]["steps"] == ["ahead"] * 5 and found[FINISH_LINE]["then"] == "finish"


def test_a_plan_stops_at_a_die_and_drops_a_mine_where_the_rules_allow() -> None:
    """Movement: a wreck's or another car's mine's square rolls a die when entered (RC-G10): a plan ends
    there ("roll") and none goes through it. The Minelayer: "Whenever you leave a space, you may
    activate the Minelayer to drop one of your four red mine markers in that space": each step's
    ``+mine`` is offered where it is legal."""
    state = place(new(3), {2: "0.1.2", 0: "0.0.1", 1: "0.2.1"}, active=2, mines=((7, 1),))
    mine_square = state.game.track.name_of(7)
    state = moving(state, "g1y", lane_changes=-1)
    found = {p["square"]: p for p in plans.paths(state, 2)}
    assert found[mine_square]["then"] == "roll" and found[mine_square]["roll"] == "mine"
    assert all(mine_square not in p["through"][:-1] for p in found.values())
    assert state.dash[2].mines > 0, "P3 drives Armour & Mines"
    assert all(p["mines"] == list(range(len(p["steps"]))) for p in found.values() if p["square"] != mine_square)


def test_single_steps_a_die_decides() -> None:
    """Movement: "If you hit another racer diagonally from behind, this is a 'Side Ram'" (with the Side
    Bumper or the Saw Used by the step's variants); "directly from behind, ... a 'Rush 'n' Crush'"; a
    straight step into a fixed obstruction is a crash, then a compulsory lane change. None is a plan."""
    ram = moving(armed(place(new(3), {2: "0.2.3", 0: "0.1.4", 1: "0.0.1"}, active=2), 2, "circular-saw"), "g1y")
    steps = {s["action"]: s for s in plans.single_steps(ram, 2)}
    assert steps["left"] == {"action": "left", "square": "0.1.4", "kind": "side-ram", "car": 0,
                             "variants": ["left+mine", "left+saw", "left+saw+mine"]}
    assert "0.1.4" not in {p["square"] for p in plans.paths(ram, 2)}
    rush = moving(place(new(2), {0: "0.1.3", 1: "0.1.4"}), "g1y")
    assert [(s["action"], s["kind"], s["car"]) for s in plans.single_steps(rush, 0)] == [("ahead", "rush-n-crush", 1)]
    crash = moving(place(new(2), {0: "4.1.1", 1: "0.2.7"}), "g1y")
    assert [(s["action"], s["square"], s["kind"]) for s in plans.single_steps(crash, 0)] == [
        ("ahead", "4.1.2", "obstruction")]
    swerve = crash.apply("ahead")
    assert swerve.stage is Stage.SWERVE
    swerving = plans.move_plans(swerve, 0)
    assert swerving is not None and "paths" not in swerving
    assert {(s["action"], s["square"]) for s in swerving["steps"]} == {
        ("swerve-left", "4.0.2"), ("swerve-right", "4.2.2")}


def test_the_gear_options_are_the_legal_gearstick_actions_with_their_costs() -> None:
    """Turn: "accelerate (one step up or right-and-up along a white line), brake (one step down or
    down-and-left along a white line), or shift (as many spaces as you like left or right along a dashed
    line)"; then Turbo or Brake points. Each option is one legal action, with the speed, zone and red
    dice of the node it reaches and the odds of heat (+1 face per Turbo point spent)."""
    state = place(new(2), {0: "0.1.5", 1: "0.2.7"})
    gear = state.game.gear
    state = state.copy()
    state.node = (gear.node("g2y"), 0)
    found = plans.move_plans(state, 0)
    assert found is not None and found["stage"] == "gear" and "paths" not in found
    options = {o["action"]: o for o in found["options"]}
    gearstick = [a for a in state.legal_actions() if a.startswith("gear:") or a == "keep"]
    assert sorted(options) == sorted(gearstick)
    assert options["gear:g2o"]["move"] == "accelerate" and options["gear:g3y"]["move"] == "accelerate"
    assert options["gear:g2b"]["move"] == "brake" and options["gear:g1y"]["move"] == "brake"
    assert options["gear:g1o"]["move"] == "shift" and options["gear:g3b"]["move"] == "shift"
    assert options["keep"]["node"] == "g2y"
    g2o = options["gear:g2o"]
    assert (g2o["speed"], g2o["zone"], g2o["red_dice"], g2o["heat_on"]) == (8, "orange", 2, 2)
    assert g2o["heat"] == pytest.approx(1 - (4 / 6) ** 2, abs=1e-4)
    assert options["gear:g2b"]["lane_changes"] is None, "speed 5: unlimited lane changes"
    points = state.apply("gear:g2o")
    assert points.stage is Stage.POINTS
    offered = {o["action"]: o for o in (plans.move_plans(points, 0) or {})["options"]}
    assert sorted(offered) == sorted(a for a in points.legal_actions() if not a.startswith(("arm:", "use:")))
    assert offered["turbo:g2r"]["move"] == "turbo" and offered["turbo:g2r"]["heat_on"] == 3
    assert offered["brake:g2y"]["move"] == "brake-point" and offered["done"]["node"] == "g2o"


def test_the_gear_matrix_is_the_contents() -> None:
    """Content 1: 24 nodes and the zero spot, speed row g + c, 39 white lines, 15 dashed segments; with
    ``gear_lines = "upshift-at-high-revs"`` the blue and yellow diagonals go."""
    state = new(2)
    matrix = (plans.move_plans(state, state.actor) or {})["matrix"]
    assert len(matrix["nodes"]) == 25 and len(matrix["lines"]) == 39 and len(matrix["dashed"]) == 15
    g3y = next(n for n in matrix["nodes"] if n["node"] == "g3y")
    assert g3y == {"node": "g3y", "gear": 3, "zone": "yellow", "speed": 8, "row": 4, "red_dice": 1,
                   "white": {"rule": "highest", "dice": 2}}
    restricted = new(2, gear_lines="upshift-at-high-revs")
    lines = (plans.move_plans(restricted, restricted.actor) or {})["matrix"]["lines"]
    assert ["g1b", "g2b"] not in lines and ["g1o", "g2o"] in lines and len(lines) < 39
    assert state.stage is Stage.GEAR


def test_the_web_sends_the_plans_to_the_seat_to_play_only() -> None:
    """The hook is declared on the game; the server's state message carries its plans beside the
    hints of the seat asked to act, nothing for the others or a spectator, and never in the view."""
    state = moving(place(new(2), {0: "0.1.3", 1: "0.2.7"}), "g1y")
    assert hooks_of(state.game).move_plans is plans.move_plans
    mine = seat_payload(state, 0)
    assert mine["plans"] == json.loads(json.dumps(plans.move_plans(state, 0)))
    assert seat_payload(state, 1)["plans"] is None and seat_payload(state, None)["plans"] is None
    assert seat_payload(state, 0, live=False)["plans"] is None
    assert "plans" not in mine["view"] and "paths" not in json.dumps(mine["view"])
