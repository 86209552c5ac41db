"""Highway Heist's nouns: the stages and phases of a match, the pieces on the road, the tasks of the
queue, a Skill Roll under way and a choice waiting for an answer.

Imported by ``state.py``, ``rules.py``, ``effects.py``, ``turn.py`` and the hooks; imports none of them
(only ``content`` and ``notation``, which import nothing of the game's).
"""

from __future__ import annotations

import enum
from typing import Final, NamedTuple

from slipstream.engine.notation import view_names

from .content import Line
from .notation import Action, Verb


class Stage(enum.IntEnum):
    """Where a match stands. ``AUTO`` is never seen outside ``apply``: the queue is being worked."""

    AUTO = 0
    CHOOSE_TURN = 1
    """Playing the Game: the team chooses who plays next (each seat not yet Exhausted may claim it)."""
    ACTION = 2
    """Take Two Actions: the Active Player's next action."""
    ASSIST = 3
    """Assist: the other seats with Boost tokens may add dice before the roll."""
    ROLL = 4
    """Skill Rolls: the Effort Dice (chance)."""
    BOOST = 5
    """Boost (yourself): after the roll, the roller may discard a token."""
    CHOICE = 6
    """A choice inside an action or an enemy effect (``choice``)."""
    ENEMY_DIE = 7
    """Roll the Enemy Die (chance)."""
    ENEMY_CARD = 8
    """Draw an Enemy card (chance: the deck holds no order)."""
    STUNT_CARD = 9
    """Draw a Stunt card (chance: the next level's cards not yet seen)."""
    OVER = 10
    POWER = 11
    """A Special Power's window: Brian's reroll, Tej's token (any roll), Dom taking a slam."""
    REROLL = 12
    """Brian's Wheelman: the rerolled die (chance)."""


STAGE_NAMES: Final = view_names(Stage)
"""Each stage as the view names it (``stage``): ``"auto"``, ``"choose-turn"``, ..., ``"reroll"``."""


class Phase(enum.IntEnum):
    """The part of the round: Setup, the Active Player's actions, the enemy's answer, the End of Round."""

    SETUP = 0
    ACTIONS = 1
    ENEMY = 2
    END_ROUND = 3


# --- pieces ---------------------------------------------------------------------------------------

SUV: Final = 0
"""An Enemy SUV."""
PLAYER: Final = 1
"""A starting Player Vehicle."""
HIJACKED: Final = 2
"""A Hijacked SUV: a Player Vehicle."""
ABANDONED: Final = 3
"""A starting Player Vehicle left for a hijacked SUV (Hijack Enemy SUV)."""
WRECK: Final = 4
TANK: Final = 5
CAB: Final = 6
"""The Semi's cab."""
TRAILER: Final = 7
"""The Semi's trailer."""
SHAW: Final = 8
"""Shaw's Car."""
KIND_NAMES: Final = ("enemy-suv", "player-vehicle", "hijacked-suv", "abandoned", "wreck", "tank", "semi-cab",
                     "semi-trailer", "shaw-car")
"""``Piece.kind`` (one of the constants above, its index here) as the view names it. ``PLAYER`` and
``HIJACKED`` on the road are exactly the Player Vehicles."""
PEG_VEHICLES: Final = frozenset({SUV, PLAYER, HIJACKED, ABANDONED, TANK, CAB, TRAILER, SHAW})
"""Pieces with roof slots (Core Concepts: pegs are only on vehicles; Wrecks have none)."""
ENEMY_VEHICLES: Final = frozenset({SUV, TANK, CAB, TRAILER, SHAW})
"""Pieces where an Enemy Peg Brawls a Player Peg (Roll the Enemy Die: Enemy Peg, Brawl)."""
ROOF_SLOTS: Final = 2
OFF: Final = -1
"""The space of a piece that is not on the road (in the supply, or removed)."""
BEHIND_WHEEL: Final = -1
NOWHERE: Final = -2
"""``peg_on``: behind the wheel, or on no vehicle: a peg on its way to a vehicle, or one stranded because
no vehicle had a free slot for it (HH-X7, ``rules.strand_player_peg``)."""

SPEED: Final = 0
CONTROL: Final = 1
ATHLETICS: Final = 2
DEFENSE: Final = 3
"""The Skill Categories, indexes of a board's ``ratings``."""


class Piece(NamedTuple):
    """A vehicle, Wreck or Main Enemy piece on the road (``space`` >= 0) or off it (``OFF``)."""

    kind: int
    """``SUV``, ``PLAYER``, ... ``SHAW`` (``KIND_NAMES``)."""
    space: int
    owner: int = -1
    """The seat whose Player Vehicle (or abandoned starting vehicle) this is; -1 for enemies."""
    enemy_peg: bool = False
    cargo: int = 0
    suv: bool = False
    """An Enemy SUV miniature (it returns to the SUV supply when its Wreck leaves the road)."""


# --- the queue ------------------------------------------------------------------------------------


class TaskKind(enum.IntEnum):
    """What a queued ``Task`` does, and which of its fields it reads."""

    EFFECT = 0
    """A line of the effect language (``line``, with ``seat`` and ``target``)."""
    SUV = 1
    """An Enemy SUV activates (``piece``)."""
    PEG = 2
    """An Enemy Peg activates (``piece``: the vehicle it is on)."""
    SHAW = 3
    """Shaw's Car activates."""
    DAMAGE = 4
    """``seat``'s Player Vehicle takes ``amount`` damage (a Defense roll first)."""
    CARD = 5
    """Enemy Cards: the row moves on."""
    DRAW_ENEMY = 6
    WRECK_MOVE = 7
    """Road Maintenance: a Wreck moves (``piece``)."""
    DRIFT = 8
    """Road Maintenance: an unmanned or abandoned vehicle drifts (``piece``)."""
    STUNT_MAINTENANCE = 9
    RELOCATE = 10
    """``seat``'s Player Peg moves off the vehicle that was at ``origin``."""
    ENEMY_RELOCATE = 11
    """The Enemy Peg moves off the vehicle that was at ``origin``."""
    RAMSEY = 12
    """Ramsey moves off her vehicle that was at ``origin``."""
    ACTION = 13
    ROAD_MAINTENANCE = 14
    FAMILY_FIRST = 15
    """A slam of ``amount`` at ``seat``: Dom may take it first."""
    PEG_ORDER = 16
    """The team orders the pegs moving off the vehicle that was at ``origin``."""


class Task(NamedTuple):
    """One step waiting in the queue; ``TaskKind`` says which fields a kind reads."""

    kind: TaskKind
    seat: int = -1
    """The acting or damaged seat."""
    piece: int = -1
    """The piece that acts or moves."""
    origin: int = -1
    """The space a destroyed vehicle left (its pegs and Ramsey move off it)."""
    amount: int = 0
    """Damage."""
    line: Line | None = None
    target: int = -1
    """The piece an effect line targets (a Stunt's ``@`` space), or -1."""


# --- Skill Rolls ----------------------------------------------------------------------------------


class RollKind(enum.IntEnum):
    ACTION = 0
    DEFENSE = 1


class Roll(NamedTuple):
    """A Skill Roll under way (Skill Rolls; Damage and Defense)."""

    kind: RollKind
    seat: int
    dice: int
    need: int
    action: str = ""
    """The declared action (ACTION rolls), performed on success."""
    damage: int = 0
    faces: tuple[int, int, int] = (0, 0, 0)
    bonus: int = 0
    """Successes added after the roll (the Exotic Supercar's power)."""
    boosted: bool = False
    skill: int = -1
    """The Skill Category rolled (``DEFENSE`` for a Defense roll)."""
    rerolled: bool = False
    """Brian's Wheelman used or declined on this roll."""
    teched: bool = False
    """Tej's Tech Support used or declined on this roll."""
    declared: Action | None = None
    """``action`` parsed (ACTION rolls): performed as it is on success, never parsed again."""


ROLL_VERBS: Final = {Verb.RAM: "ram", Verb.FORCE: "force", Verb.SHAKE: "shake", Verb.BRAWL: "brawl",
                     Verb.HIJACK: "hijack"}
"""The actions with a Skill Roll of their own (content ``actions``); Stunts and scenario actions roll too."""


# --- choices --------------------------------------------------------------------------------------


class ChoiceKind(enum.IntEnum):
    """What a ``Choice`` decides, and which of its fields it reads."""

    FORCE_TO = 0
    """Force: where the forced vehicle (``piece``) goes; ``vacated`` is the space it left."""
    FOLLOW = 1
    """Force: whether the Active Player Vehicle follows into ``vacated``."""
    MOVE_TO = 2
    """A ``move`` effect: where ``piece`` goes (``vacated``, ``follow`` as for FORCE_TO)."""
    DIRECTION = 3
    PEG = 4
    SLAM = 5
    """Which adjacent Player Vehicle a slam of ``amount`` hits."""
    REMOVE_PEG = 6
    RAMSEY = 7
    FREE_LEAP = 8
    ENEMY_PEG = 9
    """Which vehicle an Enemy Peg moves onto (from ``piece``, or -1: one displaced from a Wreck)."""
    PEG_ORDER = 10
    """Whose peg moves first off the vehicle that was at ``origin``."""
    HIT = 11
    """Which Player Vehicle takes a hit of ``amount`` (HH-X2)."""


class Choice(NamedTuple):
    """A decision inside an action or an enemy effect: who makes it, what it is and the options;
    ``ChoiceKind`` says which of the other fields a kind reads."""

    kind: ChoiceKind
    seat: int
    options: tuple[str, ...]
    piece: int = -1
    vacated: int = -1
    """The space a moved vehicle left: the Active Player Vehicle may follow into it."""
    follow: bool = False
    """The Active Player Vehicle is asked whether it follows."""
    amount: int = 0
    origin: int = -1


NO_DIRECTION: Final = "none"
"""The direction choice that moves nothing (``dir:none``)."""
DIRECTION_STEPS: Final = {"north": (0, -1), "south": (0, 1), "east": (1, 0), "west": (-1, 0),
                          "north-east": (1, -1), "south-east": (1, 1), "north-west": (-1, -1),
                          "south-west": (-1, 1)}
STEP_WORDS: Final = {(0, -1): "one lane North", (0, 1): "one lane South", (1, 0): "one space East",
                     (-1, 0): "one space West", (1, -1): "one space North-East", (1, 1): "one space South-East",
                     (-1, -1): "one space North-West", (-1, 1): "one space South-West"}
"""A Main Enemy's step in words (columns run West to East, lanes North to South)."""
