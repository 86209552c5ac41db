"""The three scenarios' own rules (content sections 5-7 of highway-heist-content.md, decided in
docs/rules/highway-heist.md): the Tank, the Semi with its Cargo, the Chopper, Shaw's Car and Ramsey."""

from __future__ import annotations

from slipstream.games.highway_heist import effects, turn
from slipstream.games.highway_heist.content import EFFECT_FORMS, parse_line
from slipstream.games.highway_heist.state import HeistState
from slipstream.games.highway_heist.types import CAB, SHAW, SUV, TANK, TRAILER, WRECK, Stage

from .helpers import arrange, end_round, enemy_die, index_at, new, piece_at, roll, sp

DOM_DRIFTER = {"characters": "dom,brian", "vehicles": "street-drifter,exotic-supercar"}


def effect(s, text: str, seat: int = 0):  # type: ignore[no-untyped-def]
    """Run one line of the effect language on a copy of ``s``, then the queue it leaves."""
    s = s.copy()
    events: list = []
    effects.run_effect(s, parse_line(text, EFFECT_FORMS), seat, -1, events)
    if s.stage is Stage.ACTION:
        s.stage = Stage.AUTO
        turn.advance(s, events)
    return s


# --- Tank Assault ------------------------------------------------------------------------------------


def test_a_wreck_drifting_into_the_tank_damages_it() -> None:
    """Tank Assault (overview: "forcing it to drive into wrecked enemy SUVs"): in Road Maintenance a Wreck
    whose path enters the Tank stops, is removed and adds 1 Tank Damage."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (2, 1), 1: (2, 6)}, wrecks=[(11, 3)], main={"tank": (9, 3)})
    s = end_round(s)
    assert s.track == 1 and piece_at(s, 9, 3).kind == TANK
    assert not any(p.kind == WRECK and p.space >= 0 for p in s.pieces)


def test_reaching_the_tank_damage_goal_wins_at_once() -> None:
    """End of the Game: achieving the Objective (Tank Damage at the content's goal, HH-G13) ends the game
    immediately; the team wins, every seat a winner."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (2, 1), 1: (2, 6)}, wrecks=[(11, 3)], main={"tank": (9, 3)}).copy()
    s.track = s.g.scenario.goal - 1
    s = end_round(s)
    assert s.is_over and s.result is not None and s.result.winners == (0, 1)
    assert s.result.team and s.result.rank(1) == 1
    assert s.view(None)["outcome"] == "win"


def test_force_and_ram_loop_of_force_example_one() -> None:
    """Force, EXAMPLE #1 carried on (Tank Assault's loop): Force Enemy SUV C two spaces to end directly in
    front of the Tank, stay (not follow into the vacated space) so as to Ram it with the next action,
    Ram it, and at End of Round the Wreck moves West into the Tank: Tank Damage 1."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (11, 4), 1: (1, 1)}, suvs=[(11, 5)], main={"tank": (9, 3)})
    s = roll(s.apply("force:c11l5"), 3).apply("to:c10l3").apply("stay")
    s = roll(s.apply("ram:c10l3"), 4)
    assert piece_at(s, 10, 3).kind == WRECK
    s = end_round(s)
    assert s.track == 1


def test_tank_shoves_vehicles_and_smashes_wrecks() -> None:
    """Tank movement (content 5.2, 0.3 Shove): a vehicle in the way is pushed one space (a Player
    Vehicle takes 2), or crushed if it cannot move; a Wreck in the way is removed for 1 Tank Damage."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (9, 2), 1: (1, 1)}, main={"tank": (9, 3)})
    s = effect(s, "main_move north")
    assert piece_at(s, 9, 2).kind == TANK and piece_at(s, 9, 1).owner == 0
    assert s.roll is not None and s.roll.seat == 0 and s.roll.damage == 2
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (2, 2), 1: (1, 1)}, suvs=[(9, 2), (9, 1)], main={"tank": (9, 3)})
    s = effect(s, "main_move north")
    assert piece_at(s, 9, 1).kind == SUV and sum(1 for p in s.pieces if p.kind == SUV and p.space >= 0) == 1
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (2, 2), 1: (1, 1)}, wrecks=[(9, 4)], main={"tank": (9, 3)})
    s = effect(s, "main_move south")
    assert s.track == 1 and piece_at(s, 9, 4).kind == TANK


def test_main_enemy_at_the_edge_does_not_move() -> None:
    """HH-A9: a Main Enemy move that would leave the road does nothing."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (2, 2), 1: (1, 1)}, main={"tank": (9, 1)})
    s = effect(s, "main_move north")
    assert piece_at(s, 9, 1).kind == TANK


def test_the_cannon_hits_the_first_piece_in_the_lane() -> None:
    """Main Cannon (content 5.5): the first vehicle East of the Tank in its lane is hit: an Enemy SUV
    shields the Player Vehicle behind it and becomes a Wreck."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (12, 3), 1: (1, 1)}, suvs=[(11, 3)], main={"tank": (9, 3)})
    s = effect(s, "shoot 3 east")
    assert piece_at(s, 11, 3).kind == WRECK and s.roll is None
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (12, 3), 1: (1, 1)}, main={"tank": (9, 3)})
    s = effect(s, "shoot 3 east")
    assert s.roll is not None and s.roll.damage == 3 and s.roll.seat == 0


# --- Semi Heist --------------------------------------------------------------------------------------

SEMI = {"scenario": "semi-heist", "characters": "han,dom", "vehicles": "street-drifter,exotic-supercar"}


def test_semi_setup() -> None:
    """Semi Heist setup (content 6.1): cab and trailer in one lane, an Enemy Peg on the cab, the door
    closed, four Cargo in the Semi."""
    s = new(**SEMI)
    assert piece_at(s, 9, 3).kind == CAB and piece_at(s, 9, 3).enemy_peg
    assert piece_at(s, 8, 3).kind == TRAILER and not s.door_open and s.cargo_in_semi == 4


def throw(s: HeistState) -> HeistState:
    """A Throw Cargo roll that succeeds: the team member assists when the thrower's dice fall short of
    the content's requirement."""
    need = s.g.scenario_actions["throw-cargo"].need
    if s.roll is not None and s.roll.dice < need:
        s = s.apply("1:assist")
    return roll(s, need)


def test_open_the_door_and_throw_cargo_to_a_player_vehicle() -> None:
    """Semi Heist actions (content 6.4): on the trailer roof, Open Door (Athletics, the content's
    requirement: 3 in the proposal, 4 after tuning, knob 2), then Throw Cargo (Athletics, the content's
    requirement: 2 in the proposal, 4 after tuning, Balance) to a Player Vehicle in the throw zone
    (directly or diagonally behind the trailer)."""
    s = arrange(new(**SEMI), vehicles={0: (6, 3), 1: (7, 4)}, on_top={0: (8, 3)},
                main={"semi_cab": (9, 3), "semi_trailer": (8, 3)})
    assert "act:throw-cargo@c7l4" not in s.legal_actions()
    need = s.g.scenario_actions["open-door"].need
    s = s.apply("act:open-door")
    if s.roll is not None and s.roll.dice < need:
        s = s.apply("1:assist")                  # two more dice from the team member
    s = roll(s, need)
    assert s.door_open
    assert "act:throw-cargo@c7l4" in s.legal_actions()
    s = throw(s.apply("act:throw-cargo@c7l4"))
    assert piece_at(s, 7, 4).cargo == 1 and s.cargo_in_semi == 3
    assert s.view(None)["track"] == {"name": "cargo_secured", "value": 1, "goal": 3, "label": "Cargo secured"}


def test_three_cargo_on_player_vehicles_wins() -> None:
    """Semi Heist objective (content 6.3): 3 Cargo on Player Vehicles wins at once."""
    s = arrange(new(**SEMI), vehicles={0: (6, 3), 1: (7, 4)}, on_top={0: (8, 3)},
                main={"semi_cab": (9, 3), "semi_trailer": (8, 3)}).copy()
    s.door_open = True
    s.cargo_in_semi = 2
    s.pieces = tuple(p._replace(cargo=2) if i == s.vehicle[1] else p for i, p in enumerate(s.pieces))
    s = throw(s.apply("act:throw-cargo@c7l4"))
    assert s.is_over and s.result is not None and s.result.winners == (0, 1)


def test_lost_cargo_loses() -> None:
    """Semi Heist loss (content 6.3): Cargo on a destroyed vehicle is lost; two lost, the team loses."""
    s = arrange(new(**SEMI), vehicles={0: (1, 1), 1: (6, 3)}, suvs=[(7, 3)],
                main={"semi_cab": (11, 5), "semi_trailer": (10, 5)}).copy()
    s.cargo_in_semi = 2
    s.damage = (0, 4)
    s.pieces = tuple(p._replace(cargo=2) if i == s.vehicle[1] else p for i, p in enumerate(s.pieces))
    s = roll(enemy_die(s, "suv"), 0)
    assert s.is_over and s.result is not None and s.result.winners == ()
    assert s.lost_cargo == 2


def test_semi_moves_as_one_and_fires_the_shotgun() -> None:
    """The Semi (content 6.2): both spaces move together; after a Main Enemy move the Shotgun hits a
    Player Vehicle next to the cab for the content's ``shotgun_damage`` (1, Balance)."""
    s = arrange(new(**SEMI), vehicles={0: (10, 1), 1: (1, 6)}, main={"semi_cab": (9, 3), "semi_trailer": (8, 3)})
    assert s.g.content.model.knobs.shotgun_damage == 1
    s = enemy_die(s, "main_left")
    assert piece_at(s, 9, 2).kind == CAB and piece_at(s, 8, 2).kind == TRAILER
    assert s.roll is not None and s.roll.seat == 0 and s.roll.damage == 1


SEMI3 = {"scenario": "semi-heist", "characters": "han,letty,brian",
         "vehicles": "street-drifter,exotic-supercar,american-muscle"}


def test_the_shotgun_hits_the_active_vehicle_if_it_can() -> None:
    """One vehicle hit (content 2, ``one_pv``: "the Active Player Vehicle if it qualifies"; the Shotgun,
    content 6.2): two vehicles end up next to the cab, the Active Player's among them: it takes the 1."""
    s = arrange(new(3, **SEMI3), vehicles={0: (10, 1), 1: (10, 3), 2: (1, 6)},
                main={"semi_cab": (9, 3), "semi_trailer": (8, 3)})
    s = enemy_die(s, "main_left")
    assert s.roll is not None and (s.roll.seat, s.roll.damage) == (0, 1)
    assert "the Shotgun fires at P1 (Han)'s Street Drifter" in [e.text for e in s.events]


def test_the_shotgun_hits_the_vehicle_the_team_chooses_when_the_active_one_is_not_there() -> None:
    """One vehicle hit (content 2, ``one_pv``: "otherwise the team chooses"): two other vehicles next to
    the cab, the Active Player's far away: the Active Player chooses for the team (HH-X2, ``hit:<space>``),
    and the chosen vehicle's owner defends against the 1 (the other is not hit)."""
    s = arrange(new(3, **SEMI3), vehicles={0: (1, 6), 1: (10, 1), 2: (10, 3)},
                main={"semi_cab": (9, 3), "semi_trailer": (8, 3)})
    s = enemy_die(s, "main_left")
    assert s.actor == 0 and s.legal_actions() == ["hit:c10l1", "hit:c10l3"] and s.roll is None
    chosen = s.apply("hit:c10l3")
    assert chosen.roll is not None and (chosen.roll.seat, chosen.roll.damage) == (2, 1)
    other = s.apply("hit:c10l1")
    assert other.roll is not None and (other.roll.seat, other.roll.damage) == (1, 1)


def test_semi_roofs_are_separate_vehicles_for_pegs() -> None:
    """The Semi follows different rules (content 6.2): cab and trailer roofs each take pegs (at most one
    Enemy Peg each) and a Leap reaches either."""
    s = arrange(new(**SEMI), vehicles={0: (7, 3), 1: (1, 6)}, main={"semi_cab": (9, 3), "semi_trailer": (8, 3)},
                pegs=[(9, 3)])
    legal = s.legal_actions()
    assert "leap:c8l3" in legal and "leap:c9l3" in legal


# --- Chopper Takedown ----------------------------------------------------------------------------------

CHOPPER = {"scenario": "chopper-takedown", "characters": "dom,brian", "vehicles": "street-drifter,exotic-supercar"}


def test_chopper_setup_and_it_fills_no_space() -> None:
    """Chopper Takedown (content 7.1-7.2): the Chopper hovers, Ramsey rides in the chosen seat's vehicle,
    Shaw's Car carries an Enemy Peg; a vehicle may drive under the Chopper."""
    s = new(**CHOPPER)
    assert s.chopper == sp(10, 3) and s.ramsey == s.vehicle[0]
    assert piece_at(s, 8, 4).kind == SHAW and piece_at(s, 8, 4).enemy_peg
    s = arrange(s, vehicles={0: (9, 3), 1: (1, 6)}, main={"chopper": (10, 3), "shaw_car": (12, 6)})
    assert "drive:c10l3" in s.legal_actions()


def test_missile_hits_ramsey_and_splashes_neighbours() -> None:
    """Missile (content 0.2): within range of Ramsey's vehicle, 3 to it and 1 to each Player Vehicle
    next to it; out of range, nothing."""
    s = arrange(new(**CHOPPER), vehicles={0: (8, 3), 1: (7, 3)}, main={"chopper": (10, 3), "shaw_car": (1, 6)})
    s = effect(s, "missile 2")
    hits = []
    while s.roll is not None:
        hits.append((s.roll.seat, s.roll.damage))
        s = roll(s, 0)
    assert hits == [(0, 3), (1, 1)]
    s = arrange(new(**CHOPPER), vehicles={0: (5, 3), 1: (7, 3)}, main={"chopper": (10, 3), "shaw_car": (1, 6)})
    assert effect(s, "missile 2").roll is None


def test_transfer_ramsey() -> None:
    """Transfer Ramsey (content 7.4): Control 2, to an adjacent Player Vehicle; her carrier may not Hijack."""
    s = arrange(new(**CHOPPER), vehicles={0: (5, 3), 1: (6, 3)}, main={"chopper": (10, 3), "shaw_car": (1, 6)})
    s = roll(s.apply("act:transfer-ramsey@c6l3"), 2)
    assert s.ramsey == s.vehicle[1]


def test_ramsey_lost_with_no_vehicle_beside_loses() -> None:
    """Ramsey (content 7.2): if her vehicle is destroyed and no Player Vehicle is next to it, the team
    loses; with one next to it, she moves there."""
    s = arrange(new(**CHOPPER), vehicles={0: (5, 3), 1: (1, 6)}, suvs=[(6, 3)],
                main={"chopper": (12, 6), "shaw_car": (12, 1)}).copy()
    s.damage = (5, 0)
    s = roll(enemy_die(s, "suv"), 0)
    assert s.is_over and s.result is not None and "Ramsey" in s.result.reason and s.result.winners == ()
    s = arrange(new(**CHOPPER), vehicles={0: (5, 3), 1: (4, 4)}, suvs=[(6, 3)],
                main={"chopper": (12, 6), "shaw_car": (12, 1)}).copy()
    s.damage = (5, 0)
    s = roll(enemy_die(s, "suv"), 0)
    assert s.legal_actions() == ["peg:c4l4", "peg:c6l3"]     # Dom's peg first: the nearest, his choice
    s = s.apply("peg:c4l4")
    assert s.ramsey == s.vehicle[1] and not s.is_over


def test_shaw_car_slams_ramsey_first() -> None:
    """Shaw's Car (content 7.2): next to Player Vehicles it slams for ``[knobs] shaw_slam`` (4 in the
    proposal, 3 after tuning, knob 4), Ramsey's vehicle first."""
    s = arrange(new(**CHOPPER), vehicles={0: (5, 3), 1: (5, 5)}, main={"chopper": (12, 6), "shaw_car": (6, 4)})
    s = s.copy()
    s.active = 1
    s = effect(s, "activate shaw_car")
    assert s.roll is not None and s.roll.seat == 0 and s.roll.damage == s.g.content.model.knobs.shaw_slam == 3
    assert index_at(s, 6, 4) >= 0


def test_a_peg_brawled_off_a_semi_roof_does_not_land_on_the_other() -> None:
    """The Semi (content 6.2): a Player Peg Brawled off one Semi roof goes to the nearest other vehicle,
    never the other Semi roof."""
    s = arrange(new(**SEMI), vehicles={0: (5, 3), 1: (1, 6)}, pegs=[(9, 3)], on_top={0: (9, 3)},
                main={"semi_cab": (9, 3), "semi_trailer": (8, 3)})
    s = enemy_die(s, "peg")
    assert s.peg_on[0] == s.vehicle[0]       # the Street Drifter at c5l3, not the trailer next door


def test_shaw_car_activates_on_the_suv_face_even_with_no_enemy_suv() -> None:
    """Enemy Die, SUV face (content 2): Shaw's Car activates with the Enemy SUVs; with none on the road,
    the SUVs are placed behind each Player Vehicle and Shaw's Car still moves toward Ramsey."""
    s = arrange(new(**CHOPPER), vehicles={0: (3, 3), 1: (3, 5)}, main={"chopper": (12, 6), "shaw_car": (8, 3)})
    s = enemy_die(s, "suv")
    assert piece_at(s, 2, 3).kind == SUV and piece_at(s, 2, 5).kind == SUV
    assert piece_at(s, 7, 3).kind == SHAW
