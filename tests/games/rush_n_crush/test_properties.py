"""Properties over random races and over the tables (Hypothesis)."""

from __future__ import annotations

import itertools
import math
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import slipstream
from slipstream.games.rush_n_crush import rules
from slipstream.games.rush_n_crush.content import HIGHEST, LOWEST
from slipstream.games.rush_n_crush.course import load_track
from slipstream.games.rush_n_crush.state import RushState
from slipstream.games.rush_n_crush.types import Stage
from tests.playout import random_states

OPTIONS = st.fixed_dictionaries({
    "players": st.integers(2, 6),
    "course": st.sampled_from(["sprint", "ring", "oval", "grand-prix"]),
    "rush_attacks": st.sampled_from(list(rules.RUSH_ATTACKS)),
    "gear_lines": st.sampled_from(["full", "upshift-at-high-revs"]),
})


def playout(options: dict[str, Any], seed: int) -> list[RushState]:
    opts = dict(options)
    players = opts.pop("players")
    state = slipstream.load("rush-n-crush", players=players, **opts).start(seed=seed)
    return random_states(state, random.Random(seed))  # type: ignore[return-value]


@settings(max_examples=15, deadline=None)
@given(OPTIONS, st.integers(0, 10_000))
def test_random_races_keep_the_rules(options: dict[str, Any], seed: int) -> None:
    """Every race ends with every seat ranked; cars only move forward; Steering, Brake, Turbo and
    Structure only go down and heat only up except by the Fire Extinguisher ("nothing refreshed");
    a car never returns to the zero spot; destroyed cars never move again."""
    states = playout(options, seed)
    final = states[-1]
    assert final.result is not None and sorted(final.result.order) == list(range(final.game.players))
    for before, after in itertools.pairwise(states):
        for c in range(after.game.players):
            assert after.steering[c] <= before.steering[c] and after.brake[c] <= before.brake[c]
            assert after.turbo[c] <= before.turbo[c] and after.structure[c] <= before.structure[c]
            if after.heat[c] < before.heat[c]:
                assert after.heat[c] == before.heat[c] - 1 and any(e.kind == "extinguisher" for e in after.events)
            if before.node[c]:
                assert after.node[c]
            shoved = any(e.kind == "displaced" for e in after.events)
            if before.square[c] >= 0 and not before.destroyed[c] and not shoved:
                assert rules.progress(after, c) >= rules.progress(before, c)
            if before.destroyed[c]:
                assert after.square[c] == before.square[c]


@settings(max_examples=15, deadline=None)
@given(OPTIONS, st.integers(0, 10_000))
def test_a_turn_moves_the_full_speed(options: dict[str, Any], seed: int) -> None:
    """Movement: "You must move your full speed": a turn's movement only ends early by a Rush 'n' Crush,
    a boxed-in obstruction stop, destruction or the finish."""
    states = playout(options, seed)
    for before, after in itertools.pairwise(states):
        if before.stage is Stage.MOVE and after.stage is Stage.GEAR and (
                after.order[after.turn] != before.order[before.turn]):
            car = before.order[before.turn]
            kinds = {e.kind for e in after.events}
            assert before.movement <= 1 or after.destroyed[car] or kinds & {"rush-n-crush", "stopped"}


@given(st.integers(1, 6), st.sampled_from([HIGHEST, LOWEST]))
def test_kept_die_tables_match_enumeration(dice: int, rule: int) -> None:
    """Movement: "Your white dice roll is the number of lane changes you have available this turn. Speed
    5- unlimited; speed 6-10, highest single die; speed 11-16, lowest single die" (RC-G2, GAPS 4.2 and
    4.3). Content 2.2: "one chance node per roll whose outcome is the resulting value": the chance table
    of the highest or lowest of 1-6 white dice matches counting every roll of those dice."""
    counts = [0] * 7
    for roll in itertools.product(range(1, 7), repeat=dice):
        counts[max(roll) if rule == HIGHEST else min(roll)] += 1
    table = dict(rules.kept_die_table("steer", rule, dice).outcomes)
    for v in range(1, 7):
        assert math.isclose(table.get(f"steer:{v}", 0.0), counts[v] / 6 ** dice)


@given(st.sampled_from(["sprint", "ring", "oval", "grand-prix"]))
def test_ahead_and_behind_are_inverse(course: str) -> None:
    """Content 4.2: "directly forward/backward (i.e. within your lane, even if it's curving)" is repeated
    ahead/behind: the two are inverse along a lane."""
    track = load_track(course)
    for sq in range(track.squares):
        ahead = track.ahead[sq]
        if ahead >= 0:
            assert track.behind[ahead] == sq


def test_no_route_through_a_curve_beats_the_inner_lane() -> None:
    """Content 4.2 guarantee (4): with free lane changes a left curve takes at least 6 steps from the first
    square of lanes 0-2 and 7 from lane 3 (6/7/9/10 within one lane): cutting in pays, zig-zagging
    gains nothing."""
    track = load_track("ring")
    for lane, least in enumerate((6, 6, 6, 7)):
        frontier = {track.tile_squares[0][lane][0]}
        steps = 0
        while all(track.tile[sq] == 0 for sq in frontier):
            frontier = {n for sq in frontier for n in (track.ahead[sq], track.ahead_left[sq], track.ahead_right[sq])
                        if n >= 0}
            steps += 1
        assert steps == least
