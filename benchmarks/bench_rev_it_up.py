"""Rev it Up: complete 4-player random races per second on one core.

    python -m benchmarks.bench_rev_it_up [--races N] [--players P] [--options name=value ...]

Two paths: the public, checked contract (legal_actions + apply, chance sampled by the state's seed
with sample_chance) and the fast path (apply_unchecked with the same choices). A random race picks a
random pending seat at each simultaneous choice (as the conformance suite does) and a uniformly random
legal action for it; default options.
"""

from __future__ import annotations

import argparse
import random
import time

import slipstream
from slipstream.engine.game import CHANCE


def race(game: slipstream.Game, seed: int, checked: bool) -> int:
    """One complete random race; the number of actions applied."""
    rng = random.Random(seed)
    state = game.start(seed=seed)
    plies = 0
    while True:
        actor = state.actor
        if actor is None:
            return plies
        if actor == CHANCE:
            action = state.sample_chance()
        elif isinstance(actor, frozenset):
            seats = sorted(actor)
            legal = state.legal_actions(seats[int(rng.random() * len(seats))])
            action = legal[int(rng.random() * len(legal))]
        else:
            legal = state.legal_actions()
            action = legal[int(rng.random() * len(legal))]
        state = state.apply(action) if checked else state.apply_unchecked(action)
        plies += 1


def measure(races: int, checked: bool, players: int = 4, **options: object) -> tuple[float, float, float]:
    """(races per CPU second, actions per CPU second, races per wall-clock second).

    CPU time of this process is the fair figure for "one core" on a machine shared with other work.
    """
    game = slipstream.load("rev-it-up", players=players, **options)
    wall, cpu = time.perf_counter(), time.process_time()
    plies = sum(race(game, seed, checked) for seed in range(races))
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    return races / cpu, plies / cpu, races / wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--races", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--options", nargs="*", default=[], help="game options as name=value")
    parser.add_argument("--repeat", type=int, default=3, help="runs per path; the best and the median are shown")
    args = parser.parse_args()
    options = dict(o.split("=", 1) for o in args.options)
    for label, checked in (("public contract (apply)", True), ("fast path (apply_unchecked)", False)):
        runs = sorted(measure(args.races, checked, players=args.players, **options) for _ in range(args.repeat))
        best, median = runs[-1], runs[len(runs) // 2]
        print(f"rev-it-up {args.players}p {label:28s}: best {best[0]:4.0f} races/s ({best[1]:6.0f} actions/s), "
              f"median {median[0]:4.0f} races/s per CPU second over {args.repeat} runs of {args.races}; "
              f"best wall clock {max(r[2] for r in runs):4.0f} races/s")


if __name__ == "__main__":
    main()
