"""Statistics with 95% intervals, checked against values worked out by hand."""

from __future__ import annotations

import math
import statistics
from typing import Any

import numpy as np
import pytest

from slipstream.sim.stats import describe, fmt_mean, fmt_rate, mean_ci, summarize, wilson
from slipstream.sim.tournament import bradley_terry, pair_matrix, ratings


def test_wilson_interval_matches_the_textbook_values() -> None:
    p, lo, hi = wilson(5, 10)
    assert p == 0.5 and lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 10)[1] == 0.0 and wilson(0, 10)[2] == pytest.approx(0.2775, abs=1e-4)
    assert wilson(10, 10)[1] == pytest.approx(0.7225, abs=1e-4) and wilson(10, 10)[2] == pytest.approx(1.0)
    assert all(math.isnan(x) for x in wilson(0, 0))


def test_a_rare_count_never_gets_a_negative_bound() -> None:
    """3 extinguishers in 300 races: the normal interval's low end (-0.001) is kept at 0, the least seen."""
    values = [1.0, 1.0, 1.0] + [0.0] * 297
    m, lo, hi = mean_ci(values)
    half = 1.959963984540054 * statistics.stdev(values) / math.sqrt(300)
    assert m - half < 0 and (m, lo, hi) == pytest.approx((0.01, 0.0, 0.01 + half))
    assert mean_ci([5.0, 5.0, 5.0]) == (5.0, 5.0, 5.0)


def test_mean_interval_is_normal_approximation() -> None:
    m, lo, hi = mean_ci([1.0, 2.0, 3.0, 4.0])
    half = 1.959963984540054 * math.sqrt(5 / 3) / 2
    assert (m, lo, hi) == pytest.approx((2.5, 2.5 - half, 2.5 + half))
    assert mean_ci([7.0]) == (7.0, 7.0, 7.0)
    assert describe([1.0, 3.0])["median"] == 2.0
    assert fmt_rate((0.5, 0.25, 0.75)) == "50.0% (25.0–75.0)" and fmt_mean((2.0, 1.5, 2.5)) == "2.00 (1.50–2.50)"


def race(index: int, order: list[int], bots: list[str], turns: float, crashes: float) -> dict[str, Any]:
    return {"index": index, "game": "g", "options": {}, "bots": bots, "labels": {"0": "red", "1": "blue"},
            "result": {"order": order, "winners": [order[0]], "reason": "finish"},
            "ranks": [order.index(s) + 1 for s in range(len(bots))],
            "metrics": {"turns": turns, "rounds": turns / 2, "crashes": crashes}, "lead_changes": 1}


def test_summary_by_seat_bot_and_racer_with_first_player_advantage() -> None:
    races = [race(0, [0, 1], ["a", "b"], 10, 1), race(1, [0, 1], ["b", "a"], 12, 3),
             race(2, [1, 0], ["a", "b"], 14, 2), race(3, [0, 1], ["b", "a"], 16, 0)]
    s = summarize(races)
    seats = {g["key"]: g for g in s["by_seat"]}
    assert seats["seat 0 (P1)"]["win"][0] == 0.75 and seats["seat 1 (P2)"]["position"][0] == 1.75
    bots = {g["key"]: g for g in s["by_bot"]}
    assert bots["a"]["n"] == 4 and bots["a"]["win"][0] == 0.25 and bots["b"]["win"][0] == 0.75
    labels = {g["key"]: g for g in s["by_label"]}
    assert labels["red"]["win"][0] == 0.75
    assert s["first_player"]["advantage"][0] == pytest.approx(0.25)
    assert s["length"]["turns"]["mean"] == 13 and s["length"]["rounds"]["mean"] == 6.5
    assert s["metrics"]["crashes"]["mean"] == 1.5 and "turns" not in s["metrics"]
    assert s["reasons"] == {"finish": 4}
    assert summarize([]) == {"races": 0}


def test_bradley_terry_recovers_a_three_to_one_edge() -> None:
    """Winning 3 of 4 is 400·log10(3) ≈ 191 Elo (the half-win prior shrinks it a hair)."""
    elo = bradley_terry(np.array([[0.0, 750.0], [250.0, 0.0]]))
    assert elo[0] - elo[1] == pytest.approx(400 * math.log10(750.5 / 250.5), abs=0.5)
    assert elo.mean() == pytest.approx(1500)


def test_ratings_from_races_rank_the_stronger_bot_first_with_intervals() -> None:
    races = [race(i, [0, 1] if i % 4 else [1, 0], ["x", "y"] if i % 2 else ["y", "x"], 10, 0)
             for i in range(200)]
    m = pair_matrix(races, ["x", "y"])
    assert m.shape == (200, 2, 2) and m.sum() == 200
    rated = ratings(races, ["x", "y"], seed=1, bootstrap=100)
    top, bottom = rated["ratings"]
    assert top["lo"] < top["elo"] < top["hi"] and bottom["lo"] < bottom["elo"] < bottom["hi"]
    assert rated == ratings(races, ["x", "y"], seed=1, bootstrap=100)
    assert rated["head_to_head"]["x"]["y"] == pytest.approx(1 - rated["head_to_head"]["y"]["x"])


def test_win_rate_by_turn_order_follows_who_played_first_not_the_seat() -> None:
    """Where the start player is drawn, seat 0 is not the first to play: group by the order of play."""
    from slipstream.sim.stats import summarize

    def race(order: list[int], winner: int) -> dict[str, object]:
        ranks = [1 if s == winner else 2 for s in range(2)]
        return {"index": 0, "game": "g", "options": {}, "bots": ["random", "random"], "labels": {},
                "result": {"winners": [winner], "order": [winner, 1 - winner], "reason": f"P{winner + 1} won"},
                "ranks": ranks, "metrics": {}, "lead_changes": None, "turn_order": order}

    races = [race([1, 0], 1), race([0, 1], 0), race([1, 0], 1), race([0, 1], 1)]
    s = summarize(races)
    by_turn = {g["key"]: g["win"][0] for g in s["by_turn_order"]}
    assert by_turn == {"1st to play": 0.75, "2nd to play": 0.25}
    assert {g["key"]: g["win"][0] for g in s["by_seat"]} == {"seat 0 (P1)": 0.25, "seat 1 (P2)": 0.75}
    assert s["reasons"] == {"a racer won": 4}, "races group by how they ended, not by who won"


def test_a_race_records_its_order_of_play(toy: str) -> None:
    import slipstream
    from slipstream.sim.race import play_race

    race = play_race(slipstream.load("toy-dash", players=3, length=20, sprint=True), 5, ["random"] * 3)
    assert race["turn_order"] == [0, 1, 2]


def test_sweep_points_are_compared_race_by_race() -> None:
    """Paired differences: the same race index in two points of a sweep shares its seed."""
    from slipstream.sim.stats import paired_differences

    def race(index: int, turns: float, fights: float) -> dict[str, object]:
        return {"index": index, "metrics": {"turns": turns, "rounds": turns / 2, "fights": fights},
                "lead_changes": None, "turn_order": [0, 1], "result": {"winners": [index % 2]}, "bots": ["a", "b"]}

    base = [race(i, 40 + 10 * i, 3) for i in range(6)]
    other = [race(i, 42 + 10 * i, 3) for i in range(6)]
    d = paired_differences(base, other)
    assert (d["turns"]["mean"], d["turns"]["lo"], d["turns"]["hi"]) == (2.0, 2.0, 2.0), \
        "the races' own spread cancels in the pairs"
    assert d["turns"]["base"] == 65.0 and d["rounds"]["mean"] == 1.0 and d["fights"]["mean"] == 0.0
    assert d["first_to_play_over_fair_share"]["n"] == 6


def test_a_players_sweep_compares_the_first_to_play_with_each_points_fair_share() -> None:
    """Two players, the first to play wins half the races; four players, a quarter: each its fair share, so
    no difference (comparing "won" alone would say the first to play lost 25 points)."""
    from slipstream.sim.stats import paired_differences

    def race(index: int, players: int, first_won: bool) -> dict[str, object]:
        order = list(range(players))
        return {"index": index, "metrics": {"turns": 10.0}, "lead_changes": None, "turn_order": order,
                "result": {"winners": [0 if first_won else 1]}, "bots": ["b"] * players}

    two = [race(i, 2, i % 2 == 0) for i in range(8)]
    four = [race(i, 4, i % 4 == 0) for i in range(8)]
    d = paired_differences(two, four)["first_to_play_over_fair_share"]
    assert d["mean"] == pytest.approx(0.0) and d["base"] == pytest.approx(0.0)


def test_a_bot_that_never_wins_is_below_the_others_without_a_number() -> None:
    """x beats y every time, z beats y every time, x and z split their meetings: y has no finite rating
    (the half-win prior used to give it one, with an interval as narrow as the races were many); x and z
    are rated between themselves."""
    races = [race(i, [0, 1], pair, 10, 0) for i, pair in enumerate([["x", "y"], ["z", "y"]] * 30)]
    races += [race(60 + i, [i % 2, 1 - i % 2], ["x", "z"], 10, 0) for i in range(40)]
    rated = ratings(races, ["x", "y", "z"], seed=1, bootstrap=60)
    rows = {r["bot"]: r for r in rated["ratings"]}
    assert [r["bot"] for r in rated["ratings"]][-1] == "y"
    assert rows["y"]["standing"] == "below the others" and rows["y"]["elo"] is None and rows["y"]["lo"] is None
    assert rows["x"]["standing"] == rows["z"]["standing"] == "rated"
    assert rows["x"]["elo"] == pytest.approx(1500) == rows["z"]["elo"]
    assert rows["x"]["lo"] < 1500 < rows["x"]["hi"]
    assert rows["y"]["pair_wins"] == 0 and rows["y"]["pairs"] == 60


def test_two_bots_of_which_one_always_wins_get_no_ratings() -> None:
    from slipstream.sim.tournament import elo_cells

    races = [race(i, [0, 1] if i % 2 else [1, 0], ["x", "y"] if i % 2 else ["y", "x"], 10, 0) for i in range(67)]
    rated = ratings(races, ["x", "y"], seed=1, bootstrap=20)
    assert [(r["bot"], r["standing"], r["elo"]) for r in rated["ratings"]] == [
        ("x", "above the others", None), ("y", "below the others", None)]
    assert elo_cells(rated["ratings"][1]) == ("below the others", "-")
