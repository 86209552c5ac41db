"""Collisions with cars: the Side Ram, the Lateral Circular Saw and the Rush 'n' Crush (summary: Movement)."""

from __future__ import annotations

import pytest

from slipstream.games.rush_n_crush import rules
from slipstream.games.rush_n_crush.state import RushState
from slipstream.games.rush_n_crush.types import Stage, Task

from .helpers import armed, moving, new, outcomes, place, where

FULL = 8  # the Structure of seats 0-2 (Armor Shielding)


def ram_position(players: int = 2, target: str = "0.2.3", **fields: object) -> RushState:
    squares = {0: "0.1.2", 1: target}
    if players > 2:
        squares[2] = "0.3.3"
    s = place(new(players), squares, **fields)
    return moving(armed(s, 0, "side-bumper", "circular-saw"), "g1r", lane_changes=2)


def test_side_ram_clear_displaces_on_four_with_the_bumper() -> None:
    """Movement: "If you hit another racer diagonally from behind, this is a 'Side Ram'. Roll a die, +1 if
    you Use Side Bumper. If the far side of the target space is clear, on a 4 or higher the defender will
    be displaced into it and you take their old space". Content example 7: clear, die 3 + Side Bumper = 4:
    displaced, no damage (the table's clear 4 is empty)."""
    s = ram_position()
    assert {"right", "right+bumper", "right+saw", "right+bumper+saw"} <= set(s.legal_actions())
    s = s.apply("right+bumper")
    assert s.activations == 1 and not s.armed[0] & 1
    stamps = s.stamp
    s = s.apply("die:3")
    assert where(s, 1) == "0.3.3" and where(s, 0) == "0.2.3"
    assert s.stamp[1] == stamps[1] and s.stamp[0] > max(stamps)  # RC-A10: the displaced car keeps its stamp
    assert (s.structure[0], s.structure[1]) == (FULL, FULL)
    assert s.movement == 7 and s.lane_changes == 1 and s.stage is Stage.MOVE


def test_side_ram_blocked_by_a_third_car_six() -> None:
    """Movement, the damage table: blocked, 6: the target and the third party (3) each take a structure
    point (content example 7); the attacker is not displaced in and moves forwards instead."""
    s = ram_position(3).apply("right").apply("die:6")
    assert (s.structure[0], s.structure[1], s.structure[2]) == (FULL, FULL - 1, FULL - 1)
    assert where(s, 1) == "0.2.3" and where(s, 2) == "0.3.3" and where(s, 0) == "0.1.3"


def test_side_ram_failed_moves_forwards_without_a_lane_change() -> None:
    """Movement: "otherwise you move forwards (and do not spend a lane change)"; clear, 2: You (Y) take a
    structure point (content example 7, RC-A2)."""
    s = ram_position().apply("right").apply("die:2")
    assert s.structure[0] == FULL - 1 and s.structure[1] == FULL
    assert where(s, 0) == "0.1.3" and where(s, 1) == "0.2.3"
    assert s.lane_changes == 2 and s.movement == 7


def test_side_ram_table_clear_five_and_blocked_four() -> None:
    """Movement, the damage table: clear 5 -> T (and the displacement); blocked 4 -> T; blocked by the
    track's edge counts as blocked."""
    s = ram_position().apply("right").apply("die:5")
    assert s.structure[1] == FULL - 1 and where(s, 1) == "0.3.3"
    s = place(new(), {0: "0.2.2", 1: "0.3.3"})
    s = moving(s, "g1r", lane_changes=2).apply("right").apply("die:4")
    assert s.structure[1] == FULL - 1 and where(s, 1) == "0.3.3" and where(s, 0) == "0.2.3"


def test_circular_saw_is_a_separate_roll() -> None:
    """Movement: "If you Side Ram and Use Lateral Circular Saw, also roll a red die; do one Structure point
    to your target on a 4-6. This is completely separate from the Side Ram resolution." """
    s = ram_position().apply("right+saw").apply("die:3")
    assert s.stage is Stage.ROLL and s.need[0] == Task.SAW
    hit = s.apply("die:4")
    assert hit.structure[1] == FULL - 1
    miss = s.apply("die:3")
    assert miss.structure[1] == FULL


def test_rush_n_crush_rolls_a_die_per_movement_left() -> None:
    """Movement: "If you hit another racer directly from behind, this is a 'Rush 'n' Crush'. End your move
    and roll a die for each point of movement allowance remaining." Content example 8: at speed 8 with no
    step taken, 8 dice. "For each 1-2, both vehicles take a structure point; on a 3 ... only the target";
    the damage of all the dice is applied together (RC-A3: nobody moves)."""
    s = moving(place(new(), {0: "0.1.2", 1: "0.1.3"}), "g1r").apply("ahead")
    assert s.stage is Stage.ROLL and s.need[3] == 8 and set(outcomes(s)) == {f"die:{n}" for n in range(1, 7)}
    for die in (1, 2, 3, 4, 5, 6, 6):
        s = s.apply(f"die:{die}")
        assert s.structure == (FULL, FULL)
    s = s.apply("die:3")
    assert (s.structure[0], s.structure[1]) == (FULL - 2, FULL - 4)
    assert where(s, 0) == "0.1.2" and where(s, 1) == "0.1.3" and s.stage is Stage.AFTER


@pytest.mark.parametrize(("attacker", "die", "target_damage"), [(0, 3, 1), (0, 4, 0), (1, 4, 1), (1, 5, 0)])
def test_combat_bumper_widens_the_target_only_face(attacker: int, die: int, target_damage: int) -> None:
    """Movement: "on a 3 (3-4 if you have Combat Bumper) only the target takes one" (seat 1, Armour & Ram,
    has the Combat Bumper; seat 0 has not)."""
    target = 1 - attacker
    s = moving(place(new(), {attacker: "0.1.2", target: "0.1.3"}, active=attacker), "g1b", movement=1)
    s = s.apply("ahead").apply(f"die:{die}")
    assert s.structure[target] == FULL - target_damage and s.structure[attacker] == FULL


def test_once_per_round_option() -> None:
    """RC-G12 (option rush_attacks = once-per-round, the published edition): only the first Rush 'n'
    Crush of a round rolls; a later one just ends the move. Per-turn (the summary) rolls every time."""
    for quota, rolls in (("once-per-round", False), ("per-turn", True), ("once-per-car", True)):
        s = place(new(3, rush_attacks=quota), {0: "0.1.2", 1: "0.1.3", 2: "0.2.2"}, active=0,
                  order=(2, 0, 1), rnc_rolled=(2,))
        s = moving(s, "g1r").apply("ahead")
        assert (s.stage is Stage.ROLL) is rolls
        assert s.movement == 0


def test_side_ram_displaces_onto_a_mine() -> None:
    """Movement, Minelayer: a car shoved onto another car's mine has "crossed" it and rolls (content 5.5);
    the Side Ram's own damage comes first, then the mine, then the attacker takes the square."""
    s = place(new(3), {0: "0.1.2", 1: "0.2.3", 2: "0.0.7"}).copy()
    s.mines = ((s.game.track.square_named("0.3.3"), 2),)
    s = moving(s, "g1r", lane_changes=2).apply("right").apply("die:5")
    assert s.structure[1] == FULL - 1 and where(s, 1) == "0.3.3" and s.stage is Stage.ROLL
    s = s.apply("die:1")
    assert s.structure[1] == FULL - 2 and s.mines == () and where(s, 0) == "0.2.3"


def test_a_wreck_on_the_far_side_blocks_the_displacement() -> None:
    """Movement: "If the far side of the target space is clear": a wreck there is not clear (RC-G10), so a
    4 is the blocked row's T and nobody is displaced."""
    s = ram_position(3, destroyed=(0, 0, 1)).apply("right").apply("die:4")
    assert s.structure[1] == FULL - 1 and where(s, 1) == "0.2.3" and where(s, 0) == "0.1.3"


def test_a_piece_armed_this_turn_cannot_ram() -> None:
    """Movement: "You cannot move the same counter twice in a turn" (RC-A6): a Side Bumper armed this turn
    cannot be Used in this turn's Side Ram."""
    s = place(new(), {0: "0.1.2", 1: "0.2.3"})
    s = moving(s.apply("arm:side-bumper"), "g1r", lane_changes=2)
    assert "right" in s.legal_actions() and "right+bumper" not in s.legal_actions()


def test_the_rush_n_crush_quota_renews_each_round() -> None:
    """RC-G12 (once-per-round): the quota counts within a round; a new round starts with none used."""
    s = place(new(3, rush_attacks="once-per-round"), {0: "0.1.2", 1: "0.1.3", 2: "0.2.2"}, rnc_rolled=(2,))
    s = s.copy()
    rules.start_round(s, [])
    assert s.rnc_rolled == ()
