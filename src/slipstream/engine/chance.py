"""Seeded chance without a global RNG.

A state samples its chance outcome from ``(seed, ply)`` alone, so a match is a pure function of its
seed and of the actions the players chose, and any copy of a state samples the same outcome.
"""

from __future__ import annotations

from collections.abc import Sequence

_MASK = (1 << 64) - 1


def mix64(seed: int, ply: int) -> int:
    """A splitmix64-style hash of ``(seed, ply)``: a well-spread 64-bit integer."""
    z = (seed * 0x9E3779B97F4A7C15 + ply * 0xBF58476D1CE4E5B9 + 0x94D049BB133111EB) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def uniform(seed: int, ply: int) -> float:
    """A float in [0, 1) fixed by ``(seed, ply)``."""
    return (mix64(seed, ply) >> 11) * (1.0 / (1 << 53))


def pick(outcomes: Sequence[tuple[str, float]], u: float) -> str:
    """The outcome whose cumulative probability interval holds ``u`` in [0, 1)."""
    acc = 0.0
    for action, p in outcomes:
        acc += p
        if u < acc:
            return action
    return outcomes[-1][0]


def weighted(counts: Sequence[tuple[str, int]]) -> list[tuple[str, float]]:
    """Chance outcomes from ``(action, count)`` pairs, sorted by action, zero counts dropped."""
    total = sum(c for _, c in counts)
    return sorted((a, c / total) for a, c in counts if c > 0)


DIE_OUTCOMES: tuple[tuple[str, float], ...] = tuple((f"die:{n}", 1 / 6) for n in range(1, 7))
"""The outcomes of one fair six-sided die."""
