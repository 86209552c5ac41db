"""Gymnasium's check_env passes for slipstream/<game id>-v0, for every registered game."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import slipstream.interop.gymnasium  # noqa: F401 - registers slipstream/<game id>-v0
from slipstream.engine import IllegalActionError
from tests.per_game import game_ids, players_near

GAMES = game_ids()


@pytest.mark.parametrize("game_id", GAMES)
def test_check_env(game_id: str) -> None:
    env = gymnasium.make(f"slipstream/{game_id}-v0", players=players_near(game_id, 2))
    check_env(env.unwrapped)


def test_a_game_against_random_bots_runs_to_a_result() -> None:
    env = gymnasium.make("slipstream/rev-it-up-v0", players=3, opponents="random")
    _, info = env.reset(seed=4)
    total, done = 0.0, False
    while not done:
        action = int(np.flatnonzero(info["action_mask"])[0])
        _, reward, terminated, truncated, info = env.step(action)
        total += float(reward)
        done = terminated or truncated
    assert total in (-1.0, 1.0) and "result" in info


def test_an_illegal_action_loses_or_raises() -> None:
    env = gymnasium.make("slipstream/scrap-racer-v0", players=2, opponents="random")
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated) == (-1.0, True) and "illegal_action" in info
    strict = gymnasium.make("slipstream/scrap-racer-v0", players=2, illegal="raise").unwrapped
    strict.reset(seed=1)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)
