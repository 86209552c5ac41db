"""OpenSpiel's perfect-recall information state (``slipstream.interop.recall``): what a seat saw happen,
nothing it could not see, rebuilt and extended alike, and enough for the CFR family to run."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import outcome_sampling_mccfr

import slipstream.interop.openspiel as bridge
from slipstream.interop.openspiel import register
from slipstream.interop.recall import recall_of, view_text
from slipstream.interop.spec import library_name
from tests.per_game import game_ids, players_near

GAMES = game_ids()
TINY = ("slipstream_brc_grand_prix", {"players": 2, "laps": 1})
"""A one-lap, two-car BRC race: a dozen decisions a seat, small enough for a few CFR iterations."""


def load(game_id: str, players: int = 2) -> Any:
    """The game through OpenSpiel, with ``players`` seats or the nearest count the game takes."""
    register()
    return pyspiel.load_game(library_name(game_id), {"players": players_near(game_id, players)})


def random_step(state: Any, rng: random.Random) -> None:
    if state.is_chance_node():
        outcomes, weights = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(outcomes, weights)[0])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("game_id", GAMES)
def test_a_seat_adds_its_own_actions_and_its_changed_views_and_nothing_else(game_id: str) -> None:
    """Along a random game: the seat that acts adds exactly its action; a seat that did not act and whose
    view did not change keeps the same information state (a step it could not see does not show)."""
    game = load(game_id)
    rng = random.Random(1)
    state = game.new_initial_state()
    players = game.num_players()
    before = [state.information_state_string(p) for p in range(players)]
    for _ in range(300):
        if state.is_terminal():
            break
        chooser = None if state.is_chance_node() else state.current_player()
        engine_before = state.engine_state
        recall_before = state.recall()
        random_step(state, rng)
        after = [state.information_state_string(p) for p in range(players)]
        for seat in range(players):
            own_before, own_after = recall_before[seat].own, state.recall()[seat].own
            if seat == chooser:
                assert own_after[:-1] == own_before and len(own_after) == len(own_before) + 1
                assert after[seat] != before[seat]
            else:
                assert own_after == own_before
                if view_text(engine_before, seat) == view_text(state.engine_state, seat):
                    assert after[seat] == before[seat]
                else:
                    assert after[seat] != before[seat]
        before = after


@pytest.mark.parametrize("game_id", GAMES)
def test_extended_information_states_equal_those_rebuilt_from_the_record(game_id: str) -> None:
    game = load(game_id, players=3 if game_id != "brc-grand-prix" else 2)
    rng = random.Random(2)
    state = game.new_initial_state()
    state.information_state_string(0)  # from here on each action extends them
    for _ in range(150):
        if state.is_terminal():
            break
        random_step(state, rng)
    assert state.recall() == recall_of(state.engine_state)
    copy = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    for seat in range(game.num_players()):
        assert copy.information_state_string(seat) == state.information_state_string(seat)
        assert copy.information_state_tensor(seat) == state.information_state_tensor(seat)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_tensor_is_the_observation_the_counts_of_own_actions_and_the_last_one(game_id: str) -> None:
    game = load(game_id)
    size = game.information_state_tensor_shape()[0]
    names = game.information_state_names
    observed = len(game.observation_names)
    actions = game.num_distinct_actions()
    assert size == len(names) == observed + 2 * actions and names[:observed] == game.observation_names
    rng = random.Random(3)
    state = game.new_initial_state()
    mine: list[int] = []
    for _ in range(120):
        if state.is_terminal():
            break
        if state.current_player() == 1:
            mine.append(rng.choice(state.legal_actions()))
            state.apply_action(mine[-1])
        else:
            random_step(state, rng)
    tensor = np.array(state.information_state_tensor(1))
    assert tensor.shape == (size,)
    assert np.array_equal(tensor[:observed], np.array(state.observation_tensor(1)))
    counts = Counter(mine)
    assert {a: int(n) for a, n in enumerate(tensor[observed:observed + actions]) if n} == dict(counts)
    last = np.flatnonzero(tensor[observed + actions:])
    assert list(last) == ([mine[-1]] if mine else [])
    if mine:
        assert names[observed + actions + mine[-1]] == f"last own action={game.spec.actions[mine[-1]]}"


@pytest.mark.parametrize("game_id", GAMES)
def test_a_simultaneous_choice_does_not_leak_into_the_next_seats_information_state(game_id: str) -> None:
    """The bridge takes a window open to several seats one seat after another: what the first picks
    never reaches the next seat's information state, beyond whether the first is done where the game
    shows it (as for the observation, tests/interop/test_spec.py)."""
    game = load(game_id)
    windows = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = game.new_initial_state()
        state.information_state_string(0)
        while not state.is_terminal() and windows < 12:
            actor = state.engine_state.actor
            if isinstance(actor, frozenset) and len(actor) > 1:
                first, second = sorted(actor)[:2]
                seen: dict[bool, set[tuple[str, bytes]]] = {True: set(), False: set()}
                for action in state.legal_actions():
                    child = state.child(action)
                    after = child.engine_state.actor
                    if isinstance(after, frozenset) and second in after:
                        tensor = np.array(child.information_state_tensor(second), np.float32).tobytes()
                        seen[first in after].add((child.information_state_string(second), tensor))
                assert all(len(s) <= 1 for s in seen.values()), f"{game_id}: seat {second} learns seat {first}'s choice"
                windows += 1
            random_step(state, rng)
    if game_id == "brc-grand-prix":
        assert windows, "BRC's starting tyres are a simultaneous choice"


def test_outcome_sampling_mccfr_runs_and_meets_the_same_information_states_again() -> None:
    """OpenSpiel's Python outcome-sampling MCCFR (the CFR family on a sampled trajectory) on a tiny race:
    its table is keyed by information_state_string, and keys recur across episodes where a seat cannot
    tell them apart (after the first dice roll a race's histories part); the average policy is a
    distribution over the legal actions."""
    register()
    game = pyspiel.load_game(*TINY)
    calls: Counter[str] = Counter()
    string_from = bridge.SlipstreamInformationObserver.string_from

    def counted(self: Any, state: Any, player: int) -> str:
        text = string_from(self, state, player)
        calls[text] += 1
        return text

    np.random.seed(0)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    bridge.SlipstreamInformationObserver.string_from = counted  # type: ignore[method-assign]
    try:
        for _ in range(25):
            solver.iteration()
    finally:
        bridge.SlipstreamInformationObserver.string_from = string_from  # type: ignore[method-assign]
    met = Counter(calls)  # a copy: the checks below ask for information states too
    assert len(solver._infostates) == len(met) > 20
    # each iteration plays one episode per seat; every episode opens with the starting tyres, chosen by
    # both seats at once: seat 1 meets the same information state whatever seat 0 picked
    opening = [count for _, count in met.most_common(2)]
    assert opening == [2 * 25, 2 * 25]
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    policy = solver.average_policy().action_probabilities(state)
    assert sorted(policy) == state.legal_actions()
    assert sum(policy.values()) == pytest.approx(1.0)
    assert met[state.information_state_string(state.current_player())] == 2 * 25


def test_openspiels_cpp_mccfr_solver_runs_on_a_slipstream_game() -> None:
    register()
    game = pyspiel.load_game(*TINY)
    solver = pyspiel.OutcomeSamplingMCCFRSolver(game, seed=1)
    for _ in range(20):
        solver.run_iteration()
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    policy = dict(solver.average_policy().get_state_policy(state))
    assert sorted(policy) == state.legal_actions()
    assert sum(policy.values()) == pytest.approx(1.0)


def test_observers_take_no_parameters() -> None:
    game = pyspiel.load_game(*TINY) if register() else None
    with pytest.raises(ValueError, match="no parameters"):
        game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True), {"detail": 1})
