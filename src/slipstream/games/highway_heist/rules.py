"""The rules of Highway Heist as small functions in rulebook order, each citing its section
(rules/highway-heist.txt; the gaps HH-* decided in docs/rules/highway-heist.md).

A function takes the state being built by ``apply`` (a fresh copy) and changes it by the copy rule of
``engine.fields``: tuples are replaced, never changed. Enemy effects, damage and Road Maintenance run as
``Task``s from the state's queue, so a decision (an Assist, a Boost, a choice the team makes) can pause
them and the next action resumes them.
"""

from __future__ import annotations

from math import comb
from typing import TYPE_CHECKING

from slipstream.engine.fields import replaced
from slipstream.engine.game import Event

from . import notation
from .content import Action, Line
from .notation import NO_SPACE, Verb
from .types import (
    ABANDONED,
    ATHLETICS,
    BEHIND_WHEEL,
    CAB,
    DEFENSE,
    DIRECTION_STEPS,
    ENEMY_VEHICLES,
    HIJACKED,
    NO_DIRECTION,
    NOWHERE,
    OFF,
    PEG_VEHICLES,
    PLAYER,
    ROLL_VERBS,
    ROOF_SLOTS,
    SHAW,
    SPEED,
    STEP_WORDS,
    SUV,
    TANK,
    TRAILER,
    WRECK,
    Choice,
    ChoiceKind,
    Piece,
    Roll,
    Stage,
    Task,
    TaskKind,
)

if TYPE_CHECKING:
    from .state import HeistState

# --- geometry (Core Concepts: The Road, Adjacency) --------------------------------------------------


def col(state: HeistState, space: int) -> int:
    return space // state.g.lanes


def lane(state: HeistState, space: int) -> int:
    return space % state.g.lanes


def dist(state: HeistState, a: int, b: int) -> int:
    """King-move distance (HH-A2): adjacency is the eight surrounding spaces."""
    return state.g.distances[a * state.g.spaces + b]


def step(state: HeistState, space: int, dc: int, dl: int) -> int:
    """The space ``dc`` columns East and ``dl`` lanes South, or ``OFF`` past the edge."""
    c, ln = space // state.g.lanes + dc, space % state.g.lanes + dl
    if 0 <= c < state.g.columns and 0 <= ln < state.g.lanes:
        return c * state.g.lanes + ln
    return OFF


def occupancy(state: HeistState) -> dict[int, int]:
    """Space -> piece for every piece on the road (the Chopper is not a piece: it fills no space)."""
    return {p.space: i for i, p in enumerate(state.pieces) if p.space >= 0}


def space_of(state: HeistState, text: tuple[int, int]) -> int:
    return (text[0] - 1) * state.g.lanes + text[1] - 1


def name(state: HeistState, space: int) -> str:
    """A space in words, as the board labels it ("column 5, lane 3")."""
    return state.g.places[space]


def piece_words(state: HeistState, piece: int) -> str:
    """A piece as a player finds it on the board: "P1 (Dom)'s Exotic Supercar", "the Enemy SUV in column 5,
    lane 3", "the Tank", "the Semi cab", "Shaw's Car"."""
    p = state.pieces[piece]
    game = state.g
    kind = p.kind
    if kind in (PLAYER, HIJACKED):
        board_index = state.board[p.owner] if state.board[p.owner] >= 0 else game.starting_boards[p.owner]
        board = game.boards[board_index]
        return f"{game.seat_name(p.owner)}'s {board.name}"
    name = game.kind_names[kind]
    if kind == SHAW:
        return name
    if kind in (TANK, CAB, TRAILER):
        return f"the {name}"
    where = f" in {game.places[p.space]}" if p.space >= 0 else ""
    if kind == ABANDONED:
        return f"the abandoned {game.boards[game.starting_boards[p.owner]].name}{where}"
    return f"the {name}{where}"


# --- who is where (Player Pegs and Enemy Pegs; Player Vehicles) --------------------------------------


def is_player_vehicle(p: Piece) -> bool:
    return p.space >= 0 and p.kind in (PLAYER, HIJACKED)


def player_vehicles(state: HeistState) -> list[int]:
    """Every Player Vehicle on the road, in Resolution Order."""
    found = [(p.space, i) for i, p in enumerate(state.pieces)
             if p.space >= 0 and (p.kind == PLAYER or p.kind == HIJACKED)]
    found.sort()
    return [i for _, i in found]


def enemy_suvs(state: HeistState) -> list[int]:
    return sorted((i for i, p in enumerate(state.pieces) if p.kind == SUV and p.space >= 0),
                  key=lambda i: state.pieces[i].space)


def manned(state: HeistState, seat: int) -> bool:
    return state.vehicle[seat] >= 0 and state.peg_on[seat] == BEHIND_WHEEL


def pegs_on(state: HeistState, piece: int) -> int:
    return sum(1 for p in state.peg_on if p == piece)


def free_slot(state: HeistState, piece: int) -> bool:
    """A Player Peg may move there: a vehicle with a slot free (two slots, an Enemy Peg takes one)."""
    p = state.pieces[piece]
    return p.space >= 0 and p.kind in PEG_VEHICLES and pegs_on(state, piece) + p.enemy_peg < ROOF_SLOTS


def enemy_peg_fits(state: HeistState, piece: int) -> bool:
    """An Enemy Peg may move there: no Enemy Peg yet and a free slot (at most one Enemy Peg)."""
    p = state.pieces[piece]
    return p.space >= 0 and p.kind in PEG_VEHICLES and not p.enemy_peg and pegs_on(state, piece) < ROOF_SLOTS


def peg_space(state: HeistState, seat: int) -> int:
    """Where a character is: their Player Vehicle's space behind the wheel, or the vehicle they are on."""
    on = state.peg_on[seat]
    if on == BEHIND_WHEEL:
        return state.pieces[state.vehicle[seat]].space if state.vehicle[seat] >= 0 else OFF
    return state.pieces[on].space if on >= 0 else OFF


def off_the_road(p: Piece) -> Piece:
    """A piece leaving the road for good: an Enemy SUV miniature goes back to the SUV supply, anything else
    is kept off the road as a Wreck, its owner's if it had one (Wrecks; Destroyed Player Vehicles)."""
    return Piece(SUV if p.suv else WRECK, OFF, -1 if p.suv else p.owner, False, 0, p.suv)


def set_piece(state: HeistState, index: int, piece: Piece) -> None:
    state.pieces = replaced(state.pieces, index, piece)


def main_piece(state: HeistState, kind: int) -> int:
    for i, p in enumerate(state.pieces):
        if p.kind == kind and p.space >= 0:
            return i
    return -1


def named_pieces(state: HeistState, piece: str) -> list[int]:
    """The pieces a word of the effect language names (``semi``: both Semi spaces)."""
    kinds = {"tank": (TANK,), "semi_cab": (CAB,), "semi_trailer": (TRAILER,), "semi": (CAB, TRAILER),
             "shaw_car": (SHAW,)}.get(piece, ())
    return [i for i, p in enumerate(state.pieces) if p.kind in kinds and p.space >= 0]


def named_spaces(state: HeistState, piece: str) -> list[int]:
    if piece == "chopper":
        return [state.chopper] if state.chopper >= 0 else []
    return [state.pieces[i].space for i in named_pieces(state, piece)]


# --- Skill Ratings and Skill Rolls ------------------------------------------------------------------


def rating(state: HeistState, seat: int, skill: int) -> int:
    """Character icons plus Vehicle icons (Skill Categories and Ratings); with no Player Vehicle the
    Character Board alone; Defense of an unmanned vehicle counts only the Vehicle Board (IMPORTANT)."""
    own = state.g.characters[seat].ratings[skill]
    if state.vehicle[seat] < 0:
        return own
    board = state.g.boards[state.board[seat]].ratings[skill]
    if skill == DEFENSE and not manned(state, seat):
        return board
    return own + board


def roll_of(state: HeistState, act: notation.Action) -> tuple[int, int, bool]:
    """Skill Rolls: what an action rolls: its Skill Category, the successes it needs and whether it is a Ram
    (the content's actions, the Stunt cards and the scenario actions)."""
    if act.verb is Verb.STUNT:
        card = state.g.stunt_cards[act.name]
        return card.skill, card.need, card.ram
    if act.verb is Verb.SCENARIO_ACTION:
        card = state.g.scenario_actions[act.name]
        return card.skill, card.need, card.ram
    spec = state.g.content.model.actions[ROLL_VERBS[act.verb]]  # type: ignore[index]
    return ("speed", "control", "athletics").index(spec.skill), spec.need, False


def vehicle_power(state: HeistState, seat: int) -> str:
    return state.g.boards[state.board[seat]].power if state.vehicle[seat] >= 0 else "none"


def roll_bonus(state: HeistState, seat: int) -> int:
    """Exotic Supercar, Thoroughbred (HH-G8): +1 success while the cube is in the top two slots."""
    return 1 if vehicle_power(state, seat) == "thoroughbred" and state.damage[seat] <= 1 else 0


def leap_range(state: HeistState, seat: int) -> int:
    """Leap: within the Athletics Rating, for every character. Han's Parkour adds no range (HH-G6): the
    content's own check makes Player 1 of the Leap example Han with the Street Drifter (Athletics 3),
    and the example puts a vehicle four spaces away out of reach."""
    return rating(state, seat, ATHLETICS)


def family_first_seat(state: HeistState, victim: int) -> int:
    """Dom's Family First (HH-G6): once per round, even when Exhausted, a manned Dom next to the
    slammed team mate may take the slam instead; -1 if no Dom can."""
    target = state.vehicle[victim]
    if target < 0:
        return -1
    for seat, character in enumerate(state.g.characters):
        if (character.power == "family_first" and seat != victim and manned(state, seat)
                and seat not in state.family_first_used
                and dist(state, state.pieces[state.vehicle[seat]].space, state.pieces[target].space) == 1):
            return seat
    return -1


def effort_faces(state: HeistState) -> tuple[int, int, int]:
    """How many faces of the Effort Die show a success, a boost and a blank (content)."""
    faces = state.g.content.model.effort_die.faces
    return faces.count("success"), faces.count("boost"), faces.count("blank")


def roll_odds(state: HeistState, seat: int, skill: int, need: int) -> dict[str, float]:
    """For a bot or a hint: the chance that ``seat`` makes ``need`` successes on a roll of ``skill``,
    plain, with a Boost, with one or two Assist tokens (two dice each, capped at the dice cap) and with
    both; the seat's own bonus (Exotic Supercar) is counted."""
    faces = effort_faces(state)
    dice = min(rating(state, seat, skill) if skill != DEFENSE else defense_dice(state, seat), state.g.max_dice)
    bonus = roll_bonus(state, seat)
    out: dict[str, float] = {}
    for assists in (0, 1, 2):
        n = min(dice + 2 * assists, state.g.max_dice)
        label = ("plain", "assisted", "assisted_twice")[assists]
        out[label] = success_chance(faces, n, need, False, bonus)
        out[label.replace("plain", "") + ("_boosted" if assists else "boosted")] = success_chance(
            faces, n, need, True, bonus)
    return out


def success_chance(faces: tuple[int, int, int], dice: int, need: int, boost: bool = False,
                   bonus: int = 0) -> float:
    """The chance that ``dice`` Effort Dice show at least ``need`` successes: ``faces`` counts the die's
    success, boost and blank faces; with ``boost`` every boost face counts (Boost); ``bonus`` successes
    are added. For a bot or a hint: call it with ``dice + 2`` for each Assist (capped at the dice cap)."""
    total = sum(faces)
    p = (faces[0] + (faces[1] if boost else 0)) / total
    need = max(0, need - bonus)
    chance = 0.0
    for k in range(need, dice + 1):
        chance += comb(dice, k) * p ** k * (1 - p) ** (dice - k)
    return 1.0 if need == 0 else chance


def roll_successes(roll: Roll) -> int:
    state, b, _ = roll.faces
    return state + (b if roll.boosted else 0) + roll.bonus


# --- actions (Take Two Actions) -----------------------------------------------------------------------


def drive_destinations(state: HeistState, seat: int) -> list[int]:
    """Drive: up to Speed spaces in any directions, never through or onto a vehicle or Wreck; the
    Street Drifter may pass through one occupied space per Drive (HH-G8)."""
    start = state.pieces[state.vehicle[seat]].space
    taken = occupancy(state)
    reach = rating(state, seat, SPEED)
    if vehicle_power(state, seat) != "drift":
        return reachable(state, start, reach, taken)
    seen: dict[tuple[int, bool], int] = {(start, False): 0}
    frontier = [(start, False)]
    ends: set[int] = set()
    for depth in range(1, reach + 1):
        nxt = []
        for space, used in frontier:
            for n in state.g.neighbours[space]:
                blocked = n in taken
                if blocked and used:
                    continue
                key = (n, used or blocked)
                if key in seen:
                    continue
                seen[key] = depth
                nxt.append(key)
                if not blocked:
                    ends.add(n)
        frontier = nxt
    ends.discard(start)
    return sorted(ends)


def reachable(state: HeistState, start: int, reach: int, taken: dict[int, int]) -> list[int]:
    """Empty spaces within ``reach`` steps of ``start`` through empty spaces (Force; moves by effects)."""
    seen = {start}
    frontier = [start]
    for _ in range(reach):
        nxt = []
        for space in frontier:
            for n in state.g.neighbours[space]:
                if n not in seen and n not in taken:
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    seen.discard(start)
    return sorted(seen)


def leap_targets(state: HeistState, seat: int) -> list[int]:
    """Leap: a vehicle with an available slot within the Athletics Rating of where the character is."""
    origin = peg_space(state, seat)
    if origin < 0:
        return []
    reach = leap_range(state, seat)
    here = state.peg_on[seat]
    riders = [0] * len(state.pieces)
    for on in state.peg_on:
        if on >= 0:
            riders[on] += 1
    distances, row = state.g.distances, origin * state.g.spaces
    return [i for i, p in enumerate(state.pieces)
            if i != here and p.space >= 0 and p.kind in PEG_VEHICLES and riders[i] + p.enemy_peg < ROOF_SLOTS
            and distances[row + p.space] <= reach]


def can_leap_to_wheel(state: HeistState, seat: int) -> bool:
    """Leap back behind the wheel of your own Player Vehicle (within range; FAQ: only by a Leap)."""
    if state.vehicle[seat] < 0 or state.peg_on[seat] == BEHIND_WHEEL:
        return False
    origin = peg_space(state, seat)
    return origin >= 0 and dist(state, origin, state.pieces[state.vehicle[seat]].space) <= leap_range(state, seat)


def ram_targets(state: HeistState, seat: int) -> list[int]:
    """Ram Enemy SUV: an Enemy SUV adjacent to your manned Player Vehicle."""
    here = state.pieces[state.vehicle[seat]].space
    return [i for i in enemy_suvs(state) if dist(state, here, state.pieces[i].space) == 1]


def force_range(state: HeistState, seat: int) -> int:
    """Force moves up to two spaces; the Import Racer's Nudge, three (HH-G8)."""
    return 3 if vehicle_power(state, seat) == "nudge" else 2


def force_targets(state: HeistState, seat: int) -> list[int]:
    """Force: an adjacent Enemy SUV or Player Vehicle (never a Wreck) that has somewhere to go."""
    here = state.pieces[state.vehicle[seat]].space
    taken = occupancy(state)
    out = []
    for i, p in enumerate(state.pieces):
        if (p.space >= 0 and p.kind in (SUV, PLAYER, HIJACKED) and dist(state, here, p.space) == 1
                and reachable(state, p.space, force_range(state, seat), taken)):
            out.append(i)
    return out


def take_stunt_token(state: HeistState, seat: int, spot: int) -> None:
    """Stunt Actions: a successful Level 1 or 2 Stunt takes one Boost token off the card (to the
    supply if the player is at their cap); a card with none left is flipped face down."""
    tokens = state.stunt_tokens[spot]
    if tokens <= 0:
        return
    state.stunt_tokens = replaced(state.stunt_tokens, spot, tokens - 1)
    if state.boost[seat] < state.g.boost_caps[seat]:
        state.boost = replaced(state.boost, seat, state.boost[seat] + 1)
    else:
        state.boost_supply += 1


# --- the actions offered (Take Two Actions; Special Powers) -------------------------------------------


def power_choices(state: HeistState) -> list[str]:
    """Special Powers (HH-G6): the open window's choices (use the power or pass)."""
    seat = state.power_seat
    if state.power == "wheelman" and state.roll is not None:
        _, boosts, blanks = state.roll.faces
        return sorted(["pass"] + (["reroll:blank"] if blanks else []) + (["reroll:boost"] if boosts else []))
    verb = Verb.TECH if state.power == "tech" else Verb.TAKE_SLAM
    return sorted([notation.seated(seat, Verb.PASS), notation.seated(seat, verb)])


def action_choices(state: HeistState) -> list[str]:
    """Take Two Actions: every action the Active Player may take now."""
    seat = state.active
    out = [Verb.END_TURN.value]
    if state.boost[seat] < state.g.boost_caps[seat] and state.boost_supply > 0:
        out.append(Verb.TAKE_BOOST.value)
    if manned(state, seat):
        out += [space_action(state, Verb.DRIVE, d) for d in drive_destinations(state, seat)]
        out += [space_action(state, Verb.RAM, state.pieces[t].space) for t in ram_targets(state, seat)]
        out += [space_action(state, Verb.FORCE, state.pieces[t].space) for t in force_targets(state, seat)]
        if state.pieces[state.vehicle[seat]].enemy_peg:
            out.append(Verb.SHAKE.value)
    out += [space_action(state, Verb.LEAP, state.pieces[t].space) for t in leap_targets(state, seat)]
    if can_leap_to_wheel(state, seat):
        out.append("leap:wheel")
    roof = state.peg_on[seat]
    if roof >= 0:
        if state.pieces[roof].enemy_peg:
            out.append(Verb.BRAWL.value)
        if state.pieces[roof].kind == SUV and not (state.ramsey >= 0 and state.ramsey == state.vehicle[seat]):
            out.append(Verb.HIJACK.value)
    for spot, card_id in enumerate(state.stunt_row):
        if not card_id:
            continue
        card = state.g.stunt_cards[card_id]
        if card.level < 3 and state.stunt_tokens[spot] <= 0:
            continue
        out += card_actions(state, Verb.STUNT, card)
    for card in state.g.scenario_actions.values():
        out += card_actions(state, Verb.SCENARIO_ACTION, card)
    return sorted(set(out))


def space_action(state: HeistState, verb: Verb, space: int) -> str:
    """``drive:c5l3`` and the like, made once per game (``space_actions``)."""
    return state.g.space_actions[verb][space]


def card_actions(state: HeistState, verb: Verb, card: Action) -> list[str]:
    """A Stunt's or scenario action's actions: one per target its condition allows (none if it fails)."""
    targets = condition_targets(state, state.active, card)
    if targets is None:
        return []
    return [notation.card_action(verb, card.id, NO_SPACE if t < 0 else column_lane(state, state.pieces[t].space))
            for t in targets]


# --- conditions of Stunts and scenario actions --------------------------------------------------------


def condition_targets(state: HeistState, seat: int, card: Action) -> list[int] | None:
    """``None`` if the Condition fails; else the pieces the card may target (``[-1]``: no target)."""
    targets: list[int] | None = None
    for line in card.condition:
        verb = line.verb
        if verb == "target":
            targets = enemy_suvs(state) if line.words[0] == "enemy_suv" else player_vehicles(state)
        elif verb.startswith("target_"):
            targets = [t for t in (targets or []) if target_holds(state, seat, line, t)]
        elif not condition_holds(state, seat, line):
            return None
    if targets is None:
        return [-1]
    return targets or None


def _self_vehicle_space(state: HeistState, seat: int) -> int:
    return state.pieces[state.vehicle[seat]].space if state.vehicle[seat] >= 0 else OFF


def near(state: HeistState, space: int, piece: str, test: str, n: int = 0) -> bool:
    if space < 0:
        return False
    for other in named_spaces(state, piece):
        d = dist(state, space, other)
        lanes = state.g.lanes
        if ((test == "adjacent" and d == 1) or (test == "within" and d <= n)
                or (test == "in_front" and space == other + lanes)
                or (test == "behind" and space == other - lanes)
                or (test == "west_of" and space // lanes < other // lanes)):
            return True
    return False


def throw_zone(state: HeistState) -> list[int]:
    """Semi Heist (content 6.2): the spaces directly and diagonally behind the trailer."""
    out = []
    for t in named_spaces(state, "semi_trailer"):
        for dl in (-1, 0, 1):
            z = step(state, t, -1, dl)
            if z >= 0:
                out.append(z)
    return out


def cargo_secured(state: HeistState) -> int:
    return sum(p.cargo for p in state.pieces if is_player_vehicle(p))


def track_value(state: HeistState) -> int:
    return cargo_secured(state) if state.g.scenario.track == "cargo_secured" else state.track


def condition_holds(state: HeistState, seat: int, line: Line) -> bool:
    verb, words, n = line.verb, line.words, line.number
    roof = state.peg_on[seat]
    roof_space = state.pieces[roof].space if roof >= 0 else OFF
    if verb == "manned":
        return manned(state, seat)
    if verb == "on_foot":
        return roof >= 0
    if verb == "on_top":
        return roof >= 0 and roof in named_pieces(state, words[0])
    if verb == "not_on_top":
        return not (roof >= 0 and roof in named_pieces(state, words[0]))
    if verb == "on_semi":
        return roof >= 0 and roof in named_pieces(state, "semi")
    if verb == "roof_adjacent":
        return roof >= 0 and near(state, roof_space, words[0], "adjacent")
    if verb == "roof_within":
        return roof >= 0 and near(state, roof_space, words[0], "within", n)
    vehicle = _self_vehicle_space(state, seat)
    if verb == "vehicle_adjacent":
        return near(state, vehicle, words[0], "adjacent")
    if verb == "vehicle_within":
        return near(state, vehicle, words[0], "within", n)
    if verb == "vehicle_directly_in_front":
        return near(state, vehicle, words[0], "in_front")
    if verb == "vehicle_directly_behind":
        return near(state, vehicle, words[0], "behind")
    if verb == "vehicle_west_of":
        return near(state, vehicle, words[0], "west_of")
    if verb == "vehicle_in_throw_zone":
        return vehicle >= 0 and vehicle in throw_zone(state)
    if verb == "enemy_peg_on":
        pieces = [roof] if words[0] == "roof" else named_pieces(state, words[0])
        return any(p >= 0 and state.pieces[p].enemy_peg for p in pieces)
    if verb == "enemy_peg_on_semi":
        return any(state.pieces[p].enemy_peg for p in named_pieces(state, "semi"))
    if verb == "track_at_least":
        return track_value(state) >= n
    if verb == "door_open":
        return state.door_open
    if verb == "door_closed":
        return not state.door_open
    if verb == "cargo_in_semi":
        return state.cargo_in_semi >= 1
    if verb == "carries_ramsey":
        return state.vehicle[seat] >= 0 and state.ramsey == state.vehicle[seat]
    if verb == "player_pegs_on_semi":
        return sum(pegs_on(state, p) for p in named_pieces(state, "semi")) >= n
    if verb == "player_peg_on":
        return any(pegs_on(state, p) for p in named_pieces(state, words[0]))
    if verb == "throw_zone_has_empty":
        taken = occupancy(state)
        return any(z not in taken for z in throw_zone(state))
    raise ValueError(f"unknown condition {verb!r}")


def target_holds(state: HeistState, seat: int, line: Line, target: int) -> bool:
    space = state.pieces[target].space
    verb, words = line.verb, line.words
    if target == state.vehicle[seat] and verb != "target_in_throw_zone" and words[:1] == ("self",):
        return False
    if verb == "target_in_throw_zone":
        return space in throw_zone(state)
    anchor = words[-1]
    if anchor == "self":
        own = _self_vehicle_space(state, seat)
        if own < 0:
            return False
        d = dist(state, space, own)
        if verb == "target_adjacent":
            return d == 1
        if verb == "target_directly_beside":
            return d == 1 and col(state, space) == col(state, own)
        return verb == "target_within" and d <= line.number
    if verb == "target_adjacent":
        return near(state, space, anchor, "adjacent")
    if verb == "target_within":
        return near(state, space, anchor, "within", line.number)
    if verb == "target_directly_beside":
        return any(dist(state, space, o) == 1 and col(state, space) == col(state, o)
                   for o in named_spaces(state, anchor))
    if verb == "target_same_lane":
        return any(lane(state, space) == lane(state, o) for o in named_spaces(state, anchor))
    if verb == "target_east_of":
        return any(col(state, space) > col(state, o) for o in named_spaces(state, anchor))
    raise ValueError(f"unknown target filter {verb!r}")


# --- damage, destruction and Wrecks (Damage and Defense; Destroyed Player Vehicles; Wrecks) -----------


def defense_dice(state: HeistState, seat: int) -> int:
    """Damage and Defense: the Defense Rating in dice; Letty's Tough adds one (HH-G6); at most five."""
    dice = rating(state, seat, DEFENSE) + (1 if state.g.characters[seat].power == "tough" else 0)
    return min(dice, state.g.max_dice)


def apply_damage(state: HeistState, seat: int, amount: int, events: list[Event]) -> None:
    """Lower the Vehicle Strength one slot per damage taken; off the bottom, the vehicle is destroyed
    and becomes a Wreck (Destroyed Player Vehicles)."""
    piece = state.vehicle[seat]
    if piece < 0 or amount <= 0:
        return
    total = state.damage[seat] + amount
    state.damage = replaced(state.damage, seat, total)
    strength = state.g.boards[state.board[seat]].strength + state.g.content.model.knobs.strength_offset
    if total >= strength:
        events.append(Event("destroyed", f"{piece_words(state, piece)} is destroyed and becomes a Wreck in "
                            f"{name(state, state.pieces[piece].space)}", "Destroyed Player Vehicles"))
        make_wreck(state, piece, events)


def make_wreck(state: HeistState, piece: int, events: list[Event]) -> None:
    """Wrecks: the vehicle flips upside down where it is; its pegs move off it."""
    p = state.pieces[piece]
    lose_vehicle(state, piece, events)
    set_piece(state, piece, Piece(WRECK, p.space, p.owner, False, 0, p.suv))
    displace_pegs(state, piece, p, events)


def remove_vehicle(state: HeistState, piece: int, events: list[Event]) -> None:
    """A vehicle destroyed and removed (a Wreck's path, crushed, or off the road): its pegs move."""
    p = state.pieces[piece]
    lose_vehicle(state, piece, events)
    set_piece(state, piece, off_the_road(p))
    displace_pegs(state, piece, p, events)


def lose_vehicle(state: HeistState, piece: int, events: list[Event]) -> None:
    """What a vehicle takes with it: its owner's Player Vehicle, Cargo (lost) and Ramsey (moves)."""
    p = state.pieces[piece]
    if is_player_vehicle(p):
        state.vehicle = replaced(state.vehicle, p.owner, -1)
        state.board = replaced(state.board, p.owner, -1)
    if p.cargo:
        state.lost_cargo += p.cargo
        events.append(Event("cargo", f"{p.cargo} Cargo is lost with the vehicle", "Semi Heist: Cargo"))
    if state.ramsey == piece:
        state.ramsey = -1
        push_front(state, Task(TaskKind.RAMSEY, origin=p.space))


def displace_pegs(state: HeistState, piece: int, was: Piece, events: list[Event]) -> None:
    """Wrecks: an Enemy Peg moves to an adjacent vehicle, Player Pegs to the nearest vehicle. When more
    than one peg must move, the team decides the order (Wrecks; FAQ Enemy Effects 3): a ``PEG_ORDER``
    task asks it when the order could matter (HH-X3)."""
    tasks = []
    for seat, on in enumerate(state.peg_on):
        if on == piece or (on == BEHIND_WHEEL and state.vehicle[seat] < 0 and was.owner == seat
                           and was.kind != ABANDONED
                           and is_player_vehicle(was)):
            state.peg_on = replaced(state.peg_on, seat, NOWHERE)
            tasks.append(Task(TaskKind.RELOCATE, seat, origin=was.space))
    if was.enemy_peg:
        tasks.append(Task(TaskKind.ENEMY_RELOCATE, origin=was.space))
    if len(tasks) > 1:
        tasks.insert(0, Task(TaskKind.PEG_ORDER, origin=was.space))
    push_front(state, *tasks)


def pending_relocations(state: HeistState, origin: int) -> list[Task]:
    """The peg moves off the vehicle that was at ``origin`` still waiting at the front of the queue."""
    pending = []
    for task in state.queue:
        if task.kind not in (TaskKind.RELOCATE, TaskKind.ENEMY_RELOCATE) or task.origin != origin:
            break
        pending.append(task)
    return pending


def relocation_options(state: HeistState, task: Task) -> set[int]:
    """Every vehicle the peg of ``task`` could move to now (before the team's or owner's choice)."""
    if task.kind is TaskKind.RELOCATE:
        return set(player_peg_options(state, task.origin))
    return {i for i in range(len(state.pieces))
            if enemy_peg_fits(state, i) and dist(state, task.origin, state.pieces[i].space) == 1}


def order_pegs(state: HeistState, origin: int) -> None:
    """Wrecks, FAQ Enemy Effects 3: the team (the Active Player) chooses which displaced peg moves next,
    asked only when the order could matter: some vehicle within reach of several of them has fewer
    free slots than the pegs that could go there (otherwise every order ends the same)."""
    pending = pending_relocations(state, origin)
    reach = [relocation_options(state, task) for task in pending]
    for piece in set().union(*reach):
        free = ROOF_SLOTS - pegs_on(state, piece) - state.pieces[piece].enemy_peg
        if sum(1 for options in reach if piece in options) > free:
            options = sorted(notation.first(task.seat if task.kind is TaskKind.RELOCATE else -1) for task in pending)
            ask(state, Choice(ChoiceKind.PEG_ORDER, state.active, tuple(options), origin=origin))
            return


def move_peg_first(state: HeistState, origin: int, seat: int) -> None:
    """The team's answer: the peg of ``seat`` (-1: the Enemy Peg) moves off ``origin`` next; the order of
    the others is asked again if it still matters."""
    pending = pending_relocations(state, origin)
    rest = state.queue[len(pending):]
    first = next(t for t in pending if (t.seat if t.kind is TaskKind.RELOCATE else -1) == seat)
    others = tuple(t for t in pending if t is not first)
    order = (Task(TaskKind.PEG_ORDER, origin=origin),) if len(others) > 1 else ()
    state.queue = (first, *order, *others, *rest)


def push_front(state: HeistState, *tasks: Task) -> None:
    state.queue = (*tasks, *state.queue)


def relocate_player_peg(state: HeistState, seat: int, origin: int, events: list[Event]) -> None:
    """Wrecks: the Player Peg goes on top of the nearest vehicle with an available slot; the player
    chooses among equally near ones (the team decides; HH decision: the peg's owner). Never the vehicle
    it leaves (a Brawl moves the peg off it), nor, off a Semi roof, the other Semi roof (content 6.2).
    With no vehicle to go to, the peg is stranded until the player's next turn (HH-X7)."""
    options = player_peg_options(state, origin)
    if not options:
        strand_player_peg(state, seat, origin, events)
        return
    if len(options) == 1:
        place_player_peg(state, seat, options[0], events)
    else:
        choices = tuple(sorted(notation.at(notation.Verb.PEG, *column_lane(state, state.pieces[i].space))
                               for i in options))
        ask(state, Choice(ChoiceKind.PEG, seat, choices))


def strand_player_peg(state: HeistState, seat: int, origin: int, events: list[Event]) -> None:
    """HH-X7: a Player Peg that must move when no vehicle has an available slot for it. Pegs are never
    placed on the road and a roof holds two pegs at most (Core Concepts: Player Pegs and Enemy Pegs), but
    no player is ever eliminated (Damage and Defense): the character waits off the road, on foot (their
    Player Vehicle, if any, is unmanned), and ``origin``, the space the peg left, is kept for its return
    at the start of the player's next turn (``return_stranded_peg``)."""
    state.peg_on = replaced(state.peg_on, seat, NOWHERE)
    state.stranded = replaced(state.stranded, seat, origin)
    events.append(Event("peg", f"{state.g.seat_name(seat)} finds no vehicle with a free slot and waits off the road "
                        "until their next turn", "HH-X7"))


def return_stranded_peg(state: HeistState, seat: int, events: list[Event]) -> None:
    """HH-X7: when a stranded player starts a turn (Playing the Game), before their first action, the
    peg finishes its move as the Wrecks rule says: on top of the nearest vehicle with an available slot
    from the space it left (never the vehicle now there: the one it was Brawled off stays out of reach),
    the player choosing among equally near ones (``peg:<space>``). With still none, the turn goes on
    without it (a Boost token, a Stunt that needs no peg, the Assists of the others)."""
    if state.peg_on[seat] != NOWHERE or state.stranded[seat] < 0:
        return
    origin = state.stranded[seat]
    if not player_peg_options(state, origin):
        events.append(Event("peg", f"{state.g.seat_name(seat)} still finds no vehicle with a free slot", "HH-X7"))
        return
    relocate_player_peg(state, seat, origin, events)


def player_peg_options(state: HeistState, origin: int) -> list[int]:
    """The nearest vehicles with an available slot for a Player Peg moving off ``origin`` (Wrecks):
    never the vehicle it leaves, nor, off a Semi roof, the other Semi roof (content 6.2)."""
    left = occupancy(state).get(origin, -1)
    semi = left >= 0 and state.pieces[left].kind in (CAB, TRAILER)
    options = [i for i in range(len(state.pieces)) if free_slot(state, i) and state.pieces[i].space != origin
               and not (semi and state.pieces[i].kind in (CAB, TRAILER))]
    if not options:
        return []
    best = min(dist(state, origin, state.pieces[i].space) for i in options)
    return [i for i in options if dist(state, origin, state.pieces[i].space) == best]


def column_lane(state: HeistState, space: int) -> tuple[int, int]:
    """A space as the notation writes it: (column, lane), both from 1."""
    return space // state.g.lanes + 1, space % state.g.lanes + 1


def place_player_peg(state: HeistState, seat: int, piece: int, events: list[Event]) -> None:
    state.peg_on = replaced(state.peg_on, seat, piece)
    if state.stranded[seat] >= 0:
        state.stranded = replaced(state.stranded, seat, OFF)
    events.append(Event("peg", f"{state.g.seat_name(seat)} moves on top of {piece_words(state, piece)}", "Wrecks"))


def relocate_enemy_peg(state: HeistState, origin: int, events: list[Event]) -> None:
    """Wrecks: an Enemy Peg moves to an adjacent vehicle with a slot, a Player Vehicle first and the
    Active Player Vehicle above all; among several the team (the Active Player) chooses (FAQ); with
    none, it returns to the supply."""
    options = [i for i in range(len(state.pieces))
               if enemy_peg_fits(state, i) and dist(state, origin, state.pieces[i].space) == 1]
    if not options:
        events.append(Event("peg", "the Enemy Peg has nowhere to go and returns to the supply", "Wrecks"))
        return
    move_enemy_peg(state, -1, enemy_peg_choices(state, options), "Wrecks", events)


def enemy_peg_choices(state: HeistState, options: list[int]) -> list[int]:
    """FAQ Enemy Effects 1: the Active Player Vehicle if it is an option, else the Player Vehicles, else
    every option: the team chooses among what is left."""
    active_vehicle = state.vehicle[state.active] if state.active >= 0 else -1
    if active_vehicle in options:
        return [active_vehicle]
    return [i for i in options if is_player_vehicle(state.pieces[i])] or options


def move_enemy_peg(state: HeistState, source: int, options: list[int], rule: str, events: list[Event]) -> None:
    """Move an Enemy Peg (from ``source``, or one displaced from a Wreck: -1) onto one of ``options``,
    asking the Active Player when there are several."""
    if len(options) > 1:
        choices = tuple(sorted(notation.at(notation.Verb.PEG, *column_lane(state, state.pieces[i].space))
                               for i in options))
        ask(state, Choice(ChoiceKind.ENEMY_PEG, state.active, choices, piece=source))
        return
    place_enemy_peg(state, source, options[0], rule, events)


def place_enemy_peg(state: HeistState, source: int, piece: int, rule: str, events: list[Event]) -> None:
    if source >= 0:
        set_piece(state, source, state.pieces[source]._replace(enemy_peg=False))
        state.activated_pegs = state.activated_pegs | {piece}
    set_piece(state, piece, state.pieces[piece]._replace(enemy_peg=True))
    events.append(Event("peg", f"an Enemy Peg moves onto {piece_words(state, piece)}", rule))


def hit_one(state: HeistState, options: list[int], amount: int) -> int:
    """``damage: N, one_pv`` (content 2; the Semi's Shotgun): one vehicle of ``options`` takes ``amount``.
    It is the Active Player Vehicle if that is among them, else the only one: queued, and returned. Else the
    team chooses (HH-X2: the Active Player says which, ``hit:<space>``) and -1 is returned."""
    active_vehicle = state.vehicle[state.active] if state.active >= 0 else -1
    if active_vehicle in options:
        options = [active_vehicle]
    if len(options) == 1:
        push_front(state, Task(TaskKind.DAMAGE, state.pieces[options[0]].owner, amount=amount))
        return options[0]
    chooser = state.active if state.active >= 0 else state.pieces[options[0]].owner
    ask(state, Choice(ChoiceKind.HIT, chooser,
                  tuple(sorted(notation.at(notation.Verb.HIT, *column_lane(state, state.pieces[i].space))
                               for i in options)),
                  amount=amount))
    return -1


def move_ramsey(state: HeistState, origin: int, events: list[Event]) -> None:
    """Chopper Takedown (content 7.2): Ramsey moves to a Player Vehicle adjacent to her destroyed one
    (the team chooses); with none, the team loses."""
    options = [i for i in player_vehicles(state) if dist(state, origin, state.pieces[i].space) <= 1]
    if not options:
        lose(state, "Ramsey's vehicle is gone and no Player Vehicle was near to take her", events)
        return
    if len(options) == 1:
        state.ramsey = options[0]
        events.append(Event("ramsey", f"Ramsey moves to {piece_words(state, options[0])}", "Chopper Takedown: Ramsey"))
        return
    chooser = state.active if state.active >= 0 else state.pieces[options[0]].owner
    ask(state, Choice(ChoiceKind.RAMSEY, chooser,
                  tuple(sorted(notation.at(notation.Verb.RAMSEY, *column_lane(state, state.pieces[i].space))
                               for i in options))))


def ask(state: HeistState, choice: Choice) -> None:
    if choice.seat < 0:  # an effect between turns (a user's card): the first seat decides for the team
        choice = choice._replace(seat=max(state.active, 0))
    state.choice = choice
    state.stage = Stage.CHOICE


def win(state: HeistState, reason: str, events: list[Event]) -> None:
    if not state.outcome:
        state.outcome, state.reason = "win", reason
        events.append(Event("win", f"the team wins: {reason}", "End of the Game"))


def lose(state: HeistState, reason: str, events: list[Event]) -> None:
    if not state.outcome:
        state.outcome, state.reason = "lose", reason
        events.append(Event("lose", f"the team loses: {reason}", "End of the Game"))


def check_objective(state: HeistState, events: list[Event]) -> None:
    """End of the Game: the Objective ends the game at once; Semi Heist also loses on lost Cargo."""
    scenario = state.g.scenario
    if track_value(state) >= scenario.goal:
        win(state, f"the objective ({state.g.words.track_name} {scenario.goal}) is achieved", events)
    elif scenario.lost_cargo_limit and state.lost_cargo >= scenario.lost_cargo_limit:
        lose(state, f"{state.lost_cargo} Cargo lost: too little left to secure {scenario.goal}", events)


# --- Enemy SUVs: placing and moving (Enemy SUVs; Roll the Enemy Die) -------------------------------


def place_suv_from(state: HeistState, start: int, dc: int, dl: int, events: list[Event]) -> bool:
    """Place an Enemy SUV from the supply at ``start`` or the nearest empty space further in the
    direction; nothing if the supply is empty or the way runs off the road (HH-A12)."""
    supply = [i for i, p in enumerate(state.pieces) if p.kind == SUV and p.space == OFF]
    if not supply:
        return False
    taken = occupancy(state)
    space = start
    while space >= 0 and space in taken:
        space = step(state, space, dc, dl)
    if space < 0:
        return True
    set_piece(state, supply[0], Piece(SUV, space, -1, False, 0, True))
    events.append(Event("suv", f"an Enemy SUV is placed in {name(state, space)}", "Enemy SUVs"))
    return True


def step_toward(state: HeistState, space: int, target: int, taken: dict[int, int], away: bool = False) -> int:
    """One space toward (or away from) ``target``: the free neighbour that brings it closest, ties to a
    diagonal, then East, then North (HH-A3); ``space`` itself if none is closer."""
    def key(n: int) -> tuple[int, int, int, int, int]:
        d = dist(state, n, target)
        m = abs(col(state, n) - col(state, target)) + abs(lane(state, n) - lane(state, target))
        diagonal = col(state, n) != col(state, space) and lane(state, n) != lane(state, space)
        sign = -1 if away else 1
        return sign * d, sign * m, 0 if diagonal else 1, -col(state, n), lane(state, n)
    here = key(space)
    best = space
    best_key = here
    for n in state.g.neighbours[space]:
        if n in taken:
            continue
        k = key(n)
        if k[:2] < here[:2] and k < best_key:
            best, best_key = n, k
    return best


def activate_suv(state: HeistState, piece: int, events: list[Event]) -> None:
    """Enemy SUV: slam an adjacent Player Vehicle (the Active Player Vehicle first; else the team, here
    the Active Player, chooses), else move one space toward the Active Player Vehicle."""
    p = state.pieces[piece]
    if p.kind != SUV or p.space < 0:
        return
    adjacent = [i for i in player_vehicles(state) if dist(state, p.space, state.pieces[i].space) == 1]
    if adjacent:
        slam(state, piece, adjacent, state.g.content.model.rules.slam_damage, events)
        return
    active_vehicle = state.vehicle[state.active] if state.active >= 0 else -1
    if active_vehicle < 0:
        return
    taken = occupancy(state)
    to = step_toward(state, p.space, state.pieces[active_vehicle].space, taken)
    if to != p.space:
        set_piece(state, piece, p._replace(space=to))
        events.append(Event("suv", f"the Enemy SUV in {name(state, p.space)} moves to {name(state, to)}",
                            "Roll the Enemy Die: Enemy SUV"))


def slam(state: HeistState, piece: int, adjacent: list[int], amount: int, events: list[Event],
         first: int = -1) -> None:
    active_vehicle = state.vehicle[state.active] if state.active >= 0 else -1
    for preferred in (first, active_vehicle):
        if preferred in adjacent:
            adjacent = [preferred]
            break
    if len(adjacent) == 1:
        hit = adjacent[0]
        events.append(Event("slam", f"{piece_words(state, piece)} slams {piece_words(state, hit)} for {amount} "
                            "damage", "Roll the Enemy Die: Slam"))
        push_front(state, Task(TaskKind.FAMILY_FIRST, state.pieces[hit].owner, amount=amount))
        return
    chooser = state.active if state.active >= 0 else state.pieces[adjacent[0]].owner
    ask(state, Choice(ChoiceKind.SLAM, chooser,
                  tuple(sorted(notation.at(notation.Verb.SLAM, *column_lane(state, state.pieces[i].space))
                               for i in adjacent)),
                  amount=amount))


def activate_shaw(state: HeistState, events: list[Event]) -> None:
    """Shaw's Car (content 7.2): slam (``knobs.shaw_slam``: 3, HH-G4) if adjacent to a Player Vehicle
    (Ramsey's first), else one space toward Ramsey's vehicle."""
    piece = main_piece(state, SHAW)
    if piece < 0:
        return
    p = state.pieces[piece]
    adjacent = [i for i in player_vehicles(state) if dist(state, p.space, state.pieces[i].space) == 1]
    if adjacent:
        slam(state, piece, adjacent, state.g.content.model.knobs.shaw_slam, events, first=state.ramsey)
        return
    if state.ramsey < 0:
        return
    to = step_toward(state, p.space, state.pieces[state.ramsey].space, occupancy(state))
    if to != p.space:
        set_piece(state, piece, p._replace(space=to))
        events.append(Event("shaw", f"{piece_words(state, piece)} moves to {name(state, to)}",
                            "Chopper Takedown: Shaw's Car"))


def activate_peg(state: HeistState, piece: int, events: list[Event]) -> None:
    """Enemy Peg: the first that applies of damage (on a Player Vehicle), Brawl (on an enemy vehicle
    with a Player Peg) and move (onto an adjacent Player Vehicle with room)."""
    p = state.pieces[piece]
    if not p.enemy_peg or p.space < 0 or piece in state.activated_pegs:
        return
    state.activated_pegs = state.activated_pegs | {piece}
    if is_player_vehicle(p):
        damage = state.g.content.model.rules.peg_damage
        events.append(Event("peg", f"the Enemy Peg on {piece_words(state, piece)} deals {damage} damage",
                            "Roll the Enemy Die: Enemy Peg, damage"))
        push_front(state, Task(TaskKind.DAMAGE, p.owner, amount=damage))
        return
    riders = [seat for seat, on in enumerate(state.peg_on) if on == piece]
    if p.kind in ENEMY_VEHICLES and riders:
        victim = state.active if state.active in riders else riders[0]
        state.peg_on = replaced(state.peg_on, victim, NOWHERE)
        events.append(Event("brawl",
                            f"the Enemy Peg Brawls {state.g.seat_name(victim)} off {piece_words(state, piece)}",
                            "Roll the Enemy Die: Enemy Peg, Brawl"))
        push_front(state, Task(TaskKind.RELOCATE, victim, origin=p.space))
        return
    options = [i for i in player_vehicles(state) if dist(state, p.space, state.pieces[i].space) == 1
               and enemy_peg_fits(state, i)]
    if options:
        move_enemy_peg(state, piece, enemy_peg_choices(state, options), "Roll the Enemy Die: Enemy Peg, move", events)


def enemy_die_tasks(state: HeistState, face: str) -> tuple[Task, ...]:
    """Roll the Enemy Die: what each face starts (Enemy SUV, Enemy Peg, Enemy Card, Main Enemy Moves &
    Enemy Card)."""
    if face == "suv":
        suvs = enemy_suvs(state)
        shaw = main_piece(state, SHAW)
        if not suvs:  # Shaw's Car is no Enemy SUV: it still activates on this face (content 2, 7.2)
            place = Task(TaskKind.EFFECT, line=PLACE_BEHIND_EACH, seat=state.active)
            return (place, Task(TaskKind.SHAW)) if shaw >= 0 else (place,)
        movers = [*suvs, shaw] if shaw >= 0 else suvs
        movers.sort(key=lambda i: state.pieces[i].space)
        return tuple(Task(TaskKind.SHAW if state.pieces[i].kind == SHAW else TaskKind.SUV, piece=i) for i in movers)
    if face == "peg":
        state.activated_pegs = frozenset()
        pegs = sorted((i for i, p in enumerate(state.pieces) if p.enemy_peg and p.space >= 0),
                      key=lambda i: state.pieces[i].space)
        return tuple(Task(TaskKind.PEG, piece=i) for i in pegs)
    if face == "card":
        return (Task(TaskKind.CARD),)
    lines = state.g.main_left if face == "main_left" else state.g.main_right
    return (*(Task(TaskKind.EFFECT, line=line, seat=state.active) for line in lines), Task(TaskKind.CARD))


PLACE_BEHIND_EACH = Line("place_suv", ("behind", "each_pv"), 0)
"""Enemy SUV, IMPORTANT: with no Enemy SUV on the road, place one directly behind each Player Vehicle."""


def enemy_card_step(state: HeistState, events: list[Event]) -> None:
    """Enemy Cards: discard the card in ACTIVATE!, move the row right, resolve the Activated effect of
    the card reaching ACTIVATE!, then draw and reveal a new card."""
    row = list(state.enemy_row)
    if row[-1]:
        state.enemy_discard = tuple(sorted((*state.enemy_discard, row[-1])))
        events.append(Event("card", f"the Enemy card {state.g.enemy_cards[row[-1]].name} leaves ACTIVATE! for the "
                            "discard pile", "Enemy Cards"))
    row = ["", *row[:-1]]
    state.enemy_row = tuple(row)
    tasks: list[Task] = []
    if row[-1]:
        card = state.g.enemy_cards[row[-1]]
        effect = state.g.words.activated[card.id] or "it has no Activated effect."
        events.append(Event("card", f"the Enemy card {card.name} moves to ACTIVATE!: {effect}", "Enemy Cards"))
        tasks.extend(Task(TaskKind.EFFECT, line=line, seat=state.active) for line in card.activated)
    tasks.append(Task(TaskKind.DRAW_ENEMY))
    push_front(state, *tasks)


def reveal_enemy_card(state: HeistState, card_id: str, events: list[Event]) -> None:
    deck = list(state.enemy_deck)
    deck.remove(card_id)
    state.enemy_deck = tuple(deck)
    state.enemy_row = (card_id, *state.enemy_row[1:])
    card = state.g.enemy_cards[card_id]
    events.append(Event("card", f"the Enemy card {card.name} is revealed: {state.g.words.reveal[card_id]}",
                        "Enemy Cards"))
    push_front(state, *(Task(TaskKind.EFFECT, line=line, seat=state.active) for line in card.reveal))


# --- the Main Enemy (Main Enemy Moves; content 0.3 Shove) -----------------------------------------------


def main_move(state: HeistState, direction: str, seat: int, events: list[Event]) -> None:
    """Move the Main Enemy one space; the Tank and the Semi shove what is in their way (content 0.3)."""
    if direction in ("choice_ns", "choice_any"):
        dirs = ("north", "south") if direction == "choice_ns" else tuple(sorted(DIRECTION_STEPS))
        ask(state, Choice(ChoiceKind.DIRECTION, seat if seat >= 0 else max(state.active, 0),
                      tuple(sorted(notation.direction(d) for d in (*dirs, NO_DIRECTION)))))
        return
    if state.g.scenario.main_enemy == "chopper":
        move_chopper(state, direction, events)
        return
    kinds = (TANK,) if state.g.scenario.main_enemy == "tank" else (CAB, TRAILER)
    body = [i for i, p in enumerate(state.pieces) if p.kind in kinds and p.space >= 0]
    if not body:
        return
    dc, dl = _direction(state, direction, state.pieces[body[0]].space)
    if (dc, dl) == (0, 0):
        return
    targets = [step(state, state.pieces[i].space, dc, dl) for i in body]
    if any(t < 0 for t in targets):
        events.append(Event("main", f"the {state.g.words.main_enemy} is at the edge of the road and does not move",
                            "Main Enemy Moves (HH-A9)"))
        return
    own = {state.pieces[i].space for i in body}
    for t in sorted(set(targets) - own):
        shove(state, t, dc, dl, events)
    for i, t in zip(body, targets, strict=True):
        set_piece(state, i, state.pieces[i]._replace(space=t))
    events.append(Event("main", f"the {state.g.words.main_enemy} moves {STEP_WORDS[(dc, dl)]}", "Main Enemy Moves"))


def _direction(state: HeistState, direction: str, here: int) -> tuple[int, int]:
    if direction == "toward_active_lane":
        active_vehicle = state.vehicle[state.active] if state.active >= 0 else -1
        if active_vehicle < 0:
            return 0, 0
        d = lane(state, state.pieces[active_vehicle].space) - lane(state, here)
        return 0, (d > 0) - (d < 0)
    return DIRECTION_STEPS.get(direction, (0, 0))


def shove(state: HeistState, space: int, dc: int, dl: int, events: list[Event]) -> None:
    """Shove: a Wreck in the way is removed (+1 Tank Damage for the Tank); a vehicle is pushed one space
    (a pushed Player Vehicle takes 2) or, with nowhere to go, crushed."""
    taken = occupancy(state)
    piece = taken.get(space, -1)
    if piece < 0:
        return
    p = state.pieces[piece]
    if p.kind == WRECK:
        set_piece(state, piece, off_the_road(p))
        events.append(Event("shove", f"the Wreck in {name(state, space)} is smashed aside", "Main Enemy Moves"))
        if state.g.scenario.main_enemy == "tank":
            state.track += 1
            events.append(Event("track", "the Tank takes 1 damage from the Wreck", "Tank Assault: Tank damage"))
        return
    to = step(state, space, dc, dl)
    if to < 0 or to in taken:
        events.append(Event("crush", f"{piece_words(state, piece)} is crushed", "Main Enemy Moves"))
        remove_vehicle(state, piece, events)
        return
    pushed = piece_words(state, piece)
    set_piece(state, piece, p._replace(space=to))
    events.append(Event("shove", f"{pushed} is pushed to {name(state, to)}", "Main Enemy Moves"))
    if is_player_vehicle(p):
        push_front(state, Task(TaskKind.DAMAGE, p.owner, amount=state.g.content.model.knobs.shove_damage))


def move_chopper(state: HeistState, direction: str, events: list[Event]) -> None:
    """The Chopper hovers: it ignores occupancy; toward or away from Ramsey, or a compass step."""
    if state.chopper < 0:
        return
    if direction in ("toward_ramsey", "away_from_ramsey"):
        if state.ramsey < 0:
            return
        to = step_toward(state, state.chopper, state.pieces[state.ramsey].space, {},
                         away=direction == "away_from_ramsey")
    else:
        dc, dl = _direction(state, direction, state.chopper)
        to = step(state, state.chopper, dc, dl)
        if to < 0:
            to = state.chopper
    if to != state.chopper:
        state.chopper = to
        events.append(Event("main", f"the {state.g.words.main_enemy} flies to {name(state, to)}", "Main Enemy Moves"))


def shoot(state: HeistState, amount: int, east: bool, events: list[Event]) -> None:
    """The Tank's cannon (content 0.2): the first piece along its lane is hit."""
    tank = main_piece(state, TANK)
    if tank < 0:
        return
    taken = occupancy(state)
    space = step(state, state.pieces[tank].space, 1 if east else -1, 0)
    while space >= 0:
        piece = taken.get(space, -1)
        if piece >= 0:
            p = state.pieces[piece]
            if is_player_vehicle(p):
                events.append(Event("shoot", f"the cannon hits {piece_words(state, piece)}",
                                    "Tank Assault: Main Cannon"))
                push_front(state, Task(TaskKind.DAMAGE, p.owner, amount=amount))
            elif p.kind in (SUV, ABANDONED):
                events.append(Event("shoot", f"the cannon wrecks {piece_words(state, piece)}",
                                    "Tank Assault: Main Cannon"))
                make_wreck(state, piece, events)
            return
        space = step(state, space, 1 if east else -1, 0)


# --- End of Round: Road Maintenance and Stunt Card Maintenance ------------------------------------------


def road_maintenance_tasks(state: HeistState) -> tuple[Task, ...]:
    """Road Maintenance: the Wrecks and the unmanned or abandoned vehicles, one at a time in Resolution
    Order (West to East, then North to South), each once."""
    movers = sorted((i for i, p in enumerate(state.pieces) if p.space >= 0 and (
        p.kind in (WRECK, ABANDONED) or (is_player_vehicle(p) and state.peg_on[p.owner] != BEHIND_WHEEL))),
        key=lambda i: state.pieces[i].space)
    return tuple(Task(TaskKind.WRECK_MOVE if state.pieces[i].kind == WRECK else TaskKind.DRIFT, piece=i)
                 for i in movers)


WRECK_STEPS = 4


def move_wreck(state: HeistState, piece: int, events: list[Event]) -> None:
    """Wrecks move four spaces West, destroying and removing every vehicle in their path; a Wreck
    passes other Wrecks (HH-A4); the Tank stops it (+1 Tank Damage), the Semi and Shaw's Car remove it."""
    p = state.pieces[piece]
    if p.kind != WRECK or p.space < 0:
        return
    space = p.space
    moved = 0
    while True:
        nxt = step(state, space, -1, 0)
        if nxt < 0:
            set_piece(state, piece, off_the_road(p))
            events.append(Event("wreck", f"the Wreck from {name(state, p.space)} falls off the road",
                                "Road Maintenance: Wrecks"))
            return
        other = occupancy(state).get(nxt, -1)
        if other >= 0 and other != piece:
            kind = state.pieces[other].kind
            if kind in (TANK, CAB, TRAILER, SHAW):
                set_piece(state, piece, off_the_road(p))
                if kind == TANK:
                    state.track += 1
                    events.append(Event("track", f"the Wreck from {name(state, p.space)} slams into the Tank: "
                                        f"{state.g.words.track_name} {state.track} of {state.g.scenario.goal}",
                                        "Tank Assault: Tank damage"))
                else:
                    events.append(Event("wreck", f"the Wreck from {name(state, p.space)} is swept aside",
                                        "Road Maintenance: Wrecks"))
                return
            if kind != WRECK:
                events.append(Event("wreck", f"the Wreck destroys {piece_words(state, other)}",
                                    "Road Maintenance: Wrecks"))
                remove_vehicle(state, other, events)
        space = nxt
        moved += 1
        if moved >= WRECK_STEPS and occupancy(state).get(space, -1) in (-1, piece):
            break
    set_piece(state, piece, state.pieces[piece]._replace(space=space))
    events.append(Event("wreck", f"the Wreck moves from {name(state, p.space)} to {name(state, space)}",
                        "Road Maintenance: Wrecks"))


def drift(state: HeistState, piece: int, events: list[Event]) -> None:
    """Unmanned Player Vehicles and abandoned vehicles move one space West unless something is directly
    behind (HH-A5: any piece); off the road they are destroyed."""
    p = state.pieces[piece]
    if p.space < 0 or not (p.kind == ABANDONED or (is_player_vehicle(p) and state.peg_on[p.owner] != BEHIND_WHEEL)):
        return
    behind = step(state, p.space, -1, 0)
    if behind >= 0 and behind in occupancy(state):
        return
    if behind < 0:
        events.append(Event("drift", f"{piece_words(state, piece)} falls off the road and is destroyed",
                            "Road Maintenance: Unmanned Player Vehicles"))
        remove_vehicle(state, piece, events)
        return
    falling = piece_words(state, piece)
    set_piece(state, piece, p._replace(space=behind))
    events.append(Event("drift", f"{falling} falls back to {name(state, behind)}",
                        "Road Maintenance: Unmanned Player Vehicles"))


def stunt_maintenance(state: HeistState, events: list[Event]) -> bool:
    """Stunt Card Maintenance: every card moves one spot West; the one leaving returns its tokens and
    is discarded (the Level 3 card leaving loses the game). True if a new card is to be drawn."""
    row = state.stunt_row
    leaving = row[-1]
    if leaving:
        state.boost_supply += state.stunt_tokens[-1]
        state.stunt_discard = (*state.stunt_discard, leaving)
        events.append(Event("stunt", f"the Stunt card {state.g.stunt_cards[leaving].name} leaves the road",
                            "Stunt Card Maintenance"))
        if state.g.stunt_cards[leaving].level == 3:
            lose(state, "the Level 3 Stunt card left the road", events)
            return False
    state.stunt_row = ("", *row[:-1])
    state.stunt_tokens = (0, *state.stunt_tokens[:-1])
    return any(state.stunts_left)


def stunt_level(state: HeistState) -> int:
    """The level of the next Stunt card: the deck holds Level 1 on top, then 2, then the 3 (Setup)."""
    for level, left in enumerate(state.stunts_left):
        if left:
            return level
    return -1


def reveal_stunt(state: HeistState, card_id: str, events: list[Event]) -> None:
    """Draw the next Stunt card to the East spot with a Boost token on each symbol (while the supply
    lasts)."""
    card = state.g.stunt_cards[card_id]
    level = card.level - 1
    state.stunts_left = replaced(state.stunts_left, level, state.stunts_left[level] - 1)
    state.stunt_drawn = (*state.stunt_drawn, card_id)
    tokens = min(card.boost, state.boost_supply)
    state.boost_supply -= tokens
    state.stunt_row = (card_id, *state.stunt_row[1:])
    state.stunt_tokens = (tokens, *state.stunt_tokens[1:])
    on = f"{tokens} Boost token" + ("" if tokens == 1 else "s")
    events.append(Event("stunt", f"the Stunt card {card.name} (level {card.level}) is drawn with {on}: "
                        f"{state.g.words.card_texts[card_id]}", "Stunt Card Maintenance"))
