"""Properties over random games (Hypothesis): components conserved, every legal action applies, the
team wins or loses together, and the success-chance helper agrees with the dice tables."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import slipstream
from slipstream.games.highway_heist import rules
from slipstream.games.highway_heist.state import HeistState
from slipstream.games.highway_heist.types import Stage
from tests.playout import random_states

OPTIONS = st.fixed_dictionaries({
    "players": st.integers(2, 4),
    "scenario": st.sampled_from(["tank-assault", "semi-heist", "chopper-takedown"]),
    "difficulty": st.sampled_from(["easy", "standard", "hard", "beast"]),
    "characters": st.permutations(["dom", "brian", "letty", "roman", "tej", "han"]),
    "vehicles": st.permutations(["exotic-supercar", "street-drifter", "american-muscle", "import-racer"]),
})


def playout(options: dict[str, Any], seed: int) -> list[HeistState]:
    opts = dict(options)
    players = opts.pop("players")
    opts["characters"] = ",".join(opts["characters"][:players])
    opts["vehicles"] = ",".join(opts["vehicles"][:players])
    state = slipstream.load("highway-heist", players=players, **opts).start(seed=seed)
    assert isinstance(state, HeistState)
    return random_states(state, random.Random(seed))  # type: ignore[return-value]


@settings(max_examples=25, deadline=None)
@given(OPTIONS, st.integers(0, 10_000))
def test_random_games_keep_every_invariant_and_end_as_a_team(options: dict[str, Any], seed: int) -> None:
    states = playout(options, seed)
    for state in states:
        assert state.invariant_problems() == []
        if state.actor is not None and not state.is_chance:
            assert state.stage in (Stage.CHOOSE_TURN, Stage.ACTION, Stage.ASSIST, Stage.BOOST, Stage.CHOICE,
                                   Stage.POWER)
    final = states[-1]
    result = final.result
    assert result is not None and result.team
    assert result.winners in ((), tuple(range(final.g.players)))
    assert (result.winners != ()) == (final.outcome == "win")
    json.dumps(final.view(None))


@settings(max_examples=10, deadline=None)
@given(OPTIONS, st.integers(0, 10_000))
def test_every_legal_action_applies_and_leaves_the_state_alone(options: dict[str, Any], seed: int) -> None:
    for state in playout(options, seed)[::17]:
        before = json.dumps(state.view(None), sort_keys=True)
        for action in state.legal_actions():
            after = state.apply(action)
            assert after.invariant_problems() == []
        assert json.dumps(state.view(None), sort_keys=True) == before


@given(st.integers(0, 5), st.integers(0, 6), st.booleans(), st.integers(0, 1))
def test_success_chance_agrees_with_the_dice_table(dice: int, need: int, boost: bool, bonus: int) -> None:
    game = slipstream.load("highway-heist", players=2)
    table = game.effort_tables[dice]  # type: ignore[attr-defined]
    exact = 0.0
    for action, p in table.outcomes:
        s, rest = action.split(":")[1].split("s")
        b = rest.split("b")[0]
        if int(s) + (int(b) if boost else 0) + bonus >= need:
            exact += p
    assert abs(rules.success_chance((3, 1, 2), dice, need, boost, bonus) - exact) < 1e-9
