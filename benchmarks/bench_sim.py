"""Simulator throughput against the engine's own rate, per game, measured in one run.

    .venv/bin/python -m benchmarks.bench_sim [-n RACES] [--bots random] [GAME ...]

For each game, four wall-clock figures in races per second (the game's default players):

- ``engine``: the very races the simulator plays (the same race seeds, the same bots with the same
  seeds, made per race as the simulator makes them) through the public contract in this process, and
  nothing else: no metrics, standings, records or tables;
- ``bench race``: complete random races of ``benchmarks.races.race`` (other seeds; the bot is an index
  into the legal actions and chance goes through the checked ``apply``), the engine's figure elsewhere
  (``-`` with other ``--bots``: those races are random ones);
- ``1 job`` and ``2 jobs``: a whole ``slipstream.sim.run`` into a fresh directory: worker start-up, the
  bots, the game's metrics and standings, the records file and the results tables included (what a
  user waits for).

The modules are imported before the clocks start, pyarrow's included (it writes ``results.parquet``):
a run in a fresh process pays about 0.3-0.4 s more once for it (with several jobs, while they play).

``--only engine`` (or ``--only engine2``, ``--only 1``, ``--only 2``) plays just that measurement's races
for each game and prints nothing else, so two such processes can be timed against each other in
alternation by an outside harness (``hyperfine``, or any tool that pairs runs): the figures below come
from one process each and drift with the machine, the paired ratio does not. Every mode imports the same modules first.

``sim/engine`` is the simulator's share of the engine's rate on one job (the target is 0.8 or more);
``scaling`` is rate(2 jobs) / rate(1 job) (2.0 would be perfectly linear on two free cores). What two
cores give is measured too: ``engine x2`` is the engine's races played bare in two processes at once (each
half of them) against one process, the most two processes can gain on this machine (two virtual cores
that share a physical core's caches, or slow down when both run, give less than 2.0), and ``of engine x2``
is ``scaling`` over it. The machine may be shared: compare figures of one run, not across runs. On a
busy machine the wall clock says more about the other work than about the simulator, so the same ratios
are also given in CPU time (this process and its workers): ``cpu sim/engine`` = the engine's CPU per
race / one job's, and ``cpu scaling`` = 2 x one job's CPU per race / two jobs' (what two free cores would
give).
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import tempfile
import time
from pathlib import Path

import slipstream
from benchmarks.races import race
from slipstream import _native
from slipstream.bots.registry import make_bot
from slipstream.engine import registry
from slipstream.engine.game import CHANCE, State
from slipstream.sim import SimConfig, run, store
from slipstream.sim.race import bot_seed, race_seed

SEED = 1
"""The master seed of the simulator's runs, and so of the engine's races."""


def _cpu() -> float:
    """CPU seconds of this process and of its finished children."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def bare_race(game: slipstream.Game, seed: int, bots: str) -> State:
    """One of the simulator's races with nothing but the bots and the engine (``sim.race.play_race``
    without its numbers)."""
    agents = [make_bot(bots, game.id, bot_seed(seed, seat), simulation=True) for seat in game.seats]
    state = game.start(seed=seed)
    while True:
        actor = state.actor
        if actor is None:
            return state
        if actor == CHANCE:
            state = state.apply_chance()
            continue
        seat = actor if isinstance(actor, int) else min(actor)
        state = state.apply(agents[seat].choose(state, seat))


def bare_races(game: slipstream.Game, indices: range, bots: str) -> None:
    """The simulator's races ``indices`` (of the run with seed ``SEED``), played bare."""
    for index in indices:
        bare_race(game, race_seed(SEED, index), bots)


def engine_rate(game_id: str, n: int, bots: str) -> tuple[float, float]:
    """(races per wall second, CPU seconds per race) of the simulator's races played bare."""
    game = slipstream.load(game_id, players=registry.game_class(game_id).default_players)
    start, cpu = time.perf_counter(), _cpu()
    bare_races(game, range(n), bots)
    return n / (time.perf_counter() - start), (_cpu() - cpu) / n


def engine_pair_rate(game_id: str, n: int, bots: str) -> float:
    """Races per wall second of ``engine_rate``'s races played bare by two processes at once (forked,
    each playing half), the start of the processes included (as a simulator run's is)."""
    game = slipstream.load(game_id, players=registry.game_class(game_id).default_players)
    context = multiprocessing.get_context("fork")
    halves = (range(0, n // 2), range(n // 2, n))
    start = time.perf_counter()
    workers = [context.Process(target=bare_races, args=(game, half, bots)) for half in halves]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return n / (time.perf_counter() - start)


def bench_race_rate(game_id: str, n: int) -> float:
    """Races per wall second of ``benchmarks.races.race`` (random races, the engine's usual figure)."""
    game = slipstream.load(game_id, players=registry.game_class(game_id).default_players)
    start = time.perf_counter()
    for seed in range(n):
        race(game, seed, checked=True)
    return n / (time.perf_counter() - start)


def sim_rate(game_id: str, n: int, bots: str, jobs: int) -> tuple[float, float]:
    """(races per wall second, CPU seconds per race) of a whole simulator run."""
    cls = registry.game_class(game_id)
    config = SimConfig(game=game_id, players=cls.default_players, bots=(bots,), n=n, seed=SEED)
    slipstream.load(game_id)  # imported before the clock starts, as for the engine's figure
    store.preload_table_writer().join()  # so is pyarrow (about 0.4 s once a run: see the module docstring)
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
    parser.add_argument("--only", choices=("engine", "engine2", "1", "2"), default=None,
                        help="play only the engine's races (in one process, or two), or only a run on 1 or 2 jobs "
                             "(no output)")
    args = parser.parse_args()
    ids = args.games or list(registry.games())
    if args.only is not None:
        for gid in ids:
            if args.only in ("engine", "engine2"):
                store.preload_table_writer().join()  # the same imports as a run's
                (engine_rate if args.only == "engine" else engine_pair_rate)(gid, args.n, args.bots)
            else:
                sim_rate(gid, args.n, args.bots, int(args.only))
        return
    print(f"build: {_native.mode}; {args.n} races each, bots {args.bots}; races per second (wall clock)")
    print(f"{'game':16} {'engine':>8} {'bench race':>10} {'1 job':>8} {'2 jobs':>8} {'sim/engine':>11} {'scaling':>8}"
          f" {'engine x2':>10} {'of engine x2':>13}"
          f" {'cpu ms/race: engine':>20} {'1 job':>6} {'2 jobs':>6} {'cpu sim/engine':>15} {'cpu scaling':>12}")
    for gid in ids:
        engine, engine_cpu = engine_rate(gid, args.n, args.bots)
        pair = engine_pair_rate(gid, args.n, args.bots) / engine
        # bench race plays random races only: with other bots it has no figure to give
        bench = f"{bench_race_rate(gid, args.n):10.0f}" if args.bots == "random" else f"{'-':>10}"
        one, one_cpu = sim_rate(gid, args.n, args.bots, 1)
        two, two_cpu = sim_rate(gid, args.n, args.bots, 2)
        print(f"{gid:16} {engine:8.0f} {bench} {one:8.0f} {two:8.0f} {one / engine:11.2f} {two / one:8.2f}"
              f" {pair:10.2f} {two / one / pair:13.2f}"
              f" {1e3 * engine_cpu:20.2f} {1e3 * one_cpu:6.2f} {1e3 * two_cpu:6.2f} {engine_cpu / one_cpu:15.2f}"
              f" {2 * one_cpu / two_cpu:12.2f}")


if __name__ == "__main__":
    main()
