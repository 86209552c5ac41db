"""Setup, the round and the first half of a turn: the gearstick, Turbo and Brake points, red and white dice."""

from __future__ import annotations

import math

import pytest

import slipstream
from slipstream.engine.errors import IllegalActionError
from slipstream.games.rush_n_crush import rules
from slipstream.games.rush_n_crush.state import RushState
from slipstream.games.rush_n_crush.types import Stage

from .helpers import armed, moving, new, outcomes, place, play, where


def test_setup_dashboards() -> None:
    """Setup: "nine clear markers (placed at the top of the Steering, Brake and Turbo tracks; on the four
    dark ("disarmed") boxes on the Driver card; on full Structure (top) and zero Heat ... Also place a
    gearstick pawn on the zero spot ... If your car's equipment includes a Minelayer, also take four red
    markers." (RC-A1)"""
    s = new(6)
    for car, dash in enumerate(s.game.dashboards):
        assert (s.structure[car], s.heat[car]) == (dash.structure, 0)
        assert (s.steering[car], s.brake[car], s.turbo[car]) == (dash.steering, dash.brake, dash.turbo)
        assert s.armed[car] == 0 and s.node[car] == 0
        fixed = s.game.content.cars[dash.car].fixed
        assert s.mines_left[car] == (4 if "minelayer" in fixed else 0)


def test_cars_and_drivers_hold_two_pieces_each() -> None:
    """Introduction: each car has two of the four fixed pieces (Armor Shielding's Structure and the
    On-board Computer's Steering already shown on the card); each driver two of Side Bumper, Flamer,
    Machine Gun, Lateral Circular Saw, plus a Rocket Booster and a Fire Extinguisher."""
    s = new(6)
    pairs = {frozenset(c.fixed) for c in s.game.content.cars.values()}
    assert len(pairs) == 6
    for car in s.game.content.cars.values():
        assert car.structure == 6 + 2 * ("armor-shielding" in car.fixed)
        assert car.steering >= 4 + 2 * ("onboard-computer" in car.fixed)
    for seat in range(6):
        pieces = rules.piece_names(s.game.dashboards[seat].pieces)
        assert len(pieces) == 4 and {"rocket-booster", "fire-extinguisher"} <= set(pieces)


def test_grid_deal_and_first_order() -> None:
    """Setup/Round (RC-G7, RC-A10): the cars are dealt to the grid at random; round 1 goes front to back,
    and the two cars of a row are ordered by their slot (the one that "arrived first")."""
    s = slipstream.load("rush-n-crush", players=4).start(seed=1)
    assert s.actor == "chance" and [a for a, _ in s.chance_outcomes()] == ["grid:P1", "grid:P2", "grid:P3", "grid:P4"]
    s = play(s, "grid:P3", "grid:P1", "grid:P4")
    assert [where(s, c) for c in (2, 0, 3, 1)] == ["0.0.7", "0.2.7", "0.1.5", "0.3.5"]
    assert s.order == (2, 0, 3, 1) and s.actor == 2


def test_round_order_front_to_back_ties_to_first_arrival() -> None:
    """Round: "Establish an order for this round, front to back. If two cars are equally far forward, the
    one that arrived first is 'ahead'." A destroyed car is skipped."""
    s = place(new(4), {0: "0.0.3", 1: "0.2.3", 2: "0.1.5", 3: "0.3.0"}, stamp=(9, 4, 1, 2))
    s = s.copy()
    events: list[slipstream.engine.Event] = []
    rules.start_round(s, events)
    assert s.order == (2, 1, 0, 3)
    s = s.copy()
    s.destroyed = (0, 0, 0, 1)
    rules.start_round(s, events)
    assert s.order == (2, 1, 0)


def test_zero_spot_only_accelerates() -> None:
    """Turn: "You may not deliberately decelerate to speed 0." At the zero spot the only gear action is
    to accelerate to g1b, speed 4 (content example 4); keep is refused there."""
    s = new()
    gear = [a for a in s.legal_actions() if a.startswith("gear:") or a == "keep"]
    assert gear == ["gear:g1b"]
    with pytest.raises(IllegalActionError):
        s.apply("keep")


def test_gearstick_moves_along_the_lines() -> None:
    """Turn: accelerate (up or right-and-up along a white line), brake (down or down-and-left), or shift
    (any number of dashed segments along the row), or keep it where it is."""
    s = place(new(), {}, node=(6, 0))  # g2y, speed 6
    gear = sorted(a for a in s.legal_actions() if a.startswith("gear:") or a == "keep")
    assert gear == ["gear:g1o", "gear:g1y", "gear:g2b", "gear:g2o", "gear:g3b", "gear:g3y", "keep"]


def test_gear_limits() -> None:
    """Content example 5: at g1b there is no brake line and no Brake point can be spent; from g1r one free
    shift reaches g4b (speed 8, blue)."""
    s = place(new(), {}, node=(1, 0))
    assert not any(a in s.legal_actions() for a in ("gear:zero", "brake:zero"))
    s = s.apply("keep")
    assert not any(a.startswith("brake:") for a in s.legal_actions())
    s = place(new(), {}, node=(4, 0))
    assert "gear:g4b" in s.legal_actions()


def test_points_turbo_or_brake_one_kind() -> None:
    """Turn: "Then spend as many of your Turbo points (to accelerate as above) or Brake points (to brake as
    above) as you like." One kind a turn (content 1.4); each spends a point."""
    s = place(new(), {}, node=(6, 0))
    s = s.apply("keep")
    assert s.stage is Stage.POINTS
    s = s.apply("turbo:g2o")
    assert s.turbo[0] == s.game.dashboards[0].turbo - 1 and s.turbo_spent == 1
    assert not any(a.startswith("brake:") for a in s.legal_actions())
    s = s.apply("turbo:g3o")
    assert s.game.gear.names[s.node[0]] == "g3o"
    s = s.apply("done")
    assert s.stage is Stage.ROLL and s.movement == 10


def test_red_dice_by_zone() -> None:
    """Turn: "Roll red dice based on your current colour zone ... Any 1-2 on red dice gives you a heat
    point." Orange rolls 2 red dice (RC-G3): heat 0, 1, 2 with 4/9, 4/9, 1/9."""
    s = place(new(), {}, node=(7, 0)).apply("keep").apply("done")  # g2o
    odds = outcomes(s)
    assert odds.keys() == {"heat:0", "heat:1", "heat:2"}
    assert math.isclose(odds["heat:0"], 4 / 9) and math.isclose(odds["heat:2"], 1 / 9)
    s = s.apply("heat:2")
    assert s.heat[0] == 2


def test_turbo_widens_the_heat_range() -> None:
    """Turn: "+1 to the range for each Turbo you used this turn; using two Turbos makes each heat die give
    you heat on 1-4" (content example 3); with four or more, every die heats."""
    s = place(new(), {}, node=(1, 0)).apply("keep")
    s = s.apply("turbo:g1y").apply("turbo:g1o")  # yellow then orange: 2 red dice at 1-4
    assert math.isclose(outcomes(s.apply("done"))["heat:2"], (4 / 6) ** 2)
    s = place(new(), {}, node=(1, 0), turbo=(5, 3)).apply("keep")
    s = play(s, "turbo:g1y", "turbo:g1o", "turbo:g1r", "turbo:g2r", "done")
    assert outcomes(s) == {"heat:3": 1.0}


def test_white_dice_lowest_of_three_at_speed_12() -> None:
    """Movement: "speed 11-16, lowest single die"; at speed 12 three white dice (content example 1)."""
    s = place(new(), {}, node=(12, 0)).apply("keep").apply("done")  # g3r, red zone: heat first
    s = s.apply("heat:0")
    odds = outcomes(s)
    for v, w in zip(range(1, 7), (91, 61, 37, 19, 7, 1), strict=True):
        assert math.isclose(odds[f"steer:{v}"], w / 216)
    s = s.apply("steer:2")
    assert s.stage is Stage.MOVE and s.lane_changes == 2 and s.movement == 12


def test_white_dice_highest_and_unlimited() -> None:
    """Movement: "Speed 5- unlimited; speed 6-10, highest single die"."""
    s = place(new(), {}, node=(0, 0)).apply("gear:g1b").apply("done")
    assert s.stage is Stage.MOVE and s.lane_changes == -1 and s.movement == 4
    s = place(new(), {}, node=(9, 0)).apply("keep").apply("done")  # g3b speed 6, blue: no red dice
    odds = outcomes(s)
    assert math.isclose(odds["steer:6"], 91 / 216) and math.isclose(odds["steer:1"], 1 / 216)


def test_speed_18_has_no_lane_change_but_steering_points() -> None:
    """Movement: "speed 18, 0" lane changes; "Each Steering point you spend gives you a bonus lane change"
    (content example 2)."""
    s = place(new(), {0: "1.1.0"}, node=(24, 0)).apply("keep").apply("done").apply("heat:0")
    assert s.stage is Stage.MOVE and s.lane_changes == 0
    steering = s.steering[0]
    s = s.apply("left")
    assert s.steering[0] == steering - 1 and s.lane_changes == 0


def test_heat_beyond_the_track_destroys() -> None:
    """Introduction: "Your car is destroyed if either the Structure or the Heat counter reaches the skull";
    the car is a wreck where it stands and the turn passes (RC-G10)."""
    s = place(new(3), {}, node=(7, 0, 0), heat=(7, 0, 0)).apply("keep").apply("done")
    s = s.apply("heat:2")
    assert s.destroyed[0] and s.actor == 1
    assert s.view(None)["wrecks"] == [where(s, 0)]


def test_fire_extinguisher_before_the_heat_roll() -> None:
    """Turn/Movement: equipment "before, during or after movement"; "Using the Fire Extinguisher lowers your
    heat by 1", and is the only way heat goes down (RC-A5)."""
    s = place(new(), {}, node=(1, 0), heat=(3, 0))
    s = s.apply("arm:fire-extinguisher").copy()
    s.moved = 0  # a later turn
    s.activations = 2
    s = s.apply("use:fire-extinguisher")
    assert s.heat[0] == 2 and s.stage is Stage.GEAR
    assert isinstance(s, RushState)


def test_random_seating_deals_cars_then_drivers() -> None:
    """Setup: "Each player takes a car (large card) and a driver (small card), ideally from the same Team
    (colour) though it doesn't really matter" (option seat_assignment = random): the cars, then the drivers,
    are dealt by chance, and each dashboard starts from its dealt car."""
    s = slipstream.load("rush-n-crush", players=2, seat_assignment="random").start(seed=3)
    assert s.actor == "chance" and len(s.chance_outcomes()) == 6
    assert s.view(None)["cars"][0]["car"] is None
    s = play(s, "car:ram-mines", "car:armour-computer")
    assert [a for a, _ in s.chance_outcomes()][:2] == ["driver:bumper-flame", "driver:bumper-gun"]
    s = play(s, "driver:flame-gun", "driver:gun-saw")
    cars = s.view(None)["cars"]
    assert [(c["car"], c["driver"]) for c in cars] == [("ram-mines", "flame-gun"), ("armour-computer", "gun-saw")]
    ram_mines, armour_computer = s.game.content.cars["ram-mines"], s.game.content.cars["armour-computer"]
    assert (s.structure, s.turbo, s.mines_left) == ((ram_mines.structure, armour_computer.structure),
                                                    (ram_mines.turbo, armour_computer.turbo), (4, 0))
    assert s.legal_actions() == ["grid:P1", "grid:P2"]


def test_brake_points_exclude_turbo_points() -> None:
    """Content 1.4 (RC-X5): after a Brake point, no Turbo point in the same turn."""
    s = place(new(), {}, node=(11, 0)).apply("keep").apply("brake:g3y")
    assert s.brake[0] == s.game.dashboards[0].brake - 1
    assert not any(a.startswith("turbo:") for a in s.legal_actions())


def test_heat_at_the_capacity_is_not_yet_the_skull() -> None:
    """Introduction: destroyed when the Heat counter "reaches the skull", the box after the last (heat 9 on
    a track of 8, RC-G4): heat 8 still runs."""
    s = place(new(3), {}, node=(7, 0, 0), heat=(6, 0, 0)).apply("keep").apply("done").apply("heat:2")
    assert s.heat[0] == 8 and not s.destroyed[0] and s.stage is Stage.ROLL


def test_the_view_names_whose_roll_every_chance_step_is() -> None:
    """Issue 13: the view's ``roller`` names whose roll or deal each chance step is: with random seating each
    seat dealt its car, then its driver (Setup); nobody at the grid deal (RC-G7) or at a choice; the
    attacker for its Machine Gun and its Side Ram (Movement), and the car shoved onto a mine for the mine's
    die ("If another car crosses it, it's treated like hitting a wreck": "roll a die", content 5.5)."""
    s = slipstream.load("rush-n-crush", players=2, seat_assignment="random").start(seed=3)
    rollers = []
    for dealt in ("car:ram-mines", "car:armour-computer", "driver:flame-gun", "driver:gun-saw"):
        rollers.append(s.view(None)["roller"])
        s = s.apply(dealt)
    assert rollers == [0, 1, 0, 1]
    assert s.view(None)["phase"] == "grid" and s.view(None)["roller"] is None
    s = armed(place(new(), {1: "0.1.2", 0: "0.1.4"}, active=1), 1, "machine-gun")
    assert s.view(None)["roller"] is None  # the active car's choice
    s = s.apply("use:machine-gun")
    assert (s.view(None)["roll"], s.view(None)["roller"]) == ("gun", 1)
    s = place(new(3), {0: "0.1.2", 1: "0.2.3", 2: "0.0.7"}).copy()
    s.mines = ((s.game.track.square_named("0.3.3"), 2),)
    s = moving(s, "g1r", lane_changes=2).apply("right")
    assert (s.view(None)["roll"], s.view(None)["roller"]) == ("ram", 0)
    s = s.apply("die:5")  # car 1 is shoved onto car 2's mine
    assert (s.view(None)["roll"], s.view(None)["roller"]) == ("mine", 1)
