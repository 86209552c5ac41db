"""Names in words for everything the simulator shows (the summary, the report's tables and charts).

Ids are for records and tables (``results.csv`` keeps them); a person reads words. The one place where
a metric's id becomes words (``crash_cards`` -> "Crash cards": ``metric_words``), and where a seat's label
(its racer, character or car, as the game's ``seat_labels`` hook gives it, often a content id) becomes the
name the game's glossary gives (``Names``: ``dom/exotic-supercar`` -> "Dom / Exotic Supercar"), with the
noun the glossary gives its kind ("character / vehicle", where the summary said "racer" for every game).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import slipstream
from slipstream.engine.hooks import Term, hooks_of

from .race import run_setup


def metric_words(name: str) -> str:
    """A metric's (or any snake_case number's) name in words, capitalised as a table row or a chart title
    is: ``crash_cards_low`` -> "Crash cards low", ``lead_changes`` -> "Lead changes"."""
    text = " ".join(name.replace("_", " ").split())
    return text[:1].upper() + text[1:]


def seat_words(seat: int) -> str:
    """A seat as the summary and the report name it: its number, from 0 like every seat number, and the
    name the players see (``seat 0 (P1)``)."""
    return f"seat {seat} (P{seat + 1})"


SEPARATOR = re.compile(r"(\s*[/+]\s*)")
"""Between the parts of a label: a car and its driver (``/``), the racers of one seat or the members of a
team (``+``)."""

DEFAULT_NOUN = "racer"
"""What a seat's label is called when the glossary does not say."""


@dataclass(frozen=True)
class Names:
    """Labels and option values of one game in words, from its glossary (``GameHooks.glossary``): each
    term is found by its content id or its name, whatever the case."""

    terms: Mapping[str, Term] = field(default_factory=dict)

    @classmethod
    def of(cls, game_id: str, options: Mapping[str, Any], setup: Sequence[str] = ()) -> Names:
        """The names of ``game_id`` loaded with ``options`` (a record's: ``players`` among them); no names
        (labels shown as they are) when the game cannot be loaded any more (a content file moved)."""
        rest = dict(options)
        players = rest.pop("players", None)
        try:
            run_setup(setup)
            game = slipstream.load(game_id, players=players, **rest)
            glossary = hooks_of(game).glossary
            found = glossary(game) if glossary is not None else {}
        except (ValueError, OSError, ImportError):
            return cls()
        terms: dict[str, Term] = {}
        for term_id, term in found.items():
            terms.setdefault(term_id.lower(), term)
            terms.setdefault(term.name.lower(), term)
        return cls(terms)

    @classmethod
    def of_races(cls, races: Sequence[dict[str, Any]], setup: Sequence[str] = ()) -> Names:
        """The names of the games the races were played with: each setting of the options the races have
        (a sweep's points: each scenario names itself), the first setting's name first."""
        settings: dict[str, tuple[str, Mapping[str, Any]]] = {}
        for race in races:
            options = race.get("options", {})
            settings.setdefault(repr((race["game"], sorted(options.items(), key=str))), (race["game"], options))
        terms: dict[str, Term] = {}
        for game_id, options in settings.values():
            for key, term in cls.of(game_id, options, setup).terms.items():
                terms.setdefault(key, term)
        return cls(terms)

    def _term(self, part: str) -> tuple[Term | None, bool]:
        """The term a label's part names, and whether the part is the term itself (its id or name) rather
        than a phrase that starts with it (BRC's ``SOFT start``)."""
        key = part.strip().lower()
        if key in self.terms:
            return self.terms[key], True
        first = key.split(" ", 1)[0]
        return self.terms.get(first), False

    def label(self, text: str) -> str:
        """A label in words: each part that is a content id becomes its name (``racer-1`` -> "Nitro Nell"),
        parts joined by `` / `` or `` + ``."""
        out = []
        for piece in SEPARATOR.split(str(text)):
            if SEPARATOR.fullmatch(piece):
                out.append(f" {piece.strip()} ")
                continue
            term, whole = self._term(piece)
            out.append(term.name if term is not None and whole else piece.strip())
        return "".join(out)

    def noun(self, labels: Iterable[str]) -> str:
        """What the labels are, from the kinds of the terms they name: "racer" (Scrap Racer), "character"
        (Rev it Up), "car / driver" (Rush 'n' Crush), "character / vehicle" (Highway Heist), "tyre"
        (BRC's starting tyre); "racer" when the glossary does not say."""
        kinds: Counter[str] = Counter()
        for text in labels:
            parts = [p for p in SEPARATOR.split(str(text)) if not SEPARATOR.fullmatch(p)]
            found = [term.kind for term in (self._term(p)[0] for p in parts) if term is not None and term.kind]
            if len(found) == len(parts):
                kinds[" / ".join(dict.fromkeys(found))] += 1
        return kinds.most_common(1)[0][0] if kinds else DEFAULT_NOUN

    def groups(self, groups: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        """Statistics groups (``stats``) with their keys in words."""
        return [{**g, "key": self.label(str(g["key"]))} for g in groups]
