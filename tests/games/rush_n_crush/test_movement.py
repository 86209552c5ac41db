"""Movement: steps, lane changes, wrecks and fixed obstructions (summary: Movement)."""

from __future__ import annotations

import math

import pytest

from slipstream.engine.errors import IllegalActionError
from slipstream.games.rush_n_crush.types import Stage

from .helpers import moving, new, outcomes, place, where


def test_the_full_speed_must_be_moved() -> None:
    """Movement: "You must move your full speed (your movement allowance)": there is no way to stop
    early; each step straight ahead uses one movement."""
    s = moving(place(new(), {0: "0.1.0", 1: "0.3.7"}), "g1b")
    for step in range(4):
        assert "end" not in s.legal_actions() and s.movement == 4 - step
        s = s.apply("ahead")
    assert where(s, 0) == "0.1.4" and s.stage is Stage.AFTER and s.movement == 0


def test_diagonal_uses_a_lane_change_then_a_steering_point() -> None:
    """Movement: "A move diagonally forward uses one movement allowance and one lane change. ... Each
    Steering point you spend gives you a bonus lane change." (spent when the dice are used up)."""
    s = moving(place(new(), {0: "0.1.0", 1: "0.3.7"}), "g1r", lane_changes=1)
    steering = s.steering[0]
    s = s.apply("right")
    assert where(s, 0) == "0.2.1" and s.lane_changes == 0 and s.steering[0] == steering and s.movement == 7
    s = s.apply("left")
    assert where(s, 0) == "0.1.2" and s.steering[0] == steering - 1
    s = s.copy()
    s.steering = (0, s.steering[1])
    assert [a for a in s.legal_actions() if not a.startswith("arm:")] == ["ahead"]


def test_a_diagonal_into_an_obstruction_is_illegal() -> None:
    """RC-A9: a diagonal step into a fixed obstruction is not a move (narrow-left: lane 0 walled)."""
    s = moving(place(new(), {0: "2.1.1", 1: "0.3.7"}), "g1r", lane_changes=3)
    assert "left" not in s.legal_actions() and "right" in s.legal_actions()
    with pytest.raises(IllegalActionError):
        s.apply("left")


def test_curve_neighbours() -> None:
    """Content example 6 (left curve, tile 1 of the sprint): L1.0 ahead-left is L0.0; L0.3 ahead is L0.4
    and ahead-right L1.5; L0.5 ahead is the next tile's L0.0; inner lanes have fewer squares."""
    track = new().game.track
    sq = track.square_named
    assert track.ahead_left[sq("1.1.0")] == sq("1.0.0")
    assert track.ahead[sq("1.0.3")] == sq("1.0.4") and track.ahead_right[sq("1.0.3")] == sq("1.1.5")
    assert track.ahead[sq("1.0.5")] == sq("2.0.0")
    assert [len(lane) for lane in track.tile_squares[1]] == [6, 7, 9, 10]


@pytest.mark.parametrize(("die", "damage"), [(1, 1), (3, 1), (4, 0), (6, 0)])
def test_hitting_a_wreck(die: int, damage: int) -> None:
    """Movement: "If you hit a wreck, roll a die: on a 1-3 you take one structure point." The wreck does
    not stop the car (RC-G10)."""
    s = place(new(3), {0: "0.1.2", 1: "0.1.3", 2: "0.3.7"}, destroyed=(0, 1, 0))
    s = moving(s, "g1b")
    s = s.apply("ahead")
    assert s.stage is Stage.ROLL and set(outcomes(s)) == {f"die:{n}" for n in range(1, 7)}
    s = s.apply(f"die:{die}")
    assert s.structure[0] == s.game.dashboards[0].structure - damage
    assert s.stage is Stage.MOVE and where(s, 0) == "0.1.3" and s.movement == 3


def test_obstruction_at_low_speed_and_the_forced_lane_change() -> None:
    """Movement: "If you hit a fixed obstruction ... Take that many structure points. (1 at speed 4-5 ...)
    Then make a free compulsory lane change (spending one movement but not a lane change) and continue
    movement." With one open side the change is forced (RC-A4)."""
    s = moving(place(new(), {0: "2.0.1", 1: "0.3.7"}), "g1y", lane_changes=0)
    steering = s.steering[0]
    s = s.apply("ahead")
    assert s.structure[0] == s.game.dashboards[0].structure - 1
    assert where(s, 0) == "2.1.2" and s.movement == 4 and s.lane_changes == 0 and s.steering[0] == steering
    assert s.stage is Stage.MOVE


def test_obstruction_damage_inverts_the_steering_roll() -> None:
    """Movement: "roll white dice as for steering but invert the sense (e.g. at speed 12 you'd roll 3 dice
    and take the *highest*)" (content example 1); at speed 8, the lowest of 2."""
    s = moving(place(new(), {0: "2.0.1", 1: "0.3.7"}), "g3r", lane_changes=0).apply("ahead")
    odds = outcomes(s)
    for v, w in zip(range(1, 7), (1, 7, 19, 37, 61, 91), strict=True):
        assert math.isclose(odds[f"crash:{v}"], w / 216)
    s = s.apply("crash:5")
    assert s.structure[0] == 8 - 5 and where(s, 0) == "2.1.2" and s.movement == 11
    s = moving(place(new(), {0: "2.0.1", 1: "0.3.7"}), "g1r", lane_changes=0).apply("ahead")
    assert math.isclose(outcomes(s)["crash:1"], 11 / 36)


def test_obstruction_at_speed_18_deals_six() -> None:
    """Movement: "(... 6 at speed 18.)" with no roll (content example 2)."""
    s = moving(place(new(), {0: "2.0.1", 1: "0.3.7"}), "g6r", lane_changes=0).apply("ahead")
    assert s.structure[0] == 8 - 6 and where(s, 0) == "2.1.2"


def test_obstruction_with_two_open_sides_the_driver_chooses() -> None:
    """RC-A4: with both sides open the driver picks the side of the compulsory lane change."""
    s = moving(place(new(), {0: "4.1.1", 1: "0.3.7"}), "g1y", lane_changes=0).apply("ahead")
    assert s.stage is Stage.SWERVE and s.legal_actions() == ["swerve-left", "swerve-right"]
    s = s.apply("swerve-left")
    assert where(s, 0) == "4.0.2" and s.movement == 4 and s.stage is Stage.MOVE


def test_obstruction_with_no_open_side_stops_and_brakes() -> None:
    """RC-A4: with no open side the car stops, its move ends, and the gearstick takes one free brake step
    (down in the same gear)."""
    s = place(new(3), {0: "4.1.1", 1: "4.0.2", 2: "4.2.2"})
    s = moving(s, "g2o", lane_changes=0).apply("ahead")
    assert s.stage is Stage.ROLL
    s = s.apply("crash:1")
    assert where(s, 0) == "4.1.1" and s.game.gear.names[s.node[0]] == "g2y"
    assert s.stage is Stage.AFTER and s.movement == 0


def test_a_mine_may_drop_on_the_forced_lane_change() -> None:
    """Movement: "Whenever you leave a space, you may activate the Minelayer to drop one of your four red
    mine markers in that space." The compulsory lane change after a fixed obstruction leaves the car's
    square (RC-X3), so with one open side the driver still chooses: with or without a mine."""
    s = moving(place(new(3), {2: "2.0.1", 0: "0.3.7", 1: "0.3.5"}, active=2), "g1b", lane_changes=0)
    s = s.apply("ahead")
    assert s.stage is Stage.SWERVE and s.legal_actions() == ["swerve-right", "swerve-right+mine"]
    s = s.apply("swerve-right+mine")
    assert where(s, 2) == "2.1.2" and s.mines == ((s.game.track.square_named("2.0.1"), 2),)
    assert s.mines_left[2] == 3 and s.structure[2] == 8 - 1 and s.movement == 3 and s.stage is Stage.MOVE
    assert not any(a.endswith("+mine") for a in s.legal_actions())


def test_a_mine_on_a_swerve_with_two_open_sides_and_one_a_turn() -> None:
    """RC-X3 with RC-G9: both sides open, each with or without a mine; a car that has dropped its mine this
    turn swerves with no mine to offer, and with one open side it swerves at once (RC-A4)."""
    s = moving(place(new(3), {2: "4.1.1", 0: "0.3.7", 1: "0.3.5"}, active=2), "g1y", lane_changes=0)
    assert s.apply("ahead").legal_actions() == ["swerve-left", "swerve-left+mine", "swerve-right",
                                                 "swerve-right+mine"]
    s = moving(place(new(3), {2: "2.0.0", 0: "0.3.7", 1: "0.3.5"}, active=2), "g1y", lane_changes=0)
    s = s.apply("ahead+mine")
    assert s.mine_dropped and where(s, 2) == "2.0.1" and s.movement == 4
    s = s.apply("ahead")
    assert where(s, 2) == "2.1.2" and len(s.mines) == 1 and s.stage is Stage.MOVE and s.movement == 3
