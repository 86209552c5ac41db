"""What the lobby shows a player: the games in words (``catalog``), the finished races with their
winners (``Finished``) and each game's rules page (``rules_page``).

The catalog says every option as a player chooses it (``OptionSpec.lobby``): names from the game's
glossary hook instead of ids to type, seats counted from 1, no option that names a file on the server.
It is built once per game class (a default-loaded game gives the glossary) and kept.
"""

from __future__ import annotations

import html
import logging
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from slipstream.engine.game import JSON, Game, OptionSpec
from slipstream.engine.hooks import Term, hooks_of
from slipstream.engine.registry import games

from .options import FORBIDDEN_OPTIONS, stored_game
from .protocol import resigned_result
from .seats import BOT_WORDS, bot_menu
from .storage import MatchData

log = logging.getLogger("slipstream.web")
DOCS = Path(__file__).resolve().parents[3] / "docs"
RULES_DOCS = DOCS / "rules"
"""Our own text of each game's rules and rule decisions (``docs/rules/<game id>.md``), which a log
entry's rule tag opens at the paragraph it names."""
HOW_TO_PLAY = DOCS / "how-to-play"
"""Each game taught to a player (``docs/how-to-play/<game id>.md``): the start of its rules page."""


def option_json(cls: type[Game], spec: OptionSpec, glossary: Mapping[str, Term]) -> dict[str, Any] | None:
    """One option as the lobby offers it (``None``: not offered). ``picker`` says how: ``choice`` (a list
    of ``choices`` named by ``choice_labels``), ``seat`` (seats, shown from 1), ``per-seat`` (a list of
    ``choices`` for each seat; free text without them), ``several`` (a box to tick per choice),
    ``bool``, ``number`` or ``text``. ``choice_texts`` holds a named thing's effect, for its tip."""
    picker = spec.lobby
    if picker.hidden or spec.name in FORBIDDEN_OPTIONS:
        return None
    labels: dict[str, str] = {str(value): words for value, words in picker.labels}
    texts: dict[str, str] = {}
    choices: list[JSON] | None = list(spec.choices) if spec.choices is not None else None
    if picker.terms:
        named = [(key, term) for key, term in glossary.items() if term.kind.lower() == picker.terms.lower()]
        if named:
            choices = [key for key, _ in named]
            for key, term in named:
                labels.setdefault(key, term.name)
                if term.text:
                    texts[key] = term.text
    if choices is not None:
        for value in choices:
            found = glossary.get(str(value))
            if found is not None and str(value) not in labels:
                labels[str(value)] = found.name
                if found.text:  # what it is, under the list (a scenario's goal, a difficulty's deck)
                    texts.setdefault(str(value), found.text)
    if picker.per_seat:
        kind = "per-seat"
    elif picker.several and choices is not None:
        kind = "several"
    elif picker.seat:
        kind = "seat"
    elif choices is not None:
        kind = "choice"
    elif spec.kind is bool:
        kind = "bool"
    elif spec.kind is int and picker.labels and spec.minimum is not None and spec.maximum is not None:
        kind = "choice"  # a few numbers and the words of the special ones: a list to pick from
        choices = [*(value for value, _ in picker.labels),
                   *(n for n in range(spec.minimum, spec.maximum + 1) if str(n) not in labels)]
    elif spec.kind is int:
        kind = "number"
    else:
        kind = "text"
    return {
        "name": spec.name,
        "label": picker.label or spec.name.replace("_", " ").capitalize(),
        "help": picker.words or spec.help,
        "default": spec.default,
        "kind": spec.kind.__name__,
        "picker": kind,
        "choices": choices,
        "choice_labels": labels,
        "choice_texts": texts,
        "special": [[value, words] for value, words in picker.labels],
        "minimum": spec.minimum,
        "maximum": spec.maximum,
        "seat_values": seat_values(spec) if picker.per_seat else [],
    }


def seat_values(spec: OptionSpec) -> list[dict[str, Any]]:
    """Where a seat takes more than one value of a per-seat option (``Picker.seat_counts``): the player
    count, the yes/no option that must be on (``{}``: any) and the count; the lobby takes the first that
    matches, else 1."""
    return [{"players": players, "options": {option: True} if option else {}, "count": count}
            for players, option, count in spec.lobby.seat_counts]


def lobby_glossary(cls: type[Game]) -> Mapping[str, Term]:
    """Every thing the lobby may name: the glossary of the game loaded with its defaults, with the most
    players, with each value of each option that has a list of values (a scenario's own name, the
    characters of a bigger team) and with the option sets the game declares for its tests (characters
    that only play when chosen). Empty without the hook; a loading that fails is left out."""
    fn = hooks_of(cls).glossary
    if fn is None:
        return {}
    tries: list[dict[str, Any]] = [{}, {"players": cls.max_players}]
    tries += [{"players": players, **options} for players, options in cls.conformance_options]
    for spec in cls.option_specs:
        if spec.choices is not None and not spec.lobby.hidden:
            tries += [{spec.name: value} for value in spec.choices if value != spec.default]
    merged: dict[str, Term] = {}
    for options in tries:
        players = options.pop("players", None)
        try:
            found = fn(cls(players, **options))
        except Exception:
            log.debug("%s: no glossary with %s", cls.id, options, exc_info=True)
            continue
        for key, term in found.items():
            merged.setdefault(key, term)
    return merged


def game_json(cls: type[Game]) -> dict[str, Any]:
    glossary = lobby_glossary(cls)
    options = [option_json(cls, spec, glossary) for spec in cls.option_specs]
    menu = bot_menu(cls.id)
    return {
        "id": cls.id,
        "name": cls.name,
        "description": cls.description,
        "rules": f"/rules/{cls.id}",
        "status": cls.status,
        "cooperative": cls.cooperative,
        "min_players": cls.min_players,
        "max_players": cls.max_players,
        "default_players": cls.default_players,
        "options": [o for o in options if o is not None],
        "bots": menu,
        "bot_labels": {b: BOT_WORDS.get(b, b) for b in menu},
    }


_CATALOG: dict[type[Game], dict[str, Any]] = {}
_CATALOG_LOCK = threading.Lock()


def catalog() -> list[dict[str, Any]]:
    """Every registered game as the lobby offers it (``GET /api/games``); each game's entry is built
    once (it loads the game for its glossary) and kept. Call it in a thread the first time."""
    out = []
    for cls in games().values():
        entry = _CATALOG.get(cls)
        if entry is None:
            with _CATALOG_LOCK:
                entry = _CATALOG.get(cls)
                if entry is None:
                    entry = _CATALOG[cls] = game_json(cls)
        out.append(entry)
    return out


class Finished:
    """The result of each finished race for the lobby's list: who won (names, resigned seats last), kept
    once known. A race in memory tells it at once; one only in the database is replayed from its moves
    (a few milliseconds each), within ``budget`` seconds a listing, the rest at the next one."""

    def __init__(self, budget: float = 0.5, keep: int = 5000) -> None:
        self.budget = budget
        self.keep = keep
        self.known: dict[str, dict[str, Any]] = {}

    def summary(self, data: MatchData, result: Mapping[str, Any]) -> dict[str, Any]:
        names = {s.seat: s.name for s in data.seats}
        return {
            "team": bool(result.get("team")),
            "won": bool(result.get("winners")),
            "winners": [names.get(s, f"Seat {s + 1}") for s in result.get("winners", [])],
            "reason": str(result.get("reason", "")),
        }

    def fill(self, rows: list[MatchData], in_memory: Callable[[str], Mapping[str, Any] | None],
             load: Callable[[str], MatchData | None]) -> None:
        """Learn the results of ``rows`` not known yet (``in_memory``: a loaded room's result; ``load``: the
        match with its moves from the database). Runs in a thread."""
        deadline = time.monotonic() + self.budget
        for data in rows:
            if data.id in self.known:
                continue
            result = in_memory(data.id)
            if result is None:
                if time.monotonic() > deadline:
                    continue
                try:
                    full = load(data.id)
                    if full is None:
                        continue
                    state = stored_game(full).start(seed=full.seed)
                    for move in full.moves:
                        state = state.apply(move.action)
                    if state.result is None:
                        continue
                    resigned = {s.seat for s in full.seats if s.kind == "resigned"}
                    result = resigned_result(state.result, resigned)
                except Exception:
                    log.exception("match %s: its result could not be replayed", data.id)
                    continue
            self.known[data.id] = self.summary(data, result)
        for old in list(self.known)[: max(0, len(self.known) - self.keep)]:
            del self.known[old]  # the oldest learnt first (a dict keeps its order)


RULES_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · how to play · Slipstream</title><link rel="stylesheet" href="/static/app.css">
<link rel="icon" href="data:,"></head><body><header><a href="/" class="brand">Slipstream</a>
<h1 class="sub match-title">{title}: how to play</h1>
<a href="/" class="pace">back to the lobby</a></header>
<main class="rules-text card" id="rules">
<section id="how-to-play" class="how-to-play">{teach}</section>
<details id="reference" class="reference"><summary><h2 id="reference-heading">The rules in full: every
decision, the notation and the file formats</h2><span class="muted">for looking a rule up: what the log's rule tags
open</span></summary>
<div id="reference-text">{reference}</div></details>
</main>
<script type="module" src="/static/rules.js"></script></body></html>"""


def render_markdown(text: str) -> str:
    """Markdown as HTML, raw HTML in it escaped (CommonMark with tables, ``html`` off)."""
    from markdown_it import MarkdownIt

    return str(MarkdownIt("commonmark", {"html": False}).enable("table").render(text))


_PAGES: dict[str, tuple[tuple[float, ...], str]] = {}


def rules_page(cls: type[Game]) -> str | None:
    """The game's rules page: how to play for a player first (``docs/how-to-play``), then the rules in
    full (``docs/rules``), folded (``static/rules.js`` unfolds it for a rule tag's link). Rendered once
    and kept while the two files are unchanged (rendering costs about 14 ms). ``None``: no rules text."""
    reference = RULES_DOCS / f"{cls.id}.md"
    teach = HOW_TO_PLAY / f"{cls.id}.md"
    if not reference.is_file():
        return None
    stamp = (reference.stat().st_mtime, teach.stat().st_mtime if teach.is_file() else 0.0)
    key = cls.id
    kept = _PAGES.get(key)
    if kept is not None and kept[0] == stamp:
        return kept[1]
    taught = render_markdown(teach.read_text(encoding="utf-8")) if teach.is_file() else (
        f"<p>{html.escape(cls.description) or 'No player’s guide for this game yet.'}</p>"
    )
    page = RULES_PAGE.format(
        title=html.escape(cls.name),
        teach=taught,
        reference=render_markdown(reference.read_text(encoding="utf-8")),
    )
    _PAGES[key] = (stamp, page)
    return page
