"""Rush 'n' Crush notation: the action strings, read into typed values and written back, in one place.

| action | meaning |
|---|---|
| ``grid:P3`` | chance: the next grid slot goes to the car of P3, seat 2 (named as in ``start:P<n>``) |
| ``car:<id>``, ``driver:<id>`` | chance (``seat_assignment = random``): the next seat's car or driver |
| ``gear:g2y`` | the free gearstick action: accelerate, brake or shift to node ``g2y`` |
| ``keep`` | the free action: leave the gearstick where it is |
| ``turbo:g3y``, ``brake:g1y`` | spend one Turbo / Brake point to accelerate / brake to that node |
| ``done`` | no more points |
| ``heat:N`` | chance: the red (or Rocket Booster) dice give N heat |
| ``steer:N`` | chance: the white dice give N lane changes |
| ``crash:N`` | chance: a fixed obstruction deals N structure (the inverted steering roll) |
| ``die:N`` | chance: one d6 (a wreck, a mine, a Side Ram, the Lateral Circular Saw, each Rush 'n' Crush die) |
| ``hits:N`` | chance: N dice of a Machine Gun or Flamer hit (1-2) |
| ``ahead``, ``left``, ``right`` | one step: straight ahead, diagonally forward left / right |
| ``...+bumper``, ``...+saw`` | a Side Ram Using the Side Bumper / the Lateral Circular Saw |
| ``...+mine`` | drop a mine on the square being left |
| ``swerve-left``, ``swerve-right`` | the compulsory lane change after hitting a fixed obstruction |
| ``swerve-left+mine`` | the same, dropping a mine on the square it leaves |
| ``arm:<piece>`` | an Activation: arm a piece (``side-bumper``, ``flamer``, ``machine-gun``, ...) |
| ``use:<piece>`` | an Activation: Use ``machine-gun``, ``flamer`` or ``fire-extinguisher`` |
| ``boost:N`` | Use the Rocket Booster: N = 1-3 squares straight on |
| ``boost:N+mine`` | the same, dropping a mine on the square it starts from |
| ``boost:N+mine@K`` | the same, dropping the mine on the square its K-th square leaves (K = 2..N) |
| ``end`` | end the turn |

Suffixes are written in the order ``+bumper+saw+mine``; ``@K`` follows a Rocket Booster's ``+mine`` only.
Each string is parsed once (``PARSED``, the engine's ``ParseCache``).
"""

from __future__ import annotations

from typing import Final

from slipstream.engine.errors import IllegalActionError
from slipstream.engine.notation import ParseCache

from .types import Direction, Kind, Move

DIRECTION_WORDS: Final = {Direction.LEFT: "left", Direction.AHEAD: "ahead", Direction.RIGHT: "right"}
WORD_DIRECTIONS: Final = {w: d for d, w in DIRECTION_WORDS.items()}
KEEP: Final = "keep"
DONE: Final = "done"
END: Final = "end"
SIMPLE: Final = {KEEP: Kind.KEEP, DONE: Kind.DONE, END: Kind.END}
NUMBERED: Final = {"heat": Kind.HEAT, "steer": Kind.STEER, "crash": Kind.CRASH, "die": Kind.DIE,
                   "hits": Kind.HITS, "boost": Kind.BOOST}
MAX_SQUARES: Final = 9
"""The most Rocket Booster squares a ``+mine@K`` may name in the notation (the rules allow 1-3)."""
NAMED: Final = {"car": Kind.CAR, "driver": Kind.DRIVER, "gear": Kind.GEAR, "turbo": Kind.TURBO, "brake": Kind.BRAKE,
                 "arm": Kind.ARM, "use": Kind.USE}


def grid(seat: int) -> str:
    return f"grid:P{seat + 1}"


def dealt(kind: str, name: str) -> str:
    return f"{kind}:{name}"


def gear(node: str) -> str:
    return f"gear:{node}"


def point(kind: Kind, node: str) -> str:
    return f"{'turbo' if kind is Kind.TURBO else 'brake'}:{node}"


def numbered(word: str, n: int) -> str:
    return f"{word}:{n}"


def step(direction: Direction, bumper: bool = False, saw: bool = False, mine: bool = False) -> str:
    return DIRECTION_WORDS[direction] + ("+bumper" if bumper else "") + ("+saw" if saw else "") + (
        "+mine" if mine else "")


def swerve(direction: Direction, mine: bool = False) -> str:
    return f"swerve-{DIRECTION_WORDS[direction]}" + ("+mine" if mine else "")


def arm(piece: str) -> str:
    return f"arm:{piece}"


def use(piece: str) -> str:
    return f"use:{piece}"


def boost(n: int, mine: bool = False, mine_square: int = 1) -> str:
    return f"boost:{n}" + ("+mine" if mine else "") + (f"@{mine_square}" if mine and mine_square > 1 else "")


def parse(action: str) -> Move:
    """The typed value of an action string; ``IllegalActionError`` for a string of no known shape."""
    return PARSED[action]


def _parse(action: str) -> Move:
    head, *suffixes = action.split("+")
    mine_square = 1
    if suffixes and suffixes[-1].startswith("mine@"):
        at = suffixes[-1][5:]
        if not (head.startswith("boost:") and at.isdigit() and at[0] != "0" and 2 <= int(at) <= MAX_SQUARES
                and head[6:].isdigit() and int(at) <= int(head[6:])):
            raise IllegalActionError(action, (), "a mine's Booster square is 2 up to the Booster's squares")
        mine_square = int(at)
        suffixes[-1] = "mine"
    flags = set(suffixes)
    if len(flags) != len(suffixes) or not flags <= {"bumper", "saw", "mine"}:
        raise IllegalActionError(action, (), "unknown suffix")
    mine = "mine" in flags
    if head in SIMPLE and not flags:
        return Move(SIMPLE[head])
    if head in WORD_DIRECTIONS:
        return Move(Kind.STEP, int(WORD_DIRECTIONS[head]), bumper="bumper" in flags, saw="saw" in flags, mine=mine)
    if head.startswith("swerve-") and head[7:] in ("left", "right") and flags <= {"mine"}:
        return Move(Kind.SWERVE, int(WORD_DIRECTIONS[head[7:]]), mine=mine)
    word, sep, rest = head.partition(":")
    if sep and rest:
        if word == "grid" and rest[0] == "P" and rest[1:].isdigit() and not flags:
            return Move(Kind.GRID, int(rest[1:]) - 1)
        if word in NUMBERED and rest.isdigit() and (not flags or (word == "boost" and flags == {"mine"})):
            return Move(NUMBERED[word], int(rest), mine=mine, mine_square=mine_square)
        if word in NAMED and not flags:
            return Move(NAMED[word], name=rest)
    raise IllegalActionError(action, (), "not an action of Rush 'n' Crush")


PARSED: Final = ParseCache(_parse)
"""Every action string parsed so far, with its typed value (``parse``)."""


def write(move: Move) -> str:
    """The action string of a typed value (``parse(write(m)) == m``)."""
    kind = move.kind
    if kind is Kind.GRID:
        return grid(move.number)
    if kind in (Kind.KEEP, Kind.DONE, Kind.END):
        return {Kind.KEEP: KEEP, Kind.DONE: DONE, Kind.END: END}[kind]
    if kind is Kind.STEP:
        return step(Direction(move.number), move.bumper, move.saw, move.mine)
    if kind is Kind.SWERVE:
        return swerve(Direction(move.number), move.mine)
    if kind is Kind.BOOST:
        return boost(move.number, move.mine, move.mine_square)
    for word, k in NUMBERED.items():
        if k is kind:
            return numbered(word, move.number)
    word = next(w for w, k in NAMED.items() if k is kind)
    return f"{word}:{move.name}"

