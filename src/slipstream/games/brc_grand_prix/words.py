"""BRC Grand Prix in words: what a player reads, from the names and texts of the loaded content.

The ids (``track-limits``, ``blue-miss``, ``move+2``) stay in the notation, the records and the view; a
player reads names ("Track Limits", "Miss a turn") and effects ("Move up to 2 spaces forward: ...").
``line`` says one line of a flag card, ``card_text`` a whole card, ``glossary`` lists every flag card,
flag-card effect a car can hold, flag space and tyre. Glossary keys are content ids, but an effect is
keyed ``effect:<id>``: a card and an effect may share an id (the Tyre Saver card, the tyre-saver effect).
"""

from __future__ import annotations

from slipstream.engine.hooks import Term

from .content import COLOURS, Content

HELD = ("drs", "tyre-saver", "no-overtake")
"""The effects a car holds until they are spent (the view's ``perks``)."""
SHOWN_EFFECTS = (*HELD, "let-by", "blue-miss")
"""The named effects in the glossary (the numbered ones are said with their number, on each card)."""


def effect_key(effect: str) -> str:
    """The glossary key of a flag-card effect (``effect:drs``)."""
    return f"effect:{effect}"


def line(content: Content, code: str) -> str:
    """A card line (``move+2``, ``roll-1``, ``drs``) in words, from the content's ``[[effects]]``."""
    texts = {e.id: e.text for e in content.model.effects}
    kind, number = code, ""
    for prefix in ("move+", "move-", "roll"):
        if code.startswith(prefix):
            kind, number = prefix, code.removeprefix(prefix)
    if not number:
        return texts[kind]
    n = number.lstrip("+-")
    return texts[kind].format(n=n, signed=number, spaces=f"{n} space{'' if n == '1' else 's'}")


def card_text(content: Content, card: int) -> str:
    """A flag card's three lines in words: "Green: ... Yellow: ... Blue: ..."."""
    lines = content.card_lines[card]
    return " ".join(f"{colour.capitalize()}: {line(content, lines[colour])}" for colour in COLOURS)


def glossary(content: Content) -> dict[str, Term]:
    """Every flag card, flag-card effect a car can hold or meet, flag space and tyre of the content, with
    its name and what it does."""
    model = content.model
    terms: dict[str, Term] = {}
    for i, card in enumerate(model.cards):
        terms[card.id] = Term(card.name, card_text(content, i), "flag card")
    for effect in model.effects:
        if effect.id in SHOWN_EFFECTS:
            terms[effect_key(effect.id)] = Term(effect.name, effect.text, "flag card effect")
    for flag in model.flags:
        terms[flag.colour] = Term(flag.name, flag.text, "flag space")
    for tyre in model.tyres:
        terms[tyre.id] = Term(tyre.name, tyre.text, "tyre")
    return terms
