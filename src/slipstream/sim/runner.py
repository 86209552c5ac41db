"""The batch runner: many races in parallel, reproducible from one master seed, resumable.

``run(config, out_dir, jobs=N)`` plays the races ``0 .. n-1`` of ``config`` that ``out_dir`` does not
hold yet, in this process (one job), ``jobs`` local processes (``backend="process"``) or on a Ray
cluster (``backend="ray"``) (see ``slipstream.sim.workers``), appends each finished race to
``races.jsonl.gz`` as it arrives and writes the results table at the end, or when interrupted (Ctrl-C:
every finished race is kept): running the same command again finishes the run. A higher ``n`` extends a
run; a lower one plays only what is missing below it and keeps every race the folder holds (the run's
``n`` stays the larger): its outcome is the first ``n`` races.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import slipstream
from slipstream.bots.registry import check_bot
from slipstream.engine.errors import SlipstreamError
from slipstream.jsontext import decode

from . import store
from .race import RaceSpec, run_setup
from .workers import Bunch, InProcess, executor, interrupts_deferred

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
    seat and every opponent equally often (the tournament's seating). With ``skill`` (a skill run), ``bots``
    are a stronger bot and a weaker one: the races come in groups of ``players`` that share a seed, and race
    ``i`` seats the stronger bot in seat ``i % players`` and the weaker in every other seat.
    """

    game: str
    players: int
    bots: tuple[str, ...]
    n: int
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    rotate: bool = False
    setup: tuple[str, ...] = ()
    skill: bool = False

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["bots"] = list(self.bots)
        data["setup"] = list(self.setup)
        if not self.skill:  # the settings of a run as they were before skill runs (its default directory)
            data.pop("skill")
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SimConfig:
        return cls(game=data["game"], players=data["players"], bots=tuple(data["bots"]), n=data["n"],
                   seed=data["seed"], options=dict(data["options"]), rotate=data.get("rotate", False),
                   setup=tuple(data.get("setup", ())), skill=data.get("skill", False))

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
    if config.skill and (config.rotate or len(config.bots) != 2 or config.bots[0] == config.bots[1]):
        raise SimError(f"a skill run needs two different bots, the stronger first: not {', '.join(config.bots)}")
    if not config.rotate and not config.skill and len(config.bots) not in (1, game.players):
        raise SimError(f"{len(config.bots)} bots for {game.players} seats: name one bot per seat, "
                       "or one bot for every seat")
    for name in sorted(set(config.bots)):
        check_bot(name, config.game)
    return game


def seating(bots: Sequence[str], players: int, rotate: bool, skill: bool = False) -> Callable[[int], tuple[str, ...]]:
    """The bots by seat for race ``i``.

    Without ``rotate``: the bots as given (one name fills every seat). With ``rotate``, race ``i`` takes
    the ``i``-th arrangement in a fixed cycle: every ordered choice of distinct bots when there are at
    least as many bots as seats, otherwise the bots in turn round the table shifted by ``i``. With
    ``skill``: the first bot in seat ``i % players``, the second in every other seat.
    """
    if skill:
        return lambda i: tuple(bots[0] if seat == i % players else bots[1] for seat in range(players))
    if not rotate:
        fixed = tuple(bots) if len(bots) == players else tuple(bots) * players
        return lambda i: fixed
    k = len(bots)
    if k >= players:
        perms = list(itertools.islice(itertools.permutations(range(k), players), 100_000))
        return lambda i: tuple(bots[b] for b in perms[i % len(perms)])
    return lambda i: tuple(bots[(i + s) % k] for s in range(players))


SKILL_DIR = "skill"
"""The skill run's directory inside its run's (``simulate --skill``)."""


def skill_config(config: SimConfig, strong: str, weak: str) -> SimConfig:
    """The skill run of ``config``: its game, options and seed, ``strong`` against ``weak`` (see ``SimConfig``),
    with as many races as ``config`` rounded up to whole seeds (each seed once with the stronger bot in
    every seat)."""
    seeds = max(1, -(-config.n // config.players))
    return replace(config, bots=(strong, weak), n=seeds * config.players, rotate=False, skill=True)


@dataclass
class RunOutcome:
    """What ``run`` did: the races asked for (``store.compact``: no actions, no positions; the records file
    has them), how many it played now, whether it was interrupted, and how many races the directory
    holds in all (``held``: more than ``races`` when it was asked for fewer than it had)."""

    out_dir: Path
    races: list[dict[str, Any]]
    played: int
    resumed: int
    interrupted: bool
    files: list[Path]
    held: int = 0


def _read_run_file(path: Path) -> SimConfig:
    try:
        return SimConfig.from_json(store.read_json(path)["config"])
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise SimError(f"{path} is not a run file Slipstream can read ({type(exc).__name__}: {exc}); "
                       "remove it, or choose another --out directory") from None


def check_out_dir(config: SimConfig, out_dir: Path) -> None:
    """Refuse a directory that holds another run (or an unreadable run file), before anything starts."""
    if out_dir.exists() and not out_dir.is_dir():
        raise SimError(f"{out_dir} is a file, not a directory: choose another --out")
    run_file = out_dir / store.RUN_FILE
    if run_file.exists():
        old = _read_run_file(run_file)
        if not old.same_run(config):
            raise SimError(f"{out_dir} holds a run with other settings ({old.to_json()}); "
                           "choose another --out directory to start a new run")


def planned(config: SimConfig, out_dir: Path) -> SimConfig:
    """The run ``out_dir`` will hold after ``run(config)``: ``config``, with the larger ``n`` of it and of
    the run already there (a lower ``-n`` never drops races)."""
    run_file = out_dir / store.RUN_FILE
    if not run_file.exists():
        return config
    return replace(config, n=max(config.n, _read_run_file(run_file).n))


def prepare(config: SimConfig, out_dir: Path) -> tuple[list[dict[str, Any]], list[int]]:
    """Check ``out_dir`` against ``config``; the races already there (of its planned run, ``planned``) and
    the indices still to play below ``config.n``."""
    check_out_dir(config, out_dir)
    whole = planned(config, out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    races_path = out_dir / store.RACES_FILE
    races, cut = store.read_races(races_path, full=False)
    if cut:
        store.repair(races_path)
    have = {r["index"] for r in races}
    races = [r for r in races if r["index"] < whole.n]
    todo = [i for i in range(config.n) if i not in have]
    return races, todo


def check_run(config: SimConfig, jobs: int = 1, backend: str = "process", address: str | None = None
              ) -> slipstream.Game:
    """Every setting of a run checked (game, options, bots, jobs, backend and address); the loaded game."""
    if backend not in BACKENDS:
        raise SimError(f"unknown backend {backend!r}; the backends are: {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        raise SimError(f"--address {address} is a Ray cluster's: add --backend ray (the {backend} backend plays "
                       "on this machine and would not use it)")
    if jobs < 1:
        raise SimError(f"--jobs must be at least 1, not {jobs}")
    return validate(config)


def run(config: SimConfig, out_dir: Path, jobs: int = 1, backend: str = "process",
        address: str | None = None, progress: Progress | None = None,
        point: dict[str, str] | None = None, verbose: bool = False) -> RunOutcome:
    """Play the races of ``config`` still missing from ``out_dir``; see the module docstring.

    Each finished race is written as soon as it arrives; Ctrl-C (``KeyboardInterrupt``) stops the
    workers, writes every race they had finished, and returns with ``interrupted`` set. ``point`` (a
    sweep's values of this run) is given to every race as ``sweep``: the results table's ``opt_`` columns.
    ``verbose`` lets Ray's own log lines through (``--backend ray``).
    """
    check_run(config, jobs, backend, address)
    asked = config.n
    config = planned(config, out_dir)
    races, todo = prepare(config, out_dir)
    todo = [i for i in todo if i < asked]
    if point:
        for race in races:
            race["sweep"] = dict(point)
    resumed = len(races)
    seat_of = seating(config.bots, config.players, config.rotate, config.skill)
    work = RaceSpec(config.game, config.players, dict(config.options), tuple(seat_of(i) for i in todo), tuple(todo),
                config.seed, config.setup, config.players if config.skill else 1)
    pool = executor(work, jobs, backend, address, verbose) if todo else None
    # Other processes play the races: this one loads the tables' writer meanwhile (started after the
    # workers, which are forked only from a process without other threads).
    loading = store.preload_table_writer() if pool is not None and not isinstance(pool, InProcess) else None
    total = asked

    def done() -> int:
        return sum(1 for race in races if race["index"] < asked)

    if progress is not None:
        progress(done(), total)
    store.write_json(out_dir / store.RUN_FILE, {"config": config.to_json(), "status": "running",
                                                "version": slipstream.__version__})
    status = "failed"
    writer = store.RaceWriter(out_dir / store.RACES_FILE)
    tables = store.ResultsWriter(out_dir, itertools.chain((r["index"] for r in races), todo))
    tables.add(races)

    kept: set[int] = set()  # the first race of each bunch kept
    last: Bunch | None = None  # the bunch last handed over by the executor

    def keep(finished: Bunch) -> None:
        """Write the races and keep them, whole: Ctrl-C (or SIGTERM) waits until they are in the records,
        in ``races`` and with the tables, so what the run file counts is what the records hold. A bunch
        already kept is skipped (``keep_the_rest`` offers the last one again)."""
        data, texts = finished
        with interrupts_deferred():
            compact = [decode(text) for text in texts]
            if not compact or compact[0]["index"] in kept:
                return
            if point:
                for race in compact:
                    race["sweep"] = dict(point)
            if isinstance(data, bytes):
                writer.write_packed(data)
            else:
                for line in data:
                    writer.write_line(line)
            kept.add(compact[0]["index"])
            races.extend(compact)
            tables.add(compact)

    def keep_the_rest() -> None:
        """After Ctrl-C or a failure: the bunch last handed over (Ctrl-C may have landed before ``keep`` had
        it), then every race the executor still holds (``stop``)."""
        if pool is None:
            return
        for lines in itertools.chain([last] if last is not None else [], pool.stop()):
            keep(lines)

    try:
        try:
            if pool is not None:
                for last in pool.results():
                    keep(last)
                    if progress is not None:
                        progress(done(), total)
            status = "complete" if len(races) >= config.n else "interrupted"
        except KeyboardInterrupt:
            status = "interrupted"
            keep_the_rest()
        except BaseException:
            keep_the_rest()
            raise
    finally:
        if pool is not None:
            pool.close()
        writer.close()
        if loading is not None:
            loading.join()
        files = tables.close(races)
        store.write_json(out_dir / store.RUN_FILE, {"config": config.to_json(), "status": status,
                                                    "races": len(races),
                                                    "version": slipstream.__version__})
    races.sort(key=lambda r: r["index"])
    held = len(races)
    return RunOutcome(out_dir, [r for r in races if r["index"] < asked], held - resumed, resumed,
                      status == "interrupted" and done() < asked, files, held)
