"""Every answer of the rulebook's FREQUENTLY ASKED QUESTIONS is a rule, and a test."""

from __future__ import annotations

import pytest

from slipstream.engine.errors import IllegalActionError
from slipstream.games.highway_heist import effects, rules
from slipstream.games.highway_heist.content import EFFECT_FORMS, parse_line
from slipstream.games.highway_heist.types import OFF, WRECK, Stage

from .helpers import arrange, end_round, enemy_die, index_at, new, no_assist, piece_at, roll

DOM_DRIFTER = {"characters": "dom,brian", "vehicles": "street-drifter,exotic-supercar"}


def test_each_action_is_completed_before_the_next() -> None:
    """FAQ Player Actions 1: a Drive cannot be split around another action: a Drive names its end
    space and is over."""
    s = arrange(new(characters="han,dom", vehicles="import-racer,exotic-supercar"), vehicles={0: (1, 3), 1: (1, 6)},
                main={"tank": (12, 1)})
    s = s.apply("drive:c3l3")
    assert s.actions_left == 1 and s.stage is Stage.ACTION and piece_at(s, 3, 3).owner == 0


def test_no_hijacking_or_driving_a_team_mates_vehicle() -> None:
    """FAQ Player Actions 2: you cannot Hijack or get behind the wheel of a team member's vehicle. Dom,
    whose own vehicle is gone, stands on top of Brian's Exotic Supercar: no Hijack, and no wheel to Leap
    behind (``leap:wheel`` is only ever your own vehicle's); with his own Street Drifter within reach
    (Athletics 1), the same Leap takes him behind his own wheel, and Brian's stays Brian's."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (3, 3), 1: (4, 3)}, on_top={0: (4, 3)}, main={"tank": (12, 1)})
    legal = s.legal_actions()
    assert "hijack" not in legal
    assert "leap:wheel" in legal                      # his own Drifter, one space away
    back = s.apply("leap:wheel")
    assert rules.manned(back, 0) and back.vehicle == s.vehicle and piece_at(back, 4, 3).owner == 1
    s = s.copy()
    drifter = s.vehicle[0]
    s.pieces = tuple(p._replace(kind=WRECK, space=OFF) if i == drifter else p
                     for i, p in enumerate(s.pieces))
    s.vehicle, s.board = (-1, s.vehicle[1]), (-1, s.board[1])
    legal = s.legal_actions()
    assert "leap:wheel" not in legal and "hijack" not in legal   # on a Player Vehicle, but not his


def test_a_peg_moved_by_an_effect_lands_on_top_never_behind_the_wheel() -> None:
    """FAQ Player Actions 3: a Player Peg moved by a destroyed vehicle or an enemy effect goes on top of a
    vehicle, even its own Player Vehicle; only a Leap gets behind the wheel."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (4, 4), 1: (1, 6)}, suvs=[(5, 3)], pegs=[(5, 3)],
                on_top={0: (5, 3)}, main={"tank": (12, 1)})
    s = enemy_die(s, "peg")
    assert s.peg_on[0] == s.vehicle[0] and not rules.manned(s, 0)


def test_pegs_stay_on_a_forced_vehicle() -> None:
    """FAQ Player Actions 4: Player and Enemy Pegs on a Forced vehicle stay on top of it."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (4, 3), 1: (1, 6)}, suvs=[(5, 3)], pegs=[(5, 3)],
                on_top={1: (5, 3)}, main={"tank": (12, 1)})
    s = roll(s.apply("force:c5l3"), 3).apply("to:c7l3").apply("stay")
    assert piece_at(s, 7, 3).enemy_peg and s.peg_on[1] == index_at(s, 7, 3)


def test_enemy_card_never_stacks_enemy_pegs() -> None:
    """FAQ Enemy Effects 2: placing an Enemy Peg on each Enemy SUV adds none where one already is."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (1, 3), 1: (1, 6)}, suvs=[(5, 3), (6, 3)], pegs=[(5, 3)],
                main={"tank": (12, 1)}).copy()
    supply = s.enemy_pegs_in_supply()
    effects.run_effect(s, parse_line("place_peg each_enemy_suv", EFFECT_FORMS), 0, -1, [])
    assert s.enemy_pegs_in_supply() == supply - 1 and piece_at(s, 6, 3).enemy_peg


def test_player_peg_moves_first_and_can_leave_the_enemy_peg_nowhere() -> None:
    """FAQ Enemy Effects 3: an Enemy SUV carrying both P2's peg and an Enemy Peg is destroyed (a Wreck's
    path at End of Round); the team decides which peg moves first (HH-X3, HH-R2: between turns the first
    seat asks for the team). The only vehicle next to it, an Enemy SUV with P1 on top, has one slot left:
    moving P2's peg first takes it, and the Enemy Peg, with no adjacent vehicle to go to, returns to the
    supply (Wrecks). Moving the Enemy Peg first would take that slot instead."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (10, 6), 1: (10, 1)}, suvs=[(5, 3), (6, 4)],
                wrecks=[(7, 3)], pegs=[(5, 3)], on_top={0: (6, 4), 1: (5, 3)}, main={"tank": None})
    supply = s.enemy_pegs_in_supply()
    s = end_round(s)
    assert s.stage is Stage.CHOICE and s.actor == 0 and s.legal_actions() == ["first:1", "first:enemy"]
    stranded = s.apply("first:1")
    assert stranded.peg_on[1] == index_at(stranded, 6, 4) and not piece_at(stranded, 6, 4).enemy_peg
    assert stranded.enemy_pegs_in_supply() == supply + 1
    saved = s.apply("first:enemy")
    assert piece_at(saved, 6, 4).enemy_peg and saved.enemy_pegs_in_supply() == supply
    assert saved.actor == 1 and saved.legal_actions() == ["peg:c10l1", "peg:c10l6"]   # the slot is taken:
    assert saved.apply("peg:c10l1").peg_on[1] == saved.vehicle[1]                          # P2 goes further


def test_no_assist_after_the_roll_and_no_boosting_a_team_mates_roll() -> None:
    """FAQ Boosting/Assisting 1 and 3: no dice are added after the roll, and only the roller may Boost."""
    s = arrange(new(characters="han,dom", vehicles="street-drifter,exotic-supercar"),
                vehicles={0: (3, 3), 1: (9, 6)}, suvs=[(4, 3)], main={"tank": (12, 1)})
    s = no_assist(s.apply("ram:c4l3")).apply("effort:2s1b1x")
    assert s.stage is Stage.BOOST and s.actor == 0
    for bad in ("1:assist", "1:boost"):
        with pytest.raises(IllegalActionError):
            s.apply(bad)


def test_two_team_mates_may_each_assist_up_to_five_dice() -> None:
    """FAQ Boosting/Assisting 4 and 2: two team members may each add two dice (never above five); you
    cannot Assist yourself."""
    s = arrange(new(players=3, characters="dom,brian,letty", vehicles="street-drifter,exotic-supercar,import-racer"),
                vehicles={0: (4, 3), 1: (9, 6), 2: (9, 1)}, suvs=[(5, 3)], pegs=[(5, 3)], on_top={0: (5, 3)},
                main={"tank": (12, 1)})
    s = s.apply("brawl")                    # Dom on foot: Athletics 1 + 0
    assert s.roll is not None and s.roll.dice == 1 and "0:assist" not in s.legal_actions()
    s = s.apply("1:assist").apply("2:assist")
    assert s.roll is not None and s.roll.dice == 5 and s.stage is Stage.ROLL


def test_assisted_then_still_boost() -> None:
    """FAQ Boosting/Assisting 5: a team member Assists (two more dice before the roll), and after the roll
    the roller may still Boost it: the Boost turns the Assisted roll's boost faces into successes."""
    s = arrange(new(characters="han,dom", vehicles="street-drifter,exotic-supercar"),
                vehicles={0: (3, 3), 1: (9, 6)}, suvs=[(4, 3)], main={"tank": (12, 1)})
    s = s.apply("ram:c4l3").apply("1:assist")
    assert s.roll is not None and s.roll.dice == 5 and s.boost == (2, 1) and s.stage is Stage.ROLL
    s = s.apply("effort:2s2b1x")
    assert s.stage is Stage.BOOST and s.actor == 0 and s.legal_actions() == ["boost", "keep"]
    s = s.apply("boost")
    assert piece_at(s, 4, 3).kind == WRECK and s.boost == (1, 1)


def test_boosting_takes_no_action() -> None:
    """FAQ Boosting/Assisting 6: Boosting does not take an action."""
    s = arrange(new(characters="han,dom", vehicles="street-drifter,exotic-supercar"),
                vehicles={0: (3, 3), 1: (9, 6)}, suvs=[(4, 3)], main={"tank": (12, 1)})
    s = no_assist(s.apply("ram:c4l3")).apply("effort:1s2b1x").apply("boost")
    assert s.actions_left == 1 and s.stage is Stage.ACTION


def test_a_failed_stunt_can_be_retried_with_the_second_action() -> None:
    """FAQ Player Actions 5: yes, while the Condition holds (see test_round for the card itself)."""
    s = arrange(new(stunt="ta-s1a", **DOM_DRIFTER), vehicles={0: (4, 3), 1: (1, 6)}, suvs=[(4, 2)],
                main={"tank": (2, 2)})
    s = roll(s.apply("stunt:ta-s1a@c4l2"), 0)
    s = roll(s.apply("stunt:ta-s1a@c4l2"), 2)
    assert piece_at(s, 4, 2).kind == WRECK


def test_enemies_favour_the_active_player_vehicle() -> None:
    """FAQ Enemy Effects 1: where an Enemy Peg moves or which vehicle an SUV slams favours the Active
    Player Vehicle."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (4, 2), 1: (4, 4)}, suvs=[(5, 3)], pegs=[(5, 3)],
                main={"tank": (12, 1)})
    s = enemy_die(s, "peg")
    assert piece_at(s, 4, 2).enemy_peg and not piece_at(s, 4, 4).enemy_peg
    s = end_round(s)
    assert piece_at(s, 4, 2).enemy_peg


def test_the_team_picks_where_an_enemy_peg_goes_when_the_active_vehicle_is_not_an_option() -> None:
    """FAQ Enemy Effects 1: with several Player Vehicles to move to and the Active one not among them,
    the team decides (here the Active Player, for the team)."""
    s = arrange(new(players=3, characters="dom,brian,letty"), vehicles={0: (1, 1), 1: (4, 2), 2: (4, 4)},
                suvs=[(5, 3)], pegs=[(5, 3)], main={"tank": (12, 1)})
    s = enemy_die(s, "peg")
    assert s.stage is Stage.CHOICE and s.actor == 0 and s.legal_actions() == ["peg:c4l2", "peg:c4l4"]
    s = s.apply("peg:c4l4")
    assert piece_at(s, 4, 4).enemy_peg and not piece_at(s, 5, 3).enemy_peg and not piece_at(s, 4, 2).enemy_peg
