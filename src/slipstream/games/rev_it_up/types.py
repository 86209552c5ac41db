"""Rev it Up's nouns: the stages of a round, a racer's status, the counters, the queued tasks, the traps,
the finish marks and the typed actions. Imported by ``state.py``, ``rules.py`` and ``notation.py`` (and
the hooks); imports none of them.
"""

from __future__ import annotations

import enum
from typing import Final, NamedTuple

from slipstream.engine.notation import view_names


class Stage(enum.IntEnum):
    """Where a race stands. The first ones wait for a choice or a chance outcome; the automatic ones
    (from ``TASKS`` on) are passed through by ``rules.advance`` within the action that reaches them."""

    DRAW = 0
    """Turn Structure 1: the ``current`` racer draws a chip (chance)."""
    ITEM_DIE = 1
    """Turn Structure 3: the ``current`` racer rolls the item die (chance)."""
    REROLL = 2
    """Turn Structure 3: keep the rolled item or reroll."""
    GAIN_ITEM = 3
    """Items: the gainer picks a Sticky Bomb's victim, or the item to drop from a full ready area."""
    BOOST = 4
    """RIU-A5: a Boost item right after the racer's own move, or pass."""
    STOP_OR_GO = 5
    """Turn Structure 4 (simultaneous)."""
    USE_ITEMS = 6
    """Turn Structure 5 (simultaneous)."""
    BUY = 7
    """Buying New Chips and Items (simultaneous, private carts)."""
    OVER = 8
    """Game End."""
    TASKS = 9
    """Play out the queued item rolls and gains, then go on to ``after_tasks``."""
    ROUND_START = 10
    TURN_START = 11
    MOVE = 12
    """Turn Structure 2: each racer in ``movement_order`` moves by its drawn chip."""
    STOP_OR_GO_START = 13
    USE_ITEMS_START = 14
    BUY_START = 15
    ROUND_END = 16


STAGE_NAMES: Final = view_names(Stage)
"""The stage as the view's ``phase`` names it: ``draw``, ``item-die``, ``reroll``, ``gain-item``, ``boost``,
``stop-or-go``, ``use-items``, ``buy``, ``over``. The automatic stages are named too (``tasks``,
``round-start``, ...), but no state rests on one: ``rules.advance`` runs them within the action that
reaches them (``invariant_problems`` checks it)."""
SIMULTANEOUS: Final = frozenset({Stage.STOP_OR_GO, Stage.USE_ITEMS, Stage.BUY})
"""The stages where several seats choose at once (``RevState.waiting``)."""

RACING: Final = 0
STOPPED: Final = 1
OVERHEATED: Final = 2
FINISHED: Final = 3
"""A racer's status this round (``RevState.status``)."""
STATUS_NAMES: Final = ("racing", "stopped", "overheated", "finished")
NO_CHIP: Final = -1
"""``RevState.drawn`` for a racer with no drawn chip to resolve."""


class Stat(enum.IntEnum):
    """The per-seat counters kept for metrics (``RevState.stats[seat][stat]``)."""

    DRAWS = 0
    OVERHEATS = 1
    STOPS = 2
    ITEMS_GAINED = 3
    ITEMS_USED = 4
    COINS_SPENT = 5
    CHIPS_BOUGHT = 6
    REV_BONUS = 7
    DEBRIS_TAKEN = 8
    SPACES_MOVED = 9


class Task(NamedTuple):
    """An item roll (``roll``: with ``rerolls``) or an item gain (``item``) still to play out."""

    roll: bool
    seat: int
    rerolls: int
    item: str


class Trap(NamedTuple):
    """A Trap item waiting on a space of the track for the next other racer."""

    space: int
    item: str
    owner: int


class FinishMark(NamedTuple):
    """When a racer crossed the finish line: earlier marks finish ahead (RIU-A11)."""

    turn: int
    group: int
    """The index of its tie group in the turn's movement order."""
    behind: int
    """Minus its progress: further past the line is ahead."""


class Verb(enum.Enum):
    """What an action does (its first word)."""

    DRAW = "chip"
    ITEM = "item"
    """The item die's face (chance), or an item bought for 3 coins."""
    ROLL_ITEM_DIE = "item:roll"
    """Buying: roll the item die for 1 coin."""
    KEEP = "keep"
    REROLL = "reroll"
    GIVE = "give"
    DROP = "drop"
    BOOST = "boost"
    PASS = "pass"
    GO = "go"
    STOP = "stop"
    USE = "use"
    DONE = "done"
    BUY = "buy"
    UPGRADE = "up"


class Action(NamedTuple):
    """One action without its seat prefix: a verb, the chip or item it names, the seat it targets."""

    verb: Verb
    name: str = ""
    target: int | None = None

