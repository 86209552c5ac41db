"""Brier scores of a game's ``position_value`` over positions from heuristic self-play races."""

from __future__ import annotations

import random
from collections.abc import Callable

import slipstream
from slipstream.bots.registry import make_bot
from slipstream.engine.game import CHANCE, State


def brier_scores(game_id: str, players: int, races: int, sample_rate: float,
                 value: Callable[[State, int], float]) -> tuple[float, float]:
    """(Brier score of ``value``, Brier score of the fair share 1/players) against who won, over the
    positions sampled at rate ``sample_rate`` from ``races`` seeded races between heuristic bots."""
    game = slipstream.load(game_id, players=players)
    rng = random.Random(players)
    ours = fair = 0.0
    for seed in range(races):
        bots = [make_bot("heuristic", game_id, seed * 10 + i) for i in range(players)]
        s, sampled = game.start(seed=seed), []
        while s.actor is not None:  # not play(): positions are sampled before decisions, applied unchecked
            if s.actor == CHANCE:
                s = s.apply_unchecked(s.sample_chance())
                continue
            actor = s.actor
            seat = min(actor) if isinstance(actor, frozenset) else int(actor)  # type: ignore[arg-type]
            if rng.random() < sample_rate:
                sampled.append(s)
            s = s.apply_unchecked(bots[seat].choose(s, seat))
        if s.result is None:
            raise AssertionError("a finished race has a result")
        for p in sampled:
            for seat in range(players):
                won = 1.0 if seat in s.result.winners else 0.0
                ours += (value(p, seat) - won) ** 2
                fair += (1 / players - won) ** 2
    return ours, fair
