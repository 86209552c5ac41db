"""The rules of Rush 'n' Crush (Overdrive) as small named functions, in the order of the summary.

Each docstring cites its section of ``rules/rush-n-crush.txt`` (Roger BW's summary: Introduction,
Setup, Round, Turn, Movement); gap and ambiguity ids (RC-*) are decided in docs/rules/rush-n-crush.md,
following rules/rush-n-crush-content.md. Every function that changes the position takes the state
being built by ``RushState._do`` (a private copy) and the list of events it appends to.

The helpers at the end (``lane_picture``, ``heat_odds``, ``expected_lane_changes``, ``progress``) are
public, for bots and boards.
"""

from __future__ import annotations

from collections.abc import Callable
from math import comb
from typing import TYPE_CHECKING, Final

from slipstream.engine.chance import DIE_TABLE, ChanceTable
from slipstream.engine.fields import replaced
from slipstream.engine.game import Event, EventCache

from . import notation
from .content import (
    CIRCULAR_SAW,
    FIRE_EXTINGUISHER,
    FLAMER,
    HIGHEST,
    LOWEST,
    MACHINE_GUN,
    PIECES,
    ROCKET_BOOSTER,
    SIDE_BUMPER,
    UNLIMITED,
    Gear,
)
from .course import FINISH
from .types import BRAKE_POINTS, ROLLS, TURBO_POINTS, Direction, Kind, Move, Stage, Task

if TYPE_CHECKING:
    from .state import RushState

PER_TURN: Final = "per-turn"
ONCE_PER_ROUND: Final = "once-per-round"
ONCE_PER_CAR: Final = "once-per-car"
RUSH_ATTACKS: Final = (PER_TURN, ONCE_PER_ROUND, ONCE_PER_CAR)
"""The ``rush_attacks`` option: every Rush 'n' Crush rolls (the summary), only the first of each round
across the table (the published edition, RC-G12), or the first of each car in each round."""

MAX_BOOST: Final = 3

_EVENTS = EventCache()
"""The events that recur with the same text (a car entering a square)."""


# --- dice tables ----------------------------------------------------------------------------------------


def _table(word: str, weights: list[tuple[int, float]]) -> ChanceTable:
    """Outcomes ``word:N`` with their probabilities, zero weights dropped, sorted by the action string."""
    total = sum(weight for _, weight in weights)
    return ChanceTable(sorted((notation.numbered(word, number), weight / total)
                              for number, weight in weights if weight > 0))


_TABLES: dict[tuple[str, int, int], ChanceTable] = {}
"""The dice tables made so far, by (word, rule or hit faces, dice)."""


def binomial_table(word: str, dice: int, hit_faces: int) -> ChanceTable:
    """How many of ``dice`` d6 show 1..``hit_faces``: one chance node per roll (content.md 2.1)."""
    key = (word, hit_faces, dice)
    table = _TABLES.get(key)
    if table is None:
        hit_chance = min(hit_faces, 6) / 6
        weights = [(hits, comb(dice, hits) * hit_chance ** hits * (1 - hit_chance) ** (dice - hits))
                   for hits in range(dice + 1)]
        table = _TABLES[key] = _table(word, weights)
    return table


def kept_die_table(word: str, rule: int, dice: int) -> ChanceTable:
    """The highest (``rule`` = HIGHEST) or lowest of ``dice`` d6 (content.md 2.2)."""
    key = (word, 100 + rule, dice)
    table = _TABLES.get(key)
    if table is None:
        if rule == HIGHEST:
            weights = [(face, float(face ** dice - (face - 1) ** dice)) for face in range(1, 7)]
        else:
            weights = [(face, float((7 - face) ** dice - (6 - face) ** dice)) for face in range(1, 7)]
        table = _TABLES[key] = _table(word, weights)
    return table


def chance_table(state: RushState, need: tuple[int, ...]) -> ChanceTable:
    """The outcomes of the roll ``need`` (a ``Task`` entry)."""
    task = need[0]
    if task == Task.HEAT:
        return binomial_table("heat", need[2], need[3])
    if task == Task.STEER:
        rule, dice = state.game.gear.steer[state.node[need[1]]]
        return kept_die_table("steer", rule, dice)
    if task == Task.CRASH:
        rule, dice = state.game.gear.steer[state.node[need[1]]]
        return kept_die_table("crash", LOWEST if rule == HIGHEST else HIGHEST, dice)
    if task in (Task.GUN, Task.FLAME):
        return binomial_table("hits", need[2], 2)
    if task == Task.BOOST_HEAT:
        return binomial_table("heat", need[2], 2)
    return DIE_TABLE


def counted(count: int, one: str, many: str = "") -> str:
    """``3 dice``, ``1 die``: a count with its noun (for event texts)."""
    return f"{count} {one if count == 1 else many or one + 's'}"


# --- Setup ----------------------------------------------------------------------------------------------


def deal_dashboard(state: RushState, move: Move, events: list[Event]) -> None:
    """Setup: "Each player takes a car (large card) and a driver (small card), ideally from the same Team
    (colour) though it doesn't really matter": with ``seat_assignment = "random"`` the cars, then the
    drivers, are dealt to the seats in order by chance (``car:<id>``, ``driver:<id>``)."""
    game = state.game
    players = game.players
    content = game.content
    state.dealt = (*state.dealt, move.name)
    seat = (len(state.dealt) - 1) % players
    kind = "car" if len(state.dealt) <= players else "driver"
    title = content.cars[move.name].name if kind == "car" else content.drivers[move.name].name
    events.append(Event("deal", f"{game.seat_name(seat)} takes the {kind} {title}", "Setup"))
    if len(state.dealt) < 2 * players:
        return
    state.dash = tuple(content.dashboard(state.dealt[index], state.dealt[players + index]) for index in range(players))
    set_dashboards(state)


def set_dashboards(state: RushState) -> None:
    """Setup: the markers at the top of the Steering, Brake and Turbo tracks, on full Structure and zero
    Heat, every piece disarmed, four mines with a Minelayer (RC-A1)."""
    cars = len(state.dash)
    state.structure = tuple(dashboard.structure for dashboard in state.dash)
    state.heat = (0,) * cars
    state.steering = tuple(dashboard.steering for dashboard in state.dash)
    state.brake = tuple(dashboard.brake for dashboard in state.dash)
    state.turbo = tuple(dashboard.turbo for dashboard in state.dash)
    state.armed = (0,) * cars
    state.mines_left = tuple(dashboard.mines for dashboard in state.dash)


def deal_outcomes(state: RushState) -> list[str]:
    """The cars (then the drivers) not dealt yet, as chance outcomes."""
    content = state.game.content
    if len(state.dealt) < state.game.players:
        return [notation.dealt("car", car) for car in content.cars if car not in state.dealt]
    return [notation.dealt("driver", driver) for driver in content.drivers
            if driver not in state.dealt[state.game.players:]]


def deal_grid_slot(state: RushState, seat: int, events: list[Event]) -> None:
    """Setup (RC-G7, RC-A10): the cars are dealt at random to the grid slots behind the line, two per
    row; a car's arrival stamp is its slot number, so ties within a row fall at random."""
    slot = len(state.grid_seats)
    state.grid_seats = (*state.grid_seats, seat)
    state.square[seat] = state.game.track.grid[slot]
    state.stamp = replaced(state.stamp, seat, slot + 1)
    events.append(Event("grid", f"{state.game.seat_name(seat)} takes grid slot {slot + 1}: "
                        f"{state.game.track.places[state.square[seat]]}", "Setup (RC-G7)"))
    left = state.game.players - len(state.grid_seats)
    if left == 1:
        last = next(other for other in range(state.game.players) if other not in state.grid_seats)
        deal_grid_slot(state, last, events)
    elif left == 0:
        state.clock = state.game.players
        start_round(state, events)


# --- Round ----------------------------------------------------------------------------------------------


def progress(state: RushState, car: int) -> int:
    """The car's progress key: twice the centre of its square in ranks unrolled over the laps (larger
    is further forward; content.md 4.7)."""
    track = state.game.track
    sq = state.square[car]
    return track.start[sq] + track.end[sq] + 2 * track.lap_ranks * state.lap[car]


def running(state: RushState) -> list[int]:
    """The cars not destroyed, in seat order."""
    return [car for car in range(state.game.players) if not state.destroyed[car]]


def start_round(state: RushState, events: list[Event]) -> None:
    """Round: "Establish an order for this round, front to back. If two cars are equally far forward,
    the one that arrived first is 'ahead'." A car destroyed before its turn is skipped."""
    state.order = tuple(sorted(running(state), key=lambda other: (-progress(state, other), state.stamp[other])))
    state.rnc_rolled = ()
    state.turn = 0
    order = ", ".join(state.game.seat_name(car) for car in state.order)
    events.append(Event("round", f"round {state.round}: order {order}", "Round"))
    start_turn(state, events)


def start_turn(state: RushState, events: list[Event]) -> None:
    """Turn: the active car's turn begins with two Activations and no counter moved (Movement)."""
    while state.turn < len(state.order) and state.destroyed[state.order[state.turn]]:
        state.turn += 1
    if state.turn >= len(state.order):
        state.round += 1
        start_round(state, events)
        return
    state.stage = state.phase = Stage.GEAR
    reset_turn(state, state.game.content.model.base.activations)


def reset_turn(state: RushState, activations: int) -> None:
    """The per-turn counters at the start of a turn (and of the race)."""
    state.activations = activations
    state.moved = 0
    state.turbo_spent = 0
    state.points_kind = 0
    state.lane_changes = 0
    state.movement = 0
    state.mine_dropped = False
    state.boost_entered = 0
    state.boosted = False
    state.queue = ()
    state.need = ()


def end_turn(state: RushState, events: list[Event]) -> None:
    """Round: the next car in this round's order takes its turn (a new round after the last)."""
    if state.stage is Stage.OVER:
        return
    state.queue = ()
    state.turn += 1
    start_turn(state, events)


# --- Turn: the gearstick --------------------------------------------------------------------------------


def free_gear_targets(gear: Gear, node: int) -> tuple[int, ...]:
    """Turn: "accelerate (one step up or right-and-up along a white line), brake (one step down or
    down-and-left along a white line), or shift (as many spaces as you like left or right along a
    dashed line)". No line enters the zero spot: "You may not deliberately decelerate to speed 0"."""
    return tuple(sorted({*gear.accelerate[node], *gear.brake[node], *gear.shift[node]}))


def gear_action(state: RushState, car: int, move: Move, events: list[Event]) -> None:
    """Turn: the free gearstick action, or keep it where it is (not at the zero spot, RC-A8)."""
    gear = state.game.gear
    name = state.game.seat_name(car)
    here = state.node[car]
    if move.kind is Kind.KEEP:
        events.append(Event("gear", f"{name} keeps the gearstick at {gear.titles[here]}", "Turn"))
    else:
        to = gear.node(move.name)
        verb = "accelerates" if to in gear.accelerate[here] else "brakes" if to in gear.brake[here] else "shifts"
        events.append(Event("gear", f"{name} {verb} to {gear.titles[to]}", "Turn"))
        state.node = replaced(state.node, car, to)
    state.stage = state.phase = Stage.POINTS
    if not point_moves(state, car):
        finish_points(state, car, events)


def point_moves(state: RushState, car: int) -> list[tuple[Kind, int]]:
    """Turn: "Then spend as many of your Turbo points (to accelerate as above) or Brake points (to
    brake as above) as you like": one point at a time, one kind per turn (content.md 1.4)."""
    gear = state.game.gear
    node = state.node[car]
    out: list[tuple[Kind, int]] = []
    if state.turbo[car] > 0 and state.points_kind != BRAKE_POINTS:
        out += [(Kind.TURBO, target) for target in gear.accelerate[node]]
    if state.brake[car] > 0 and state.points_kind != TURBO_POINTS:
        out += [(Kind.BRAKE, target) for target in gear.brake[node]]
    return out


def spend_point(state: RushState, car: int, move: Move, events: list[Event]) -> None:
    """Turn: one Turbo point accelerates, one Brake point brakes, a step along a white line each."""
    gear = state.game.gear
    to = gear.node(move.name)
    if move.kind is Kind.TURBO:
        state.turbo = replaced(state.turbo, car, state.turbo[car] - 1)
        state.turbo_spent += 1
        state.points_kind = TURBO_POINTS
        word = "Turbo point to accelerate"
    else:
        state.brake = replaced(state.brake, car, state.brake[car] - 1)
        state.points_kind = BRAKE_POINTS
        word = "Brake point to brake"
    state.node = replaced(state.node, car, to)
    events.append(Event("point", f"{state.game.seat_name(car)} spends a {word} to {gear.titles[to]}", "Turn"))
    if not point_moves(state, car):
        finish_points(state, car, events)


def finish_points(state: RushState, car: int, events: list[Event]) -> None:
    """Turn: "Roll red dice based on your current colour zone ... Any 1-2 on red dice gives you a heat
    point. (+1 to the range for each Turbo you used this turn)". Red dice first, then white (RC-G3)."""
    gear = state.game.gear
    node = state.node[car]
    state.movement = gear.speed[node]
    state.phase = Stage.MOVE
    dice = gear.red_dice[node]
    heat_on = state.game.content.model.dice.heat_on + state.turbo_spent
    state.queue = ((Task.HEAT, car, dice, heat_on),) if dice else ()
    state.queue += ((Task.STEER, car),)
    run_queue(state, events)


def white_dice(state: RushState, car: int, events: list[Event]) -> bool:
    """Movement: "Your white dice roll is the number of lane changes you have available this turn.
    Speed 5- unlimited; speed 6-10, highest single die; speed 11-16, lowest single die; speed 18, 0."
    Returns True when a roll is needed."""
    rule, dice = state.game.gear.steer[state.node[car]]
    if rule == UNLIMITED or dice == 0:
        state.lane_changes = -1 if rule == UNLIMITED else 0
        shown = "unlimited" if rule == UNLIMITED else "no"
        events.append(Event("steer", f"{state.game.seat_name(car)} has {shown} lane changes at speed "
                            f"{state.game.gear.speed[state.node[car]]}", "Movement"))
        return False
    return True


# --- Movement: steps ------------------------------------------------------------------------------------


def car_at(state: RushState, square: int) -> int:
    """The running car in ``square``, or -1."""
    if square not in state.square:
        return -1
    for car in range(len(state.square)):
        if state.square[car] == square and not state.destroyed[car]:
            return car
    return -1


def wreck_at(state: RushState, square: int) -> bool:
    """Whether a wreck (a destroyed car, RC-G10) stands in ``square``."""
    if not state.destructions:
        return False
    return any(state.square[car] == square and state.destroyed[car] for car in range(len(state.square)))


def mine_owner(state: RushState, square: int) -> int:
    """The seat whose mine lies in ``square``, or -1."""
    for sq, owner in state.mines:
        if sq == square:
            return owner
    return -1


def neighbour(state: RushState, square: int, direction: int) -> int:
    """The square a step in ``direction`` (a ``Direction``) from ``square`` enters (content.md 4.2)."""
    track = state.game.track
    if direction == 0:
        return track.ahead[square]
    return track.ahead_left[square] if direction < 0 else track.ahead_right[square]


def can_change_lane(state: RushState, car: int) -> bool:
    """Movement: lane changes from the white dice, then "Each Steering point you spend gives you a
    bonus lane change" (spent automatically when the dice are used up, content.md 5.3)."""
    return state.lane_changes != 0 or state.steering[car] > 0


def spend_lane_change(state: RushState, car: int) -> None:
    """One lane change: from the white dice while they last, then a Steering point (``can_change_lane``)."""
    if state.lane_changes > 0:
        state.lane_changes -= 1
    elif state.lane_changes == 0:
        state.steering = replaced(state.steering, car, state.steering[car] - 1)


def can_drop_mine(state: RushState, car: int) -> bool:
    """Movement: "Whenever you leave a space, you may activate the Minelayer to drop one of your four
    red mine markers in that space" (at most one a turn, no Activation, not on a wreck: RC-G9)."""
    sq = state.square[car]
    return (state.mines_left[car] > 0 and not state.mine_dropped and mine_owner(state, sq) < 0
            and not wreck_at(state, sq))


STEP_ACTIONS: Final[dict[tuple[int, bool, bool, bool], str]] = {
    (direction, bumper, saw, mine): notation.step(direction, bumper, saw, mine)
    for direction in Direction for bumper in (False, True) for saw in (False, True) for mine in (False, True)}
"""Every step's action string, made once."""
AHEAD_STEPS: Final = ((notation.step(Direction.AHEAD),),
                      (notation.step(Direction.AHEAD), notation.step(Direction.AHEAD, mine=True)))
"""``ahead``, and with ``ahead+mine`` when a mine can be dropped."""


def step_actions(state: RushState, car: int) -> list[str]:
    """The legal steps: ahead always (the full speed must be moved); a diagonal into a square that
    exists and is no obstruction, with a lane change to spend (RC-A9); ``+bumper``/``+saw`` when the
    diagonal is a Side Ram and the piece can be Used; ``+mine`` when a mine can be dropped."""
    mines = (False, True) if can_drop_mine(state, car) else (False,)
    out = list(AHEAD_STEPS[len(mines) - 1])
    if not can_change_lane(state, car):
        return out
    for direction, target in state.game.track.diagonals[state.square[car]]:
        if car_at(state, target) < 0:
            out += [STEP_ACTIONS[direction, False, False, mine] for mine in mines]
            continue
        bumpers = (False, True) if can_use(state, car, SIDE_BUMPER) else (False,)
        saws = (False, True) if can_use(state, car, CIRCULAR_SAW) else (False,)
        out += [STEP_ACTIONS[direction, bumper, saw, mine] for bumper in bumpers for saw in saws for mine in mines
                if bumper + saw <= state.activations]
    return out


def take_step(state: RushState, car: int, move: Move, events: list[Event]) -> None:
    """Movement: "A move into the square directly ahead of you uses one of your movement allowance. A
    move diagonally forward uses one movement allowance and one lane change." What is in the target
    decides: the finish line, a fixed obstruction, another car (Rush 'n' Crush or Side Ram), or
    the square is entered."""
    direction = move.number
    target = neighbour(state, state.square[car], direction)
    if direction == 0:
        straight_step(state, car, move.mine, False, events)
    elif car_at(state, target) >= 0:
        declare_side_ram(state, car, car_at(state, target), direction, move, events)
    else:
        enter(state, car, target, True, move.mine, events)
    run_queue(state, events)


def straight_step(state: RushState, car: int, mine: bool, booster: bool, events: list[Event]) -> None:
    """A step directly ahead (a normal step, a Side Ram's forward step, a Rocket Booster square)."""
    track = state.game.track
    target = track.ahead[state.square[car]]
    if target == FINISH:
        cross_finish(state, car, events)
    elif track.obstruction[target]:
        events.append(Event("obstruction", f"{state.game.seat_name(car)} hits a fixed obstruction at "
                            f"{track.places[target]}", "Movement: fixed obstruction"))
        hit_obstruction(state, car, booster, events)
    elif car_at(state, target) >= 0:
        rush_n_crush(state, car, car_at(state, target), booster, events)
    else:
        enter(state, car, target, False, mine, events, spend=not booster)
        if booster:
            state.boost_entered += 1


def enter(state: RushState, car: int, target: int, lane_change: bool, mine: bool, events: list[Event],
          spend: bool = True) -> None:
    """The car enters ``target``: it spends movement (and a lane change for a diagonal), takes a new
    arrival stamp, may drop a mine on the square it leaves, and rolls for the target's wreck and mine."""
    track = state.game.track
    here = state.square[car]
    name = state.game.seat_name(car)
    if mine and can_drop_mine(state, car):
        state.mines = (*state.mines, (here, car))
        state.mines_left = replaced(state.mines_left, car, state.mines_left[car] - 1)
        state.mine_dropped = True
        events.append(Event("mine-dropped", f"{name} drops a mine at {track.places[here]}",
                            "Movement: Minelayer"))
    if track.end[target] <= track.end[here]:
        state.lap = replaced(state.lap, car, state.lap[car] + 1)
    state.square[car] = target
    if spend:
        state.movement -= 1
    if lane_change:
        spend_lane_change(state, car)
    state.clock += 1
    state.stamp = replaced(state.stamp, car, state.clock)
    square = track.places[target]
    events.append(_EVENTS.get(("step", name, square), lambda: Event("step", f"{name} moves to {square}",
                                                                     "Movement")))
    if track.closed and track.start[target] + state.lap[car] * track.lap_ranks >= (
            track.line_rank + track.laps * track.lap_ranks):
        cross_finish(state, car, events)
        return
    hazards(state, car, target)


def hazards(state: RushState, car: int, square: int) -> None:
    """A wreck, then another car's mine, in the square just entered (RC-G10, RC-A9)."""
    rolls: tuple[tuple[int, ...], ...] = ()
    if wreck_at(state, square):
        rolls += ((Task.WRECK, car),)
    owner = mine_owner(state, square)
    if owner >= 0 and owner != car:
        rolls += ((Task.MINE, car, square),)
    if rolls:
        state.queue = rolls + state.queue


# --- Movement: collisions -------------------------------------------------------------------------------


def hit_obstruction(state: RushState, car: int, booster: bool, events: list[Event]) -> None:
    """Movement: "If you hit a fixed obstruction, roll white dice as for steering but invert the sense
    ... Take that many structure points. (1 at speed 4-5, 6 at speed 18.)" """
    rule, dice = state.game.gear.steer[state.node[car]]
    if rule == UNLIMITED or dice == 0:
        crash_damage(state, car, 1 if rule == UNLIMITED else 6, booster, events)
    else:
        state.queue = ((Task.CRASH, car, int(booster)), *state.queue)


def crash_damage(state: RushState, car: int, damage: int, booster: bool, events: list[Event]) -> None:
    """The obstruction's damage, then "a free compulsory lane change (spending one movement but not a
    lane change) and continue movement" (RC-A4). The driver chooses when both sides are open, or when
    one is and a mine may drop on the square the lane change leaves (RC-X3). During the Rocket Booster
    the damage ends the Booster, which moves only straight on."""
    damage_cars(state, {car: damage}, {}, "Movement: fixed obstruction", events)
    if state.destroyed[car] or state.stage is Stage.OVER:
        return
    if booster:
        end_booster(state)
        return
    sides = swerve_sides(state, car)
    if len(sides) == 2 or (sides and can_drop_mine(state, car)):
        state.stage = Stage.SWERVE
    elif sides:
        swerve(state, car, sides[0], False, events)
    else:
        forced_stop(state, car, events)


def swerve_sides(state: RushState, car: int) -> list[int]:
    """The open squares diagonally ahead (wrecks and mines count as open; RC-A4)."""
    track = state.game.track
    out = []
    for direction in (Direction.LEFT, Direction.RIGHT):
        target = neighbour(state, state.square[car], direction)
        if target >= 0 and not track.obstruction[target] and car_at(state, target) < 0:
            out.append(int(direction))
    return out


def swerve(state: RushState, car: int, direction: int, mine: bool, events: list[Event]) -> None:
    """The compulsory lane change leaves the car's square: "Whenever you leave a space, you may activate
    the Minelayer to drop one of your four red mine markers in that space" (RC-X3)."""
    side = notation.DIRECTION_WORDS[Direction(direction)]
    events.append(Event("swerve", f"{state.game.seat_name(car)} swerves {side}", "Movement: fixed obstruction"))
    enter(state, car, neighbour(state, state.square[car], direction), False, mine, events)


def forced_stop(state: RushState, car: int, events: list[Event]) -> None:
    """RC-A4: no open side: the move ends and the gearstick takes one free brake step (never to zero)."""
    gear = state.game.gear
    node = state.node[car]
    down = [target for target in gear.brake[node] if gear.gear[target] == gear.gear[node]] or list(gear.brake[node])
    if down:
        state.node = replaced(state.node, car, down[0])
    state.movement = 0
    events.append(Event("stopped", f"{state.game.seat_name(car)} is boxed in: the move ends and the gearstick drops "
                        f"to {gear.titles[state.node[car]]}", "Movement: fixed obstruction (RC-A4)"))


def declare_side_ram(state: RushState, car: int, target: int, direction: int, move: Move,
                     events: list[Event]) -> None:
    """Movement: "If you hit another racer diagonally from behind, this is a 'Side Ram'. Roll a die, +1
    if you Use Side Bumper." The Side Bumper and Lateral Circular Saw are declared with the step."""
    for used, piece in ((move.bumper, SIDE_BUMPER), (move.saw, CIRCULAR_SAW)):
        if used:
            use_piece(state, car, piece)
    pieces = state.game.content.piece_names
    events.append(Event("side-ram", f"{state.game.seat_name(car)} side-rams {state.game.seat_name(target)}"
                        + (f" with the {pieces[SIDE_BUMPER]}" if move.bumper else "")
                        + (f" and the {pieces[CIRCULAR_SAW]}" if move.saw else ""), "Movement: Side Ram"))
    state.queue = ((Task.RAM, car, target, direction, int(move.bumper), int(move.saw), int(move.mine)), *state.queue)


RAM_TABLE: Final = {
    False: ("Y", "Y", "", "", "T", "T"),
    True: ("Y", "Y", "", "T", "T", "T3"),
}
"""Movement, the Side Ram table: who takes a structure point for the (modified) die, by blocked."""


def side_ram(state: RushState, need: tuple[int, ...], die: int, events: list[Event]) -> None:
    """Movement: "If the far side of the target space is clear, on a 4 or higher the defender will be
    displaced into it and you take their old space; otherwise you move forwards (and do not spend a
    lane change)", and the table: You (Y), Target (T) and/or third party (3) take a structure point.
    One die decides both; the Side Bumper's +1 applies to both, at most 6 (RC-G8)."""
    _, car, target, direction, bumper, saw, mine = need
    track = state.game.track
    roll = min(6, die + bumper)
    t_square = state.square[target]
    far = track.beside_left[t_square] if direction < 0 else track.beside_right[t_square]
    clear = far >= 0 and not track.obstruction[far] and car_at(state, far) < 0 and not wreck_at(state, far)
    third = car_at(state, far) if far >= 0 else -1
    displaced = clear and roll >= 4
    if displaced:
        state.square[target] = far
        events.append(Event("displaced", f"{state.game.seat_name(target)} is shoved into {track.places[far]}",
                            "Movement: Side Ram"))
    damage: dict[int, int] = {}
    for who in RAM_TABLE[not clear][roll - 1]:
        hit = {"Y": car, "T": target, "3": third}[who]
        if hit >= 0:
            damage[hit] = damage.get(hit, 0) + 1
    then: tuple[tuple[int, ...], ...] = ((Task.SAW, target),) if saw else ()
    if displaced:
        owner = mine_owner(state, far)
        if owner >= 0 and owner != target:
            then += ((Task.MINE, target, far),)
        then += ((Task.ENTER, car, t_square, 1, mine),)
    else:
        then += ((Task.FORWARD, car, mine),)
    state.queue = then + state.queue
    damage_cars(state, damage, {}, "Movement: Side Ram", events)


def circular_saw(state: RushState, target: int, die: int, events: list[Event]) -> None:
    """Movement: "If you Side Ram and Use Lateral Circular Saw, also roll a red die; do one Structure
    point to your target on a 4-6." """
    if die >= 4 and not state.destroyed[target]:
        damage_cars(state, {target: 1}, {}, "Movement: Lateral Circular Saw", events)


def rush_n_crush(state: RushState, car: int, target: int, booster: bool, events: list[Event]) -> None:
    """Movement: "If you hit another racer directly from behind, this is a 'Rush 'n' Crush'. End your
    move and roll a die for each point of movement allowance remaining" (the blocked step counts;
    RC-A3: nobody changes gear or square). ``rush_attacks`` sets how many roll each round (RC-G12)."""
    dice = sum(1 for task in state.queue if task[0] == Task.BOOST_STEP) + 1 if booster else state.movement
    name, other = state.game.seat_name(car), state.game.seat_name(target)
    quota = state.game.options["rush_attacks"]
    spent = (quota == ONCE_PER_ROUND and bool(state.rnc_rolled)) or (quota == ONCE_PER_CAR and car in state.rnc_rolled)
    if booster:
        end_booster(state)
    else:
        state.movement = 0
    if spent:
        events.append(Event("rush-n-crush", f"{name} runs into {other}: the move ends (no Rush 'n' Crush "
                            "roll is left this round)", "Movement: Rush 'n' Crush (RC-G12)"))
        return
    state.rnc_rolled = (*state.rnc_rolled, car)
    events.append(Event("rush-n-crush", f"{name} rushes {other} from behind: {counted(dice, 'die', 'dice')}",
                        "Movement: Rush 'n' Crush"))
    state.queue = ((Task.RNC, car, target, dice, int(state.dash[car].combat_bumper), 0, 0), *state.queue)


def rush_n_crush_die(state: RushState, need: tuple[int, ...], die: int, events: list[Event]) -> None:
    """Movement: "For each 1-2, both vehicles take a structure point; on a 3 (3-4 if you have Combat Bumper)
    only the target takes one." One die at a time; the damage of all the dice is applied together."""
    _, car, target, dice, bumper, both, target_only = need
    if die <= 2:
        both += 1
        effect = "both cars"
    elif die <= 3 + bumper:
        target_only += 1
        effect = "the target only"
    else:
        effect = "no one"
    events.append(Event("rnc-die", f"Rush 'n' Crush die {die}: {effect}", "Movement: Rush 'n' Crush"))
    if dice > 1:
        state.queue = ((Task.RNC, car, target, dice - 1, bumper, both, target_only), *state.queue)
    else:
        damage_cars(state, {car: both, target: both + target_only}, {}, "Movement: Rush 'n' Crush", events)


def cross_finish(state: RushState, car: int, events: list[Event]) -> None:
    """Introduction: "The winner is the first car to cross the finish line. (Turn order matters.)" The
    race ends at once (RC-A11)."""
    state.winner = car
    state.reason = f"{state.game.seat_name(car)} crosses the finish line first"
    state.stage = Stage.OVER
    state.queue = ()
    events.append(Event("finish", state.reason, "Introduction"))


# --- Equipment ------------------------------------------------------------------------------------------


def piece_names(bits: int) -> list[str]:
    """The ids of the pieces whose bit is set in ``bits`` (``armed``, ``moved``, a driver's ``pieces``)."""
    return [piece for i, piece in enumerate(PIECES) if bits >> i & 1]


def can_use(state: RushState, car: int, piece: int) -> bool:
    """Movement: an armed piece whose counter has not moved this turn, with an Activation left."""
    return state.activations > 0 and bool(state.armed[car] >> piece & 1) and not state.moved >> piece & 1


def use_piece(state: RushState, car: int, piece: int) -> None:
    """Use it, "which disarms it (move counter to the left)"."""
    state.armed = replaced(state.armed, car, state.armed[car] & ~(1 << piece))
    state.moved |= 1 << piece
    state.activations -= 1


def line_target(state: RushState, car: int, backward: bool) -> tuple[int, int]:
    """The Machine Gun / Flamer target "directly forward/backward (i.e. within your lane, even if it's
    curving) at range 1-3": the first car, wreck or obstruction stops the line (RC-A7); ``(car,
    range)`` or ``(-1, 0)``."""
    track = state.game.track
    line = track.lines_behind[state.square[car]] if backward else track.lines_ahead[state.square[car]]
    for distance, sq in enumerate(line, 1):
        other = car_at(state, sq)
        if other >= 0:
            return (other, distance)
        if wreck_at(state, sq):
            return (-1, 0)
    return (-1, 0)


def usable(state: RushState, car: int, piece: int) -> bool:
    """Whether an armed Machine Gun or Flamer has a target, or the Fire Extinguisher heat to lower."""
    if piece in (MACHINE_GUN, FLAMER):
        return line_target(state, car, piece == FLAMER)[0] >= 0
    return piece == FIRE_EXTINGUISHER and state.heat[car] > 0


BITS_SET: Final = tuple(tuple(i for i in range(len(PIECES)) if bits >> i & 1) for bits in range(1 << len(PIECES)))
"""``BITS_SET[bits]``: the piece indices whose bit is set, made once (a car's free pieces as a loop)."""
ARM_ACTIONS: Final = tuple(notation.arm(piece) for piece in PIECES)
USE_ACTIONS: Final = tuple(notation.use(piece) for piece in PIECES)
BOOST_ACTIONS: Final = (tuple(notation.boost(squares) for squares in range(1, MAX_BOOST + 1)),
                        tuple(notation.boost(squares, mine, mine_square) for squares in range(1, MAX_BOOST + 1)
                              for mine in (False, True) for mine_square in range(1, squares + 1 if mine else 2)))
"""The equipment action strings, made once (``BOOST_ACTIONS[True]`` with the ``+mine`` and ``+mine@K``
variants)."""


def equipment_actions(state: RushState, car: int, after_movement: bool) -> list[str]:
    """Movement: "You have two Activations per turn: you can use each of these either to Arm a piece
    of equipment (move counter to the right) or to Use it ... You cannot move the same counter twice in
    a turn." A Use is offered only where it takes effect (content.md 5.8)."""
    if state.activations <= 0:
        return []
    out: list[str] = []
    armed = state.armed[car]
    for i in BITS_SET[state.dash[car].pieces & ~state.moved]:
        if not armed >> i & 1:
            out.append(ARM_ACTIONS[i])
        elif usable(state, car, i):
            out.append(USE_ACTIONS[i])
        elif i == ROCKET_BOOSTER and after_movement:
            out += booster_actions(state, car)
    return out


def booster_actions(state: RushState, car: int) -> list[str]:
    """``boost:N`` for N = 1-3, and a mine on any square the Booster leaves (RC-X3): ``boost:N+mine`` on the
    square it starts from when a mine can drop there, ``boost:N+mine@K`` on the square its K-th step
    leaves, when the Booster can get there as the course stands (no obstruction, car or finish line on
    the way) and the square holds no mine or wreck."""
    if not can_drop_mine(state, car):
        if state.mines_left[car] <= 0 or state.mine_dropped:
            return list(BOOST_ACTIONS[False])
        reach = 0
    else:
        reach = 1
    track = state.game.track
    square = state.square[car]
    for step in range(2, MAX_BOOST + 1):
        square = track.ahead[square]
        if square < 0 or track.obstruction[square] or car_at(state, square) >= 0:
            break
        if mine_owner(state, square) < 0 and not wreck_at(state, square):
            reach |= 1 << (step - 1)
    if not reach:
        return list(BOOST_ACTIONS[False])
    out = []
    for squares in range(1, MAX_BOOST + 1):
        out.append(notation.boost(squares))
        out += [notation.boost(squares, True, step) for step in range(1, squares + 1) if reach >> (step - 1) & 1]
    return out


def equipment(state: RushState, car: int, move: Move, events: list[Event]) -> None:
    """Arm a piece, or Use the Machine Gun, the Flamer, the Fire Extinguisher or the Rocket Booster."""
    name = state.game.seat_name(car)
    pieces = state.game.content.piece_names
    if move.kind is Kind.ARM:
        i = PIECES.index(move.name)
        state.armed = replaced(state.armed, car, state.armed[car] | 1 << i)
        state.moved |= 1 << i
        state.activations -= 1
        events.append(Event("arm", f"{name} arms the {pieces[i]}", "Movement: Activations"))
        return
    if move.kind is Kind.BOOST:
        rocket_booster(state, car, move.number, move.mine_square if move.mine else 0, events)
        return
    i = PIECES.index(move.name)
    use_piece(state, car, i)
    if i == FIRE_EXTINGUISHER:
        state.heat = replaced(state.heat, car, state.heat[car] - 1)
        events.append(Event("extinguisher", f"{name} uses the {pieces[i]}: heat {state.heat[car]}",
                            "Movement: Fire Extinguisher"))
        return
    target, distance = line_target(state, car, i == FLAMER)
    word = "Flamer" if i == FLAMER else "Machine Gun"
    events.append(Event("fire", f"{name} fires the {pieces[i]} at {state.game.seat_name(target)} "
                        f"(range {distance}, {counted(4 - distance, 'die', 'dice')})", f"Movement: {word}"))
    state.queue = ((Task.FLAME if i == FLAMER else Task.GUN, target, 4 - distance),)
    run_queue(state, events)


def rocket_booster(state: RushState, car: int, squares: int, mine_square: int, events: list[Event]) -> None:
    """Movement: "The Rocket Booster may only be Used at the end of movement. Choose 1-3 and move that
    many spaces directly forward. For each space moved, roll a heat die and add 1 heat on 1-2." A mine
    drops on the square left by the Booster's ``mine_square``-th step (0: none; RC-X3)."""
    use_piece(state, car, ROCKET_BOOSTER)
    state.boosted = True
    state.boost_entered = 0
    booster = state.game.content.piece_names[ROCKET_BOOSTER]
    events.append(Event("booster", f"{state.game.seat_name(car)} fires the {booster}: {counted(squares, 'square')}",
                        "Movement: Rocket Booster"))
    state.queue = (*((Task.BOOST_STEP, car, int(step == mine_square)) for step in range(1, squares + 1)),
               (Task.BOOST_HEAT, car, 0))
    run_queue(state, events)


def end_booster(state: RushState) -> None:
    """The Rocket Booster stops: its squares not yet moved are dropped from the queue."""
    state.queue = tuple(task for task in state.queue if task[0] != Task.BOOST_STEP)


# --- Damage, heat and destruction -----------------------------------------------------------------------


def damage_cars(state: RushState, structure: dict[int, int], heat: dict[int, int], rule: str,
                events: list[Event]) -> None:
    """Introduction: "Your car is destroyed if either the Structure or the Heat counter reaches the
    skull." All the damage of one roll is applied, then destruction is checked (content.md 5.9); a
    destroyed car becomes a wreck where it stands (RC-G10)."""
    for car, amount in structure.items():
        if amount:
            state.structure = replaced(state.structure, car, max(0, state.structure[car] - amount))
            events.append(Event("damage", f"{state.game.seat_name(car)} takes {amount} structure "
                                f"({state.structure[car]} left)", rule))
    for car, amount in heat.items():
        if amount:
            state.heat = replaced(state.heat, car, state.heat[car] + amount)
            events.append(Event("heat", f"{state.game.seat_name(car)} takes {amount} heat ({state.heat[car]} of "
                                f"{state.dash[car].heat_capacity})", rule))
    lost = [lost_car for lost_car in sorted({*structure, *heat}) if not state.destroyed[lost_car] and (
        state.structure[lost_car] <= 0 or state.heat[lost_car] > state.dash[lost_car].heat_capacity)]
    if not lost:
        return
    state.destructions += 1
    for lost_car in lost:
        state.destroyed = replaced(state.destroyed, lost_car, state.destructions)
        events.append(Event("destroyed", f"{state.game.seat_name(lost_car)} is destroyed and becomes a wreck at "
                            f"{state.game.track.places[state.square[lost_car]]}", "Introduction"))
    left = running(state)
    if len(left) <= 1:
        state.winner = left[0] if left else -1
        state.reason = (f"{state.game.seat_name(left[0])} is the last car running" if left
                    else "every car is destroyed: no winner")
        state.stage = Stage.OVER
        state.queue = ()
        return
    active = state.order[state.turn]
    if active in lost:
        state.queue = ()


# --- Chance outcomes and the queue ----------------------------------------------------------------------


def resolve_roll(state: RushState, move: Move, events: list[Event]) -> None:
    """Apply the outcome of the roll ``state.need``, then go on with the queue."""
    need = state.need
    task = need[0]
    car = need[1]
    name = state.game.seat_name(car)
    number = move.number
    state.stage = state.phase
    if task == Task.HEAT:
        dice = counted(need[2], "red die", "red dice")
        events.append(Event("red-dice", f"{name} rolls {dice} (heat on 1-{min(6, need[3])}): {number} heat", "Turn"))
        damage_cars(state, {}, {car: number}, "Turn", events)
    elif task == Task.STEER:
        state.lane_changes = number
        events.append(Event("steer", f"{name} has {counted(number, 'lane change')}", "Movement"))
    elif task == Task.CRASH:
        crash_damage(state, car, number, bool(need[2]), events)
    elif task in (Task.WRECK, Task.MINE):
        hit = number <= 3
        what = "a wreck" if task == Task.WRECK else "a mine"
        events.append(Event("hazard", f"{name} crosses {what}: die {number}", "Movement: wreck"))
        if hit and task == Task.MINE:
            state.mines = tuple(mine for mine in state.mines if mine[0] != need[2])
            events.append(Event("mine-gone", "the mine is removed", "Movement: Minelayer"))
        if hit:
            damage_cars(state, {car: 1}, {}, "Movement: wreck", events)
    elif task == Task.RAM:
        events.append(Event("ram-die", f"Side Ram die {number}" + (" +1" if need[4] else ""), "Movement: Side Ram"))
        side_ram(state, need, number, events)
    elif task == Task.SAW:
        events.append(Event("saw-die", f"{state.game.content.piece_names[CIRCULAR_SAW]} die {number}",
                            "Movement: Lateral Circular Saw"))
        circular_saw(state, car, number, events)
    elif task == Task.GUN:
        events.append(Event("hits", f"the {state.game.content.piece_names[MACHINE_GUN]}: {counted(number, 'hit')}",
                            "Movement: Machine Gun"))
        damage_cars(state, {car: number}, {}, "Movement: Machine Gun", events)
    elif task == Task.FLAME:
        events.append(Event("hits", f"the {state.game.content.piece_names[FLAMER]}: {counted(number, 'hit')}",
                            "Movement: Flamer"))
        damage_cars(state, {}, {car: number}, "Movement: Flamer", events)
    elif task == Task.RNC:
        rush_n_crush_die(state, need, number, events)
    elif task == Task.BOOST_HEAT:
        dice = counted(need[2], "heat die", "heat dice")
        events.append(Event("booster-heat", f"{name} rolls {dice} for the "
                            f"{state.game.content.piece_names[ROCKET_BOOSTER]}: {number} heat",
                            "Movement: Rocket Booster"))
        damage_cars(state, {}, {car: number}, "Movement: Rocket Booster", events)
    run_queue(state, events)


ROLLS_ON_A_CAR: Final = frozenset({Task.MINE, Task.WRECK, Task.SAW, Task.GUN, Task.FLAME})
"""The rolls that hurt one car: dropped when that car is destroyed before they roll."""


def run_queue(state: RushState, events: list[Event]) -> None:
    """Resolve the queue up to the next roll; when it is empty, hand the turn back to its player."""
    while state.queue and state.stage is not Stage.OVER and state.stage is not Stage.SWERVE:
        item = state.queue[0]
        task = item[0]
        if task in ROLLS:
            if task == Task.STEER and not white_dice(state, item[1], events):
                state.queue = state.queue[1:]
                continue
            if task == Task.BOOST_HEAT:
                if state.boost_entered == 0:
                    state.queue = state.queue[1:]
                    continue
                item = (Task.BOOST_HEAT, item[1], state.boost_entered)
            if task in ROLLS_ON_A_CAR and state.destroyed[item[1]]:
                state.queue = state.queue[1:]
                continue
            state.need = item
            state.queue = state.queue[1:]
            state.stage = Stage.ROLL
            return
        state.queue = state.queue[1:]
        car = item[1]
        if task == Task.FORWARD:
            straight_step(state, car, bool(item[2]), False, events)
        elif task == Task.ENTER:
            enter(state, car, item[2], bool(item[3]), bool(item[4]), events)
        elif task == Task.BOOST_STEP:
            straight_step(state, car, bool(item[2]), True, events)
    if state.stage is Stage.OVER or state.stage is Stage.SWERVE:
        return
    state.need = ()
    car = state.order[state.turn]
    if state.destroyed[car]:
        end_turn(state, events)
        return
    if state.phase is Stage.MOVE and state.movement <= 0:
        state.phase = Stage.AFTER
    state.stage = state.phase
    if state.phase is Stage.AFTER and not equipment_actions(state, car, True):
        end_turn(state, events)


# --- The player's decisions -----------------------------------------------------------------------------


def decisions(state: RushState) -> list[str]:
    """The active player's legal actions, sorted."""
    car = state.order[state.turn]
    stage = state.stage
    gear = state.game.gear
    if stage is Stage.GEAR:
        node = state.node[car]
        out = [notation.gear(gear.names[target]) for target in free_gear_targets(gear, node)]
        if node:
            out.append(notation.KEEP)
        out += equipment_actions(state, car, False)
    elif stage is Stage.POINTS:
        out = [notation.point(kind, gear.names[target]) for kind, target in point_moves(state, car)]
        out.append(notation.DONE)
        out += equipment_actions(state, car, False)
    elif stage is Stage.MOVE:
        out = step_actions(state, car) + equipment_actions(state, car, False)
    elif stage is Stage.SWERVE:
        mines = (False, True) if can_drop_mine(state, car) else (False,)
        out = [notation.swerve(Direction(direction), mine) for direction in swerve_sides(state, car) for mine in mines]
    else:
        out = [notation.END, *equipment_actions(state, car, True)]
    return sorted(out)


def done_action(state: RushState, car: int, move: Move, events: list[Event]) -> None:
    """``done``: no more points this turn."""
    finish_points(state, car, events)


def swerve_action(state: RushState, car: int, move: Move, events: list[Event]) -> None:
    """``swerve-left``/``swerve-right`` (``+mine``): the compulsory lane change after an obstruction."""
    state.stage = state.phase
    swerve(state, car, move.number, move.mine, events)
    run_queue(state, events)


def end_action(state: RushState, car: int, move: Move, events: list[Event]) -> None:
    """``end``: the turn is over."""
    end_turn(state, events)


DECISIONS: Final[dict[Kind, Callable[[RushState, int, Move, list[Event]], None]]] = {
    Kind.ARM: equipment, Kind.USE: equipment, Kind.BOOST: equipment, Kind.GEAR: gear_action,
    Kind.KEEP: gear_action, Kind.TURBO: spend_point, Kind.BRAKE: spend_point, Kind.DONE: done_action,
    Kind.STEP: take_step, Kind.SWERVE: swerve_action, Kind.END: end_action,
}
"""The rule each kind of player action goes to (a table: reading an enum member costs more than a
dictionary lookup in CPython 3.11, and this runs on every action)."""


def decide(state: RushState, move: Move, events: list[Event]) -> None:
    """Dispatch a player's action to its rule."""
    DECISIONS[move.kind](state, state.order[state.turn], move, events)


# --- The result -----------------------------------------------------------------------------------------


def finishing_order(state: RushState) -> tuple[int, ...]:
    """RC-A11: the winner; then the running cars by position (ties: the earlier arrival); then the
    destroyed cars, the latest destroyed first (ties: the further forward)."""
    cars = range(state.game.players)
    alive = sorted((car for car in cars if not state.destroyed[car] and car != state.winner),
                   key=lambda car: (-progress(state, car), state.stamp[car]))
    dead = sorted((car for car in cars if state.destroyed[car] and car != state.winner),
                  key=lambda car: (-state.destroyed[car], -progress(state, car), car))
    return ((state.winner,) if state.winner >= 0 else ()) + tuple(alive) + tuple(dead)


# --- Helpers for bots and boards ------------------------------------------------------------------------


def lane_picture(state: RushState) -> list[list[list[str]]]:
    """The course as data: ``picture[tile][lane]`` lists the lane's squares in the direction of
    travel, each "" (empty), "#" (fixed obstruction), "W" (wreck), "M<seat>" (a seat's mine) or
    "<seat>" (a running car), e.g. ``"2"``; a wreck with a mine reads "W". """
    track = state.game.track
    marks: dict[int, str] = {sq: f"M{owner}" for sq, owner in state.mines}
    for car in range(state.game.players):
        if state.square[car] >= 0:
            marks[state.square[car]] = "W" if state.destroyed[car] else str(car)
    return [[["#" if track.obstruction[sq] else marks.get(sq, "") for sq in lane] for lane in tile]
            for tile in track.tile_squares]


def heat_odds(state: RushState, car: int, node: int | None = None, turbo_spent: int | None = None) -> float:
    """The chance that the red dice at ``node`` (default: the car's) give at least one heat, with
    ``turbo_spent`` Turbo points this turn (default: so far)."""
    gear = state.game.gear
    dice = gear.red_dice[state.node[car] if node is None else node]
    spent = state.turbo_spent if turbo_spent is None else turbo_spent
    hit = min(6, state.game.content.model.dice.heat_on + spent) / 6
    return 1 - (1 - hit) ** dice


def expected_lane_changes(gear: Gear, node: int) -> float:
    """The expected lane changes from the white dice at ``node``: ``inf`` when unlimited."""
    rule, dice = gear.steer[node]
    if rule == UNLIMITED:
        return float("inf")
    if dice == 0:
        return 0.0
    table = kept_die_table("steer", rule, dice)
    return sum(int(action.split(":")[1]) * probability for action, probability in table.outcomes)


__all__ = ["expected_lane_changes", "heat_odds", "lane_picture", "progress"]
