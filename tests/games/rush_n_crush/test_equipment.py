"""Equipment: Activations, the Machine Gun, the Flamer, the Rocket Booster, the Fire Extinguisher and the
Minelayer (summary: Movement)."""

from __future__ import annotations

import math

import pytest

from slipstream.engine.errors import IllegalActionError
from slipstream.games.rush_n_crush.state import RushState
from slipstream.games.rush_n_crush.types import Stage, Task

from .helpers import armed, moving, new, outcomes, place, where


def test_two_activations_and_no_counter_twice() -> None:
    """Movement: "You have two Activations per turn ... either to Arm a piece of equipment ... or to Use
    it ... You cannot move the same counter twice in a turn." Content example 10: a piece armed this turn
    cannot be Used this turn (RC-A6); a third activation is refused."""
    s = place(new(), {0: "0.1.2", 1: "0.1.4"}, active=1, heat=(0, 2))
    s = s.apply("arm:fire-extinguisher")
    assert "use:fire-extinguisher" not in s.legal_actions()
    s = s.apply("arm:machine-gun")
    assert s.activations == 0 and not any(a.startswith(("arm:", "use:")) for a in s.legal_actions())
    with pytest.raises(IllegalActionError):
        s.apply("arm:rocket-booster")


def test_machine_gun_range_two_rolls_two_dice() -> None:
    """Movement: "The Machine Gun fires directly forward ... at range 1-3. Roll (4-range) dice; each 1-2
    does one structure to the target." Content example 9: a car at range 2, 2 dice."""
    s = armed(place(new(), {1: "0.1.2", 0: "0.1.4"}, active=1), 1, "machine-gun")
    s = s.apply("use:machine-gun")
    assert s.stage is Stage.ROLL and outcomes(s) == pytest.approx({"hits:0": 4 / 9, "hits:1": 4 / 9, "hits:2": 1 / 9})
    s = s.apply("hits:2")
    assert s.structure[0] == 8 - 2 and s.stage is not Stage.ROLL and s.actor == 1


def test_machine_gun_is_stopped_by_a_wreck() -> None:
    """RC-A7, content example 9: the line of fire stops at the first car, wreck or obstruction; a wreck at
    range 1 makes the Use illegal."""
    s = armed(place(new(3), {1: "0.1.2", 2: "0.1.3", 0: "0.1.4"}, active=1, destroyed=(0, 0, 1)), 1, "machine-gun")
    assert "use:machine-gun" not in s.legal_actions()
    s = armed(place(new(3), {1: "0.1.2", 2: "0.3.3", 0: "0.1.6"}, active=1), 1, "machine-gun")
    assert "use:machine-gun" not in s.legal_actions()  # range 4


def test_flamer_fires_backward_for_heat() -> None:
    """Movement: "The Flamer fires directly backward ... at range 1-3. Roll (4-range) dice; each 1-2 gives
    one heat to the target." """
    s = armed(place(new(3), {2: "0.1.4", 0: "0.1.3", 1: "0.3.0"}, active=2), 2, "flamer")
    s = s.apply("use:flamer")
    assert math.isclose(outcomes(s)["hits:3"], 1 / 27)
    s = s.apply("hits:2")
    assert s.heat[0] == 2 and s.structure[0] == 8


def test_rocket_booster_only_after_movement() -> None:
    """Movement: "The Rocket Booster may only be Used at the end of movement. Choose 1-3 and move that many
    spaces directly forward. For each space moved, roll a heat die and add 1 heat on 1-2." """
    s = armed(moving(place(new(), {0: "0.1.0", 1: "0.3.7"}), "g1b", movement=1), 0, "rocket-booster")
    assert not any(a.startswith("boost:") for a in s.legal_actions())
    s = s.apply("ahead")
    assert s.stage is Stage.AFTER and {"boost:1", "boost:2", "boost:3"} <= set(s.legal_actions())
    s = s.apply("boost:2")
    assert where(s, 0) == "0.1.3" and s.movement == 0
    assert outcomes(s) == pytest.approx({"heat:0": 4 / 9, "heat:1": 4 / 9, "heat:2": 1 / 9})
    s = s.apply("heat:1")
    assert s.heat[0] == 1 and not any(a.startswith("boost:") for a in s.legal_actions())


def test_rocket_booster_into_a_car_is_a_rush_n_crush() -> None:
    """The Booster moves straight on, so a car ahead is a Rush 'n' Crush with the Booster squares left
    (content 5.8); the heat dice count only the squares moved."""
    s = armed(moving(place(new(), {0: "0.1.0", 1: "0.1.3"}), "g1b", movement=1), 0, "rocket-booster")
    s = s.apply("ahead").apply("boost:3")
    assert where(s, 0) == "0.1.2" and s.need[3] == 2
    s = s.apply("die:3").apply("die:6")
    assert s.structure[1] == 7 and outcomes(s) == pytest.approx({"heat:0": 2 / 3, "heat:1": 1 / 3})


def test_fire_extinguisher_needs_heat() -> None:
    """Movement: "Using the Fire Extinguisher lowers your heat by 1." Legal only with heat to lower."""
    s = armed(place(new(), {}), 0, "fire-extinguisher")
    assert "use:fire-extinguisher" not in s.legal_actions()


def test_mine_dropped_on_the_square_left() -> None:
    """Movement: "Whenever you leave a space, you may activate the Minelayer to drop one of your four red
    mine markers in that space." No Activation; one a turn (RC-G9)."""
    s = moving(place(new(3), {2: "0.1.0", 0: "0.3.7", 1: "0.3.5"}, active=2), "g1b")
    s = s.apply("ahead+mine")
    assert s.mines == ((s.game.track.square_named("0.1.0"), 2),) and s.mines_left[2] == 3 and s.activations == 2
    assert not any(a.endswith("+mine") for a in s.legal_actions())


@pytest.mark.parametrize(("die", "damage"), [(2, 1), (5, 0)])
def test_mine_hits_another_car_and_is_removed_if_it_does_damage(die: int, damage: int) -> None:
    """Movement: "If another car crosses it, it's treated like hitting a wreck (but if it does damage, the
    marker is removed)" (content example 11)."""
    s = place(new(3), {0: "0.1.2", 1: "0.3.7", 2: "0.3.5"})
    s = s.copy()
    s.mines = ((s.game.track.square_named("0.1.3"), 2),)
    s = moving(s, "g1b").apply("ahead").apply(f"die:{die}")
    assert s.structure[0] == 8 - damage and len(s.mines) == 1 - damage and s.stage is Stage.MOVE


def test_the_owner_never_rolls_for_its_mine() -> None:
    """RC-A9: a mine is never triggered by its owner."""
    s = place(new(3), {2: "0.1.2", 0: "0.3.7", 1: "0.3.5"}, active=2)
    s = s.copy()
    s.mines = ((s.game.track.square_named("0.1.3"), 2),)
    s = moving(s, "g1b").apply("ahead")
    assert s.stage is Stage.MOVE and len(s.mines) == 1


def test_rocket_booster_into_an_obstruction_ends_it_without_a_lane_change() -> None:
    """Content 5.8: the Booster moves only "directly forward": a fixed obstruction deals its damage (1 at
    speed 4) and ends the Booster, with no compulsory lane change; heat dice only for squares moved."""
    s = armed(moving(place(new(), {0: "1.0.5", 1: "0.3.7"}), "g1b", movement=1), 0, "rocket-booster")
    s = s.apply("ahead").apply("boost:3")
    assert where(s, 0) == "2.0.1" and s.structure[0] == 8 - 1 and s.stage is Stage.ROLL
    assert outcomes(s) == pytest.approx({"heat:0": 2 / 3, "heat:1": 1 / 3})


def test_a_booster_mine_on_a_later_square() -> None:
    """Movement: "Whenever you leave a space, you may activate the Minelayer to drop one of your four red
    mine markers in that space": each square the Rocket Booster leaves is such a space (RC-X3), so
    ``boost:3+mine@3`` drops the mine on the square its third step leaves, two ahead of its start."""
    s = armed(moving(place(new(3), {2: "0.1.0", 0: "0.3.7", 1: "0.3.5"}, active=2), "g1b", movement=1), 2,
              "rocket-booster")
    s = s.apply("ahead")
    boosts = {a for a in s.legal_actions() if a.startswith("boost:")}
    assert boosts == {"boost:1", "boost:1+mine", "boost:2", "boost:2+mine", "boost:2+mine@2", "boost:3",
                      "boost:3+mine", "boost:3+mine@2", "boost:3+mine@3"}
    s = s.apply("boost:3+mine@3")
    assert where(s, 2) == "0.1.4" and s.mines == ((s.game.track.square_named("0.1.3"), 2),) and s.mines_left[2] == 3
    assert s.stage is Stage.ROLL and s.need[2] == 3


def test_a_booster_mine_only_where_the_booster_can_leave_a_square() -> None:
    """RC-X3 with RC-G9: a later Booster square is offered for the mine only if the Booster can get there
    as the course stands (no car or obstruction on the way) and no mine or wreck lies there; a step that
    does not leave its square (a Rush 'n' Crush into a car) drops none."""
    def after_movement(squares: dict[int, str], mines: tuple[tuple[str, int], ...]) -> RushState:
        s = armed(moving(place(new(3), squares, active=2), "g1b", movement=0), 2, "rocket-booster").copy()
        s.mines = tuple((s.game.track.square_named(name), owner) for name, owner in mines)
        s.stage = s.phase = Stage.AFTER
        return s.copy()

    s = after_movement({2: "0.1.0", 0: "0.1.2", 1: "0.3.5"}, ())
    assert {a for a in s.legal_actions() if a.startswith("boost:")} == {
        "boost:1", "boost:1+mine", "boost:2", "boost:2+mine", "boost:2+mine@2", "boost:3", "boost:3+mine",
        "boost:3+mine@2"}
    s = after_movement({2: "0.1.0", 0: "0.1.3", 1: "0.3.5"}, (("0.1.1", 0),))
    assert {a for a in s.legal_actions() if a.startswith("boost:")} == {
        "boost:1", "boost:1+mine", "boost:2", "boost:2+mine", "boost:3", "boost:3+mine", "boost:3+mine@3"}
    s = s.apply("boost:3+mine@3").apply("die:6")
    assert where(s, 2) == "0.1.2" and s.need[0] == Task.RNC and s.need[3] == 1
    s = s.apply("die:6")
    assert s.mines == ((s.game.track.square_named("0.1.1"), 0),) and s.mines_left[2] == 4 and not s.mine_dropped
