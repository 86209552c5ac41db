"""Scrap Racer's nouns: the stages of a turn, what a position waits for, the steps of a turn, the decks'
counts and the typed actions. Imported by ``state.py``, ``rules.py`` and ``notation.py``; imports none of
them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final, NamedTuple, final

from slipstream.engine.notation import view_names


class Stage(enum.IntEnum):
    """Where a race stands: what the next action answers (the view's ``phase`` is its name, in lower case)."""

    SETUP = 0
    """Dashboards and the start player are drawn (chance)."""
    ORDER = 1
    """Team game: a player chooses which of its racers goes first."""
    ROLL = 2
    """The active racer rolls a die (chance)."""
    DECIDE = 3
    """After a die: use a boost marker, roll again, stop, or accept a double."""
    CARDS = 4
    """Bonus cards may be played before the dice move (``move`` moves by the dice)."""
    CARDS_AFTER = 5
    """Bonus cards may be played after the dice move (``done`` ends the window)."""
    RESOLVING = 6
    """The turn's steps resolve; a chance outcome (fight dice, a card, a marker) is awaited."""
    FIGHT_CHOICE = 7
    """Team game: two racers of one player fight, and the player chooses the winner."""
    OVER = 8
    """The race is over."""


STAGE_NAMES: Final = view_names(Stage)
"""Each stage as the view names it (``phase``): ``"setup"``, ``"order"``, ..., ``"cards-after"``."""


class BoostType(enum.IntEnum):
    """The three kinds of boost marker, in the order of ``content.BOOST_TYPES`` (an index into a racer's
    ``boost_markers``)."""

    PLUS_MINUS = 0
    REROLL = 1
    TURN = 2


class NeedKind(enum.Enum):
    """What a position waits for (``Need.kind``)."""

    NOTHING = "nothing"
    """Between the steps of a turn, and in the stages that need no more than the stage says."""
    RACER = "racer"
    """Setup: a dashboard is drawn (chance)."""
    START_PLAYER = "start"
    """Setup: the start player is drawn (chance)."""
    FIGHT = "fight"
    """``racer`` and ``other`` roll their fight dice (chance)."""
    OWN_FIGHT = "own-fight"
    """Team game: ``racer`` and ``other`` fight, and their owner chooses the winner."""
    CRASH_CARD = "crash"
    """A crash card is drawn from ``pile`` (chance)."""
    TWO_DICE = "two-dice"
    """The 2 dice of a crash card (chance)."""
    BACKWARDS_DIE = "back-die"
    """The backwards die of a crash card (chance)."""
    BONUS_CARD = "bonus"
    """A bonus card is drawn into the hand of ``seat`` (chance)."""
    GOAL_CARD = "goal"
    """``racer``, which crossed the line, draws a goal card (chance)."""
    BOOST_MARKER = "marker"
    """``racer`` reveals the face-down boost marker of its boost space (``boost_space``, an index into the
    track's boost spaces) (chance)."""


@final
class Need:
    """The chance outcome or choice a position waits for: its kind and the racers, seat, pile or boost space
    it is about (-1 where the kind has none). Immutable (its fields are ``Final``: read-only in the compiled
    build), so states share it. A plain class rather than a named tuple or a dataclass: the compiled build
    makes it natively, ten times faster, and a race makes one every few actions."""

    __slots__ = ("boost_space", "kind", "other", "pile", "racer", "seat")

    def __init__(self, kind: NeedKind, racer: int = -1, other: int = -1, seat: int = -1, pile: int = -1,
                 boost_space: int = -1) -> None:
        self.kind: Final = kind
        self.racer: Final = racer
        self.other: Final = other
        self.seat: Final = seat
        self.pile: Final = pile
        self.boost_space: Final = boost_space

    def _fields(self) -> tuple[NeedKind, int, int, int, int, int]:
        return self.kind, self.racer, self.other, self.seat, self.pile, self.boost_space

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Need) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value}" for name, value in zip(
            ("racer", "other", "seat", "pile", "boost_space"), self._fields()[1:], strict=True) if value >= 0)
        return f"Need({self.kind.name}{', ' if shown else ''}{shown})"


NOTHING_NEEDED: Final = Need(NeedKind.NOTHING)


class DeckCounts(NamedTuple):
    """The cards of one deck by card (the order of ``Deck.cards``): in the draw pile and the discard pile."""

    draw: tuple[int, ...]
    discard: tuple[int, ...]


@dataclass(frozen=True)
class Deck:
    """One deck: its cards, and where its draw and discard counts live (``ScrapState.decks[index]``)."""

    prefix: str
    cards: tuple[str, ...]
    index: int
    total: int
    discard_on_draw: bool
    actions: tuple[str, ...]
    """The chance outcome of drawing each card: ``"<prefix>:<card>"``."""


class StepKind(enum.Enum):
    """A step of the turn's resolution queue (``rules.run_queue``)."""

    ABILITY = "ability"
    FIGHTS = "fights"
    CROSSINGS = "crossings"
    REFILL = "refill"
    COLLECT = "collect"
    END = "end"
    BONUS_MARKER = "marker"
    REVEAL = "reveal"


class Step(NamedTuple):
    """One step still to resolve this turn, with the racer it is about (-1: none)."""

    kind: StepKind
    racer: int = -1


MAX_RACERS: Final = 6
"""The most racers a race has (6 seats of one racer, or 3 seats of two)."""
ABILITY_STEP: Final = Step(StepKind.ABILITY)
CROSSINGS_STEP: Final = Step(StepKind.CROSSINGS)
REFILL_STEP: Final = Step(StepKind.REFILL)
COLLECT_STEP: Final = Step(StepKind.COLLECT)
END_STEP: Final = Step(StepKind.END)
FIGHTS_STEPS: Final = tuple(Step(StepKind.FIGHTS, racer) for racer in range(MAX_RACERS))
"""Racer ``racer``'s fights step is ``FIGHTS_STEPS[racer]`` (the steps of every turn are made once)."""
BONUS_MARKER_STEPS: Final = tuple(Step(StepKind.BONUS_MARKER, racer) for racer in range(MAX_RACERS))
REVEAL_STEPS: Final = tuple(Step(StepKind.REVEAL, racer) for racer in range(MAX_RACERS))


class CrashEffect(enum.Enum):
    """What a crash card does (Overview of Cards: Crash cards)."""

    FORWARD = "forward"
    TWO_DICE = "two-dice"
    FIVE_FORWARD_TWO_BACK = "five-forward-two-back"
    STAY_PUT = "stay-put"
    CATCHING_UP = "catching-up"
    BACKWARDS_DIE = "backwards-die"
    PUSH = "push"
    BACKWARDS = "backwards"
    LOSS_OF_POSITION = "loss-of-position"
    LAST_PLACE_FORWARD = "last-place"


# --- the typed actions (``notation`` reads and writes their strings) ------------------------------------

class Kind(enum.Enum):
    """What an action does (the word before the colon; ``crash`` alone accepts a double)."""

    ROLL_AGAIN = "roll"
    STOP = "stop"
    ACCEPT_CRASH = "crash"
    BOOST = "boost"
    PLAY_CARD = "play"
    MOVE = "move"
    DONE = "done"
    FIRST = "first"
    LET_WIN = "win"
    DIE = "die"
    TWO_DICE = "dice"
    FIGHT_DICE = "fight"
    CRASH_CARD = "crash-card"
    BONUS_CARD = "bonus"
    GOAL_CARD = "goal"
    MARKER = "marker"
    RACER = "racer"
    START_PLAYER = "start"


class BoostUse(enum.Enum):
    """How a boost marker changes the die just rolled (``boost:<use>``)."""

    UP = "up"
    DOWN = "down"
    REROLL = "reroll"
    TURN = "turn"


class Action(NamedTuple):
    """One action, typed.

    ``name``: the card, crash effect, boost type or racer id the action names ("" if none);
    ``dice``: the faces it rolls (one die, two dice, the two fighters' dice) or, for ``start``, the seat;
    ``use``: how a boost marker changes the die (``boost:<use>`` only).
    """

    kind: Kind
    name: str = ""
    dice: tuple[int, ...] = ()
    use: BoostUse | None = None
