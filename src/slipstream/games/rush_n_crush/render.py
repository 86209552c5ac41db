"""Rush 'n' Crush in words: the terminal board (the course as lanes of squares, its key with every
hazard's and piece's effect, each car's dashboard), the action labels, the hints before a choice (heat
on the next red roll, the lane changes to expect at each gear, what lies ahead), the glossary and the
scoreboard.

Names and effect texts come from the content files; a gear is said by ``content.gear_words`` ("gear 2,
yellow zone (speed 6)") and a square by ``course.place_words`` ("tile 3 (Left curve), lane 2, square
5"), as the board labels its tiles, lanes and squares."""

from __future__ import annotations

import textwrap
from typing import Any

from slipstream.engine.game import Game, State
from slipstream.engine.hooks import Term

from . import metrics, notation, rules
from .content import FIRE_EXTINGUISHER, FIXED_PIECES, HAZARDS, HIGHEST, PIECES, ROCKET_BOOSTER, UNLIMITED, gear_words
from .course import place_of_name, shipped_courses
from .game import RushNCrush
from .state import RushState
from .types import Direction, Kind, Stage, Task

WIDTH = 76
"""The widest board line: an 80-column terminal less the panel's border and padding."""
RANK = 2
"""Characters a rank of the course takes in the picture: a square starts with ``|`` then its mark."""
COLOUR = ("red", "cyan", "yellow", "green", "magenta", "blue")
"""The colour of seat k's number on the course and its dashboard."""
EMPTY, OBSTRUCTION, WRECK, MINE = ".", "#", "X", "*"
SIGNS = {"obstruction": OBSTRUCTION, "wreck": WRECK, "mine": MINE}
"""The sign of each hazard on the terminal's course."""


def _wrap(text: str, indent: str = "   ", first: str = "") -> list[str]:
    """``text`` in lines of at most ``WIDTH`` characters: the first after ``first``, the rest after
    ``indent``."""
    return textwrap.wrap(text, WIDTH, initial_indent=first, subsequent_indent=indent, break_on_hyphens=False)


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
    """The tile's four lanes, lane 1 (the left one in the direction of travel) on top."""
    rows = []
    for lane, spans in enumerate(lanes):
        rows.append("".join("|" + marks.get(f"{tile}.{lane}.{i}", EMPTY) + " " * (RANK * span - 2)
                            for i, span in enumerate(spans)))
    return rows


def _course(view: dict[str, Any]) -> list[str]:
    """The tiles left to right in the direction of travel, as many to a band as the width allows, each
    headed by its number and name (``place_words`` counts tiles, lanes and squares the same way)."""
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
        heads = (f"{t + 1} {course['tiles'][t]['name']}".strip()[:widths[t] - 1].ljust(widths[t]) for t in band)
        lines.append("   " + "".join(heads).rstrip())
        drawn = [_tile_rows(t, tiles[t], marks) for t in band]
        for lane in range(len(drawn[0])):
            lines.append(f"L{lane + 1} " + "".join(rows[lane] for rows in drawn))
    if course["closed"]:
        lines.append(f"start/finish line: the end of tile 1; {course['laps']} lap(s); travel left to right")
    else:
        lines.append(f"finish line: the end of tile {len(widths)}; travel left to right")
    return lines


def _key(view: dict[str, Any]) -> list[str]:
    """The signs of the course, then the effect of every hazard and of every piece of equipment in the
    race (from the content's texts)."""
    terms = view["terms"]
    lines = [f"key: 1-6 a car (its seat)  {WRECK} {terms['wreck']['name']}  {MINE} {terms['mine']['name']}  "
             f"{OBSTRUCTION} {terms['obstruction']['name']}  {EMPTY} empty",
             "     | a square starts (a curve's inner lane has fewer, longer squares)",
             "     L1-L4 the lanes, L1 on the left; squares count from each tile's start"]
    for hazard in HAZARDS:
        lines += _wrap(f"{terms[hazard]['name']}: {terms[hazard]['text']}", "     ", f"{SIGNS[hazard]}    ")
    seat = view["seat"]
    cars = [car for car in view["cars"] if seat is None or car["seat"] == seat]
    present = {p for car in cars for p in (*car["fixed"], *car["pieces"])}
    shown = [p for p in (*FIXED_PIECES, *PIECES) if p in present]
    if shown:
        whose = "in the race" if seat is None else "of your car"
        lines.append(f"Equipment {whose} (on the dashboards: + armed, - disarmed):")
        for piece in shown:
            lines += _wrap(f"{terms[piece]['name']}: {terms[piece]['text']}", "     ", "  ")
    return lines


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _pieces(car: dict[str, Any], terms: dict[str, dict[str, str]]) -> str:
    armed = set(car["armed"])
    return ", ".join(("+" if p in armed else "-") + terms[p]["name"] for p in car["pieces"])


def _place(view: dict[str, Any], square: str) -> str:
    return place_of_name(square, [tile["name"] for tile in view["course"]["tiles"]])


def _dashboard(view: dict[str, Any]) -> list[str]:
    lines = []
    order = {seat: k for k, seat in enumerate(view["order"])}
    terms = view["terms"]
    for car in view["cars"]:
        seat = car["seat"]
        tag = f"[bold {COLOUR[seat % len(COLOUR)]}]P{seat + 1}[/]"
        if car["car_name"] is None:
            lines.append(f"{tag} waits for its car and driver")
            continue
        turn = f", {_ordinal(order[seat] + 1)} in turn order" if seat in order and not car["destroyed"] else ""
        active = "  <- to play" if view["active"] == seat else ""
        head = _wrap(f"{car['car_name']} / {car['driver_name']}{turn}{active}", first="P0 ")
        lines.append(tag + head[0][2:])
        lines += head[1:]
        if car["square"] is not None:
            where = _place(view, car["square"])
            lap = f", lap {car['lap'] + 1}" if view["course"]["closed"] and not car["destroyed"] else ""
            lines += _wrap(("destroyed: a wreck at " if car["destroyed"] else "at ") + where + lap, first="   ")
        lines += _wrap(f"{gear_words(car['gear'], car['zone'], car['speed'])}; structure {car['structure']}, "
                       f"heat {car['heat']} of {car['heat_capacity']}", first="   ")
        lines.append(f"   points left: steering {car['steering']}, brake {car['brake']}, turbo {car['turbo']}")
        fixed = ", ".join(terms[p]["name"] for p in car["fixed"])
        mines = f" ({car['mines_left']} mines left)" if "minelayer" in car["fixed"] else ""
        lines += _wrap(f"{fixed}{mines}; {_pieces(car, terms)}", first="   ")
    return lines


def _turn(view: dict[str, Any]) -> list[str]:
    if view["active"] is None:
        return []
    turn = view["turn"]
    changes = "unlimited" if turn["lane_changes"] is None else str(turn["lane_changes"])
    stage = ROLLS.get(view["roll"], view["roll"]) if view["roll"] else PHASES.get(view["phase"], view["phase"])
    moving = "" if view["phase"] in ("gear", "points") else (
        f": movement {turn['movement']}, lane changes {changes}")
    booster = view["terms"]["rocket-booster"]["name"]
    return [f"P{view['active'] + 1} ({stage}){moving}",
            f"   activations left {turn['activations']}" + (f", {booster} fired" if turn["boosted"] else "")]


def board(view: dict[str, Any]) -> str:
    """The course as lanes of squares, the key, then every car's dashboard and the turn so far."""
    result = view.get("result")
    head = f"Round {view['round']}, {view['course']['name']}" + (
        f" - {result['reason']}" if result else f", order {' '.join(f'P{seat + 1}' for seat in view['order'])}")
    lines = [*_wrap(head, first=""), *_course(view), *_key(view), "", *_dashboard(view), *_turn(view)]
    return "\n".join(lines)


ROLLS = {"heat": "red dice", "steer": "white dice", "crash": "obstruction damage", "wreck": "wreck die",
         "mine": "mine die", "ram": "Side Ram die", "saw": "saw die", "gun": "gun dice",
         "flame": "flame dice", "rnc": "Rush 'n' Crush dice", "boost_heat": "booster heat dice"}
"""The roll a chance node waits for (the view's ``roll``), in words."""
PHASES = {"gear": "gearstick", "points": "Turbo or Brake points", "move": "moving",
          "swerve": "swerving round an obstruction", "after": "after the move", "over": "race over"}
"""The part of the turn (the view's ``phase``), in words."""

_SIMPLE = {Kind.KEEP: "keep the gearstick where it is", Kind.DONE: "spend no more points",
           Kind.END: "end the turn"}
_STEPS = {Direction.AHEAD: "step straight ahead", Direction.LEFT: "step diagonally forward left",
          Direction.RIGHT: "step diagonally forward right"}


def _rush(game: Game) -> RushNCrush:
    if not isinstance(game, RushNCrush):
        raise TypeError(f"not a Rush 'n' Crush game: {type(game).__name__}")
    return game


def _gear(game: RushNCrush, node_name: str) -> str:
    """A node of the loaded game's matrix in words (the name itself if the matrix has no such node)."""
    names = game.gear.names
    return game.gear.titles[names.index(node_name)] if node_name in names else node_name


def describe_action(game: Game, action: str) -> str:
    """A short label in words for an action (``left+bumper`` -> ``step diagonally forward left, a Side
    Ram Using the Side Bumper``; ``gear:g2y`` -> ``move the gearstick to gear 2, yellow zone (speed 6)``)."""
    try:
        move = notation.parse(action)
    except ValueError:
        return action
    rush = _rush(game)
    content = rush.content
    pieces = content.terms
    kind = move.kind
    if kind in _SIMPLE:
        return _SIMPLE[kind]
    if kind is Kind.STEP:
        extras = [pieces[p]["name"] for p, on in (("side-bumper", move.bumper), ("circular-saw", move.saw)) if on]
        label = _STEPS[Direction(move.number)]
        if extras:
            label += ", a Side Ram Using the " + " and the ".join(extras)
        return label + (", dropping a mine" if move.mine else "")
    if kind is Kind.SWERVE:
        mine = ", dropping a mine" if move.mine else ""
        return f"swerve {notation.DIRECTION_WORDS[Direction(move.number)]} round the obstruction{mine}"
    if kind is Kind.GEAR:
        return f"move the gearstick to {_gear(rush, move.name)}"
    if kind is Kind.TURBO:
        return f"spend a Turbo point: accelerate to {_gear(rush, move.name)}"
    if kind is Kind.BRAKE:
        return f"spend a Brake point: brake to {_gear(rush, move.name)}"
    if kind in (Kind.ARM, Kind.USE) and move.name in pieces:
        return f"{'arm' if kind is Kind.ARM else 'Use'} the {pieces[move.name]['name']}"
    if kind is Kind.BOOST:
        mine = ", dropping a mine" if move.mine else ""
        if move.mine and move.mine_square > 1:
            mine += f" on the square {move.mine_square - 1} ahead of its start"
        squares = "1 square" if move.number == 1 else f"{move.number} squares"
        return f"fire the {pieces['rocket-booster']['name']}: {squares} straight on{mine}"
    if kind is Kind.GRID and 0 <= move.number < rush.players:
        return f"the next grid slot to {rush.seat_name(move.number)}"
    if kind is Kind.CAR and move.name in content.cars:
        return f"the car {content.cars[move.name].name}"
    if kind is Kind.DRIVER and move.name in content.drivers:
        return f"the driver {content.drivers[move.name].name}"
    if kind in _ROLLED:
        return _ROLLED[kind].format(n=move.number, plural="" if move.number == 1 else "s")
    return action


_ROLLED = {Kind.HEAT: "{n} heat", Kind.STEER: "{n} lane change{plural}",
           Kind.CRASH: "{n} structure from the obstruction", Kind.DIE: "the die shows {n}",
           Kind.HITS: "{n} hit{plural}"}
"""Chance outcomes in words."""


def _lane_changes(state: RushState, node: int) -> str:
    rule, dice = state.game.gear.steer[node]
    if rule == UNLIMITED:
        return "unlimited lane changes"
    if dice == 0:
        return "no lane changes (Steering points only)"
    expected = rules.expected_lane_changes(state.game.gear, node)
    how = "1 white die" if dice == 1 else f"{'highest' if rule == HIGHEST else 'lowest'} of {dice} white dice"
    return f"{expected:.1f} lane changes expected ({how})"


def _heat(state: RushState, car: int, node: int, turbo_spent: int) -> str:
    dice = state.game.gear.red_dice[node]
    if not dice:
        return "no red dice"
    top = min(6, state.game.content.model.dice.heat_on + turbo_spent)
    odds = rules.heat_odds(state, car, node, turbo_spent)
    return f"heat {odds:.0%} ({dice} red {'die' if dice == 1 else 'dice'} on 1-{top})"


def _first_time(state: RushState, stage: Stage) -> list[str]:
    """The one-line explanation of a kind of decision (content ``[decisions]``), the first time a player
    meets it: in the first round (before the first step of the move), and at every swerve (rare)."""
    told = state.game.content.model.decisions
    if stage is Stage.SWERVE:
        return [told.swerve]
    if state.round != 1:
        return []
    if stage is Stage.GEAR:
        return [told.gear, told.equipment]
    if stage is Stage.POINTS:
        return [told.points]
    if stage is Stage.MOVE and state.movement == state.game.gear.speed[state.node[state.order[state.turn]]]:
        return [told.move]
    if stage is Stage.AFTER:
        return [told.after]
    return []


def hints(state: State, seat: int) -> list[str]:
    """The first time a kind of decision comes, what it does in one line. Before the gearstick or a
    point: each reachable gear with the chance of heat on the red roll and the lane changes to expect.
    While moving: the movement and lane changes left and what lies straight ahead. Nothing when
    ``seat`` is not to play."""
    if not isinstance(state, RushState) or state.actor != seat:
        return []
    gear = state.game.gear
    node = state.node[seat]
    out = _first_time(state, state.stage)
    if state.stage in (Stage.GEAR, Stage.POINTS):
        spent = state.turbo_spent
        out.append(f"now {gear.titles[node]}: " + ("every car starts here and must accelerate" if not node else
                                                    f"{_heat(state, seat, node, spent)}; {_lane_changes(state, node)}"))
        for action in state.legal_actions():
            move = notation.parse(action)
            if move.kind not in (Kind.GEAR, Kind.TURBO, Kind.BRAKE):
                continue
            to = gear.node(move.name)
            if move.kind is Kind.GEAR:
                verb = "accelerate" if to in gear.accelerate[node] else "brake" if to in gear.brake[node] else "shift"
            else:
                verb = "Turbo point: accelerate" if move.kind is Kind.TURBO else "Brake point: brake"
            turbo = spent + (move.kind is Kind.TURBO)
            out.append(f"  {verb} to {gear.titles[to]}: {_heat(state, seat, to, turbo)}; {_lane_changes(state, to)}")
    elif state.stage is Stage.MOVE:
        changes = "unlimited" if state.lane_changes < 0 else str(state.lane_changes)
        out.append(f"movement left {state.movement}; lane changes left {changes} "
                   f"(+{state.steering[seat]} Steering points)")
        out.append("straight ahead: " + _ahead(state, seat, state.movement))
    elif state.stage is Stage.AFTER:
        out.append("straight ahead: " + _ahead(state, seat, rules.MAX_BOOST))
        if state.heat[seat]:
            out.append(f"heat {state.heat[seat]} of {state.dash[seat].heat_capacity}: each "
                       f"{state.game.content.terms['rocket-booster']['name']} square heats on 1-2 (33%)")
    return out


def _ahead(state: RushState, car: int, squares: int) -> str:
    """What the next ``squares`` squares of the car's lane hold."""
    track = state.game.track
    hazards = state.game.content.terms
    sq = state.square[car]
    seen = []
    for distance in range(1, max(1, squares) + 1):
        sq = track.ahead[sq]
        on = f"{distance} square{'s' if distance > 1 else ''} on"
        if sq < 0:
            seen.append(f"the finish line {on}")
            break
        other = rules.car_at(state, sq)
        what = (state.game.seat_name(other) if other >= 0 else hazards["obstruction"]["name"] if track.obstruction[sq]
                else hazards["wreck"]["name"] if rules.wreck_at(state, sq)
                else hazards["mine"]["name"] if rules.mine_owner(state, sq) >= 0 else "")
        if what:
            seen.append(f"{what} {on}")
    return ", ".join(seen) if seen else f"clear for {squares} squares"


# --- the glossary and the scoreboard ----------------------------------------------------------------


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _gear_text(game: RushNCrush, node: int) -> str:
    """What a node of the gear matrix means for the turn: red dice, lane changes, obstruction damage."""
    gear = game.gear
    if node == 0:
        return "Every car starts here; its only line leads up to gear 1 (accelerate)."
    red = gear.red_dice[node]
    heat_on = game.content.model.dice.heat_on
    dice = (f"{_count(red, 'red die', 'red dice')}, each giving 1 heat on 1-{heat_on} (+1 for each Turbo point "
            "spent this turn)" if red else "no red dice (no heat)")
    rule, count = gear.steer[node]
    if rule == UNLIMITED:
        steer, crash = "unlimited lane changes", "1 structure"
    elif count == 0:
        steer, crash = "no lane changes but Steering points", "6 structure"
    else:
        kept, inverse = ("highest", "lowest") if rule == HIGHEST else ("lowest", "highest")
        steer = f"lane changes: the {kept} of {count} white dice" if count > 1 else "lane changes: 1 white die"
        crash = f"the {inverse} of {count} white dice in structure" if count > 1 else "1 white die in structure"
    return f"Move {gear.speed[node]} squares; {dice}; {steer}; a fixed obstruction hit costs {crash}."


def _course_text(text: str, tiles: int, closed: bool, laps: int) -> str:
    shape = f"closed, {_count(laps, 'lap', 'laps')}" if closed else "open: from the start to the finish line"
    return " ".join(part for part in (text, f"{_count(tiles, 'tile', 'tiles')}, {shape}.") if part)


def glossary(game: Game) -> dict[str, Term]:
    """Every car, driver, piece of equipment, hazard (fixed obstruction, wreck, mine), course, tile face
    of the course and node of the gear matrix, by id, with its name and effect in words."""
    rush = _rush(game)
    content = rush.content
    out: dict[str, Term] = {}
    for car in content.cars.values():
        fixed = " and ".join(content.equipment[p].name for p in car.fixed)
        mines = f", {content.model.base.mines} mines" if "minelayer" in car.fixed else ""
        out[car.id] = Term(car.name, f"{car.text} Fixed equipment: {fixed}. Structure {car.structure}, heat limit "
                           f"{car.heat_capacity}, Steering {car.steering}, Brake {car.brake}, Turbo {car.turbo}"
                           f"{mines}.", "car")
    every = " and ".join(content.piece_names[p] for p in (ROCKET_BOOSTER, FIRE_EXTINGUISHER))
    for driver in content.drivers.values():
        weapons = ", ".join(content.equipment[p].name for p in driver.weapons)
        out[driver.id] = Term(driver.name, f"{driver.text} Equipment: {weapons}, and the {every} every driver has.",
                              "driver")
    for piece, term in content.terms.items():
        out[piece] = Term(term["name"], term["text"], term["kind"])
    for course in shipped_courses().values():
        out[course.id] = Term(course.name, _course_text(course.text, len(course.faces), course.closed, course.laps),
                              "course")
    track = rush.track
    out[track.id] = Term(track.name, _course_text(track.text, len(track.faces), track.closed, track.laps), "course")
    for face, name, text in zip(track.faces, track.tile_names, track.tile_texts, strict=True):
        out[face] = Term(name or "Tile", text, "tile")
    for node, name in enumerate(rush.gear.names):
        out[name] = Term(rush.gear.titles[node], _gear_text(rush, node), "gear")
    return out


def scoreboard(state: State) -> dict[int, dict[str, str]]:
    """Each seat's race in words: its place (and whether it is a wreck), car and driver, Structure left,
    heat taken, and the Structure points and wrecks it dealt to others (a mine's damage goes to the car
    that laid it). The race is replayed from its record to put each point down to the car that dealt it."""
    if not isinstance(state, RushState):
        raise TypeError(f"not a Rush 'n' Crush state: {type(state).__name__}")
    n = state.game.players
    dealt = [0] * n
    wrecks = [0] * n
    heat = [0] * n
    new: State = state.game.start(seed=state.seed)
    for action in state.actions:
        old, new = new, new.apply_unchecked(action)
        if not isinstance(old, RushState) or not isinstance(new, RushState) or not old.order:
            continue
        dealer = old.order[old.turn] if old.turn < len(old.order) else -1
        if old.stage is Stage.ROLL and old.need[0] == Task.WRECK:
            dealer = -1
        elif old.stage is Stage.ROLL and old.need[0] == Task.MINE:
            dealer = rules.mine_owner(old, old.need[2])
        for c in range(n):
            heat[c] += max(0, new.heat[c] - old.heat[c])
            if c == dealer or dealer < 0:
                continue
            dealt[dealer] += max(0, old.structure[c] - new.structure[c])
            hurt = new.structure[c] < old.structure[c] or new.heat[c] > old.heat[c]
            if hurt and new.destroyed[c] and not old.destroyed[c]:
                wrecks[dealer] += 1
    places = metrics.standings(state)
    out: dict[int, dict[str, str]] = {}
    for seat in range(n):
        dash = state.dash[seat]
        known = state.stage is not Stage.DEAL
        place = _ordinal(places.index(seat) + 1) + (" (wreck)" if state.destroyed[seat] else "")
        out[seat] = {
            "Place": place,
            "Car and driver": f"{dash.car_name} / {dash.driver_name}" if known else "not dealt yet",
            "Structure left": f"{state.structure[seat]} of {dash.structure}",
            "Heat taken": str(heat[seat]),
            "Damage dealt": str(dealt[seat]),
            "Wrecks caused": str(wrecks[seat]),
        }
    return out


__all__ = ["board", "describe_action", "glossary", "hints", "scoreboard"]
