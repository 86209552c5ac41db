"""Rush 'n' Crush, what the car to play can plan on the board (the ``move_plans`` hook).

The engine offers one square per step (``ahead``, ``left``, ``right``); a player wants to point at the
square they mean to reach. ``move_plans`` works out, for the seat to play and from the rules
themselves, every square its car can reach with plain steps: each step is applied to a copy of the
position (``apply_unchecked`` on an action taken from ``legal_actions``) while the same seat keeps
moving and no chance node intervenes, so the board never re-implements a rule. A step that rams a car,
hits a fixed obstruction or swerves is not part of a plan (its outcome is a die's); the board offers it
as a single step. Before the movement, it gives the gear matrix (every node, its speed, zone and dice,
the white and dashed lines) and what each reachable node would cost (``rules.heat_odds``,
``rules.expected_lane_changes``).

Nothing here is hidden from anyone (every Rush 'n' Crush position is public), and the result goes
only to the seat to play, beside its hints (``slipstream.web.protocol.seat_payload``).
"""

from __future__ import annotations

from functools import cache
from typing import Any, Final

from slipstream.engine.game import JSON, State

from . import notation, rules
from .content import HIGHEST, UNLIMITED, Gear
from .state import RushState
from .types import Kind, Stage, Task

PLAIN_STEPS: Final = frozenset({"ahead", "left", "right"})
"""The steps a plan is made of (their ``+bumper``/``+saw``/``+mine`` variants are the board's to add)."""
FINISH_LINE: Final = "finish"
"""A plan's ``square`` when its last step crosses the finish line."""
MOVES: Final = {Kind.TURBO: "turbo", Kind.BRAKE: "brake-point", Kind.KEEP: "keep", Kind.DONE: "done"}


def move_plans(state: State, seat: int) -> dict[str, JSON] | None:
    """What ``seat`` can plan now, or None when it is not the seat to play.

    ``"stage"`` always; at the gearstick and the points the gear matrix (``"matrix"``, see
    ``gear_matrix``) and the ``"options"`` (see ``gear_options``); ``"paths"`` while moving (see
    ``paths``) and ``"steps"`` while moving or swerving (see ``single_steps``)."""
    if not isinstance(state, RushState) or state.actor != seat:
        return None
    out: dict[str, JSON] = {"stage": state.stage.name.lower()}
    if state.stage is Stage.GEAR or state.stage is Stage.POINTS:
        out["matrix"] = gear_matrix(state.game.gear, tuple(state.game.content.model.gear.speeds),
                                    state.game.content.model.dice.heat_on)
        out["options"] = gear_options(state, seat)
    elif state.stage is Stage.MOVE:
        out["paths"] = paths(state, seat)
        out["steps"] = single_steps(state, seat)
    elif state.stage is Stage.SWERVE:
        out["steps"] = single_steps(state, seat)
    return out


@cache
def gear_matrix(gear: Gear, speeds: tuple[int, ...], heat_on: int) -> dict[str, JSON]:
    """The gear matrix as data (rules/rush-n-crush-content.md section 1): ``nodes`` (``node``, ``gear``,
    ``zone``, ``speed``, ``row`` (its speed row, 0 the zero spot), ``red_dice``, ``white`` (``rule``:
    unlimited, none, highest or lowest, and ``dice``)), ``lines`` (the white lines, each ``[from, to]``
    upwards: accelerating follows one, braking one back), ``dashed`` (the dashed segments between
    neighbouring nodes of a row: a shift moves along them), ``zones`` and ``heat_on`` (a red die heats
    on 1 to this, +1 per Turbo point spent this turn)."""
    rows = list(speeds)
    nodes: list[JSON] = []
    for n, name in enumerate(gear.names):
        rule, dice = gear.steer[n]
        word = "unlimited" if rule == UNLIMITED else "none" if dice == 0 else (
            "highest" if rule == HIGHEST else "lowest")
        nodes.append({"node": name, "gear": gear.gear[n], "zone": gear.zone_names[gear.zone[n]] if n else None,
                      "speed": gear.speed[n], "row": rows.index(gear.speed[n]) if gear.speed[n] in rows else 0,
                      "red_dice": gear.red_dice[n], "white": {"rule": word, "dice": dice}})
    lines: list[JSON] = [[gear.names[n], gear.names[m]] for n in range(len(gear.names)) for m in gear.accelerate[n]]
    dashed: list[JSON] = []
    for n in range(1, len(gear.names)):
        right = [m for m in gear.shift[n] if gear.gear[m] > gear.gear[n]]
        if right:
            dashed.append([gear.names[n], gear.names[min(right, key=lambda m: gear.gear[m])]])
    return {"nodes": nodes, "lines": lines, "dashed": dashed, "zones": list(gear.zone_names), "heat_on": heat_on}


def _free_move(gear: Gear, node: int, to: int) -> str:
    """Which free gearstick action reaches ``to``: accelerate, brake or shift (Turn)."""
    if to in gear.accelerate[node]:
        return "accelerate"
    if to in gear.brake[node]:
        return "brake"
    return "shift"


def gear_options(state: RushState, seat: int) -> list[JSON]:
    """Each gearstick action open to the seat (Turn: the free action, then Turbo or Brake points): its
    ``action``, ``move`` (accelerate, brake, shift, keep; turbo, brake-point, done), the ``node`` it
    leaves the gearstick on, that node's ``speed``, ``zone`` and ``red_dice``, ``heat_on`` (a red die
    heats on 1 to this, with the Turbo points spent), ``heat`` (the chance of at least one heat) and
    ``lane_changes`` (expected from the white dice; None: unlimited)."""
    gear = state.game.gear
    node = state.node[seat]
    heat_on = state.game.content.model.dice.heat_on
    out: list[JSON] = []
    for action in state.legal_actions():
        move = notation.parse(action)
        if move.kind is Kind.GEAR:
            to, word, spent = gear.node(move.name), _free_move(gear, node, gear.node(move.name)), state.turbo_spent
        elif move.kind in MOVES:
            to, word = node if move.kind in (Kind.KEEP, Kind.DONE) else gear.node(move.name), MOVES[move.kind]
            spent = state.turbo_spent + (move.kind is Kind.TURBO)
        else:
            continue
        expected = rules.expected_lane_changes(gear, to)
        out.append({"action": action, "move": word, "node": gear.names[to], "speed": gear.speed[to],
                    "zone": gear.zone_names[gear.zone[to]] if to else None, "red_dice": gear.red_dice[to],
                    "heat_on": min(6, heat_on + spent), "heat": round(rules.heat_odds(state, seat, to, spent), 4),
                    "lane_changes": None if expected == float("inf") else round(expected, 2)})
    return out


def _ending(after: RushState, seat: int) -> tuple[str, str | None]:
    """What follows a plan's last step: ``move`` (the car goes on), ``roll`` (a die: which one), ``finish``
    (the race is won) or ``stop`` (the movement is over)."""
    if after.stage is Stage.OVER:
        return ("finish", None) if after.winner == seat else ("stop", None)
    if after.stage is Stage.ROLL:
        return "roll", Task(after.need[0]).name.lower()
    if after.stage is Stage.MOVE and after.actor == seat:
        return "move", None
    return "stop", None


def single_steps(state: RushState, seat: int) -> list[JSON]:
    """The plain steps open now that no plan holds, because a die or the rules decide where they end:
    each ``action``, the ``square`` it aims at, ``kind`` (``side-ram``: a diagonal step into a car,
    ``rush-n-crush``: straight into one, ``obstruction``: straight into a fixed obstruction, ``swerve``:
    a side of the compulsory lane change after one), ``car`` (the car rammed, else None) and
    ``variants`` (its legal ``+bumper``/``+saw``/``+mine`` actions)."""
    legal = state.legal_actions()
    square = state.square[seat]
    track = state.game.track
    out: list[JSON] = []
    for action in legal:
        move = notation.parse(action)
        if action in PLAIN_STEPS:
            target = rules.neighbour(state, square, move.number)
            after = state.apply_unchecked(action)
            if target < 0 or after.square[seat] == target:
                continue  # crossing the line or entering the square: a plan (``paths``)
            other = rules.car_at(state, target)
            kind = ("obstruction" if other < 0 else "rush-n-crush" if move.number == 0 else "side-ram")
        elif move.kind is Kind.SWERVE:
            target, other, kind = rules.neighbour(state, square, move.number), -1, "swerve"
        else:
            continue
        out.append({"action": action, "square": track.name_of(target), "kind": kind,
                    "car": other if other >= 0 else None,
                    "variants": [a for a in legal if a.startswith(action + "+")]})
    return out


def paths(state: RushState, seat: int) -> list[JSON]:
    """Every square the car can reach now with plain steps, each by its best path: the fewest lane
    changes, then the fewest steps. Each plan: ``square`` (its name, or "finish"), ``steps`` (the
    actions, in order), ``through`` (the square after each step), ``lane_changes`` (diagonal steps),
    ``dice`` and ``steering`` (the lane changes of the white dice and the Steering points they spend),
    ``movement_left``, ``mines`` (the step indices whose ``+mine`` variant is legal: a mine dropped on
    the square that step leaves), ``then`` and ``roll`` (see ``_ending``).

    A path follows the engine: every step is a legal action of the position it is applied to, and a
    step is kept only when the car entered the square it aimed at (not a ram, an obstruction hit or a
    swerve); the search goes on from a position only while the same seat is moving and no die waits."""
    track = state.game.track
    best: dict[str, tuple[tuple[int, int], dict[str, Any]]] = {}
    seen: set[tuple[int, int, int, int, int]] = set()
    frontier: list[tuple[RushState, tuple[str, ...], tuple[str, ...], tuple[int, ...], int]] = [(state, (), (), (), 0)]
    start_steering = state.steering[seat]
    while frontier:
        following: list[tuple[RushState, tuple[str, ...], tuple[str, ...], tuple[int, ...], int]] = []
        for here, steps, through, mines, diagonals in frontier:
            legal = here.legal_actions()
            square = here.square[seat]
            for action in legal:
                if action not in PLAIN_STEPS:
                    continue
                direction = notation.parse(action).number
                target = rules.neighbour(here, square, direction)
                after = here.apply_unchecked(action)
                finished = after.stage is Stage.OVER and after.winner == seat
                if not finished and (target < 0 or after.square[seat] != target or after.destroyed[seat]):
                    continue  # a ram, an obstruction hit or a swerve: a die or a choice decides
                name = FINISH_LINE if finished and target < 0 else track.name_of(target)
                plan_steps = (*steps, action)
                plan_mines = (*mines, len(steps)) if f"{action}+mine" in legal else mines
                turns = diagonals + (direction != 0)
                then, roll = _ending(after, seat)
                key = (turns, len(plan_steps))
                if name not in best or key < best[name][0]:
                    steering = start_steering - after.steering[seat]
                    best[name] = (key, {
                        "square": name, "steps": list(plan_steps), "through": [*through, name],
                        "lane_changes": turns, "dice": turns - steering, "steering": steering,
                        "movement_left": after.movement, "mines": list(plan_mines), "then": then, "roll": roll})
                state_key = (after.square[seat], after.lap[seat], after.movement, after.lane_changes,
                             after.steering[seat])
                if then == "move" and state_key not in seen:
                    seen.add(state_key)
                    following.append((after, plan_steps, (*through, name), plan_mines, turns))
        frontier = following
    return [plan for _, plan in sorted(best.values(), key=lambda item: (len(item[1]["steps"]), item[1]["square"]))]


__all__ = ["FINISH_LINE", "gear_matrix", "gear_options", "move_plans", "paths", "single_steps"]
