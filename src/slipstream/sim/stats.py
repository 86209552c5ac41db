"""Statistics of a run, each with a 95% confidence interval.

- Win rates use the Wilson score interval (good near 0 and 1 and for small samples).
- Means (finishing position, race length, lead changes, per-game metrics) use the normal approximation
  ``mean ± 1.96·s/√n`` (fine for the hundreds of races a run has; with under 30 races treat it as rough),
  kept within the values seen: a count's interval never goes below 0.
- The first-player advantage is the first seat's win rate minus the fair share ``1/players``, with the
  Wilson interval shifted by the same amount.
- Win rate by turn order: the seat that took the first turn of its own, the second, ... (where the start
  player is drawn, seat 0 is not the first to play, so this is the first-player advantage that counts).
- A cooperative game (every race's result marked ``team``: every seat wins or none does) gets ``team``:
  the team's win rate, by team (the seats' labels together, e.g. characters and vehicles), by team
  member, and by each game option that differs between the races (a sweep's scenario, difficulty, ...).
"""

from __future__ import annotations

import math
import re
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .words import seat_words

Z95 = 1.959963984540054


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float, float]:
    """``(rate, low, high)`` of ``wins`` out of ``n`` with the Wilson score interval."""
    if n <= 0:
        return (math.nan, math.nan, math.nan)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (p, max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """``(mean, low, high)``: the normal-approximation interval of the mean, kept within the smallest and
    largest value seen (a mean of counts, mostly 0, never gets a negative bound)."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    m = statistics.fmean(values)
    if n == 1:
        return (m, m, m)
    half = z * statistics.stdev(values) / math.sqrt(n)
    return (m, max(m - half, min(values)), min(m + half, max(values)))


def describe(values: Sequence[float]) -> dict[str, float]:
    """Mean with its interval, median, spread and range of a list of numbers."""
    m, lo, hi = mean_ci(values)
    if not values:
        return {"mean": m, "lo": lo, "hi": hi, "median": math.nan, "sd": math.nan, "min": math.nan,
                "max": math.nan, "n": 0}
    return {"mean": m, "lo": lo, "hi": hi, "median": float(statistics.median(values)),
            "sd": statistics.stdev(values) if len(values) > 1 else 0.0,
            "min": float(min(values)), "max": float(max(values)), "n": len(values)}


def _groups(races: Iterable[dict[str, Any]], key: Callable[[dict[str, Any], int], str | None]
            ) -> list[dict[str, Any]]:
    wins: dict[str, float] = defaultdict(float)
    ranks: dict[str, list[float]] = defaultdict(list)
    for race in races:
        winners = set(race["result"]["winners"])
        for seat in range(len(race["bots"])):
            k = key(race, seat)
            if k is None:
                continue
            wins[k] += seat in winners
            ranks[k].append(float(race["ranks"][seat]))
    out = []
    for k in sorted(ranks, key=natural):
        n = len(ranks[k])
        out.append({"key": k, "n": n, "win": list(wilson(wins[k], n)), "position": list(mean_ci(ranks[k]))})
    return out


def _race_groups(races: Iterable[dict[str, Any]], key: Callable[[dict[str, Any]], str],
                 in_order: bool = False) -> list[dict[str, Any]]:
    """Races (not seat-races) grouped by ``key``: each group's team win rate and mean rounds; the groups
    sorted by key, or with ``in_order`` as they first come (a sweep's values as given)."""
    wins: dict[str, int] = defaultdict(int)
    rounds: dict[str, list[float]] = defaultdict(list)
    for race in races:
        k = key(race)
        wins[k] += bool(race["result"]["winners"])
        rounds[k].append(float(race["metrics"].get("rounds", math.nan)))
    return [{"key": k, "n": len(rounds[k]), "win": list(wilson(wins[k], len(rounds[k]))),
             "rounds": list(mean_ci([r for r in rounds[k] if not math.isnan(r)]))}
            for k in (list(rounds) if in_order else sorted(rounds, key=natural))]


def is_team_run(races: Sequence[dict[str, Any]]) -> bool:
    """Whether every race has a cooperative result (the seats win or lose together)."""
    return bool(races) and all(race["result"].get("team") for race in races)


def team_of(race: dict[str, Any]) -> str:
    """The team of a race: its seats' labels in seat order (``dom/exotic-supercar + brian/...``)."""
    labels = race.get("labels", {})
    return " + ".join(str(labels.get(str(seat), seat_words(seat))) for seat in range(len(race["bots"])))


def varying_options(races: Sequence[dict[str, Any]]) -> list[str]:
    """The game options that differ between the races, in the order the first race lists them."""
    names = list(races[0]["options"]) if races else []
    return [n for n in names if len({str(r["options"].get(n)) for r in races}) > 1]


def _option_key(*names: str) -> Callable[[dict[str, Any]], str]:
    """A race's values of the options ``names``, joined by ``|``."""
    def key(race: dict[str, Any]) -> str:
        return "|".join(str(race["options"].get(name)) for name in names)
    return key


def team_summary(races: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """A cooperative run's numbers: the team's win rate (Wilson 95%), by team, by team member (each
    label: the races whose team had it), by each option that varies and by each pair of those."""
    wins = sum(bool(r["result"]["winners"]) for r in races)
    options = varying_options(races)
    return {
        "win": list(wilson(wins, len(races))),
        "races": len(races),
        "by_team": _race_groups(races, team_of),
        "by_member": _groups(races, lambda r, s: r["labels"].get(str(s))),
        "options": options,
        "by_option": {name: _race_groups(races, _option_key(name), in_order=True) for name in options},
        "by_pair": {f"{a}|{b}": [{**g, "key": g["key"].split("|", 1)}
                                 for g in _race_groups(races, _option_key(a, b), in_order=True)]
                    for i, a in enumerate(options) for b in options[i + 1:]},
    }


def reason_kind(race: dict[str, Any]) -> str:
    """How a race ended, without who: seat names (``P3``) and racer names become ``a racer``, so the
    races group by the way they ended."""
    text = str(race["result"]["reason"])
    for label in sorted(set(race.get("labels", {}).values()), key=len, reverse=True):
        if label:
            text = text.replace(label, "a racer")
    text = re.sub(r"\bP\d+\b", "a racer", text)
    return re.sub(r"a racer \(a racer\)", "a racer", text)


ORDINALS = ("1st", "2nd", "3rd")


def turn_position(race: dict[str, Any], seat: int) -> str | None:
    """``"2nd to play"`` for the seat that took the second turn of its own in the race."""
    order = race.get("turn_order")
    if not order or seat not in order:
        return None
    k = order.index(seat) + 1
    return f"{ORDINALS[k - 1] if k <= 3 else f'{k}th'} to play"


def natural(text: str) -> tuple[Any, ...]:
    """A sort key that orders the numbers in a text by value ("slot 2" before "slot 10")."""
    return tuple(int(part) if i % 2 else part for i, part in enumerate(re.split(r"(\d+)", text)))


def summarize(races: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Every statistic of a run (JSON-able): see the module docstring and ``docs/simulate.md``; ``health``
    is the race health (``slipstream.sim.health``)."""
    from .health import race_health

    if not races:
        return {"races": 0}
    players = len(races[0]["bots"])
    metric_names: list[str] = []
    for race in races:
        for name in race["metrics"]:
            if name not in metric_names:
                metric_names.append(name)
    lead = [float(r["lead_changes"]) for r in races if r.get("lead_changes") is not None]
    first_wins = sum(0 in r["result"]["winners"] for r in races)
    p, lo, hi = wilson(first_wins, len(races))
    fair = 1 / players
    return {
        "races": len(races),
        "game": races[0]["game"],
        "players": players,
        "options": races[0]["options"],
        "by_seat": _groups(races, lambda r, s: seat_words(s)),
        "by_bot": _groups(races, lambda r, s: str(r["bots"][s])),
        "by_label": _groups(races, lambda r, s: r["labels"].get(str(s))),
        "length": {name: describe([float(r["metrics"][name]) for r in races if name in r["metrics"]])
                   for name in ("turns", "rounds")},
        "lead_changes": describe(lead) if lead else None,
        "first_player": {"win": [p, lo, hi], "fair": fair, "advantage": [p - fair, lo - fair, hi - fair],
                         "same_bots": all(len(set(r["bots"])) == 1 for r in races)},
        "by_turn_order": _groups(races, turn_position),
        "health": None if is_team_run(races) else race_health(races),
        "metrics": {name: describe([float(r["metrics"][name]) for r in races if name in r["metrics"]])
                    for name in metric_names if name not in ("turns", "rounds")},
        "reasons": dict(Counter(reason_kind(r) for r in races).most_common()),
        "team": team_summary(races) if is_team_run(races) else None,
    }


FIRST_TO_PLAY = "first_to_play_over_fair_share"
"""The sweep's number for the first to play: whether it won (1 or 0) less its fair share ``1/players``, so
points with other player counts compare against their own fair shares."""


def race_numbers(race: dict[str, Any]) -> dict[str, float]:
    """The numbers of one race a sweep compares: length, lead changes, every metric, whether the first to
    play won over its fair share (``FIRST_TO_PLAY``; not in a cooperative race, where every seat wins or
    none does)."""
    out = {k: float(v) for k, v in race["metrics"].items()}
    if race.get("lead_changes") is not None:
        out["lead_changes"] = float(race["lead_changes"])
    order = race.get("turn_order")
    if order and not race["result"].get("team"):
        out[FIRST_TO_PLAY] = float(order[0] in race["result"]["winners"]) - 1 / len(race["bots"])
    return {k: v for k, v in out.items() if not math.isnan(v)}


SHARES = frozenset({FIRST_TO_PLAY})
"""The sweep's numbers that are shares of races: their changes are told in points, not in % of the
baseline (a share near 0 would make any change look huge)."""


def relative_change(name: str, d: dict[str, float]) -> float | None:
    """A paired difference in % of the baseline's mean (``None`` for a share, or a baseline of 0)."""
    if name in SHARES or not d["base"]:
        return None
    return 100 * d["mean"] / abs(d["base"])


def fmt_difference(name: str, d: dict[str, float], between: str = " to ") -> tuple[str, str, str]:
    """A paired difference as text: the baseline's mean, the difference with its interval, the change
    (``"+4%"``; a share's in points: ``"-2.0 pt"``, ``"-8.3 (-25.0 to +8.3) pt"``, ``"-"``)."""
    if name in SHARES:
        return (f"{100 * d['base']:+.1f} pt", f"{100 * d['mean']:+.1f} ({100 * d['lo']:+.1f}{between}"
                f"{100 * d['hi']:+.1f}) pt", "-")
    change = relative_change(name, d)
    return (f"{d['base']:.2f}", f"{d['mean']:+.2f} ({d['lo']:+.2f}{between}{d['hi']:+.2f})",
            "-" if change is None else f"{change:+.0f}%")


def paired_differences(base: Sequence[dict[str, Any]], other: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Each number of ``other`` minus ``base``, race by race (the races of a sweep's points share their
    seeds, so pairing removes most of the luck): ``{name: {"mean", "lo", "hi", "n", "base"}}``, the mean
    difference with its 95% interval, and the baseline's mean (for a relative change)."""
    by_index = {r["index"]: race_numbers(r) for r in base}
    diffs: dict[str, list[float]] = defaultdict(list)
    base_values: dict[str, list[float]] = defaultdict(list)
    for race in other:
        mine = by_index.get(race["index"])
        if mine is None:
            continue
        theirs = race_numbers(race)
        for name, value in theirs.items():
            if name in mine:
                diffs[name].append(value - mine[name])
                base_values[name].append(mine[name])
    out = {}
    for name, values in diffs.items():
        m, lo, hi = mean_ci(values)
        out[name] = {"mean": m, "lo": lo, "hi": hi, "n": len(values),
                     "base": statistics.fmean(base_values[name])}
    return out


def fmt_rate(triple: Sequence[float]) -> str:
    """``"41.2% (38.1–44.4)"``."""
    p, lo, hi = triple
    if math.isnan(p):
        return "-"
    return f"{100 * p:.1f}% ({100 * lo:.1f}–{100 * hi:.1f})"


def fmt_mean(triple: Sequence[float], digits: int = 2) -> str:
    """``"2.31 (2.27–2.35)"``."""
    m, lo, hi = triple
    if math.isnan(m):
        return "-"
    return f"{m:.{digits}f} ({lo:.{digits}f}–{hi:.{digits}f})"
