"""Where the races are played: in this process, in local worker processes, or as Ray tasks.

Every executor has the same shape: ``results()`` yields the finished races (``Line``s) as they come,
``stop()`` ends the work at once and yields every race that had finished but was not yet delivered, and
``close()`` releases what was started. The runner writes whatever they yield, so Ctrl-C loses only the
races still being played, whatever their length.

Local workers take the races one at a time from a shared counter (the slow races of a strong bot do
not hold up a batch) and send what they have finished every ``FLUSH_SECONDS`` (so a thousand quick
races a second cost a few messages, and a slow race is sent as soon as it ends), each down a pipe of
its own, written by the worker itself: no feeder thread, no lock shared between workers, and a worker
that dies shows as the end of its pipe. On ``stop()`` each worker is sent SIGTERM, sends what it holds
and exits. Ray tasks are sized by time: a task plays about
``RAY_TASK_SECONDS`` of races, judged from the races finished so far.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import socket
import threading
import time
import traceback
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any, cast

import slipstream

from .race import Line, RaceFailed, RaceSpec, play_race, run_batch_safe, run_setup, to_line
from .store import pack

Bunch = tuple[list[str] | bytes, list[str]]
"""Finished races: their records lines (or those lines already packed as a gzip member) and the JSON
texts of their compact forms (``store.compact``), parsed by the process that keeps them."""


def bunch(lines: Sequence[Line]) -> Bunch:
    return [line for line, _ in lines], [text for _, text in lines]


def packed(lines: Sequence[Line]) -> Bunch:
    return pack(line for line, _ in lines), [text for _, text in lines]

FLUSH_SECONDS = 0.1
RAY_TASK_SECONDS = 1.0
RAY_CONNECT_SECONDS = 20.0
"""How long to wait for a Ray cluster before giving up with a clear error."""


class BackendError(slipstream.SlipstreamError):
    """A backend that cannot be used (Ray missing or unreachable)."""

    code = "bad_backend"


# --- signals -------------------------------------------------------------------------------------

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait until the block ends, then act as they would have (their handlers run, a
    ``KeyboardInterrupt`` is raised): so a block runs whole. Python runs signal handlers in the main
    thread, so there only; elsewhere the block runs as it is."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []

    def note(signum: int, _frame: object) -> None:
        caught.append(signum)

    previous = {stop: signal.signal(stop, note) for stop in STOP_SIGNALS}
    try:
        yield
    finally:
        for stop, handler in previous.items():
            signal.signal(stop, signal.SIG_DFL if handler is None else handler)  # None: set outside Python
        if caught:
            signal.raise_signal(caught[0])


# --- in this process ------------------------------------------------------------------------------


class InProcess:
    """One job: the races played here, one by one (no worker start-up, no messages), handed over every
    ``FLUSH_SECONDS`` (a slow race as soon as it ends); ``stop`` hands over those not yet handed over."""

    def __init__(self, work: RaceSpec) -> None:
        self.work = work
        self.held: list[Line] = []

    def results(self) -> Iterator[Bunch]:
        work = self.work
        run_setup(work.setup)
        game = slipstream.load(work.game, players=work.players, **work.options)
        sent = time.monotonic()
        for index, bots in zip(work.indices, work.seats_bots, strict=True):
            seed = work.seed_of(index)
            try:
                race = play_race(game, seed, bots, index)
            except Exception as exc:
                raise RaceFailed(_failure(work.game, index, seed, bots, exc)) from exc
            self.held.append(to_line(race))
            now = time.monotonic()
            if now - sent >= FLUSH_SECONDS:
                yield self._hand_over()
                sent = now
        if self.held:
            yield self._hand_over()

    def _hand_over(self) -> Bunch:
        held, self.held = self.held, []
        return bunch(held)

    def stop(self) -> Iterator[Bunch]:
        return iter([self._hand_over()] if self.held else [])

    def close(self) -> None:
        pass


def _failure(game: str, index: int, seed: int, bots: Sequence[str], exc: BaseException) -> str:
    return f"{game}: race {index} (seed {seed}, bots {', '.join(bots)}) failed: {type(exc).__name__}: {exc}"


# --- local worker processes ----------------------------------------------------------------------


class _Stop(BaseException):
    """Raised in a worker by SIGTERM: send what is finished and exit."""


def _on_sigterm(_signum: int, _frame: object) -> None:
    raise _Stop()


def _die_with_parent() -> None:
    """On Linux, SIGTERM this worker when the process that started it dies (even by SIGKILL), so no
    orphan plays on; elsewhere nothing."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, int(signal.SIGTERM))  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


@contextmanager
def _no_stop() -> Iterator[None]:
    """SIGTERM waits until the block ends (a finished race is held or sent whole, never twice)."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})


def _worker(work: RaceSpec, counter: Any, out: Connection) -> None:
    """A worker process: take the next race from ``counter``, play it, send finished races in bunches down
    ``out``: ``(kind, bunch, error)``, ``kind`` "races", then "done" or "failed" last."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent()
    held: list[Line] = []
    end = "done"
    try:
        signal.signal(signal.SIGTERM, _on_sigterm)
        run_setup(work.setup)
        game = slipstream.load(work.game, players=work.players, **work.options)
        sent = time.monotonic()
        total = len(work.indices)
        while True:
            with counter.get_lock():
                position = counter.value
                counter.value = position + 1
            if position >= total:
                break
            index, bots = work.indices[position], work.seats_bots[position]
            seed = work.seed_of(index)
            try:
                race = play_race(game, seed, bots, index)
            except Exception as exc:
                end = f"{_failure(work.game, index, seed, bots, exc)}\n{traceback.format_exc()}"
                return
            with _no_stop():
                held.append(to_line(race))
                now = time.monotonic()
                if now - sent >= FLUSH_SECONDS:
                    out.send(("races", packed(held), None))
                    held, sent = [], now
    except _Stop:
        pass
    except Exception as exc:  # the game or its setup would not load: the runner checked them already
        end = f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}"
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        out.send(("done", packed(held), None) if end == "done" else ("failed", packed(held), end))
        out.close()


def _context() -> Any:
    """``fork`` (a worker starts in milliseconds) when this process runs no other thread, else ``spawn``."""
    if "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


class Processes:
    """``jobs`` local worker processes sharing the races through a counter; see the module docstring."""

    def __init__(self, work: RaceSpec, jobs: int) -> None:
        ctx = _context()
        self.counter = ctx.Value("q", 0)
        self.procs = []
        self.open: list[Connection] = []
        """The pipes of the workers that have not yet said they are done."""
        for _ in range(min(jobs, len(work.indices))):
            reader, writer = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=_worker, args=(work, self.counter, writer), daemon=True)
            proc.start()
            writer.close()  # the worker holds the only writer: its end is the end of the pipe
            self.procs.append(proc)
            self.open.append(reader)
        self.failure: str | None = None
        self.died = False
        self.received: Bunch | None = None

    @property
    def running(self) -> int:
        return len(self.open)

    def _take(self, timeout: float) -> Bunch | None:
        """The next bunch of races from a worker; ``None`` when none came within ``timeout``.

        A message is read whole: Ctrl-C waits until the read ends (an interrupted read would leave the
        rest of the message in the pipe, and the next read would take it for a length and hang there). A
        bunch read when Ctrl-C lands stays in ``received`` for ``stop``."""
        with interrupts_deferred():
            ready = wait(self.open, timeout)
            if not ready:
                return None
            pipe = cast(Connection, ready[0])
            try:
                kind, races, error = pipe.recv()
            except EOFError:  # the worker ended without a last word: killed, or out of memory
                self._close(pipe)
                self.died = True
                return None
            if kind in ("done", "failed"):
                self._close(pipe)
            if kind == "failed":
                self.failure = error
            self.received = races
        got, self.received = self.received, None
        return got

    def _close(self, pipe: Connection) -> None:
        self.open.remove(pipe)
        pipe.close()

    def results(self) -> Iterator[Bunch]:
        while self.running:
            got = self._take(0.25)  # short waits: a deferred Ctrl-C acts within a quarter of a second
            if self.died:
                raise RaceFailed("a worker process died (killed, or out of memory)")
            if got is not None and got[1]:
                yield got
            if self.failure is not None:
                raise RaceFailed(self.failure)

    def stop(self) -> Iterator[Bunch]:
        """Every worker sends what it has finished and exits; those races (after a bunch read when Ctrl-C
        landed, not yet handed over)."""
        for proc in self.procs:
            if proc.is_alive() and proc.pid is not None:
                os.kill(proc.pid, signal.SIGTERM)
        received, self.received = self.received, None
        if received is not None and received[1]:
            yield received
        deadline = time.monotonic() + 10
        while self.running and time.monotonic() < deadline:
            got = self._take(0.2)
            if got is not None and got[1]:
                yield got

    def close(self) -> None:
        for proc in self.procs:
            proc.join(timeout=2)
            if proc.is_alive():
                proc.kill()
                proc.join()
        for pipe in list(self.open):
            self._close(pipe)


# --- Ray -----------------------------------------------------------------------------------------


def _reachable(address: str, timeout: float) -> None:
    """Refuse at once a ``host:port`` nothing listens on (Ray itself would retry for many minutes)."""
    target = address.split("://", 1)[-1]
    host, sep, port = target.rpartition(":")
    if not sep or not port.isdigit():
        return
    try:
        with socket.create_connection((host.strip("[]") or "127.0.0.1", int(port)), timeout=timeout):
            pass
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise BackendError(f"cannot reach the Ray cluster at {address}: {reason.lower()} "
                           "(is `ray start --head` running there? the address is HOST:PORT of its head node)"
                           ) from None


def connect_ray(jobs: int, address: str | None, timeout: float = RAY_CONNECT_SECONDS, verbose: bool = False) -> bool:
    """Start a local Ray or join the cluster at ``address``, within ``timeout`` seconds; whether this
    call started Ray (and so should shut it down). A clear ``BackendError`` otherwise. Ray's own log
    lines (its start, its token authentication, its workers' output) stay out of the terminal unless
    ``verbose``: only its errors get through."""
    try:
        import ray
    except ImportError:  # pragma: no cover - ray is an optional extra
        raise BackendError("the ray backend needs Ray: pip install 'slipstream[ray]'") from None
    if ray.is_initialized():
        return False
    if address is not None:
        _reachable(address, min(timeout, 5.0))
    where = "a local Ray" if address is None else f"the Ray cluster at {address}"
    level = logging.INFO if verbose else logging.ERROR
    if address is None:
        # On this thread: Ray ties the processes it starts here to the thread that starts them.
        paths = [str(Path(slipstream.__file__).resolve().parents[1]), os.environ.get("PYTHONPATH", "")]
        try:
            ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=verbose, logging_level=level,
                     runtime_env={"env_vars": {"PYTHONPATH": os.pathsep.join(p for p in paths if p)}})
        except Exception as exc:
            raise BackendError(f"could not start {where}: {_first_line(exc)}") from None
        return True
    failure: list[BaseException] = []

    def join() -> None:
        try:
            ray.init(address=address, include_dashboard=False, log_to_driver=verbose, logging_level=level)
        except BaseException as exc:
            failure.append(exc)

    thread = threading.Thread(target=join, name="ray-connect", daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while thread.is_alive() and time.monotonic() < deadline:
        thread.join(0.2)  # short waits: Ctrl-C reaches this thread
    if thread.is_alive():
        raise BackendError(f"could not connect to {where} within {timeout:.0f} s")
    if failure:
        raise BackendError(f"could not connect to {where}: {_first_line(failure[0])}")
    return True


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


class RayTasks:
    """Races as Ray tasks of about ``RAY_TASK_SECONDS`` each, ``2 * jobs`` in flight."""

    def __init__(self, work: RaceSpec, jobs: int, started: bool) -> None:
        import ray

        self.ray = ray
        self.work = work
        self.jobs = jobs
        self.started = started
        self.remote = ray.remote(run_batch_safe)
        self.next = 0
        self.pending: dict[Any, tuple[int, float]] = {}
        self.seconds_per_race: float | None = None

    def _submit(self) -> None:
        total = len(self.work.indices)
        while self.next < total and len(self.pending) < 2 * self.jobs:
            size = 1 if self.seconds_per_race is None else max(1, int(RAY_TASK_SECONDS / self.seconds_per_race))
            positions = range(self.next, min(total, self.next + size))
            self.next = positions.stop
            ref = self.remote.remote(self.work.part(positions))
            self.pending[ref] = (len(positions), time.monotonic())

    def results(self) -> Iterator[Bunch]:
        ray = self.ray
        self._submit()
        while self.pending:
            done, _ = ray.wait(list(self.pending), num_returns=1, timeout=1.0)
            for ref in done:
                count, started = self.pending.pop(ref)
                lines, error = ray.get(ref)
                if error is not None:
                    raise RaceFailed(error)
                took = (time.monotonic() - started) / count
                self.seconds_per_race = took if self.seconds_per_race is None else min(self.seconds_per_race, took)
                self._submit()
                yield bunch(lines)

    def stop(self) -> Iterator[Bunch]:
        for ref in self.pending:
            self.ray.cancel(ref, force=True)
        self.pending.clear()
        return iter(())

    def close(self) -> None:
        if self.started:
            self.ray.shutdown()


Executor = InProcess | Processes | RayTasks


def executor(work: RaceSpec, jobs: int, backend: str, address: str | None, verbose: bool = False) -> Executor:
    """The executor for ``backend`` (connecting to Ray first: a clear error if it cannot; ``verbose``: with
    Ray's own log lines)."""
    if backend == "ray":
        started = connect_ray(jobs, address, verbose=verbose)
        return RayTasks(work, jobs, started)
    if jobs == 1 or len(work.indices) <= 1:
        return InProcess(work)
    return Processes(work, jobs)
