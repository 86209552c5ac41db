"""Rev it Up's notation: every action string, turned into a typed ``Action`` (``parse``) and back (``text``).

The strings (docs/rules/rev-it-up.md)::

    chip:<chip>              chance: the drawer draws that chip (Turn Structure 1)
    item:<item>              chance: the item die shows that item (Turn Structure 3)
    keep | reroll            after an item-die roll with rerolls left
    give:<seat> | drop:<item>  a gained Sticky Bomb's victim, or the item to drop from a full ready area
    boost:<item> | pass      a Boost item during movement, or none
    <seat>:go | <seat>:stop  stop or keep going (simultaneous)
    <seat>:pass | <seat>:use:<item>[:<seat>]          use an item from the ready area (simultaneous)
    <seat>:buy:<chip>[:<seat>] | <seat>:up:<chip> | <seat>:item:roll | <seat>:item:<item> | <seat>:done
                             one step of a buying cart (simultaneous)

The rules read only ``Action`` values; the builders below write the strings they offer. The set of
action strings in a race is finite, so each is parsed once (the engine's ``ParseCache``).
"""

from __future__ import annotations

from typing import Final

from slipstream.engine.game import seat_actions, split_seat_action
from slipstream.engine.notation import ParseCache

from .types import Action, Verb

KEEP: Final = "keep"
REROLL: Final = "reroll"
PASS: Final = "pass"
GO: Final = "go"
STOP: Final = "stop"
DONE: Final = "done"
ROLL_ITEM_DIE: Final = "item:roll"
_WORDS: Final = {KEEP: Verb.KEEP, REROLL: Verb.REROLL, PASS: Verb.PASS, GO: Verb.GO, STOP: Verb.STOP,
                 DONE: Verb.DONE, ROLL_ITEM_DIE: Verb.ROLL_ITEM_DIE}
_NAMED: Final = {"chip": Verb.DRAW, "item": Verb.ITEM, "drop": Verb.DROP, "boost": Verb.BOOST,
                 "up": Verb.UPGRADE}
_TARGETED: Final = {"use": Verb.USE, "buy": Verb.BUY}


# --- the builders the rules use to offer actions ---------------------------------------------------

def draw(chip: str) -> str:
    return f"chip:{chip}"


def item(item_id: str) -> str:
    """The item die's face, or (buying) the item taken for 3 coins."""
    return f"item:{item_id}"


def give(victim: int) -> str:
    return f"give:{victim}"


def drop(item_id: str) -> str:
    return f"drop:{item_id}"


def boost(item_id: str) -> str:
    return f"boost:{item_id}"


def use(item_id: str, target: int | None = None) -> str:
    return f"use:{item_id}" if target is None else f"use:{item_id}:{target}"


def buy(chip: str, target: int | None = None) -> str:
    return f"buy:{chip}" if target is None else f"buy:{chip}:{target}"


def upgrade(chip: str) -> str:
    return f"up:{chip}"


def seated(seat: int, actions: list[str]) -> tuple[str, ...]:
    """A seat's own options at a simultaneous choice, prefixed and sorted (its legal actions)."""
    return tuple(seat_actions(seat, sorted(actions)))


# --- parsing and writing ----------------------------------------------------------------------------

class NotationError(ValueError):
    """Not a Rev it Up action string."""


def parse(action: str) -> Action:
    """``"use:rocket:2"`` -> ``Action(Verb.USE, "rocket", 2)`` (an action without a seat prefix)."""
    return PARSED[action]


def parse_seated(action: str) -> tuple[int, str, Action]:
    """``"2:buy:coin-2"`` -> ``(2, "buy:coin-2", Action(Verb.BUY, "coin-2"))``: a simultaneous choice."""
    return SEATED[action]


def _parse_seated(action: str) -> tuple[int, str, Action]:
    seat, body = split_seat_action(action)
    return seat, body, parse(body)


def _parse(action: str) -> Action:
    word = _WORDS.get(action)
    if word is not None:
        return Action(word)
    head, _, rest = action.partition(":")
    if not rest:
        raise NotationError(f"not a Rev it Up action: {action!r}")
    named = _NAMED.get(head)
    if named is not None:
        return Action(named, rest)
    if head == "give":
        return Action(Verb.GIVE, "", _seat(rest, action))
    targeted = _TARGETED.get(head)
    if targeted is not None:
        name, _, target = rest.partition(":")
        return Action(targeted, name, _seat(target, action) if target else None)
    raise NotationError(f"not a Rev it Up action: {action!r}")


def _seat(text: str, action: str) -> int:
    if not text.isdigit():
        raise NotationError(f"not a seat in {action!r}: {text!r}")
    return int(text)


PARSED: Final = ParseCache(_parse)
"""Every action string (without a seat prefix) parsed so far, with its ``Action`` (``parse``)."""
SEATED: Final = ParseCache(_parse_seated)
"""Every seat-prefixed action string parsed so far (``parse_seated``)."""


def text(action: Action) -> str:
    """The string of an ``Action`` (``parse``'s inverse)."""
    verb = action.verb
    if verb is Verb.DRAW:
        return draw(action.name)
    if verb is Verb.ITEM:
        return item(action.name)
    if verb is Verb.GIVE:
        return give(action.target if action.target is not None else -1)
    if verb is Verb.DROP:
        return drop(action.name)
    if verb is Verb.BOOST:
        return boost(action.name)
    if verb is Verb.USE:
        return use(action.name, action.target)
    if verb is Verb.BUY:
        return buy(action.name, action.target)
    if verb is Verb.UPGRADE:
        return upgrade(action.name)
    word: str = verb.value
    return word
