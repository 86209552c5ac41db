"""The observation a game declares (``observation="declared"``, ``slipstream.interop.declared``): every
value in [0, 1] at rare positions, exactly what the seat's view shows, and the libraries' own suites pass
with it and with the full observation."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, parallel_api_test

import slipstream
import slipstream.interop.gymnasium  # registers slipstream/<game id>-v0
from slipstream.engine import CHANCE, Game, OptionError, State
from slipstream.interop.compact import check_observation
from slipstream.interop.declared import DeclaredEncoder, declares_observation
from slipstream.interop.encoding import OMITTED, without_omitted
from slipstream.interop.openspiel import register
from slipstream.interop.pettingzoo import env, parallel_env
from slipstream.interop.spec import acting_seat, library_name
from slipstream.interop.table import Table

from .test_new_game import DiceDuel

DECLARING = sorted(game_id for game_id, cls in slipstream.available_games().items() if declares_observation(cls))
_OMITTED = frozenset(OMITTED)


def view_key(state: State, seat: int) -> str:
    """The seat's view as canonical JSON, its events and terms aside (the observations leave them out)."""
    return json.dumps(without_omitted(state.view(seat), _OMITTED), sort_keys=True)


def choose(state: State, seat: int, rng: random.Random, keen: float) -> str:
    """An action for ``seat``: with probability ``keen`` one that prolongs the position (roll again, keep the
    bonus cards, stay out of the pits), else any legal one."""
    legal = state.legal_actions(seat)
    if rng.random() < keen:
        patient = [a for a in legal if a in ("roll", "move", "done", "no-pit", "no")] or \
                  [a for a in legal if not a.startswith("play:")]
        if patient:
            return rng.choice(patient)
    return rng.choice(legal)


def configurations(game_id: str) -> st.SearchStrategy[tuple[int, dict[str, Any]]]:
    cls = slipstream.available_games()[game_id]
    named = [(players, {}) for players in range(cls.min_players, cls.max_players + 1)]
    named += [(players, dict(options)) for players, options in cls.conformance_options]
    return st.sampled_from(named)


@pytest.mark.parametrize("game_id", DECLARING)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_declared_value_is_finite_and_within_its_bounds_at_rare_positions(
    game_id: str, data: st.DataObject
) -> None:
    """Races played to the end by seats keen to prolong their turns (keep rolling to the sixth die, keep every
    bonus card in hand), at every player count and the conformance configurations: at every position,
    chance nodes included, every seat's observation is finite and inside [0, 1], and names every slot; a
    game that says it writes only float32 values (``writes_float32``) fills a list with the vector's values."""
    players, options = data.draw(configurations(game_id), label="configuration")
    keen = data.draw(st.sampled_from([0.0, 0.7, 0.95, 1.0]), label="keen")
    seed = data.draw(st.integers(0, 10_000), label="seed")
    game = slipstream.load(game_id, players=players, **options)
    encoder = DeclaredEncoder(game)
    assert len(encoder.names) == len(set(encoder.names)) == encoder.size
    rng = random.Random(seed)
    state = game.start(seed=seed)
    highest = np.zeros(encoder.size, np.float32)
    while True:
        for seat in range(players):
            vector = encoder.observe(state, seat)
            assert vector.shape == (encoder.size,) and vector.dtype == np.float32
            assert np.isfinite(vector).all()
            outside = np.flatnonzero((vector < 0.0) | (vector > 1.0))
            assert not len(outside), [(encoder.names[i], float(vector[i])) for i in outside]
            np.maximum(highest, vector, out=highest)
            if encoder.writes_float32:  # a list it fills holds what the float32 vector does
                listed = [0.0] * encoder.size
                encoder.declaration.write(state, seat, listed)
                assert listed == vector.tolist()
        if state.is_over:
            break
        if state.actor == CHANCE:
            state = state.apply_chance()
        else:
            seat = acting_seat(state)
            assert seat is not None
            state = state.apply(choose(state, seat, rng, keen))
    assert highest.max() == 1.0


CONFIGURATIONS = [
    (game_id, players, options)
    for game_id in DECLARING
    for players, options in [(2, {}), (3, {}), *slipstream.available_games()[game_id].conformance_options]
]


Observe = Callable[[State, int], bytes]


def first_mismatch(game: Game, observe: Observe, seeds: Sequence[int]) -> tuple[str | None, int]:
    """Plays a race from each seed (every action, chance outcomes included) and compares each seat's view
    (events and terms aside) with its observation after every action: the first position where one changed
    and the other did not, or where one view gave two observations, in words; and how many times a view
    changed."""
    players = game.players
    seen: dict[tuple[int, str], bytes] = {}
    changes = 0
    for seed in seeds:
        rng = random.Random(seed)
        state = game.start(seed=seed)
        before = [(view_key(state, seat), observe(state, seat)) for seat in range(players)]
        for seat in range(players):
            if seen.setdefault((seat, before[seat][0]), before[seat][1]) != before[seat][1]:
                return f"{game.id}: seat {seat}: one view, two observations at the start", changes
        while not state.is_over:
            if state.actor == CHANCE:
                state = state.apply_chance()
            else:
                seat = acting_seat(state)
                assert seat is not None
                state = state.apply(choose(state, seat, rng, 0.5))
            for seat in range(players):
                now = (view_key(state, seat), observe(state, seat))
                view_changed, observation_changed = now[0] != before[seat][0], now[1] != before[seat][1]
                if view_changed != observation_changed:
                    return (f"{game.id}: seat {seat}'s view {'changed' if view_changed else 'did not change'} at "
                            f"ply {state.ply} but its observation {'did' if observation_changed else 'did not'}",
                            changes)
                changes += view_changed
                if seen.setdefault((seat, now[0]), now[1]) != now[1]:
                    return f"{game.id}: seat {seat}: one view, two observations at ply {state.ply}", changes
                before[seat] = now
    return None, changes


@pytest.mark.parametrize(("game_id", "players", "options"), CONFIGURATIONS)
def test_a_seats_declared_observation_changes_when_and_only_when_its_view_does(
    game_id: str, players: int, options: dict[str, Any]
) -> None:
    """Over whole races (every action, chance outcomes included), a seat's declared observation changes
    exactly when its view does (events and terms aside): nothing the view shows is left out, and nothing it
    hides (another seat's cards, the deck's order) leaks in. Across races, one view always gives one
    observation: the observation is a function of the view alone. Two players, three, and each
    configuration of the conformance suite."""
    game = slipstream.load(game_id, players=players, **options)
    encoder = DeclaredEncoder(game)
    mismatch, changes = first_mismatch(game, lambda state, seat: encoder.observe(state, seat).tobytes(), (3001, 3002))
    assert mismatch is None, mismatch
    assert changes > 100


@pytest.mark.parametrize("game_id", DECLARING)
def test_the_view_check_catches_a_planted_leak(game_id: str) -> None:
    """The check above is honest: the declared observation passes it on ten races, but the same observation
    with a planted leak (it also peeks at the chance outcome the seed will pick: a die not yet rolled, a
    card not yet dealt) fails it."""
    game = slipstream.load(game_id, players=2)
    encoder = DeclaredEncoder(game)
    seeds = range(3001, 3011)
    assert first_mismatch(game, lambda state, seat: encoder.observe(state, seat).tobytes(), seeds)[0] is None

    def peeking(state: State, seat: int) -> bytes:
        vector = encoder.observe(state, seat)
        if state.actor == CHANCE:
            outcomes = state.legal_actions()
            vector[-1] = (outcomes.index(state.sample_chance()) + 1) / len(outcomes)
        return vector.tobytes()

    mismatch, _ = first_mismatch(game, peeking, seeds)
    assert mismatch is not None


@pytest.mark.parametrize("game_id", DECLARING)
def test_what_a_seat_cannot_see_does_not_move_its_declared_observation(game_id: str) -> None:
    """The game's own determinization redeals what a seat cannot see (other hands, the deck): that seat's
    observation is unchanged, while another seat's may change."""
    game = slipstream.load(game_id, players=3)
    encoder = DeclaredEncoder(game)
    rng = random.Random(5)
    state = game.start(seed=5)
    checked = 0
    while not state.is_over:
        if state.ply % 7 == 0 and hasattr(state, "determinize"):
            for seat in range(3):
                other = state.determinize(seat, rng)
                assert np.array_equal(encoder.observe(other, seat), encoder.observe(state, seat))
                checked += 1
        state = state.apply_chance() if state.actor == CHANCE else state.apply(
            rng.choice(state.legal_actions(acting_seat(state))))
    assert checked > 20


@pytest.mark.parametrize("game_id", DECLARING)
def test_the_declared_observation_is_the_default_and_full_stays_an_option(game_id: str) -> None:
    declared = Table(game_id, 2)
    full = Table(game_id, 2, observation="full")
    assert declared.observation_kind == "declared" and full.observation_kind == "full"
    assert declared.observation_names[:2] == ("seat=0", "seat=1")
    assert len(declared.observation_names) < len(full.observation_names)
    assert declared.observation(1)[1] == 1.0


def test_each_of_the_five_games_declares_its_observation() -> None:
    assert DECLARING == ["brc-grand-prix", "highway-heist", "rev-it-up", "rush-n-crush", "scrap-racer"]


def test_every_declaration_writes_only_float32_values() -> None:
    """The declarations that OpenSpiel's ``observation_tensor`` lets fill its list directly (checked at rare
    positions above, and against pyspiel's own below): all five."""
    writing = {game_id for game_id in DECLARING if DeclaredEncoder(slipstream.load(game_id)).writes_float32}
    assert writing == {"brc-grand-prix", "highway-heist", "rev-it-up", "rush-n-crush", "scrap-racer"}


def test_a_game_without_the_hook_keeps_the_full_default_and_refuses_declared() -> None:
    """A game added later that declares no observation (the tiny game of ``test_new_game``)."""
    game = DiceDuel(players=2)
    assert not declares_observation(game)
    assert check_observation(game, None) == "full"
    with pytest.raises(OptionError, match="declares no observation"):
        check_observation(game, "declared")
    with pytest.raises(ValueError, match="declares no observation"):
        DeclaredEncoder(game)


@pytest.mark.parametrize("game_id", DECLARING)
@pytest.mark.parametrize("observation", ["declared", "full"])
def test_the_libraries_suites_pass_with_the_declared_and_the_full_observation(game_id: str, observation: str) -> None:
    api_test(env(game_id, players=2, observation=observation), num_cycles=200)
    parallel_api_test(parallel_env(game_id, players=3, observation=observation), num_cycles=200)
    check_env(gymnasium.make(f"slipstream/{game_id}-v0", players=2, observation=observation).unwrapped)
    register()
    game = pyspiel.load_game(library_name(game_id), {"players": 2, "observation": observation})
    assert game.observation_tensor_shape() == [len(game.observation_names)]
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("game_id", DECLARING)
def test_openspiel_fills_its_observer_in_place_and_the_information_state_starts_with_it(game_id: str) -> None:
    register()
    game = pyspiel.load_game(library_name(game_id), {"players": 2})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    observer = game.make_py_observer()
    tensor = observer.tensor
    observer.set_from(state, 1)
    assert observer.tensor is tensor and tensor.tolist() == state.observation_tensor(1)
    observed = len(game.observation_names)
    assert state.information_state_tensor(1)[:observed] == state.observation_tensor(1)


@pytest.mark.parametrize("game_id", DECLARING)
def test_openspiels_observation_tensor_made_in_python_is_pyspiels_own(game_id: str) -> None:
    """``SlipstreamState.observation_tensor`` (made in Python, the game's observer filling its tensor) gives
    what pyspiel's own C++ way gives, for every seat at every decision of a race, and refuses a player
    who is not a seat as pyspiel does."""
    register()
    game = pyspiel.load_game(library_name(game_id), {"players": 2})
    state = game.new_initial_state()
    rng = random.Random(7)
    compared = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
            continue
        for player in (0, 1):
            assert state.observation_tensor(player) == pyspiel.State.observation_tensor(state, player)
        assert state.observation_tensor() == state.observation_tensor(state.current_player())
        compared += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert compared > 20
    for player in (-1, 2):
        with pytest.raises(pyspiel.SpielError):
            state.observation_tensor(player)
