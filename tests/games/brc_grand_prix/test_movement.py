"""Movement: the tyre and weather table, the lock-up, the minimum-movement rule, occupied spaces.

Rulebook sections: "The Calculation Formula", the tyre lines, "The Lock-up", "The Minimum Movement
Rule", "Movement Examples", "Occupying Spaces" (rules/brc-grand-prix.txt; F1-A1 in the docs).
"""

from __future__ import annotations

import pytest

from slipstream.games.brc_grand_prix import BRCState
from slipstream.games.brc_grand_prix.rules import (
    DRY_TRACK,
    HARD,
    SOFT,
    WET,
    WET_TRACK,
    standard_move,
    tyre_modifier,
)
from slipstream.games.brc_grand_prix.types import Stage

from .helpers import poised, started, texts

IN_PIT = {"dist": [30, 26, 26, 26], "pit": [-1, 0, 0, 0]}
"""P1 at dist 30 (space 0); the others at the Pit Entry, out of its way."""


@pytest.mark.parametrize(
    ("roll", "tyre", "weather", "expected"),
    [
        (4, SOFT, DRY_TRACK, (6, False)),  # "Dry Track / Soft Tyres: You roll a 4. Total move is 6."
        (1, SOFT, DRY_TRACK, (3, True)),  # "You roll a 1. Total move is 3, but you miss your next turn."
        (2, SOFT, WET_TRACK, (0, False)),  # "Wet Track / Soft Tyres: You roll a 2. Total move is 0."
        (5, WET, WET_TRACK, (7, False)),  # "Wet Track / Wet Tyres: You roll a 5. Total move is 7."
        (3, HARD, DRY_TRACK, (3, False)),  # "HARD Tyres (+0 Modifier): Move the exact number"
        (1, HARD, DRY_TRACK, (1, False)),  # "There is no risk of a lock-up."
        (3, WET, DRY_TRACK, (1, False)),  # DRY track, WET tyres -2
        (4, HARD, WET_TRACK, (2, False)),  # WET track, SOFT or HARD -2
        (1, SOFT, WET_TRACK, (0, False)),  # "The Lock-up penalty for Soft tyres does not apply in Wet"
        (1, WET, WET_TRACK, (3, False)),
    ],
)
def test_tyre_and_weather_table(roll: int, tyre: int, weather: int, expected: tuple[int, bool]) -> None:
    """The Calculation Formula: d6 + tyre/weather modifier; the table of F1-A1 and the worked examples."""
    assert standard_move(roll, tyre, weather) == expected


def test_modifiers_by_track_state() -> None:
    """DRY: SOFT +2, HARD +0, WET -2. WET: WET +2, SOFT or HARD -2."""
    assert [tyre_modifier(t, DRY_TRACK) for t in (SOFT, HARD, WET)] == [2, 0, -2]
    assert [tyre_modifier(t, WET_TRACK) for t in (SOFT, HARD, WET)] == [-2, -2, 2]


def _at_zero(tyre: str, weather: str) -> BRCState:
    s = started()
    return poised(s, 0, tyres=[tyre, "hard", "hard", "hard"], weather=weather, **IN_PIT)  # type: ignore[arg-type]


def test_example_dry_soft_4_moves_6() -> None:
    """Movement Examples: Dry Track / Soft Tyres: You roll a 4. Total move is 6."""
    s = _at_zero("soft", "DRY").apply("die:4")
    assert s.distance[0] == 36


def test_example_dry_soft_1_moves_3_and_misses_a_turn() -> None:
    """Movement Examples / The Lock-up: a 1 on SOFT moves exactly 3, the car goes off track and misses
    its next full turn, then rejoins and rolls as normal."""
    s = _at_zero("soft", "DRY").apply("die:1")
    assert s.distance[0] == 33 and s.off_track[0] and s.turns_to_miss[0] == 1
    assert "LOCK-UP" in texts(s)
    seen = []
    for _ in range(3):  # the others move 1 in the pit lane; P1's next turn is missed
        seen.append(s.mover)
        s = s.apply("die:1")
    assert sorted(seen) == [1, 2, 3] and "P1 misses a turn" in texts(s)
    for _ in range(3):
        assert s.mover != 0
        s = s.apply("die:1")
    assert "P1 rejoins the track" in texts(s) and s.mover == 0 and not s.off_track[0]


def test_example_wet_soft_2_does_not_move() -> None:
    """Movement Examples: Wet Track / Soft Tyres: You roll a 2. Total move is 0. You do not move."""
    s = _at_zero("soft", "WET").apply("die:2")
    assert s.distance[0] == 30 and "does not move" in texts(s)


def test_example_wet_wet_5_moves_7() -> None:
    """Movement Examples: Wet Track / Wet Tyres: You roll a 5. Total move is 7."""
    s = _at_zero("wet", "WET").apply("die:5")
    assert s.distance[0] == 37


def test_no_lock_up_on_a_wet_track() -> None:
    """Note: The Lock-up penalty for Soft tyres does not apply in Wet conditions."""
    s = _at_zero("soft", "WET").apply("die:1")
    assert s.distance[0] == 30 and not s.off_track[0] and s.turns_to_miss[0] == 0


def test_minimum_movement_never_backwards() -> None:
    """The Minimum Movement Rule: a total of 0 or less leaves the car where it is."""
    s = _at_zero("hard", "WET").apply("die:1")
    assert s.distance[0] == 30


def test_landing_on_an_occupied_space_stops_directly_behind() -> None:
    """Occupying Spaces: landing exactly on an occupied space stops you in the space behind it."""
    s = poised(started(), 0, dist=[40, 46, 100, 110], tyres=["soft", "hard", "hard", "hard"])
    s = s.apply("die:4")  # 6 spaces: exactly onto P2
    assert s.distance[0] == 45 and "stops behind" in texts(s)
    assert s.legal_actions() == ["die:1", "die:2", "die:3", "die:4", "die:5", "die:6"]


def test_turn_order_is_race_order_each_round() -> None:
    """F1-G8: each round the cars move in race order, leader first."""
    s = poised(started(), 0, dist=[30, 40, 50, 70], tyres=["hard"] * 4, order=[0, 1, 2, 3])
    s.turn_index = 3  # the round is over after P4
    s.mover = 3
    s = s.apply("die:1")
    assert s.race_order == (3, 2, 1, 0) and s.mover == 3


def test_hard_tyres_move_the_exact_roll_and_never_lock_up() -> None:
    """HARD Tyres (+0 Modifier): "Move the exact number shown on the dice. There is no risk of a
    lock-up." A 1 on HARD moves 1 and the car stays on track and takes its next turn."""
    s = _at_zero("hard", "DRY").apply("die:1")
    assert s.distance[0] == 31 and not s.off_track[0] and s.turns_to_miss[0] == 0
    assert _at_zero("hard", "DRY").apply("die:5").distance[0] == 35


def test_wrong_tyres_lose_two_on_either_track() -> None:
    """WET Tyres (-2 Modifier) on a DRY track and SOFT or HARD Tyres (-2 Modifier) on a WET track."""
    assert _at_zero("wet", "DRY").apply("die:3").distance[0] == 31
    assert _at_zero("hard", "WET").apply("die:4").distance[0] == 32
    assert _at_zero("soft", "WET").apply("die:6").distance[0] == 34
    assert _at_zero("wet", "DRY").apply("die:1").distance[0] == 30  # 1 - 2: The Minimum Movement Rule


def test_soft_on_dry_adds_two_for_every_roll_from_2_to_6() -> None:
    """SOFT Tyres (+2 Modifier): "For any roll between 2 and 6, add +2 to your roll." """
    for roll in range(2, 7):
        assert _at_zero("soft", "DRY").apply(f"die:{roll}").distance[0] == 30 + roll + 2


def test_a_lock_up_move_that_ends_on_a_flag_space_draws_no_card() -> None:
    """The Lock-up: the car goes off track, out of action, so its move ending on blue space 3 draws no
    BRC card (docs: no flag after a lock-up)."""
    s = _at_zero("soft", "DRY").apply("die:1")
    assert s.distance[0] % 30 == 3 and s.off_track[0] and s.stage == Stage.ROLL and "flag" not in texts(s)


def test_a_lock_up_cannot_take_the_pit_entry() -> None:
    """F1-A7: a lock-up move cannot enter the pit lane; it moves 3 past the entry and goes off track."""
    s = poised(started(), 0, dist=[54, 70, 71, 76], tyres=["soft", "hard", "hard", "hard"])  # space 24
    s = s.apply("die:1")
    assert s.pit_space[0] == -1 and s.distance[0] == 57 and s.off_track[0] and s.stage == Stage.ROLL


def test_the_modifier_is_read_at_the_start_of_each_turn() -> None:
    """'At the start of your turn, check the current weather and your tyre compound': the same SOFT 4
    moves 6 on a DRY track and 2 once the track is WET."""
    s = _at_zero("soft", "DRY")
    dry = s.apply("die:4")
    assert dry.distance[0] == 36 and "P1 rolls 4 on SOFT (DRY): moves 6" in texts(dry)
    s.weather = 1
    wet = s.apply("die:4")  # the same game: its cached roll events must not mix the weathers
    assert wet.distance[0] == 32 and "P1 rolls 4 on SOFT (WET): moves 2" in texts(wet)
