"""Highway Heist's notation: every action string, turned into a typed ``Action`` (``parse``) and back.

Spaces are written ``c<column>l<lane>`` (column 1 is the West end, lane 1 the North edge). The strings
(docs/rules/highway-heist.md, "Notation")::

    <seat>:play                      the team picks who takes the next turn (any seat not yet Exhausted)
    <seat>:assist | <seat>:pass      Assist the roller with one Boost token (2 dice), or pass
    drive:<space>  leap:<space>  leap:wheel  ram:<space>  force:<space>  shake  brawl  hijack
    take-boost  end-turn  stunt:<card>[@<space>]  act:<scenario action>[@<space>]
    boost | keep                     after your own roll: Boost it (every boost face a success) or not
    reroll:blank | reroll:boost | pass   Brian's Wheelman: reroll one die of his Speed or Control roll
    <seat>:tech | <seat>:pass        Tej's Tech Support: a Tej token turns one blank die of any roll
    <seat>:take-slam | <seat>:pass   Dom's Family First: take a slam aimed at an adjacent team mate
    to:<space>  follow  stay  dir:<direction>  peg:<space>  slam:<space>  remove:<space>  remove:none
    ramsey:<space>                   choices inside an action or an enemy effect
    first:<seat> | first:enemy       the team: whose peg moves off a destroyed vehicle first
    effort:<S>s<B>b<X>x  enemy-die:<face>  enemy-card:<card>  stunt-card:<card>     chance
"""

from __future__ import annotations

import enum
from typing import Final, NamedTuple

from slipstream.engine.game import split_seat_action
from slipstream.engine.notation import ParseCache


class Verb(enum.Enum):
    """What an action does (its first word)."""

    PLAY = "play"
    ASSIST = "assist"
    PASS = "pass"
    DRIVE = "drive"
    LEAP = "leap"
    RAM = "ram"
    FORCE = "force"
    SHAKE = "shake"
    BRAWL = "brawl"
    HIJACK = "hijack"
    TAKE_BOOST = "take-boost"
    END_TURN = "end-turn"
    STUNT = "stunt"
    SCENARIO_ACTION = "act"
    BOOST = "boost"
    KEEP = "keep"
    TO = "to"
    FOLLOW = "follow"
    STAY = "stay"
    DIRECTION = "dir"
    PEG = "peg"
    SLAM = "slam"
    HIT = "hit"
    REMOVE = "remove"
    RAMSEY = "ramsey"
    EFFORT = "effort"
    ENEMY_DIE = "enemy-die"
    ENEMY_CARD = "enemy-card"
    STUNT_CARD = "stunt-card"
    REROLL = "reroll"
    TECH = "tech"
    TAKE_SLAM = "take-slam"
    FIRST = "first"


SPACE_VERBS = (Verb.DRIVE, Verb.LEAP, Verb.RAM, Verb.FORCE, Verb.TO, Verb.PEG, Verb.SLAM, Verb.HIT, Verb.REMOVE,
               Verb.RAMSEY)
"""The verbs whose action names a space."""

WHEEL = (0, 0)
"""``leap:wheel``: back behind the wheel of your own Player Vehicle."""
NO_SPACE = (-1, -1)


class Action(NamedTuple):
    """A parsed action. ``space`` is (column, lane) or ``NO_SPACE``; ``name`` a card, face or direction;
    ``seat`` the acting seat of a simultaneous choice (-1 otherwise); ``dice`` the rolled faces."""

    verb: Verb
    space: tuple[int, int] = NO_SPACE
    name: str = ""
    seat: int = -1
    dice: tuple[int, int, int] = (0, 0, 0)


_BY_WORD = {v.value: v for v in Verb}


def space_text(column: int, lane: int) -> str:
    return f"c{column}l{lane}"


def parse_space(text: str) -> tuple[int, int]:
    """``c5l3`` -> (5, 3); ``ValueError`` if it is not a space."""
    if text == "wheel":
        return WHEEL
    col, sep, lane = text[1:].partition("l")
    if text[:1] != "c" or not sep or not col.isdigit() or not lane.isdigit():
        raise ValueError(f"{text!r} is not a space (c<column>l<lane>)")
    return int(col), int(lane)


def _parse(action: str) -> Action:
    """``parse`` for a string not met before."""
    seat = -1
    text = action
    if text[:1].isdigit():
        seat, text = split_seat_action(text)
    word, _, rest = text.partition(":")
    verb = _BY_WORD[word]
    if verb in (Verb.DRIVE, Verb.LEAP, Verb.RAM, Verb.FORCE, Verb.TO, Verb.PEG, Verb.SLAM, Verb.HIT, Verb.RAMSEY):
        parsed = Action(verb, parse_space(rest), seat=seat)
    elif verb is Verb.REMOVE:
        parsed = Action(verb, NO_SPACE if rest == "none" else parse_space(rest), seat=seat)
    elif verb in (Verb.STUNT, Verb.SCENARIO_ACTION):
        name, _, at = rest.partition("@")
        parsed = Action(verb, parse_space(at) if at else NO_SPACE, name, seat)
    elif verb is Verb.EFFORT:
        successes, _, rest2 = rest.partition("s")
        boosts, _, blanks = rest2.partition("b")
        parsed = Action(verb, dice=(int(successes), int(boosts), int(blanks.rstrip("x"))))
    else:
        parsed = Action(verb, name=rest, seat=seat)
    return parsed


PARSED: Final = ParseCache(_parse)
"""Every action string parsed so far, with its typed value (the engine's bounded ``ParseCache``)."""


def parse(action: str) -> Action:
    """The typed action of a string the state offered (the state checks legality first), parsed once."""
    return PARSED[action]


def at(verb: Verb, column: int, lane: int) -> str:
    """``drive:c5l3`` and the like."""
    return f"{verb.value}:{space_text(column, lane)}"


def card_action(verb: Verb, card: str, target: tuple[int, int] = NO_SPACE) -> str:
    """``stunt:ta-s1a`` or ``stunt:ta-s1a@c5l3``."""
    return f"{verb.value}:{card}" + (f"@{space_text(*target)}" if target != NO_SPACE else "")


def effort(successes: int, boosts: int, blanks: int) -> str:
    return f"effort:{successes}s{boosts}b{blanks}x"


def enemy_card(card: str) -> str:
    """The chance outcome of drawing an Enemy card (``enemy-card:ta-e01``)."""
    return f"{Verb.ENEMY_CARD.value}:{card}"


def stunt_card(card: str) -> str:
    """The chance outcome of drawing a Stunt card (``stunt-card:ta-s1a``)."""
    return f"{Verb.STUNT_CARD.value}:{card}"


def direction(name: str) -> str:
    """``dir:north-east``, or ``dir:none`` (no move)."""
    return f"{Verb.DIRECTION.value}:{name}"


def seated(seat: int, verb: Verb) -> str:
    return f"{seat}:{verb.value}"


def first(seat: int) -> str:
    """``first:<seat>`` (that player's peg moves first) or ``first:enemy`` (seat -1: the Enemy Peg)."""
    return f"{Verb.FIRST.value}:{'enemy' if seat < 0 else seat}"


def text(action: Action) -> str:
    """The canonical string of a parsed action (``parse`` undone)."""
    verb = action.verb
    prefix = f"{action.seat}:" if action.seat >= 0 else ""
    if verb is Verb.EFFORT:
        return effort(*action.dice)
    if verb in (Verb.STUNT, Verb.SCENARIO_ACTION):
        return card_action(verb, action.name, action.space)
    if action.space == WHEEL:
        return f"{verb.value}:wheel"
    if action.space != NO_SPACE:
        return prefix + at(verb, *action.space)
    if verb is Verb.REMOVE:
        return "remove:none"
    return prefix + (f"{verb.value}:{action.name}" if action.name else verb.value)
