"""The compact observation (``observation="compact"``, ``slipstream.interop.compact``): the libraries' own
suites pass with it for every game, and it is the full observation's moving slots, scaled into [0, 1]."""

from __future__ import annotations

import json
import random

import gymnasium
import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test

import slipstream.interop.gymnasium  # noqa: F401 - registers slipstream/<game id>-v0
from slipstream.interop.encoding import OMITTED, without_omitted
from slipstream.interop.openspiel import register
from slipstream.interop.pettingzoo import env, parallel_env
from slipstream.interop.spec import library_name
from slipstream.interop.table import Table
from tests.per_game import game_ids, players_near

GAMES = game_ids()


@pytest.mark.parametrize("game_id", GAMES)
def test_pettingzoo_suites_pass_with_the_compact_observation(game_id: str) -> None:
    players = players_near(game_id, 2)
    api_test(env(game_id, players=players, observation="compact"), num_cycles=200)
    parallel_api_test(parallel_env(game_id, players=players, observation="compact"), num_cycles=200)


@pytest.mark.parametrize("game_id", GAMES)
def test_gymnasium_and_openspiel_suites_pass_with_the_compact_observation(game_id: str) -> None:
    players = players_near(game_id, 2)
    check_env(gymnasium.make(f"slipstream/{game_id}-v0", players=players, observation="compact").unwrapped)
    register()
    game = pyspiel.load_game(library_name(game_id), {"players": players, "observation": "compact"})
    assert game.observation_tensor_shape() == [len(game.observation_names)]
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("game_id", ["brc-grand-prix", "rev-it-up", "rush-n-crush"])
def test_the_compact_observation_is_the_moving_slots_scaled_in_order(game_id: str) -> None:
    """Fewer slots than the full observation, each a full slot by name; every value in [0, 1]; and each
    kept slot orders positions as the full one does (the scaling is increasing), on seeds the playouts
    that chose the slots never met."""
    full = Table(game_id, 3, observation="full")
    compact = Table(game_id, 3, observation="compact")
    names = compact.observation_names
    assert 0 < len(names) < len(full.observation_names)
    where = [full.observation_names.index(name) for name in names]
    assert where == sorted(where)
    assert [f"seat={s}" for s in range(3)] == [n for n in names if n.startswith("seat=")]
    pairs = []
    for seed in (1001, 1002):
        rng = random.Random(seed)
        full.reset(seed)
        compact.reset(seed)
        while not full.is_over and len(pairs) < 400:
            seat = full.seat
            assert seat is not None and compact.seat == seat
            pairs.append((full.observation(seat)[where], compact.observation(seat)))
            action = rng.choice(full.legal_ids(seat))
            full.act(seat, action)
            compact.act(seat, action)
    wide = np.array([f for f, _ in pairs])
    small = np.array([c for _, c in pairs])
    assert small.min() >= 0.0 and small.max() <= 1.0
    assert (small.max(axis=0) > small.min(axis=0)).mean() > 0.3  # most kept slots move in two new races
    for a, b in zip(range(0, len(pairs) - 1), range(1, len(pairs)), strict=True):
        inside = (small[a] > 0) & (small[a] < 1) & (small[b] > 0) & (small[b] < 1)
        assert np.array_equal(np.sign(wide[a] - wide[b])[inside], np.sign(small[a] - small[b])[inside])


def test_the_information_state_tensor_starts_with_the_chosen_observation() -> None:
    register()
    game = pyspiel.load_game("slipstream_scrap_racer", {"players": 2, "observation": "compact"})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    observed = len(game.observation_names)
    assert game.information_state_names[:observed] == game.observation_names
    assert state.information_state_tensor(0)[:observed] == state.observation_tensor(0)


@pytest.mark.parametrize("game_id", GAMES)
def test_both_observations_change_whenever_a_seats_view_does(game_id: str) -> None:
    """On a race the compact slots were not chosen from, every change of a seat's view (its events and
    terms aside, left out on purpose) changes that seat's full and compact observation: nothing visible
    is dropped. (Only when: the observations read nothing but the view.)"""
    players = players_near(game_id, 2)
    full = Table(game_id, players, observation="full")
    compact = Table(game_id, players, observation="compact")
    rng = random.Random(2001)
    full.reset(2001)
    compact.reset(2001)
    before: list[tuple[str, bytes, bytes] | None] = [None] * players
    changes = decisions = 0
    while not full.is_over:
        for seat in range(players):
            view = json.dumps(without_omitted(full.state.view(seat), frozenset(OMITTED)), sort_keys=True)
            now = (view, full.observation(seat).tobytes(), compact.observation(seat).tobytes())
            earlier = before[seat]
            if earlier is not None and view != earlier[0]:
                changes += 1
                assert now[1] != earlier[1], f"{game_id}: seat {seat}'s full observation missed a view change"
                assert now[2] != earlier[2], f"{game_id}: seat {seat}'s compact observation missed a view change"
            before[seat] = now
        seat = full.seat
        assert seat is not None
        action = rng.choice(full.legal_ids(seat))
        full.act(seat, action)
        compact.act(seat, action)
        decisions += 1
    assert changes >= min(50, decisions), "the race showed the seats enough changes to check"
