"""Damage and Defense, Boost and Assist, Roll the Enemy Die and Enemy Cards, with their examples
(rules/highway-heist.txt, pages 7-10 and 16-18)."""

from __future__ import annotations

import slipstream
from slipstream.games.highway_heist import effects, rules
from slipstream.games.highway_heist.content import EFFECT_FORMS, parse_line
from slipstream.games.highway_heist.types import DEFENSE, NOWHERE, OFF, SUV, TANK, WRECK, Stage

from .helpers import arrange, end_round, enemy_die, index_at, new, no_assist, piece_at, roll, sp

DOM_DRIFTER = {"characters": "dom,brian", "vehicles": "street-drifter,exotic-supercar"}


def slammed(s, seat: int = 1):  # type: ignore[no-untyped-def]
    """P2's vehicle alone is next to an Enemy SUV; P1 rolls the SUV face."""
    return enemy_die(s, "suv")


def test_manned_damage_example() -> None:
    """Damage and Defense, MANNED EXAMPLE: a slam deals 3; Defense 3 rolls three dice, 2 successes;
    the Street Drifter takes 1."""
    s = arrange(new(characters="brian,dom", vehicles="exotic-supercar,street-drifter"),
                vehicles={0: (1, 1), 1: (6, 3)}, suvs=[(7, 3)], main={"tank": (12, 6)})
    s = s.copy()
    s.active = 0
    s = enemy_die(s, "suv")
    assert s.roll is not None and s.roll.seat == 1 and s.roll.dice == 3 and s.roll.damage == 3
    s = roll(s, 2)
    assert s.damage[1] == 1


def test_unmanned_damage_example() -> None:
    """Damage and Defense, UNMANNED EXAMPLE: unmanned, only the Vehicle Board's Defense counts: one die,
    one success, the Street Drifter takes 2."""
    s = arrange(new(characters="brian,dom", vehicles="exotic-supercar,street-drifter"),
                vehicles={0: (1, 1), 1: (6, 3)}, suvs=[(7, 3), (5, 5)], on_top={1: (5, 5)}, main={"tank": (12, 6)})
    s = enemy_die(s, "suv")
    assert s.roll is not None and s.roll.seat == 1 and s.roll.dice == 1
    s = roll(s, 1)
    assert s.damage[1] == 2


def test_letty_rolls_one_more_defense_die() -> None:
    """Letty's Tough (HH-G6): +1 Effort Die on every Defense roll."""
    s = arrange(new(characters="brian,letty", vehicles="exotic-supercar,street-drifter"),
                vehicles={0: (1, 1), 1: (6, 3)}, suvs=[(7, 3)], main={"tank": (12, 6)})
    s = enemy_die(s, "suv")
    assert s.roll is not None and s.roll.dice == 4


def test_destroyed_player_vehicle_becomes_a_wreck_and_the_driver_moves_on_top() -> None:
    """Destroyed Player Vehicles: off the bottom of the board the vehicle is a Wreck, no longer a
    Player Vehicle; the driver goes on top of the nearest vehicle with a slot; Ratings come from the
    Character Board alone."""
    s = arrange(new(characters="brian,dom", vehicles="exotic-supercar,street-drifter"),
                vehicles={0: (1, 1), 1: (6, 3)}, suvs=[(7, 3)], main={"tank": (12, 6)})
    s = s.copy()
    s.damage = (0, 5)
    s = roll(enemy_die(s, "suv"), 0)
    assert piece_at(s, 6, 3).kind == WRECK
    assert s.vehicle[1] == -1 and s.peg_on[1] == index_at(s, 7, 3)
    assert rules.rating(s, 1, DEFENSE) == 2
    assert s.view(None)["seats"][1]["vehicle"] is None


def test_boost_example() -> None:
    """Boost (Yourself), EXAMPLE: Speed 4 rolls 2 successes and 2 boosts for a Ram; one token turns both
    boosts into successes: 4, enough."""
    s = arrange(new(characters="han,dom", vehicles="street-drifter,exotic-supercar"),
                vehicles={0: (3, 3), 1: (9, 6)}, suvs=[(4, 3)], main={"tank": (12, 1)})
    s = no_assist(s.apply("ram:c4l3"))
    s = s.apply("effort:2s2b0x")
    assert s.stage is Stage.BOOST and s.actor == 0
    s = s.apply("boost")
    assert piece_at(s, 4, 3).kind == WRECK and s.boost[0] == 1


def test_boosting_without_boost_faces_is_not_offered() -> None:
    """Boost: if you did not roll any boost face, Boosting has no effect (so it is not offered)."""
    s = arrange(new(characters="han,dom", vehicles="street-drifter,exotic-supercar"),
                vehicles={0: (3, 3), 1: (9, 6)}, suvs=[(4, 3)], main={"tank": (12, 1)})
    s = no_assist(s.apply("ram:c4l3")).apply("effort:2s0b2x")
    assert s.stage is Stage.ACTION


def test_assist_adds_two_dice_before_the_roll_never_above_five() -> None:
    """Assist: each token another player discards before the roll adds two dice; never more than five
    (FAQ: two team members may both Assist; you cannot Assist yourself; you may still Boost)."""
    s = arrange(new(players=3, characters="han,dom,tej", vehicles="street-drifter,exotic-supercar,import-racer"),
                vehicles={0: (3, 3), 1: (9, 6), 2: (9, 1)}, suvs=[(4, 3)], main={"tank": (12, 1)})
    s = s.apply("ram:c4l3")
    assert s.stage is Stage.ASSIST and s.actor == frozenset({1, 2})
    assert "0:assist" not in s.legal_actions()
    s = s.apply("2:assist")
    assert s.roll is not None and s.roll.dice == 5      # 4 + 2, capped at 5
    assert s.stage is Stage.ROLL and s.boost == (2, 2, 1)
    s = s.apply("effort:1s2b2x")
    assert s.stage is Stage.POWER and s.legal_actions() == ["2:pass", "2:tech"]   # Tej could help: he passes
    s = s.apply("2:pass")
    assert s.stage is Stage.BOOST
    s = s.apply("boost")
    assert piece_at(s, 4, 3).kind == WRECK


def test_assist_window_is_open_to_every_other_seat_in_any_order() -> None:
    """Assist: a decision open to several seats at once; each acts in any order and may add more tokens."""
    s = arrange(new(players=3, characters="letty,dom,tej"), vehicles={0: (3, 3), 1: (9, 6), 2: (9, 1)},
                suvs=[(4, 3)], main={"tank": (12, 1)})
    s = s.apply("ram:c4l3")     # Letty + Exotic: Speed 3
    assert s.roll is not None and s.roll.dice == 3
    s = s.apply("1:pass")
    assert s.actor == frozenset({2})
    s = s.apply("2:assist")
    assert s.roll.dice == 5 and s.stage is Stage.ROLL


def test_place_suv_example_nearest_empty_space_further_on() -> None:
    """Enemy SUVs, EXAMPLE: the spaces directly in front of the Street Drifter and the next one are taken,
    so the Enemy SUV goes three spaces in front."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (3, 3), 1: (4, 3)}, suvs=[(5, 3)], main={"tank": (12, 1)})
    s = s.copy()
    effects.run_effect(s, parse_line("place_suv in_front each_pv", EFFECT_FORMS), 0, -1, [])
    assert piece_at(s, 6, 3).kind == SUV     # in front of P1: (4,3) and (5,3) taken
    assert rules.occupancy(s).get(sp(7, 3)) is None or piece_at(s, 7, 3).kind == SUV


def test_no_enemy_suv_on_the_road_places_one_behind_each_player_vehicle() -> None:
    """Enemy SUV, IMPORTANT: with no Enemy SUV on the road, place one directly behind each Player Vehicle."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (3, 3), 1: (6, 5)}, main={"tank": (12, 1)})
    s = enemy_die(s, "suv")
    assert piece_at(s, 2, 3).kind == SUV and piece_at(s, 5, 5).kind == SUV


def test_enemy_suv_example() -> None:
    """Roll the Enemy Die, ENEMY SUV EXAMPLE: A moves diagonally toward the Active Player Vehicle; B
    moves East because the diagonal is taken; C slams P2's Exotic Supercar; D, next to both, slams the
    Active Player's Street Drifter; E slams the Street Drifter too."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (6, 2), 1: (6, 4)},
                suvs=[(3, 1), (3, 3), (5, 1), (7, 3), (7, 5)], main={"tank": (12, 6)})
    s = enemy_die(s, "suv")
    assert piece_at(s, 4, 2).kind == SUV and piece_at(s, 4, 3).kind == SUV   # A and B moved
    victims = []
    while s.roll is not None:
        victims.append(s.roll.seat)
        s = roll(s, s.roll.dice)
    assert victims == [0, 0, 1]     # E (5,1) and D (7,3) slam P1, C (7,5) slams P2
    assert s.stage is Stage.CHOOSE_TURN


def test_slam_choice_goes_to_the_team_when_the_active_vehicle_is_not_adjacent() -> None:
    """Slam: next to several Player Vehicles but not the Active one, the team decides (here the Active
    Player decides for the team)."""
    s = arrange(new(players=3, characters="dom,brian,letty"), vehicles={0: (1, 1), 1: (6, 2), 2: (6, 4)},
                suvs=[(7, 3)], main={"tank": (12, 6)})
    s = enemy_die(s, "suv")
    assert s.stage is Stage.CHOICE and s.actor == 0
    assert s.legal_actions() == ["slam:c6l2", "slam:c6l4"]
    s = s.apply("slam:c6l4")
    assert s.roll is not None and s.roll.seat == 2


def test_enemy_suvs_do_not_move_when_the_active_player_has_no_vehicle() -> None:
    """Move: if the Active Player has no Player Vehicle, Enemy SUVs don't move."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (6, 2), 1: (1, 6)}, suvs=[(3, 1)], main={"tank": (12, 6)})
    s = s.copy()
    s.pieces = tuple(p._replace(kind=WRECK) if i == s.vehicle[0] else p for i, p in enumerate(s.pieces))
    s.vehicle, s.board, s.peg_on = (-1, s.vehicle[1]), (-1, s.board[1]), (index_at(s, 3, 1), -1)
    s = enemy_die(s, "suv")
    assert piece_at(s, 3, 1).kind == SUV


def test_enemy_peg_example() -> None:
    """Roll the Enemy Die, ENEMY PEG EXAMPLE: A moves onto the Street Drifter; B does not (no room for a
    second Enemy Peg); C damages the Exotic Supercar and does not also Brawl; D Brawls P1 off its Enemy
    SUV to the SUV two spaces South (the nearest with a free slot); E does nothing. Each peg activates
    once: A, now on the Street Drifter, does not damage it in the same activation."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (5, 3), 1: (8, 3)},
                suvs=[(4, 2), (4, 4), (10, 3), (10, 5), (12, 6)],
                pegs=[(4, 2), (4, 4), (8, 3), (10, 3), (12, 6)], on_top={0: (10, 3), 1: (8, 3)},
                main={"tank": (1, 6)})
    s = enemy_die(s, "peg")
    assert piece_at(s, 5, 3).enemy_peg and not piece_at(s, 4, 2).enemy_peg     # A moved
    assert piece_at(s, 4, 4).enemy_peg                                          # B stayed
    assert s.roll is not None and s.roll.seat == 1 and s.roll.damage == 2       # C damages
    assert s.roll.dice == 1                                                     # unmanned Exotic: Defense 1
    s = roll(s, 0)
    assert s.damage == (0, 1)       # 2, less the Exotic Supercar's Thoroughbred success
    assert s.peg_on[0] == index_at(s, 10, 5)                                     # D Brawled P1 South
    assert piece_at(s, 12, 6).enemy_peg and s.stage is Stage.CHOOSE_TURN        # E nothing, no more damage


def test_wreck_sends_its_enemy_peg_to_the_active_player_vehicle() -> None:
    """Wrecks: the Enemy Peg moves to an adjacent vehicle with a slot, a Player Vehicle first, the Active
    Player Vehicle above all."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (3, 3), 1: (4, 4)}, suvs=[(4, 3), (5, 3)], pegs=[(4, 3)],
                main={"tank": (12, 1)})
    s = roll(s.apply("ram:c4l3"), 3)
    assert piece_at(s, 3, 3).enemy_peg and not piece_at(s, 4, 4).enemy_peg and not piece_at(s, 5, 3).enemy_peg


def test_enemy_card_reveal_then_activate_two_triggers_later_then_discard() -> None:
    """Enemy Cards: a drawn card's Reveal effects resolve at once; it moves right each time cards are
    resolved, its Activated effect resolves when it reaches ACTIVATE!, and it is discarded next."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (3, 3), 1: (3, 5)}, main={"tank": (9, 3)})
    s = enemy_die(s, "card")
    assert s.stage is Stage.ENEMY_CARD
    s = s.apply("enemy-card:ta-e12")          # Tank Lurches: reveal main_move east
    assert piece_at(s, 10, 3).kind == TANK and s.enemy_row == ("ta-e12", "", "")
    s = enemy_die(s.apply("1:play"), "card").apply("enemy-card:ta-e10")
    assert s.enemy_row == ("ta-e10", "ta-e12", "")


def test_enemy_card_row_moves_to_activate_and_discard() -> None:
    """Enemy Cards: the card reaching ACTIVATE! resolves its Activated effect before the new card is
    drawn; the card in ACTIVATE! goes to the discard pile on the next trigger."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (3, 3), 1: (3, 5)}, main={"tank": (9, 3)})
    s = s.copy()
    s.enemy_row = ("ta-e10", "ta-e12", "")
    s.enemy_deck = tuple(c for c in s.enemy_deck if c not in s.enemy_row)
    s = enemy_die(s, "card")
    assert piece_at(s, 8, 3).kind == TANK        # Tank Lurches, Activated: main_move west
    assert s.enemy_row == ("", "ta-e10", "ta-e12") and s.stage is Stage.ENEMY_CARD
    s = s.apply("enemy-card:ta-e01")
    assert s.enemy_row == ("ta-e01", "ta-e10", "ta-e12")
    s = enemy_die(s.apply("1:play"), "card")
    assert s.enemy_discard == ("ta-e12",) and s.enemy_row == ("", "ta-e01", "ta-e10")


def test_an_empty_enemy_deck_reshuffles_the_discard_pile() -> None:
    """Enemy Cards, NOTE: drawing from an empty deck shuffles the discard pile into a new deck."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (3, 3), 1: (3, 5)}, main={"tank": (9, 3)})
    s = s.copy()
    s.enemy_row = ("ta-e01", "ta-e02", "")
    s.enemy_discard = tuple(c for c in s.enemy_deck if c not in ("ta-e01", "ta-e02"))
    s.enemy_deck = ()
    s = enemy_die(s, "card")
    assert s.stage is Stage.ENEMY_CARD and len(s.enemy_deck) == 10 and s.enemy_discard == ()


def test_main_enemy_moves_then_enemy_card() -> None:
    """Main Enemy Moves & Enemy Card: the Tank moves one space in the direction shown, then the Enemy
    card step."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (3, 3), 1: (3, 5)}, main={"tank": (9, 3)})
    s = enemy_die(s, "main_left")
    assert piece_at(s, 9, 2).kind == TANK and s.stage is Stage.ENEMY_CARD


def test_player_pegs_example_either_player_vehicle_but_the_enemy_peg_only_to_the_exotic() -> None:
    """Core Concepts, Player Pegs and Enemy Pegs, EXAMPLE: the Enemy SUV under Player 1's peg and an Enemy
    Peg is destroyed (here a Wreck's path at End of Round, between turns, so no Active Player Vehicle is
    favoured). Player 1's peg can move to either Player Vehicle; the Enemy Peg only to the Exotic
    Supercar, because there is already an Enemy Peg on the Street Racer (HH-A6: the Street Drifter)."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (5, 2), 1: (5, 4)}, suvs=[(5, 3)], wrecks=[(7, 3)],
                pegs=[(5, 3), (5, 2)], on_top={0: (5, 3)}, main={"tank": (12, 1)})
    supply = s.enemy_pegs_in_supply()
    s = end_round(s)                          # P1's unmanned Drifter drifts to (4,2) first, still adjacent
    assert sp(5, 3) not in rules.occupancy(s) and piece_at(s, 4, 2).owner == 0
    assert s.stage is Stage.CHOICE and s.actor == 0 and s.legal_actions() == ["peg:c4l2", "peg:c5l4"]
    for choice, where in (("peg:c4l2", (4, 2)), ("peg:c5l4", (5, 4))):
        after = s.apply(choice)
        assert after.peg_on[0] == index_at(after, *where)
        assert piece_at(after, 5, 4).enemy_peg and piece_at(after, 4, 2).enemy_peg      # one each
        assert after.enemy_pegs_in_supply() == supply                                  # none returned


# --- HH-X7: a Player Peg with no vehicle to go to --------------------------------------------------


def _next_round(s):  # type: ignore[no-untyped-def]
    """End of Round from here, the next Stunt card drawn: the team chooses who plays in the new round."""
    s = end_round(s)
    while s.stage is Stage.STUNT_CARD:
        s = s.apply(s.legal_actions()[0])
    assert s.stage is Stage.CHOOSE_TURN
    return s


def test_a_driver_with_no_free_slot_anywhere_waits_off_the_road_until_their_turn() -> None:
    """Wrecks, Destroyed Player Vehicles and HH-X7: a Wreck's path removes P1's manned Street Drifter; the
    only other vehicle, P2's Exotic Supercar, has both slots taken (P2 and an Enemy Peg: Core Concepts, a
    roof holds two pegs and never the road). No player is eliminated (Damage and Defense): P1 waits off
    the road, and at the start of their next turn the peg goes on top of the nearest vehicle with an
    available slot from the space it left; with none, the turn goes on without it."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (5, 3), 1: (10, 1)}, wrecks=[(8, 3)], pegs=[(10, 1)],
                on_top={1: (10, 1)}, main={"tank": None})
    s = _next_round(s)
    assert s.vehicle[0] == -1 and s.peg_on[0] == NOWHERE and s.stranded[0] == sp(5, 3)
    assert s.view(0)["seats"][0]["peg"] is None
    waiting = s.apply("0:play")
    assert waiting.peg_on[0] == NOWHERE and waiting.stage is Stage.ACTION
    assert any(e.rule == "HH-X7" for e in waiting.events)
    assert not [a for a in waiting.legal_actions() if a.startswith(("leap", "hijack", "brawl"))]
    assert {"end-turn", "take-boost"} <= set(waiting.legal_actions())
    # two Enemy SUVs arrive, both two spaces from where the Drifter was: the player picks one
    s = arrange(s, suvs=[(7, 4), (3, 3)], strip=False)
    s = s.apply("0:play")
    assert s.stage is Stage.CHOICE and s.actor == 0 and s.legal_actions() == ["peg:c3l3", "peg:c7l4"]
    s = s.apply("peg:c7l4")
    assert s.peg_on[0] == index_at(s, 7, 4) and s.stranded[0] == OFF
    assert s.stage is Stage.ACTION and s.actions_left == 2 and "hijack" in s.legal_actions()


def test_a_brawled_peg_with_nowhere_to_go_comes_back_at_the_next_turn_never_onto_the_same_vehicle() -> None:
    """Roll the Enemy Die, Enemy Peg, Brawl, and HH-X7: the Tank's Enemy Peg Brawls P1 off the Tank; the
    only other vehicle, P1's own Street Drifter, is full (P2, who has no vehicle, and an Enemy Peg), and a
    Brawled peg never lands back on the vehicle it leaves: P1 is stranded. P2 Brawls the Drifter's Enemy
    Peg off in their turn; at P1's next turn the peg goes on top of the Drifter, not back onto the Tank
    (the nearer, with a free slot too), and P1 may Leap back behind the wheel."""
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (5, 3), 1: (1, 6)}, pegs=[(5, 3), (7, 3)],
                on_top={0: (7, 3), 1: (5, 3)}, main={"tank": (7, 3)}).copy()
    exotic = s.vehicle[1]
    s.pieces = tuple(p._replace(kind=WRECK, space=OFF) if i == exotic else p for i, p in enumerate(s.pieces))
    s.vehicle, s.board = (s.vehicle[0], -1), (s.board[0], -1)
    s = roll(enemy_die(s, "peg"), 1)          # the Drifter's Enemy Peg deals 2 (1 blocked), then the Brawl
    assert s.damage[0] == 1 and s.peg_on[0] == NOWHERE and s.stranded[0] == sp(7, 3)
    assert piece_at(s, 7, 3).enemy_peg and rules.pegs_on(s, index_at(s, 7, 3)) == 0
    s = roll(s.apply("1:play").apply("brawl"), 2)
    assert not piece_at(s, 5, 3).enemy_peg and s.peg_on[0] == NOWHERE
    s = _next_round(s).apply("0:play")        # the unmanned Drifter has drifted to (4,3)
    assert s.peg_on[0] == index_at(s, 4, 3) == s.vehicle[0] and not rules.manned(s, 0)
    assert "leap:wheel" in s.legal_actions()


def test_the_view_names_whose_roll_every_chance_step_is() -> None:
    """Issue 13: the view's ``roller`` names whose roll or draw each chance step is: nobody for the Stunt
    card drawn at Setup (nor at a choice); the Active Player for the Enemy Die ("the term Active Player
    refers to the player who rolled the Enemy Die") and the Enemy card it draws; the damaged player for
    its Defense roll (Damage and Defense: "you must attempt a Defense Skill Roll")."""
    s = slipstream.load("highway-heist", players=2).start(seed=1)
    assert s.stage is Stage.STUNT_CARD and s.view(None)["roller"] is None
    s = arrange(new(characters="brian,dom", vehicles="exotic-supercar,street-drifter"),
                vehicles={0: (1, 1), 1: (6, 3)}, suvs=[(7, 3)], main={"tank": (12, 6)})
    assert s.stage is Stage.ACTION and s.view(None)["roller"] is None
    s = s.apply("end-turn")
    assert s.stage is Stage.ENEMY_DIE and s.view(None)["roller"] == 0
    s = no_assist(s.apply("enemy-die:suv"))
    assert s.stage is Stage.ROLL and s.view(None)["roll"]["seat"] == s.view(None)["roller"] == 1
    s = arrange(new(**DOM_DRIFTER), vehicles={0: (3, 3), 1: (3, 5)}, main={"tank": (9, 3)})
    s = enemy_die(s, "card").apply("enemy-card:ta-e12").apply("1:play").apply("end-turn")
    assert s.view(None)["roller"] == 1
    s = s.apply("enemy-die:card")
    assert s.stage is Stage.ENEMY_CARD and s.view(None)["roller"] == 1
