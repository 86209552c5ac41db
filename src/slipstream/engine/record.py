"""Match records: ``{game, version, options, seed, actions}`` as JSON, replayed exactly."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from .errors import IllegalActionError, RecordError, SlipstreamError
from .game import JSON, Game, State
from .registry import load

REQUIRED = ("game", "options", "seed", "actions")


def parse(text: str) -> dict[str, JSON]:
    """A record from JSON text, with its shape checked."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"record is not valid JSON: {exc}") from None
    return check(data)


def check(data: Any) -> dict[str, JSON]:
    """``data`` if it has the shape of a record; a ``RecordError`` naming the field otherwise."""
    if not isinstance(data, dict):
        raise RecordError("record must be a JSON object with game, version, options, seed and actions")
    for key in REQUIRED:
        if key not in data:
            raise RecordError(f"record has no {key!r} field")
    if not isinstance(data["game"], str):
        raise RecordError("record field 'game' must be a string")
    if not isinstance(data["options"], dict):
        raise RecordError("record field 'options' must be an object")
    if isinstance(data["seed"], bool) or not isinstance(data["seed"], int):
        raise RecordError("record field 'seed' must be a whole number")
    actions = data["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError("record field 'actions' must be a list of strings")
    return data


def game_of(record: dict[str, JSON]) -> Game:
    """The game a record was played with."""
    record = check(record)
    options = dict(record["options"])
    players = options.pop("players", None)
    try:
        game = load(record["game"], players=players, **options)
    except SlipstreamError as exc:
        raise RecordError(f"record cannot be loaded: {exc}") from None
    version = record.get("version")
    if version is not None and str(version) != game.version:
        raise RecordError(f"record is for {game.id} version {version}, this is version {game.version}")
    return game


def states(record: dict[str, JSON]) -> Iterator[State]:
    """Every state of a recorded match, from the start to the last action."""
    game = game_of(record)
    state = game.start(seed=record["seed"])
    yield state
    for index, action in enumerate(record["actions"]):
        try:
            state = state.apply(action)
        except IllegalActionError as exc:
            raise RecordError(f"record action {index} ({action!r}) is illegal: {exc}") from None
        yield state


def replay(record: dict[str, JSON]) -> State:
    """The final state of a recorded match."""
    final: State | None = None
    for final in states(record):  # noqa: B007 - keep the last state
        pass
    if final is None:  # pragma: no cover - states() always yields the start
        raise RecordError("record did not replay")
    return final


def dumps(state: State) -> str:
    """A state's record as JSON text."""
    return json.dumps(state.record(), separators=(",", ":"))
