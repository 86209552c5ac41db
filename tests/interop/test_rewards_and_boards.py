"""The reward option (by winning or by place), the cooperative game's shared utility, the terminal board
that ``render()`` returns and the observation slot names, on every bridge, through the real libraries."""

from __future__ import annotations

import io
import json
import random
from typing import Any

import gymnasium
import numpy as np
import pyspiel
import pytest
from rich.console import Console

import slipstream.interop.gymnasium  # noqa: F401 - registers slipstream/<game id>-v0
from slipstream.cli import play
from slipstream.engine import OptionError, State
from slipstream.interop.openspiel import register
from slipstream.interop.pettingzoo import env, parallel_env
from slipstream.interop.spec import library_name
from tests.per_game import games_with, players_near


def play_aec(aec: Any, seed: int) -> dict[str, float]:
    """A seeded random game through a PettingZoo AEC environment: each agent's total reward."""
    rng = random.Random(seed)
    aec.reset(seed=seed)
    totals = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        observation, reward, terminated, truncated, _ = aec.last()
        totals[agent] += reward
        legal = np.flatnonzero(observation["action_mask"])
        aec.step(None if terminated or truncated else int(rng.choice(legal)))
    return totals


def play_openspiel(game: Any, seed: int) -> Any:
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def place_reward(state: State, seat: int) -> float:
    """The documented place scale, from the result's finishing order: +1 first, -1 last, linear between."""
    order = state.result.order  # type: ignore[union-attr]
    return 1.0 - 2.0 * order.index(seat) / (len(order) - 1)


# --- the cooperative game ------------------------------------------------------------------------


def test_highway_heist_is_identical_utility_in_openspiel_and_every_seat_gets_the_team_result() -> None:
    """Highway Heist is cooperative (rules/highway-heist.txt: the crew wins or loses together)."""
    register()
    game = pyspiel.load_game("slipstream_highway_heist", {"players": 3})
    assert game.get_type().utility == pyspiel.GameType.Utility.IDENTICAL
    for seed in (1, 2):
        returns = play_openspiel(game, seed).returns()
        assert len(set(returns)) == 1 and returns[0] in (-1.0, 1.0)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_highway_heist_rewards_are_the_team_result_in_pettingzoo_and_gymnasium() -> None:
    aec = env("highway-heist", players=3)
    totals = play_aec(aec, 4)
    team = 1.0 if aec.state_object.result.winners else -1.0
    assert set(totals.values()) == {team}
    gym = gymnasium.make("slipstream/highway-heist-v0", players=2, opponents="random")
    _, info = gym.reset(seed=2)
    rng, done, reward = random.Random(2), False, 0.0
    while not done:
        _, reward, terminated, truncated, info = gym.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        done = terminated or truncated
    assert reward == (1.0 if info["result"]["winners"] else -1.0)


def test_a_cooperative_game_refuses_rewards_by_place_on_every_bridge() -> None:
    register()
    with pytest.raises(OptionError, match="cooperative"):
        env("highway-heist", players=2, reward="place")
    with pytest.raises(OptionError, match="cooperative"):
        parallel_env("highway-heist", players=2, reward="place")
    with pytest.raises(OptionError, match="cooperative"):
        gymnasium.make("slipstream/highway-heist-v0", players=2, reward="place")
    with pytest.raises(OptionError, match="cooperative"):
        pyspiel.load_game("slipstream_highway_heist", {"players": 2, "reward": "place"})


# --- rewards by place ----------------------------------------------------------------------------


@pytest.mark.parametrize(("option", "choices"), [("reward", "'win', 'place'"), ("observation", "'full', 'compact'")])
def test_an_unknown_reward_or_observation_is_a_clear_error_on_every_bridge(option: str, choices: str) -> None:
    register()
    bad = {option: "points"}
    for make in (lambda: env("scrap-racer", players=3, **bad),
                 lambda: parallel_env("scrap-racer", players=3, **bad),
                 lambda: gymnasium.make("slipstream/scrap-racer-v0", players=3, **bad),
                 lambda: pyspiel.load_game("slipstream_scrap_racer", {"players": 3, **bad})):
        with pytest.raises(OptionError, match=choices):
            make()


@pytest.mark.parametrize("game_id", ["scrap-racer", "rev-it-up"])
def test_pettingzoo_pays_by_place_from_plus_one_to_minus_one(game_id: str) -> None:
    aec = env(game_id, players=4, reward="place")
    totals = play_aec(aec, 3)
    state = aec.state_object
    assert [totals[f"player_{s}"] for s in range(4)] == pytest.approx([place_reward(state, s) for s in range(4)])
    assert sorted(totals.values()) == pytest.approx([-1.0, -1 / 3, 1 / 3, 1.0])
    assert sum(totals.values()) == pytest.approx(0.0)
    assert play_aec(env(game_id, players=4), 3) == {  # the default pays +1 to the winner only
        f"player_{s}": 1.0 if s in state.result.winners else -1.0 for s in range(4)}


def test_the_parallel_environment_pays_by_place() -> None:
    parallel = parallel_env("brc-grand-prix", players=3, reward="place", laps=1)
    rng = random.Random(5)
    parallel.reset(seed=5)
    totals = dict.fromkeys(parallel.possible_agents, 0.0)
    observations: dict[str, Any] = {}
    observations, _ = parallel.reset(seed=5)
    while parallel.agents:
        actions = {agent: int(rng.choice(np.flatnonzero(o["action_mask"])))
                   for agent, o in observations.items() if o["action_mask"].any()}
        observations, rewards, _, _, _ = parallel.step(actions)
        for agent, reward in rewards.items():
            totals[agent] += reward
    state = parallel.table.state
    assert [totals[f"player_{s}"] for s in range(3)] == [place_reward(state, s) for s in range(3)]


def test_gymnasium_pays_the_learner_by_place() -> None:
    gym = gymnasium.make("slipstream/rev-it-up-v0", players=3, opponents="random", reward="place", seat=1)
    rewards = []
    for seed in range(3):
        _, info = gym.reset(seed=seed)
        rng, done, reward = random.Random(seed), False, 0.0
        while not done:
            _, reward, terminated, truncated, info = gym.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            done = terminated or truncated
        rewards.append(reward)
        assert reward == place_reward(gym.unwrapped.table.state, 1)
    assert set(rewards) <= {-1.0, 0.0, 1.0}


def test_openspiel_pays_by_place_as_a_zero_sum_game() -> None:
    register()
    game = pyspiel.load_game("slipstream_scrap_racer", {"players": 4, "reward": "place", "short": True})
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    state = play_openspiel(game, 6)
    assert state.returns() == pytest.approx([place_reward(state.engine_state, s) for s in range(4)])
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    two = pyspiel.load_game("slipstream_scrap_racer", {"players": 2, "reward": "place", "short": True})
    assert play_openspiel(two, 6).returns() == play_openspiel(
        pyspiel.load_game("slipstream_scrap_racer", {"players": 2, "short": True}), 6).returns()


# --- render("ansi") is the terminal board ---------------------------------------------------------


def cli_board(state: State, seat: int | None, monkeypatch: pytest.MonkeyPatch) -> str:
    """What ``slipstream play`` prints for the board, captured from its console without colours."""
    out = io.StringIO()
    monkeypatch.setattr(play, "console", Console(file=out, width=400, color_system=None, highlight=False))
    play.show_board(state, seat)
    return out.getvalue()


@pytest.mark.parametrize("game_id", games_with("board_text"))
def test_render_is_the_terminal_board_in_plain_text(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    players = players_near(game_id, 2)
    aec = env(game_id, players=players, render_mode="ansi")
    aec.reset(seed=3)
    gym = gymnasium.make(f"slipstream/{game_id}-v0", players=players, opponents="random", render_mode="ansi", seat=1)
    gym.reset(seed=3)
    parallel = parallel_env(game_id, players=players, render_mode="ansi")
    parallel.reset(seed=3)
    for text, state, seat in ((aec.render(), aec.state_object, None), (parallel.render(), parallel.table.state, None),
                              (gym.render(), gym.unwrapped.table.state, 1)):
        with pytest.raises(json.JSONDecodeError):
            json.loads(text)
        printed = cli_board(state, seat, monkeypatch)
        lines = [line.rstrip() for line in text.splitlines() if line.strip()]
        assert lines, "the board is drawn"
        for line in lines:
            assert line in printed, (line, printed)


def test_render_without_ansi_mode_returns_none() -> None:
    aec = env("scrap-racer", players=2)
    assert aec.render() is None


# --- observation names ---------------------------------------------------------------------------


def view_value(view: Any, path: str) -> Any:
    """The value a plain slot name (``/cars/1/lap``, ``/cars/#``) reads in a view, or None if absent."""
    value = view
    for part in path.split("/")[1:]:
        if part == "#":
            return len(value) if isinstance(value, list) else None
        if isinstance(value, dict):
            value = value.get(part)
        elif isinstance(value, list) and int(part) < len(value):
            value = value[int(part)]
        else:
            return None
    return value


def check_names(names: tuple[str, ...], vector: np.ndarray, view: Any, seat: int) -> None:
    """Every slot has a name, and each plain name's slot holds what the view says at that path."""
    assert len(names) == len(vector) == len(set(names))
    assert names[seat] == f"seat={seat}" and vector[seat] == 1.0
    checked = 0
    for index, name in enumerate(names):
        if not name.startswith("/") or "=" in name or name.endswith("?"):
            continue
        value = view_value(view, name)
        if isinstance(value, (int, float)):
            assert vector[index] == pytest.approx(float(value)), name
            checked += 1
        elif isinstance(value, str) and f"{name}={value}" in names:
            assert vector[names.index(f"{name}={value}")] == 1.0
    assert checked > 5


@pytest.mark.parametrize("game_id", ["brc-grand-prix", "rush-n-crush"])
def test_observation_names_read_the_view_on_every_bridge(game_id: str) -> None:
    register()
    aec = env(game_id, players=2, observation="full")  # the full observation: its slots are view paths
    aec.reset(seed=1)
    observation = aec.observe("player_1")["observation"]
    check_names(aec.observation_names, observation, aec.state_object.view(1), 1)
    parallel = parallel_env(game_id, players=2, observation="full")
    observations, _ = parallel.reset(seed=1)
    check_names(parallel.observation_names, observations["player_0"]["observation"], parallel.table.state.view(0), 0)
    gym = gymnasium.make(f"slipstream/{game_id}-v0", players=2, opponents="random", observation="full")
    observation, _ = gym.reset(seed=1)
    check_names(gym.unwrapped.observation_names, observation, gym.unwrapped.table.state.view(0), 0)
    game = pyspiel.load_game(library_name(game_id), {"players": 2, "observation": "full"})
    state = play_openspiel_until_decision(game)
    check_names(game.observation_names, np.array(state.observation_tensor(0)), state.engine_state.view(0), 0)


def play_openspiel_until_decision(game: Any) -> Any:
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state
