"""BRC Grand Prix's nouns: the stages of a race, where a move runs and the counters kept for metrics.
Imported by ``state.py``, ``rules.py`` and the optional hooks; imports none of them.
"""

from __future__ import annotations

import enum
from typing import Final

from slipstream.engine.notation import view_names


class Stage(enum.IntEnum):
    """What the race waits for."""

    TYRES = 0
    """Every seat picks SOFT or HARD at once (hidden until all have chosen)."""
    GRID_ROLL_OFF = 1
    """A chance node: the next d6 of the grid roll-off."""
    QUALIFYING = 2
    """A chance node: the next d6 of a qualifying hot lap."""
    ROLL = 3
    """A chance node: the mover's movement roll (a d6, or Sprint's 2d6)."""
    PIT_CHOICE = 4
    """The mover's move reaches the Pit Entry: ``pit`` or ``stay``."""
    OVERTAKE = 5
    """The mover reaches a Defender: ``attempt`` or ``safe``."""
    ATTACK = 6
    """A chance node: the Attack Die."""
    FLAG = 7
    """A chance node: the top card of the BRC deck, drawn for a flag space."""
    PIT_BOX = 8
    """The mover passes its Pit Box: keep the tyres or change them."""
    OVER = 9
    """The race is over."""




class MoveKind(enum.IntEnum):
    """Where a move runs."""

    MAIN_TRACK = 0
    INTO_PIT = 1
    """Towards the Pit Entry: the move ends there."""
    OUT_OF_PIT = 2
    """Past the Pit Exit line, back onto the main track."""




class Counter(enum.IntEnum):
    """The counters kept for metrics, indices of ``BRCState.counters``; the names are the metrics'."""

    TURNS = 0
    SKIPPED_TURNS = 1
    OVERTAKE_ATTEMPTS = 2
    OVERTAKES = 3
    PLAY_SAFE = 4
    COLLISIONS = 5
    SAFETY_CARS = 6
    LOCKUPS = 7
    FLAG_CARDS = 8
    WEATHER_FLIPS = 9
    DYNAMIC_WEATHER_FLIPS = 10
    PIT_STOPS = 11
    PENALTIES = 12
    SPRINT_SOFT_ROLLS = 13
    SPRINT_LOCKUPS = 14


STAGE_NAMES: Final = view_names(Stage)
"""Each stage's name in the view (``pending.step``): ``"tyres"``, ``"grid-roll-off"``, ..., ``"over"``."""
CHANCE_STAGES: Final = frozenset((Stage.GRID_ROLL_OFF, Stage.QUALIFYING, Stage.ROLL, Stage.ATTACK,
                                  Stage.FLAG))
SETUP_STAGES: Final = frozenset((Stage.TYRES, Stage.GRID_ROLL_OFF, Stage.QUALIFYING))
