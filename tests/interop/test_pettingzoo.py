"""PettingZoo's own API tests pass for every registered game."""

from __future__ import annotations

import pytest
from pettingzoo.test import api_test, parallel_api_test

import slipstream
from slipstream.interop.pettingzoo import env, parallel_env
from tests.per_game import game_ids, players_near

GAMES = game_ids()


@pytest.mark.parametrize("game_id", GAMES)
def test_aec_api(game_id: str) -> None:
    api_test(env(game_id, players=slipstream.available_games()[game_id].min_players), num_cycles=400)


@pytest.mark.parametrize("game_id", GAMES)
def test_aec_api_with_the_most_players(game_id: str) -> None:
    players = slipstream.available_games()[game_id].max_players
    api_test(env(game_id, players=players), num_cycles=200)


@pytest.mark.parametrize("game_id", GAMES)
def test_parallel_api(game_id: str) -> None:
    parallel_api_test(parallel_env(game_id, players=players_near(game_id, 3)), num_cycles=400)


def test_a_full_game_ends_with_a_winner_and_the_same_seed_replays() -> None:
    def play(seed: int) -> tuple[list[str], dict[str, float]]:
        aec = env("scrap-racer", players=3)
        aec.reset(seed=seed)
        totals = dict.fromkeys(aec.possible_agents, 0.0)
        for agent in aec.agent_iter():
            observation, reward, terminated, truncated, _ = aec.last()
            totals[agent] += reward
            mask = observation["action_mask"]
            aec.step(None if terminated or truncated else int(mask.nonzero()[0][-1]))
        return aec.state_object.actions, totals

    actions, totals = play(5)
    assert sorted(totals.values()) == [-1.0, -1.0, 1.0]
    assert play(5) == (actions, totals)
