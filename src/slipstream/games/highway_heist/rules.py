"""The rules of Highway Heist as small functions in rulebook order, each citing its section
(rules/highway-heist.txt; the gaps HH-* decided in docs/rules/highway-heist.md).

A function takes the state being built by ``apply`` (a fresh copy) and changes it by the copy rule of
``engine.fields``: tuples are replaced, never changed. Enemy effects, damage and Road Maintenance run as
``Task``s from the state's queue, so a decision (an Assist, a Boost, a choice the team makes) can pause
them and the next action resumes them.
"""

from __future__ import annotations

import enum
from math import comb
from typing import TYPE_CHECKING, NamedTuple

from slipstream.engine.fields import replaced
from slipstream.engine.game import Event

from . import notation
from .content import Action, Line

if TYPE_CHECKING:
    from .state import HeistState

# --- pieces ---------------------------------------------------------------------------------------

SUV, PLAYER, HIJACKED, ABANDONED, WRECK, TANK, CAB, TRAILER, SHAW = range(9)
"""Piece kinds. ``PLAYER`` and ``HIJACKED`` on the road are exactly the Player Vehicles."""
KIND_NAMES = ("enemy-suv", "player-vehicle", "hijacked-suv", "abandoned", "wreck", "tank", "semi-cab",
              "semi-trailer", "shaw-car")
PEG_VEHICLES = frozenset({SUV, PLAYER, HIJACKED, ABANDONED, TANK, CAB, TRAILER, SHAW})
"""Pieces with roof slots (Core Concepts: pegs are only on vehicles; Wrecks have none)."""
ENEMY_VEHICLES = frozenset({SUV, TANK, CAB, TRAILER, SHAW})
"""Pieces where an Enemy Peg Brawls a Player Peg (Roll the Enemy Die: Enemy Peg, Brawl)."""
ROOF_SLOTS = 2
OFF = -1
"""The space of a piece that is not on the road (in the supply, or removed)."""
BEHIND_WHEEL = -1
NOWHERE = -2
"""``peg_on``: behind the wheel, or on no vehicle: a peg on its way to a vehicle, or one stranded because
no vehicle had a free slot for it (HH-X7, ``strand_player_peg``)."""

SPEED, CONTROL, ATHLETICS, DEFENSE = range(4)


class Piece(NamedTuple):
    """A vehicle, Wreck or Main Enemy piece on the road (``space`` >= 0) or off it (``OFF``)."""

    kind: int
    space: int
    owner: int = -1
    """The seat whose Player Vehicle (or abandoned starting vehicle) this is; -1 for enemies."""
    enemy_peg: bool = False
    cargo: int = 0
    suv: bool = False
    """An Enemy SUV miniature (it returns to the SUV supply when its Wreck leaves the road)."""


class TaskKind(enum.IntEnum):
    EFFECT = 0
    SUV = 1
    PEG = 2
    SHAW = 3
    DAMAGE = 4
    CARD = 5
    DRAW_ENEMY = 6
    WRECK_MOVE = 7
    DRIFT = 8
    STUNT_MAINTENANCE = 9
    RELOCATE = 10
    ENEMY_RELOCATE = 11
    RAMSEY = 12
    ACTION = 13
    ROAD_MAINTENANCE = 14
    FAMILY_FIRST = 15
    PEG_ORDER = 16


class Task(NamedTuple):
    """One step waiting in the queue: ``a`` is a piece or an amount, ``seat`` the acting seat."""

    kind: TaskKind
    a: int = 0
    seat: int = -1
    line: Line | None = None
    target: int = -1


class RollKind(enum.IntEnum):
    ACTION = 0
    DEFENSE = 1


class Roll(NamedTuple):
    """A Skill Roll under way (Skill Rolls; Damage and Defense)."""

    kind: RollKind
    seat: int
    dice: int
    need: int
    action: str = ""
    """The declared action (ACTION rolls), performed on success."""
    damage: int = 0
    faces: tuple[int, int, int] = (0, 0, 0)
    bonus: int = 0
    """Successes added after the roll (the Exotic Supercar's power)."""
    boosted: bool = False
    skill: int = -1
    """The Skill Category rolled (``DEFENSE`` for a Defense roll)."""
    rerolled: bool = False
    """Brian's Wheelman used or declined on this roll."""
    teched: bool = False
    """Tej's Tech Support used or declined on this roll."""


class ChoiceKind(enum.IntEnum):
    FORCE_TO = 0
    FOLLOW = 1
    MOVE_TO = 2
    DIRECTION = 3
    PEG = 4
    SLAM = 5
    REMOVE_PEG = 6
    RAMSEY = 7
    FREE_LEAP = 8
    ENEMY_PEG = 9
    PEG_ORDER = 10
    HIT = 11


class Choice(NamedTuple):
    """A decision inside an action or an enemy effect: who makes it, what it is and the options."""

    kind: ChoiceKind
    seat: int
    options: tuple[str, ...]
    a: int = 0
    b: int = 0
    follow: bool = False


NO_DIRECTION = "none"
"""The direction choice that moves nothing (``dir:none``)."""
DIRECTION_STEPS = {"north": (0, -1), "south": (0, 1), "east": (1, 0), "west": (-1, 0),
                   "north-east": (1, -1), "south-east": (1, 1), "north-west": (-1, -1),
                   "south-west": (-1, 1)}
STEP_WORDS = {(0, -1): "one lane North", (0, 1): "one lane South", (1, 0): "one space East",
              (-1, 0): "one space West", (1, -1): "one space North-East", (1, 1): "one space South-East",
              (-1, -1): "one space North-West", (-1, 1): "one space South-West"}
"""A Main Enemy's step in words (columns run West to East, lanes North to South)."""

# --- geometry (Core Concepts: The Road, Adjacency) --------------------------------------------------


def col(s: HeistState, space: int) -> int:
    return space // s.g.lanes


def lane(s: HeistState, space: int) -> int:
    return space % s.g.lanes


def dist(s: HeistState, a: int, b: int) -> int:
    """King-move distance (HH-A2): adjacency is the eight surrounding spaces."""
    return s.g.distances[a * s.g.spaces + b]


def step(s: HeistState, space: int, dc: int, dl: int) -> int:
    """The space ``dc`` columns East and ``dl`` lanes South, or ``OFF`` past the edge."""
    c, ln = space // s.g.lanes + dc, space % s.g.lanes + dl
    if 0 <= c < s.g.columns and 0 <= ln < s.g.lanes:
        return c * s.g.lanes + ln
    return OFF


def occupancy(s: HeistState) -> dict[int, int]:
    """Space -> piece for every piece on the road (the Chopper is not a piece: it fills no space)."""
    return {p.space: i for i, p in enumerate(s.pieces) if p.space >= 0}


def space_of(s: HeistState, text: tuple[int, int]) -> int:
    return (text[0] - 1) * s.g.lanes + text[1] - 1


def name(s: HeistState, space: int) -> str:
    """A space in words, as the board labels it ("column 5, lane 3")."""
    return s.g.places[space]


def piece_words(s: HeistState, piece: int) -> str:
    """A piece as a player finds it on the board: "P1 (Dom)'s Exotic Supercar", "the Enemy SUV in column 5,
    lane 3", "the Tank", "the Semi cab", "Shaw's Car"."""
    p = s.pieces[piece]
    g = s.g
    kind = p.kind
    if kind in (PLAYER, HIJACKED):
        board = g.boards[s.board[p.owner]] if s.board[p.owner] >= 0 else g.boards[g.starting_boards[p.owner]]
        return f"{g.seat_name(p.owner)}'s {board.name}"
    name = g.kind_names[kind]
    if kind == SHAW:
        return name
    if kind in (TANK, CAB, TRAILER):
        return f"the {name}"
    where = f" in {g.places[p.space]}" if p.space >= 0 else ""
    if kind == ABANDONED:
        return f"the abandoned {g.boards[g.starting_boards[p.owner]].name}{where}"
    return f"the {name}{where}"


# --- who is where (Player Pegs and Enemy Pegs; Player Vehicles) --------------------------------------


def is_pv(p: Piece) -> bool:
    return p.space >= 0 and p.kind in (PLAYER, HIJACKED)


def player_vehicles(s: HeistState) -> list[int]:
    """Every Player Vehicle on the road, in Resolution Order."""
    found = [(p.space, i) for i, p in enumerate(s.pieces) if p.space >= 0 and (p.kind == PLAYER or p.kind == HIJACKED)]
    found.sort()
    return [i for _, i in found]


def enemy_suvs(s: HeistState) -> list[int]:
    return sorted((i for i, p in enumerate(s.pieces) if p.kind == SUV and p.space >= 0),
                  key=lambda i: s.pieces[i].space)


def manned(s: HeistState, seat: int) -> bool:
    return s.pv[seat] >= 0 and s.peg_on[seat] == BEHIND_WHEEL


def pegs_on(s: HeistState, piece: int) -> int:
    return sum(1 for p in s.peg_on if p == piece)


def free_slot(s: HeistState, piece: int) -> bool:
    """A Player Peg may move there: a vehicle with a slot free (two slots, an Enemy Peg takes one)."""
    p = s.pieces[piece]
    return p.space >= 0 and p.kind in PEG_VEHICLES and pegs_on(s, piece) + p.enemy_peg < ROOF_SLOTS


def enemy_peg_fits(s: HeistState, piece: int) -> bool:
    """An Enemy Peg may move there: no Enemy Peg yet and a free slot (at most one Enemy Peg)."""
    p = s.pieces[piece]
    return p.space >= 0 and p.kind in PEG_VEHICLES and not p.enemy_peg and pegs_on(s, piece) < ROOF_SLOTS


def peg_space(s: HeistState, seat: int) -> int:
    """Where a character is: their Player Vehicle's space behind the wheel, or the vehicle they are on."""
    on = s.peg_on[seat]
    if on == BEHIND_WHEEL:
        return s.pieces[s.pv[seat]].space if s.pv[seat] >= 0 else OFF
    return s.pieces[on].space if on >= 0 else OFF


def set_piece(s: HeistState, index: int, piece: Piece) -> None:
    s.pieces = replaced(s.pieces, index, piece)


def main_piece(s: HeistState, kind: int) -> int:
    for i, p in enumerate(s.pieces):
        if p.kind == kind and p.space >= 0:
            return i
    return -1


def named_pieces(s: HeistState, piece: str) -> list[int]:
    """The pieces a word of the effect language names (``semi``: both Semi spaces)."""
    kinds = {"tank": (TANK,), "semi_cab": (CAB,), "semi_trailer": (TRAILER,), "semi": (CAB, TRAILER),
             "shaw_car": (SHAW,)}.get(piece, ())
    return [i for i, p in enumerate(s.pieces) if p.kind in kinds and p.space >= 0]


def named_spaces(s: HeistState, piece: str) -> list[int]:
    if piece == "chopper":
        return [s.chopper] if s.chopper >= 0 else []
    return [s.pieces[i].space for i in named_pieces(s, piece)]


# --- Skill Ratings and Skill Rolls ------------------------------------------------------------------


def rating(s: HeistState, seat: int, skill: int) -> int:
    """Character icons plus Vehicle icons (Skill Categories and Ratings); with no Player Vehicle the
    Character Board alone; Defense of an unmanned vehicle counts only the Vehicle Board (IMPORTANT)."""
    own = s.g.characters[seat].ratings[skill]
    if s.pv[seat] < 0:
        return own
    board = s.g.boards[s.board[seat]].ratings[skill]
    if skill == DEFENSE and not manned(s, seat):
        return board
    return own + board


def vehicle_power(s: HeistState, seat: int) -> str:
    return s.g.boards[s.board[seat]].power if s.pv[seat] >= 0 else "none"


def roll_bonus(s: HeistState, seat: int) -> int:
    """Exotic Supercar, Thoroughbred (HH-G8): +1 success while the cube is in the top two slots."""
    return 1 if vehicle_power(s, seat) == "thoroughbred" and s.damage[seat] <= 1 else 0


def leap_range(s: HeistState, seat: int) -> int:
    """Leap: within the Athletics Rating, for every character. Han's Parkour adds no range (HH-G6): the
    content's own check makes Player 1 of the Leap example Han with the Street Drifter (Athletics 3),
    and the example puts a vehicle four spaces away out of reach."""
    return rating(s, seat, ATHLETICS)


def family_first_seat(s: HeistState, victim: int) -> int:
    """Dom's Family First (HH-G6): once per round, even when Exhausted, a manned Dom next to the
    slammed team mate may take the slam instead; -1 if no Dom can."""
    target = s.pv[victim]
    if target < 0:
        return -1
    for seat, character in enumerate(s.g.characters):
        if (character.power == "family_first" and seat != victim and manned(s, seat)
                and seat not in s.family_first_used
                and dist(s, s.pieces[s.pv[seat]].space, s.pieces[target].space) == 1):
            return seat
    return -1


def effort_faces(s: HeistState) -> tuple[int, int, int]:
    """How many faces of the Effort Die show a success, a boost and a blank (content)."""
    faces = s.g.content.model.effort_die.faces
    return faces.count("success"), faces.count("boost"), faces.count("blank")


def roll_odds(s: HeistState, seat: int, skill: int, need: int) -> dict[str, float]:
    """For a bot or a hint: the chance that ``seat`` makes ``need`` successes on a roll of ``skill``,
    plain, with a Boost, with one or two Assist tokens (two dice each, capped at the dice cap) and with
    both; the seat's own bonus (Exotic Supercar) is counted."""
    faces = effort_faces(s)
    dice = min(rating(s, seat, skill) if skill != DEFENSE else defense_dice(s, seat), s.g.max_dice)
    bonus = roll_bonus(s, seat)
    out: dict[str, float] = {}
    for assists in (0, 1, 2):
        n = min(dice + 2 * assists, s.g.max_dice)
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
    s, b, _ = roll.faces
    return s + (b if roll.boosted else 0) + roll.bonus


# --- actions (Take Two Actions) -----------------------------------------------------------------------


def drive_destinations(s: HeistState, seat: int) -> list[int]:
    """Drive: up to Speed spaces in any directions, never through or onto a vehicle or Wreck; the
    Street Drifter may pass through one occupied space per Drive (HH-G8)."""
    start = s.pieces[s.pv[seat]].space
    taken = occupancy(s)
    reach = rating(s, seat, SPEED)
    if vehicle_power(s, seat) != "drift":
        return reachable(s, start, reach, taken)
    seen: dict[tuple[int, bool], int] = {(start, False): 0}
    frontier = [(start, False)]
    ends: set[int] = set()
    for depth in range(1, reach + 1):
        nxt = []
        for space, used in frontier:
            for n in s.g.neighbours[space]:
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


def reachable(s: HeistState, start: int, reach: int, taken: dict[int, int]) -> list[int]:
    """Empty spaces within ``reach`` steps of ``start`` through empty spaces (Force; moves by effects)."""
    seen = {start}
    frontier = [start]
    for _ in range(reach):
        nxt = []
        for space in frontier:
            for n in s.g.neighbours[space]:
                if n not in seen and n not in taken:
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    seen.discard(start)
    return sorted(seen)


def leap_targets(s: HeistState, seat: int) -> list[int]:
    """Leap: a vehicle with an available slot within the Athletics Rating of where the character is."""
    origin = peg_space(s, seat)
    if origin < 0:
        return []
    reach = leap_range(s, seat)
    here = s.peg_on[seat]
    riders = [0] * len(s.pieces)
    for on in s.peg_on:
        if on >= 0:
            riders[on] += 1
    distances, row = s.g.distances, origin * s.g.spaces
    return [i for i, p in enumerate(s.pieces)
            if i != here and p.space >= 0 and p.kind in PEG_VEHICLES and riders[i] + p.enemy_peg < ROOF_SLOTS
            and distances[row + p.space] <= reach]


def can_leap_to_wheel(s: HeistState, seat: int) -> bool:
    """Leap back behind the wheel of your own Player Vehicle (within range; FAQ: only by a Leap)."""
    if s.pv[seat] < 0 or s.peg_on[seat] == BEHIND_WHEEL:
        return False
    origin = peg_space(s, seat)
    return origin >= 0 and dist(s, origin, s.pieces[s.pv[seat]].space) <= leap_range(s, seat)


def ram_targets(s: HeistState, seat: int) -> list[int]:
    """Ram Enemy SUV: an Enemy SUV adjacent to your manned Player Vehicle."""
    here = s.pieces[s.pv[seat]].space
    return [i for i in enemy_suvs(s) if dist(s, here, s.pieces[i].space) == 1]


def force_range(s: HeistState, seat: int) -> int:
    """Force moves up to two spaces; the Import Racer's Nudge, three (HH-G8)."""
    return 3 if vehicle_power(s, seat) == "nudge" else 2


def force_targets(s: HeistState, seat: int) -> list[int]:
    """Force: an adjacent Enemy SUV or Player Vehicle (never a Wreck) that has somewhere to go."""
    here = s.pieces[s.pv[seat]].space
    taken = occupancy(s)
    out = []
    for i, p in enumerate(s.pieces):
        if (p.space >= 0 and p.kind in (SUV, PLAYER, HIJACKED) and dist(s, here, p.space) == 1
                and reachable(s, p.space, force_range(s, seat), taken)):
            out.append(i)
    return out


def take_stunt_token(s: HeistState, seat: int, spot: int) -> None:
    """Stunt Actions: a successful Level 1 or 2 Stunt takes one Boost token off the card (to the
    supply if the player is at their cap); a card with none left is flipped face down."""
    tokens = s.stunt_tokens[spot]
    if tokens <= 0:
        return
    s.stunt_tokens = replaced(s.stunt_tokens, spot, tokens - 1)
    if s.boost[seat] < s.g.boost_caps[seat]:
        s.boost = replaced(s.boost, seat, s.boost[seat] + 1)
    else:
        s.boost_supply += 1


# --- conditions of Stunts and scenario actions --------------------------------------------------------


def condition_targets(s: HeistState, seat: int, card: Action) -> list[int] | None:
    """``None`` if the Condition fails; else the pieces the card may target (``[-1]``: no target)."""
    targets: list[int] | None = None
    for line in card.condition:
        verb = line.verb
        if verb == "target":
            targets = enemy_suvs(s) if line.words[0] == "enemy_suv" else player_vehicles(s)
        elif verb.startswith("target_"):
            targets = [t for t in (targets or []) if target_holds(s, seat, line, t)]
        elif not condition_holds(s, seat, line):
            return None
    if targets is None:
        return [-1]
    return targets or None


def _self_vehicle_space(s: HeistState, seat: int) -> int:
    return s.pieces[s.pv[seat]].space if s.pv[seat] >= 0 else OFF


def _near(s: HeistState, space: int, piece: str, test: str, n: int = 0) -> bool:
    if space < 0:
        return False
    for other in named_spaces(s, piece):
        d = dist(s, space, other)
        lanes = s.g.lanes
        if ((test == "adjacent" and d == 1) or (test == "within" and d <= n)
                or (test == "in_front" and space == other + lanes)
                or (test == "behind" and space == other - lanes)
                or (test == "west_of" and space // lanes < other // lanes)):
            return True
    return False


def throw_zone(s: HeistState) -> list[int]:
    """Semi Heist (content 6.2): the spaces directly and diagonally behind the trailer."""
    out = []
    for t in named_spaces(s, "semi_trailer"):
        for dl in (-1, 0, 1):
            z = step(s, t, -1, dl)
            if z >= 0:
                out.append(z)
    return out


def cargo_secured(s: HeistState) -> int:
    return sum(p.cargo for p in s.pieces if is_pv(p))


def track_value(s: HeistState) -> int:
    return cargo_secured(s) if s.g.scenario.track == "cargo_secured" else s.track


def condition_holds(s: HeistState, seat: int, line: Line) -> bool:
    verb, words, n = line.verb, line.words, line.number
    roof = s.peg_on[seat]
    roof_space = s.pieces[roof].space if roof >= 0 else OFF
    if verb == "manned":
        return manned(s, seat)
    if verb == "on_foot":
        return roof >= 0
    if verb == "on_top":
        return roof >= 0 and roof in named_pieces(s, words[0])
    if verb == "not_on_top":
        return not (roof >= 0 and roof in named_pieces(s, words[0]))
    if verb == "on_semi":
        return roof >= 0 and roof in named_pieces(s, "semi")
    if verb == "roof_adjacent":
        return roof >= 0 and _near(s, roof_space, words[0], "adjacent")
    if verb == "roof_within":
        return roof >= 0 and _near(s, roof_space, words[0], "within", n)
    vehicle = _self_vehicle_space(s, seat)
    if verb == "vehicle_adjacent":
        return _near(s, vehicle, words[0], "adjacent")
    if verb == "vehicle_within":
        return _near(s, vehicle, words[0], "within", n)
    if verb == "vehicle_directly_in_front":
        return _near(s, vehicle, words[0], "in_front")
    if verb == "vehicle_directly_behind":
        return _near(s, vehicle, words[0], "behind")
    if verb == "vehicle_west_of":
        return _near(s, vehicle, words[0], "west_of")
    if verb == "vehicle_in_throw_zone":
        return vehicle >= 0 and vehicle in throw_zone(s)
    if verb == "enemy_peg_on":
        pieces = [roof] if words[0] == "roof" else named_pieces(s, words[0])
        return any(p >= 0 and s.pieces[p].enemy_peg for p in pieces)
    if verb == "enemy_peg_on_semi":
        return any(s.pieces[p].enemy_peg for p in named_pieces(s, "semi"))
    if verb == "track_at_least":
        return track_value(s) >= n
    if verb == "door_open":
        return s.door_open
    if verb == "door_closed":
        return not s.door_open
    if verb == "cargo_in_semi":
        return s.cargo_in_semi >= 1
    if verb == "carries_ramsey":
        return s.pv[seat] >= 0 and s.ramsey == s.pv[seat]
    if verb == "player_pegs_on_semi":
        return sum(pegs_on(s, p) for p in named_pieces(s, "semi")) >= n
    if verb == "player_peg_on":
        return any(pegs_on(s, p) for p in named_pieces(s, words[0]))
    if verb == "throw_zone_has_empty":
        taken = occupancy(s)
        return any(z not in taken for z in throw_zone(s))
    raise ValueError(f"unknown condition {verb!r}")


def target_holds(s: HeistState, seat: int, line: Line, target: int) -> bool:
    space = s.pieces[target].space
    verb, words = line.verb, line.words
    if target == s.pv[seat] and verb != "target_in_throw_zone" and words[:1] == ("self",):
        return False
    if verb == "target_in_throw_zone":
        return space in throw_zone(s)
    anchor = words[-1]
    if anchor == "self":
        own = _self_vehicle_space(s, seat)
        if own < 0:
            return False
        d = dist(s, space, own)
        if verb == "target_adjacent":
            return d == 1
        if verb == "target_directly_beside":
            return d == 1 and col(s, space) == col(s, own)
        return verb == "target_within" and d <= line.number
    if verb == "target_adjacent":
        return _near(s, space, anchor, "adjacent")
    if verb == "target_within":
        return _near(s, space, anchor, "within", line.number)
    if verb == "target_directly_beside":
        return any(dist(s, space, o) == 1 and col(s, space) == col(s, o) for o in named_spaces(s, anchor))
    if verb == "target_same_lane":
        return any(lane(s, space) == lane(s, o) for o in named_spaces(s, anchor))
    if verb == "target_east_of":
        return any(col(s, space) > col(s, o) for o in named_spaces(s, anchor))
    raise ValueError(f"unknown target filter {verb!r}")


# --- damage, destruction and Wrecks (Damage and Defense; Destroyed Player Vehicles; Wrecks) -----------


def defense_dice(s: HeistState, seat: int) -> int:
    """Damage and Defense: the Defense Rating in dice; Letty's Tough adds one (HH-G6); at most five."""
    dice = rating(s, seat, DEFENSE) + (1 if s.g.characters[seat].power == "tough" else 0)
    return min(dice, s.g.max_dice)


def apply_damage(s: HeistState, seat: int, amount: int, events: list[Event]) -> None:
    """Lower the Vehicle Strength one slot per damage taken; off the bottom, the vehicle is destroyed
    and becomes a Wreck (Destroyed Player Vehicles)."""
    piece = s.pv[seat]
    if piece < 0 or amount <= 0:
        return
    total = s.damage[seat] + amount
    s.damage = replaced(s.damage, seat, total)
    strength = s.g.boards[s.board[seat]].strength + s.g.content.model.knobs.strength_offset
    if total >= strength:
        events.append(Event("destroyed", f"{piece_words(s, piece)} is destroyed and becomes a Wreck in "
                            f"{name(s, s.pieces[piece].space)}", "Destroyed Player Vehicles"))
        make_wreck(s, piece, events)


def make_wreck(s: HeistState, piece: int, events: list[Event]) -> None:
    """Wrecks: the vehicle flips upside down where it is; its pegs move off it."""
    p = s.pieces[piece]
    lose_vehicle(s, piece, events)
    set_piece(s, piece, Piece(WRECK, p.space, p.owner, False, 0, p.suv))
    displace_pegs(s, piece, p, events)


def remove_vehicle(s: HeistState, piece: int, events: list[Event]) -> None:
    """A vehicle destroyed and removed (a Wreck's path, crushed, or off the road): its pegs move."""
    p = s.pieces[piece]
    lose_vehicle(s, piece, events)
    set_piece(s, piece, Piece(SUV if p.suv else WRECK, OFF, -1 if p.suv else p.owner, False, 0, p.suv))
    displace_pegs(s, piece, p, events)


def lose_vehicle(s: HeistState, piece: int, events: list[Event]) -> None:
    """What a vehicle takes with it: its owner's Player Vehicle, Cargo (lost) and Ramsey (moves)."""
    p = s.pieces[piece]
    if is_pv(p):
        s.pv = replaced(s.pv, p.owner, -1)
        s.board = replaced(s.board, p.owner, -1)
    if p.cargo:
        s.lost_cargo += p.cargo
        events.append(Event("cargo", f"{p.cargo} Cargo is lost with the vehicle", "Semi Heist: Cargo"))
    if s.ramsey == piece:
        s.ramsey = -1
        push_front(s, Task(TaskKind.RAMSEY, p.space))


def displace_pegs(s: HeistState, piece: int, was: Piece, events: list[Event]) -> None:
    """Wrecks: an Enemy Peg moves to an adjacent vehicle, Player Pegs to the nearest vehicle. When more
    than one peg must move, the team decides the order (Wrecks; FAQ Enemy Effects 3): a ``PEG_ORDER``
    task asks it when the order could matter (HH-X3)."""
    tasks = []
    for seat, on in enumerate(s.peg_on):
        if on == piece or (on == BEHIND_WHEEL and s.pv[seat] < 0 and was.owner == seat and was.kind != ABANDONED
                           and is_pv(was)):
            s.peg_on = replaced(s.peg_on, seat, NOWHERE)
            tasks.append(Task(TaskKind.RELOCATE, was.space, seat))
    if was.enemy_peg:
        tasks.append(Task(TaskKind.ENEMY_RELOCATE, was.space))
    if len(tasks) > 1:
        tasks.insert(0, Task(TaskKind.PEG_ORDER, was.space))
    push_front(s, *tasks)


def pending_relocations(s: HeistState, origin: int) -> list[Task]:
    """The peg moves off the vehicle that was at ``origin`` still waiting at the front of the queue."""
    pending = []
    for task in s.queue:
        if task.kind not in (TaskKind.RELOCATE, TaskKind.ENEMY_RELOCATE) or task.a != origin:
            break
        pending.append(task)
    return pending


def relocation_options(s: HeistState, task: Task) -> set[int]:
    """Every vehicle the peg of ``task`` could move to now (before the team's or owner's choice)."""
    if task.kind is TaskKind.RELOCATE:
        return set(player_peg_options(s, task.a))
    return {i for i in range(len(s.pieces)) if enemy_peg_fits(s, i) and dist(s, task.a, s.pieces[i].space) == 1}


def order_pegs(s: HeistState, origin: int) -> None:
    """Wrecks, FAQ Enemy Effects 3: the team (the Active Player) chooses which displaced peg moves next,
    asked only when the order could matter: some vehicle within reach of several of them has fewer
    free slots than the pegs that could go there (otherwise every order ends the same)."""
    pending = pending_relocations(s, origin)
    reach = [relocation_options(s, task) for task in pending]
    for piece in set().union(*reach):
        free = ROOF_SLOTS - pegs_on(s, piece) - s.pieces[piece].enemy_peg
        if sum(1 for options in reach if piece in options) > free:
            options = sorted(notation.first(task.seat if task.kind is TaskKind.RELOCATE else -1) for task in pending)
            ask(s, Choice(ChoiceKind.PEG_ORDER, s.active, tuple(options), origin))
            return


def move_peg_first(s: HeistState, origin: int, seat: int) -> None:
    """The team's answer: the peg of ``seat`` (-1: the Enemy Peg) moves off ``origin`` next; the order of
    the others is asked again if it still matters."""
    pending = pending_relocations(s, origin)
    rest = s.queue[len(pending):]
    first = next(t for t in pending if (t.seat if t.kind is TaskKind.RELOCATE else -1) == seat)
    others = tuple(t for t in pending if t is not first)
    order = (Task(TaskKind.PEG_ORDER, origin),) if len(others) > 1 else ()
    s.queue = (first, *order, *others, *rest)


def push_front(s: HeistState, *tasks: Task) -> None:
    s.queue = (*tasks, *s.queue)


def relocate_player_peg(s: HeistState, seat: int, origin: int, events: list[Event]) -> None:
    """Wrecks: the Player Peg goes on top of the nearest vehicle with an available slot; the player
    chooses among equally near ones (the team decides; HH decision: the peg's owner). Never the vehicle
    it leaves (a Brawl moves the peg off it), nor, off a Semi roof, the other Semi roof (content 6.2).
    With no vehicle to go to, the peg is stranded until the player's next turn (HH-X7)."""
    options = player_peg_options(s, origin)
    if not options:
        strand_player_peg(s, seat, origin, events)
        return
    if len(options) == 1:
        place_player_peg(s, seat, options[0], events)
    else:
        ask(s, Choice(ChoiceKind.PEG, seat, tuple(sorted(notation.at(notation.Verb.PEG, *_cl(s, s.pieces[i].space))
                                                         for i in options))))


def strand_player_peg(s: HeistState, seat: int, origin: int, events: list[Event]) -> None:
    """HH-X7: a Player Peg that must move when no vehicle has an available slot for it. Pegs are never
    placed on the road and a roof holds two pegs at most (Core Concepts: Player Pegs and Enemy Pegs), but
    no player is ever eliminated (Damage and Defense): the character waits off the road, on foot (their
    Player Vehicle, if any, is unmanned), and ``origin``, the space the peg left, is kept for its return
    at the start of the player's next turn (``return_stranded_peg``)."""
    s.peg_on = replaced(s.peg_on, seat, NOWHERE)
    s.stranded = replaced(s.stranded, seat, origin)
    events.append(Event("peg", f"{s.g.seat_name(seat)} finds no vehicle with a free slot and waits off the road "
                        "until their next turn", "HH-X7"))


def return_stranded_peg(s: HeistState, seat: int, events: list[Event]) -> None:
    """HH-X7: when a stranded player starts a turn (Playing the Game), before their first action, the
    peg finishes its move as the Wrecks rule says: on top of the nearest vehicle with an available slot
    from the space it left (never the vehicle now there: the one it was Brawled off stays out of reach),
    the player choosing among equally near ones (``peg:<space>``). With still none, the turn goes on
    without it (a Boost token, a Stunt that needs no peg, the Assists of the others)."""
    if s.peg_on[seat] != NOWHERE or s.stranded[seat] < 0:
        return
    origin = s.stranded[seat]
    if not player_peg_options(s, origin):
        events.append(Event("peg", f"{s.g.seat_name(seat)} still finds no vehicle with a free slot", "HH-X7"))
        return
    relocate_player_peg(s, seat, origin, events)


def player_peg_options(s: HeistState, origin: int) -> list[int]:
    """The nearest vehicles with an available slot for a Player Peg moving off ``origin`` (Wrecks):
    never the vehicle it leaves, nor, off a Semi roof, the other Semi roof (content 6.2)."""
    left = occupancy(s).get(origin, -1)
    semi = left >= 0 and s.pieces[left].kind in (CAB, TRAILER)
    options = [i for i in range(len(s.pieces)) if free_slot(s, i) and s.pieces[i].space != origin
               and not (semi and s.pieces[i].kind in (CAB, TRAILER))]
    if not options:
        return []
    best = min(dist(s, origin, s.pieces[i].space) for i in options)
    return [i for i in options if dist(s, origin, s.pieces[i].space) == best]


def _cl(s: HeistState, space: int) -> tuple[int, int]:
    return space // s.g.lanes + 1, space % s.g.lanes + 1


def place_player_peg(s: HeistState, seat: int, piece: int, events: list[Event]) -> None:
    s.peg_on = replaced(s.peg_on, seat, piece)
    if s.stranded[seat] >= 0:
        s.stranded = replaced(s.stranded, seat, OFF)
    events.append(Event("peg", f"{s.g.seat_name(seat)} moves on top of {piece_words(s, piece)}", "Wrecks"))


def relocate_enemy_peg(s: HeistState, origin: int, events: list[Event]) -> None:
    """Wrecks: an Enemy Peg moves to an adjacent vehicle with a slot, a Player Vehicle first and the
    Active Player Vehicle above all; among several the team (the Active Player) chooses (FAQ); with
    none, it returns to the supply."""
    options = [i for i in range(len(s.pieces))
               if enemy_peg_fits(s, i) and dist(s, origin, s.pieces[i].space) == 1]
    if not options:
        events.append(Event("peg", "the Enemy Peg has nowhere to go and returns to the supply", "Wrecks"))
        return
    move_enemy_peg(s, -1, enemy_peg_choices(s, options), "Wrecks", events)


def enemy_peg_choices(s: HeistState, options: list[int]) -> list[int]:
    """FAQ Enemy Effects 1: the Active Player Vehicle if it is an option, else the Player Vehicles, else
    every option: the team chooses among what is left."""
    active_pv = s.pv[s.active] if s.active >= 0 else -1
    if active_pv in options:
        return [active_pv]
    return [i for i in options if is_pv(s.pieces[i])] or options


def move_enemy_peg(s: HeistState, source: int, options: list[int], rule: str, events: list[Event]) -> None:
    """Move an Enemy Peg (from ``source``, or one displaced from a Wreck: -1) onto one of ``options``,
    asking the Active Player when there are several."""
    if len(options) > 1:
        ask(s, Choice(ChoiceKind.ENEMY_PEG, s.active, tuple(sorted(
            notation.at(notation.Verb.PEG, *_cl(s, s.pieces[i].space)) for i in options)), source))
        return
    place_enemy_peg(s, source, options[0], rule, events)


def place_enemy_peg(s: HeistState, source: int, piece: int, rule: str, events: list[Event]) -> None:
    if source >= 0:
        set_piece(s, source, s.pieces[source]._replace(enemy_peg=False))
        s.activated_pegs = s.activated_pegs | {piece}
    set_piece(s, piece, s.pieces[piece]._replace(enemy_peg=True))
    events.append(Event("peg", f"an Enemy Peg moves onto {piece_words(s, piece)}", rule))


def hit_one(s: HeistState, options: list[int], amount: int) -> int:
    """``damage: N, one_pv`` (content 2; the Semi's Shotgun): one vehicle of ``options`` takes ``amount``.
    It is the Active Player Vehicle if that is among them, else the only one: queued, and returned. Else the
    team chooses (HH-X2: the Active Player says which, ``hit:<space>``) and -1 is returned."""
    active_pv = s.pv[s.active] if s.active >= 0 else -1
    if active_pv in options:
        options = [active_pv]
    if len(options) == 1:
        push_front(s, Task(TaskKind.DAMAGE, amount, s.pieces[options[0]].owner))
        return options[0]
    chooser = s.active if s.active >= 0 else s.pieces[options[0]].owner
    ask(s, Choice(ChoiceKind.HIT, chooser,
                  tuple(sorted(notation.at(notation.Verb.HIT, *_cl(s, s.pieces[i].space)) for i in options)),
                  amount))
    return -1


def move_ramsey(s: HeistState, origin: int, events: list[Event]) -> None:
    """Chopper Takedown (content 7.2): Ramsey moves to a Player Vehicle adjacent to her destroyed one
    (the team chooses); with none, the team loses."""
    options = [i for i in player_vehicles(s) if dist(s, origin, s.pieces[i].space) <= 1]
    if not options:
        lose(s, "Ramsey's vehicle is gone and no Player Vehicle was near to take her", events)
        return
    if len(options) == 1:
        s.ramsey = options[0]
        events.append(Event("ramsey", f"Ramsey moves to {piece_words(s, options[0])}", "Chopper Takedown: Ramsey"))
        return
    chooser = s.active if s.active >= 0 else s.pieces[options[0]].owner
    ask(s, Choice(ChoiceKind.RAMSEY, chooser,
                  tuple(sorted(notation.at(notation.Verb.RAMSEY, *_cl(s, s.pieces[i].space)) for i in options))))


def ask(s: HeistState, choice: Choice) -> None:
    from .state import Stage

    if choice.seat < 0:  # an effect between turns (a user's card): the first seat decides for the team
        choice = choice._replace(seat=max(s.active, 0))
    s.choice = choice
    s.stage = Stage.CHOICE


def win(s: HeistState, reason: str, events: list[Event]) -> None:
    if not s.outcome:
        s.outcome, s.reason = "win", reason
        events.append(Event("win", f"the team wins: {reason}", "End of the Game"))


def lose(s: HeistState, reason: str, events: list[Event]) -> None:
    if not s.outcome:
        s.outcome, s.reason = "lose", reason
        events.append(Event("lose", f"the team loses: {reason}", "End of the Game"))


def check_objective(s: HeistState, events: list[Event]) -> None:
    """End of the Game: the Objective ends the game at once; Semi Heist also loses on lost Cargo."""
    sc = s.g.scenario
    if track_value(s) >= sc.goal:
        win(s, f"the objective ({s.g.words.track_name} {sc.goal}) is achieved", events)
    elif sc.lost_cargo_limit and s.lost_cargo >= sc.lost_cargo_limit:
        lose(s, f"{s.lost_cargo} Cargo lost: too little left to secure {sc.goal}", events)


# --- Enemy SUVs: placing and moving (Enemy SUVs; Roll the Enemy Die) -------------------------------


def place_suv_from(s: HeistState, start: int, dc: int, dl: int, events: list[Event]) -> bool:
    """Place an Enemy SUV from the supply at ``start`` or the nearest empty space further in the
    direction; nothing if the supply is empty or the way runs off the road (HH-A12)."""
    supply = [i for i, p in enumerate(s.pieces) if p.kind == SUV and p.space == OFF]
    if not supply:
        return False
    taken = occupancy(s)
    space = start
    while space >= 0 and space in taken:
        space = step(s, space, dc, dl)
    if space < 0:
        return True
    set_piece(s, supply[0], Piece(SUV, space, -1, False, 0, True))
    events.append(Event("suv", f"an Enemy SUV is placed in {name(s, space)}", "Enemy SUVs"))
    return True


def step_toward(s: HeistState, space: int, target: int, taken: dict[int, int], away: bool = False) -> int:
    """One space toward (or away from) ``target``: the free neighbour that brings it closest, ties to a
    diagonal, then East, then North (HH-A3); ``space`` itself if none is closer."""
    def key(n: int) -> tuple[int, int, int, int, int]:
        d, m = dist(s, n, target), abs(col(s, n) - col(s, target)) + abs(lane(s, n) - lane(s, target))
        diagonal = col(s, n) != col(s, space) and lane(s, n) != lane(s, space)
        sign = -1 if away else 1
        return sign * d, sign * m, 0 if diagonal else 1, -col(s, n), lane(s, n)
    here = key(space)
    best = space
    best_key = here
    for n in s.g.neighbours[space]:
        if n in taken:
            continue
        k = key(n)
        if k[:2] < here[:2] and k < best_key:
            best, best_key = n, k
    return best


def activate_suv(s: HeistState, piece: int, events: list[Event]) -> None:
    """Enemy SUV: slam an adjacent Player Vehicle (the Active Player Vehicle first; else the team, here
    the Active Player, chooses), else move one space toward the Active Player Vehicle."""
    p = s.pieces[piece]
    if p.kind != SUV or p.space < 0:
        return
    adjacent = [i for i in player_vehicles(s) if dist(s, p.space, s.pieces[i].space) == 1]
    if adjacent:
        slam(s, piece, adjacent, s.g.content.model.rules.slam_damage, events)
        return
    active_pv = s.pv[s.active] if s.active >= 0 else -1
    if active_pv < 0:
        return
    taken = occupancy(s)
    to = step_toward(s, p.space, s.pieces[active_pv].space, taken)
    if to != p.space:
        set_piece(s, piece, p._replace(space=to))
        events.append(Event("suv", f"the Enemy SUV in {name(s, p.space)} moves to {name(s, to)}",
                            "Roll the Enemy Die: Enemy SUV"))


def slam(s: HeistState, piece: int, adjacent: list[int], amount: int, events: list[Event],
         first: int = -1) -> None:
    active_pv = s.pv[s.active] if s.active >= 0 else -1
    for preferred in (first, active_pv):
        if preferred in adjacent:
            adjacent = [preferred]
            break
    if len(adjacent) == 1:
        hit = adjacent[0]
        events.append(Event("slam", f"{piece_words(s, piece)} slams {piece_words(s, hit)} for {amount} "
                            "damage", "Roll the Enemy Die: Slam"))
        push_front(s, Task(TaskKind.FAMILY_FIRST, amount, s.pieces[hit].owner))
        return
    chooser = s.active if s.active >= 0 else s.pieces[adjacent[0]].owner
    ask(s, Choice(ChoiceKind.SLAM, chooser,
                  tuple(sorted(notation.at(notation.Verb.SLAM, *_cl(s, s.pieces[i].space)) for i in adjacent)),
                  amount))


def activate_shaw(s: HeistState, events: list[Event]) -> None:
    """Shaw's Car (content 7.2): slam (``knobs.shaw_slam``: 3, HH-G4) if adjacent to a Player Vehicle
    (Ramsey's first), else one space toward Ramsey's vehicle."""
    piece = main_piece(s, SHAW)
    if piece < 0:
        return
    p = s.pieces[piece]
    adjacent = [i for i in player_vehicles(s) if dist(s, p.space, s.pieces[i].space) == 1]
    if adjacent:
        slam(s, piece, adjacent, s.g.content.model.knobs.shaw_slam, events, first=s.ramsey)
        return
    if s.ramsey < 0:
        return
    to = step_toward(s, p.space, s.pieces[s.ramsey].space, occupancy(s))
    if to != p.space:
        set_piece(s, piece, p._replace(space=to))
        events.append(Event("shaw", f"{piece_words(s, piece)} moves to {name(s, to)}", "Chopper Takedown: Shaw's Car"))


def activate_peg(s: HeistState, piece: int, events: list[Event]) -> None:
    """Enemy Peg: the first that applies of damage (on a Player Vehicle), Brawl (on an enemy vehicle
    with a Player Peg) and move (onto an adjacent Player Vehicle with room)."""
    p = s.pieces[piece]
    if not p.enemy_peg or p.space < 0 or piece in s.activated_pegs:
        return
    s.activated_pegs = s.activated_pegs | {piece}
    if is_pv(p):
        events.append(Event("peg", f"the Enemy Peg on {piece_words(s, piece)} deals "
                            f"{s.g.content.model.rules.peg_damage} damage", "Roll the Enemy Die: Enemy Peg, damage"))
        push_front(s, Task(TaskKind.DAMAGE, s.g.content.model.rules.peg_damage, p.owner))
        return
    riders = [seat for seat, on in enumerate(s.peg_on) if on == piece]
    if p.kind in ENEMY_VEHICLES and riders:
        victim = s.active if s.active in riders else riders[0]
        s.peg_on = replaced(s.peg_on, victim, NOWHERE)
        events.append(Event("brawl", f"the Enemy Peg Brawls {s.g.seat_name(victim)} off {piece_words(s, piece)}",
                            "Roll the Enemy Die: Enemy Peg, Brawl"))
        push_front(s, Task(TaskKind.RELOCATE, p.space, victim))
        return
    options = [i for i in player_vehicles(s) if dist(s, p.space, s.pieces[i].space) == 1 and enemy_peg_fits(s, i)]
    if options:
        move_enemy_peg(s, piece, enemy_peg_choices(s, options), "Roll the Enemy Die: Enemy Peg, move", events)


def enemy_die_tasks(s: HeistState, face: str) -> tuple[Task, ...]:
    """Roll the Enemy Die: what each face starts (Enemy SUV, Enemy Peg, Enemy Card, Main Enemy Moves &
    Enemy Card)."""
    if face == "suv":
        suvs = enemy_suvs(s)
        shaw = main_piece(s, SHAW)
        if not suvs:  # Shaw's Car is no Enemy SUV: it still activates on this face (content 2, 7.2)
            place = Task(TaskKind.EFFECT, line=PLACE_BEHIND_EACH, seat=s.active)
            return (place, Task(TaskKind.SHAW)) if shaw >= 0 else (place,)
        movers = [*suvs, shaw] if shaw >= 0 else suvs
        movers.sort(key=lambda i: s.pieces[i].space)
        return tuple(Task(TaskKind.SHAW if s.pieces[i].kind == SHAW else TaskKind.SUV, i) for i in movers)
    if face == "peg":
        s.activated_pegs = frozenset()
        pegs = sorted((i for i, p in enumerate(s.pieces) if p.enemy_peg and p.space >= 0),
                      key=lambda i: s.pieces[i].space)
        return tuple(Task(TaskKind.PEG, i) for i in pegs)
    if face == "card":
        return (Task(TaskKind.CARD),)
    lines = s.g.main_left if face == "main_left" else s.g.main_right
    return (*(Task(TaskKind.EFFECT, line=line, seat=s.active) for line in lines), Task(TaskKind.CARD))


PLACE_BEHIND_EACH = Line("place_suv", ("behind", "each_pv"), 0)
"""Enemy SUV, IMPORTANT: with no Enemy SUV on the road, place one directly behind each Player Vehicle."""


def enemy_card_step(s: HeistState, events: list[Event]) -> None:
    """Enemy Cards: discard the card in ACTIVATE!, move the row right, resolve the Activated effect of
    the card reaching ACTIVATE!, then draw and reveal a new card."""
    row = list(s.enemy_row)
    if row[-1]:
        s.enemy_discard = tuple(sorted((*s.enemy_discard, row[-1])))
        events.append(Event("card", f"the Enemy card {s.g.enemy_cards[row[-1]].name} leaves ACTIVATE! for the "
                            "discard pile", "Enemy Cards"))
    row = ["", *row[:-1]]
    s.enemy_row = tuple(row)
    tasks: list[Task] = []
    if row[-1]:
        card = s.g.enemy_cards[row[-1]]
        effect = s.g.words.activated[card.id] or "it has no Activated effect."
        events.append(Event("card", f"the Enemy card {card.name} moves to ACTIVATE!: {effect}", "Enemy Cards"))
        tasks.extend(Task(TaskKind.EFFECT, line=line, seat=s.active) for line in card.activated)
    tasks.append(Task(TaskKind.DRAW_ENEMY))
    push_front(s, *tasks)


def reveal_enemy_card(s: HeistState, card_id: str, events: list[Event]) -> None:
    deck = list(s.enemy_deck)
    deck.remove(card_id)
    s.enemy_deck = tuple(deck)
    s.enemy_row = (card_id, *s.enemy_row[1:])
    card = s.g.enemy_cards[card_id]
    events.append(Event("card", f"the Enemy card {card.name} is revealed: {s.g.words.reveal[card_id]}",
                        "Enemy Cards"))
    push_front(s, *(Task(TaskKind.EFFECT, line=line, seat=s.active) for line in card.reveal))


# --- the Main Enemy (Main Enemy Moves; content 0.3 Shove) -----------------------------------------------


def main_move(s: HeistState, direction: str, seat: int, events: list[Event]) -> None:
    """Move the Main Enemy one space; the Tank and the Semi shove what is in their way (content 0.3)."""
    if direction in ("choice_ns", "choice_any"):
        dirs = ("north", "south") if direction == "choice_ns" else tuple(sorted(DIRECTION_STEPS))
        ask(s, Choice(ChoiceKind.DIRECTION, seat if seat >= 0 else max(s.active, 0),
                      tuple(sorted(notation.direction(d) for d in (*dirs, NO_DIRECTION)))))
        return
    if s.g.scenario.main_enemy == "chopper":
        move_chopper(s, direction, events)
        return
    kinds = (TANK,) if s.g.scenario.main_enemy == "tank" else (CAB, TRAILER)
    body = [i for i, p in enumerate(s.pieces) if p.kind in kinds and p.space >= 0]
    if not body:
        return
    dc, dl = _direction(s, direction, s.pieces[body[0]].space)
    if (dc, dl) == (0, 0):
        return
    targets = [step(s, s.pieces[i].space, dc, dl) for i in body]
    if any(t < 0 for t in targets):
        events.append(Event("main", f"the {s.g.words.main_enemy} is at the edge of the road and does not move",
                            "Main Enemy Moves (HH-A9)"))
        return
    own = {s.pieces[i].space for i in body}
    for t in sorted(set(targets) - own):
        shove(s, t, dc, dl, events)
    for i, t in zip(body, targets, strict=True):
        set_piece(s, i, s.pieces[i]._replace(space=t))
    events.append(Event("main", f"the {s.g.words.main_enemy} moves {STEP_WORDS[(dc, dl)]}", "Main Enemy Moves"))


def _direction(s: HeistState, direction: str, here: int) -> tuple[int, int]:
    if direction == "toward_active_lane":
        active_pv = s.pv[s.active] if s.active >= 0 else -1
        if active_pv < 0:
            return 0, 0
        d = lane(s, s.pieces[active_pv].space) - lane(s, here)
        return 0, (d > 0) - (d < 0)
    return DIRECTION_STEPS.get(direction, (0, 0))


def shove(s: HeistState, space: int, dc: int, dl: int, events: list[Event]) -> None:
    """Shove: a Wreck in the way is removed (+1 Tank Damage for the Tank); a vehicle is pushed one space
    (a pushed Player Vehicle takes 2) or, with nowhere to go, crushed."""
    taken = occupancy(s)
    piece = taken.get(space, -1)
    if piece < 0:
        return
    p = s.pieces[piece]
    if p.kind == WRECK:
        set_piece(s, piece, Piece(SUV if p.suv else WRECK, OFF, -1 if p.suv else p.owner, False, 0, p.suv))
        events.append(Event("shove", f"the Wreck in {name(s, space)} is smashed aside", "Main Enemy Moves"))
        if s.g.scenario.main_enemy == "tank":
            s.track += 1
            events.append(Event("track", "the Tank takes 1 damage from the Wreck", "Tank Assault: Tank damage"))
        return
    to = step(s, space, dc, dl)
    if to < 0 or to in taken:
        events.append(Event("crush", f"{piece_words(s, piece)} is crushed", "Main Enemy Moves"))
        remove_vehicle(s, piece, events)
        return
    pushed = piece_words(s, piece)
    set_piece(s, piece, p._replace(space=to))
    events.append(Event("shove", f"{pushed} is pushed to {name(s, to)}", "Main Enemy Moves"))
    if is_pv(p):
        push_front(s, Task(TaskKind.DAMAGE, s.g.content.model.knobs.shove_damage, p.owner))


def move_chopper(s: HeistState, direction: str, events: list[Event]) -> None:
    """The Chopper hovers: it ignores occupancy; toward or away from Ramsey, or a compass step."""
    if s.chopper < 0:
        return
    if direction in ("toward_ramsey", "away_from_ramsey"):
        if s.ramsey < 0:
            return
        to = step_toward(s, s.chopper, s.pieces[s.ramsey].space, {}, away=direction == "away_from_ramsey")
    else:
        dc, dl = _direction(s, direction, s.chopper)
        to = step(s, s.chopper, dc, dl)
        if to < 0:
            to = s.chopper
    if to != s.chopper:
        s.chopper = to
        events.append(Event("main", f"the {s.g.words.main_enemy} flies to {name(s, to)}", "Main Enemy Moves"))


def shoot(s: HeistState, amount: int, east: bool, events: list[Event]) -> None:
    """The Tank's cannon (content 0.2): the first piece along its lane is hit."""
    tank = main_piece(s, TANK)
    if tank < 0:
        return
    taken = occupancy(s)
    space = step(s, s.pieces[tank].space, 1 if east else -1, 0)
    while space >= 0:
        piece = taken.get(space, -1)
        if piece >= 0:
            p = s.pieces[piece]
            if is_pv(p):
                events.append(Event("shoot", f"the cannon hits {piece_words(s, piece)}", "Tank Assault: Main Cannon"))
                push_front(s, Task(TaskKind.DAMAGE, amount, p.owner))
            elif p.kind in (SUV, ABANDONED):
                events.append(Event("shoot", f"the cannon wrecks {piece_words(s, piece)}", "Tank Assault: Main Cannon"))
                make_wreck(s, piece, events)
            return
        space = step(s, space, 1 if east else -1, 0)


# --- effects of the effect language (content section 0.2) -----------------------------------------------


def select(s: HeistState, selector: str, seat: int, target: int) -> list[int]:
    """The pieces a selector names, in Resolution Order."""
    head, _, piece = selector.partition(":")
    pvs = player_vehicles(s)
    if selector == "each_pv":
        return pvs
    if selector == "active_pv":
        return [s.pv[s.active]] if s.active >= 0 and s.pv[s.active] >= 0 else []
    if selector == "ramsey_pv":
        return [s.ramsey] if s.ramsey >= 0 else []
    if selector == "self":
        return [s.pv[seat]] if seat >= 0 and s.pv[seat] >= 0 else []
    if selector == "target":
        return [target] if target >= 0 and s.pieces[target].space >= 0 else []
    if selector == "roof":
        return [s.peg_on[seat]] if seat >= 0 and s.peg_on[seat] >= 0 else []
    if selector == "each_enemy_suv":
        return enemy_suvs(s)
    if selector == "pv_in_throw_zone":
        zone = throw_zone(s)
        return [i for i in pvs if s.pieces[i].space in zone]
    if selector == "pv_with_cargo":
        return [i for i in pvs if s.pieces[i].cargo > 0]
    if head == "pv_adjacent":
        return [i for i in pvs if _near(s, s.pieces[i].space, piece, "adjacent")]
    if head == "pv_same_lane":
        return [i for i in pvs if any(lane(s, s.pieces[i].space) == lane(s, o) for o in named_spaces(s, piece))]
    if head == "pv_within1":
        return [i for i in pvs if _near(s, s.pieces[i].space, piece, "within", 1)]
    return named_pieces(s, selector)


def run_effect(s: HeistState, line: Line, seat: int, target: int, events: list[Event]) -> None:
    """One line of an Enemy card, a Stunt Reward or a scenario action."""
    verb, words, n = line.verb, line.words, line.number
    if verb == "place_suv":
        dc = -1 if words[0] == "behind" else 1
        for anchor in select(s, words[1], seat, target):
            if not place_suv_from(s, step(s, s.pieces[anchor].space, dc, 0), dc, 0, events):
                break
    elif verb == "place_suv_lane":
        active_pv = s.pv[s.active] if s.active >= 0 else -1
        if active_pv >= 0:
            dc = -1 if words[0] == "west" else 1
            start = (min(n, s.g.columns) - 1) * s.g.lanes + lane(s, s.pieces[active_pv].space)
            place_suv_from(s, start, dc, 0, events)
    elif verb == "place_peg":
        for piece in select(s, words[0], seat, target):
            if s.enemy_pegs_in_supply() <= 0:
                break
            if enemy_peg_fits(s, piece):
                set_piece(s, piece, s.pieces[piece]._replace(enemy_peg=True))
                events.append(Event("peg", f"an Enemy Peg is placed on {piece_words(s, piece)}", "Enemy Cards"))
    elif verb == "activate":
        what = words[0]
        if what == "enemy_suvs":
            push_front(s, *enemy_die_tasks(s, "suv"))
        elif what == "enemy_pegs":
            push_front(s, *enemy_die_tasks(s, "peg"))
        elif what == "shaw_car":
            push_front(s, Task(TaskKind.SHAW))
        else:
            shotgun(s, events)
    elif verb in ("damage", "damage_one"):
        hit = select(s, words[0], seat, target)
        if verb == "damage_one" and hit:
            hit_one(s, hit, n)
        else:
            push_front(s, *(Task(TaskKind.DAMAGE, n, s.pieces[i].owner) for i in hit))
    elif verb == "shoot":
        shoot(s, n, words[0] == "east", events)
    elif verb == "missile":
        missile(s, n, events)
    elif verb == "main_move":
        main_move(s, words[0], seat, events)
    elif verb == "track":
        s.track = max(0, s.track + n)
        events.append(Event("track", f"{s.g.words.track_name} is now {s.track} of {s.g.scenario.goal}", "Objective"))
    elif verb == "door":
        s.door_open = words[0] == "open"
        events.append(Event("door", f"the Semi's door is {words[0]}", "Semi Heist: the door"))
    elif verb == "cargo_to":
        for piece in select(s, words[0], seat, target)[:1]:
            if s.cargo_in_semi > 0:
                s.cargo_in_semi -= 1
                set_piece(s, piece, s.pieces[piece]._replace(cargo=s.pieces[piece].cargo + 1))
                events.append(Event("cargo", f"Cargo lands on {piece_words(s, piece)}", "Semi Heist: Cargo"))
    elif verb == "cargo_back":
        for piece in player_vehicles(s):
            p = s.pieces[piece]
            if p.enemy_peg and p.cargo:
                set_piece(s, piece, p._replace(cargo=p.cargo - 1))
                s.cargo_in_semi += 1
                events.append(Event("cargo", f"Cargo goes back to the Semi from {piece_words(s, piece)}",
                                    "Semi Heist: Cargo"))
    elif verb == "ramsey_to":
        for piece in select(s, words[0], seat, target)[:1]:
            s.ramsey = piece
            events.append(Event("ramsey", f"Ramsey moves to {piece_words(s, piece)}", "Chopper Takedown: Ramsey"))
    elif verb == "wreck":
        for piece in select(s, words[0], seat, target):
            events.append(Event("wreck", f"{piece_words(s, piece)} becomes a Wreck", "Wrecks"))
            make_wreck(s, piece, events)
    elif verb == "remove_wreck":
        if target >= 0 and s.pieces[target].kind == WRECK and s.pieces[target].space >= 0:
            p = s.pieces[target]
            set_piece(s, target, Piece(SUV if p.suv else WRECK, OFF, -1 if p.suv else p.owner, False, 0, p.suv))
    elif verb == "move":
        move_effect(s, line, seat, target)
    elif verb == "remove_peg":
        for piece in select(s, words[0], seat, target):
            if s.pieces[piece].enemy_peg:
                set_piece(s, piece, s.pieces[piece]._replace(enemy_peg=False))
                events.append(Event("peg", f"the Enemy Peg on {piece_words(s, piece)} returns to the supply",
                                    "Stunt Actions"))
    elif verb == "remove_peg_adjacent":
        roof = s.peg_on[seat] if seat >= 0 else -1
        if roof >= 0:
            here = s.pieces[roof].space
            options = [i for i, p in enumerate(s.pieces)
                       if p.enemy_peg and p.space >= 0 and dist(s, here, p.space) == 1]
            if options:
                ask(s, Choice(ChoiceKind.REMOVE_PEG, seat, tuple(sorted(
                    [notation.at(notation.Verb.REMOVE, *_cl(s, s.pieces[i].space)) for i in options]
                    + ["remove:none"]))))
    elif verb == "win":
        win(s, "the Level 3 Stunt is performed", events)
    elif verb == "if_enemy_peg" and any(s.pieces[p].enemy_peg for p in named_pieces(s, words[0])):
        push_front(s, *(Task(TaskKind.EFFECT, line=then, seat=seat, target=target) for then in line.then))


def move_effect(s: HeistState, line: Line, seat: int, target: int) -> None:
    """``move``: the actor moves a vehicle along a Force path (content 0.2 move_vehicle)."""
    mover, flag = line.words[0], line.words[1] if len(line.words) > 1 else ""
    if mover == "self":
        piece = s.pv[seat] if seat >= 0 else -1
    elif mover == "shaw_car":
        piece = main_piece(s, SHAW)
    else:
        piece = target
    if piece < 0 or s.pieces[piece].space < 0:
        return
    options = reachable(s, s.pieces[piece].space, line.number, occupancy(s))
    if flag == "throw_zone":
        zone = throw_zone(s)
        options = [o for o in options if o in zone]
    if not options:
        return
    ask(s, Choice(ChoiceKind.MOVE_TO, seat, tuple(sorted(notation.at(notation.Verb.TO, *_cl(s, o)) for o in options)),
                  piece, s.pieces[piece].space, flag == "follow"))


def shotgun(s: HeistState, events: list[Event]) -> None:
    """Semi Heist (content 6.2): the Shotgun hits one Player Vehicle adjacent to the cab."""
    hit = select(s, "pv_adjacent:semi_cab", -1, -1)
    if hit:
        victim = hit_one(s, hit, s.g.content.model.knobs.shotgun_damage)
        target = "one of the vehicles next to the cab: the team chooses which" if victim < 0 else \
            piece_words(s, victim)
        events.append(Event("shotgun", f"the Shotgun fires at {target}", "Semi Heist: Shotgun"))


def missile(s: HeistState, reach: int, events: list[Event]) -> None:
    """Chopper Takedown (content 0.2): a missile at Ramsey's vehicle within range, splash on its
    neighbours."""
    if s.ramsey < 0 or s.chopper < 0:
        return
    here = s.pieces[s.ramsey].space
    if dist(s, s.chopper, here) > reach:
        events.append(Event("missile", "the missile has no lock: Ramsey is out of range", "Chopper Takedown"))
        return
    knobs = s.g.content.model.knobs
    tasks = [Task(TaskKind.DAMAGE, knobs.missile_damage, s.pieces[s.ramsey].owner)]
    tasks += [Task(TaskKind.DAMAGE, knobs.missile_splash, s.pieces[i].owner) for i in player_vehicles(s)
              if dist(s, here, s.pieces[i].space) == 1]
    events.append(Event("missile", "a missile streaks at Ramsey's vehicle", "Chopper Takedown"))
    push_front(s, *tasks)


# --- End of Round: Road Maintenance and Stunt Card Maintenance ------------------------------------------


def road_maintenance_tasks(s: HeistState) -> tuple[Task, ...]:
    """Road Maintenance: the Wrecks and the unmanned or abandoned vehicles, one at a time in Resolution
    Order (West to East, then North to South), each once."""
    movers = sorted((i for i, p in enumerate(s.pieces) if p.space >= 0 and (
        p.kind in (WRECK, ABANDONED) or (is_pv(p) and s.peg_on[p.owner] != BEHIND_WHEEL))),
        key=lambda i: s.pieces[i].space)
    return tuple(Task(TaskKind.WRECK_MOVE if s.pieces[i].kind == WRECK else TaskKind.DRIFT, i) for i in movers)


WRECK_STEPS = 4


def move_wreck(s: HeistState, piece: int, events: list[Event]) -> None:
    """Wrecks move four spaces West, destroying and removing every vehicle in their path; a Wreck
    passes other Wrecks (HH-A4); the Tank stops it (+1 Tank Damage), the Semi and Shaw's Car remove it."""
    p = s.pieces[piece]
    if p.kind != WRECK or p.space < 0:
        return
    space = p.space
    moved = 0
    while True:
        nxt = step(s, space, -1, 0)
        if nxt < 0:
            set_piece(s, piece, Piece(SUV if p.suv else WRECK, OFF, -1 if p.suv else p.owner, False, 0, p.suv))
            events.append(Event("wreck", f"the Wreck from {name(s, p.space)} falls off the road",
                                "Road Maintenance: Wrecks"))
            return
        other = occupancy(s).get(nxt, -1)
        if other >= 0 and other != piece:
            kind = s.pieces[other].kind
            if kind in (TANK, CAB, TRAILER, SHAW):
                set_piece(s, piece, Piece(SUV if p.suv else WRECK, OFF, -1 if p.suv else p.owner, False, 0, p.suv))
                if kind == TANK:
                    s.track += 1
                    events.append(Event("track", f"the Wreck from {name(s, p.space)} slams into the Tank: "
                                        f"{s.g.words.track_name} {s.track} of {s.g.scenario.goal}",
                                        "Tank Assault: Tank damage"))
                else:
                    events.append(Event("wreck", f"the Wreck from {name(s, p.space)} is swept aside",
                                        "Road Maintenance: Wrecks"))
                return
            if kind != WRECK:
                events.append(Event("wreck", f"the Wreck destroys {piece_words(s, other)}", "Road Maintenance: Wrecks"))
                remove_vehicle(s, other, events)
        space = nxt
        moved += 1
        if moved >= WRECK_STEPS and occupancy(s).get(space, -1) in (-1, piece):
            break
    set_piece(s, piece, s.pieces[piece]._replace(space=space))
    events.append(Event("wreck", f"the Wreck moves from {name(s, p.space)} to {name(s, space)}",
                        "Road Maintenance: Wrecks"))


def drift(s: HeistState, piece: int, events: list[Event]) -> None:
    """Unmanned Player Vehicles and abandoned vehicles move one space West unless something is directly
    behind (HH-A5: any piece); off the road they are destroyed."""
    p = s.pieces[piece]
    if p.space < 0 or not (p.kind == ABANDONED or (is_pv(p) and s.peg_on[p.owner] != BEHIND_WHEEL)):
        return
    behind = step(s, p.space, -1, 0)
    if behind >= 0 and behind in occupancy(s):
        return
    if behind < 0:
        events.append(Event("drift", f"{piece_words(s, piece)} falls off the road and is destroyed",
                            "Road Maintenance: Unmanned Player Vehicles"))
        remove_vehicle(s, piece, events)
        return
    falling = piece_words(s, piece)
    set_piece(s, piece, p._replace(space=behind))
    events.append(Event("drift", f"{falling} falls back to {name(s, behind)}",
                        "Road Maintenance: Unmanned Player Vehicles"))


def stunt_maintenance(s: HeistState, events: list[Event]) -> bool:
    """Stunt Card Maintenance: every card moves one spot West; the one leaving returns its tokens and
    is discarded (the Level 3 card leaving loses the game). True if a new card is to be drawn."""
    row = s.stunt_row
    leaving = row[-1]
    if leaving:
        s.boost_supply += s.stunt_tokens[-1]
        s.stunt_discard = (*s.stunt_discard, leaving)
        events.append(Event("stunt", f"the Stunt card {s.g.stunt_cards[leaving].name} leaves the road",
                            "Stunt Card Maintenance"))
        if s.g.stunt_cards[leaving].level == 3:
            lose(s, "the Level 3 Stunt card left the road", events)
            return False
    s.stunt_row = ("", *row[:-1])
    s.stunt_tokens = (0, *s.stunt_tokens[:-1])
    return any(s.stunts_left)


def stunt_level(s: HeistState) -> int:
    """The level of the next Stunt card: the deck holds Level 1 on top, then 2, then the 3 (Setup)."""
    for level, left in enumerate(s.stunts_left):
        if left:
            return level
    return -1


def reveal_stunt(s: HeistState, card_id: str, events: list[Event]) -> None:
    """Draw the next Stunt card to the East spot with a Boost token on each symbol (while the supply
    lasts)."""
    card = s.g.stunt_cards[card_id]
    level = card.level - 1
    s.stunts_left = replaced(s.stunts_left, level, s.stunts_left[level] - 1)
    s.stunt_drawn = (*s.stunt_drawn, card_id)
    tokens = min(card.boost, s.boost_supply)
    s.boost_supply -= tokens
    s.stunt_row = (card_id, *s.stunt_row[1:])
    s.stunt_tokens = (tokens, *s.stunt_tokens[1:])
    on = f"{tokens} Boost token" + ("" if tokens == 1 else "s")
    events.append(Event("stunt", f"the Stunt card {card.name} (level {card.level}) is drawn with {on}: "
                        f"{s.g.words.card_texts[card_id]}", "Stunt Card Maintenance"))
