"""The public helpers for bots and boards in rules.py: the lane picture, heat odds, expected lane changes."""

from __future__ import annotations

import math

from slipstream.games.rush_n_crush import rules

from .helpers import new, place


def test_lane_picture_shows_cars_wrecks_mines_and_obstructions() -> None:
    s = place(new(3), {0: "0.1.2", 1: "2.1.0", 2: "0.3.7"}, destroyed=(0, 1, 0)).copy()
    s.mines = ((s.game.track.square_named("0.0.4"), 2),)
    picture = rules.lane_picture(s)
    assert len(picture) == 6 and [len(lane) for lane in picture[1]] == [6, 7, 9, 10]
    assert picture[0][1][2] == "0" and picture[0][3][7] == "2" and picture[2][1][0] == "W"
    assert picture[0][0][4] == "M2" and picture[2][0][2:6] == ["#"] * 4 and picture[0][2][0] == ""


def test_heat_odds() -> None:
    """The chance of at least one heat from the next red roll: orange (2 dice) at 1-2 is 1 - (2/3)^2; with
    two Turbo points, 1 - (1/3)^2; blue rolls none."""
    s = place(new(), {}, node=(7, 0))
    assert math.isclose(rules.heat_odds(s, 0), 1 - (2 / 3) ** 2)
    assert math.isclose(rules.heat_odds(s, 0, turbo_spent=2), 1 - (1 / 3) ** 2)
    assert rules.heat_odds(s, 0, node=s.game.gear.node("g4b")) == 0


def test_expected_lane_changes() -> None:
    """GAPS 4.5's figures: highest of 3 about 4.96, one die 3.5, lowest of 5 about 1.57; unlimited at 4-5,
    none at 18."""
    gear = new().game.gear
    assert math.isclose(rules.expected_lane_changes(gear, gear.node("g1o")), 1071 / 216)
    assert math.isclose(rules.expected_lane_changes(gear, gear.node("g2r")), 3.5)
    assert round(rules.expected_lane_changes(gear, gear.node("g5r")), 2) == 1.57
    assert rules.expected_lane_changes(gear, gear.node("g1b")) == math.inf
    assert rules.expected_lane_changes(gear, gear.node("g6r")) == 0


def test_the_view_carries_the_course_for_a_board() -> None:
    """The view's course.tiles: each tile's placement on the grid of cells and its squares, so a board can
    draw the course from the view alone (the sprint: a left curve turns the course west)."""
    tiles = new().view(None)["course"]["tiles"]
    assert [(t["face"], t["cell"], t["heading"]) for t in tiles[:3]] == [
        ("R1a", [0, 0], "N"), ("C1a", [0, 2], "N"), ("R3b", [-2, 3], "W")]
    assert tiles[1]["lanes"][0] == [2, 1, 2, 2, 1, 2]
    assert tiles[2]["obstructions"] == [[0, 2], [0, 3], [0, 4], [0, 5]]
