"""The pit lane: the mandatory window, pit entry, pit-lane movement, the pit stop, the pit exit and the
Weather Change space.

Rulebook sections: "1. The Mandatory Pit Window", "The Commitment (Pit Entry)", "Movement Rules",
"The Pit Lane Exception", "Overtaking" (in the pits), "The Pit Stop", "Single Change Rule", "Pit Exit
(Rejoining)" and its example, the Weather Change space. Gap decisions F1-G3, F1-G9, F1-A7, F1-A8,
F1-A15 in docs/rules/brc-grand-prix.md.
"""

from __future__ import annotations

from slipstream.engine.fields import replaced
from slipstream.games.brc_grand_prix import BRCState
from slipstream.games.brc_grand_prix.rules import NO_OVERTAKE, lap
from slipstream.games.brc_grand_prix.types import Stage

from .helpers import poised, started, texts

OTHERS = [70, 71, 76]
"""Three cars on spaces 10, 11 and 16, out of the way of the pit lane and its exit."""


def p1(dist: int, pit: int = -1, tyre: str = "soft", **kw: object) -> BRCState:
    """P1 (pit box P2) at ``dist`` (or in the pit lane at ``pit`` with Pit Entry distance ``dist``)."""
    state = kw.pop("state", None) or started()
    return poised(state, 0, dist=[dist, *OTHERS], pit=[pit, -1, -1, -1],  # type: ignore[arg-type]
                  tyres=[tyre, "hard", "hard", "hard"], **kw)


def test_a_move_reaching_the_pit_entry_may_enter_and_ends_there() -> None:
    """The Commitment (Pit Entry): move onto the Pit Entry space; your movement ends immediately."""
    s = p1(50).apply("die:6")  # space 20 + 8 passes the entry after space 25
    assert s.stage == Stage.PIT_CHOICE and s.legal_actions() == ["pit", "stay"]
    entered = s.apply("pit")
    assert entered.pit_space[0] == 0 and entered.distance[0] == 56
    assert "enters the pit lane on lap 2" in texts(entered)
    assert entered.window_stops[0] == 0  # the stop counts once the car passes its box
    stayed = s.apply("stay")
    assert stayed.pit_space[0] == -1 and stayed.distance[0] == 58


def test_a_stop_on_lap_1_does_not_count_for_the_window() -> None:
    """The Mandatory Pit Window: at least one stop between the start of lap 2 and the end of lap 7.
    P1's box (P2) is before the line, so a lap-1 entry passes it on lap 1."""
    s = p1(20).apply("die:6").apply("pit")
    assert s.pit_space[0] == 0 and s.window_stops[0] == 0
    s = p1(26, pit=0).apply("die:2")
    assert s.stage == Stage.PIT_BOX
    s = s.apply("tyre:keep")
    assert s.pit_space[0] == 2 and s.window_stops[0] == 0 and "counts for the pit window" not in texts(s)


def p4_in_the_pit_lane(entry: int, **kw: object) -> BRCState:
    """P4 (pit box P5, after the line that crosses the pit lane between P4 and P5) on the Pit Entry it took
    at main-track distance ``entry``, about to roll."""
    state = kw.pop("state", None) or started()
    return poised(state, 3, dist=[70, 71, 76, entry], pit=[-1, -1, -1, 0],  # type: ignore[arg-type]
                  tyres=["hard"] * 4, **kw)


def test_the_window_counts_the_lap_the_car_passes_its_box_a_lap_1_entry() -> None:
    """The Mandatory Pit Window: "complete at least one pit stop between the start of Lap 2 and the end
    of Lap 7"; The Action: "enter the Pit Lane and pass your designated Pit Box" (issue 13: the lap
    counted is the lap the car passes its box). P4 enters on lap 1; its box P5 is past the line, so the
    stop is completed on lap 2 and counts."""
    s = p4_in_the_pit_lane(26).apply("die:5")
    assert s.stage == Stage.PIT_BOX and lap(s, 3) == 1
    s = s.apply("tyre:keep")
    assert s.pit_space[3] == 5 and lap(s, 3) == 2 and s.window_stops[3] == 1
    assert "P4's pit stop on lap 2 counts for the pit window" in texts(s)


def test_the_window_counts_the_lap_the_car_passes_its_box_a_lap_7_entry() -> None:
    """The Mandatory Pit Window (issue 13): P4 enters on lap 7 and passes its box P5 on lap 8, after the
    window: the stop does not count, and being the first stop it is the drive-through penalty (F1-G9)."""
    s = p4_in_the_pit_lane(206).apply("die:5").apply("tyre:keep")
    assert s.window_stops[3] == 0 and s.penalised[3]
    assert "P4's pit stop on lap 8 is after the window: a drive-through penalty" in texts(s)
    s = p4_in_the_pit_lane(176).apply("die:5").apply("tyre:keep")  # lap 6 entry, box on lap 7: counts
    assert s.window_stops[3] == 1 and not s.penalised[3]


def test_a_lap_7_entry_whose_box_is_past_the_line_takes_the_penalty_of_each_mode() -> None:
    """The Mandatory Pit Window and F1-G9: P4 (seat 3) enters on lap 7 and its move passes the line (between
    P4 and P5) and then its box P5, so the stop is completed on lap 8, outside the window. By default
    (``pit_penalty=drive-through``) that late stop is the logged drive-through penalty and costs no turn;
    with ``stop-go``, crossing into lap 8 without a completed stop costs 2 missed turns (Serving the
    Penalty), in the pit lane too, and there is no drive-through (it used to be logged as one, and the
    stop-go then did nothing)."""
    drive = p4_in_the_pit_lane(206).apply("die:5").apply("tyre:keep")
    assert drive.penalised[3] and drive.turns_to_miss[3] == 0
    assert "drive-through" in texts(drive) and "stop-go" not in texts(drive)
    stop_go = p4_in_the_pit_lane(206, state=started(pit_penalty="stop-go")).apply("die:5")
    assert stop_go.stage == Stage.PIT_BOX
    stop_go = stop_go.apply("tyre:keep")
    assert stop_go.pit_space[3] == 5 and lap(stop_go, 3) == 8 and stop_go.window_stops[3] == 0
    assert stop_go.penalised[3] and stop_go.turns_to_miss[3] == 2 and not stop_go.off_track[3]
    assert "P4 missed the pit window: stop-go, misses 2 turns" in texts(stop_go)
    assert "drive-through" not in texts(stop_go)


def test_grid_cars_cannot_enter_before_crossing_the_line() -> None:
    """F1-G2/F1-A7: a car still behind the start line (on the grid) cannot take the pit entry."""
    s = p1(-6).apply("die:6")
    assert s.stage == Stage.ROLL and s.distance[0] == 2


def test_pit_lane_movement_is_one_unmodified_d6_and_the_box_offers_one_tyre_change() -> None:
    """Movement Rules: a single d6, no tyre or weather modifiers. The Pit Stop: passing your Pit Box you
    may change tyres (SOFT/HARD flip, or WET); Single Change Rule: one change per entry."""
    s = p1(56, pit=0).apply("die:3")  # SOFT on DRY would be +2; in the pit lane it is not
    assert s.stage == Stage.PIT_BOX and s.legal_actions() == ["tyre:hard", "tyre:keep", "tyre:wet"]
    s = s.apply("tyre:hard")
    assert s.tyres[0] == 1 and s.pit_space[0] == 3 and "changes SOFT for HARD" in texts(s)
    s = poised(s, 0).apply("die:2")
    assert s.stage == Stage.ROLL and s.pit_space[0] == 5  # the box is behind: no second change


def test_pit_lane_spaces_are_shared_and_overtaking_is_automatic() -> None:
    """The Pit Lane Exception (shared spaces) and Overtaking in the pits (no Attack Die)."""
    s = poised(started(), 0, dist=[56, 56, 76, 80], pit=[3, 4, -1, -1], tyres=["soft"] * 4)
    s = s.apply("die:3")
    assert s.pit_space[:2] == (6, 4) and s.stage == Stage.ROLL
    s = poised(s, 1).apply("die:2")
    assert s.pit_space[:2] == (6, 6)


def test_pit_exit_example_one_space_from_the_exit_4_plus_2_moves_6() -> None:
    """Pit Exit (Rejoining): 'If you are 1 space away from the exit and roll a 4 with a +2 modifier,
    your total move is 4 + 2 = 6. Move 6 spaces forward from your current position.'"""
    s = p1(56, pit=8).apply("die:4")
    assert s.pit_space[0] == -1 and s.distance[0] == 56 + 5 + 6  # P8 -> space 2 is 1 space; 6 reach space 7
    assert s.distance[0] % 30 == 7


def test_a_modified_exit_roll_that_falls_short_stays_in_the_pit_lane() -> None:
    """Pit Exit: the modifier applies once the roll would pass the exit; the modified move may not."""
    s = p1(56, pit=6, weather="WET").apply("die:3")  # raw 3 would exit; SOFT on WET: 3 - 2 = 1
    assert s.pit_space[0] == 7


def test_lock_up_applies_on_the_exit_roll() -> None:
    """F1-A8: a SOFT 1 on a DRY track that takes the car out of the pit lane locks up: 3, off, miss."""
    s = p1(56, pit=8).apply("die:1")
    assert s.distance[0] == 56 + 5 + 3 and s.off_track[0] and s.turns_to_miss[0] == 1


def test_a_car_that_cannot_rejoin_waits_at_the_exit() -> None:
    """F1-G3: the rejoin space is occupied and the move ends there: the car stays on the last pit space."""
    s = poised(started(), 0, dist=[56, 62, 76, 80], pit=[8, -1, -1, -1], tyres=["hard"] * 4)
    s = s.apply("die:1")
    assert s.pit_space[0] == 8 and s.distance[0] == 56 and "waits at the pit exit" in texts(s)


def test_the_line_crosses_the_pit_lane() -> None:
    """F1-G3: the start/finish line crosses the pit lane between P4 and P5, so laps count there."""
    s = p1(56, pit=3)
    assert lap(s, 0) == 2
    s = s.apply("die:2")
    assert s.pit_space[0] == 5 and lap(s, 0) == 3


def test_finishing_in_the_pit_lane() -> None:
    """Crossing the Line: any movement on or past the finish line finishes, in the pit lane too."""
    s = p1(56, pit=3, state=started(laps=2)).apply("die:2")
    assert s.finishing_order == (0,)


def test_weather_change_space_flips_the_track_for_everyone_from_their_next_turn() -> None:
    """The Weather Change space: landing exactly on it flips DRY/WET; every driver uses the new
    modifiers from their very next turn."""
    s = poised(started(), 0, dist=[56, 70, 76, 80], pit=[5, -1, -1, -1], tyres=["soft"] * 4)
    s = s.apply("die:3")
    assert s.weather == 1 and "the track is now WET" in texts(s)
    s = poised(s, 1).apply("die:4")  # P2 on SOFT, now on a WET track: 4 - 2
    assert s.distance[1] == 72


def test_passing_the_weather_space_without_landing_does_not_flip() -> None:
    """Only landing exactly on the Weather Change space triggers it."""
    s = p1(56, pit=5).apply("die:6")
    assert s.weather == 0


def test_drive_through_forces_an_unpitted_car_in_on_the_last_lap_of_the_window() -> None:
    """F1-G9 (default drive-through): a car without a stop must take the pit lane on the last lap whose
    entry still passes its box in the window: lap 7 for P1 (box P2, before the line), and the stop
    counts when it passes the box."""
    s = p1(200).apply("die:6")  # lap 7, space 20: the move passes the entry
    assert s.pit_space[0] == 0 and s.window_stops[0] == 0 and "must take the pit lane" in texts(s)
    s = p1(206, pit=0).apply("die:2").apply("tyre:keep")
    assert s.window_stops[0] == 1 and not s.penalised[0]


def test_drive_through_forces_a_car_whose_box_is_past_the_line_in_on_lap_6() -> None:
    """F1-G9 with the window counted at the box (issue 13): P4's box P5 is past the line, so a lap-7 entry
    would pass it on lap 8; the car is forced in on lap 6, and its stop (on lap 7) counts."""
    s = poised(started(), 3, dist=[70, 71, 76, 170], tyres=["hard"] * 4).apply("die:6")  # lap 6, space 20
    assert s.pit_space[3] == 0 and "must take the pit lane" in texts(s)
    s = poised(started(), 3, dist=[70, 71, 76, 140], tyres=["hard"] * 4).apply("die:6")  # lap 5: free choice
    assert s.stage == Stage.PIT_CHOICE


def test_drive_through_penalty_after_the_window() -> None:
    """F1-G9: still unpitted after lap 7, the car is sent through the pit lane as a penalty."""
    s = p1(230).apply("die:6")  # lap 8
    assert s.pit_space[0] == 0 and "must take the pit lane" in texts(s)
    s = p1(236, pit=0).apply("die:2").apply("tyre:keep")
    assert s.penalised[0] == 1 and "drive-through penalty" in texts(s)


def test_stop_go_penalty_option() -> None:
    """F1-G9, option pit_penalty=stop-go: leaving lap 7 without a stop costs 2 turns, off the track."""
    s = p1(207, tyre="hard", state=started(pit_penalty="stop-go")).apply("die:4")  # lap 7 -> lap 8
    assert s.distance[0] == 211 and s.penalised[0] == 1 and s.off_track[0]
    assert s.turns_to_miss[0] == 2 and "stop-go" in texts(s)
    s = p1(207, tyre="hard", state=started(pit_penalty="stop-go"), stops=[1, 0, 0, 0]).apply("die:4")
    assert s.penalised[0] == 0 and not s.off_track[0]  # a car that has stopped owes nothing


def test_a_stop_go_costs_two_turns_then_the_car_rejoins() -> None:
    """F1-G9 stop-go: the car misses its next 2 turns (Serving the Penalty), then rejoins and rolls."""
    s = poised(started(players=2, pit_penalty="stop-go"), 0, dist=[207, 95], tyres=["hard"] * 2)
    s = s.apply("die:4")
    assert s.turns_to_miss[0] == 2 and s.mover == 1
    s = s.apply("die:1")  # round 2: P1 (leading) misses a turn
    assert "P1 misses a turn" in texts(s) and s.mover == 1
    s = s.apply("die:1")  # round 3: and another
    assert "P1 misses a turn" in texts(s) and s.mover == 1
    s = s.apply("die:1")  # round 4: P1 rejoins and rolls
    assert "P1 rejoins the track" in texts(s) and s.mover == 0


def test_a_collision_on_the_exit_roll_leaves_the_attacker_at_the_exit() -> None:
    """Collisions (Immediate Stop) on the exit roll: a car leaving P8 that crashes into the car on the
    rejoin space stops where it is, on P8 (F1-G3), and misses its next turn; the defender goes off."""
    s = poised(started(), 0, dist=[56, 62, 76, 80], pit=[8, -1, -1, -1], tyres=["hard"] * 4)
    s = s.apply("die:3").apply("attempt").apply("attack:crash")
    assert s.pit_space[0] == 8 and s.distance[0] == 56 and not s.off_track[0] and s.turns_to_miss[0] == 1
    assert s.off_track[1] and s.distance[1] == 62


def test_leaving_wet_tyres_the_driver_picks_soft_or_hard() -> None:
    """F1-A15: from WET the change may be to SOFT or HARD."""
    s = p1(56, pit=0, tyre="wet").apply("die:2")
    assert s.legal_actions() == ["tyre:hard", "tyre:keep", "tyre:soft"]


def test_a_pit_entry_move_challenges_cars_before_the_branch_only() -> None:
    """The Commitment (Pit Entry) with F1-A7: a car on space 24 is in front of the path to the Pit Entry
    (an overtake, then the entry); a car on space 26, after the branch, is not in the way."""
    s = poised(started(), 0, dist=[50, 54, 56, 76], tyres=["soft", "hard", "hard", "hard"])
    s = s.apply("die:6").apply("pit")
    assert s.stage == Stage.OVERTAKE and s.defender == 1
    s = s.apply("attempt").apply("attack:pass")
    assert s.pit_space[0] == 0 and s.distance[0] == 56 and s.distance[1:3] == [54, 56]
    s = poised(started(), 0, dist=[50, 54, 56, 76], tyres=["soft", "hard", "hard", "hard"])
    s = s.apply("die:6").apply("pit").apply("safe")  # stopped behind on space 23: not in the pit lane
    assert s.pit_space[0] == -1 and s.distance[0] == 53


def test_each_car_stops_at_its_own_pit_box() -> None:
    """The Action: "pass your designated Pit Box" (F1-G3: P1's box is P2, P4's is P5, past the line)."""
    s = poised(started(), 3, dist=[70, 71, 76, 56], pit=[-1, -1, -1, 3], tyres=["hard"] * 4)
    s = s.apply("die:2")
    assert s.stage == Stage.PIT_BOX and s.mover == 3
    s = p1(56, pit=3).apply("die:2")  # P1's box (P2) is behind it: no change offered
    assert s.stage == Stage.ROLL and s.pit_space[0] == 5


def test_a_roll_that_reaches_the_last_pit_space_is_not_modified() -> None:
    """Pit Exit (Rejoining): modifiers apply only when a roll "would take your car past the Pit Exit
    line": from P6 a 2 reaches P8 (raw; SOFT +2 would have left the pit lane). Landing on P8, the
    Weather Change space, flips the track."""
    s = p1(56, pit=6).apply("die:2")
    assert s.pit_space[0] == 8 and s.weather == 1


def test_wet_tyres_on_a_wet_track_exit_with_plus_two() -> None:
    """Pit Exit (Rejoining) on a WET track with WET tyres: 3 + 2 = 5 from P8 reaches space 6."""
    s = p1(56, pit=8, tyre="wet", weather="WET").apply("die:3")
    assert s.pit_space[0] == -1 and s.distance[0] % 30 == 6


def test_keeping_the_tyres_at_the_box_still_counts_as_the_pit_stop() -> None:
    """The Pit Stop: "you may change" (tyre:keep is allowed); the stop counts for the window as the car
    passes its box (F1-G9) and the tyres are unchanged."""
    s = p1(56, pit=0).apply("die:3").apply("tyre:keep")
    assert s.tyres[0] == 0 and s.pit_space[0] == 3 and "keeps SOFT" in texts(s) and s.window_stops[0] == 1


def test_a_tyre_change_on_the_exit_roll_does_not_change_that_rolls_modifier() -> None:
    """F1-A15 with Pit Exit (Rejoining): P6's box is P7; from P6 a SOFT 3 on DRY leaves the pit lane
    with 3 + 2 = 5, worked out with the tyres fitted at the start of the turn; the change to HARD at the
    box comes during the move, so the car still moves 5 (P7, P8, then spaces 2, 3, 4)."""
    s = poised(started(players=6), 5, dist=[70, 71, 76, 80, 84, 56], pit=[-1] * 5 + [6],
               tyres=["hard"] * 5 + ["soft"])
    s = s.apply("die:3")
    assert s.stage == Stage.PIT_BOX and s.mover == 5
    s = s.apply("tyre:hard")
    assert s.tyres[5] == 1 and s.pit_space[5] == -1 and s.distance[5] % 30 == 4


def test_a_car_that_stays_on_the_weather_space_does_not_flip_it_again() -> None:
    """The Weather Change space, The Trigger: "If a car lands exactly on this space". A car on P8 whose
    exit roll is modified to 0 (SOFT on a WET track, a 2) stays there: no landing, no flip."""
    s = p1(56, pit=8, weather="WET").apply("die:2")
    assert s.pit_space[0] == 8 and s.weather == 1 and "track is now" not in texts(s)


def test_finishing_from_the_last_pit_space_before_the_line() -> None:
    """Crossing the Line in the pit lane (F1-G3: the line is between P4 and P5): from P4 a 1 finishes."""
    s = p1(56, pit=4, state=started(laps=2)).apply("die:1")
    assert s.finishing_order == (0,)


def test_an_exit_lock_up_held_at_the_exit_still_misses_a_turn() -> None:
    """F1-A8 with F1-G3: the exit roll's SOFT 1 locks up (3 spaces); playing safe behind a car on the
    rejoin space leaves the car waiting on P8, and the lock-up still costs its next turn."""
    s = poised(started(), 0, dist=[56, 62, 76, 80], pit=[8, -1, -1, -1], tyres=["soft", "hard", "hard", "hard"])
    s = s.apply("die:1")
    assert s.defender == 1
    s = s.apply("safe")
    assert s.pit_space[0] == 8 and s.turns_to_miss[0] == 1 and not s.off_track[0]


def test_a_no_overtake_card_also_holds_on_the_exit_roll() -> None:
    """F1-G5 no-overtake ("no overtake attempts on the next turn"): the next turn is the exit roll, so
    the car stops behind the car on space 3 instead of being offered an overtake; the card is spent."""
    s = poised(started(), 0, dist=[56, 63, 76, 80], pit=[8, -1, -1, -1], tyres=["hard"] * 4)
    s.perks = replaced(s.perks, 0, NO_OVERTAKE)
    s = s.apply("die:4")
    assert s.pit_space[0] == -1 and s.distance[0] == 62 and s.perks[0] == 0 and s.stage == Stage.ROLL
