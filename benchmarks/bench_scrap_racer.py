"""Scrap Racer: complete 4-player random races per second on one core.

    python -m benchmarks.bench_scrap_racer [--races N] [--repeat K]

Two paths: the public, checked contract (legal_actions + apply, chance sampled by the state's seed)
and the fast path (apply_unchecked with the same choices). The machine is shared, so the time is
CPU time of this process (``time.process_time``), the two paths take turns, and each figure is the
best of ``--repeat`` runs. A race is about 410 actions (plies): 500 races/s is about 4.8 us an action.
"""

from __future__ import annotations

import argparse
import random
import time

import slipstream
from slipstream.engine.game import CHANCE


def race(game: slipstream.Game, seed: int, checked: bool) -> int:
    rng = random.Random(seed)
    state = game.start(seed=seed)
    plies = 0
    while True:
        actor = state.actor
        if actor is None:
            return plies
        if actor == CHANCE:
            action = state.sample_chance()
        else:
            legal = state.legal_actions()
            action = legal[int(rng.random() * len(legal))]
        state = state.apply(action) if checked else state.apply_unchecked(action)
        plies += 1


def measure(races: int, checked: bool, players: int = 4) -> tuple[float, float]:
    game = slipstream.load("scrap-racer", players=players)
    start = time.process_time()
    plies = sum(race(game, seed, checked) for seed in range(races))
    elapsed = time.process_time() - start
    return races / elapsed, plies / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--races", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3, help="runs per path; the best is reported")
    args = parser.parse_args()
    paths = (("public contract (apply)", True), ("fast path (apply_unchecked)", False))
    best = {label: (0.0, 0.0) for label, _ in paths}
    for _ in range(args.repeat):
        for label, checked in paths:
            best[label] = max(best[label], measure(args.races, checked))
    for label, (rps, pps) in best.items():
        print(f"scrap-racer 4p {label:28s}: {rps:8.0f} races/s  {pps:10.0f} actions/s"
              f"  {1e6 / pps:5.2f} us/action  (CPU time, best of {args.repeat})")


if __name__ == "__main__":
    main()
