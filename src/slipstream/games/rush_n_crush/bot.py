"""A heuristic Rush 'n' Crush bot: it plans each move square by square round obstructions, wrecks,
mines and cars, and into a car when a Side Ram or a Rush 'n' Crush pays; picks the speed whose move
plans best after the heat risk (a car behind takes more of it, the leader less), fires its guns whenever
they bear, and boosts when it pays.

What hurting a rival is worth (``Rivals``): destroying it now (the race itself when it is the last
rival), raising the chance that it is destroyed before the line (a Poisson estimate of the damage it
will still take), and a little for each point besides, all weighted by its chance of winning (the
leader most). Passing a car that has already moved this round puts the bot ahead of it in the next
round's order, which decides the race once that car can reach the line.
"""

from __future__ import annotations

import random
from functools import cache
from math import comb, exp
from typing import Final

from slipstream.engine.estimate import win_chances
from slipstream.engine.game import State

from . import notation, rules
from .content import CIRCULAR_SAW, HIGHEST, LOWEST, SIDE_BUMPER, UNLIMITED
from .course import FINISH, Track
from .metrics import SPREAD_TURNS, finish_key, turns_needed
from .state import RushState
from .types import Direction, Kind, Stage

WIN: Final = 1000.0
"""The value of crossing the finish line (in ranks of progress)."""
DEATH: Final = 300.0
"""The cost of becoming a wreck."""
DAMAGE: Final = 4.0
"""The cost of one Structure point lost, in ranks."""
HEAT: Final = 1.0
"""The cost of one Heat point, in ranks (more as the car nears its skull). At 2 the bot, weighing the
Rocket Booster's heat dice, kept the booster rather than risk a heat point for three squares, and won
31% of two-car grand prix against the bot that always boosted (53% at 1)."""
STEERING: Final = 1.5
"""The cost of spending a Steering point (they never come back)."""
POINT: Final = 0.3
"""The cost of spending a Turbo or Brake point."""
BLOCKED_AHEAD: Final = 2.0
"""Ending a move with an obstruction or a wreck in the next two squares of the lane."""
RACE: Final = 60.0
"""What a rival's whole chance of winning is worth, in ranks, when weighing its destruction (about the
length of the sprint course)."""
WRECK: Final = 5.0
"""Destroying a rival besides its chance of winning (a wreck can no longer shoot, ram or block)."""
HURT: Final = 1.0
"""A Structure point dealt to a rival of average weight, besides the destruction it brings nearer (a
damaged car drives more carefully). At 2 the second car rammed the leader's back at the end of its
first move and lost its place: the first to play won all 200 four-car sprints (84% at 1)."""
DAMAGE_PER_TURN: Final = 0.3
"""The Structure a car is expected to lose each turn it still has to drive (for the chance that a
rival's damage destroys it before the line)."""
PACE: Final = 15.0
"""Ranks a car covers in a turn, on average over a race (for the turns it still has to drive; the
position value's former 5, fitted for win chances, made a whole car's destruction look likely)."""
RAM_DAMAGE: Final = 3.0
"""The cost of one Structure point a ram costs the bot itself, besides the destruction it brings nearer."""
ACTIVATION: Final = 0.3
"""The cost of Using the Side Bumper or the Saw in a ram (an Activation, and a piece to re-arm)."""
REACH: Final = 21
"""Ranks a car can cover in one turn, about (speed 18 and the Rocket Booster's 3 squares)."""
PASS_LATE: Final = 30.0
"""Passing a car that has moved this round and can reach the line on its next turn: the bot then plays
before it in the round that may end the race."""
PASS_SOON: Final = 4.0
"""Passing such a car that needs two turns to the line."""
PASS: Final = 1.0
"""Passing such a car earlier in the race."""
HEAT_LEADING: Final = 1.5
"""The weight of the heat risk (``heat_dice_cost``) for the car in the lead, once the race is under way
(``HEAT_RACE_FROM``): it keeps its heat for the rest of the race."""
HEAT_TRAILING: Final = 0.5
"""The weight of the heat risk for the last car, once the race is under way: it has to gamble to catch up.
A car between weighs it by the cars ahead of it, in even steps."""
HEAT_RACE_FROM: Final = 0.3
"""The share of the course a car has covered from which it weighs the heat risk by its place (after about
two of a race's six rounds); before that every car weighs it 1 (heat is a budget for the whole race).
Measured with the default options, 400 races a row (docs/rules/rush-n-crush.md, Balance): the first to
play won 29.5% of four-car races and 56.5% of two-car races, the lead changing 2.3 and 1.8 times a race;
weighed by place from the start, 24.2% and 75.5% (the car first ahead gambles less all race); from half
distance, 27.0% and 52.2%, with 14 of the 400 four-car races over in five rounds (3 here); weighed 1
throughout, 27.5% and 48.8% with fewer lead changes (1.75 and 1.35)."""
KEEP_BOOSTER: Final = 1.0
"""Keeping the Rocket Booster armed for a later turn rather than Using it now (a Use must be re-armed)."""
ARM_ORDER: Final = ("machine-gun", "flamer", "rocket-booster", "side-bumper", "circular-saw", "fire-extinguisher")
"""The pieces the bot arms first."""


@cache
def _kept_values(rule: int, dice: int) -> list[tuple[int, float]]:
    """(value, probability) of the highest or lowest of ``dice`` d6."""
    table = rules.kept_die_table("v", rule, dice)
    return [(int(a.split(":")[1]), p) for a, p in table.outcomes]


@cache
def rush_outcomes(dice: int, combat_bumper: bool) -> tuple[tuple[int, int, float], ...]:
    """Movement: Rush 'n' Crush, "roll a die for each point of movement allowance remaining. For each 1-2,
    both vehicles take a structure point; on a 3 (3-4 if you have Combat Bumper) only the target takes
    one": ``(rammer's damage, target's damage, probability)`` over the ``dice``."""
    both, only = 2 / 6, (2 if combat_bumper else 1) / 6
    none = 1 - both - only
    out: dict[tuple[int, int], float] = {}
    for b in range(dice + 1):
        for o in range(dice - b + 1):
            p = comb(dice, b) * comb(dice - b, o) * both ** b * only ** o * none ** (dice - b - o)
            out[(b, b + o)] = out.get((b, b + o), 0.0) + p
    return tuple((own, target, p) for (own, target), p in out.items())


def destroyed_later(structure: int, expected: float) -> float:
    """The chance that a car with ``structure`` left takes that much damage before the line, when it
    expects ``expected`` more (Poisson)."""
    if structure <= 0:
        return 1.0
    term = total = exp(-expected)
    for k in range(1, structure):
        term *= expected / k
        total += term
    return max(0.0, 1.0 - total)


class Rivals:
    """What each other car is worth to hurt, destroy or pass, seen from ``car``: worked out once a
    decision from the cars' estimated chances of winning (``metrics.turns_needed``)."""

    def __init__(self, state: RushState, car: int) -> None:
        n = state.game.players
        cars = rules.running(state)
        need = [turns_needed(state, c) for c in cars]
        chances = win_chances(need, SPREAD_TURNS * max(1.0, min(need)) ** 0.5)
        last = len(cars) == 2
        self.structure = state.structure
        self.kill = [0.0] * n
        """The value of destroying the car now."""
        self.later = [0.0] * n
        """The value of making its destruction before the line certain."""
        self.point = [0.0] * n
        """The value of one Structure point dealt to it, besides its destruction."""
        self.expected = [0.0] * n
        """The Structure it is expected to lose before the line."""
        self.heat_weight = 1.0
        """How much the heat risk counts for ``car``: ``HEAT_LEADING`` in the lead, ``HEAT_TRAILING`` last."""
        self.passing: list[tuple[int, float]] = []
        """(progress key, bonus) of each car ahead that has moved this round: ending the move beyond it."""
        mine = rules.progress(state, car)
        key = finish_key(state)
        moved = state.order[:state.turn] if state.order and state.order[state.turn] == car else ()
        for c, chance in zip(cars, chances, strict=True):
            self.expected[c] = DAMAGE_PER_TURN * (key - rules.progress(state, c)) / 2 / PACE
            if c == car:
                if mine > HEAT_RACE_FROM * key:
                    ahead = sum(1 for d in cars if rules.progress(state, d) > mine)
                    self.heat_weight = HEAT_LEADING - (HEAT_LEADING - HEAT_TRAILING) * ahead / max(1, len(cars) - 1)
                continue
            weight = min(3.0, max(0.2, chance * n))
            self.kill[c] = WIN if last else RACE * chance + WRECK
            self.later[c] = RACE * (1.0 if last else chance) + WRECK
            self.point[c] = HURT * weight
            here = rules.progress(state, c)
            if c in moved and (here > mine or (here == mine and state.stamp[c] < state.stamp[car])):
                left = (key - here) / 2
                bonus = PASS_LATE if left <= REACH else PASS_SOON if left <= 2 * REACH else PASS
                self.passing.append((here, bonus))

    def dealt(self, target: int, damage: int) -> float:
        """The value of ``damage`` Structure points dealt to ``target``."""
        if damage <= 0 or target < 0:
            return 0.0
        left = self.structure[target]
        if damage >= left:
            return self.kill[target]
        expected = self.expected[target]
        later = destroyed_later(left - damage, expected) - destroyed_later(left, expected)
        return damage * self.point[target] + later * self.later[target]


_TWICE: dict[int, tuple[Track, tuple[int, ...]]] = {}
"""Per track (by id, the track kept alive with it): each square's ``start + end``, twice its centre rank."""


def twice_centres(track: Track) -> tuple[int, ...]:
    found = _TWICE.get(id(track))
    if found is None or found[0] is not track:
        found = _TWICE[id(track)] = (track, tuple(a + b for a, b in zip(track.start, track.end, strict=True)))
    return found[1]


class Planner:
    """The best way through one move: a search over single steps with the other cars standing still."""

    def __init__(self, state: RushState, car: int, rivals: Rivals | None = None) -> None:
        self.state = state
        self.car = car
        self.rivals = rivals or Rivals(state, car)
        track = self.track = state.game.track
        self.twice = twice_centres(track)
        self.lap_twice = 2 * track.lap_ranks
        self.cars = {state.square[c]: c for c in rules.running(state) if c != car}
        self.wrecks = {state.square[c] for c in range(state.game.players) if state.destroyed[c]}
        self.mines = {sq for sq, owner in state.mines if owner != car}
        self.structure = state.structure[car]
        self.memo: dict[tuple[int, int, int, int, int], tuple[float, int]] = {}
        self.rush_memo: dict[tuple[int, int], float] = {}
        self.crash_memo: dict[int, float] = {}
        quota = state.game.options["rush_attacks"]
        self.rush_rolls = not ((quota == rules.ONCE_PER_ROUND and bool(state.rnc_rolled))
                               or (quota == rules.ONCE_PER_CAR and car in state.rnc_rolled))
        """RC-G12: whether a Rush 'n' Crush this turn would roll its dice (``rush_attacks``)."""
        bumper = rules.can_use(state, car, SIDE_BUMPER)
        saw = rules.can_use(state, car, CIRCULAR_SAW)
        self.tools = [(0, 0)] + [(1, 0)] * bumper + [(0, 1)] * saw + [(1, 1)] * (
            bumper and saw and state.activations >= 2)
        """The Side Bumper and Saw combinations a Side Ram could Use (as they stand now)."""

    def gain(self, here: int, there: int) -> float:
        d = self.twice[there] - self.twice[here]
        return (d + self.lap_twice if d < 0 else d) / 2

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

    def hurt(self, damage: int) -> float:
        """The cost of ``damage`` a ram does to the bot itself: the points, and its destruction, now or
        (more likely) before the line."""
        if damage <= 0:
            return 0.0
        left = self.structure
        if damage >= left:
            return damage * RAM_DAMAGE + DEATH
        expected = self.rivals.expected[self.car]
        later = destroyed_later(left - damage, expected) - destroyed_later(left, expected)
        return damage * RAM_DAMAGE + later * DEATH

    def crash(self, node: int) -> float:
        """Expected cost of hitting a fixed obstruction at the node's speed (the inverted white roll)."""
        found = self.crash_memo.get(node)
        if found is not None:
            return found
        rule, dice = self.state.game.gear.steer[node]
        if rule == UNLIMITED:
            values = [(1, 1.0)]
        elif dice == 0:
            values = [(6, 1.0)]
        else:
            values = _kept_values(LOWEST if rule == HIGHEST else HIGHEST, dice)
        cost = self.crash_memo[node] = sum(p * (v * DAMAGE + (DEATH if v >= self.structure else 0.0))
                                           for v, p in values)
        return cost

    def after(self, square: int, lap: int) -> float:
        """Ending the move here: a penalty for an obstruction or wreck straight ahead, a bonus for each car
        passed that has moved this round (``Rivals.passing``)."""
        track = self.track
        value = 0.0
        if self.rivals.passing:
            here = self.twice[square] + self.lap_twice * lap
            value = sum(bonus for there, bonus in self.rivals.passing if here > there)
        sq = square
        for _ in range(2):
            sq = track.ahead[sq]
            if sq < 0:
                return value
            if track.obstruction[sq] or sq in self.wrecks:
                return value - BLOCKED_AHEAD
        return value

    def best(self, square: int, lap: int, moves: int, changes: int, steering: int,
             node: int) -> tuple[float, int]:
        """(value, first direction) of the best way to spend ``moves`` steps with ``changes`` lane
        changes (-1: unlimited) and ``steering`` Steering points; direction 9 when nothing moves."""
        if moves <= 0:
            return (self.after(square, lap), 9)
        if changes >= moves:
            changes = -1
        if changes < 0:
            steering = 0
        key = (square, lap, moves, changes, steering)
        found = self.memo.get(key)
        if found is not None:
            return found
        track = self.track
        obstruction = track.obstruction
        cars = self.cars
        end = track.end
        closed = track.closed
        # Straight ahead.
        target = track.ahead[square]
        if target == FINISH:
            straight = WIN
        elif obstruction[target]:
            straight = -self.crash(node)
        elif target in cars:
            straight = self.rush(cars[target], moves) + self.after(square, lap)
        elif closed and self.finishes(square, target, lap):
            straight = WIN
        else:
            straight = self.gain(square, target) - self.hazard(target) + self.best(
                target, lap + (end[target] <= end[square]), moves - 1, changes, steering, node)[0]
        out = (straight, int(Direction.AHEAD))
        if changes or steering:
            left, steer, cost = changes, steering, 0.0
            if changes > 0:
                left -= 1
            elif changes == 0:
                steer -= 1
                cost = STEERING
            for direction, target in ((-1, track.ahead_left[square]), (1, track.ahead_right[square])):
                if target < 0 or obstruction[target]:
                    continue
                if target in cars:
                    value = self.side_ram(square, lap, moves, left, steer, node, direction, straight)[0] - cost
                elif closed and self.finishes(square, target, lap):
                    value = WIN
                else:
                    value = self.gain(square, target) - self.hazard(target) - cost + self.best(
                        target, lap + (end[target] <= end[square]), moves - 1, left, steer, node)[0]
                if value > out[0]:
                    out = (value, direction)
        self.memo[key] = out
        return out

    def side_ram(self, square: int, lap: int, moves: int, left: int, steer: int, node: int, direction: int,
                 straight: float) -> tuple[float, int, int]:
        """(value, bumper, saw) of the best Side Ram from ``square`` (Movement: Side Ram, RC-G8): one die
        (+1 with the Side Bumper) decides; on a displacement the bot takes the target's square with
        ``left`` lane changes and ``steer`` Steering points and goes on, else it steps straight ahead
        (worth ``straight``); the table's damage to each car, and the Saw's own die (4-6: 1 Structure)."""
        track = self.track
        there = rules.neighbour(self.state, square, direction)
        target = self.cars[there]
        far = track.beside_left[there] if direction < 0 else track.beside_right[there]
        clear = far >= 0 and not track.obstruction[far] and far not in self.cars and far not in self.wrecks
        third = self.cars.get(far, -1) if far >= 0 else -1
        shoved = 0.0
        if clear:
            shoved = self.gain(square, there) - self.hazard(there) + self.best(
                there, lap + (track.end[there] <= track.end[square]), moves - 1, left, steer, node)[0]
        rivals = self.rivals
        best = (-1e9, 0, 0)
        for bumper, saw in self.tools:
            value = -ACTIVATION * (bumper + saw)
            for die in range(1, 7):
                m = min(6, die + bumper)
                row = rules.RAM_TABLE[not clear][m - 1]
                hits = row.count("T")
                outcome = (shoved if clear and m >= 4 else straight) - self.hurt(row.count("Y"))
                if "3" in row:
                    outcome += rivals.dealt(third, 1)
                if saw:
                    outcome += 0.5 * (rivals.dealt(target, hits) + rivals.dealt(target, hits + 1))
                else:
                    outcome += rivals.dealt(target, hits)
                value += outcome / 6
            if value > best[0]:
                best = (value, bumper, saw)
        return best

    def rush(self, target: int, moves: int) -> float:
        """A Rush 'n' Crush ends the move: ``moves`` dice (Movement: Rush 'n' Crush), each 1-2 hurting both
        cars, each 3 (3-4 with the Combat Bumper) the target only; none roll when ``rush_attacks`` has
        no ram left this round (RC-G12)."""
        if not self.rush_rolls:
            return 0.0
        key = (target, moves)
        found = self.rush_memo.get(key)
        if found is not None:
            return found
        rivals = self.rivals
        value = sum(p * (rivals.dealt(target, theirs) - self.hurt(own))
                    for own, theirs, p in rush_outcomes(moves, self.state.dash[self.car].combat_bumper))
        self.rush_memo[key] = value
        return value

    def move(self, moves: int, changes: int, node: int) -> tuple[float, int]:
        state = self.state
        steering = min(state.steering[self.car], 2)
        return self.best(state.square[self.car], state.lap[self.car], moves, changes, steering, node)


def heat_dice_cost(state: RushState, car: int, dice: int, p: float) -> float:
    """Expected cost of ``dice`` dice that each give a Heat point with chance ``p``: the heat (dearer near
    the skull), and becoming a wreck past it."""
    if dice <= 0:
        return 0.0
    cap = state.dash[car].heat_capacity
    room = cap - state.heat[car]
    weight = HEAT * (1 + 2 * state.heat[car] / cap)
    death = sum(comb(dice, k) * p ** k * (1 - p) ** (dice - k) for k in range(room + 1, dice + 1))
    return dice * p * weight + death * DEATH


def heat_cost(state: RushState, car: int, node: int, turbo_spent: int) -> float:
    """Expected cost of the red dice at ``node`` (a 1-2 gives heat, the range widened by each Turbo used)."""
    p = min(6, state.game.content.model.dice.heat_on + turbo_spent) / 6
    return heat_dice_cost(state, car, state.game.gear.red_dice[node], p)


def plan_value(state: RushState, car: int, node: int, rivals: Rivals | None = None) -> float:
    """The expected value of the best plan at ``node``'s speed, over its white dice."""
    rule, dice = state.game.gear.steer[node]
    speed = state.game.gear.speed[node]
    planner = Planner(state, car, rivals)
    if rule == UNLIMITED:
        outcomes = [(-1, 1.0)]
    elif dice == 0:
        outcomes = [(0, 1.0)]
    else:
        outcomes = _kept_values(rule, dice)
    return sum(p * planner.move(speed, min(changes, speed), node)[0] for changes, p in outcomes)


def booster_heat(state: RushState, car: int, dice: int) -> float:
    """Expected cost of the Rocket Booster's heat dice (1-2 each, RC-X4) for ``dice`` squares entered."""
    return heat_dice_cost(state, car, dice, 2 / 6)


def speed_value(state: RushState, car: int, node: int, turbo_spent: int, rivals: Rivals | None = None) -> float:
    """How good a move at ``node`` looks: the plan's value over the white dice, less the heat risk (weighed
    by the car's place in the race, ``Rivals.heat_weight``)."""
    rivals = rivals or Rivals(state, car)
    return plan_value(state, car, node, rivals) - rivals.heat_weight * heat_cost(state, car, node, turbo_spent)


class HeuristicBot:
    """Plans its move square by square (round obstructions, wrecks and mines, into a car when a ram
    pays), chooses the speed whose plan is worth most after the heat risk (weighed more in front and less
    behind once the race is under way), arms its pieces early, fires
    the Machine Gun and the Flamer whenever they bear, cools down near the skull, and fires the Rocket
    Booster into a clear lane."""

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

    def _choose(self, state: RushState, car: int, legal: list[str]) -> str:
        if state.stage is Stage.AFTER:
            boost = self._boost(state, car, legal)
            if boost != notation.END:
                return boost
        equipment = self._equipment(state, car, legal)
        if equipment:
            return equipment
        stage = state.stage
        if stage is Stage.GEAR or stage is Stage.POINTS:
            return self._speed(state, car, legal)
        if stage is Stage.MOVE:
            return self._step(state, car, legal)
        if stage is Stage.SWERVE:
            return self._swerve(state, car, legal)
        return notation.END if stage is Stage.AFTER else self.rng.choice(legal)

    def _equipment(self, state: RushState, car: int, legal: list[str]) -> str:
        """Fire a gun that bears; cool down before the red dice near the skull; after movement re-arm the
        guns and the Booster, cool down from 2 heat, then arm the rest. Pieces are armed after movement
        only (RC-A6: a piece armed this turn waits for the next, so arming earlier would only spend an
        Activation that a gun, a Side Ram's Bumper or Saw, or the Booster could use)."""
        opts = set(legal)
        for piece in ("machine-gun", "flamer"):
            if notation.use(piece) in opts:
                return notation.use(piece)
        cool = notation.use("fire-extinguisher")
        heat = state.heat[car]
        if cool in opts and heat >= state.dash[car].heat_capacity - 3:
            return cool
        if state.stage is not Stage.AFTER:
            return ""
        for piece in ARM_ORDER:
            if piece == "side-bumper" and cool in opts and heat >= 2:
                return cool
            if notation.arm(piece) in opts and (piece != "fire-extinguisher" or heat > 0):
                return notation.arm(piece)
        return cool if cool in opts and heat >= 2 else ""

    def _speed(self, state: RushState, car: int, legal: list[str]) -> str:
        """The gearstick or a point: the node whose move is worth most (``speed_value``): the heat risk
        counts more for a car ahead and less for a car behind (``Rivals.heat_weight``)."""
        gear = state.game.gear
        rivals = Rivals(state, car)
        plans: dict[int, float] = {}
        """Plan values by speed (the white dice, and so the plan, depend on the speed row alone)."""
        best, score = legal[0], -1e18
        for action in legal:
            move = notation.parse(action)
            if move.kind in (Kind.KEEP, Kind.DONE):
                node, turbo, cost = state.node[car], state.turbo_spent, 0.0
            elif move.kind is Kind.GEAR:
                node, turbo, cost = gear.node(move.name), state.turbo_spent, 0.0
            elif move.kind in (Kind.TURBO, Kind.BRAKE):
                node, cost = gear.node(move.name), self._point_cost(state, car)
                turbo = state.turbo_spent + (move.kind is Kind.TURBO)
            else:
                continue
            speed = gear.speed[node]
            plan = plans.get(speed)
            if plan is None:
                plan = plans[speed] = plan_value(state, car, node, rivals)
            value = plan - rivals.heat_weight * heat_cost(state, car, node, turbo) - cost
            if value > score:
                best, score = action, value
        return best

    def _point_cost(self, state: RushState, car: int) -> float:
        """A Turbo or Brake point is worth less as the line nears (a point left at the end is wasted)
        and half as much to a car behind the leader (it has to catch up)."""
        left = max(0.0, 1 - rules.progress(state, car) / finish_key(state))
        behind = any(rules.progress(state, c) > rules.progress(state, car) for c in rules.running(state))
        return self.point_cost * left * (0.5 if behind else 1.0)

    def _step(self, state: RushState, car: int, legal: list[str]) -> str:
        planner = Planner(state, car)
        _, direction = planner.move(state.movement, state.lane_changes, state.node[car])
        if direction == 9:
            direction = 0
        bumper = saw = False
        if direction and rules.car_at(state, rules.neighbour(state, state.square[car], direction)) >= 0:
            changes = -1 if state.lane_changes >= state.movement else state.lane_changes
            steering = 0 if changes < 0 else min(state.steering[car], 2)
            left, steer = (changes - 1, steering) if changes > 0 else (changes, steering - (changes == 0))
            _, use_bumper, use_saw = planner.side_ram(state.square[car], state.lap[car], state.movement, left, steer,
                                                      state.node[car], direction, self._straight(planner, state, car))
            bumper, saw = bool(use_bumper), bool(use_saw)
        dropped = notation.step(Direction(direction), bumper=bumper, saw=saw, mine=True)
        if dropped in legal and self._someone_behind(state, car):
            return dropped
        return notation.step(Direction(direction), bumper=bumper, saw=saw)

    @staticmethod
    def _straight(planner: Planner, state: RushState, car: int) -> float:
        """The value of a straight step now (what a Side Ram that does not displace becomes)."""
        track = state.game.track
        square, lap, moves = state.square[car], state.lap[car], state.movement
        target = track.ahead[square]
        changes = -1 if state.lane_changes >= moves else state.lane_changes
        steering = 0 if changes < 0 else min(state.steering[car], 2)
        if target == FINISH or planner.finishes(square, target, lap):
            return WIN
        if track.obstruction[target]:
            return -planner.crash(state.node[car])
        if target in planner.cars:
            return planner.rush(planner.cars[target], moves) + planner.after(square, lap)
        return planner.gain(square, target) - planner.hazard(target) + planner.best(
            target, lap + (track.end[target] <= track.end[square]), moves - 1, changes, steering, state.node[car])[0]

    @staticmethod
    def _someone_behind(state: RushState, car: int) -> bool:
        here = rules.progress(state, car)
        return any(rules.progress(state, c) < here for c in rules.running(state) if c != car)

    def _swerve(self, state: RushState, car: int, legal: list[str]) -> str:
        """The side whose square is worth more; a mine on the square left when a car is behind (RC-X3)."""
        planner = Planner(state, car)
        best, score = legal[0], -1e18
        for action in legal:
            move = notation.parse(action)
            if move.mine:
                continue
            target = rules.neighbour(state, state.square[car], move.number)
            value = -planner.hazard(target) + planner.after(target, state.lap[car])
            if value > score:
                best, score = action, value
        dropped = best + "+mine"
        return dropped if dropped in legal and self._someone_behind(state, car) else best

    def _boost(self, state: RushState, car: int, legal: list[str]) -> str:
        """Movement: Rocket Booster, "Choose 1-3 and move that many spaces directly forward. For each space
        moved, roll a heat die and add 1 heat on 1-2": the number of squares worth most (the ranks, a car
        passed, a Rush 'n' Crush into a car ahead, an obstruction's damage, the heat dice), if that beats
        keeping the booster armed for a later turn (``KEEP_BOOSTER``); all three if one crosses the line."""
        if not any(a.startswith("boost:") for a in legal):
            return notation.END
        planner = Planner(state, car)
        square, lap = state.square[car], state.lap[car]
        best, score = notation.END, planner.after(square, lap) + KEEP_BOOSTER
        for squares in range(1, rules.MAX_BOOST + 1):
            value = self._boost_value(state, car, planner, squares)
            if value >= WIN:
                return notation.boost(squares)
            if value > score:
                best, score = notation.boost(squares), value
        return best

    @staticmethod
    def _boost_value(state: RushState, car: int, planner: Planner, squares: int) -> float:
        """The value of ``boost:<squares>`` (Movement: Rocket Booster; RC-X4: the heat dice are not widened
        by Turbo; an obstruction deals its damage and ends the Booster; a car is a Rush 'n' Crush)."""
        track = state.game.track
        sq, lap = state.square[car], state.lap[car]
        value = 0.0
        entered = 0
        for k in range(squares):
            nxt = track.ahead[sq]
            if nxt == FINISH or planner.finishes(sq, nxt, lap):
                return WIN
            if track.obstruction[nxt]:
                value -= planner.crash(state.node[car])
                break
            if nxt in planner.cars:
                value += planner.rush(planner.cars[nxt], squares - k)
                break
            value += planner.gain(sq, nxt) - planner.hazard(nxt)
            lap += track.end[nxt] <= track.end[sq]
            sq = nxt
            entered += 1
        return value + planner.after(sq, lap) - planner.rivals.heat_weight * booster_heat(state, car, entered)

