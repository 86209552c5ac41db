"""``metrics.position_value``: the team's estimated chance to win, which search bots score positions with."""

from __future__ import annotations

import random

import pytest

import slipstream
from slipstream.bots.registry import make_bot
from slipstream.engine.game import CHANCE, State
from slipstream.games.highway_heist.metrics import position_value, rounds_left

from .helpers import new, play_passively


def values(state: State) -> list[float]:
    return [position_value(state, seat) for seat in range(state.game.players)]


def test_every_seat_shares_the_teams_chance() -> None:
    v = values(new(players=3))
    assert v[0] == v[1] == v[2] and 0.0 < v[0] < 1.0


def test_more_of_the_objective_done_is_better() -> None:
    s = new()
    ahead = s.copy()
    ahead.track = s.g.scenario.goal - 1
    assert position_value(ahead, 0) > position_value(s, 0)


def test_less_time_left_is_worse() -> None:
    """The Stunt deck is the clock (Difficulty): the same road with fewer rounds left is worth less."""
    easy, beast = new(difficulty="easy"), new(difficulty="beast")
    assert rounds_left(easy) > rounds_left(beast)
    assert position_value(easy, 0) > position_value(beast, 0)


def test_a_finished_match_is_won_or_lost() -> None:
    lost = play_passively(new())
    assert values(lost) == [0.0, 0.0]
    won = new().copy()
    won.track = won.g.scenario.goal - 1
    won = won.apply("drive:c2l3")
    assert not won.is_over
    won.track = won.g.scenario.goal
    won.outcome, won.stage = "win", type(won.stage).OVER
    assert values(won) == [1.0, 1.0]


@pytest.mark.parametrize("scenario", ["semi-heist", "chopper-takedown"])
def test_predicts_heuristic_matches_better_than_the_base_rate(scenario: str) -> None:
    """Positions sampled from 16 seeded matches of heuristic bots: the Brier score of ``position_value``
    against whether the team won is below that of the constant base rate (the share of matches won)."""
    game = slipstream.load("highway-heist", players=3, scenario=scenario, difficulty="easy")
    rng = random.Random(1)
    samples: list[tuple[float, float]] = []
    outcomes: list[float] = []
    for seed in range(16):
        bots = [make_bot("heuristic", game.id, seed * 10 + i) for i in range(3)]
        s, sampled = game.start(seed=seed), []
        while s.actor is not None:
            if s.actor == CHANCE:
                s = s.apply_unchecked(s.sample_chance())
                continue
            actor = s.actor
            seat = min(actor) if isinstance(actor, frozenset) else int(actor)  # type: ignore[arg-type]
            if rng.random() < 0.05:
                sampled.append(position_value(s, 0))
            s = s.apply_unchecked(bots[seat].choose(s, seat))
        assert s.result is not None
        won = 1.0 if s.result.winners else 0.0
        outcomes.append(won)
        samples += [(v, won) for v in sampled]
    base = sum(outcomes) / len(outcomes)
    ours = sum((v - won) ** 2 for v, won in samples)
    fair = sum((base - won) ** 2 for _, won in samples)
    assert 0.0 < base < 1.0
    assert ours < fair
