"""``metrics.position_value``: the estimated win chance a search bot scores positions with."""

from __future__ import annotations

import pytest

from slipstream.engine.estimate import win_chances
from slipstream.engine.game import State
from slipstream.games.brc_grand_prix.metrics import position_value
from tests.games.brier import brier_scores

from .helpers import L, copy, poised, started


def values(state: State) -> list[float]:
    return [position_value(state, seat) for seat in range(state.game.players)]


def test_the_chances_sum_to_one_and_favour_the_leader() -> None:
    s = poised(started(4), 0, dist=[40, 38, 36, 34])
    v = values(s)
    assert sum(v) == pytest.approx(1.0)
    assert v == sorted(v, reverse=True) and v[0] > 0.25


def test_a_lead_counts_for_more_near_the_end() -> None:
    early = position_value(poised(started(2), 0, dist=[20, 12], stops=[1, 1]), 0)
    late = position_value(poised(started(2), 0, dist=[7 * L + 20, 7 * L + 12], stops=[1, 1]), 0)
    assert 0.5 < early < late < 1.0


def test_missed_turns_an_owed_pit_stop_and_wrong_tyres_cost() -> None:
    """Two cars side by side on lap 3: the one that must still miss turns, owes the mandatory stop
    (the other has made it) or runs dry tyres on a wet track is the underdog."""
    base = started(2)
    even = position_value(poised(base, 0, dist=[2 * L + 10, 2 * L + 9], stops=[1, 1]), 0)
    missing = position_value(poised(base, 0, dist=[2 * L + 10, 2 * L + 9], stops=[1, 1], miss=[2, 0]), 0)
    owing = position_value(poised(base, 0, dist=[2 * L + 10, 2 * L + 9], stops=[0, 1]), 0)
    wrong = position_value(poised(base, 0, dist=[2 * L + 10, 2 * L + 9], stops=[1, 1], weather="WET",
                                  tyres=["soft", "wet"]), 0)
    assert even > 0.5
    assert missing < 0.5 and owing < 0.5 and wrong < 0.5


def test_the_first_finisher_has_won() -> None:
    s = copy(poised(started(3), 0, dist=[8 * L, 8 * L - 3, 8 * L - 5]))
    s.finishing_order = (1,)
    assert values(s) == [0.0, 1.0, 0.0]


def test_win_chances_compare_the_turns_each_seat_needs() -> None:
    assert win_chances([3.0, 3.0, 3.0], 1.0) == pytest.approx([1 / 3] * 3)
    assert win_chances([2.0, 4.0], 1.0)[0] > 0.9


@pytest.mark.parametrize("players", [2, 4])
def test_predicts_heuristic_races_better_than_a_fair_share(players: int) -> None:
    """Positions sampled from 30 races between heuristic bots: the Brier score of ``position_value``
    against who won is well below that of the fair share 1/players (measured about 0.11 against 0.19
    in 4-player races)."""
    ours, fair = brier_scores("brc-grand-prix", players, races=30, sample_rate=0.2, value=position_value)
    assert ours < 0.8 * fair
