"""Simulator throughput against the engine's own rate, per game, measured in one run.

    .venv/bin/python -m benchmarks.bench_sim [-n RACES] [--bots random] [GAME ...]

For each game, three wall-clock figures in races per second (4 players unless the game says otherwise):

- ``engine``: complete random races through the public contract in this process, nothing else
  (``benchmarks.races.race``: legal_actions, apply, sample_chance);
- ``1 job`` and ``2 jobs``: a whole ``slipstream.sim.run`` into a fresh directory: worker start-up, the
  bots, the game's metrics and standings, the records file and the results tables included (what a
  user waits for).

``sim/engine`` is the simulator's share of the engine's rate on one job (the target is 0.8 or more);
``scaling`` is rate(2 jobs) / rate(1 job) (2.0 would be perfectly linear on two free cores). The machine
may be shared: compare figures of one run, not across runs. On a busy machine the wall clock says more
about the other work than about the simulator, so the same ratios are also given in CPU time (this
process and its workers): ``cpu sim/engine`` = the engine's CPU per race / one job's, and ``cpu scaling``
= 2 x one job's CPU per race / two jobs' (what two free cores would give).
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time
from pathlib import Path

import slipstream
from benchmarks.races import race
from slipstream import _native
from slipstream.engine import registry
from slipstream.sim import SimConfig, run


def _cpu() -> float:
    """CPU seconds of this process and of its finished children."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def engine_rate(game_id: str, n: int) -> tuple[float, float]:
    """(races per wall second, CPU seconds per race) of the engine alone."""
    game = slipstream.load(game_id, players=registry.game_class(game_id).default_players)
    start, cpu = time.perf_counter(), _cpu()
    for seed in range(n):
        race(game, seed, checked=True)
    return n / (time.perf_counter() - start), (_cpu() - cpu) / n


def sim_rate(game_id: str, n: int, bots: str, jobs: int) -> tuple[float, float]:
    """(races per wall second, CPU seconds per race) of a whole simulator run."""
    cls = registry.game_class(game_id)
    config = SimConfig(game=game_id, players=cls.default_players, bots=(bots,), n=n, seed=1)
    slipstream.load(game_id)  # imported before the clock starts, as for the engine's figure
    with tempfile.TemporaryDirectory() as tmp:
        start, cpu = time.perf_counter(), _cpu()
        outcome = run(config, Path(tmp) / "run", jobs=jobs)
        elapsed = time.perf_counter() - start
        used = _cpu() - cpu
    return len(outcome.races) / elapsed, used / len(outcome.races)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*")
    parser.add_argument("-n", type=int, default=1000, help="races per measurement")
    parser.add_argument("--bots", default="random", help="one bot name for every seat")
    args = parser.parse_args()
    ids = args.games or list(registry.games())
    print(f"build: {_native.mode}; {args.n} races each, bots {args.bots}; races per second (wall clock)")
    print(f"{'game':16} {'engine':>8} {'1 job':>8} {'2 jobs':>8} {'sim/engine':>11} {'scaling':>8}"
          f" {'cpu ms/race: engine':>20} {'1 job':>6} {'2 jobs':>6} {'cpu sim/engine':>15} {'cpu scaling':>12}")
    for gid in ids:
        engine, engine_cpu = engine_rate(gid, args.n)
        one, one_cpu = sim_rate(gid, args.n, args.bots, 1)
        two, two_cpu = sim_rate(gid, args.n, args.bots, 2)
        print(f"{gid:16} {engine:8.0f} {one:8.0f} {two:8.0f} {one / engine:11.2f} {two / one:8.2f}"
              f" {1e3 * engine_cpu:20.2f} {1e3 * one_cpu:6.2f} {1e3 * two_cpu:6.2f} {engine_cpu / one_cpu:15.2f}"
              f" {2 * one_cpu / two_cpu:12.2f}")


if __name__ == "__main__":
    main()
