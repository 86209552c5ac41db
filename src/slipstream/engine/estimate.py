"""Estimates shared by the games' position values (``metrics.position_value``)."""

from __future__ import annotations

import math


def win_chances(need: list[float], spread: float) -> list[float]:
    """Each seat's chance of finishing first when seat ``i`` needs ``need[i]`` more turns, give or take
    ``spread``: the product of the chances of beating each other seat (normal), normalised to sum 1."""
    n = len(need)
    raw = []
    for i in range(n):
        p = 1.0
        for j in range(n):
            if j != i:
                p *= 0.5 * (1.0 + math.erf((need[j] - need[i]) / (spread * math.sqrt(2.0))))
        raw.append(p)
    total = sum(raw)
    return [p / total for p in raw] if total > 0 else [1.0 / n] * n
