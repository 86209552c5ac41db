"""The step messages' JSON (issue 14, Load): ``slipstream.jsontext.encode`` writes them with orjson where
it is installed (the web and sim extras pin it) and with the standard library otherwise; both must write
the same text for every message a real game sends, so a client cannot tell which one the server has."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from slipstream import jsontext
from slipstream.engine.registry import games, load
from slipstream.jsontext import COMPACT, decode, encode
from slipstream.web.protocol import pending_seats, seat_payload
from tests.per_game import players_near

REAL_GAMES = sorted(g for g in games() if g != "toy-dash")


def payloads(game_id: str, plies: int = 60) -> list[dict[str, Any]]:
    """What each seat and a spectator were sent at each step of a random 2-player match (or the fewest
    players the game takes)."""
    state = load(game_id, players=players_near(game_id, 2)).start(seed=11)
    rng = random.Random(11)
    out: list[dict[str, Any]] = []
    for _ in range(plies):
        for seat in (None, *state.game.seats):
            out.append({"type": "state", "seat": seat, **seat_payload(state, seat), "turn_left": {0: 12.5}})
        if state.is_over:
            break
        if state.actor == "chance":
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(state.legal_actions(rng.choice(pending_seats(state))))
        state = state.apply(action)
    return out


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_orjson_and_the_standard_library_write_the_same_messages(game_id: str) -> None:
    pytest.importorskip("orjson", reason="orjson is not installed (pip install -e .[web])")
    assert jsontext.orjson is not None
    for payload in payloads(game_id):
        assert encode(payload) == json.dumps(payload, separators=COMPACT, ensure_ascii=False)


def test_without_orjson_the_standard_library_writes_them(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jsontext, "orjson", None)
    message = {"type": "log", "entries": [{"ply": 3, "events": [{"text": "P1 à fond → 5"}]}], "left": {1: 2.5}}
    expected = '{"type":"log","entries":[{"ply":3,"events":[{"text":"P1 à fond → 5"}]}],"left":{"1":2.5}}'
    assert encode(message) == expected


def test_decode_reads_what_encode_writes_with_or_without_orjson(monkeypatch: pytest.MonkeyPatch) -> None:
    value = {"seats": [1, 2], "name": "à fond", "rate": 0.1, "none": None}
    assert decode(encode(value)) == value
    with pytest.raises(json.JSONDecodeError):
        decode('{"cut')
    monkeypatch.setattr(jsontext, "orjson", None)
    assert decode(encode(value)) == value
    with pytest.raises(json.JSONDecodeError):
        decode('{"cut')
