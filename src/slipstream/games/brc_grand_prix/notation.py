"""BRC Grand Prix notation: the action strings, read into typed values and written back, in one place.

| action | meaning | value |
|---|---|---|
| ``<seat>:soft``, ``<seat>:hard`` | a seat's starting tyre (chosen simultaneously) | ``StartingTyre`` |
| ``die:N`` | one d6: a movement, grid, qualifying or pit-lane roll | ``Roll(N, 0)`` |
| ``dice:A-B`` | Sprint's 2d6 (A <= B) | ``Roll(A, B)`` |
| ``attack:pass``, ``attack:fail``, ``attack:crash`` | the Attack Die | ``AttackFace`` |
| ``card:<id>`` | the flag card drawn | ``FlagCard`` |
| ``tyre:keep``, ``tyre:soft``, ``tyre:hard``, ``tyre:wet`` | at the Pit Box: keep or change tyres | ``TyreChange`` |
| ``pit``, ``stay`` | at the Pit Entry | ``Choice`` |
| ``attempt``, ``safe`` | before a Defender | ``Choice`` |

Parsing is cached (the set of action strings is finite). The tyre numbers are those of ``rules``
(SOFT 0, HARD 1, WET 2); ``KEEP`` (-1) is the Pit Box's "no change".
"""

from __future__ import annotations

import enum
from typing import Final, NamedTuple

from slipstream.engine.game import seat_actions, split_seat_action
from slipstream.engine.notation import ParseCache

TYRE_WORDS: Final = ("soft", "hard", "wet")
"""The tyres as the notation spells them (index = the tyre number of ``rules``)."""
KEEP: Final = -1
"""``TyreChange.tyre`` for ``tyre:keep``."""


class StartingTyre(NamedTuple):
    seat: int
    tyre: int


class Roll(NamedTuple):
    """One d6 (``second`` is 0) or Sprint's two."""

    first: int
    second: int


class AttackFace(enum.Enum):
    PASS = "pass"
    FAIL = "fail"
    CRASH = "crash"


class FlagCard(NamedTuple):
    card_id: str


class TyreChange(NamedTuple):
    tyre: int
    """The tyre fitted, or ``KEEP``."""


class Choice(enum.Enum):
    PIT = "pit"
    STAY = "stay"
    ATTEMPT = "attempt"
    SAFE = "safe"


Action = StartingTyre | Roll | AttackFace | FlagCard | TyreChange | Choice

PIT_CHOICES: Final = (Choice.PIT.value, Choice.STAY.value)
"""The legal actions at the Pit Entry, sorted."""
OVERTAKE_CHOICES: Final = (Choice.ATTEMPT.value, Choice.SAFE.value)
"""The legal actions before a Defender, sorted."""

def parse(action: str) -> Action:
    """The typed value of an action string; ``ValueError`` if it is not BRC Grand Prix notation."""
    return PARSED[action]


def _parse(action: str) -> Action:
    head, colon, rest = action.partition(":")
    if not colon:
        return Choice(action)
    if head.isdigit():
        seat, word = split_seat_action(action)
        if word == TYRE_WORDS[2]:  # WET is never a starting tyre
            raise ValueError(f"not BRC Grand Prix notation: {action!r}")
        return StartingTyre(seat, _tyre(word, action))
    if head == "die":
        return Roll(_die(rest, action), 0)
    if head == "dice":
        first, dash, second = rest.partition("-")
        if not dash:
            raise ValueError(f"not BRC Grand Prix notation: {action!r}")
        return Roll(_die(first, action), _die(second, action))
    if head == "attack":
        return AttackFace(rest)
    if head == "card" and rest:
        return FlagCard(rest)
    if head == "tyre":
        return TyreChange(KEEP if rest == "keep" else _tyre(rest, action))
    raise ValueError(f"not BRC Grand Prix notation: {action!r}")


def _tyre(word: str, action: str) -> int:
    if word not in TYRE_WORDS:
        raise ValueError(f"not BRC Grand Prix notation: {action!r}")
    return TYRE_WORDS.index(word)


def _die(text: str, action: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 6:
        raise ValueError(f"not BRC Grand Prix notation: {action!r}")
    return int(text)


# --- typed readers for the rules (each stage knows which kind of action it takes) ---------------------------


def roll(action: str) -> Roll:
    """A movement, grid or qualifying roll (the hot one: cached by itself)."""
    return ROLLS[action]


def _roll(action: str) -> Roll:
    parsed = parse(action)
    if not isinstance(parsed, Roll):
        raise ValueError(f"not a roll: {action!r}")
    return parsed


def attack_face(action: str) -> AttackFace:
    value = parse(action)
    if not isinstance(value, AttackFace):
        raise ValueError(f"not an Attack Die face: {action!r}")
    return value


def card_id(action: str) -> str:
    value = parse(action)
    if not isinstance(value, FlagCard):
        raise ValueError(f"not a flag card: {action!r}")
    return value.card_id


def tyre_change(action: str) -> int:
    """The tyre fitted at the Pit Box, or ``KEEP``."""
    value = parse(action)
    if not isinstance(value, TyreChange):
        raise ValueError(f"not a Pit Box choice: {action!r}")
    return value.tyre


def starting_tyre(action: str) -> StartingTyre:
    value = parse(action)
    if not isinstance(value, StartingTyre):
        raise ValueError(f"not a starting tyre: {action!r}")
    return value


def choice(action: str) -> Choice:
    value = parse(action)
    if not isinstance(value, Choice):
        raise ValueError(f"not a pit or overtake choice: {action!r}")
    return value


# --- writing actions ----------------------------------------------------------------------------------------


def format_action(value: Action) -> str:
    """The action string of a typed value (``parse`` reversed)."""
    if isinstance(value, StartingTyre):
        return seat_actions(value.seat, (TYRE_WORDS[value.tyre],))[0]
    if isinstance(value, Roll):
        return f"dice:{value.first}-{value.second}" if value.second else f"die:{value.first}"
    if isinstance(value, AttackFace):
        return f"attack:{value.value}"
    if isinstance(value, FlagCard):
        return f"card:{value.card_id}"
    if isinstance(value, TyreChange):
        return f"tyre:{'keep' if value.tyre == KEEP else TYRE_WORDS[value.tyre]}"
    return value.value


def starting_tyre_actions(seat: int) -> tuple[str, ...]:
    """A seat's starting-tyre actions, sorted (SOFT or HARD: WET is never a starting tyre)."""
    found = _STARTING.get(seat)
    if found is None:
        found = _STARTING[seat] = tuple(format_action(StartingTyre(seat, t)) for t in (1, 0))
    return found


_STARTING: dict[int, tuple[str, ...]] = {}


PARSED: Final = ParseCache(_parse)
"""Every action string met, parsed once (the engine's bounded cache)."""
ROLLS: Final = ParseCache(_roll)
"""The roll strings met, parsed once and checked to be rolls."""
