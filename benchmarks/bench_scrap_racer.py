"""Scrap Racer: complete 4-player random races per second on one core.

    python -m benchmarks.bench_scrap_racer [--races N] [--repeat K]

Two paths: the public, checked contract (legal_actions + apply, chance sampled by the state's seed)
and the fast path (apply_unchecked with the same choices). The machine is shared, so the time is
CPU time of this process (``time.process_time``) and the figure is the best of ``--repeat`` runs.
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
    for label, checked in (("public contract (apply)", True), ("fast path (apply_unchecked)", False)):
        rps, pps = max(measure(args.races, checked) for _ in range(args.repeat))
        print(f"scrap-racer 4p {label:28s}: {rps:8.0f} races/s  {pps:10.0f} actions/s"
              f"  (CPU time, best of {args.repeat})")


if __name__ == "__main__":
    main()
