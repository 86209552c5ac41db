"""An independent review of Rush 'n' Crush against its rulebook, through the public contract only.

Written from ``rules/rush-n-crush.txt`` (Roger BW's summary, "the summary"), ``rules/GAPS.md`` section 4
and ``rules/rush-n-crush-content.md`` ("content"), not from the code: every scenario starts a race with
``slipstream.load(...).start(seed)``, plays it with ``apply`` (forcing every roll by its chance action),
and reads the outcome from ``view``. Positions are reached by driving the cars there; a course file
(a public option) gives the long straights and the obstructions a scenario needs, and a content file (another)
the numbers of the content proposal. Each test cites the
summary's section (Round, Turn, Movement, Introduction, Setup) and the gap it rests on.
"""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import pytest

import slipstream
from slipstream.engine.errors import IllegalActionError
from slipstream.engine.game import State

from .helpers import scenario_options

LANES_OF_ONES = '"{0}", "{0}", "{0}", "{0}"'


def long_course(tmp_path: Path, obstructions: tuple[tuple[int, int, int], ...] = ()) -> str:
    """An open course: the standard straight R1a (tile 0, the grid), then three straights of 40 ranks
    (tiles 1-3) with the given obstructions (tile, lane, index)."""
    lanes = LANES_OF_ONES.format(" ".join(["1"] * 40))
    faces = []
    for tile in (1, 2, 3):
        blocked = ", ".join(f"[{lane}, {index}]" for t, lane, index in obstructions if t == tile)
        faces.append(f'[[faces]]\nid = "LONG{tile}"\ntile = "LONG{tile}"\nkind = "straight"\nshape = "straight"\n'
                     f'ranks = 40\nlanes = [{lanes}]\nobstructions = [{blocked}]\nsource = "default"\n')
    path = tmp_path / "review-course.toml"
    path.write_text('[course]\nid = "review"\nfaces = ["R1a", "LONG1", "LONG2", "LONG3"]\nclosed = false\n'
                    'laps = 1\nsource = "default"\n\n' + "\n".join(faces))
    return str(path)


def race(tmp_path: Path, players: int = 2, obstructions: tuple[tuple[int, int, int], ...] = (),
         **options: Any) -> State:
    """A race on the long course with grid slot k dealt to seat k-1: seat 0 on 0.0.7, seat 1 on 0.2.7,
    seat 2 on 0.1.5, seat 3 on 0.3.5 (content 4.8); every gear line and the content proposal's numbers
    (``helpers.scenario_options``: the review was written from them)."""
    state = slipstream.load("rush-n-crush", players=players, **scenario_options(
        course=long_course(tmp_path, obstructions=obstructions), **options)).start(seed=11)
    for seat in range(players - 1):
        state = state.apply(f"grid:P{seat + 1}")
    return state


def play(state: State, *actions: str) -> State:
    for action in actions:
        state = state.apply(action)
    return state


def car(state: State, seat: int) -> dict[str, Any]:
    cars: list[dict[str, Any]] = state.view(None)["cars"]
    return cars[seat]


def chance(state: State) -> dict[str, Fraction]:
    """The chance outcomes as exact fractions (the probabilities are floats of small ratios)."""
    return {action: Fraction(p).limit_denominator(100_000) for action, p in state.chance_outcomes()}


def gear(state: State, node: str, *points: str, heat: int | None = None, steer: int | None = None) -> State:
    """The gearstick stage of a turn: the free action, the points, ``done``, then the forced rolls."""
    state = play(state, node, *points)
    if "done" in state.legal_actions() and not state.is_chance:
        state = state.apply("done")
    if heat is not None:
        state = state.apply(f"heat:{heat}")
    if steer is not None:
        state = state.apply(f"steer:{steer}")
    return state


def cruise(state: State, node: str = "keep", steps: int = 4) -> State:
    """A whole plain turn: the gearstick, then ``steps`` steps straight ahead, then ``end`` if asked."""
    seat = state.actor
    state = gear(state, node)
    while state.is_chance:
        state = state.apply(state.legal_actions()[0])      # no heat; one lane change
    for _ in range(steps):
        state = state.apply("ahead")
    if state.actor == seat and "end" in state.legal_actions():
        state = state.apply("end")
    return state


def end(state: State) -> State:
    return state.apply("end") if "end" in state.legal_actions() else state


def binomial(dice: int, hit_faces: int) -> dict[str, Fraction]:
    p = Fraction(hit_faces, 6)
    return {f"heat:{k}": comb(dice, k) * p**k * (1 - p) ** (dice - k) for k in range(dice + 1)}


HIGHEST_OF = {3: (1, 7, 19, 37, 61, 91), 2: (1, 3, 5, 7, 9, 11), 1: (1, 1, 1, 1, 1, 1)}
LOWEST_OF = {n: tuple(reversed(weights)) for n, weights in HIGHEST_OF.items() if n > 1}
LOWEST_OF[4] = (671, 369, 175, 65, 15, 1)
LOWEST_OF[5] = (4651, 2101, 781, 211, 31, 1)


def kept(prefix: str, weights: tuple[int, ...]) -> dict[str, Fraction]:
    total = sum(weights)
    return {f"{prefix}:{v}": Fraction(w, total) for v, w in zip(range(1, 7), weights, strict=True)}


# --- Round ---------------------------------------------------------------------------------------------


def test_round_order_front_to_back_and_the_tie_to_the_first_arrival(tmp_path: Path) -> None:
    """Round: "Establish an order for this round, front to back. If two cars are equally far forward,
    the one that arrived first is 'ahead'." Seat 1 is behind in round 2, catches up level in round 3
    and, having got there first, moves first in round 4 although seat 0 has the lower seat number."""
    s = race(tmp_path)
    assert s.view(None)["order"] == [0, 1]               # round 1: level, slot 1 first (RC-A10)
    s = cruise(cruise(s, "gear:g1b"), "gear:g1b")        # both at rank 11
    assert s.view(None)["order"] == [0, 1]
    s = cruise(s)                                        # seat 0 to rank 15
    s = cruise(s, "gear:g1y", steps=5)                   # seat 1 to rank 16
    assert s.view(None)["round"] == 3 and s.view(None)["order"] == [1, 0]
    s = cruise(s, "gear:g1b", steps=4)                   # seat 1 (g1y -> g1b): rank 20, arrives first
    s = cruise(s, "gear:g1y", steps=5)                   # seat 0: rank 20, arrives second
    assert car(s, 0)["progress"] == car(s, 1)["progress"]
    assert s.view(None)["order"] == [1, 0]


# --- Turn: the gearstick and the points ----------------------------------------------------------------


def test_gearstick_starts_by_accelerating_and_never_returns_to_zero(tmp_path: Path) -> None:
    """Turn: "accelerate (one step up or right-and-up along a white line), brake (one step down or
    down-and-left ...), or shift ... Or keep it where it is. You may not deliberately decelerate to
    speed 0." From the zero spot the only way is up to g1b (speed 4, GAPS 4.1); at g1b nothing brakes."""
    s = race(tmp_path)
    assert [a for a in s.legal_actions() if a.startswith("gear:") or a == "keep"] == ["gear:g1b"]
    s = cruise(cruise(s, "gear:g1b"), "gear:g1b")
    assert [a for a in s.legal_actions() if a.startswith("gear:") or a == "keep"] == ["gear:g1y", "gear:g2b", "keep"]
    s = s.apply("keep")
    assert not [a for a in s.legal_actions() if a.startswith("brake:")]
    assert car(s, 0)["speed"] == 4


def test_the_lines_of_the_matrix_from_g2y(tmp_path: Path) -> None:
    """Turn: from g2y (gear 2, speed 6) accelerate reaches g2o or g3y, brake g2b or g1y, and a shift
    along the dashed line g1o or g3b (content 1.2's table)."""
    s = race(tmp_path)
    s = gear(s, "gear:g1b", "turbo:g2b", "turbo:g2y", heat=0, steer=6)
    assert car(s, 0)["node"] == "g2y"
    for _ in range(6):
        s = s.apply("ahead")
    s = cruise(end(s), "gear:g1b")
    moves = sorted(a for a in s.legal_actions() if a.startswith("gear:"))
    assert moves == ["gear:g1o", "gear:g1y", "gear:g2b", "gear:g2o", "gear:g3b", "gear:g3y"]


def test_turbo_points_accelerate_and_two_widen_the_heat_range_to_four(tmp_path: Path) -> None:
    """Turn: "spend as many of your Turbo points (to accelerate as above) ... Any 1-2 on red dice gives
    you a heat point. (+1 to the range for each Turbo you used this turn; using two Turbos makes each
    heat die give you heat on 1-4.)" g1b -> g1y free, then two Turbos to g1r: red zone, 3 red dice, each
    heating on 1-4."""
    s = race(tmp_path)
    s = cruise(cruise(s, "gear:g1b"), "gear:g1b")
    s = play(s, "gear:g1y", "turbo:g1o", "turbo:g1r", "done")
    assert chance(s) == binomial(3, 4)
    s = s.apply("heat:2")
    assert car(s, 0)["heat"] == 2 and car(s, 0)["turbo"] == 1 and car(s, 0)["speed"] == 8


def test_red_dice_by_colour_zone_without_turbo(tmp_path: Path) -> None:
    """Turn: "Roll red dice based on your current colour zone": blue 0, yellow 1, orange 2 (RC-G3),
    each heating on 1-2 when no Turbo was used."""
    s = race(tmp_path)
    s = cruise(cruise(s, "gear:g1b"), "gear:g1b")
    s = play(s, "gear:g1y", "done")
    assert chance(s) == binomial(1, 2)
    s = s.apply("heat:0")
    for _ in range(5):
        s = s.apply("ahead")
    s = cruise(end(s), "keep")
    s = play(s, "gear:g1o", "done")
    assert chance(s) == binomial(2, 2)


def test_brake_points_and_only_one_kind_of_point(tmp_path: Path) -> None:
    """Turn: "spend as many of your Turbo points ... or Brake points (to brake as above)"; one kind a
    turn (content 1.4, RC-X5). At g1r a free brake to g1o, then a Brake point to g1y."""
    s = race(tmp_path)
    s = gear(s, "gear:g1b", "turbo:g1y", "turbo:g1o", "turbo:g1r", heat=0, steer=6)
    for _ in range(8):
        s = s.apply("ahead")
    s = cruise(end(s), "gear:g1b")
    s = play(s, "gear:g1o", "brake:g1y")
    assert not [a for a in s.legal_actions() if a.startswith("turbo:")]
    assert car(s, 0)["brake"] == 2 and car(s, 0)["speed"] == 5


# --- Movement: lane changes --------------------------------------------------------------------------


Obstructions = tuple[tuple[int, int, int], ...]


def climb(tmp_path: Path, seen: list[tuple[int, dict[str, Fraction]]], obstructions: Obstructions = (),
          turns: int = 8) -> State:
    """Seat 0 climbs the blue column to speed 12 and then up gear 6 to 18, one line a turn, while
    seat 1 cruises at 4 in lane 2. Records (speed, the white dice's outcomes) each turn."""
    s = race(tmp_path, obstructions=obstructions)
    plan = [("gear:g1b",), ("gear:g2b", "turbo:g3b"), ("gear:g4b",), ("gear:g5b",), ("gear:g6b",),
            ("gear:g6y",), ("gear:g6o",), ("gear:g6r",)]
    for actions in plan[:turns]:
        s = play(s, *actions)
        if "done" in s.legal_actions() and not s.is_chance:
            s = s.apply("done")
        if s.is_chance and s.legal_actions()[0].startswith("heat:"):
            s = s.apply("heat:0")
        speed = car(s, 0)["speed"]
        seen.append((speed, chance(s) if s.is_chance else {}))
        if s.is_chance:
            s = s.apply("steer:1")
        for _ in range(speed):
            if s.actor != 0 or "ahead" not in s.legal_actions():
                break
            s = s.apply("ahead")
        if s.actor == 0:
            s = end(s)
        if s.actor == 1:
            s = cruise(s, "gear:g1b" if car(s, 1)["node"] == "zero" else "keep")
    return s


def test_white_dice_by_speed_row(tmp_path: Path) -> None:
    """Movement: "Speed 5- unlimited; speed 6-10, highest single die; speed 11-16, lowest single die;
    speed 18, 0", with the dice per row of RC-G2 (6: 3, 8: 2, 10: 1, 12: 3, 14: 4, 16: 5)."""
    seen: list[tuple[int, dict[str, Fraction]]] = []
    climb(tmp_path, seen)
    assert [speed for speed, _ in seen] == [4, 6, 8, 10, 12, 14, 16, 18]
    rolls = dict(seen)
    assert rolls[4] == {} and rolls[18] == {}
    assert rolls[6] == kept("steer", HIGHEST_OF[3])
    assert rolls[8] == kept("steer", HIGHEST_OF[2])
    assert rolls[10] == kept("steer", HIGHEST_OF[1])
    assert rolls[12] == kept("steer", LOWEST_OF[3])
    assert rolls[14] == kept("steer", LOWEST_OF[4])
    assert rolls[16] == kept("steer", LOWEST_OF[5])


def test_speed_4_has_unlimited_lane_changes(tmp_path: Path) -> None:
    """Movement: "Speed 5- unlimited": four diagonal steps at speed 4 spend no Steering point."""
    s = race(tmp_path)
    s = play(s, "gear:g1b", "done", "right", "right", "right", "left")
    assert car(s, 0)["square"] == "1.2.3" and car(s, 0)["steering"] == 6


def test_rolled_lane_changes_then_steering_points(tmp_path: Path) -> None:
    """Movement: "Your white dice roll is the number of lane changes you have available this turn ...
    You may use fewer lane changes than you rolled. Each Steering point you spend gives you a bonus lane
    change." At speed 6 with 1 rolled: the first diagonal uses it, the second spends a Steering point."""
    s = race(tmp_path)
    s = gear(s, "gear:g1b", "turbo:g2b", "turbo:g3b", steer=1)
    s = play(s, "right")
    assert car(s, 0)["steering"] == 6
    s = play(s, "right")
    assert car(s, 0)["steering"] == 5 and car(s, 0)["square"] == "1.2.1"


def test_the_full_speed_must_be_moved(tmp_path: Path) -> None:
    """Movement: "You **must** move your full speed (your movement allowance)": after three of four
    steps the turn cannot end; after the fourth no step is left."""
    s = race(tmp_path)
    s = play(s, "gear:g1b", "done", "ahead", "ahead", "ahead")
    assert "end" not in s.legal_actions()
    with pytest.raises(IllegalActionError):
        s.apply("end")
    s = s.apply("ahead")
    assert car(s, 0)["square"] == "1.0.3"
    assert not {"ahead", "left", "right"} & set(s.legal_actions())


# --- Movement: equipment -----------------------------------------------------------------------------


def test_two_activations_and_never_the_same_counter_twice(tmp_path: Path) -> None:
    """Movement: "You have two Activations per turn ... to Arm a piece of equipment ... or to Use it
    ... You cannot move the same counter twice in a turn." A third activation is refused; a piece armed
    this turn cannot be Used until the next (RC-A6)."""
    s = race(tmp_path)
    s = play(s, "gear:g1b", "arm:fire-extinguisher", "arm:rocket-booster")
    assert not [a for a in s.legal_actions() if a.startswith(("arm:", "use:", "boost:"))]
    s = play(s, "done", "ahead", "ahead", "ahead", "ahead")
    assert not [a for a in s.legal_actions() if a.startswith("boost:")]
    assert sorted(car(s, 0)["armed"]) == ["fire-extinguisher", "rocket-booster"]


def test_rocket_booster_only_at_the_end_of_movement(tmp_path: Path) -> None:
    """Movement: "The Rocket Booster may only be Used at the end of movement. Choose 1-3 and move that
    many spaces directly forward. For each space moved, roll a heat die and add 1 heat on 1-2." It is
    armed in round 1, then boosts 3 in round 2: 3 heat dice at 1-2 (no Turbo widening, RC-X4)."""
    s = race(tmp_path)
    s = play(s, "gear:g1b", "arm:rocket-booster", "done", "ahead", "ahead", "ahead", "ahead")
    s = end(s)
    s = cruise(s, "gear:g1b")
    s = play(s, "keep", "done")
    assert not [a for a in s.legal_actions() if a.startswith("boost:")]
    s = play(s, "ahead", "ahead", "ahead", "ahead")
    assert sorted(a for a in s.legal_actions() if a.startswith("boost:")) == ["boost:1", "boost:2", "boost:3"]
    s = s.apply("boost:3")
    assert chance(s) == binomial(3, 2)
    s = s.apply("heat:2")
    assert car(s, 0)["square"] == "1.0.10" and car(s, 0)["heat"] == 2 and car(s, 0)["armed"] == []


def test_fire_extinguisher_lowers_heat_by_one(tmp_path: Path) -> None:
    """Movement: "Using the Fire Extinguisher lowers your heat by 1." Heat from a red roll, then the
    extinguisher armed one turn is Used the next."""
    s = race(tmp_path)
    s = gear(s, "gear:g1b", "turbo:g1y", heat=1, steer=None)
    assert car(s, 0)["heat"] == 1
    s = play(s, "arm:fire-extinguisher", *["ahead"] * 5)
    s = cruise(end(s), "gear:g1b")
    s = s.apply("use:fire-extinguisher")
    assert car(s, 0)["heat"] == 0
    assert "arm:fire-extinguisher" not in s.legal_actions()       # its counter has moved this turn


def test_machine_gun_fires_forward_in_the_lane(tmp_path: Path) -> None:
    """Movement: "The Machine Gun fires directly forward (i.e. within your lane ...) at range 1-3. Roll
    (4-range) dice; each 1-2 does one structure to the target." Seat 1 (Gun & Saw) arms the gun, then
    fires at seat 0 two squares ahead in its lane: 2 dice, each hitting on 1-2; two hits cost 2 structure."""
    s = race(tmp_path)
    s = play(s, "gear:g1b", "done", "right", "right", "ahead", "ahead")               # seat 0 to 1.2.3
    s = end(s)
    s = play(s, "gear:g1b", "arm:machine-gun", "done", "ahead", "ahead", "right", "ahead")  # seat 1 to 1.3.3
    s = end(s)
    s = cruise(s)                                                                      # seat 0 to 1.2.7
    s = play(s, "keep", "done")
    s = play(s, "ahead", "left")                                                      # seat 1 to 1.2.5
    assert car(s, 1)["square"] == "1.2.5"
    s = s.apply("use:machine-gun")
    probabilities = chance(s)
    assert probabilities == {"hits:0": Fraction(4, 9), "hits:1": Fraction(4, 9), "hits:2": Fraction(1, 9)}
    s = s.apply("hits:2")
    assert car(s, 0)["structure"] == 6


def test_flamer_fires_backward_for_heat(tmp_path: Path) -> None:
    """Movement: "The Flamer fires directly backward (i.e. within your lane ...) at range 1-3. Roll
    (4-range) dice; each 1-2 gives one heat to the target." Seat 2 (Flame & Saw) arms it in round 1 and
    passes seat 1; in round 2 it fires back at seat 1 two squares behind in its lane: 2 dice."""
    s = race(tmp_path, players=3)
    s = cruise(s, "gear:g1b")                                                      # seat 0 to 1.0.3
    s = cruise(s, "gear:g1b")                                                      # seat 1 to 1.2.3
    s = gear(s, "gear:g1b", "arm:flamer", "turbo:g2b", "turbo:g3b", "turbo:g4b", steer=1)
    s = end(play(s, *["ahead"] * 7, "right"))                                      # seat 2 to 1.2.5
    assert car(s, 2)["square"] == "1.2.5" and s.view(None)["order"][0] == 2
    s = s.apply("use:flamer")
    assert chance(s) == {"hits:0": Fraction(4, 9), "hits:1": Fraction(4, 9), "hits:2": Fraction(1, 9)}
    s = s.apply("hits:2")
    assert car(s, 1)["heat"] == 2 and car(s, 1)["structure"] == 8 and car(s, 2)["armed"] == []


# --- Movement: collisions -----------------------------------------------------------------------------


def test_rush_n_crush_rolls_a_die_per_movement_left_and_ends_the_move(tmp_path: Path) -> None:
    """Movement: "If you hit another racer directly from behind, this is a 'Rush 'n' Crush'. End your
    move and roll a die *for each point of movement allowance remaining*. For each 1-2, both vehicles
    take a structure point; on a 3 (3-4 if you have Combat Bumper) only the target takes one." Seat 1
    (Armour & Ram, with the Combat Bumper) runs into seat 0 on its 4th step: 1 die (the blocked step
    counts, RC-A3); a 4 hurts only the target."""
    s = race(tmp_path)
    s = play(s, "gear:g1b", "done", "right", "right", "ahead", "ahead")      # seat 0 to 1.2.3
    s = end(s)
    s = play(s, "gear:g1b", "done", "ahead", "ahead", "ahead", "ahead")      # seat 1 into seat 0
    assert s.is_chance and sorted(s.legal_actions()) == [f"die:{n}" for n in range(1, 7)]
    s = s.apply("die:4")
    assert car(s, 1)["square"] == "1.2.2" and car(s, 0)["square"] == "1.2.3"
    assert (car(s, 0)["structure"], car(s, 1)["structure"]) == (7, 8)
    assert not {"ahead", "left", "right"} & set(s.legal_actions())


def test_rush_n_crush_without_the_combat_bumper(tmp_path: Path) -> None:
    """Movement: Rush 'n' Crush with three dice for Armour & Mines (no Combat Bumper): seat 2 reaches
    speed 8 and runs into seat 1 on its 6th step, so 3 dice roll (the blocked step counts, RC-A3), each
    its own chance node: a 1 hurts both cars, a 3 only the target, a 4 nobody."""
    s = race(tmp_path, players=3)
    s = cruise(s, "gear:g1b")                                                      # seat 0 to 1.0.3
    s = cruise(s, "gear:g1b")                                                      # seat 1 to 1.2.3
    s = end(play(s, "gear:g1b", "done", "ahead", "ahead", "ahead", "right"))       # seat 2 to 1.2.1
    s = cruise(cruise(s))                                                          # 1.0.7 and 1.2.7
    s = gear(s, "gear:g1y", "turbo:g1o", "turbo:g1r", heat=0, steer=1)
    s = play(s, *["ahead"] * 5)
    assert car(s, 2)["square"] == "1.2.6" and not s.is_chance
    s = s.apply("ahead")
    for face in (4, 1, 3):
        assert s.is_chance and sorted(s.legal_actions()) == [f"die:{n}" for n in range(1, 7)]
        s = s.apply(f"die:{face}")
    assert (car(s, 1)["structure"], car(s, 2)["structure"]) == (6, 7)
    assert car(s, 2)["square"] == "1.2.6" and car(s, 1)["square"] == "1.2.7"


def test_side_ram_clear_far_side_displaces_on_four(tmp_path: Path) -> None:
    """Movement: Side Ram "If the far side of the target space is clear, on a 4 or higher the defender
    will be displaced into it and you take their old space". Seat 2 rams seat 0 from the right; die 4:
    displaced, no damage (the table's clear row: 4 = none); the ram's diagonal spends a lane change."""
    s = side_ram_setup(tmp_path, far_car=False)
    s = s.apply("die:4")
    assert car(s, 0)["square"] == "1.0.3" and car(s, 2)["square"] == "1.1.3"
    assert [car(s, n)["structure"] for n in range(3)] == [8, 8, 8]


def side_ram_setup(tmp_path: Path, far_car: bool, seat1: tuple[str, ...] = ()) -> State:
    """Round 1: seat 0 ends on 1.1.3; seat 1 on 1.0.3 (the far side) if ``far_car``, else on 1.3.3
    (or where ``seat1``'s steps take it); seat 2 (from 0.1.5, speed 6 by Turbo) steps right, ahead x4
    and then left into seat 0: a Side Ram with its 6th step, two lane changes rolled."""
    s = race(tmp_path, players=3)
    s = play(s, "gear:g1b", "done", "right", "ahead", "ahead", "ahead")
    s = end(s)
    seat1 = seat1 or (("left", "left", "ahead", "ahead") if far_car else ("right", "ahead", "ahead", "ahead"))
    s = end(play(s, "gear:g1b", "done", *seat1))
    s = gear(s, "gear:g1b", "turbo:g2b", "turbo:g3b", steer=2)
    s = play(s, "right", "ahead", "ahead", "ahead", "ahead")
    assert car(s, 2)["square"] == "1.2.2"
    s = s.apply("left")
    assert s.is_chance
    return s


@pytest.mark.parametrize(("die", "far_car", "structures", "attacker_square", "lane_changes"), [
    (1, False, (8, 8, 7), "1.2.3", 1),
    (2, False, (8, 8, 7), "1.2.3", 1),
    (3, False, (8, 8, 8), "1.2.3", 1),
    (5, False, (7, 8, 8), "1.1.3", 0),
    (6, False, (7, 8, 8), "1.1.3", 0),
    (1, True, (8, 8, 7), "1.2.3", 1),
    (3, True, (8, 8, 8), "1.2.3", 1),
    (4, True, (7, 8, 8), "1.2.3", 1),
    (5, True, (7, 8, 8), "1.2.3", 1),
    (6, True, (7, 7, 8), "1.2.3", 1),
])
def test_side_ram_table(tmp_path: Path, die: int, far_car: bool, structures: tuple[int, int, int],
                        attacker_square: str, lane_changes: int) -> None:
    """Movement: the Side Ram table (Y you, T target, 3 third party): clear 1 Y, 2 Y, 3 -, 4 -, 5 T,
    6 T; blocked 1 Y, 2 Y, 3 -, 4 T, 5 T, 6 T+3. A ram that does not displace "move[s] forwards (and
    do[es] not spend a lane change)" (RC-A2): seat 2 goes straight on to 1.2.3 with one lane change
    left of its two; a displacing ram enters the target's square and spends the second lane change."""
    s = side_ram_setup(tmp_path, far_car=far_car).apply(f"die:{die}")
    assert tuple(car(s, n)["structure"] for n in range(3)) == structures
    assert car(s, 2)["square"] == attacker_square
    assert s.view(None)["turn"]["lane_changes"] == lane_changes


@pytest.mark.parametrize(("die", "target_structure"), [(3, 8), (4, 7), (6, 7)])
def test_side_ram_towards_the_track_edge_is_blocked(tmp_path: Path, die: int, target_structure: int) -> None:
    """Movement: Side Ram: with the target in the edge lane its far side is not clear, so the blocked
    row applies (RC-G8): no displacement, 4-6 hurt the target, and there is no third party on a 6."""
    s = race(tmp_path, players=3)
    s = cruise(cruise(s, "gear:g1b"), "gear:g1b")                                # 1.0.3 and 1.2.3
    s = gear(s, "gear:g1b", "turbo:g2b", "turbo:g3b", steer=1)
    s = play(s, *["ahead"] * 5, "left", f"die:{die}")
    assert car(s, 0)["square"] == "1.0.3" and car(s, 2)["square"] == "1.1.3"
    assert (car(s, 0)["structure"], car(s, 1)["structure"], car(s, 2)["structure"]) == (target_structure, 8, 8)


def test_side_ram_with_side_bumper_and_circular_saw(tmp_path: Path) -> None:
    """Movement: Side Ram "Roll a die, +1 if you Use Side Bumper" and "If you Side Ram and Use Lateral
    Circular Saw, also roll a red die; do one Structure point to your target on a 4-6. This is
    completely separate from the Side Ram resolution." Seat 0 (Bumper & Saw) arms both in round 1 and
    rams seat 1 in round 2: a 3 + 1 displaces it with no table damage, and the saw's 4 costs it 1."""
    s = race(tmp_path)
    s = play(s, "gear:g1b", "arm:side-bumper", "arm:circular-saw", "done", *["ahead"] * 4)   # 1.0.3
    s = gear(end(s), "gear:g1b", "turbo:g2b", "turbo:g3b", steer=1)
    s = end(play(s, *["ahead"] * 6))                                                         # 1.2.5
    assert s.view(None)["order"] == [1, 0]
    s = cruise(s, "gear:g2b", steps=5)                                                       # 1.2.10
    s = gear(s, "gear:g2b", "turbo:g3b", "turbo:g4b", steer=6)
    s = play(s, "right", *["ahead"] * 5)
    assert car(s, 0)["square"] == "1.1.9"
    s = play(s, "right+bumper+saw", "die:3")
    assert s.is_chance
    s = s.apply("die:4")
    assert car(s, 1)["square"] == "1.3.10" and car(s, 0)["square"] == "1.2.10"
    assert (car(s, 0)["structure"], car(s, 1)["structure"]) == (8, 7)
    assert car(s, 0)["armed"] == [] and s.view(None)["turn"]["activations"] == 0


# --- Movement: obstructions, wrecks, mines --------------------------------------------------------------


def test_obstruction_at_low_speed_costs_one_and_forces_a_free_lane_change(tmp_path: Path) -> None:
    """Movement: "If you hit a fixed obstruction, roll white dice as for steering but invert the sense
    ... (1 at speed 4-5 ...). Take that many structure points. Then make a free compulsory lane change
    (spending one movement but not a lane change) and continue movement." Lane 0 has only a right side."""
    s = race(tmp_path, obstructions=((1, 0, 1),))
    s = play(s, "gear:g1b", "done", "ahead", "ahead")
    assert car(s, 0)["structure"] == 7 and car(s, 0)["square"] == "1.1.1"       # the one side, taken
    s = play(s, "ahead", "ahead")
    assert car(s, 0)["square"] == "1.1.3" and car(s, 0)["steering"] == 6
    assert not {"ahead", "left", "right"} & set(s.legal_actions())


def test_obstruction_with_two_open_sides_the_driver_chooses(tmp_path: Path) -> None:
    """Movement: the compulsory lane change after an obstruction goes to either open side (RC-A4)."""
    s = race(tmp_path, obstructions=((1, 1, 1),))
    s = play(s, "gear:g1b", "done", "right", "ahead")
    assert {"swerve-left", "swerve-right"} <= set(s.legal_actions())
    s = s.apply("swerve-left")
    assert car(s, 0)["square"] == "1.0.1" and car(s, 0)["structure"] == 7
    s = play(s, "ahead", "ahead")
    assert car(s, 0)["square"] == "1.0.3" and not {"ahead", "left", "right"} & set(s.legal_actions())


def test_obstruction_damage_at_speed_6_is_the_lowest_of_three(tmp_path: Path) -> None:
    """Movement: the obstruction roll "as for steering but invert[ed]": at speed 6 (steering: highest
    of 3) the damage is the lowest of 3 dice. The rock is the first square ahead of the grid."""
    s = race(tmp_path, obstructions=((1, 0, 0),))
    s = gear(s, "gear:g1b", "turbo:g2b", "turbo:g3b", steer=2)
    s = s.apply("ahead")
    assert chance(s) == kept("crash", LOWEST_OF[3])
    s = s.apply("crash:2")
    assert car(s, 0)["structure"] == 6 and car(s, 0)["square"] == "1.1.0"
    assert s.view(None)["turn"]["lane_changes"] == 2


def test_obstruction_with_no_open_side_stops_the_car_and_brakes(tmp_path: Path) -> None:
    """Movement: the compulsory lane change with the track edge on one side and a car on the other
    (RC-A4): the car stops, its move ends with two steps unused, and the gearstick takes one free brake
    step (g4b has no lower node in gear 4, so down-and-left to g3b; never to zero)."""
    s = race(tmp_path, obstructions=((1, 0, 10),))
    s = cruise(s, "gear:g1b")                                                     # seat 0 to 1.0.3
    s = gear(s, "gear:g1b", "turbo:g2b", "turbo:g3b", steer=1)
    s = end(play(s, "left", *["ahead"] * 5))                                      # seat 1 to 1.1.5
    s = cruise(s, "gear:g2b", steps=5)                                            # seat 1 to 1.1.10
    s = gear(s, "gear:g2b", "turbo:g3b", "turbo:g4b", steer=1)
    s = play(s, *["ahead"] * 6)
    assert car(s, 0)["square"] == "1.0.9"
    s = s.apply("ahead").apply("crash:1")
    assert car(s, 0)["square"] == "1.0.9" and car(s, 0)["structure"] == 7 and car(s, 0)["node"] == "g3b"
    assert not {"ahead", "left", "right", "swerve-left", "swerve-right"} & set(s.legal_actions())


def test_obstruction_damage_at_speed_12_is_the_highest_of_three(tmp_path: Path) -> None:
    """Movement: "roll white dice as for steering but invert the sense (e.g. at speed 12 you'd roll 3
    dice and take the *highest*)." The climbing car meets a rock on its 5th step at speed 12."""
    s = climb(tmp_path, [], obstructions=((1, 0, 32),), turns=4)
    assert car(s, 0)["square"] == "1.0.27"
    s = gear(s, "gear:g6b", steer=1)
    s = play(s, *["ahead"] * 5)
    assert chance(s) == kept("crash", HIGHEST_OF[3])
    s = s.apply("crash:5")
    assert car(s, 0)["structure"] == 3


def test_obstruction_at_speed_18_deals_six(tmp_path: Path) -> None:
    """Movement: "(... 6 at speed 18.)": no roll; Armour & Computer (Structure 8) keeps 2."""
    s = climb(tmp_path, [], obstructions=((2, 0, 32),), turns=7)
    assert car(s, 0)["square"] == "2.0.29"
    s = gear(s, "gear:g6r", heat=0)
    s = play(s, *["ahead"] * 3)
    assert not s.is_chance and car(s, 0)["structure"] == 2 and car(s, 0)["square"] == "2.1.32"


def test_destroyed_by_heat_becomes_a_wreck_and_a_wreck_rolls(tmp_path: Path) -> None:
    """Introduction: "Your car is destroyed if either the Structure or the Heat counter reaches the
    skull" (heat 9 on a track of 8, RC-G4); it becomes a wreck (RC-G10). Movement: "If you hit a wreck,
    roll a die: on a 1-3 you take one structure point"; the wreck does not stop the car."""
    s = race(tmp_path, players=3)
    s = gear(s, "gear:g1b", "turbo:g1y", "turbo:g1o", "turbo:g1r", heat=3, steer=6)
    s = end(play(s, *["ahead"] * 8))                                 # seat 0 to 1.0.7, heat 3
    s = cruise(cruise(s, "gear:g1b"), "gear:g1b")                    # 1.2.3 and 1.1.1
    s = gear(s, "keep", heat=3, steer=6)
    s = end(play(s, *["ahead"] * 8))                                 # seat 0 to 1.0.15, heat 6
    s = cruise(cruise(s))                                            # 1.2.7 and 1.1.5
    s = gear(s, "keep")
    assert chance(s) == binomial(3, 2)
    s = s.apply("heat:3")
    assert car(s, 0)["destroyed"] and car(s, 0)["heat"] >= 9
    assert "1.0.15" in s.view(None)["wrecks"] and s.actor == 1
    s = cruise(cruise(s))                                            # 1.2.11 and 1.1.9
    s = gear(s, "gear:g1y", heat=0)
    s = play(s, "left", "left", "ahead", "ahead")
    assert car(s, 1)["square"] == "1.0.15" and s.is_chance
    s = s.apply("die:3")
    assert car(s, 1)["structure"] == 7
    s = s.apply("ahead")
    assert car(s, 1)["square"] == "1.0.16"


def test_destroyed_by_structure_the_last_car_running_wins(tmp_path: Path) -> None:
    """Introduction: destroyed when "the Structure ... counter reaches the skull"; a content file (a
    public option) gives Armour & Computer one Structure point, and a Rush 'n' Crush 3 by the Combat
    Bumper car takes it: the car becomes a wreck and the last car running wins (RC-A11)."""
    data = json.loads(Path(scenario_options()["content"]).read_text())
    data["cars"][0]["structure"] = 1
    content = tmp_path / "content.json"
    content.write_text(json.dumps(data))
    s = race(tmp_path, content=str(content))
    assert car(s, 0)["structure"] == 1
    s = play(s, "gear:g1b", "done", "right", "right", "ahead", "ahead")
    s = play(end(s), "gear:g1b", "done", *["ahead"] * 4, "die:3")
    assert car(s, 0)["destroyed"] and "1.2.3" in s.view(None)["wrecks"]
    assert s.is_over and s.result is not None and s.result.winners == (1,)


def test_a_mine_is_dropped_on_the_square_left_and_hurts_on_1_to_3(tmp_path: Path) -> None:
    """Movement: "Whenever you leave a space, you may activate the Minelayer to drop one of your four
    red mine markers in that space. If another car crosses it, it's treated like hitting a wreck (but
    if it does damage, the marker is removed)." Seat 2 (Armour & Mines) mines 0.1.7; seat 3 drives in."""
    for face, structure, stays in ((2, 5, False), (5, 6, True)):
        s = race(tmp_path, players=4)
        s = cruise(cruise(s, "gear:g1b"), "gear:g1b")
        s = end(play(s, "gear:g1b", "done", "ahead", "ahead", "ahead+mine", "ahead"))
        assert s.view(None)["mines"] and car(s, 2)["mines_left"] == 3
        s = play(s, "gear:g1b", "done", "left", "left")
        assert car(s, 3)["square"] == "0.1.7" and s.is_chance
        s = s.apply(f"die:{face}")
        assert car(s, 3)["structure"] == structure
        assert bool(s.view(None)["mines"]) is stays


# --- The finish ---------------------------------------------------------------------------------------


def test_first_across_the_line_wins_and_the_rest_by_position(tmp_path: Path) -> None:
    """Introduction: "The winner is the first car to cross the finish line. (Turn order matters.)" On a
    two-tile course seat 2 leads round 2 and crosses first; the others follow by position, the tie by
    first arrival (Round)."""
    path = tmp_path / "short.toml"
    path.write_text('[course]\nid = "short"\nfaces = ["R1a", "R2a"]\nclosed = false\nlaps = 1\n'
                    'source = "default"\n')
    s = slipstream.load("rush-n-crush", players=3, **scenario_options(course=str(path))).start(seed=3)
    s = play(s, "grid:P1", "grid:P2")
    s = cruise(cruise(s, "gear:g1b"), "gear:g1b")                    # 1.0.3 and 1.2.3
    s = gear(s, "gear:g1b", "turbo:g2b", "turbo:g3b", "turbo:g4b", steer=1)
    s = end(play(s, *["ahead"] * 8))                                 # seat 2 to 1.1.5
    assert s.view(None)["order"] == [2, 0, 1] and not s.is_over
    s = gear(s, "keep", steer=1)
    s = play(s, "ahead", "ahead", "ahead")
    assert s.is_over and s.result is not None
    assert s.result.winners == (2,) and s.result.order == (2, 0, 1)


def test_a_failed_side_ram_moving_forwards_into_a_car_is_a_rush_n_crush(tmp_path: Path) -> None:
    """Movement: a Side Ram that does not displace "move[s] forwards" (RC-A2); here the square ahead
    holds seat 1, so the forward step is a Rush 'n' Crush with the one movement point left: one die, a 1
    hurts both, and the attacker's move ends where it was."""
    s = side_ram_setup(tmp_path, far_car=False, seat1=("ahead",) * 4).apply("die:3")
    assert car(s, 1)["square"] == "1.2.3" and s.is_chance
    s = s.apply("die:1")
    assert [car(s, n)["structure"] for n in range(3)] == [8, 7, 7]
    assert car(s, 2)["square"] == "1.2.2" and not {"ahead", "left", "right"} & set(s.legal_actions())


def test_rocket_booster_into_an_obstruction(tmp_path: Path) -> None:
    """Movement: the Rocket Booster moves "directly forward"; a fixed obstruction on its way deals its
    damage (1 at speed 4) and ends it with no lane change (content 5.4), and only the square entered
    rolls a heat die."""
    s = race(tmp_path, obstructions=((1, 0, 9),))
    s = end(play(s, "gear:g1b", "arm:rocket-booster", "done", *["ahead"] * 4))
    s = cruise(s, "gear:g1b")
    s = play(s, "keep", "done", *["ahead"] * 4)
    s = s.apply("boost:3")
    assert car(s, 0)["square"] == "1.0.8" and car(s, 0)["structure"] == 7
    assert chance(s) == binomial(1, 2)


def test_speed_18_rolls_no_lane_change_but_steering_points_still_work(tmp_path: Path) -> None:
    """Movement: "speed 18, 0" lane changes, and "Each Steering point you spend gives you a bonus lane
    change": at 18 the first diagonal spends a Steering point."""
    s = climb(tmp_path, [], turns=7)
    s = gear(s, "gear:g6r", heat=0)
    assert not s.is_chance and s.view(None)["turn"]["lane_changes"] == 0
    s = s.apply("right")
    assert car(s, 0)["steering"] == 5 and car(s, 0)["lane"] == 1


def test_shift_any_number_of_spaces_along_the_dashed_line(tmp_path: Path) -> None:
    """Turn: "shift (as many spaces as you like left or right along a dashed line)": from g1r (speed 8)
    one free action reaches g2o, g3y or g4b (content example 5); accelerate reaches g2r, brake g1o."""
    s = race(tmp_path)
    s = gear(s, "gear:g1b", "turbo:g1y", "turbo:g1o", "turbo:g1r", heat=0, steer=1)
    s = cruise(end(play(s, *["ahead"] * 8)), "gear:g1b")
    moves = sorted(a for a in s.legal_actions() if a.startswith("gear:"))
    assert moves == ["gear:g1o", "gear:g2o", "gear:g2r", "gear:g3y", "gear:g4b"]
    s = s.apply("gear:g4b")
    assert car(s, 0)["speed"] == 8 and car(s, 0)["zone"] == "blue"


def test_a_closed_course_is_won_on_the_last_lap(tmp_path: Path) -> None:
    """Setup: "4-5 with two laps"; Introduction: "The winner is the first car to cross the finish
    line." On the ring (4 curves, 2 laps) seat 0 drives lane 0 (6 squares a tile) at speed 4 from the
    grid's 0.0.5: it crosses the line at once (the start does not count), again after 24 steps (lap 1:
    the race goes on) and wins on its 49th step, entering 1.0.0 for the third time (RC-A11)."""
    s = slipstream.load("rush-n-crush", players=2, **scenario_options(course="ring")).start(seed=5).apply("grid:P1")
    steps: list[tuple[str, int]] = []
    while not s.is_over:
        seat = s.actor
        s = play(s, "gear:g1b" if car(s, seat)["node"] == "zero" else "keep", "done")
        for _ in range(4):
            s = s.apply("ahead")
            if seat == 0:
                steps.append((car(s, 0)["square"], car(s, 0)["lap"]))
            if s.is_over:
                break
        if not s.is_over and s.actor == seat:
            s = s.apply("end")
    assert s.result is not None and s.result.winners == (0,)
    assert len(steps) == 49 and steps[-1] == ("1.0.0", 2)
    assert [i for i, (square, _) in enumerate(steps) if square == "1.0.0"] == [0, 24, 48]
