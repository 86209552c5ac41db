"""Setup and modes: tyre selection, the grid (roll-off and qualifying), Sprint mode, Dynamic Weather.

Rulebook sections: Setup (Tyre Selection), the grid roll-off and Tie-Breaker, Qualifying (the hot lap,
The SOFT Penalty, The Grid), Sprint mode (Dice & Movement, Sprint Tyre Modifiers, Sprint Lock-up
Penalty), Dynamic Weather (Trigger, Exclusions). Gap decisions F1-A2, F1-A3, F1-A9, F1-A10, F1-A11.
"""

from __future__ import annotations

import json
import math
import random
import tomllib
from importlib import resources
from pathlib import Path

import pytest

from slipstream.engine.errors import OptionError
from slipstream.games.brc_grand_prix import BRCGrandPrix
from slipstream.games.brc_grand_prix.rules import HARD, SOFT, sprint_move
from slipstream.games.brc_grand_prix.types import Counter, Stage

from .helpers import poised, started, texts


def test_starting_tyres_are_chosen_at_once_and_hidden_until_all_have_chosen() -> None:
    """Setup, Tyre Selection: each player selects SOFT or HARD (a simultaneous choice)."""
    s = BRCGrandPrix(players=3).start(seed=1)
    assert s.stage == Stage.TYRES and s.actor == frozenset({0, 1, 2})
    assert s.legal_actions(1) == ["1:hard", "1:soft"]
    s = s.apply("0:soft")
    assert s.actor == frozenset({1, 2})
    assert s.view(0)["cars"][0]["tyre"] == "soft"
    assert s.view(1)["cars"][0]["tyre"] == "chosen"
    other = s.determinize(1, random.Random(3))
    assert other.view(1) == s.view(1)
    s = s.apply("1:hard").apply("2:hard")
    assert s.view(1)["cars"][0]["tyre"] == "soft" and "starting tyres" in texts(s)


def test_grid_roll_off_ties_are_rolled_again_among_the_tied_drivers() -> None:
    """The grid: highest d6 takes pole; Tie-Breaker: tied players roll again against each other."""
    s = BRCGrandPrix(players=4).start(seed=1)
    for seat in range(4):
        s = s.apply(f"{seat}:hard")
    for roll in (5, 5, 3, 5):
        s = s.apply(f"die:{roll}")
    assert "P1, P2, P4 tie and roll again" in texts(s)
    for roll in (2, 6, 4):  # P1, P2, P4
        s = s.apply(f"die:{roll}")
    assert s.grid == (1, 3, 0, 2)
    assert [s.distance[i] for i in (1, 3, 0, 2)] == [-1, -2, -3, -4]
    assert s.stage == Stage.ROLL and s.mover == 1  # pole moves first


def _qualifying() -> object:
    s = BRCGrandPrix(players=2, grid="qualifying").start(seed=1)
    return s.apply("0:hard").apply("1:soft")


def test_qualifying_fewest_rolls_takes_pole_and_a_soft_1_adds_a_roll() -> None:
    """Qualifying: one hot lap (30 spaces) in the fewest rolls; SOFT +2; a 1 on SOFT adds +1 to the
    count (F1-A3: it still moves 3)."""
    s = _qualifying()
    for _ in range(5):
        s = s.apply("die:6")  # type: ignore[attr-defined]
    assert s.qualifying_results == (5,)  # type: ignore[attr-defined]
    for roll in (1, 6, 6, 6, 6):  # 3 + 8 + 8 + 8 = 27, then 35: 1 counts twice -> 6 rolls
        s = s.apply(f"die:{roll}")  # type: ignore[attr-defined]
    assert s.qualifying_results == (5, 6) and s.grid == (0, 1)  # type: ignore[attr-defined]


def test_the_view_names_whose_roll_every_chance_step_is() -> None:
    """Issue 13: the view's ``roller`` (and ``pending.seat``) names whose roll it is at every chance step:
    each driver of the grid roll-off in turn, the tied drivers of a Tie-Breaker, each hot lap's driver,
    the mover's movement roll; no one at a player's choice."""
    s = BRCGrandPrix(players=3).start(seed=1)
    assert s.view(None)["roller"] is None  # the starting tyres: a choice, not a roll
    for seat in range(3):
        s = s.apply(f"{seat}:hard")
    rollers = []
    for roll in (4, 4, 2, 6, 5):  # P1 and P2 tie on 4 and roll again: 6 and 5
        view = s.view(None)
        rollers.append(view["roller"])
        assert view["pending"]["seat"] == view["roller"]  # type: ignore[index]
        s = s.apply(f"die:{roll}")
    assert rollers == [0, 1, 2, 0, 1] and s.grid == (0, 1, 2)
    assert s.view(None)["roller"] == s.mover == 0
    q = _qualifying()
    assert q.view(None)["roller"] == 0  # type: ignore[attr-defined]
    for _ in range(5):
        q = q.apply("die:6")  # type: ignore[attr-defined]
    assert q.view(None)["roller"] == 1  # type: ignore[attr-defined]


def test_qualifying_ties_are_settled_by_a_roll_off() -> None:
    """The Grid: ties are settled by a single d6 roll-off."""
    s = _qualifying()
    for roll in (6, 6, 6, 6, 6, 4, 4, 4, 4, 4):  # HARD 5 rolls; SOFT 6 x 5 = 30 in 5 rolls
        s = s.apply(f"die:{roll}")  # type: ignore[attr-defined]
    assert s.qualifying_results == (5, 5) and "tie" not in texts(s)  # type: ignore[attr-defined, arg-type]
    s = s.apply("die:2").apply("die:5")  # type: ignore[attr-defined]
    assert s.grid == (1, 0)  # type: ignore[attr-defined]


def test_sprint_rolls_2d6_and_soft_adds_4() -> None:
    """Sprint: two D6; SOFT +4; HARD +0."""
    assert sprint_move(3, 5, SOFT) == (12, False)
    assert sprint_move(3, 5, HARD) == (8, False)
    assert sprint_move(1, 1, HARD) == (2, False)
    s = poised(started(sprint=True), 0, dist=[30, 26, 26, 26], pit=[-1, 0, 0, 0], tyres=["soft"] * 4)
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 21 and math.isclose(sum(p for _, p in outcomes), 1.0)
    assert dict(outcomes)["dice:2-5"] == 2 / 36 and dict(outcomes)["dice:6-6"] == 1 / 36
    base = s
    s = s.apply("dice:2-4")
    assert s.distance[0] == 40 and "P1 rolls 2+4 on SOFT (DRY): moves 10" in texts(s)
    s = base.apply("dice:2-5")  # the same game: the event names both dice
    assert s.distance[0] == 41 and "P1 rolls 2+5 on SOFT (DRY): moves 11" in texts(s)


def test_sprint_lock_up_completes_the_move_then_misses_a_turn() -> None:
    """Sprint Lock-up Penalty: either die a 1 on SOFT: complete the move, miss the next full turn."""
    assert sprint_move(1, 5, SOFT) == (10, True)
    s = poised(started(sprint=True), 0, dist=[30, 26, 26, 26], pit=[-1, 0, 0, 0], tyres=["soft"] * 4)
    lock = sum(p for a, p in s.chance_outcomes() if "1" in a[5:])
    assert math.isclose(lock, 11 / 36)  # the rulebook's odds follow from 2d6: 11 of 36
    s = s.apply("dice:1-4")
    assert s.distance[0] == 39 and s.off_track[0] and s.turns_to_miss[0] == 1


def test_sprint_is_dry_only() -> None:
    """Sprint: Track State locked to DRY: no WET tyres, the Weather Change space is ignored (F1-A9),
    and Dynamic Weather cannot be combined with it."""
    s = poised(started(sprint=True), 0, dist=[56, 70, 76, 80], pit=[0, -1, -1, -1], tyres=["soft"] * 4)
    s = s.apply("die:2")
    assert s.stage == Stage.PIT_BOX and s.legal_actions() == ["tyre:hard", "tyre:keep"]
    s = poised(started(sprint=True), 0, dist=[56, 70, 76, 80], pit=[5, -1, -1, -1], tyres=["soft"] * 4)
    assert s.apply("die:3").weather == 0
    with pytest.raises(OptionError, match="Sprint"):
        BRCGrandPrix(players=2, sprint=True, dynamic_weather=True)


def test_sprint_pit_lane_rolls_one_d6_and_the_exit_roll_takes_the_sprint_modifier() -> None:
    """Pit Exit (Rejoining): "Modifiers are reapplied as soon as a roll would take your car past the Pit
    Exit line" with the Sprint Tyre Modifiers (issue 13, F1-A9): the pit lane's single d6 stays single,
    but the exit roll on SOFT is +4 and a 1 locks up (Sprint Lock-up Penalty: the move is completed, then
    the car misses its next turn); on HARD it is +0. A roll that stays in the pit lane is raw."""
    soft = poised(started(sprint=True), 0, dist=[56, 70, 76, 80], pit=[8, -1, -1, -1], tyres=["soft"] * 4)
    assert soft.legal_actions()[0] == "die:1"
    s = soft.apply("die:4")
    assert s.distance[0] == 56 + 5 + 8 and not s.off_track[0]
    s = soft.apply("die:1")
    assert s.distance[0] == 56 + 5 + 5 and s.off_track[0] and s.turns_to_miss[0] == 1
    assert "Sprint Lock-up Penalty" in [e.rule for e in s.events]
    hard = poised(started(sprint=True), 0, dist=[56, 70, 76, 80], pit=[8, -1, -1, -1], tyres=["hard"] * 4)
    s = hard.apply("die:1")
    assert s.distance[0] == 56 + 5 + 1 and not s.off_track[0]
    s = poised(started(sprint=True), 0, dist=[56, 70, 76, 80], pit=[1, -1, -1, -1], tyres=["soft"] * 4)
    s = s.apply("die:1").apply("tyre:keep")
    assert s.pit_space[0] == 2 and not s.off_track[0]


def _dynamic() -> object:
    return poised(started(dynamic_weather=True), 0, dist=[30, 40, 26, 26], pit=[-1, -1, 0, 0],
                  tyres=["hard"] * 4, order=[0, 1, 2, 3])


def test_dynamic_weather_two_consecutive_sixes_by_different_players_flip_the_weather() -> None:
    """Dynamic Weather, Trigger: two players roll a 6 on their movement die one after the other."""
    s = _dynamic().apply("die:6").apply("die:6")  # type: ignore[attr-defined]
    assert s.weather == 1 and "two 6s in a row" in texts(s)


def test_dynamic_weather_needs_consecutive_rolls() -> None:
    """A roll other than 6 in between breaks the pair."""
    s = _dynamic().apply("die:6").apply("die:5")  # type: ignore[attr-defined]
    assert s.weather == 0
    s = s.apply("die:6")  # P3's 6 follows P2's 5, not P1's 6
    assert s.weather == 0


def test_dynamic_weather_ignores_overtake_rolls() -> None:
    """Exclusions: only Movement Phase rolls count, not Attack Die rolls."""
    s = poised(started(dynamic_weather=True), 0, dist=[30, 34, 26, 26], pit=[-1, -1, 0, 0],
               tyres=["hard"] * 4, order=[0, 1, 2, 3])
    s = s.apply("die:6").apply("attempt").apply("attack:pass")
    assert s.last_six_roller == 0
    s = s.apply("die:6")
    assert s.weather == 1


def test_dynamic_weather_off_by_default() -> None:
    """Dynamic Weather must be agreed before the race: an option, off by default."""
    s = poised(started(), 0, dist=[30, 40, 26, 26], pit=[-1, -1, 0, 0], tyres=["hard"] * 4,
               order=[0, 1, 2, 3])
    assert s.apply("die:6").apply("die:6").weather == 0


def test_setup_lap_1_dry_track_and_a_shuffled_deck() -> None:
    """Setup: Lap Marker on Lap 1; Track State DRY; BRC cards shuffled face down (every card unseen)."""
    s = BRCGrandPrix(players=4).start(seed=9)
    view = s.view(None)
    assert view["weather"] == "DRY" and view["flag_deck"] == {"unseen": 18, "known_order": [], "used": 0}
    assert all(car["lap"] == 1 for car in view["cars"])  # type: ignore[index, union-attr]


def test_dynamic_weather_the_pairing_roll_moves_on_the_old_weather() -> None:
    """Dynamic Weather, Trigger, with "At the start of your turn, check the current weather and your tyre
    compound" (F1-A13): the second 6 flips the weather, but that roll was made on the DRY track, so SOFT
    6 moves 8; the next driver's roll is on the WET track."""
    s = poised(started(dynamic_weather=True), 0, dist=[30, 40, 50, 26], pit=[-1, -1, -1, 0],
               tyres=["soft"] * 4, order=[0, 1, 2, 3])
    s = s.apply("die:6")
    assert s.distance[0] == 38 and s.weather == 0
    s = s.apply("die:6")
    assert s.weather == 1 and s.distance[1] == 48  # 6 + 2 on the old (DRY) weather, not 6 - 2
    lines = texts(s).splitlines()
    assert lines[0] == "P2 rolls 6 on SOFT (DRY): moves 8" and "the track is now WET" in lines[1]
    s = s.apply("die:5")  # P3: SOFT on WET is -2
    assert s.distance[2] == 53 and s.weather == 1


def test_dynamic_weather_three_sixes_in_a_row_flip_the_weather_twice() -> None:
    """Dynamic Weather, Trigger: "If any two players roll a 6 on their movement die consecutively (one
    after the other), the weather state immediately flips" (issue 13): each consecutive pair counts, so
    P1, P2 and P3 rolling 6 in turn make two pairs (P1-P2, P2-P3) and flip DRY -> WET -> DRY; a fourth 6
    by P4 flips it again."""
    s = poised(started(dynamic_weather=True), 0, dist=[30, 40, 50, 60], tyres=["hard"] * 4, order=[0, 1, 2, 3])
    s = s.apply("die:6").apply("die:6")
    assert s.weather == 1
    s = s.apply("die:6")
    assert s.weather == 0 and "two 6s in a row: the track is now DRY" in texts(s)
    s = s.apply("die:6")
    assert s.weather == 1 and s.counters[Counter.DYNAMIC_WEATHER_FLIPS] == 3


def test_dynamic_weather_an_exit_roll_that_pairs_uses_the_old_weather() -> None:
    """Dynamic Weather and Pit Exit (Rejoining): a pit-lane movement roll counts for the pair (F1-A11);
    the exit roll that completes it takes the modifier of the weather at the start of the turn."""
    s = poised(started(dynamic_weather=True), 1, dist=[40, 56, 70, 76], pit=[-1, 8, -1, -1],
               tyres=["hard", "soft", "hard", "hard"], order=[0, 1, 2, 3])
    s.turn_index, s.mover = 0, 0
    s = s.apply("die:6").apply("die:6")  # P1 on the main track, then P2's exit roll: 6 + 2 on DRY
    assert s.weather == 1 and s.pit_space[1] == -1 and s.distance[1] == 56 + 5 + 8


def test_dynamic_weather_the_same_driver_twice_is_not_a_pair() -> None:
    """Dynamic Weather, Trigger: "any two players" (F1-A11: different drivers): P1's 6, P2's missed
    turn, then P1's 6 again do not flip the weather."""
    s = poised(started(players=2, dynamic_weather=True), 0, dist=[40, 30], tyres=["hard"] * 2,
               miss=[0, 1], order=[0, 1])
    s = s.apply("die:6")
    assert "P2 misses a turn" in texts(s) and s.mover == 0
    s = s.apply("die:6")
    assert s.weather == 0 and s.distance[0] == 52


def test_grid_roll_off_two_tied_groups_and_a_tie_rolled_again() -> None:
    """The grid, Tie-Breaker: "those specific players must roll again against each other to determine
    their order within those tied slots": two tied pairs each roll off for their own slots, and a pair
    that ties again rolls again."""
    s = BRCGrandPrix(players=4).start(seed=1)
    for seat in range(4):
        s = s.apply(f"{seat}:hard")
    for roll in (3, 5, 3, 5):  # P2 and P4 tie for slots 1-2; P1 and P3 for slots 3-4
        s = s.apply(f"die:{roll}")
    for roll in (4, 4, 2, 6, 1, 3):  # P2-P4 tie again (4, 4), then 2-6; then P1 1, P3 3
        s = s.apply(f"die:{roll}")
    assert s.grid == (3, 1, 2, 0)


def test_sprint_hard_tyres_never_lock_up_and_the_race_is_8_laps() -> None:
    """Sprint: "HARD Tyres: +0 Modifier. Risk: None." and "Race Length: 8 Laps." (F1-A10)."""
    game = BRCGrandPrix(players=2, sprint=True)
    assert game.laps == 8 and game.finish_distance == 240
    s = poised(started(sprint=True), 0, dist=[30, 26, 26, 26], pit=[-1, 0, 0, 0], tyres=["hard"] * 4)
    s = s.apply("dice:1-1")
    assert s.distance[0] == 32 and not s.off_track[0] and s.turns_to_miss[0] == 0


def test_sprint_keeps_the_mandatory_pit_window() -> None:
    """F1-A9: the mandatory stop is kept in Sprint (drive-through on lap 7 without a stop)."""
    s = poised(started(sprint=True), 0, dist=[200, 70, 71, 76], tyres=["hard"] * 4)
    s = s.apply("dice:3-4")  # space 20 + 7 passes the entry
    assert s.pit_space[0] == 0 and "must take the pit lane" in texts(s)
    s = poised(s, 0, dist=s.distance, pit=s.pit_space).apply("die:2").apply("tyre:keep")  # P1's box: P2
    assert s.window_stops[0] == 1


def test_dynamic_weather_two_consecutive_drivers_flip_it_1_time_in_36(tmp_path: Path) -> None:
    """Dynamic Weather: "The probability of two consecutive players rolling a 6 is 1 in 36", exactly:
    over every pair of movement rolls by P1 then P2 (the chance node's odds), the weather flips with
    probability 1/36. (A board with its only flag on space 28, out of reach, keeps the moves plain.)"""
    data = tomllib.loads(resources.files("slipstream.games.brc_grand_prix").joinpath("content.toml").read_text())
    data["flags"] = [{"source": "default", "colour": "green", "name": "Green flag", "text": "Draw a card.",
                      "spaces": [28]}]
    path = tmp_path / "board.json"
    path.write_text(json.dumps(data))
    s = poised(started(players=2, dynamic_weather=True, content=str(path)), 0, dist=[40, 30],
               tyres=["hard"] * 2, order=[0, 1])
    flip = 0.0
    for a, pa in s.chance_outcomes():
        after_a = s.apply(a)
        assert after_a.mover == 1
        for b, pb in after_a.chance_outcomes():
            flip += pa * pb * after_a.apply(b).weather
    assert math.isclose(flip, 1 / 36)
