"""Race health: whether a race is a good race, the numbers a designer reads first.

- **Start position and turn order.** For each way the game groups the start (``GameHooks.start_positions``:
  grid slot, grid row, start order, ...) and for the turn order, the share of races each position won
  (Wilson 95% interval) against its fair share, and Pearson's chi-square test of "every position wins
  its fair share". A position's fair share of a race's wins is its seats over the race's seats, so a row
  of two cars in a four-car race has a fair share of one half. The test's sentence names the position
  furthest above its share (the largest Pearson residual ``(observed - expected) / sqrt(expected)``).
  A grouping that splits the seats exactly as the turn order does in every race is the same test: it is
  shown once, naming both.
- **The race itself.** Lead changes a race, comebacks (the winner was not leading halfway through the
  race's decisions), the winning margin (the game's ``winning_margin`` metric, in its own unit), and the
  choices a seat makes a race (decisions with more than one legal action).
- **Skill share** (``skill_share``): the races of a skill run, where one stronger bot meets weaker ones
  and every seed is played once with the stronger bot in each seat. Its win rate against its fair share
  ``1/players``, and the skill share ``(win rate - fair) / (1 - fair)``: 0 when play counts for nothing
  (the dice decide), 1 when the stronger bot always wins.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from .stats import describe, natural, turn_position, wilson

SIGNIFICANT = 0.05
"""The test's level: below it, "unbalanced"."""
FEW_EXPECTED = 5.0
"""Pearson's test is rough when a position expects fewer wins than this (Cochran's rule)."""
TURN_ORDER = "turn order"


def chi_square_sf(statistic: float, df: int) -> float:
    """The chance that a chi-square variable with ``df`` degrees of freedom is at least ``statistic``."""
    from scipy.stats import chi2  # type: ignore[import-untyped]

    return float(chi2.sf(statistic, df))


def fair_share_test(observed: Sequence[float], expected: Sequence[float]) -> dict[str, Any]:
    """Pearson's chi-square test of ``observed`` counts against ``expected`` ones (the same total):
    ``{"chi2", "df", "p", "rough"}``; ``p`` is NaN with fewer than two groups that expect anything."""
    pairs = [(o, e) for o, e in zip(observed, expected, strict=True) if e > 0]
    if len(pairs) < 2:
        return {"chi2": math.nan, "df": 0, "p": math.nan, "rough": True}
    statistic = sum((o - e) ** 2 / e for o, e in pairs)
    df = len(pairs) - 1
    return {"chi2": statistic, "df": df, "p": chi_square_sf(statistic, df),
            "rough": any(e < FEW_EXPECTED for _, e in pairs)}


Key = Callable[[dict[str, Any], int], "str | None"]
"""A seat's position in a race (``None``: the race does not say)."""


def position_groups(races: Sequence[dict[str, Any]], key: Key) -> list[dict[str, Any]]:
    """Each position's wins against its fair share: ``races`` (races it held a seat in), ``wins`` (winners
    it held), ``expected`` (its seats over the race's seats, times the race's winners, summed), ``win``
    (the share of its races it won, Wilson 95%) and ``fair`` (its fair share of a race)."""
    races_in: dict[str, int] = defaultdict(int)
    won: dict[str, int] = defaultdict(int)
    winners_in: dict[str, float] = defaultdict(float)
    expected: dict[str, float] = defaultdict(float)
    for race in races:
        winners = set(race["result"]["winners"])
        seats = len(race["bots"])
        held: dict[str, int] = defaultdict(int)
        for seat in range(seats):
            k = key(race, seat)
            if k is not None:
                held[k] += 1
        if not held:
            continue
        for k, count in held.items():
            races_in[k] += 1
            expected[k] += count * len(winners) / seats
            mine = sum(1 for seat in winners if key(race, seat) == k)
            winners_in[k] += mine
            won[k] += mine > 0
    return [{"key": k, "races": races_in[k], "wins": winners_in[k], "expected": expected[k],
             "win": list(wilson(won[k], races_in[k])), "fair": expected[k] / races_in[k]}
            for k in sorted(races_in, key=natural)]


def p_text(p: float) -> str:
    """``"p < 0.001"``, ``"p = 0.004"``, ``"p = 0.42"``."""
    if p < 0.001:
        return "p < 0.001"
    return f"p = {p:.3f}" if p < 0.01 else f"p = {p:.2f}"


def sentence(groups: Sequence[dict[str, Any]], test: dict[str, Any], races: int) -> str:
    """The test in one sentence: the position furthest above its fair share, and the verdict."""
    if math.isnan(test["p"]):
        return "one position only: nothing to compare"
    top = max(groups, key=lambda g: (g["wins"] - g["expected"]) / math.sqrt(g["expected"])
              if g["expected"] > 0 else -math.inf)
    verdict = ("unbalanced" if test["p"] < SIGNIFICANT
               else f"no imbalance {races} races can show")
    rough = " (few races: the test is rough)" if test["rough"] else ""
    return (f"{top['key']} wins {100 * top['win'][0]:.0f}% against a fair {100 * top['fair']:.0f}%: "
            f"{verdict}, {p_text(test['p'])}{rough}")


def start_position(kind: str) -> Key:
    """A seat's position of the start grouping ``kind`` (``"grid row 1"``)."""
    def key(race: dict[str, Any], seat: int) -> str | None:
        numbers = race.get("start", {}).get(kind)
        return f"{kind} {numbers[seat]}" if numbers else None
    return key


def start_kinds(races: Sequence[dict[str, Any]]) -> list[str]:
    """The start groupings the races have, in the order the first race that has them lists them."""
    kinds: list[str] = []
    for race in races:
        for kind in race.get("start", {}):
            if kind not in kinds:
                kinds.append(kind)
    return kinds


def same_split(races: Sequence[dict[str, Any]], first: Key, second: Key) -> bool:
    """Whether two groupings put the seats in matching positions in every race (one position of the first
    is always the same position of the second, and the other way round)."""
    pairs = {(first(race, seat), second(race, seat)) for race in races for seat in range(len(race["bots"]))}
    if any(a is None or b is None for a, b in pairs):
        return False
    return len({a for a, _ in pairs}) == len(pairs) == len({b for _, b in pairs})


def position_tests(races: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One test for each start grouping and for the turn order (a grouping that splits the seats as the
    turn order does is one test, ``also`` naming the turn order): ``{"kind", "also", "groups", "test",
    "sentence"}``."""
    tests = []
    turn_order_shown = not any(race.get("turn_order") for race in races)
    for kind in [*start_kinds(races), TURN_ORDER]:
        if kind == TURN_ORDER and turn_order_shown:
            continue
        key = turn_position if kind == TURN_ORDER else start_position(kind)
        also = []
        if kind != TURN_ORDER and not turn_order_shown and same_split(races, key, turn_position):
            also.append(TURN_ORDER)
            turn_order_shown = True
        groups = position_groups(races, key)
        test = fair_share_test([g["wins"] for g in groups], [g["expected"] for g in groups])
        tests.append({"kind": kind, "also": also, "groups": groups, "test": test,
                      "sentence": sentence(groups, test, len(races))})
    return tests


def race_health(races: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Race health of a run's races (JSON-able; see the module docstring)."""
    lead = [float(r["lead_changes"]) for r in races if r.get("lead_changes") is not None]
    halves = [r for r in races if r.get("half_leader") is not None]
    comebacks = sum(1 for r in halves if r["half_leader"] not in r["result"]["winners"])
    margins = [float(r["metrics"]["winning_margin"]) for r in races if "winning_margin" in r["metrics"]]
    choices = [float(c) for r in races for c in r.get("choices", ())]
    return {
        "races": len(races),
        "same_bots": all(len(set(r["bots"])) == 1 for r in races),
        "positions": position_tests(races),
        "lead_changes": describe(lead) if lead else None,
        "comebacks": {"win": list(wilson(comebacks, len(halves))), "races": len(halves)} if halves else None,
        "margin": describe(margins) if margins else None,
        "choices": describe(choices) if choices else None,
    }


def skill_share(races: Sequence[dict[str, Any]], strong: str) -> dict[str, Any] | None:
    """The skill share of a skill run's races (the ``strong`` bot in one seat of each): its win rate
    (Wilson 95%), its fair share, and ``share``: ``(win rate - fair) / (1 - fair)`` with the interval's
    ends mapped the same way; ``None`` without such races."""
    mine = [r for r in races if list(r["bots"]).count(strong) == 1]
    if not mine:
        return None
    wins = sum(1 for r in mine if r["bots"].index(strong) in r["result"]["winners"])
    fair = sum(1 / len(r["bots"]) for r in mine) / len(mine)
    rate = wilson(wins, len(mine))
    weaker = sorted({b for r in mine for b in r["bots"] if b != strong})
    return {"strong": strong, "weaker": weaker, "races": len(mine), "win": list(rate), "fair": fair,
            "share": [(x - fair) / (1 - fair) for x in rate]}


def skill_sentence(skill: dict[str, Any]) -> str:
    """``"heuristic wins 98% of its races against random (fair 25%): skill share 97% (96-99%)"``."""
    p, lo, hi = skill["win"]
    share = skill["share"]
    return (f"{skill['strong']} wins {100 * p:.0f}% ({100 * lo:.0f}–{100 * hi:.0f}%) of {skill['races']} "
            f"races against {', '.join(skill['weaker'])} (fair {100 * skill['fair']:.0f}%): skill share "
            f"{100 * share[0]:.0f}% ({100 * share[1]:.0f}–{100 * share[2]:.0f}%)")
