"""Overtaking, collisions and the safety car.

Rulebook sections: "The Overtaking Trigger", "3. Challenger's Choice", the Attack Die (Pass / Overtake
failed / Collision), cars missing a turn, "When passing multiple cars", "Securing the Spot",
"Collisions" (Immediate Stop, The Penalty, Safety Car Boost, Serving the Penalty, Occupied Space Rule,
The Rejoin Move). Gap decisions F1-A4, F1-A5, F1-A6, F1-G10 in docs/rules/brc-grand-prix.md.
"""

from __future__ import annotations

from slipstream.engine.fields import replaced
from slipstream.games.brc_grand_prix import BRCState
from slipstream.games.brc_grand_prix.rules import DRS, NO_OVERTAKE, lap
from slipstream.games.brc_grand_prix.types import Counter, Stage

from .helpers import poised, started, texts

PIT = [-1, -1, 0, 0]
"""P1 and P2 on the track; P3 and P4 parked at the Pit Entry, out of the way."""


def duel(**kw: object) -> BRCState:
    """P1 (SOFT) at space 0, P2 (HARD) two spaces ahead at space 2; P1 to roll."""
    base = {"dist": [30, 32, 26, 26], "pit": PIT, "tyres": ["soft", "hard", "hard", "hard"]}
    base.update(kw)
    return poised(started(), 0, **base)  # type: ignore[arg-type]


def test_passing_a_car_triggers_the_challengers_choice() -> None:
    """The Overtaking Trigger: a move that would put you in front of a car asks: attempt or play safe."""
    s = duel().apply("die:4")
    assert s.stage == Stage.OVERTAKE and s.defender == 1
    assert s.actor == 0 and s.legal_actions() == ["attempt", "safe"]


def test_play_it_safe_stops_directly_behind() -> None:
    """Play it Safe: stop your car in the space directly behind the Defender. Your turn ends."""
    s = duel().apply("die:4").apply("safe")
    assert s.distance[:2] == [31, 32] and s.mover == 1


def test_attack_die_pass_reaches_the_destination() -> None:
    """Attempt the Overtake, Pass: move your car to its intended destination space."""
    s = duel().apply("die:4").apply("attempt")
    assert s.chance_outcomes() == [("attack:crash", 1 / 6), ("attack:fail", 2 / 6), ("attack:pass", 3 / 6)]
    s = s.apply("attack:pass")
    assert s.distance[:2] == [36, 32]


def test_attack_die_fail_stops_behind_and_loses_the_rest() -> None:
    """Overtake failed: stop in the space immediately behind the Defender and lose all remaining movement."""
    s = duel().apply("die:4").apply("attempt").apply("attack:fail")
    assert s.distance[:2] == [31, 32] and not s.off_track[0]


def test_collision_stops_both_who_miss_their_next_turn_and_the_safety_car_moves_the_rest() -> None:
    """Collisions: both cars stop and miss their next full turn; every other car moves forward 6."""
    s = duel(dist=[30, 32, 40, 50], pit=[-1, -1, -1, -1]).apply("die:4").apply("attempt")
    s = s.apply("attack:crash")
    assert s.distance == [31, 32, 46, 56]
    assert s.off_track[:2] == (True, True)
    assert "collide" in texts(s) and "safety car: P4 +6, P3 +6" in texts(s)
    assert s.turns_to_miss[:2] == (1, 0) and "P2 misses a turn" in texts(s)  # P2's next turn came this round
    assert s.counters[Counter.SAFETY_CARS] == 1  # safety_cars


def test_safety_car_never_overtakes_and_is_capped_at_the_finish_line() -> None:
    """F1-A4: the boost moves cars in race order without overtaking and never across the finish line."""
    s = duel(dist=[30, 32, 55, 57], pit=[-1, -1, -1, -1])
    s = poised(started(laps=2), 0, dist=s.distance, pit=s.pit_space, tyres=["soft", "hard", "hard", "hard"])
    s = s.apply("die:4").apply("attempt").apply("attack:crash")
    assert s.distance[2:] == [58, 59] and not s.finishing_order


def test_literal_safety_car_can_carry_cars_over_the_line() -> None:
    """F1-A4, option safety_car=literal: the full 6 spaces, which may finish a car's race."""
    s = poised(started(laps=2, safety_car="literal"), 0, dist=[30, 32, 55, 57], pit=[-1] * 4,
               tyres=["soft", "hard", "hard", "hard"])
    s = s.apply("die:4").apply("attempt").apply("attack:crash")
    assert s.finishing_order == (3, 2)


def test_safety_car_moves_the_field_at_once_a_leader_behind_a_lapped_car_gains_6() -> None:
    """Safety Car Boost: "Every other car on the track (not involved in the crash) immediately moves
    forward 6 spaces" (issue 13): the race leader P3 stands directly behind the lapped P4; both move 6,
    with either option (the lapped car is not a wall that moves only after the leader)."""
    for option in ("capped", "literal"):
        s = poised(started(safety_car=option), 0, dist=[30, 32, 45, 16], pit=[-1] * 4,
                   tyres=["soft", "hard", "hard", "hard"])
        s = s.apply("die:4").apply("attempt").apply("attack:crash")
        assert s.distance[2:] == [51, 22], option
        assert "safety car: P3 +6, P4 +6" in texts(s)


def test_a_capped_car_at_the_line_holds_up_the_car_behind_it() -> None:
    """F1-A4 (capped): the car before the line moves only to the last space before it, so the car directly
    behind it, moving at the same time, stops behind that space."""
    s = poised(started(laps=2), 0, dist=[30, 32, 56, 57], pit=[-1] * 4, tyres=["soft", "hard", "hard", "hard"])
    s = s.apply("die:4").apply("attempt").apply("attack:crash")
    assert s.distance[2:] == [58, 59] and "safety car: P4 +2, P3 +2" in texts(s)


def test_a_literal_safety_car_in_current_position_mode_has_one_winner() -> None:
    """Final Standings, Current Position: "The race ends immediately when the winner crosses the line,
    and the remaining positions are taken from the cars' current spots". A literal boost (F1-A4) carries
    P4 and P3 over the line together: P4, in front, wins; P3 is second by its spot and is not a second
    finisher. (The case `test_properties.py` found with --hypothesis-seed=2.)"""
    s = poised(started(laps=2, safety_car="literal", standings="current-position"), 0, dist=[30, 32, 55, 57],
               pit=[-1] * 4, tyres=["soft", "hard", "hard", "hard"])
    s = s.apply("die:4").apply("attempt").apply("attack:crash")
    assert s.is_over and s.finishing_order == (3,)
    assert s.result is not None and s.result.order[:2] == (3, 2) and s.distance[2] == 61


def test_cars_missing_a_turn_are_passed_freely_and_their_space_can_be_taken() -> None:
    """'You do not roll the Attack Die to pass a car that is missing a turn ... Move past them as if
    they were an empty space' (F1-G10: an off-track car leaves its space free)."""
    s = duel(off=[False, True, False, False], miss=[0, 1, 0, 0]).apply("die:4")
    assert s.distance[0] == 36 and s.stage != Stage.OVERTAKE
    s = duel(dist=[30, 36, 26, 26], off=[False, True, False, False], miss=[0, 1, 0, 0]).apply("die:4")
    assert s.distance[0] == 36


def test_several_defenders_are_resolved_one_at_a_time_from_the_closest() -> None:
    """When passing multiple cars in one turn, resolve each overtake individually, closest first."""
    s = duel(dist=[30, 32, 34, 26], pit=[-1, -1, -1, 0]).apply("die:6")  # target 38
    assert s.defender == 1
    s = s.apply("attempt").apply("attack:pass")
    assert s.stage == Stage.OVERTAKE and s.defender == 2
    s = s.apply("attempt").apply("attack:pass")
    assert s.distance[:3] == [38, 32, 34]


def test_securing_the_spot_moves_the_passed_car_back_one_space() -> None:
    """Securing the Spot: after a pass, if the very next space is occupied, the passed car moves one
    space back and you take its space; you may then challenge the next car."""
    s = duel(dist=[30, 32, 33, 26], pit=[-1, -1, -1, 0]).apply("die:4")  # target 36
    s = s.apply("attempt").apply("attack:pass")
    assert s.distance[:3] == [32, 31, 33] and "secures the spot" in texts(s)
    assert s.stage == Stage.OVERTAKE and s.defender == 2
    s = s.apply("safe")
    assert s.distance[:3] == [32, 31, 33]


def test_securing_the_spot_pushes_a_chain_back() -> None:
    """F1-A5: if the space behind the passed car is taken (a car rejoining from the pit lane passes),
    the cars behind drop back one space each."""
    s = poised(started(), 0, dist=[26, 31, 32, 33], pit=[8, -1, -1, -1], tyres=["hard"] * 4, stops=[1, 0, 0, 0])
    s = s.apply("die:3")  # leaves the pit lane: rejoins at space 2 with two more spaces to go (to space 4)
    assert s.defender == 2
    s = s.apply("attempt").apply("attack:pass")
    assert s.distance == [32, 30, 31, 33]
    assert s.stage == Stage.OVERTAKE and s.defender == 3  # one space left: P4 on space 3 is next


def test_landing_on_a_car_with_the_space_behind_taken_stops_in_the_first_free_space() -> None:
    """Occupying Spaces: "If your final movement count lands you exactly on an occupied space, you must
    stop in the unoccupied space immediately behind them" (issue 13, F1-X1): P1's 6 ends on P3's space 6; the
    space behind, 5, holds P2, so P1 stops on space 4, the first free space behind, and is not offered
    an overtake of P2."""
    s = duel(dist=[30, 35, 36, 26], pit=[-1, -1, -1, 0]).apply("die:4")  # SOFT 4: 6 spaces, onto space 6
    assert s.distance[:3] == [34, 35, 36] and s.stage == Stage.ROLL and s.mover != 0
    assert "P1 would land on P3: stops in the first free space behind" in texts(s)
    s = duel(dist=[30, 34, 35, 36], pit=[-1] * 4).apply("die:4")  # a queue of three from space 4 to 6
    assert s.distance == [33, 34, 35, 36] and s.stage == Stage.FLAG  # space 3 is a blue flag


def test_occupied_rejoin_space_costs_another_turn() -> None:
    """Occupied Space Rule: if the space you are about to rejoin is occupied at the start of your turn,
    you miss an additional turn, until it clears; then you roll as normal (The Rejoin Move)."""
    s = duel(dist=[30, 36, 26, 26], off=[False, True, False, False]).apply("die:4")
    assert s.distance[0] == 36
    assert "cannot rejoin" in texts(s) and s.off_track[1]
    s = poised(s, 0)
    s = s.apply("die:2")  # P1 moves on to space 10
    assert "P2 rejoins the track" in texts(s) and s.mover == 1 and not s.off_track[1]


def test_drs_card_passes_without_the_attack_die() -> None:
    """BRC flag card DRS (F1-G5): the next overtake attempt passes automatically."""
    s = duel()
    s.perks = replaced(s.perks, 0, DRS)
    s = s.apply("die:4").apply("attempt")
    assert s.distance[0] == 36 and s.perks[0] == 0


def test_no_overtake_card_stops_behind() -> None:
    """BRC flag card no-overtake (F1-G5): on the next turn the car may not attempt an overtake."""
    s = duel()
    s.perks = replaced(s.perks, 0, NO_OVERTAKE)
    s = s.apply("die:4")
    assert s.distance[0] == 31 and s.perks[0] == 0


def test_a_failed_second_overtake_keeps_the_first_pass() -> None:
    """When passing multiple cars, each overtake is resolved individually: a pass of the first car then a
    failed attempt on the second stops directly behind the second (Overtake failed)."""
    s = duel(dist=[30, 32, 35, 26], pit=[-1, -1, -1, 0]).apply("die:6")  # target 38
    s = s.apply("attempt").apply("attack:pass")
    assert s.defender == 2
    s = s.apply("attempt").apply("attack:fail")
    assert s.distance[:3] == [34, 32, 35] and s.mover != 0


def test_a_collision_on_the_second_defender_after_a_pass() -> None:
    """Collision during a multi-car move: Immediate Stop behind the second defender, both out of action;
    the car passed first is "not involved in the crash" and gets the full safety-car boost (the two
    crashed cars, off track, are empty spaces to it)."""
    s = duel(dist=[30, 32, 35, 26], pit=[-1, -1, -1, 0]).apply("die:6")
    s = s.apply("attempt").apply("attack:pass").apply("attempt").apply("attack:crash")
    assert s.distance[:3] == [34, 38, 35] and s.off_track[:3] == (True, False, True)
    assert "safety car: P2 +6" in texts(s)


def test_a_lock_up_that_ends_in_a_collision_costs_one_missed_turn() -> None:
    """The Lock-up and The Penalty (docs: one missed turn, not two, when a lock-up move collides)."""
    s = duel().apply("die:1")  # SOFT 1: 3 spaces, past P2 on space 2
    assert s.stage == Stage.OVERTAKE
    s = s.apply("attempt").apply("attack:crash")
    assert s.distance[:2] == [31, 32] and s.off_track[:2] == (True, True) and s.turns_to_miss[0] == 1


def test_safety_car_moves_only_cars_in_action_on_the_main_track() -> None:
    """Safety Car Boost (F1-A4): a car in the pit lane and a car off track stay where they are; a boosted
    car takes no flag and no pit entry, and its laps count."""
    s = duel(dist=[30, 32, 56, 41], pit=[-1, -1, 3, -1])  # P3 on P3 in the pit lane; P4 on space 11
    s = s.apply("die:4").apply("attempt").apply("attack:crash")
    assert s.pit_space[2] == 3 and s.distance[2] == 56
    assert s.distance[3] == 47 and s.stage == Stage.ROLL  # space 17 is green: no card drawn
    s = duel(dist=[30, 32, 56, 41], pit=[-1, -1, 3, -1], off=[False, False, False, True], miss=[0, 0, 0, 1])
    s = s.apply("die:4").apply("attempt").apply("attack:crash")
    assert s.distance[3] == 41 and "no car can move" in texts(s)
    s = duel(dist=[30, 32, 26, 52], pit=[-1, -1, 0, -1])  # P4 on space 22 (lap 2): 6 passes the entry
    s = s.apply("die:4").apply("attempt").apply("attack:crash")
    assert s.pit_space[3] == -1 and s.distance[3] == 58 and lap(s, 3) == 2
    s = duel(dist=[30, 32, 26, 87], pit=[-1, -1, 0, -1])  # P4 on space 27 of lap 3: over the line
    s = s.apply("die:4").apply("attempt").apply("attack:crash")
    assert s.distance[3] == 93 and lap(s, 3) == 4


def test_occupied_space_rule_repeats_until_the_space_is_clear() -> None:
    """Occupied Space Rule: "If the space you are about to rejoin is occupied by another car at the start
    of your turn, you miss an additional turn. You must continue to miss turns until the space becomes
    clear." The Rejoin Move: then the car rolls as normal."""
    s = poised(started(players=2), 1, dist=[36, 30], tyres=["hard"] * 2, off=[True, False], order=[1, 0])
    s = s.apply("die:6")  # P2 lands on P1's space 6 (P1 is off track: an empty space)
    assert s.distance[1] == 36 and s.mover == 1
    assert texts(s).count("P1 cannot rejoin: P2 is on its space; misses another turn") == 2  # two rounds
    s = s.apply("die:1")  # P2 moves on to space 7; the new round starts with P2, the leader
    assert s.mover == 1 and s.off_track[0]
    s = s.apply("die:1")
    assert "P1 rejoins the track" in texts(s) and s.mover == 0 and not s.off_track[0]
    assert s.apply("die:1").distance[0] == 37  # P2 is on 38


def test_safety_car_stops_a_car_exactly_six_from_the_line_before_it() -> None:
    """F1-A4 (capped): a car exactly 6 spaces before the finish line moves 5, to the last space before it."""
    s = poised(started(laps=2), 0, dist=[30, 32, 26, 54], pit=[-1, -1, 0, -1],
               tyres=["soft", "hard", "hard", "hard"])
    s = s.apply("die:4").apply("attempt").apply("attack:crash")
    assert s.distance[3] == 59 and not s.finishing_order


def test_the_occupied_space_rule_applies_after_a_lock_up() -> None:
    """Occupied Space Rule after a lock-up (F1-A14): P1 locks up on space 7; P2 stops on that space
    (off-track cars are empty) and is still there when P1's turn comes after its missed one, so P1
    misses another turn."""
    s = poised(started(players=2), 0, dist=[34, 33], tyres=["soft", "wet"], order=[0, 1])
    s = s.apply("die:1")  # P1: SOFT 1 on DRY, 3 spaces to 37, off track
    assert s.off_track[0] and s.mover == 1
    s = s.apply("die:6")  # P2: WET on DRY, 6 - 2 = 4, onto space 7
    assert s.distance[1] == 37 and "P1 misses a turn" in texts(s) and s.mover == 1
    s = s.apply("die:2")  # P2: 2 - 2 = 0, stays on space 7
    assert "P1 cannot rejoin: P2 is on its space" in texts(s) and s.off_track[0]


def test_a_safety_car_boost_out_of_the_window_gets_the_stop_go() -> None:
    """F1-A4 (laps count for a boosted car) with F1-G9 stop-go: an unpitted car carried from lap 7 into
    lap 8 by the safety car gets the stop-go: off the track, 2 missed turns."""
    s = poised(started(pit_penalty="stop-go"), 0, dist=[30, 32, 26, 207], pit=[-1, -1, 0, -1],
               tyres=["soft", "hard", "hard", "hard"])
    s = s.apply("die:4").apply("attempt").apply("attack:crash")
    assert s.distance[3] == 213 and s.penalised[3] == 1 and s.off_track[3] and s.turns_to_miss[3] == 2
    assert "stop-go" in texts(s)
