"""The batch runner: many races in parallel, reproducible from one master seed, resumable.

``run(config, out_dir, jobs=N)`` plays the races ``0 .. n-1`` of ``config`` that ``out_dir`` does not
hold yet, in ``jobs`` local processes (``backend="process"``) or on a Ray cluster (``backend="ray"``),
appends each finished race to ``races.jsonl.gz`` and writes the results table at the end, or when
interrupted (Ctrl-C): running the same command again finishes the run.
"""

from __future__ import annotations

import itertools
import multiprocessing
import signal
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import slipstream
from slipstream.bots.registry import check_bot
from slipstream.engine.errors import SlipstreamError

from . import store
from .race import Line, RaceFailed, RaceSpec, run_batch, run_batch_safe, run_setup

Progress = Callable[[int, int], None]
"""``progress(done, total)``, called as races finish."""

BACKENDS = ("process", "ray")


class SimError(SlipstreamError):
    """Bad simulation settings (the message says what is wrong and what is valid)."""

    code = "bad_simulation"


@dataclass(frozen=True)
class SimConfig:
    """A run: ``n`` races of ``game`` with ``players`` seats, the bots by seat, and the options.

    With ``rotate``, ``bots`` is a pool and race ``i`` seats them in a rotation that gives every bot every
    seat and every opponent equally often (the tournament's seating).
    """

    game: str
    players: int
    bots: tuple[str, ...]
    n: int
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    rotate: bool = False
    setup: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["bots"] = list(self.bots)
        data["setup"] = list(self.setup)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SimConfig:
        return cls(game=data["game"], players=data["players"], bots=tuple(data["bots"]), n=data["n"],
                   seed=data["seed"], options=dict(data["options"]), rotate=data.get("rotate", False),
                   setup=tuple(data.get("setup", ())))

    def same_run(self, other: SimConfig) -> bool:
        """Whether the two configs play the same races (``n`` may differ: a run can be extended)."""
        mine, theirs = self.to_json(), other.to_json()
        mine.pop("n")
        theirs.pop("n")
        mine.pop("setup")
        theirs.pop("setup")
        return mine == theirs


def validate(config: SimConfig) -> slipstream.Game:
    """The loaded game, or a ``SlipstreamError`` naming what is wrong and what is valid."""
    run_setup(config.setup)
    game = slipstream.load(config.game, players=config.players, **config.options)
    if config.n < 0:
        raise SimError(f"the number of races must be at least 0, not {config.n}")
    if not config.bots:
        raise SimError("name at least one bot")
    if not config.rotate and len(config.bots) not in (1, game.players):
        raise SimError(f"{len(config.bots)} bots for {game.players} seats: name one bot per seat, "
                       "or one bot for every seat")
    for name in sorted(set(config.bots)):
        check_bot(name, config.game)
    return game


def seating(bots: Sequence[str], players: int, rotate: bool) -> Callable[[int], tuple[str, ...]]:
    """The bots by seat for race ``i``.

    Without ``rotate``: the bots as given (one name fills every seat). With ``rotate``, race ``i`` takes
    the ``i``-th arrangement in a fixed cycle: every ordered choice of distinct bots when there are at
    least as many bots as seats, otherwise the bots in turn round the table shifted by ``i``.
    """
    if not rotate:
        fixed = tuple(bots) if len(bots) == players else tuple(bots) * players
        return lambda i: fixed
    k = len(bots)
    if k >= players:
        perms = list(itertools.islice(itertools.permutations(range(k), players), 100_000))
        return lambda i: tuple(bots[b] for b in perms[i % len(perms)])
    return lambda i: tuple(bots[(i + s) % k] for s in range(players))


def _batches(indices: Sequence[int], size: int) -> Iterator[tuple[int, ...]]:
    for start in range(0, len(indices), size):
        yield tuple(indices[start:start + size])


def _specs(config: SimConfig, todo: Sequence[int], jobs: int) -> list[RaceSpec]:
    seat_of = seating(config.bots, config.players, config.rotate)
    size = max(1, min(25, len(todo) // max(1, jobs * 8)))
    return [
        RaceSpec(config.game, config.players, dict(config.options), tuple(seat_of(i) for i in batch), batch,
                 config.seed, config.setup)
        for batch in _batches(todo, size)
    ]


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@dataclass
class RunOutcome:
    """What ``run`` did: the races in the directory (``store.compact``: no actions, no positions; the
    records file has them), how many it played now, whether it was interrupted."""

    out_dir: Path
    races: list[dict[str, Any]]
    played: int
    resumed: int
    interrupted: bool
    files: list[Path]


def prepare(config: SimConfig, out_dir: Path) -> tuple[list[dict[str, Any]], list[int]]:
    """Check ``out_dir`` against ``config``; the races already there and the indices still to play."""
    out_dir.mkdir(parents=True, exist_ok=True)
    run_file = out_dir / store.RUN_FILE
    if run_file.exists():
        old = SimConfig.from_json(store.read_json(run_file)["config"])
        if not old.same_run(config):
            raise SimError(f"{out_dir} holds a run with other settings ({old.to_json()}); "
                           "choose another --out directory to start a new run")
    races_path = out_dir / store.RACES_FILE
    races, cut = store.read_races(races_path, full=False)
    if cut:
        store.repair(races_path)
    have = {r["index"] for r in races}
    races = [r for r in races if r["index"] < config.n]
    todo = [i for i in range(config.n) if i not in have]
    return races, todo


def run(config: SimConfig, out_dir: Path, jobs: int = 1, backend: str = "process",
        address: str | None = None, progress: Progress | None = None) -> RunOutcome:
    """Play the races of ``config`` still missing from ``out_dir``; see the module docstring."""
    if backend not in BACKENDS:
        raise SimError(f"unknown backend {backend!r}; the backends are: {', '.join(BACKENDS)}")
    if jobs < 1:
        raise SimError(f"jobs must be at least 1, not {jobs}")
    validate(config)
    races, todo = prepare(config, out_dir)
    resumed = len(races)
    store.write_json(out_dir / store.RUN_FILE, {"config": config.to_json(), "status": "running",
                                                "version": slipstream.__version__})
    total = config.n
    if progress is not None:
        progress(len(races), total)
    specs = _specs(config, todo, jobs)
    interrupted = False
    writer = store.RaceWriter(out_dir / store.RACES_FILE)
    try:
        for batch in _execute(specs, jobs, backend, address):
            for line, race in batch:
                writer.write_line(line)
                races.append(race)
            if progress is not None:
                progress(len(races), total)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        writer.close()
        files = store.write_tables(out_dir, races)
        status = "interrupted" if interrupted else "complete"
        store.write_json(out_dir / store.RUN_FILE, {"config": config.to_json(), "status": status,
                                                    "races": len(races),
                                                    "version": slipstream.__version__})
    races.sort(key=lambda r: r["index"])
    return RunOutcome(out_dir, races, len(races) - resumed, resumed, interrupted, files)


def _execute(specs: list[RaceSpec], jobs: int, backend: str, address: str | None
             ) -> Iterator[list[Line]]:
    if not specs:
        return
    if backend == "ray":
        yield from _execute_ray(specs, jobs, address)
    elif jobs == 1:
        for spec in specs:
            yield run_batch(spec)
    else:
        ctx = multiprocessing.get_context("spawn")
        pool = ctx.Pool(jobs, initializer=_ignore_sigint)
        try:
            for races, error in pool.imap_unordered(run_batch_safe, specs):
                if error is not None:
                    raise RaceFailed(error)
                yield races
            pool.close()
        except BaseException:
            pool.terminate()
            raise
        finally:
            pool.join()


def _execute_ray(specs: list[RaceSpec], jobs: int, address: str | None) -> Iterator[list[Line]]:
    try:
        import ray
    except ImportError:  # pragma: no cover - ray is an optional extra
        raise SimError("the ray backend needs Ray: pip install 'slipstream[ray]'") from None
    started = False
    if not ray.is_initialized():
        if address is None:
            ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, include_dashboard=False, log_to_driver=False)
        started = True
    remote = ray.remote(run_batch_safe)
    pending = [remote.remote(spec) for spec in specs]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                races, error = ray.get(ref)
                if error is not None:
                    raise RaceFailed(error)
                yield races
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    finally:
        if started:
            ray.shutdown()
