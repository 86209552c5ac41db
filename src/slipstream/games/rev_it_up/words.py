"""Rev it Up in words: what a player reads, said with the names and texts of the loaded content.

The ids (``exhaust-2``, ``oil-slick``, ``racer-3``) stay in the notation, the records and the view; a
player reads names ("Exhaust 2", "Oil Slick", "Goldie Gears") and effects. ``describe`` says an action,
``glossary`` lists every chip, item, character and track with its effect, and ``place`` says where a
racer stands as the board numbers the spaces (the start line is space 0).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from slipstream.engine.hooks import Term

from . import notation
from .types import Action, Verb

if TYPE_CHECKING:
    from .game import RevItUp

VERBS = {
    Verb.GO: "keep going", Verb.STOP: "stop for this round", Verb.PASS: "use no item now",
    Verb.DONE: "finish buying", Verb.KEEP: "keep the item", Verb.REROLL: "reroll the item die",
    Verb.ROLL_ITEM_DIE: "roll the item die (1 coin)",
}
"""The actions that name no chip or item, in words."""


def chip_effect(game: RevItUp, kind: int) -> str:
    """What a chip kind does when drawn, in a few words (from the game's movement and heat tables)."""
    colour, level = game.kinds.colour[kind], game.kinds.level[kind]
    move, heat = game.move[kind], game.heat[kind]
    plural = "s" if level != 1 else ""
    if colour == "recall":
        return f"in a rival's bag: it goes back {-move}"
    if colour == "coin":
        return f"+{level} coin{plural} to spend"
    if colour == "coolant":
        return f"cools {level} Rev Track chip{plural}"
    if colour == "upgrade":
        return f"{level} upgrade{plural} when buying"
    if move > 0:
        return f"moves {move}, " + (f"heat {heat}" if heat else "no heat")
    return f"moves {move}, heat {heat}"


def glossary(game: RevItUp) -> dict[str, Term]:
    """Every chip card (a colour: ``exhaust``) and chip kind (``exhaust-2``), item (in play or not: the
    lobby offers them all), character and track of the loaded content, by its id, with its name and what
    it does."""
    content = game.content
    kinds = game.kinds
    terms: dict[str, Term] = {}
    for card in content.model.chips:
        terms[card.colour] = Term(card.name, card.text, "chip card")
    for k, chip in enumerate(kinds.names):
        summary = chip_effect(game, k) if kinds.level[k] else ""
        text = f"{kinds.texts[k]} This chip: {summary}." if summary else kinds.texts[k]
        terms[chip] = Term(kinds.titles[k], text, "chip")
    for item in content.model.items:
        kind = "" if item.name.lower() == item.type else f"{item.type.capitalize()}. "  # no "Shield: Shield."
        terms[item.id] = Term(item.name, f"{kind}{item.text}", "item")
    for character in content.model.characters:
        board = f"{character.colour} board. " if character.colour else ""
        terms[character.id] = Term(character.name, f"{board}{character.text}", "character")
    for track in content.model.tracks:
        spaces = ", ".join(map(str, track.item_spaces[:-1])) + f" and {track.item_spaces[-1]}" \
            if len(track.item_spaces) > 1 else ", ".join(map(str, track.item_spaces))
        terms[track.id] = Term(track.name, f"{track.length} spaces a lap, item spaces at {spaces}; "
                               f"{track.laps} laps unless you choose otherwise.", "track")
    return terms


def seat(target: int) -> str:
    return f"P{target + 1}"


def place(length: int, laps: int, progress: int) -> str:
    """Where a racer stands on a track of ``length`` spaces and ``laps`` laps, as the board numbers the
    spaces: "space 12, lap 2" (the start line is space 0)."""
    lap = min(progress // length + 1, laps)
    space = progress - (lap - 1) * length
    if space >= length:
        return "the finish line"
    return f"the start line, lap {lap}" if space == 0 else f"space {space}, lap {lap}"


def names(terms: dict[str, dict[str, str]]) -> Callable[[str], str]:
    """The name of an id in a glossary as JSON (a game's ``terms``, a view's), else the id itself."""
    return lambda key: terms[key]["name"] if key in terms else key


def describe(game: RevItUp, action: str) -> str:
    """A short phrase for an action string of the loaded game (``2:buy:recall-1:0`` -> ``P3: buy
    Recall 1 for P1's bag``); the string itself if it is not Rev it Up notation."""
    return say(names(game.terms), action)


def choice(game: RevItUp, body: str) -> str:
    """A seat's own choice at a simultaneous decision, without its seat (``buy:coin-1`` -> ``buy Coin 1``)."""
    try:
        return _say(names(game.terms), notation.parse(body), buying=True)
    except notation.NotationError:
        return body


def say(name: Callable[[str], str], action: str) -> str:
    """``describe`` with the names ``name`` gives for the ids (a game's glossary, or a view's terms)."""
    try:
        if action.partition(":")[0].isdigit():
            who, _, parsed = notation.parse_seated(action)
            return f"{seat(who)}: {_say(name, parsed, buying=True)}"
        return _say(name, notation.parse(action), buying=False)
    except notation.NotationError:
        return action


def _say(name: Callable[[str], str], parsed: Action, buying: bool) -> str:
    """One action in words; ``buying``: a seat's own choice (an ``item:`` action is an item taken for 3
    coins, not the die; ``pass`` uses no item, not no Boost)."""
    verb, what, target = parsed
    if verb is Verb.PASS and not buying:
        return "keep your Boost item for later"
    said = VERBS.get(verb)
    if said is not None:
        return said
    if verb is Verb.DRAW:
        return f"draw {name(what)}"
    if verb is Verb.ITEM:
        return f"take {name(what)} for 3 coins" if buying else f"the item die shows {name(what)}"
    if verb is Verb.BUY:
        return f"buy {name(what)}" + (f" for {seat(target)}'s bag" if target is not None else "")
    if verb is Verb.UPGRADE:
        return f"upgrade a {name(what)}"
    if verb is Verb.USE:
        return f"use {name(what)}" + (f" on {seat(target)}" if target is not None else "")
    if verb is Verb.BOOST:
        return f"use {name(what)} now"
    if verb is Verb.DROP:
        return f"let {name(what)} go"
    return f"put the Bomb in {seat(target if target is not None else 0)}'s bag"
