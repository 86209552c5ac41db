"""Tournaments: bots against each other in rotated seats, rated with Elo and bootstrap intervals.

Every race gives one pairwise result for each two seats held by different bots (the better place wins).
The ratings are the Bradley–Terry maximum-likelihood strengths of those results (fitted with Hunter's
MM algorithm, with half a win each way per pair that met so that an unbeaten bot gets a finite rating),
on the Elo scale: ``400·log10(strength)``, centred so the bots average 1500. The 95% intervals come
from refitting on races resampled with replacement (a seeded bootstrap, so the same run gives the same
intervals).

A bot that never beat another (or never lost to one) has no finite rating: the likelihood grows without
end as its rating falls (rises), and the half-win prior would invent one, with an interval as narrow as
the races are many. Such a bot is said to be "below the others" ("above the others"), without a number,
and set aside; the rest are rated among themselves, and set aside in turn while one of them never beat
(or never lost to) the others left.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from slipstream.engine import registry

from . import store
from .race import run_setup
from .runner import Progress, RunOutcome, SimConfig, SimError, run

BOOTSTRAP = 300
TOURNAMENT_FILE = "tournament.json"


def pair_matrix(races: Sequence[dict[str, Any]], bots: Sequence[str]) -> np.ndarray:
    """``M[r, a, b]``: how many times bot ``a`` placed ahead of bot ``b`` in race ``r``."""
    index = {b: i for i, b in enumerate(bots)}
    m = np.zeros((len(races), len(bots), len(bots)))
    for r, race in enumerate(races):
        seats = race["bots"]
        ranks = race["ranks"]
        for i in range(len(seats)):
            for j in range(i + 1, len(seats)):
                a, b = index[seats[i]], index[seats[j]]
                if a == b:
                    continue
                if ranks[i] < ranks[j]:
                    m[r, a, b] += 1
                elif ranks[j] < ranks[i]:
                    m[r, b, a] += 1
                else:
                    m[r, a, b] += 0.5
                    m[r, b, a] += 0.5
    return m


def bradley_terry(wins: np.ndarray, iterations: int = 500) -> np.ndarray:
    """Elo ratings (mean 1500) from a win matrix ``wins[a, b]`` (a beat b)."""
    k = wins.shape[0]
    games = wins + wins.T
    met = games > 0
    w = wins + 0.5 * met
    n = games + 1.0 * met
    p = np.ones(k)
    total = w.sum(axis=1)
    for _ in range(iterations):
        denom = (n / (p[:, None] + p[None, :])).sum(axis=1)
        new = np.where(denom > 0, total / np.where(denom > 0, denom, 1.0), p)
        new = new / np.exp(np.mean(np.log(new)))
        if np.max(np.abs(new - p)) < 1e-10:
            p = new
            break
        p = new
    elo: np.ndarray = 400 * np.log10(p)
    centred: np.ndarray = elo - elo.mean() + 1500
    return centred


ABOVE = "above the others"
BELOW = "below the others"
BETWEEN = "between the others"


def set_aside(wins: np.ndarray) -> tuple[list[int], list[int], list[int]]:
    """The bots that cannot be rated: those above (never lost to a bot still rated), in the order set aside,
    and those below (never beat one), the last set aside first; and the bots left to rate."""
    left = list(range(wins.shape[0]))
    above: list[int] = []
    below: list[int] = []
    while len(left) > 1:
        sub = wins[np.ix_(left, left)]
        won, lost = sub.sum(axis=1), sub.sum(axis=0)
        top = [b for k, b in enumerate(left) if lost[k] == 0 and won[k] > 0]
        bottom = [b for k, b in enumerate(left) if won[k] == 0 and lost[k] > 0]
        if not top and not bottom:
            break
        above += top
        below = bottom + below
        left = [b for b in left if b not in top and b not in bottom]
    return above, below, left


def ratings(races: Sequence[dict[str, Any]], bots: Sequence[str], seed: int = 0,
            bootstrap: int = BOOTSTRAP) -> dict[str, Any]:
    """Elo with 95% bootstrap intervals (``None`` for a bot set aside: its ``standing`` says where, see the
    module docstring), pairwise win rates and games per bot."""
    m = pair_matrix(races, bots)
    wins = m.sum(axis=0)
    above, below, left = set_aside(wins)
    rated = left if len(left) > 1 else []
    sub = m[:, rated][:, :, rated]
    elo = bradley_terry(sub.sum(axis=0)) if rated else np.empty(0)
    rng = np.random.default_rng(seed)
    samples = np.empty((bootstrap, len(rated)))
    for b in range(bootstrap):
        if races and rated:
            counts = rng.multinomial(len(races), np.full(len(races), 1 / len(races)))
            samples[b] = bradley_terry(np.tensordot(counts, sub, axes=1), 200)
        else:
            samples[b] = elo
    lo = np.percentile(samples, 2.5, axis=0) if bootstrap and rated else elo
    hi = np.percentile(samples, 97.5, axis=0) if bootstrap and rated else elo
    games = wins + wins.T

    def row(i: int, standing: str, k: int | None = None) -> dict[str, Any]:
        number = (lambda a: None) if k is None else (lambda a: float(a[k]))
        return {"bot": bots[i], "elo": number(elo), "lo": number(lo), "hi": number(hi), "standing": standing,
                "pairs": float(games[i].sum()), "pair_wins": float(wins[i].sum())}

    middle = sorted(((row(i, "rated", k) for k, i in enumerate(rated))), key=lambda r: -float(r["elo"]))
    table = [*(row(i, ABOVE) for i in above), *middle, *(row(i, BETWEEN) for i in left if i not in rated),
             *(row(i, BELOW) for i in below)]
    head_to_head: dict[str, dict[str, float | None]] = {}
    for i, a in enumerate(bots):
        head_to_head[a] = {b: (float(wins[i, j] / games[i, j]) if games[i, j] else None)
                           for j, b in enumerate(bots) if j != i}
    return {"ratings": table, "head_to_head": head_to_head, "bootstrap": bootstrap}


def elo_cells(row: dict[str, Any]) -> tuple[str, str]:
    """A rating's Elo and 95% interval as text, or where a bot that cannot be rated stands ("below the
    others") and no interval."""
    if row.get("elo") is None:
        return str(row.get("standing", "-")), "-"
    return f"{row['elo']:.0f}", f"{row['lo']:.0f} – {row['hi']:.0f}"


def check_tournament(config: SimConfig) -> SimConfig:
    """The tournament's settings (bots seated in rotation); a ``SimError`` unless two or more distinct bots
    and a game whose seats compete (in a cooperative game the bots win or lose together: none can be rated
    above another)."""
    run_setup(config.setup)
    if registry.game_class(config.game).cooperative:
        raise SimError(f"{config.game} is cooperative: the seats win or lose together, so bots cannot be rated "
                       "against each other; compare them with simulate (e.g. --bots heuristic,random,random, "
                       "or --sweep) and the team's win rate")
    if len(config.bots) < 2:
        raise SimError("a tournament needs at least two bots, e.g. --bots mcts,greedy,random")
    if len(set(config.bots)) != len(config.bots):
        raise SimError(f"each bot once, please: {', '.join(config.bots)}")
    return replace(config, rotate=True)


def run_tournament(config: SimConfig, out_dir: Path, jobs: int = 1, backend: str = "process",
                   address: str | None = None, progress: Progress | None = None, verbose: bool = False
                   ) -> tuple[RunOutcome, dict[str, Any]]:
    """Play ``config`` (its bots are the pool, seated in rotation) and rate the bots; writes
    ``tournament.json`` beside the run's files: the ratings of every race the folder holds (a lower ``n``
    than the folder's rates the first ``n`` races, and leaves the file on all of them)."""
    config = check_tournament(config)
    outcome = run(config, out_dir, jobs=jobs, backend=backend, address=address, progress=progress, verbose=verbose)
    rated = ratings(outcome.races, config.bots, seed=config.seed)
    rated["races"] = len(outcome.races)
    if outcome.held == len(outcome.races):
        store.write_json(out_dir / TOURNAMENT_FILE, rated)
    elif not (out_dir / TOURNAMENT_FILE).exists():  # a folder that holds more, without its ratings: rate them all
        every = list(store.iter_races(out_dir))
        store.write_json(out_dir / TOURNAMENT_FILE, {**ratings(every, config.bots, seed=config.seed),
                                                     "races": len(every)})
    return outcome, rated
