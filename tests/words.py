"""What a player reads is words: find the engine's ids, action strings and coded squares in a text.

Ids stay in the notation, records and the library; anything shown to a player (events a seat may see,
action descriptions, hints, the terminal board, the result's reason, the glossary) must say things by
name. ``Vocabulary.of(game)`` collects what counts as an id for a loaded game, from its action space
(every action string and each of its parts) and its content files (every ``id`` and every id-shaped
value); ``Vocabulary.leaks(text)`` lists the ids found in a text. Some shapes are ids in any game:
``snake_case``, ``verb:object``, a word with a number glued to it (``exhaust-1``, ``g1b``, ``c1l1``)
and dotted square codes (``2.1.5``).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.text import Text

from slipstream.engine.game import Game, State
from slipstream.engine.hooks import hooks_of
from slipstream.engine.registry import game_class

TOKEN = re.compile(r"[A-Za-z0-9]+(?:[-_:.+@][A-Za-z0-9]+)+|[A-Za-z]+[0-9]+[A-Za-z0-9]*")
"""A word that could be an id: parts joined by - _ : . + @, or letters with digits glued after them."""

ALWAYS_IDS = (
    re.compile(r"^[a-z0-9]+(?:_[a-z0-9]+)+$"),  # snake_case: main_right, family_first
    re.compile(r"^[a-z0-9-]+:[a-z0-9:+@.-]+$"),  # an action string: item:roll, gear:g1b
    re.compile(r"^[a-z]+-\d+$"),  # a numbered id: exhaust-1, racer-1
    re.compile(r"^[a-z]+\d+[a-z]+\d*$"),  # a coded square or gear: g1b, c1l1
    re.compile(r"^\d+\.\d+\.\d+$"),  # a coded square: tile.lane.row
)

ID_SHAPED = re.compile(r"^[a-z0-9]+(?:[-_:+@][a-z0-9]+)+$")
"""A content value written as an id (``oil-slick``, ``blue-miss``, ``move+2``)."""

ENGLISH = frozenset({
    # Words with a hyphen that are English as well as somebody's id; shown as words they are fine.
    "re-roll", "re-rolls", "re-arm", "re-armed", "re-enter", "re-enters",
    "drive-through", "stop-go", "one-way", "two-way", "u-turn", "pit-lane",
    "side-by-side", "hot-seat", "face-down", "face-up", "left-hand", "right-hand",
})


def _values(data: Any) -> Iterator[tuple[str, str]]:
    """Every (key, string value) in a parsed content file."""
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(value, str):
                yield key, value
            else:
                yield from _values(value)
    elif isinstance(data, list):
        for value in data:
            if isinstance(value, str):
                yield "", value
            else:
                yield from _values(value)


@dataclass(frozen=True)
class Vocabulary:
    """The ids of one loaded game."""

    ids: frozenset[str]

    @classmethod
    def of(cls, game: Game) -> Vocabulary:
        ids: set[str] = set()
        space = hooks_of(game).action_space
        if space is not None:
            loaded = space(game)
            for action in (*loaded.actions, *loaded.chance):
                ids.add(action)
                ids.update(part for part in re.split(r"[:+@]", action) if ID_SHAPED.match(part))
        package = Path(__import__(type(game).__module__, fromlist=["_"]).__file__ or "").parent
        for path in package.rglob("*.toml"):
            for key, value in _values(tomllib.loads(path.read_text())):
                if key == "id" or ID_SHAPED.match(value):
                    ids.add(value)
        return cls(frozenset(i for i in ids if i not in ENGLISH and not i.isdigit()))

    def leaks(self, text: str) -> list[str]:
        """The ids in ``text`` (Rich markup allowed: it is read as the plain text it shows)."""
        plain = Text.from_markup(text).plain if "[" in text else text
        found = []
        for match in TOKEN.finditer(plain):
            token = match.group(0).strip(".")
            low = token.lower()
            if low in ENGLISH:
                continue
            if self._is_id(token):
                found.append(token)
        return found


    def _is_id(self, token: str) -> bool:
        if token in self.ids or any(p.match(token) for p in ALWAYS_IDS):
            return True
        joined = "-" in token or "_" in token
        return joined and any(part in self.ids for part in re.split(r"[:+@]", token))


@dataclass(frozen=True)
class Leak:
    """An id found where a player reads it."""

    where: str
    text: str
    ids: tuple[str, ...]

    def __str__(self) -> str:
        plain = " ".join(Text.from_markup(self.text).plain.split()) if "[" in self.text else self.text
        at = max(0, plain.find(self.ids[0]) - 50)
        shown = ("..." if at else "") + plain[at:at + 140] + ("..." if len(plain) > at + 140 else "")
        return f"{self.where}: {', '.join(self.ids)} in {shown!r}"


def player_texts(state: State, seat_for_hints: Iterable[int], board: bool) -> Iterator[tuple[str, str]]:
    """(where, text) for what a player reads at ``state``: the last step's events, the acting seats'
    action descriptions and hints, the terminal board as they see it and the result's reason."""
    game = state.game
    hooks = hooks_of(game)
    for event in state.events:
        yield "event", event.text
    for seat in seat_for_hints:
        if hooks.describe_action is not None:
            for action in state.legal_actions(seat):
                yield "action", hooks.describe_action(game, action)
        if hooks.hints is not None:
            for hint in hooks.hints(state, seat):
                yield "hint", hint
        if board and hooks.board_text is not None:
            yield "board", hooks.board_text(state.view(seat))
    if state.result is not None:
        yield "result", state.result.reason


def glossary_texts(game: Game) -> Iterator[tuple[str, str]]:
    glossary = hooks_of(game).glossary
    if glossary is None:
        return
    for key, term in glossary(game).items():
        yield f"glossary name of {key}", term.name
        yield f"glossary text of {key}", term.text


def load(game_id: str, players: int | None, **options: Any) -> Game:
    cls = game_class(game_id)
    return cls(players, **options)
