"""Take Two Actions: every action and its worked example (rules/highway-heist.txt, pages 11-15)."""

from __future__ import annotations

import pytest

from slipstream.engine.errors import IllegalActionError
from slipstream.games.highway_heist import rules
from slipstream.games.highway_heist.types import ABANDONED, ATHLETICS, HIJACKED, SPEED, SUV, TANK, WRECK, Stage

from .helpers import arrange, enemy_die, index_at, new, no_assist, piece_at, roll, sp

HAN_DRIFTER = {"characters": "han,dom", "vehicles": "street-drifter,exotic-supercar"}
BRIAN_EXOTIC = {"characters": "brian,dom", "vehicles": "exotic-supercar,street-drifter"}


def test_skill_ratings_example() -> None:
    """Skill Categories and Ratings, EXAMPLE: Brian with the Exotic Supercar has Speed 4, Control 3,
    Athletics 3 and Defense 2 (Character and Vehicle Board icons combined)."""
    s = new(**BRIAN_EXOTIC)
    assert [rules.rating(s, 0, k) for k in range(4)] == [4, 3, 3, 2]
    assert s.view(0)["seats"][0]["ratings"] == {"speed": 4, "control": 3, "athletics": 3, "defense": 2}


def test_without_a_vehicle_only_the_character_board_counts() -> None:
    """Skill Categories, NOTE: with no Player Vehicle, Ratings come from the Character Board alone."""
    s = new(**BRIAN_EXOTIC)
    s = s.copy()
    s.vehicle = (-1, s.vehicle[1])
    s.board = (-1, s.board[1])
    assert [rules.rating(s, 0, k) for k in range(4)] == [2, 2, 2, 1]


def test_drive_example_up_to_speed_spaces() -> None:
    """Drive, EXAMPLE: Speed 4 moves the Street Drifter up to four spaces (here three), in any
    directions, never ending on a vehicle or Wreck."""
    s = arrange(new(**HAN_DRIFTER), vehicles={0: (2, 3), 1: (1, 6)}, suvs=[(3, 3)], wrecks=[(3, 2)],
                main={"tank": (12, 1)})
    assert rules.rating(s, 0, SPEED) == 4
    legal = s.legal_actions()
    assert "drive:c6l3" in legal and "drive:c6l6" in legal   # four spaces, diagonals included
    assert "drive:c7l3" not in legal                        # five
    assert "drive:c3l3" not in legal and "drive:c3l2" not in legal   # occupied
    after = s.apply("drive:c5l3")
    assert piece_at(after, 5, 3).owner == 0
    assert after.actions_left == 1


def test_drive_never_passes_through_a_vehicle() -> None:
    """Drive: you may not Drive through a space occupied by a vehicle or Wreck (a car without Drift)."""
    s = arrange(new(characters="dom,han", vehicles="import-racer,exotic-supercar"),
                vehicles={0: (1, 3), 1: (9, 6)}, suvs=[(2, 1), (2, 2), (2, 3), (2, 4), (2, 5)],
                wrecks=[(2, 6)], main={"tank": (12, 1)})
    assert not [a for a in s.legal_actions() if a.startswith("drive:c3")]


def test_drive_needs_the_vehicle_manned() -> None:
    """Drive moves your *manned* Player Vehicle: on foot, no Drive, Ram, Force or Shake."""
    s = arrange(new(**HAN_DRIFTER), vehicles={0: (2, 3), 1: (4, 3)}, suvs=[(2, 4)], on_top={0: (4, 3)})
    legal = s.legal_actions()
    assert not [a for a in legal if a.split(":")[0] in ("drive", "ram", "force", "shake")]


def test_street_drifter_drifts_through_one_vehicle() -> None:
    """Street Drifter's Drift (HH-G8): a Drive may pass through one occupied space, never end on it."""
    s = arrange(new(characters="dom,han", vehicles="street-drifter,exotic-supercar"),
                vehicles={0: (1, 3), 1: (9, 6)}, suvs=[(2, 1), (2, 2), (2, 3), (2, 4), (2, 5)],
                wrecks=[(2, 6), (4, 3)], main={"tank": (12, 1)})
    legal = s.legal_actions()
    assert "drive:c3l3" in legal and "drive:c5l3" in legal     # through (2,3), then (4,3) needs a way round
    assert "drive:c2l3" not in legal and "drive:c4l3" not in legal


def test_leap_example_within_athletics() -> None:
    """Leap, EXAMPLE: Athletics 3 from behind the wheel reaches a vehicle within three spaces with a free
    slot, or the top of your own vehicle; not one four spaces away nor one without a free slot."""
    s = arrange(new(**BRIAN_EXOTIC), vehicles={0: (2, 3), 1: (4, 4)}, suvs=[(4, 2), (6, 3), (3, 4)],
                main={"tank": (12, 1)})
    full = index_at(s, 3, 4)
    s.peg_on = (s.peg_on[0], full)  # P2 on top of SUV C ...
    s.pieces = tuple(p._replace(enemy_peg=True) if i == full else p for i, p in enumerate(s.pieces))  # ... and a guard
    legal = [a for a in s.legal_actions() if a.startswith("leap:")]
    assert legal == ["leap:c2l3", "leap:c4l2", "leap:c4l4"]
    after = s.apply("leap:c4l2")
    assert after.peg_on[0] == index_at(after, 4, 2)
    assert not rules.manned(after, 0)


def test_leap_back_behind_the_wheel_or_on_top() -> None:
    """Leap: back to your Player Vehicle you end on top or behind the wheel; getting from the top to the
    wheel takes a Leap too."""
    s = arrange(new(**BRIAN_EXOTIC), vehicles={0: (2, 3), 1: (6, 6)}, suvs=[(3, 3)], on_top={0: (3, 3)})
    legal = s.legal_actions()
    assert "leap:wheel" in legal and "leap:c2l3" in legal
    top = s.apply("leap:c2l3")
    assert top.peg_on[0] == top.vehicle[0] and not rules.manned(top, 0)
    assert "leap:wheel" in top.legal_actions()
    assert rules.manned(top.apply("leap:wheel"), 0)


def test_han_leaps_only_within_his_athletics() -> None:
    """Leap, EXAMPLE, with the Player 1 the content derives for it (Han with the Street Drifter,
    Athletics 3): Enemy SUV B four spaces away is out of reach, so Parkour adds no Leap range (HH-G6)."""
    s = arrange(new(**HAN_DRIFTER), vehicles={0: (1, 3), 1: (8, 6)}, suvs=[(5, 3), (4, 2)],
                main={"tank": (12, 1)})
    assert rules.rating(s, 0, ATHLETICS) == 3
    leaps = [a for a in s.legal_actions() if a.startswith("leap:")]
    assert "leap:c5l3" not in leaps
    assert "leap:c4l2" in leaps


def test_ram_example_the_enemy_peg_has_nowhere_to_go() -> None:
    """Ram Enemy SUV, EXAMPLE: the adjacent SUV becomes a Wreck; its Enemy Peg cannot move to the Street
    Drifter (it already carries one), so it returns to the supply. Skill Rolls, EXAMPLE: Speed 4, four
    successes against the 3 required."""
    s = arrange(new(**HAN_DRIFTER), vehicles={0: (3, 3), 1: (9, 6)}, suvs=[(4, 3)], pegs=[(4, 3), (3, 3)],
                main={"tank": (12, 1)})
    supply = s.enemy_pegs_in_supply()
    s = s.apply("ram:c4l3")
    assert s.stage is Stage.ASSIST and s.roll is not None and s.roll.dice == 4 and s.roll.need == 3
    s = roll(s, 4)
    assert piece_at(s, 4, 3).kind == WRECK
    assert piece_at(s, 3, 3).enemy_peg
    assert s.enemy_pegs_in_supply() == supply + 1
    assert piece_at(s, 3, 3).space == sp(3, 3)   # the rammer does not move


def test_a_failed_roll_still_takes_the_action() -> None:
    """Skill Rolls: a failed roll took one of your actions, and nothing happens."""
    s = arrange(new(**HAN_DRIFTER), vehicles={0: (3, 3), 1: (9, 6)}, suvs=[(4, 3)], main={"tank": (12, 1)})
    s = roll(s.apply("ram:c4l3"), 2)
    assert piece_at(s, 4, 3).kind == SUV
    assert s.stage is Stage.ACTION and s.actions_left == 1
    s = roll(s.apply("ram:c4l3"), 3)
    assert piece_at(s, 4, 3).kind == WRECK
    assert s.stage is Stage.ENEMY_DIE


def test_american_muscle_rams_with_one_success_less() -> None:
    """American Muscle's Battering Ram (HH-G8): Ram needs 2 successes."""
    s = arrange(new(characters="dom,han", vehicles="american-muscle,exotic-supercar"),
                vehicles={0: (3, 3), 1: (9, 6)}, suvs=[(4, 3)], main={"tank": (12, 1)})
    s = s.apply("ram:c4l3")
    assert s.roll is not None and s.roll.need == 2


def test_force_example_one_stay_to_ram_next() -> None:
    """Force, EXAMPLE #1: Player 1 Forces Enemy SUV C two spaces so it ends directly in front of the Tank,
    and chooses not to move the Street Drifter into the vacated space so they can attempt to Ram SUV C
    with their next action: from the vacated space SUV C would be out of reach; staying, the Ram is
    there, and it succeeds."""
    s = arrange(new(**HAN_DRIFTER), vehicles={0: (11, 4), 1: (1, 1)}, suvs=[(11, 5)], main={"tank": (9, 3)})
    s = roll(s.apply("force:c11l5"), 3)
    assert s.stage is Stage.CHOICE
    assert "to:c10l3" in s.legal_actions() and "to:c9l5" in s.legal_actions()   # up to two spaces ...
    assert "to:c8l5" not in s.legal_actions()                                    # ... never three
    s = s.apply("to:c10l3")                   # directly in front of (East of) the Tank
    assert s.legal_actions() == ["follow", "stay"]
    followed = s.apply("follow")
    assert piece_at(followed, 11, 5).owner == 0 and "ram:c10l3" not in followed.legal_actions()
    s = s.apply("stay")
    assert piece_at(s, 10, 3).kind == SUV and piece_at(s, 11, 4).owner == 0
    assert s.stage is Stage.ACTION and s.actions_left == 1 and "ram:c10l3" in s.legal_actions()
    s = roll(s.apply("ram:c10l3"), 3)
    assert piece_at(s, 10, 3).kind == WRECK and piece_at(s, 9, 3).kind == TANK


def test_force_example_two_push_a_team_mate_and_follow() -> None:
    """Force, EXAMPLE #2: Player 1 Forces the Exotic Supercar two spaces so it ends in front of Enemy SUV
    A, for Player 2 to Ram that SUV at the start of their turn, and moves the Street Drifter into the
    vacated space to attempt to Ram Enemy SUV B with the next action (B is out of reach from where the
    Drifter was). Both Rams follow, as the example says."""
    s = arrange(new(characters="han,brian", vehicles="street-drifter,exotic-supercar"),
                vehicles={0: (4, 3), 1: (5, 3)}, suvs=[(5, 5), (6, 2)], main={"tank": (12, 1)})
    assert "ram:c6l2" not in s.legal_actions()          # SUV B: two spaces from the Drifter
    s = roll(s.apply("force:c5l3"), 3)
    s = s.apply("to:c6l5")                              # two spaces: directly in front of (East of) SUV A
    assert s.legal_actions() == ["follow", "stay"]
    s = s.apply("follow")
    assert piece_at(s, 6, 5).owner == 1 and piece_at(s, 5, 3).owner == 0
    assert "ram:c6l2" in s.legal_actions() and "ram:c5l5" not in s.legal_actions()
    s = roll(s.apply("ram:c6l2"), 3)                    # Player 1 Rams SUV B
    assert piece_at(s, 6, 2).kind == WRECK
    s = enemy_die(s, "peg").apply("1:play")             # no Enemy Peg: nothing happens; Player 2's turn
    assert "ram:c5l5" in s.legal_actions()
    s = roll(s.apply("ram:c5l5"), 3)                    # Player 2 Rams SUV A
    assert piece_at(s, 5, 5).kind == WRECK


def test_force_cannot_move_a_wreck() -> None:
    """Force, NOTE: you may not use a Force action to move a Wreck."""
    s = arrange(new(**BRIAN_EXOTIC), vehicles={0: (4, 3), 1: (1, 1)}, wrecks=[(5, 3)], main={"tank": (12, 1)})
    assert "force:c5l3" not in s.legal_actions()


def test_import_racer_nudges_three_spaces() -> None:
    """Import Racer's Nudge (HH-G8): Force moves its target up to three spaces."""
    s = arrange(new(characters="dom,han", vehicles="import-racer,exotic-supercar"),
                vehicles={0: (4, 3), 1: (1, 1)}, suvs=[(5, 3)], main={"tank": (12, 1)})
    s = roll(s.apply("force:c5l3"), 3)
    assert "to:c8l3" in s.legal_actions()


def test_shake_example() -> None:
    """Shake, EXAMPLE: the Enemy Peg on top of the manned Street Drifter returns to the supply; the
    Player Peg on top does not move."""
    s = arrange(new(characters="dom,brian", vehicles="street-drifter,exotic-supercar"),
                vehicles={0: (4, 3), 1: (6, 6)}, pegs=[(4, 3)], on_top={1: (4, 3)}, main={"tank": (12, 1)})
    s = s.apply("shake")
    assert s.roll is not None and s.roll.need == 2 and s.roll.dice == 4   # Control: Dom 2 + Drifter 2
    s = roll(s, 2)
    assert not piece_at(s, 4, 3).enemy_peg
    assert s.peg_on[1] == index_at(s, 4, 3)


def test_brawl_example() -> None:
    """Brawl, EXAMPLE: on foot, the Enemy Peg on the vehicle with your peg returns to the supply; your
    peg does not move."""
    s = arrange(new(**BRIAN_EXOTIC), vehicles={0: (4, 3), 1: (6, 6)}, suvs=[(5, 3)], pegs=[(5, 3)],
                on_top={0: (5, 3)}, main={"tank": (12, 1)})
    s = roll(s.apply("brawl"), 2)
    assert not piece_at(s, 5, 3).enemy_peg and s.peg_on[0] == index_at(s, 5, 3)


def test_hijack_an_enemy_suv() -> None:
    """Hijack Enemy SUV: the SUV you are on becomes your Player Vehicle (Hijacked SUV board, cube at the
    top, behind the wheel); your starting vehicle is abandoned for good; other pegs stay."""
    s = arrange(new(**BRIAN_EXOTIC), vehicles={0: (4, 3), 1: (6, 6)}, suvs=[(5, 3)], pegs=[(5, 3)],
                on_top={0: (5, 3)}, main={"tank": (12, 1)})
    s = s.copy()
    s.damage = (2, 0)
    s = roll(s.apply("hijack"), 2)
    assert piece_at(s, 5, 3).kind == HIJACKED and piece_at(s, 5, 3).owner == 0
    assert piece_at(s, 5, 3).enemy_peg
    assert piece_at(s, 4, 3).kind == ABANDONED
    assert s.damage[0] == 0 and rules.manned(s, 0)
    assert s.view(0)["seats"][0]["vehicle"] == "hijacked-suv"
    assert [rules.rating(s, 0, k) for k in range(4)] == [3, 3, 2, 2]


def test_a_second_hijack_hands_the_first_suv_back_to_the_enemy() -> None:
    """Hijack: a previous Player Vehicle that was an Enemy SUV becomes an Enemy SUV again."""
    s = arrange(new(**BRIAN_EXOTIC), vehicles={0: (4, 3), 1: (6, 6)}, suvs=[(5, 3), (7, 3)],
                on_top={0: (5, 3)}, main={"tank": (12, 1)})
    s = roll(s.apply("hijack"), 2)
    s = s.apply("leap:c7l3").copy()
    s.stage, s.actions_left = Stage.ACTION, 1   # the same player's next turn, for short
    s = roll(s.apply("hijack"), 2)
    assert piece_at(s, 5, 3).kind == SUV and piece_at(s, 5, 3).owner == -1
    assert piece_at(s, 7, 3).kind == HIJACKED


def test_take_boost_token_is_the_last_action() -> None:
    """Take Boost Token: only as the last action; then the Enemy Die. Cap 3 (Roman 5)."""
    s = new(characters="roman,dom")
    s = s.apply("take-boost")
    assert s.boost[0] == 3 and s.stage is Stage.ENEMY_DIE
    s = new(characters="dom,roman")
    s = s.copy()
    s.boost = (3, 2)
    assert "take-boost" not in s.legal_actions()
    assert s.g.boost_caps == (3, 5)


def test_two_actions_then_the_enemy_die() -> None:
    """On Your Turn: up to two actions, then roll the Enemy Die; an illegal action changes nothing."""
    s = arrange(new(**HAN_DRIFTER), vehicles={0: (2, 3), 1: (1, 6)}, main={"tank": (12, 1)})
    s = s.apply("drive:c3l3").apply("drive:c4l3")
    assert s.stage is Stage.ENEMY_DIE and s.is_chance
    with pytest.raises(IllegalActionError):
        s.apply("drive:c5l3")


def test_brian_rerolls_one_die_of_a_speed_or_control_roll() -> None:
    """Brian's Wheelman (HH-G6): after his Speed or Control roll, before Boosting, he may reroll one die
    once per turn; the new face stands."""
    s = arrange(new(**BRIAN_EXOTIC), vehicles={0: (3, 3), 1: (9, 6)}, suvs=[(4, 3)], main={"tank": (12, 1)})
    s = roll(s.apply("ram:c4l3"), 1, 1, keep=False)      # 1 + Exotic's 1 = 2 of 3
    assert s.stage is Stage.POWER and s.actor == 0
    assert s.legal_actions() == ["pass", "reroll:blank", "reroll:boost"]
    s = s.apply("reroll:blank")
    assert s.stage is Stage.REROLL and s.chance_outcomes() == [("effort:0s0b1x", 2 / 6), ("effort:0s1b0x", 1 / 6),
                                                               ("effort:1s0b0x", 3 / 6)]
    s = s.apply("effort:1s0b0x")
    assert piece_at(s, 4, 3).kind == WRECK and s.wheelman_used


def test_tej_turns_a_blank_into_a_success_on_any_roll() -> None:
    """Tej's Tech Support (HH-G6): three Tej tokens; after any player's roll (Defense too, and while
    Exhausted) one token turns a blank die into a success."""
    s = arrange(new(characters="han,tej", vehicles="street-drifter,exotic-supercar"),
                vehicles={0: (3, 3), 1: (9, 6)}, suvs=[(4, 3)], main={"tank": (12, 1)})
    assert s.tej_tokens == 3
    s = no_assist(s.apply("ram:c4l3")).apply("effort:2s0b2x")
    assert s.stage is Stage.POWER and s.actor == frozenset({1})
    s = s.apply("1:tech")
    assert piece_at(s, 4, 3).kind == WRECK and s.tej_tokens == 2


def test_dom_takes_the_slam_for_an_adjacent_team_mate() -> None:
    """Dom's Family First (HH-G6): once per round, even when Exhausted, a manned Dom next to a slammed
    team mate takes the slam and the Defense roll instead."""
    s = arrange(new(characters="brian,dom", vehicles="exotic-supercar,american-muscle"),
                vehicles={0: (5, 3), 1: (5, 4)}, suvs=[(6, 2)], main={"tank": (12, 6)})
    s = enemy_die(s, "suv")
    assert s.stage is Stage.POWER and s.actor == frozenset({1})
    s = s.apply("1:take-slam")
    assert s.roll is not None and s.roll.seat == 1 and s.family_first_used == frozenset({1})


def test_han_leaps_free_after_a_brawl() -> None:
    """Han's Parkour (HH-G6): after a successful Brawl, a free Leap of one space (behind the wheel too)."""
    s = arrange(new(**HAN_DRIFTER), vehicles={0: (4, 3), 1: (6, 6)}, suvs=[(5, 3), (6, 3)], pegs=[(5, 3)],
                on_top={0: (5, 3)}, main={"tank": (12, 1)})
    s = roll(s.apply("brawl"), 2)
    assert s.stage is Stage.CHOICE and s.legal_actions() == ["leap:c4l3", "leap:c6l3", "leap:wheel", "stay"]
    s = s.apply("leap:wheel")
    assert rules.manned(s, 0) and s.actions_left == 1


def test_dom_may_take_a_slam_whose_target_the_active_player_chose() -> None:
    """Dom's Family First (HH-G6) is open for every Enemy SUV slam aimed at a team mate next to him, also
    when the SUV touches several Player Vehicles (none the Active Player's) and the Active Player picks
    the one it slams: the slam went straight to damage then, and Dom was never asked."""
    s = arrange(new(players=3, characters="brian,letty,dom",
                    vehicles="exotic-supercar,american-muscle,import-racer"),
                vehicles={0: (2, 1), 1: (5, 3), 2: (5, 4)}, suvs=[(6, 3)], main={"tank": (12, 6)})
    s = enemy_die(s, "suv")
    assert s.stage is Stage.CHOICE and s.actor == 0 and s.legal_actions() == ["slam:c5l3", "slam:c5l4"]
    s = s.apply("slam:c5l3")
    assert s.stage is Stage.POWER and s.actor == frozenset({2}), "Dom, next to Letty, may take her slam"
    s = s.apply("2:take-slam")
    assert s.roll is not None and s.roll.seat == 2 and s.family_first_used == frozenset({2})
