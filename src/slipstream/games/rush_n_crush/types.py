"""Rush 'n' Crush's nouns: the stages of a turn, the tasks of a turn's queue and the typed actions.

Imported by ``state.py``, ``rules.py`` and ``notation.py`` (and the hooks); imports none of them.
"""

from __future__ import annotations

import enum
from typing import Final, NamedTuple

from slipstream.engine.notation import view_names


class Stage(enum.IntEnum):
    """What the next action answers."""

    GRID = 0
    """Setup: the next grid slot is dealt to a car (chance)."""
    GEAR = 1
    """T1: the free gearstick action (or equipment)."""
    POINTS = 2
    """T2: Turbo or Brake points, then ``done`` (or equipment)."""
    ROLL = 3
    """A chance node: ``need`` says which roll."""
    MOVE = 4
    """T5: the next step (or equipment between steps)."""
    SWERVE = 5
    """After hitting a fixed obstruction: the side of the compulsory lane change."""
    AFTER = 6
    """T6: equipment, the Rocket Booster, then ``end``."""
    OVER = 7
    DEAL = 8
    """Setup with ``seat_assignment = "random"``: the next car or driver is dealt (chance)."""


STAGE_NAMES: Final = view_names(Stage)
"""Each stage as the view names it (``phase``): ``"grid"``, ``"gear"``, ..., ``"deal"``."""


class Task(enum.IntEnum):
    """An entry of ``RushState.queue`` (the first entry of its tuple): a roll or a step still to make."""

    GRID = 0
    HEAT = 1
    """(HEAT, car, dice, heat_on): the red dice."""
    STEER = 2
    """(STEER, car): the white dice of the car's speed."""
    CRASH = 3
    """(CRASH, car, in_booster): a fixed obstruction's damage."""
    WRECK = 4
    """(WRECK, car): the car entered a wreck's square."""
    MINE = 5
    """(MINE, car, square): the car entered another car's mine."""
    RAM = 6
    """(RAM, attacker, target, direction, bumper, saw, mine): the Side Ram die."""
    SAW = 7
    """(SAW, target): the Lateral Circular Saw's die."""
    GUN = 8
    """(GUN, target, dice): the Machine Gun."""
    FLAME = 9
    """(FLAME, target, dice): the Flamer."""
    RNC = 10
    """(RNC, attacker, target, dice left, combat_bumper, both so far, target-only so far): a Rush 'n' Crush,
    one die at a time."""
    BOOST_HEAT = 11
    """(BOOST_HEAT, car, dice): a heat die per square the Rocket Booster moved."""
    FORWARD = 12
    """(FORWARD, car, mine): the straight step after a Side Ram that did not displace."""
    ENTER = 13
    """(ENTER, car, square, lane_change, mine): the attacker takes the displaced car's square."""
    BOOST_STEP = 14
    """(BOOST_STEP, car, mine): one square of the Rocket Booster."""


ROLLS: Final = frozenset({Task.GRID, Task.HEAT, Task.STEER, Task.CRASH, Task.WRECK, Task.MINE, Task.RAM,
                          Task.SAW, Task.GUN, Task.FLAME, Task.RNC, Task.BOOST_HEAT})
ATTACKS: Final = frozenset({Task.RAM, Task.SAW, Task.GUN, Task.FLAME, Task.RNC})
"""The rolls the attacker makes (the active car), whichever car they hurt."""

TURBO_POINTS: Final = 1
BRAKE_POINTS: Final = 2
"""``RushState.points_kind``: the kind of point spent this turn (0 for none yet)."""


class Kind(enum.IntEnum):
    """The kind of an action (``Move.kind``): the word it starts with."""

    GRID = 0
    GEAR = 1
    KEEP = 2
    TURBO = 3
    BRAKE = 4
    DONE = 5
    HEAT = 6
    STEER = 7
    CRASH = 8
    DIE = 9
    HITS = 10
    STEP = 11
    SWERVE = 12
    ARM = 13
    USE = 14
    BOOST = 15
    END = 16
    CAR = 17
    DRIVER = 18


class Direction(enum.IntEnum):
    """A step's direction: its value is the lane change (-1 left, 1 right)."""

    LEFT = -1
    AHEAD = 0
    RIGHT = 1


class Move(NamedTuple):
    """One action, typed: ``number`` is the count/die/seat/direction, ``name`` a node or a piece."""

    kind: Kind
    number: int = 0
    name: str = ""
    bumper: bool = False
    saw: bool = False
    mine: bool = False
    mine_square: int = 1
    """The Rocket Booster's square (1..N) whose step drops the mine: ``boost:3+mine@2`` drops it on the square
    the second step leaves; 1, the square the Booster starts from, is written without ``@``."""
