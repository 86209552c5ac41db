"""Simulator throughput per registered game: races per second with 1 and 2 jobs, and the scaling.

    .venv/bin/python -m benchmarks.bench_sim [-n RACES] [--bots random] [GAME ...]

Each figure is a whole ``slipstream.sim.run`` into a fresh directory: worker start-up, the races, the
records file and the results table included (what a user waits for). Scaling = rate(2 jobs) / rate(1 job);
2.0 would be perfectly linear on two cores.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from slipstream.engine import registry
from slipstream.sim import SimConfig, run


def rate(game_id: str, n: int, bots: str, jobs: int) -> float:
    cls = registry.game_class(game_id)
    config = SimConfig(game=game_id, players=cls.default_players, bots=(bots,), n=n, seed=1)
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        outcome = run(config, Path(tmp) / "run", jobs=jobs)
        elapsed = time.perf_counter() - start
    return len(outcome.races) / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*")
    parser.add_argument("-n", type=int, default=400, help="races per measurement")
    parser.add_argument("--bots", default="random", help="one bot name for every seat")
    args = parser.parse_args()
    ids = args.games or list(registry.games())
    print(f"{'game':16} {'bots':8} {'races':>6} {'1 job r/s':>10} {'2 jobs r/s':>11} {'scaling':>8}")
    for gid in ids:
        one = rate(gid, args.n, args.bots, 1)
        two = rate(gid, args.n, args.bots, 2)
        print(f"{gid:16} {args.bots:8} {args.n:6d} {one:10.1f} {two:11.1f} {two / one:8.2f}")


if __name__ == "__main__":
    main()
