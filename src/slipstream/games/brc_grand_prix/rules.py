"""The BRC Grand Prix rule tables as small named functions, readable beside the rulebook.

Section names in the docstrings are those of ``rules/brc-grand-prix.txt``.
"""

from __future__ import annotations

SOFT, HARD, WET = 0, 1, 2
TYRE_NAMES = ("soft", "hard", "wet")
DRY_TRACK, WET_TRACK = 0, 1
WEATHER_NAMES = ("DRY", "WET")


def tyre_modifier(tyre: int, weather: int) -> int:
    """Movement, the tyre and weather table (F1-A1): DRY: SOFT +2, HARD +0, WET -2; WET: WET +2, SOFT/HARD -2."""
    if weather == DRY_TRACK:
        return (2, 0, -2)[tyre]
    return 2 if tyre == WET else -2


def standard_move(roll: int, tyre: int, weather: int) -> tuple[int, bool]:
    """Spaces moved for one d6 and whether the car locked up.

    "The Lock-up (Rolling a 1): If you roll a 1, you move exactly 3 spaces ... and miss your next full
    turn" (SOFT on a DRY track only: "The Lock-up penalty for Soft tyres does not apply in Wet
    conditions"). "The Minimum Movement Rule": never below 0.
    """
    if roll == 1 and tyre == SOFT and weather == DRY_TRACK:
        return 3, True
    return max(0, roll + tyre_modifier(tyre, weather)), False


def sprint_move(die_a: int, die_b: int, tyre: int) -> tuple[int, bool]:
    """Sprint mode: 2d6; SOFT +4 and a lock-up if either die shows 1 (the move is completed); HARD +0."""
    if tyre == SOFT:
        return die_a + die_b + 4, die_a == 1 or die_b == 1
    return die_a + die_b, False


def qualifying_roll(roll: int, tyre: int) -> tuple[int, int]:
    """Hot-lap qualifying: (spaces moved, rolls counted). A 1 on SOFT moves 3 and counts as 2 rolls."""
    if tyre == SOFT:
        return (3, 2) if roll == 1 else (roll + 2, 1)
    return roll, 1


def pit_window(laps: int) -> tuple[int, int] | None:
    """The mandatory pit window: from the start of lap 2 to the end of lap 7 of 8, i.e. laps 2..laps-1.

    Races shorter than 3 laps have no window.
    """
    if laps < 3:
        return None
    return 2, laps - 1


def lap_of(dist: int, length: int) -> int:
    """The lap a car is on at ``dist`` spaces past the start line (grid cars behind it are on lap 1)."""
    return max(1, dist // length + 1)
