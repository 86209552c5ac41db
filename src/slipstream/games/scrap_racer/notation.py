"""Scrap Racer notation: action strings to typed ``Action`` values and back, in this one place.

The notation (docs/rules/scrap-racer.md has the full table) does not change with this module:

    decisions   roll, stop, crash, boost:up, boost:down, boost:reroll, boost:turn,
                play:<bonus card>, move, done, first:<racer>, win:<racer>
    chance      die:N, dice:A-B, fight:A-B, crash:<effect>, bonus:<card>, goal:<card>,
                marker:<boost type>, racer:<racer>, start:P<n>

Scrap Racer has no simultaneous choices, so no action carries a seat prefix. The typed actions are in
``types.py``; ``parse`` reads each action string once (``PARSED``).
"""

from __future__ import annotations

from typing import Final

from slipstream.engine.notation import ParseCache

from .types import Action, BoostUse, Kind

_WORDS: Final = {"roll": Kind.ROLL_AGAIN, "stop": Kind.STOP, "crash": Kind.ACCEPT_CRASH, "move": Kind.MOVE,
                 "done": Kind.DONE}
_NAMED: Final = {"play": Kind.PLAY_CARD, "first": Kind.FIRST, "win": Kind.LET_WIN,
                 "crash": Kind.CRASH_CARD, "bonus": Kind.BONUS_CARD, "goal": Kind.GOAL_CARD,
                 "marker": Kind.MARKER, "racer": Kind.RACER}


def parse(text: str) -> Action:
    """The typed action of an action string (``ValueError`` for a string outside the notation)."""
    return PARSED[text]


def _parse(text: str) -> Action:
    head, colon, argument = text.partition(":")
    if not colon:
        if head in _WORDS:
            return Action(_WORDS[head])
    elif head == "die":
        return Action(Kind.DIE, "", (int(argument),))
    elif head in ("dice", "fight"):
        first, _, second = argument.partition("-")
        return Action(Kind.TWO_DICE if head == "dice" else Kind.FIGHT_DICE, "", (int(first), int(second)))
    elif head == "start" and argument.startswith("P"):
        return Action(Kind.START_PLAYER, "", (int(argument.removeprefix("P")) - 1,))
    elif head == "boost":
        return Action(Kind.BOOST, "", (), BoostUse(argument))
    elif head in _NAMED and argument:
        return Action(_NAMED[head], argument)
    raise ValueError(f"not a Scrap Racer action: {text!r}")


PARSED: Final = ParseCache(_parse)
"""Each action string read once."""


def text(action: Action) -> str:
    """The action string of a typed action (``parse(text(a)) == a``)."""
    kind = action.kind
    if kind in (Kind.ROLL_AGAIN, Kind.STOP, Kind.ACCEPT_CRASH, Kind.MOVE, Kind.DONE):
        return str(kind.value)
    if kind == Kind.DIE:
        return die(action.dice[0])
    if kind == Kind.TWO_DICE:
        return two_dice(action.dice[0], action.dice[1])
    if kind == Kind.FIGHT_DICE:
        return fight_dice(action.dice[0], action.dice[1])
    if kind == Kind.START_PLAYER:
        return start_player(action.dice[0])
    if kind == Kind.CRASH_CARD:
        return crash_card(action.name)
    if kind == Kind.BOOST and action.use is not None:
        return boost(action.use)
    return f"{kind.value}:{action.name}"


# --- the action strings, made in one place --------------------------------------------------------

ROLL_AGAIN: Final = "roll"
STOP: Final = "stop"
ACCEPT_CRASH: Final = "crash"
MOVE: Final = "move"
DONE: Final = "done"


def die(face: int) -> str:
    return f"die:{face}"


def two_dice(first: int, second: int) -> str:
    return f"dice:{first}-{second}"


def fight_dice(attacker: int, defender: int) -> str:
    return f"fight:{attacker}-{defender}"


def boost(use: BoostUse) -> str:
    return f"boost:{use.value}"


def play_card(card: str) -> str:
    return f"play:{card}"


def first(racer: str) -> str:
    return f"first:{racer}"


def let_win(racer: str) -> str:
    return f"win:{racer}"


def crash_card(effect: str) -> str:
    return f"crash:{effect}"


def deck_card(prefix: str, card: str) -> str:
    """The chance outcome of drawing ``card`` from a deck (``crash:``, ``bonus:`` or ``goal:``)."""
    return f"{prefix}:{card}"


def marker(boost_type: str) -> str:
    return f"marker:{boost_type}"


def racer(racer_id: str) -> str:
    return f"racer:{racer_id}"


def start_player(seat: int) -> str:
    return f"start:P{seat + 1}"
