"""A heuristic Rush 'n' Crush bot: it plans each move square by square round obstructions, wrecks,
mines and cars, picks the speed whose move plans best after the heat risk, fires its guns whenever
they bear, and boosts when the way ahead is clear."""

from __future__ import annotations

import random
from functools import cache
from math import comb
from typing import Final

from slipstream.engine.game import State

from . import notation, rules
from .content import FINISH, HIGHEST, LOWEST, UNLIMITED
from .metrics import finish_key
from .notation import Direction, Kind
from .state import AFTER, GEAR, MOVE, POINTS, SWERVE, RushState

WIN: Final = 1000.0
"""The value of crossing the finish line (in ranks of progress)."""
DEATH: Final = 300.0
"""The cost of becoming a wreck."""
DAMAGE: Final = 4.0
"""The cost of one Structure point lost, in ranks."""
HEAT: Final = 2.0
"""The cost of one Heat point, in ranks (more as the car nears its skull)."""
STEERING: Final = 1.5
"""The cost of spending a Steering point (they never come back)."""
POINT: Final = 0.3
"""The cost of spending a Turbo or Brake point."""
BLOCKED_AHEAD: Final = 2.0
"""Ending a move with an obstruction or a wreck in the next two squares of the lane."""
RAM: Final = 3.0
"""The cost of a Side Ram in a plan (its die may hurt the rammer; the bot would rather steer round)."""
ARM_ORDER: Final = ("machine-gun", "flamer", "rocket-booster", "fire-extinguisher", "side-bumper", "circular-saw")
"""The pieces the bot arms first."""


@cache
def _kept_values(rule: int, dice: int) -> list[tuple[int, float]]:
    """(value, probability) of the highest or lowest of ``dice`` d6."""
    table = rules.kept_die_table("v", rule, dice)
    return [(int(a.split(":")[1]), p) for a, p in table.outcomes]


class Planner:
    """The best way through one move: a search over single steps with the other cars standing still."""

    def __init__(self, s: RushState, car: int) -> None:
        self.s = s
        self.car = car
        self.track = s.g.track
        self.cars = {s.square[c]: c for c in rules.running(s) if c != car}
        self.wrecks = {s.square[c] for c in range(s.g.players) if s.destroyed[c]}
        self.mines = {sq for sq, owner in s.mines if owner != car}
        self.structure = s.structure[car]
        self.memo: dict[tuple[int, int, int, int, int], tuple[float, int]] = {}

    def gain(self, here: int, there: int) -> float:
        track = self.track
        d = track.start[there] + track.end[there] - track.start[here] - track.end[here]
        return (d + 2 * track.lap_ranks if d < 0 else d) / 2

    def finishes(self, here: int, there: int, lap: int) -> bool:
        track = self.track
        if not track.closed:
            return False
        lap += track.end[there] <= track.end[here]
        return track.start[there] + lap * track.lap_ranks >= track.line_rank + track.laps * track.lap_ranks

    def hazard(self, square: int) -> float:
        """Expected cost of entering ``square``: a wreck or another car's mine hurts on 1-3."""
        rolls = (square in self.wrecks) + (square in self.mines)
        if not rolls:
            return 0.0
        return rolls * 0.5 * DAMAGE + (0.5 * DEATH if self.structure <= 1 else 0.0)

    def crash(self, node: int) -> float:
        """Expected cost of hitting a fixed obstruction at the node's speed (the inverted white roll)."""
        rule, dice = self.s.g.gear.steer[node]
        if rule == UNLIMITED:
            values = [(1, 1.0)]
        elif dice == 0:
            values = [(6, 1.0)]
        else:
            values = _kept_values(LOWEST if rule == HIGHEST else HIGHEST, dice)
        return sum(p * (v * DAMAGE + (DEATH if v >= self.structure else 0.0)) for v, p in values)

    def after(self, square: int) -> float:
        """Ending the move here: a penalty for an obstruction or wreck straight ahead."""
        sq = square
        for _ in range(2):
            sq = self.track.ahead[sq]
            if sq < 0:
                return 0.0
            if self.track.obstruction[sq] or sq in self.wrecks:
                return -BLOCKED_AHEAD
        return 0.0

    def best(self, square: int, lap: int, moves: int, changes: int, steering: int,
             node: int) -> tuple[float, int]:
        """(value, first direction) of the best way to spend ``moves`` steps with ``changes`` lane
        changes (-1: unlimited) and ``steering`` Steering points; direction 9 when nothing moves."""
        if moves <= 0:
            return (self.after(square), 9)
        if changes >= moves:
            changes = -1
        if changes < 0:
            steering = 0
        key = (square, lap, moves, changes, steering)
        found = self.memo.get(key)
        if found is not None:
            return found
        track = self.track
        out = (-1e9, 9)
        for direction in (Direction.AHEAD, Direction.LEFT, Direction.RIGHT):
            target = rules.neighbour(self.s, square, direction)
            if direction == Direction.AHEAD:
                if target == FINISH:
                    value = WIN
                elif track.obstruction[target]:
                    value = -self.crash(node)
                elif target in self.cars:
                    value = self.rush(moves)
                elif self.finishes(square, target, lap):
                    value = WIN
                else:
                    value = self.gain(square, target) - self.hazard(target) + self.best(
                        target, lap + (track.end[target] <= track.end[square]), moves - 1, changes, steering, node)[0]
            else:
                if target < 0 or track.obstruction[target] or (changes == 0 and steering == 0):
                    continue
                left, steer, cost = changes, steering, 0.0
                if changes > 0:
                    left -= 1
                elif changes == 0:
                    steer -= 1
                    cost = STEERING
                if target in self.cars:
                    value = -RAM + self.gain(square, target) - cost
                elif self.finishes(square, target, lap):
                    value = WIN
                else:
                    value = self.gain(square, target) - self.hazard(target) - cost + self.best(
                        target, lap + (track.end[target] <= track.end[square]), moves - 1, left, steer, node)[0]
            if value > out[0]:
                out = (value, int(direction))
        self.memo[key] = out
        return out

    def rush(self, moves: int) -> float:
        """A Rush 'n' Crush ends the move: ``moves`` dice; each 1-2 hurts both cars, each 3 (3-4 with the
        Combat Bumper) the target only. Damage to a rival is worth half what the bot's own costs."""
        bumper = self.s.dash[self.car].combat_bumper
        own = moves / 3
        theirs = moves * (2 if bumper else 1) / 6 + own
        death = DEATH if own >= self.structure - 0.5 else 0.0
        return -own * DAMAGE + 0.5 * theirs * DAMAGE - death

    def move(self, moves: int, changes: int, node: int) -> tuple[float, int]:
        s = self.s
        steering = min(s.steering[self.car], 2)
        return self.best(s.square[self.car], s.lap[self.car], moves, changes, steering, node)


def heat_cost(s: RushState, car: int, node: int, turbo_spent: int) -> float:
    """Expected cost of the red dice at ``node``: the heat, and becoming a wreck at the skull."""
    dice = s.g.gear.red_dice[node]
    if not dice:
        return 0.0
    p = min(6, s.g.content.model.dice.heat_on + turbo_spent) / 6
    cap = s.dash[car].heat_capacity
    room = cap - s.heat[car]
    weight = HEAT * (1 + 2 * s.heat[car] / cap)
    death = sum(comb(dice, k) * p ** k * (1 - p) ** (dice - k) for k in range(room + 1, dice + 1))
    return dice * p * weight + death * DEATH


def speed_value(s: RushState, car: int, node: int, turbo_spent: int) -> float:
    """How good a move at ``node`` looks: the plan's value over the white dice, less the heat."""
    rule, dice = s.g.gear.steer[node]
    speed = s.g.gear.speed[node]
    planner = Planner(s, car)
    if rule == UNLIMITED:
        outcomes = [(-1, 1.0)]
    elif dice == 0:
        outcomes = [(0, 1.0)]
    else:
        outcomes = _kept_values(rule, dice)
    value = sum(p * planner.move(speed, min(changes, speed), node)[0] for changes, p in outcomes)
    return value - heat_cost(s, car, node, turbo_spent)


class HeuristicBot:
    """Plans its move square by square (round obstructions, wrecks, mines and cars), chooses the speed
    whose plan is worth most after the heat risk, arms its pieces early, fires the Machine Gun and the
    Flamer whenever they bear, cools down near the skull, and fires the Rocket Booster into a clear lane."""

    name = "heuristic"

    def __init__(self, seed: int = 0, point_cost: float = POINT) -> None:
        self.rng = random.Random(seed)
        self.point_cost = point_cost

    def choose(self, state: State, seat: int) -> str:
        legal = state.legal_actions()
        if len(legal) == 1 or not isinstance(state, RushState):
            return legal[0] if len(legal) == 1 else self.rng.choice(legal)
        choice = self._choose(state, seat, legal)
        return choice if choice in legal else self.rng.choice(legal)

    def _choose(self, s: RushState, car: int, legal: list[str]) -> str:
        if s.stage is AFTER:
            boost = self._boost(s, car, legal)
            if boost != notation.END:
                return boost
        equipment = self._equipment(s, car, legal)
        if equipment:
            return equipment
        stage = s.stage
        if stage is GEAR or stage is POINTS:
            return self._speed(s, car, legal)
        if stage is MOVE:
            return self._step(s, car, legal)
        if stage is SWERVE:
            return self._swerve(s, car, legal)
        return notation.END if stage is AFTER else self.rng.choice(legal)

    def _equipment(self, s: RushState, car: int, legal: list[str]) -> str:
        """Fire a gun that bears; cool down near the skull; arm a piece while keeping an Activation."""
        opts = set(legal)
        for piece in ("machine-gun", "flamer"):
            if notation.use(piece) in opts:
                return notation.use(piece)
        cap = s.dash[car].heat_capacity
        if notation.use("fire-extinguisher") in opts and s.heat[car] >= cap - 3:
            return notation.use("fire-extinguisher")
        if s.activations >= 2 or s.stage is AFTER:
            for piece in ARM_ORDER:
                if notation.arm(piece) in opts and (piece != "fire-extinguisher" or s.heat[car] > 0):
                    return notation.arm(piece)
        return ""

    def _speed(self, s: RushState, car: int, legal: list[str]) -> str:
        """The gearstick or a point: the node whose move is worth most (``speed_value``)."""
        gear = s.g.gear
        best, score = legal[0], -1e18
        for action in legal:
            move = notation.parse(action)
            if move.kind in (Kind.KEEP, Kind.DONE):
                node, turbo, cost = s.node[car], s.turbo_spent, 0.0
            elif move.kind is Kind.GEAR:
                node, turbo, cost = gear.node(move.name), s.turbo_spent, 0.0
            elif move.kind in (Kind.TURBO, Kind.BRAKE):
                node, cost = gear.node(move.name), self._point_cost(s, car)
                turbo = s.turbo_spent + (move.kind is Kind.TURBO)
            else:
                continue
            value = speed_value(s, car, node, turbo) - cost
            if value > score:
                best, score = action, value
        return best

    def _point_cost(self, s: RushState, car: int) -> float:
        """A Turbo or Brake point is worth less as the line nears (a point left at the end is wasted)
        and half as much to a car behind the leader (it has to catch up)."""
        left = max(0.0, 1 - rules.progress(s, car) / finish_key(s))
        behind = any(rules.progress(s, c) > rules.progress(s, car) for c in rules.running(s))
        return self.point_cost * left * (0.5 if behind else 1.0)

    def _step(self, s: RushState, car: int, legal: list[str]) -> str:
        planner = Planner(s, car)
        _, direction = planner.move(s.movement, s.lane_changes, s.node[car])
        if direction == 9:
            direction = 0
        step = notation.step(Direction(direction))
        dropped = notation.step(Direction(direction), mine=True)
        if dropped in legal and self._someone_behind(s, car):
            return dropped
        bumper = notation.step(Direction(direction), bumper=True)
        return bumper if bumper in legal else step

    @staticmethod
    def _someone_behind(s: RushState, car: int) -> bool:
        here = rules.progress(s, car)
        return any(rules.progress(s, c) < here for c in rules.running(s) if c != car)

    def _swerve(self, s: RushState, car: int, legal: list[str]) -> str:
        planner = Planner(s, car)
        best, score = legal[0], -1e18
        for action in legal:
            target = rules.neighbour(s, s.square[car], notation.parse(action).number)
            value = -planner.hazard(target) + planner.after(target)
            if value > score:
                best, score = action, value
        return best

    def _boost(self, s: RushState, car: int, legal: list[str]) -> str:
        """Fire the Rocket Booster for the clear squares straight ahead (all of them if one crosses the
        line) while the heat allows; else end the turn."""
        boosts = [a for a in legal if a.startswith("boost:") and "+" not in a]
        if not boosts:
            return notation.END
        track = s.g.track
        sq = s.square[car]
        clear = 0
        for _ in range(rules.MAX_BOOST):
            sq = track.ahead[sq]
            if sq == FINISH:
                return notation.boost(rules.MAX_BOOST)
            if sq < 0 or track.obstruction[sq] or rules.car_at(s, sq) >= 0 or rules.wreck_at(s, sq):
                break
            clear += 1
        room = s.dash[car].heat_capacity - s.heat[car]
        clear = min(clear, room - 2)
        return notation.boost(clear) if clear >= 1 else notation.END
