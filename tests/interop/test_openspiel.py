"""OpenSpiel's random_sim_test passes for every registered game, and its MCTS bot plays one of ours."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts

import slipstream
from slipstream.interop.openspiel import register
from slipstream.interop.spec import library_name
from tests.per_game import game_ids, players_near

GAMES = game_ids()


def test_register_names_every_game() -> None:
    assert register() == [library_name(g) for g in slipstream.available_games()]
    assert set(register()) <= set(pyspiel.registered_names())


@pytest.mark.parametrize("game_id", GAMES)
def test_random_sim(game_id: str) -> None:
    register()
    game = pyspiel.load_game(library_name(game_id), {"players": players_near(game_id, 2)})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_openspiel_mcts_plays_a_race() -> None:
    register()
    game = pyspiel.load_game("slipstream_brc_grand_prix", {"players": 2, "laps": 1})
    rng = np.random.RandomState(3)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=20, evaluator=mcts.RandomRolloutEvaluator(1, rng),
                       random_state=rng)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
            moves += 1
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert moves > 0
    assert sorted(state.returns()) == [-1.0, 1.0]
    assert state.engine_state.record()["game"] == "brc-grand-prix"


@pytest.mark.parametrize("game_id", GAMES)
def test_python_answers_match_pyspiels_own(game_id: str) -> None:
    """The states answer ``legal_actions`` and ``is_chance_node`` in Python, without pyspiel's calls back
    through C++: at every position of a random race (chance nodes and the end included), for the player to
    act and every seat, the answers are pyspiel's own (``pyspiel.State``'s methods, the C++ way)."""
    register()
    game = pyspiel.load_game(library_name(game_id), {"players": players_near(game_id, 2)})
    rng = np.random.default_rng(5)
    state = game.new_initial_state()
    kinds = {"chance": 0, "decision": 0}
    while True:
        assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        if not state.is_chance_node():
            for seat in range(game.num_players()):
                assert state.legal_actions(seat) == pyspiel.State.legal_actions(state, seat), seat
        if state.is_terminal():
            break
        kinds["chance" if state.is_chance_node() else "decision"] += 1
        legal = state.legal_actions()
        state.apply_action(int(legal[rng.integers(len(legal))]))
    # Both kinds of node were checked on the way (a short new game's race can be a handful of positions).
    assert kinds["chance"] > 0 and kinds["decision"] > 0, kinds
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    for legal_actions in (state.legal_actions, lambda player: pyspiel.State.legal_actions(state, player)):
        with pytest.raises(pyspiel.SpielError, match="pseudo-player"):  # a decision's, for chance's id
            legal_actions(int(pyspiel.PlayerId.CHANCE))
