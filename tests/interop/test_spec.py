"""The action spaces and observation schemas: derived from the contract, current, and loud about gaps."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

import slipstream
from slipstream.interop.encoding import SchemaBuilder, UnseenViewPathError, ViewEncoder
from slipstream.interop.pettingzoo import env
from slipstream.interop.spec import (
    BUILDER_VERSION,
    SHIPPED,
    GameSpec,
    UnseenActionError,
    acting_seat,
    build_spec,
    settle,
    spec_for,
)
from tests.per_game import SHIPPED_SPEC, game_ids, games_with, players_near

GAMES = game_ids()


@pytest.mark.parametrize("game_id", games_with(SHIPPED_SPEC))
def test_the_shipped_spec_is_current_and_well_formed(game_id: str) -> None:
    data = json.loads((SHIPPED / f"{game_id}.json").read_text())
    spec = GameSpec.from_json(data)
    assert spec.builder == BUILDER_VERSION
    assert spec.version == slipstream.available_games()[game_id].version
    assert list(spec.actions) == sorted(set(spec.actions)) and spec.actions
    assert list(spec.chance) == sorted(set(spec.chance))
    assert not any(a.split(":", 1)[0].isdigit() for a in spec.actions), "seat prefixes are stripped"
    assert spec_for(game_id) == spec


def test_a_spec_build_is_deterministic_and_round_trips() -> None:
    first = build_spec("brc-grand-prix", configs=[(2, {"laps": 1})], playouts=4, view_playouts=2)
    second = build_spec("brc-grand-prix", configs=[(2, {"laps": 1})], playouts=4, view_playouts=2)
    assert first == second
    assert GameSpec.from_json(json.loads(json.dumps(first.to_json()))) == first


def test_an_action_missing_from_the_spec_fails_loudly() -> None:
    spec = spec_for("scrap-racer")
    short = replace(spec, actions=tuple(a for a in spec.actions if a != "roll"))
    aec = env("scrap-racer", players=2, spec=short)
    with pytest.raises(UnseenActionError, match="'roll'"):
        for _agent in aec.agent_iter(2000):
            observation, _, terminated, truncated, _ = aec.last()
            action = None if terminated or truncated else int(np.flatnonzero(observation["action_mask"])[0])
            aec.step(action)


def test_the_encoder_uses_slots_by_kind_pools_list_positions_and_counts_what_it_never_saw() -> None:
    builder = SchemaBuilder()
    builder.observe({"a": 1, "b": "x", "c": [True, None], "d": {"k": "y"}})
    builder.observe({"a": 2.5, "b": "z", "c": [], "d": {"k": "y"}})
    encoder = ViewEncoder(builder.to_json(), max_players=2)
    vector = encoder.encode({"a": 3, "b": "z", "c": [False, 4], "d": {"k": "new"}}, seat=1)
    slots = dict(zip(encoder.names, vector.tolist(), strict=True))
    assert slots["seat=1"] == 1 and slots["seat=0"] == 0
    assert slots["/a"] == 3 and slots["/b=z"] == 1 and slots["/b=x"] == 0
    assert slots["/c/#"] == 2 and slots["/c/0"] == 0 and slots["/c/0?"] == 1
    assert slots["/c/1"] == 4, "a number seen at position 0 has a slot at every position"
    assert slots["/d/k=<other>"] == 1
    assert len(encoder.low) == len(encoder.high) == encoder.size
    with pytest.warns(UserWarning, match="/c/2"):
        vector = encoder.encode({"c": [1, 2, 3]}, seat=0)
    assert vector[encoder.names.index("/c/#")] == 3 and encoder.unseen["/c/2"] == 1
    with pytest.raises(UnseenViewPathError):
        ViewEncoder(builder.to_json(), max_players=2, strict=True).encode({"e": 1}, seat=0)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_simultaneous_choice_does_not_leak_to_the_next_seat(game_id: str) -> None:
    """At a window open to several seats, what the first seat picks never changes the next seat's
    observation (the bridges take such windows one seat after another). Only whether the first seat is
    done may show (Rev it Up shows who has locked in a purchase): choices that leave it equally done
    look the same."""
    game = slipstream.load(game_id, players=players_near(game_id, 2))
    encoder = spec_for(game_id).encoder(strict=True)
    windows = 0
    for seed in range(6):
        state = settle(game.start(seed=seed))
        rng = np.random.default_rng(seed)
        while not state.is_over and windows < 40:
            actor = state.actor
            if isinstance(actor, frozenset) and len(actor) > 1:
                first, second = sorted(actor)[:2]
                seen: dict[bool, set[bytes]] = {True: set(), False: set()}
                for action in state.legal_actions(first):
                    after = state.apply(action)
                    if isinstance(after.actor, frozenset) and second in after.actor:
                        seen[first in after.actor].add(encoder.encode(after.view(second), second).tobytes())
                assert all(len(s) <= 1 for s in seen.values()), f"{game_id}: seat {second} sees seat {first}'s choice"
                windows += 1
            seat = acting_seat(state)
            assert seat is not None
            legal = state.legal_actions(seat)
            state = settle(state.apply(legal[int(rng.integers(len(legal)))]))
