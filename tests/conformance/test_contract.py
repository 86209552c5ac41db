"""The conformance suite: every registered game, every configuration, the same contract (DESIGN.md).

Random playouts to the end with invariants, seeded determinism, record round trip, illegal input
rejected with the state unchanged, and no hidden information in another seat's view.
"""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest

import slipstream
from slipstream.engine import CHANCE, IllegalActionError, State
from slipstream.engine.errors import SeatError
from slipstream.engine.fields import copy_rule_problems
from slipstream.engine.record import dumps, parse, replay
from tests.conftest import conformance_configs
from tests.playout import random_action

CONFIGS = conformance_configs()
IDS = [f"{g}-{p}p-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for g, p, o in CONFIGS]
SEEDS = range(3)


def random_playout(game: slipstream.Game, seed: int, check: bool = True) -> list[State]:
    """Every state of a random playout; with ``check`` the invariants are tested at each step."""
    rng = random.Random(seed)
    state = game.start(seed=seed)
    states = [state]
    for _ in range(200_000):
        if check:
            check_state(state)
        if state.actor is None:
            return states
        action = random_action(state, rng)
        before = snapshot(state) if check else None
        state = state.apply(action)
        if check:
            assert snapshot(states[-1]) == before, "apply changed the state it was called on"
        states.append(state)
    raise AssertionError(f"{game.id}: random playout did not end")


def snapshot(state: State) -> str:
    views = [state.view(s) for s in [None, *state.game.seats]]
    return json.dumps([views, state.legal_actions(), state.ply], sort_keys=True, default=str)


def check_state(state: State) -> None:
    game = state.game
    actor = state.actor
    legal = state.legal_actions()
    assert legal == sorted(set(legal)), "legal actions must be sorted and unique"
    assert all(isinstance(a, str) and a for a in legal)
    if actor is None:
        assert state.is_over and state.result is not None
        assert legal == []
        result = state.result
        assert sorted(result.order) == list(game.seats), "the result orders every seat"
        assert set(result.winners) <= set(game.seats)
        assert result.team == game.cooperative, "a cooperative game's results, and only its, are team results"
        json.dumps(result.to_json())
    else:
        assert not state.is_over and state.result is None
        assert legal, "a state that is not over has legal actions"
    if actor == CHANCE:
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == legal, "chance outcomes are the legal actions, sorted"
        assert all(p > 0 for _, p in outcomes)
        assert math.isclose(sum(p for _, p in outcomes), 1.0, rel_tol=1e-9)
    else:
        assert state.chance_outcomes() == []
    if isinstance(actor, frozenset):
        assert actor and actor <= set(game.seats)
        for seat in actor:
            mine = state.legal_actions(seat)
            assert mine and all(a.startswith(f"{seat}:") for a in mine)
    elif isinstance(actor, int):
        assert actor in game.seats, "the actor is a seat"
    problems = state.invariant_problems() + copy_rule_problems(state)
    assert not problems, problems
    for seat in [None, *game.seats]:
        json.dumps(state.view(seat))
        for event in state.events:
            json.dumps(event.to_json())


@pytest.fixture(params=CONFIGS, ids=IDS)
def config(request: pytest.FixtureRequest) -> tuple[str, int, dict[str, Any]]:
    return request.param  # type: ignore[no-any-return]


def load(config: tuple[str, int, dict[str, Any]]) -> slipstream.Game:
    gid, players, options = config
    return slipstream.load(gid, players=players, **options)


@pytest.mark.parametrize("seed", SEEDS)
def test_random_playout_keeps_invariants(config: Any, seed: int) -> None:
    random_playout(load(config), seed)


def test_seeded_determinism(config: Any) -> None:
    game = load(config)
    a = random_playout(game, 11, check=False)[-1]
    b = random_playout(load(config), 11, check=False)[-1]
    assert a.record() == b.record()
    assert a.view(None) == b.view(None)


def test_record_round_trip(config: Any) -> None:
    final = random_playout(load(config), 5, check=False)[-1]
    again = replay(parse(dumps(final)))
    assert again.record() == final.record()
    for seat in [None, *final.game.seats]:
        assert again.view(seat) == final.view(seat)
    assert again.result == final.result


def test_illegal_input_is_rejected_and_changes_nothing(config: Any) -> None:
    for state in random_playout(load(config), 3, check=False)[::25]:
        before = snapshot(state)
        for bad in ["", "no-such-action", "die:99", "0:no-such-action"]:
            with pytest.raises(IllegalActionError) as info:
                state.apply(bad)
            assert isinstance(info.value, ValueError)
            assert repr(bad) in str(info.value)
        with pytest.raises(TypeError):
            state.apply(42)  # type: ignore[arg-type]
        assert snapshot(state) == before


def test_views_hide_what_a_seat_cannot_see(config: Any) -> None:
    """A seat's view is the same whatever the hidden information it cannot see."""
    rng = random.Random(1)
    for state in random_playout(load(config), 8, check=False)[::7]:
        for seat in [None, *state.game.seats]:
            for _ in range(3):
                other = state.determinize(seat, rng)
                assert other.view(seat) == state.view(seat)
                actor = state.actor
                if seat is not None and (actor == seat or (isinstance(actor, frozenset) and seat in actor)):
                    assert other.legal_actions(seat) == state.legal_actions(seat)


def test_a_seat_the_game_does_not_have_gets_a_clear_error(config: Any) -> None:
    """``view`` checks the seat for every game (the engine's ``State.view``), before the game's ``_view``."""
    state = load(config).start(seed=3)
    players = state.game.players
    for seat in (-1, players, 99, True):
        with pytest.raises(SeatError, match=f"the seats are 0 to {players - 1}"):
            state.view(seat)
    for not_a_seat in ("0", 1.0):
        with pytest.raises(TypeError):
            state.view(not_a_seat)  # type: ignore[arg-type]
    assert state.view(players - 1) and state.view(None)
