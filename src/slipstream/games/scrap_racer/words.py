"""Scrap Racer in words: what a player reads, from the names and texts of the loaded content.

The ids (``steel-jacket``, ``push-5``, ``plus-minus``, ``crash-low``) stay in the notation, the records
and the view; a player reads names ("Steel Jacket", "Push 5", "+/- 1", "Crash cards 1/2") and effects.
``glossary`` lists every racer, card, boost marker, deck and shipped track with its effect.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from slipstream.engine.hooks import Term

from .content import BONUS_CARDS, BOOST_TYPES, CRASH_CARDS, GOAL_CARDS, load_track, track_names

if TYPE_CHECKING:
    from .game import ScrapRacer

KINDS = (("crash card", CRASH_CARDS), ("bonus card", BONUS_CARDS), ("goal card", GOAL_CARDS),
         ("boost marker", BOOST_TYPES))
"""The kind of each card the content names."""


def glossary(game: ScrapRacer) -> dict[str, Term]:
    """Every racer (its ability), crash, bonus and goal card, boost marker, deck and shipped track of the
    loaded content, by its id, with its name and what it does."""
    content = game.content
    terms: dict[str, Term] = {}
    for racer, name in content.racers:
        terms[racer] = Term(name, content.racer_texts[racer], "racer")
    for kind, ids in KINDS:
        for card in ids:
            if card in content.titles:
                terms[card] = Term(content.titles[card], content.texts[card], kind)
    for deck, (name, text) in content.decks.items():
        terms[deck] = Term(name, text, "deck")
    for track_id in track_names():
        track = load_track(track_id)
        boosts = len(track.boost)
        terms[track_id] = Term(track.name, f"{track.length} spaces a lap ({track.kinds.count('C')} of them "
                               f"curved), {boosts} boost space{'' if boosts == 1 else 's'}.", "track")
    return terms
