"""Seeded chance without a global RNG.

A state samples its chance outcome from ``(seed, ply)`` alone, so a match is a pure function of its
seed and of the actions the players chose, and any copy of a state samples the same outcome.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

_MASK = (1 << 64) - 1


def mix64(seed: int, ply: int) -> int:
    """A splitmix64-style hash of ``(seed, ply)``: a well-spread 64-bit integer."""
    z = (seed * 0x9E3779B97F4A7C15 + ply * 0xBF58476D1CE4E5B9 + 0x94D049BB133111EB) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


_UNIT = 1.0 / (1 << 53)


def uniform(seed: int, ply: int) -> float:
    """A float in [0, 1) fixed by ``(seed, ply)``: the top 53 bits of ``mix64(seed, ply)``.

    The hash is written out here rather than called: this runs once per chance node.
    """
    z = (seed * 0x9E3779B97F4A7C15 + ply * 0xBF58476D1CE4E5B9 + 0x94D049BB133111EB) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return ((z ^ (z >> 31)) >> 11) * _UNIT


def pick(outcomes: Sequence[tuple[str, float]], u: float) -> str:
    """The outcome whose cumulative probability interval holds ``u`` in [0, 1)."""
    acc = 0.0
    for action, p in outcomes:
        acc += p
        if u < acc:
            return action
    return outcomes[-1][0]


class ChanceTable:
    """Fixed chance outcomes (a die, two dice) with their running sums, for a fast ``pick``.

    ``table.pick(u)`` is exactly ``pick(table.outcomes, u)``: the running sums are added up in the
    same order, so they round the same way, and a binary search finds the first sum above ``u``.
    """

    __slots__ = ("actions", "cumulative", "last", "outcomes")

    def __init__(self, outcomes: Sequence[tuple[str, float]]) -> None:
        if not outcomes:
            raise ValueError("a chance table needs at least one outcome")
        self.outcomes: tuple[tuple[str, float], ...] = tuple(outcomes)
        self.actions: tuple[str, ...] = tuple(a for a, _ in outcomes)
        sums = []
        acc = 0.0
        for _, p in outcomes:
            acc += p
            sums.append(acc)
        self.cumulative: tuple[float, ...] = tuple(sums)
        self.last = len(sums) - 1

    def pick(self, u: float) -> str:
        """The outcome whose cumulative probability interval holds ``u`` in [0, 1)."""
        i = bisect_right(self.cumulative, u)
        return self.actions[i if i <= self.last else self.last]


def weighted(counts: Sequence[tuple[str, int]]) -> list[tuple[str, float]]:
    """Chance outcomes from ``(action, count)`` pairs, sorted by action, zero counts dropped."""
    total = sum(c for _, c in counts)
    return sorted((a, c / total) for a, c in counts if c > 0)


DIE_OUTCOMES: tuple[tuple[str, float], ...] = tuple((f"die:{n}", 1 / 6) for n in range(1, 7))
"""The outcomes of one fair six-sided die."""

DIE_TABLE = ChanceTable(DIE_OUTCOMES)
"""``DIE_OUTCOMES`` ready for ``State._chance_table``."""
