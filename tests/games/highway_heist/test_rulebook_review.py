"""An independent review of Highway Heist against the rulebook (rules/highway-heist.txt), written from
the rulebook's text section by section, through the public contract (``legal_actions``, ``apply``,
explicit chance actions) and, where a position cannot be reached quickly, ``state.copy()`` with the
documented fields. Each docstring cites the section it checks."""

from __future__ import annotations

import pytest

import slipstream
from slipstream.engine.errors import IllegalActionError
from slipstream.games.highway_heist import rules
from slipstream.games.highway_heist.state import HeistState
from slipstream.games.highway_heist.types import ABANDONED, DEFENSE, OFF, SPEED, SUV, WRECK, Stage

from .helpers import arrange, end_round, enemy_die, index_at, new, no_assist, piece_at, roll, sp

DOM_DRIFTER = {"characters": "dom,brian", "vehicles": "street-drifter,exotic-supercar"}
BRIAN_EXOTIC = {"characters": "brian,dom", "vehicles": "exotic-supercar,street-drifter"}


def suvs_in_supply(s: HeistState) -> int:
    return sum(1 for p in s.pieces if p.suv and p.space < 0)


# --- Resolution Order -----------------------------------------------------------------------------


def test_enemy_pegs_activate_west_to_east() -> None:
    """Resolution Order and Roll the Enemy Die, Enemy Peg: pegs activate one at a time West to East; the
    West one takes the Active Player Vehicle's last place for an Enemy Peg, so the East one stays."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (5, 3), 1: (1, 6)}, suvs=[(6, 3), (4, 2)],
                pegs=[(6, 3), (4, 2)], main={"tank": (12, 1)})
    s = enemy_die(s, "peg")
    assert piece_at(s, 5, 3).enemy_peg
    assert not piece_at(s, 4, 2).enemy_peg      # the West peg moved ...
    assert piece_at(s, 6, 3).enemy_peg          # ... the East one found the vehicle taken


def test_enemy_pegs_in_one_column_activate_north_to_south() -> None:
    """Resolution Order: in the same column, North before South."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (5, 3), 1: (1, 6)}, suvs=[(4, 4), (4, 2)],
                pegs=[(4, 4), (4, 2)], main={"tank": (12, 1)})
    s = enemy_die(s, "peg")
    assert piece_at(s, 5, 3).enemy_peg
    assert not piece_at(s, 4, 2).enemy_peg and piece_at(s, 4, 4).enemy_peg


def test_enemy_suvs_each_activate_once_in_order() -> None:
    """Roll the Enemy Die, Enemy SUV and Resolution Order: the West SUV moves next to the Active Player
    Vehicle first; the second, already adjacent, slams; the first does not slam after its move (each
    Enemy SUV is activated only once)."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (5, 3), 1: (1, 6)}, suvs=[(3, 3), (6, 3)],
                main={"tank": (12, 1)})
    s = enemy_die(s, "suv")
    assert sp(3, 3) not in rules.occupancy(s)
    assert piece_at(s, 4, 3).kind == SUV              # same lane: straight East toward the Drifter (HH-A3)
    assert s.roll is not None and s.roll.seat == 0 and s.roll.damage == 3
    s = roll(s, 0)
    assert s.damage[0] == 3
    assert s.stage is not Stage.ROLL                  # one slam only


# --- Damage and Defense ---------------------------------------------------------------------------


def test_unmanned_defense_counts_the_vehicle_board_only_and_may_be_boosted() -> None:
    """Damage and Defense, IMPORTANT: unmanned, only the Vehicle Board's Defense icons count (Dom 2 +
    Drifter 1 manned = 3 dice; on foot = 1 die). Boost Tokens: Defense rolls may be Boosted even when
    the Player Vehicle is unmanned."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (5, 3), 1: (1, 6)}, suvs=[(6, 3), (9, 5)],
                on_top={0: (9, 5)}, main={"tank": (12, 1)})
    assert rules.rating(s, 0, DEFENSE) == 1
    s = enemy_die(s, "suv")
    s = no_assist(s)
    assert s.roll is not None and s.roll.seat == 0 and s.roll.dice == 1 and s.roll.damage == 3
    s = s.apply("effort:0s1b0x")
    assert s.stage is Stage.BOOST and "boost" in s.legal_actions()
    tokens = s.boost[0]
    s = s.apply("boost")
    assert s.damage[0] == 2 and s.boost[0] == tokens - 1


def test_manned_defense_uses_both_boards() -> None:
    """Damage and Defense: manned, the Defense Rating is the Character and Vehicle icons together."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (5, 3), 1: (1, 6)}, suvs=[(6, 3)], main={"tank": (12, 1)})
    s = no_assist(enemy_die(s, "suv"))
    assert s.roll is not None and s.roll.dice == 3
    s = roll(s, 3)
    assert s.damage[0] == 0                       # three successes cancel the slam's 3


# --- Boost tokens ---------------------------------------------------------------------------------


def test_assist_onto_four_dice_adds_just_one() -> None:
    """Assist (Team Member), NOTE: no more than five Effort Dice; onto a roll of four, one token adds
    just one die, and the window then closes (nobody may add more)."""
    s = arrange(new(players=3, characters="brian,dom,letty",
                    vehicles="exotic-supercar,street-drifter,import-racer"),
                vehicles={0: (3, 3), 1: (9, 6), 2: (9, 1)}, suvs=[(4, 3)], main={"tank": (12, 5)})
    s = s.apply("ram:c4l3")
    assert s.stage is Stage.ASSIST and s.roll is not None and s.roll.dice == 4
    tokens = s.boost[1]
    s = s.apply("1:assist")
    assert s.roll is not None and s.roll.dice == 5 and s.boost[1] == tokens - 1
    assert s.stage is Stage.ROLL
    with pytest.raises(IllegalActionError):
        s.apply("2:assist")


def test_boost_cap_is_three() -> None:
    """Getting Boost Tokens, IMPORTANT: at most three Boost tokens; a Stunt success at the cap gives the
    player nothing more, and Take Boost Token is not offered."""
    s = arrange(new(stunt="ta-s1b", **DOM_DRIFTER), vehicles={0: (3, 3), 1: (9, 6)}, suvs=[(4, 3)],
                main={"tank": (5, 3)}).copy()
    s.boost_supply -= 1
    s.boost = (3, s.boost[1])
    s = roll(s.apply("stunt:ta-s1b@c4l3"), 3)
    assert s.boost[0] == 3
    assert "take-boost" not in s.legal_actions()      # nothing to take at the cap


def test_roman_holds_five() -> None:
    """Getting Boost Tokens, IMPORTANT: Roman's Special Power lets him hold five; Take Boost Token at
    four brings him to five, and at five he gains nothing."""
    s = arrange(new(characters="roman,dom", vehicles="street-drifter,exotic-supercar"),
                vehicles={0: (3, 3), 1: (9, 6)}, main={"tank": (12, 1)}).copy()
    s.boost_supply -= 2
    s.boost = (4, s.boost[1])
    s = s.apply("take-boost")
    assert s.boost[0] == 5
    assert s.stage is Stage.ENEMY_DIE              # the last action of the turn


def test_take_boost_token_ends_the_actions() -> None:
    """Take Boost Token: as the first action it still ends the actions; proceed to Roll the Enemy Die."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (3, 3), 1: (9, 6)}, main={"tank": (12, 1)})
    s = s.apply("take-boost")
    assert s.boost[0] == 3 and s.stage is Stage.ENEMY_DIE


# --- Wrecks ---------------------------------------------------------------------------------------


def test_wreck_sends_its_enemy_peg_to_a_player_vehicle_before_an_enemy_suv() -> None:
    """Wrecks: an Enemy Peg on a vehicle that becomes a Wreck moves to an adjacent vehicle, a Player
    Vehicle rather than an Enemy SUV (here the Active Player Vehicle)."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (3, 3), 1: (9, 6)}, suvs=[(4, 3), (5, 3)], pegs=[(4, 3)],
                main={"tank": (12, 1)})
    s = roll(s.apply("ram:c4l3"), 3)
    assert piece_at(s, 4, 3).kind == WRECK
    assert piece_at(s, 3, 3).enemy_peg and not piece_at(s, 5, 3).enemy_peg


def test_wreck_with_only_an_enemy_suv_beside_sends_the_peg_there() -> None:
    """Wrecks (through Road Maintenance): with no Player Vehicle adjacent, the Enemy Peg of a destroyed
    Enemy SUV moves to an adjacent Enemy SUV with an available slot."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (10, 1), 1: (11, 1)}, suvs=[(6, 4), (6, 5)], wrecks=[(8, 4)],
                pegs=[(6, 4)], main={"tank": (12, 6)})
    supply = s.enemy_pegs_in_supply()
    s = end_round(s)
    assert piece_at(s, 4, 4).kind == WRECK and sp(6, 4) not in rules.occupancy(s)
    assert piece_at(s, 6, 5).enemy_peg and s.enemy_pegs_in_supply() == supply


def test_team_orders_pegs_and_can_strand_the_enemy_peg() -> None:
    """FAQ Enemy Effects 3 and Wrecks: a Player Peg and an Enemy Peg must both move; the team decides
    which moves first. Moving the Player Peg first onto the last free slot of the only adjacent vehicle
    leaves the Enemy Peg nowhere to go: it returns to the supply."""
    s = arrange(new(players=3, characters="dom,brian,letty", vehicles="street-drifter,exotic-supercar,import-racer"),
                vehicles={0: (3, 3), 1: (9, 6), 2: (9, 1)}, suvs=[(4, 3), (5, 4)], pegs=[(4, 3)],
                on_top={1: (4, 3), 2: (5, 4)}, main={"tank": (12, 5)})
    # the neighbours of (4,3): the SUV at (5,4) with Letty on top (one slot left) and the Drifter, which
    # gets an Enemy Peg below so that no Enemy Peg may join it
    s = s.copy()
    drifter = s.vehicle[0]
    s.pieces = tuple(p._replace(enemy_peg=True) if i == drifter else p for i, p in enumerate(s.pieces))
    supply = s.enemy_pegs_in_supply()
    s = roll(s.apply("ram:c4l3"), 3)
    assert s.stage is Stage.CHOICE and s.actor == 0
    assert s.legal_actions() == ["first:1", "first:enemy"]
    stranded = s.apply("first:1")
    assert stranded.legal_actions() == ["peg:c3l3", "peg:c5l4"]      # Brian's own choice between the nearest
    stranded = stranded.apply("peg:c5l4")
    assert stranded.peg_on[1] == index_at(stranded, 5, 4)
    assert stranded.enemy_pegs_in_supply() == supply + 1
    saved = s.apply("first:enemy")
    assert piece_at(saved, 5, 4).enemy_peg
    assert saved.peg_on[1] == saved.vehicle[0]          # the only slot left near: on top of the Drifter


def test_destroyed_drivers_peg_goes_to_the_nearest_vehicle() -> None:
    """Destroyed Player Vehicles: the driver's peg goes on top of the nearest vehicle with an available
    slot; the player then has no Player Vehicle and only the Character Board's icons count."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (5, 3), 1: (1, 6)}, suvs=[(6, 3), (8, 3)],
                main={"tank": (12, 1)}).copy()
    s.damage = (5, 0)                             # one slot left on the Drifter (Strength 6)
    s = roll(no_assist(enemy_die(s, "suv")), 0)
    assert s.vehicle[0] == -1 and piece_at(s, 5, 3).kind == WRECK
    assert s.peg_on[0] == index_at(s, 6, 3)
    assert rules.rating(s, 0, SPEED) == 2 and rules.rating(s, 0, DEFENSE) == 2


# --- Enemy Die ------------------------------------------------------------------------------------


def test_enemy_die_faces_and_chances() -> None:
    """Roll the Enemy Die (HH-G3): SUV on two faces, Enemy Peg, Enemy Card, and the Main Enemy's two
    move faces (each followed by an Enemy card): three faces trigger Enemy cards."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (5, 3), 1: (1, 6)}, main={"tank": (12, 1)}).apply("end-turn")
    assert s.stage is Stage.ENEMY_DIE and s.is_chance
    odds = dict(s.chance_outcomes())
    assert odds == pytest.approx({"enemy-die:suv": 2 / 6, "enemy-die:peg": 1 / 6, "enemy-die:card": 1 / 6,
                                  "enemy-die:main_left": 1 / 6, "enemy-die:main_right": 1 / 6})


def test_enemy_peg_face_with_no_pegs_does_nothing() -> None:
    """Enemy Peg: if none of the effects apply (no Enemy Peg), nothing happens; the turn ends."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (5, 3), 1: (1, 6)}, main={"tank": (12, 1)})
    before = [p for p in s.pieces]
    s = enemy_die(s, "peg")
    assert list(s.pieces) == before and s.damage == (0, 0)
    assert s.stage is Stage.CHOOSE_TURN and s.exhausted[0]


def test_enemy_peg_brawls_a_player_peg_off_the_tank() -> None:
    """Enemy Peg, Brawl: an Enemy Peg on an Enemy vehicle (the Tank) with a Player Peg Brawls it off to
    the nearest vehicle with an available slot."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (5, 3), 1: (1, 6)}, main={"tank": (7, 3)},
                on_top={0: (7, 3)})
    s = s.copy()
    tank = index_at(s, 7, 3)
    s.pieces = tuple(p._replace(enemy_peg=True) if i == tank else p for i, p in enumerate(s.pieces))
    s = enemy_die(s, "peg")
    assert s.peg_on[0] == s.vehicle[0]                 # on top of his own Drifter, the nearest vehicle
    assert not rules.manned(s, 0)                 # on top, never behind the wheel (FAQ)
    assert piece_at(s, 7, 3).enemy_peg            # the Enemy Peg stays


def test_enemy_peg_damage_first_then_nothing_else() -> None:
    """Enemy Peg: the first effect that applies, only: on a Player Vehicle it deals 2 (HH-G4) and does
    not also Brawl the Player Peg beside it."""
    s = arrange(new(characters="dom,roman", vehicles="street-drifter,import-racer"), vehicles={0: (5, 3), 1: (1, 6)},
                pegs=[(1, 6)], on_top={0: (1, 6)}, main={"tank": (12, 1)})
    s = no_assist(enemy_die(s, "peg"))
    assert s.roll is not None and s.roll.seat == 1 and s.roll.damage == 2
    s = roll(s, 0)
    assert s.damage[1] == 2 and s.peg_on[0] == s.vehicle[1]


def test_no_suv_on_the_road_places_behind_each_player_vehicle_while_the_supply_lasts() -> None:
    """Enemy SUV, IMPORTANT, and Enemy SUVs: with none on the road an SUV goes directly behind each
    Player Vehicle in Resolution Order (North first here); with a single SUV left in the supply only
    the first gets one; an occupied space behind sends it further West."""
    wrecks = [(10, lane) for lane in range(1, 7)] + [(4, 2)]
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (5, 2), 1: (5, 5)}, wrecks=wrecks, main={"tank": (12, 1)})
    assert suvs_in_supply(s) == 1
    s = enemy_die(s, "suv")
    assert piece_at(s, 3, 2).kind == SUV           # behind (4,2) is a Wreck: the next space West
    assert sp(4, 5) not in rules.occupancy(s)
    assert suvs_in_supply(s) == 0


def test_suvs_stop_moving_once_the_active_player_has_no_vehicle() -> None:
    """Enemy SUV, Move: if the Active Player has no Player Vehicle, Enemy SUVs don't move. The West SUV
    destroys the Active Player Vehicle; the East one, activated after it, stays where it is."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (5, 3), 1: (1, 6)}, suvs=[(9, 3), (4, 3)],
                main={"tank": (12, 1)}).copy()
    s.damage = (5, 0)
    s = roll(no_assist(enemy_die(s, "suv")), 0)
    assert s.vehicle[0] == -1
    assert piece_at(s, 9, 3).kind == SUV


# --- Road Maintenance -----------------------------------------------------------------------------


def test_road_maintenance_chain_moves_a_peg_twice() -> None:
    """End of Round, Road Maintenance: Wrecks move four spaces West one at a time in Resolution Order,
    destroying every vehicle in their path; an Enemy Peg knocked onto a vehicle that a later Wreck
    destroys must move again (here with nowhere to go: back to the supply)."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (10, 5), 1: (10, 6)}, suvs=[(4, 2), (3, 3)],
                wrecks=[(6, 2), (7, 3)], pegs=[(4, 2)], main={"tank": (12, 1)})
    supply = s.enemy_pegs_in_supply()
    s = end_round(s)
    assert piece_at(s, 2, 2).kind == WRECK and piece_at(s, 3, 3).kind == WRECK
    assert suvs_in_supply(s) == 8 - 2          # both SUVs back to the supply, the two Wrecks on the road
    assert s.enemy_pegs_in_supply() == supply + 1


def test_unmanned_vehicle_off_the_road_is_destroyed() -> None:
    """Road Maintenance, Unmanned Player Vehicles: an unmanned Player Vehicle that moves off the Road
    Board is destroyed; its owner (on foot) no longer has a Player Vehicle."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (1, 3), 1: (9, 6)}, suvs=[(6, 3)], on_top={0: (6, 3)},
                main={"tank": (12, 1)})
    s = end_round(s)
    assert s.vehicle[0] == -1 and s.peg_on[0] == index_at(s, 6, 3)
    assert sp(1, 3) not in rules.occupancy(s)


def test_wreck_path_removes_a_manned_vehicle_and_its_driver_moves_on_top() -> None:
    """Road Maintenance, Wrecks: a Player Vehicle in a Wreck's path is destroyed and removed; the driver
    goes on top of the nearest vehicle with an available slot."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (4, 3), 1: (11, 6)}, suvs=[(2, 4)], wrecks=[(6, 3)],
                main={"tank": (12, 1)})
    drifter = s.vehicle[0]
    s = end_round(s)
    assert s.pieces[drifter].space == OFF and s.vehicle[0] == -1
    assert s.peg_on[0] == index_at(s, 2, 4)
    assert piece_at(s, 2, 3).kind == WRECK


# --- Stunt cards ----------------------------------------------------------------------------------


def test_level_3_card_stays_after_a_failed_try_and_no_loss_before_it_leaves() -> None:
    """Stunt Actions: the Level 3 card has no Boost token and may be tried again after a failure; End of
    Round: with it in a spot other than the West one, the game goes on."""
    s = arrange(new(stunt="ta-s1a", characters="han,dom", vehicles="street-drifter,exotic-supercar"),
                vehicles={0: (3, 2), 1: (1, 6)}, suvs=[(8, 3)], on_top={0: (8, 3)}, main={"tank": (9, 3)}).copy()
    s.stunt_row = ("", "ta-s3", "")
    s.track = 3
    s = roll(s.apply("stunt:ta-s3"), 3)
    assert not s.is_over and "stunt:ta-s3" in s.legal_actions()
    s = end_round(s)
    assert not s.is_over and s.stunt_row[-1] == "ta-s3"      # now in the West spot


# --- Scenario losses ------------------------------------------------------------------------------


def test_semi_one_lost_cargo_is_not_yet_a_loss() -> None:
    """Semi Heist loss (HH-G13): one Cargo lost leaves three still to be secured; the game goes on."""
    s = arrange(new(scenario="semi-heist", **DOM_DRIFTER), vehicles={0: (1, 1), 1: (6, 3)}, suvs=[(7, 3)],
                main={"semi_cab": (11, 5), "semi_trailer": (10, 5)}).copy()
    s.damage = (0, 4)
    s.pieces = tuple(p._replace(cargo=1) if i == s.vehicle[1] else p for i, p in enumerate(s.pieces))
    s = roll(no_assist(enemy_die(s, "suv")), 0)
    assert s.lost_cargo == 1 and not s.is_over


def test_tank_assault_has_no_loss_but_the_clock() -> None:
    """Tank Assault (HH-G13): losing every Player Vehicle is no loss (no player is ever eliminated)."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (5, 3), 1: (1, 6)}, suvs=[(6, 3), (8, 3)],
                main={"tank": (12, 1)}).copy()
    s.damage = (5, 0)
    s = roll(no_assist(enemy_die(s, "suv")), 0)
    assert s.vehicle[0] == -1 and not s.is_over


# --- Exhausted characters -------------------------------------------------------------------------


def exhaust_seat_zero(s: HeistState) -> HeistState:
    """Seat 0 ends its turn on a harmless face; seat 1 takes the next turn."""
    s = enemy_die(s, "peg")
    assert s.stage is Stage.CHOOSE_TURN
    return s.apply("1:play")


def test_exhausted_tej_still_helps() -> None:
    """Exhausted Characters: a Special Power highlighted on the Exhausted side (Tej's Tech Support,
    HH-G6) may be used on another player's turn after Tej has played."""
    s = arrange(new(characters="tej,han", vehicles="exotic-supercar,street-drifter"),
                vehicles={0: (1, 1), 1: (3, 3)}, suvs=[(4, 3)], main={"tank": (12, 6)})
    s = exhaust_seat_zero(s)
    assert s.exhausted[0] and s.active == 1
    s = no_assist(s.apply("ram:c4l3")).apply("effort:2s0b2x")
    assert s.stage is Stage.POWER and s.actor == frozenset({0})
    s = s.apply("0:tech")
    assert piece_at(s, 4, 3).kind == WRECK


def test_exhausted_dom_still_takes_the_slam() -> None:
    """Exhausted Characters: Dom's Family First (HH-G6) works while Dom is Exhausted."""
    s = arrange(new(characters="dom,brian", vehicles="american-muscle,exotic-supercar"),
                vehicles={0: (5, 4), 1: (1, 1)}, main={"tank": (12, 6)})
    s = exhaust_seat_zero(s)
    s = arrange(s, vehicles={1: (5, 3)}, suvs=[(6, 2)], strip=True)
    s = enemy_die(s, "suv")
    assert s.stage is Stage.POWER and s.actor == frozenset({0})
    s = s.apply("0:take-slam")
    assert s.roll is not None and s.roll.seat == 0


def test_exhausted_brian_cannot_reroll_others_rolls() -> None:
    """Exhausted Characters: Brian's Wheelman is for his own Speed or Control rolls only (HH-G6): on a
    team mate's roll no reroll is offered to him."""
    s = arrange(new(characters="brian,han", vehicles="exotic-supercar,street-drifter"),
                vehicles={0: (1, 1), 1: (3, 3)}, suvs=[(4, 3)], main={"tank": (12, 6)})
    s = exhaust_seat_zero(s)
    s = no_assist(s.apply("ram:c4l3")).apply("effort:2s0b2x")
    assert s.stage is not Stage.REROLL and s.stage is not Stage.POWER


def test_public_contract_start() -> None:
    """Setup through the public contract: every seat manned in the starting row with two Boost tokens."""
    s = slipstream.load("highway-heist", players=2).start(seed=5)
    assert isinstance(s, HeistState)
    assert all(rules.manned(s, seat) for seat in range(2)) and s.boost == (2, 2)
    assert all(rules.col(s, s.pieces[s.vehicle[seat]].space) == 0 for seat in range(2))   # the West column


def test_a_wreck_left_in_front_destroys_the_rammer_at_the_end_of_the_round() -> None:
    """Ram Enemy SUV: the rammer does not move; a Wreck still directly in front at the end of the round
    moves four spaces West through it and the Player Vehicle is destroyed (End of Round, Wrecks)."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (4, 3), 1: (11, 6)}, suvs=[(5, 3)], main={"tank": (12, 1)})
    drifter = s.vehicle[0]
    s = roll(s.apply("ram:c5l3"), 3)
    assert piece_at(s, 4, 3).owner == 0 and piece_at(s, 5, 3).kind == WRECK
    s = end_round(s)
    assert s.pieces[drifter].space == OFF and s.vehicle[0] == -1
    assert piece_at(s, 1, 3).kind == WRECK


def test_two_player_pegs_for_one_slot_the_team_orders_them() -> None:
    """Wrecks: if more than one Player Peg must move, the team decides who moves first; with one slot
    left on the nearest vehicle, the one moved first takes it and the other goes further."""
    s = arrange(new(players=3, characters="dom,brian,letty", vehicles="street-drifter,exotic-supercar,import-racer"),
                vehicles={0: (3, 3), 1: (9, 6), 2: (9, 1)}, suvs=[(4, 3)], on_top={1: (4, 3), 2: (4, 3)},
                pegs=[(3, 3)], main={"tank": (12, 5)})
    s = roll(s.apply("ram:c4l3"), 3)
    assert s.stage is Stage.CHOICE and s.actor == 0 and s.legal_actions() == ["first:1", "first:2"]
    s = s.apply("first:2")
    assert s.peg_on[2] == s.vehicle[0]                 # the Drifter: one slot beside its Enemy Peg
    assert s.legal_actions() == ["peg:c9l1", "peg:c9l6"]    # Brian: the next nearest, equally far
    s = s.apply("peg:c9l6")
    assert s.peg_on[1] == s.vehicle[1]


def test_an_enemy_peg_on_an_abandoned_vehicle_does_not_brawl() -> None:
    """Enemy Peg: Brawl is only on an Enemy SUV or Enemy vehicle; an abandoned starting vehicle is
    neither (Player Vehicles, Hijack), so a Player Peg on it stays and the Enemy Peg moves to an adjacent
    Player Vehicle instead."""
    s = arrange(new(characters="han,dom", vehicles="street-drifter,exotic-supercar"), vehicles={0: (5, 3), 1: (1, 6)},
                suvs=[(6, 3)], on_top={0: (6, 3)}, main={"tank": (12, 1)})
    s = roll(s.apply("hijack"), 2)
    s = s.copy()
    old = index_at(s, 5, 3)
    assert s.pieces[old].kind == ABANDONED
    s.pieces = tuple(p._replace(enemy_peg=True) if i == old else p for i, p in enumerate(s.pieces))
    s.peg_on = (s.peg_on[0], old)
    s = enemy_die(s, "peg")
    assert s.peg_on[1] == old
    assert piece_at(s, 6, 3).enemy_peg and not piece_at(s, 5, 3).enemy_peg


@pytest.mark.parametrize(("difficulty", "counts"), [("easy", (4, 4, 1)), ("standard", (3, 3, 1)),
                                                     ("hard", (2, 3, 1)), ("beast", (2, 2, 1))])
def test_difficulty_deck_sizes_and_level_order(difficulty: str, counts: tuple[int, int, int]) -> None:
    """Difficulty and Setup (the Stunt deck): Easy 4+4, Standard 3+3, Hard 2+3, It's a Beast! 2+2 Level
    1 and 2 cards over the Level 3 card; the first card drawn is a Level 1 card, each equally likely."""
    s = slipstream.load("highway-heist", players=2, difficulty=difficulty).start(seed=3)
    assert isinstance(s, HeistState)
    assert s.stunts_left == counts
    odds = dict(s.chance_outcomes())
    assert odds == pytest.approx({f"stunt-card:ta-s1{x}": 0.25 for x in "abcd"})


def test_level_2_after_level_1_and_the_level_3_card_last() -> None:
    """Setup (the Stunt deck): Level 2 cards lie under the Level 1 cards and the Level 3 card at the
    bottom: once the Level 1 cards are drawn the next is an unseen Level 2 card; after them, the
    Level 3 card for certain."""
    s = new(stunt="ta-s1a").copy()
    s.stunts_left = (0, 3, 1)
    s.stunt_drawn = ("ta-s1a", "ta-s1b", "ta-s1c")
    s.stunt_row = ("ta-s1c", "ta-s1b", "ta-s1a")
    s = end_round(s)
    assert dict(s.chance_outcomes()) == pytest.approx({f"stunt-card:ta-s2{x}": 0.25 for x in "abcd"})
    s = s.copy()
    s.stunts_left = (0, 0, 1)
    s.stunt_drawn = (*s.stunt_drawn, "ta-s2a", "ta-s2b", "ta-s2c")
    s.stunt_row = ("ta-s2c", "ta-s2b", "ta-s2a")
    s = end_round(s)
    assert s.chance_outcomes() == [("stunt-card:ta-s3", 1.0)]
    s = s.apply("stunt-card:ta-s3")
    assert s.stunt_row[0] == "ta-s3"


def test_between_turns_the_first_seat_orders_the_pegs_for_the_team() -> None:
    """End of Round, Road Maintenance, and Wrecks: a Wreck's path destroys an Enemy SUV carrying an Enemy
    Peg and P2's peg; the only vehicle near has one slot, so the order decides who gets it. Between
    turns the first seat decides for the team (HH-X2, HH-X3)."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (11, 1), 1: (11, 6)}, suvs=[(6, 4), (6, 5), (10, 1)],
                wrecks=[(8, 4)], pegs=[(6, 4)], on_top={0: (6, 5), 1: (6, 4)}, main={"tank": (12, 3)})
    s = end_round(s)
    assert s.stage is Stage.CHOICE and s.actor == 0 and s.legal_actions() == ["first:1", "first:enemy"]
    player_first = s.apply("first:1")
    assert player_first.peg_on[1] == index_at(player_first, 6, 5) and not piece_at(player_first, 6, 5).enemy_peg
    enemy_first = s.apply("first:enemy")
    assert piece_at(enemy_first, 6, 5).enemy_peg and enemy_first.peg_on[1] == index_at(enemy_first, 10, 1)


def test_suvs_move_toward_the_active_vehicle_even_with_its_driver_on_foot() -> None:
    """Enemy SUV, Move: an SUV not adjacent to a Player Vehicle moves one space toward the Active Player
    Vehicle even if the Active Player's character is on foot; a peg on a moving SUV rides along."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (5, 3), 1: (1, 6)}, suvs=[(2, 3), (9, 5)], on_top={0: (9, 5)},
                main={"tank": (12, 1)})
    rider = index_at(s, 9, 5)
    s = enemy_die(s, "suv")
    assert piece_at(s, 3, 3).kind == SUV                       # straight East toward the Drifter
    assert s.pieces[rider].space == sp(8, 4)                   # diagonally toward it, not toward Dom
    assert s.peg_on[0] == rider
