"""Rush 'n' Crush in the terminal: the course as lanes of squares, each car's dashboard, and the odds
that matter before a choice (heat on the next red roll, the lane changes to expect at each speed)."""

from __future__ import annotations

from typing import Any

from slipstream.engine.game import Game, State

from . import notation, rules
from .content import HIGHEST, PIECE_TITLES, UNLIMITED
from .notation import Direction, Kind

WIDTH = 76
"""The widest board line: an 80-column terminal less the panel's border and padding."""
RANK = 2
"""Characters a rank of the course takes in the picture: a square starts with ``|`` then its mark."""
COLOUR = ("red", "cyan", "yellow", "green", "magenta", "blue")
"""The colour of seat k's number on the course and its dashboard."""
EMPTY, OBSTRUCTION, WRECK, MINE = ".", "#", "X", "*"
KEY = (f"key: 1-6 a car (its seat)  {WRECK} wreck  {MINE} mine  {OBSTRUCTION} fixed obstruction  {EMPTY} empty",
       "     | a square starts (a curve's inner lane has fewer, longer squares)")


def _marks(view: dict[str, Any]) -> dict[str, str]:
    """What each named square shows: a running car, else a wreck, a mine, an obstruction."""
    marks = {sq: OBSTRUCTION for sq in view["obstructions"]}
    marks.update({m["square"]: MINE for m in view["mines"]})
    marks.update({sq: WRECK for sq in view["wrecks"]})
    for car in view["cars"]:
        if car["square"] is not None and not car["destroyed"]:
            marks[car["square"]] = f"[bold {COLOUR[car['seat'] % len(COLOUR)]}]{car['seat'] + 1}[/]"
    return marks


def _tile_rows(tile: int, lanes: list[list[int]], marks: dict[str, str]) -> list[str]:
    """The tile's four lanes, lane 0 (the left one in the direction of travel) on top."""
    rows = []
    for lane, spans in enumerate(lanes):
        rows.append("".join("|" + marks.get(f"{tile}.{lane}.{i}", EMPTY) + " " * (RANK * span - 2)
                            for i, span in enumerate(spans)))
    return rows


def _course(view: dict[str, Any]) -> list[str]:
    """The tiles left to right in the direction of travel, as many to a band as the width allows."""
    course = view["course"]
    marks = _marks(view)
    tiles = [tile["lanes"] for tile in course["tiles"]]
    widths = [RANK * sum(lanes[0]) for lanes in tiles]
    bands: list[list[int]] = [[]]
    for t, width in enumerate(widths):
        if bands[-1] and 3 + sum(widths[u] for u in bands[-1]) + width > WIDTH:
            bands.append([])
        bands[-1].append(t)
    lines = []
    for band in bands:
        lines.append("   " + "".join(f"T{t} {course['faces'][t]}".ljust(widths[t]) for t in band).rstrip())
        drawn = [_tile_rows(t, tiles[t], marks) for t in band]
        for lane in range(len(drawn[0])):
            lines.append(f"L{lane} " + "".join(rows[lane] for rows in drawn))
    if course["closed"]:
        lines.append(f"start/finish line: the end of T0; {course['laps']} lap(s); travel left to right")
    else:
        lines.append(f"finish line: the end of T{len(widths) - 1}; travel left to right")
    return lines


def _pieces(car: dict[str, Any]) -> str:
    armed = set(car["armed"])
    return ", ".join(("+" if p in armed else "-") + p for p in car["pieces"])


def _dashboard(view: dict[str, Any]) -> list[str]:
    lines = []
    order = {seat: k for k, seat in enumerate(view["order"])}
    for car in view["cars"]:
        seat = car["seat"]
        if car["car_name"] is None:
            lines.append(f"[bold {COLOUR[seat % len(COLOUR)]}]P{seat + 1}[/] waits for its car and driver")
            continue
        where = "destroyed: a wreck at " + str(car["square"]) if car["destroyed"] else f"at {car['square'] or '-'}"
        turn = f", {order[seat] + 1}. in turn order" if seat in order and not car["destroyed"] else ""
        active = "  <- to play" if view["active"] == seat else ""
        lines.append(f"[bold {COLOUR[seat % len(COLOUR)]}]P{seat + 1}[/] {car['car_name']} / {car['driver_name']}, "
                     f"{where}{turn}{active}")
        speed = "zero spot" if car["node"] == "zero" else f"{car['node']} speed {car['speed']} {car['zone']}"
        lap = f" lap {car['lap'] + 1}" if view["course"]["closed"] else ""
        lines.append(f"   {speed}  structure {car['structure']}  heat {car['heat']}/{car['heat_capacity']}  "
                     f"steer {car['steering']} brake {car['brake']} turbo {car['turbo']}{lap}")
        mines = f"  mines {car['mines_left']}" if "minelayer" in car["fixed"] else ""
        lines.append(f"   {_pieces(car)}{mines}")
    return lines


def _turn(view: dict[str, Any]) -> list[str]:
    if view["active"] is None:
        return []
    turn = view["turn"]
    changes = "unlimited" if turn["lane_changes"] is None else str(turn["lane_changes"])
    stage = ROLLS.get(view["roll"], view["roll"]) if view["roll"] else view["phase"]
    moving = "" if view["phase"] in ("gear", "points") else (
        f": movement {turn['movement']}, lane changes {changes}")
    return [f"P{view['active'] + 1} ({stage}){moving}",
            f"   activations left {turn['activations']}" + (", Rocket Booster fired" if turn["boosted"] else "")]


def board(view: dict[str, Any]) -> str:
    """The course as lanes of squares, the key, then every car's dashboard and the turn so far."""
    result = view.get("result")
    head = f"Round {view['round']}, {view['course']['name']}" + (
        f" - {result['reason']}" if result else f", order {' '.join(f'P{s + 1}' for s in view['order'])}")
    lines = [head, *_course(view), *KEY, "", *_dashboard(view), *_turn(view)]
    return "\n".join(lines)


ROLLS = {"heat": "red dice", "steer": "white dice", "crash": "obstruction damage", "wreck": "wreck die",
         "mine": "mine die", "ram": "Side Ram die", "saw": "saw die", "gun": "Machine Gun dice",
         "flame": "Flamer dice", "rnc": "Rush 'n' Crush dice", "boost_heat": "Booster heat dice"}
"""The roll a chance node waits for (the view's ``roll``), in words."""

_SIMPLE = {Kind.KEEP: "keep the gearstick where it is", Kind.DONE: "spend no more points",
           Kind.END: "end the turn"}
_STEPS = {Direction.AHEAD: "step straight ahead", Direction.LEFT: "step diagonally forward left",
          Direction.RIGHT: "step diagonally forward right"}


def describe_action(game: Game, action: str) -> str:
    """A short human label for an action (``left+bumper`` -> ``step diagonally forward left, Using the
    Side Bumper if it rams``)."""
    try:
        move = notation.parse(action)
    except ValueError:
        return action
    kind = move.kind
    if kind in _SIMPLE:
        return _SIMPLE[kind]
    if kind is Kind.STEP:
        extras = [w for w, on in (("Side Bumper", move.bumper), ("Lateral Circular Saw", move.saw)) if on]
        label = _STEPS[Direction(move.number)]
        if extras:
            label += ", a Side Ram Using the " + " and the ".join(extras)
        return label + (", dropping a mine" if move.mine else "")
    if kind is Kind.SWERVE:
        mine = ", dropping a mine" if move.mine else ""
        return f"swerve {notation.DIRECTION_WORDS[Direction(move.number)]} round the obstruction{mine}"
    if kind is Kind.GEAR:
        return f"gearstick to {move.name}"
    if kind is Kind.TURBO:
        return f"spend a Turbo point: accelerate to {move.name}"
    if kind is Kind.BRAKE:
        return f"spend a Brake point: brake to {move.name}"
    if kind is Kind.ARM:
        return f"arm the {PIECE_TITLES.get(move.name, move.name)}"
    if kind is Kind.USE:
        return f"Use the {PIECE_TITLES.get(move.name, move.name)}"
    if kind is Kind.BOOST:
        mine = ", dropping a mine" if move.mine else ""
        if move.mine and move.mine_square > 1:
            mine += f" on the square {move.mine_square - 1} ahead of its start"
        return f"fire the Rocket Booster: {move.number} square(s) straight on{mine}"
    if kind is Kind.GRID:
        return f"grid slot to P{move.number + 1}"
    if kind in _ROLLED:
        return _ROLLED[kind].format(n=move.number, s="" if move.number == 1 else "s")
    return action


_ROLLED = {Kind.HEAT: "{n} heat", Kind.STEER: "{n} lane change{s}", Kind.CRASH: "{n} structure from the obstruction",
           Kind.DIE: "the die shows {n}", Kind.HITS: "{n} hit{s}"}
"""Chance outcomes in words."""


def _lane_changes(s: Any, node: int) -> str:
    rule, dice = s.g.gear.steer[node]
    if rule == UNLIMITED:
        return "unlimited lane changes"
    if dice == 0:
        return "no lane changes (Steering points only)"
    expected = rules.expected_lane_changes(s.g.gear, node)
    how = "1 die" if dice == 1 else f"{'highest' if rule == HIGHEST else 'lowest'} of {dice}"
    return f"{expected:.1f} lane changes expected ({how})"


def _heat(s: Any, car: int, node: int, turbo_spent: int) -> str:
    dice = s.g.gear.red_dice[node]
    if not dice:
        return "no red dice"
    top = min(6, s.g.content.model.dice.heat_on + turbo_spent)
    odds = rules.heat_odds(s, car, node, turbo_spent)
    return f"heat {odds:.0%} ({dice} red {'die' if dice == 1 else 'dice'} on 1-{top})"


def hints(state: State, seat: int) -> list[str]:
    """Before the gearstick or a point: each reachable node with its speed, the chance of heat on the
    red roll and the lane changes to expect. While moving: the movement and lane changes left and what
    lies straight ahead. Nothing when ``seat`` is not to play."""
    from .state import AFTER, GEAR, MOVE, POINTS, RushState

    if not isinstance(state, RushState) or state.actor != seat:
        return []
    s = state
    gear = s.g.gear
    node = s.node[seat]
    out: list[str] = []
    if s.stage in (GEAR, POINTS):
        spent = s.turbo_spent
        out.append(f"now {gear.names[node]}, speed {gear.speed[node]}: {_heat(s, seat, node, spent)}; "
                   f"{_lane_changes(s, node)}")
        for action in s.legal_actions():
            move = notation.parse(action)
            if move.kind in (Kind.GEAR, Kind.TURBO, Kind.BRAKE):
                to = gear.node(move.name)
                turbo = spent + (move.kind is Kind.TURBO)
                out.append(f"  {action:11s} speed {gear.speed[to]:2d}: {_heat(s, seat, to, turbo)}; "
                           f"{_lane_changes(s, to)}")
    elif s.stage is MOVE:
        changes = "unlimited" if s.lane_changes < 0 else str(s.lane_changes)
        out.append(f"movement left {s.movement}; lane changes left {changes} (+{s.steering[seat]} Steering points)")
        out.append("straight ahead: " + _ahead(s, seat, s.movement))
    elif s.stage is AFTER:
        out.append("straight ahead: " + _ahead(s, seat, rules.MAX_BOOST))
        if s.heat[seat]:
            out.append(f"heat {s.heat[seat]} of {s.dash[seat].heat_capacity}: a Rocket Booster square "
                       "heats on 1-2 (33%)")
    return out


def _ahead(s: Any, car: int, squares: int) -> str:
    """What the next ``squares`` squares of the car's lane hold."""
    track = s.g.track
    sq = s.square[car]
    seen = []
    for distance in range(1, max(1, squares) + 1):
        sq = track.ahead[sq]
        if sq < 0:
            seen.append(f"{distance}: the finish line")
            break
        other = rules.car_at(s, sq)
        what = (f"P{other + 1}" if other >= 0 else "obstruction" if track.obstruction[sq]
                else "wreck" if rules.wreck_at(s, sq) else "mine" if rules.mine_owner(s, sq) >= 0 else "")
        if what:
            seen.append(f"{distance}: {what}")
    return ", ".join(seen) if seen else f"clear for {squares} squares"


__all__ = ["KEY", "board", "describe_action", "hints"]
