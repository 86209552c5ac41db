"""A game registered later gets all three bridges with no code of its own: its spec is built on first use.

The test game is tiny but has what the bridges must handle: a simultaneous secret choice (both seats bid
at once; a seat's view hides the other's pending bid), a turn-based choice and a die.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gymnasium
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test

import slipstream.interop.gymnasium as gym_bridge
from slipstream.engine import registry
from slipstream.engine.game import CHANCE, Actor, Event, Game, Result, State
from slipstream.interop import spec as spec_module
from slipstream.interop.openspiel import register
from slipstream.interop.pettingzoo import env, parallel_env


class DuelState(State):
    stage: str
    bids: tuple[int | None, ...]
    turn: int
    spaces: tuple[int, ...]

    def _actor(self) -> Actor:
        if self.stage == "bid":
            return frozenset(s for s, b in enumerate(self.bids) if b is None)
        if self.stage == "roll":
            return CHANCE
        return None if self.stage == "over" else self.turn

    def _legal(self) -> list[str]:
        if self.stage == "bid":
            return [f"{s}:bid:{n}" for s, b in enumerate(self.bids) if b is None for n in (1, 2)]
        if self.stage == "roll":
            return [f"die:{n}" for n in range(1, 4)]
        return ["go", "wait"] if self.stage == "move" else []

    def _chance(self) -> list[tuple[str, float]]:
        return [(f"die:{n}", 1 / 3) for n in range(1, 4)]

    def _do(self, action: str) -> list[Event]:
        if self.stage == "bid":
            seat, _, bid = action.partition(":bid:")
            bids = list(self.bids)
            bids[int(seat)] = int(bid)
            self.bids = tuple(bids)
            if None not in bids:
                self.turn = 0 if bids[0] >= bids[1] else 1  # type: ignore[operator]
                self.stage = "move"
        elif self.stage == "move":
            self.stage = "roll" if action == "go" else "move"
            if action == "wait":
                self.turn = 1 - self.turn
        else:
            spaces = list(self.spaces)
            spaces[self.turn] += int(action[4:])
            self.spaces = tuple(spaces)
            self.stage = "over" if max(spaces) >= 6 else "move"
            self.turn = 1 - self.turn
        return [Event("step", action, "Turn")]

    def _view(self, seat: int | None) -> dict[str, Any]:
        mine = self.bids[seat] if seat is not None else None
        return {"stage": self.stage, "turn": self.turn, "spaces": list(self.spaces), "my_bid": mine,
                "bid_done": [b is not None for b in self.bids]}

    @property
    def result(self) -> Result | None:
        if self.stage != "over":
            return None
        winner = 0 if self.spaces[0] >= 6 else 1
        return Result((winner, 1 - winner), (winner,), "first to six")


class DiceDuel(Game):
    id = "dice-duel-test"
    name = "Dice Duel"
    min_players = max_players = default_players = 2

    def _initial_state(self) -> DuelState:
        state = DuelState()
        state.stage, state.bids, state.turn, state.spaces = "bid", (None, None), 0, (0, 0)
        return state


@pytest.fixture
def duel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("SLIPSTREAM_INTEROP_CACHE", str(tmp_path))
    registry.register(DiceDuel)
    try:
        yield DiceDuel.id
    finally:
        registry._GAMES.pop(DiceDuel.id, None)
        spec_module._MEMORY.pop(DiceDuel.id, None)


def test_a_new_game_gets_every_bridge(duel: str, tmp_path: Path) -> None:
    api_test(env(duel), num_cycles=200)
    parallel_api_test(parallel_env(duel), num_cycles=200)
    assert list(tmp_path.glob("dice-duel-test-*.json")), "the spec was built once and cached"
    spec = spec_module.spec_for(duel)
    assert spec.actions == ("bid:1", "bid:2", "go", "wait")
    assert spec.chance == ("die:1", "die:2", "die:3")

    gym_bridge.register()
    check_env(gymnasium.make(f"slipstream/{duel}-v0", opponents="random").unwrapped)

    register()
    game = pyspiel.load_game("slipstream_dice_duel_test")
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)
    state = game.new_initial_state()
    assert state.current_player() == 0 and state.legal_actions() == [0, 1]
    low, high = state.child(0), state.child(1)  # seat 0 bids 1 or 2, secretly
    assert low.current_player() == high.current_player() == 1
    assert low.observation_tensor(1) == high.observation_tensor(1)
    assert low.observation_tensor(0) != high.observation_tensor(0)
    assert '"my_bid": 2' in high.observation_string(0) and '"my_bid": null' in high.observation_string(1)
