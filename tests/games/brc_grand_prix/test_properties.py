"""Hypothesis properties of BRC Grand Prix over random races and options."""

from __future__ import annotations

import itertools
import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from slipstream.engine import CHANCE
from slipstream.engine.record import dumps, parse, replay
from slipstream.games.brc_grand_prix import BRCGrandPrix, BRCState
from slipstream.games.brc_grand_prix.rules import standard_move
from tests.playout import random_states

options = st.fixed_dictionaries({
    "laps": st.integers(1, 4),
    "grid": st.sampled_from(["roll-off", "qualifying"]),
    "standings": st.sampled_from(["race-to-end", "current-position"]),
    "pit_penalty": st.sampled_from(["drive-through", "stop-go"]),
    "safety_car": st.sampled_from(["capped", "literal"]),
})


def playout(game: BRCGrandPrix, seed: int) -> list[BRCState]:
    return random_states(game.start(seed=seed), random.Random(seed))  # type: ignore[return-value]


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 6), opts=options, sprint=st.booleans(), seed=st.integers(0, 10**6))
def test_random_races_end_with_every_seat_ranked_and_the_rules_kept(
    players: int, opts: dict[str, object], sprint: bool, seed: int
) -> None:
    game = BRCGrandPrix(players=players, sprint=sprint, dynamic_weather=not sprint and seed % 2 == 0,
                        **opts)
    states = playout(game, seed)
    final = states[-1]
    assert final.result is not None and sorted(final.result.order) == list(range(players))
    assert final.result.order[: len(final.finishing_order)] == final.finishing_order
    if game.race_to_end:
        assert len(final.finishing_order) == players
    else:
        assert len(final.finishing_order) == 1
    for s in states:
        assert not s.invariant_problems()
        if s.actor == CHANCE:
            assert math.isclose(sum(p for _, p in s.chance_outcomes()), 1.0)
    for seat in final.finishing_order:
        assert final.distance[seat] >= game.finish_distance
    assert replay(parse(dumps(final))).view(None) == final.view(None)


@given(roll=st.integers(1, 6), tyre=st.integers(0, 2), weather=st.integers(0, 1))
def test_movement_is_never_negative_and_only_soft_on_dry_locks_up(roll: int, tyre: int, weather: int) -> None:
    move, lock = standard_move(roll, tyre, weather)
    assert move >= 0
    assert lock == (roll == 1 and tyre == 0 and weather == 0)
    if lock:
        assert move == 3


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_cars_only_move_forward_except_by_a_rule_that_says_so(seed: int) -> None:
    """A car's main-track distance goes down only by Securing the Spot, a card's move-N or let-by."""
    states = playout(BRCGrandPrix(players=4, laps=3), seed)
    for before, after in itertools.pairwise(states):
        if not before.grid:
            continue
        allowed = {e.kind for e in after.events} & {"pass", "card-effect"}
        for seat in range(4):
            moved_back = after.distance[seat] < before.distance[seat]
            if before.pit_space[seat] < 0 and after.pit_space[seat] < 0 and moved_back:
                assert allowed, (seat, before.distance, after.distance, [e.text for e in after.events])
