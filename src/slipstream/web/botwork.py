"""Fair bot work: the server's queue of bot moves in front of the bot workers (``botpool``).

A bot's move is a job. Jobs wait here, never in the process pool, and go to a worker only when one is
free, so:

- **a move is never lost**: when the workers are replaced (a search past its deadline cannot be
  cancelled, only killed with its process), the jobs that were running on them go back to the front of
  the queue and are asked again; those still queued here are not touched;
- **the deadline is the bot's own**: ``deadline`` counts from the moment a worker takes the job, not
  while it waits its turn behind other matches' searches;
- **one match cannot starve the others**: the jobs are taken match by match in turn (round robin), and
  quick bots (``heuristic``, a search of at most ``QUICK_SECONDS``) have a lane of their own: searches
  use at most all workers but one, so a quick bot never waits for a search to end.

``BotWork.choose`` answers the bot's action, or raises ``BotLate`` (past its deadline: its workers were
replaced), ``BotBroke`` (it broke its workers three times) or ``BotFailed`` (it failed in its worker);
the server then plays a random legal action for the seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from slipstream.bots.registry import parse_mcts
from slipstream.engine.errors import SlipstreamError

from . import botpool

log = logging.getLogger("slipstream.web")

QUICK_SECONDS = 0.5
"""A bot that thinks at most this long a move takes the quick lane (``mcts:0.25s`` does)."""
DEEP_SECONDS = 1.0
"""A search that may think longer than this a move is a deep search (``mcts:3s``), capped per address
and server-wide (``Limits.deep_searches_per_address``, ``Limits.deep_searches``)."""
BREAKS = 3
"""Times a job may break its workers before it is given up (``BotBroke``)."""


def thinking_seconds(bot: str) -> float:
    """How long bot ``bot`` may think a move: a search's time bound (plain ``mcts``: about 1 s), 0 for
    the bots that do not search."""
    parts = bot.split(":")
    if parts[0] != "mcts":
        return 0.0
    try:
        _playouts, seconds, _heuristic = parse_mcts(":".join(p for p in parts if p != "uct"))
    except SlipstreamError:
        return 0.0
    return 1.0 if seconds is None else seconds


def is_deep(bot: str | None) -> bool:
    """Whether a seat's bot is a deep search (``DEEP_SECONDS``)."""
    return bot is not None and thinking_seconds(bot) > DEEP_SECONDS


class BotLate(Exception):
    """The bot was still thinking at its deadline: its workers were replaced."""


class BotBroke(Exception):
    """The bot broke its workers ``BREAKS`` times."""


class BotFailed(Exception):
    """The bot failed in its worker (it could not be made, or it raised)."""


@dataclass(eq=False)
class Job:
    """One bot move asked: the match it is for, ``botpool.choose``'s arguments, its lane, its answer."""

    match_id: str
    args: tuple[Any, ...]
    search: bool
    answer: asyncio.Future[str]
    running: Future[str] | None = None
    """The worker's future while a worker has the job (``None`` while it waits here)."""
    pool: ProcessPoolExecutor | None = None
    timer: asyncio.TimerHandle | None = None
    breaks: int = 0
    asked: int = field(default=0)
    """Times the job was given to a worker (more than once: its workers were replaced meanwhile)."""


class BotWork:
    """The queue of bot moves and the workers that answer them (see the module's docstring)."""

    def __init__(
        self,
        workers: int,
        plugins: list[str],
        deadline: float,
        make_pool: Callable[[int, list[str]], ProcessPoolExecutor] = botpool.make_pool,
    ) -> None:
        self.workers = max(1, workers)
        self.plugins = plugins
        self.deadline = deadline
        self.make_pool = make_pool
        self.pool = make_pool(self.workers, plugins)
        self.lanes: dict[bool, OrderedDict[str, deque[Job]]] = {False: OrderedDict(), True: OrderedDict()}
        """Jobs waiting, by lane (``True``: searches), then by match in the order they get their turn."""
        self.running: set[Job] = set()
        self.replaced = 0
        """Times the workers were replaced."""
        self.on_dispatch: Callable[[str], None] | None = None
        """Told the match id whenever one of its jobs goes to a worker (the watchdog's sign of progress)."""

    @property
    def search_slots(self) -> int:
        """Workers searches may hold at once: all but one (kept for quick bots), at least one."""
        return max(1, self.workers - 1)

    async def choose(self, match_id: str, args: tuple[Any, ...], seconds: float) -> str:
        """The action ``botpool.choose(*args)`` answers, for a bot that thinks up to ``seconds`` a move."""
        job = Job(match_id, args, seconds > QUICK_SECONDS, asyncio.get_running_loop().create_future())
        self._queue(job)
        self._pump()
        try:
            return await job.answer
        finally:
            if not job.answer.done():  # the caller was cancelled: its job is dropped (or its answer ignored)
                job.answer.cancel()
            self._unqueue(job)

    def busy(self, match_id: str) -> bool:
        """Whether a job of this match waits here or runs on a worker."""
        return any(job.match_id == match_id for job in self.running) or any(
            match_id in lane for lane in self.lanes.values()
        )

    def waiting(self) -> int:
        return sum(len(jobs) for lane in self.lanes.values() for jobs in lane.values())

    def replace(self) -> None:
        """Kill the workers and start fresh ones; every job they were running is asked again first."""
        old = self.pool
        self.pool = self.make_pool(self.workers, self.plugins)
        self.replaced += 1
        for job in list(self.running):
            self._stop(job)
            self._queue(job, front=True)
        botpool.kill_pool(old)
        self._pump()

    def shutdown(self) -> None:
        for job in list(self.running):
            self._stop(job)
        for lane in self.lanes.values():
            for jobs in lane.values():
                for job in jobs:
                    job.answer.cancel()
            lane.clear()
        botpool.kill_pool(self.pool)

    # --- the queue -------------------------------------------------------------------------

    def _queue(self, job: Job, front: bool = False) -> None:
        lane = self.lanes[job.search]
        jobs = lane.setdefault(job.match_id, deque())
        if front:
            jobs.appendleft(job)
            lane.move_to_end(job.match_id, last=False)
        else:
            jobs.append(job)

    def _unqueue(self, job: Job) -> None:
        lane = self.lanes[job.search]
        jobs = lane.get(job.match_id)
        if jobs is not None and job in jobs:
            jobs.remove(job)
            if not jobs:
                del lane[job.match_id]

    def _next(self) -> Job | None:
        """The next job for a free worker: the quick lane first; a search only while searches hold
        fewer than ``search_slots`` workers. Within a lane the matches take turns."""
        searching = sum(1 for job in self.running if job.search)
        for search in (False, True):
            if search and searching >= self.search_slots:
                continue
            lane = self.lanes[search]
            while lane:
                match_id, jobs = next(iter(lane.items()))
                job = jobs.popleft()
                if jobs:
                    lane.move_to_end(match_id)
                else:
                    del lane[match_id]
                if not job.answer.done():
                    return job
        return None

    def _pump(self) -> None:
        while len(self.running) < self.workers:
            job = self._next()
            if job is None:
                return
            self._dispatch(job)

    def _dispatch(self, job: Job) -> None:
        loop = asyncio.get_running_loop()
        try:
            running: Future[str] = self.pool.submit(botpool.choose, *job.args)
        except (RuntimeError, BrokenProcessPool):  # the pool broke by itself: fresh workers, ask again
            self._queue(job, front=True)
            self.replace()
            return
        job.running, job.pool, job.asked = running, self.pool, job.asked + 1
        self.running.add(job)
        job.timer = loop.call_later(self.deadline, self._late, job, running)
        running.add_done_callback(lambda done: _call_soon(loop, self._done, job, done))
        if self.on_dispatch is not None:
            self.on_dispatch(job.match_id)

    def _stop(self, job: Job) -> None:
        """The job is no longer on a worker (its later answer, if any, is ignored)."""
        self.running.discard(job)
        job.running = None
        if job.timer is not None:
            job.timer.cancel()
            job.timer = None

    def _done(self, job: Job, done: Future[str]) -> None:
        if job.running is not done:
            return  # an answer from workers already replaced: the job was asked again
        pool = job.pool
        self._stop(job)
        if job.answer.done():
            pass  # nobody waits for it any more
        elif done.cancelled():
            self._queue(job, front=True)
        else:
            error = done.exception()
            if error is None:
                job.answer.set_result(done.result())
            elif isinstance(error, BrokenProcessPool):
                if pool is self.pool:  # its workers broke (not replaced by us): it may be the cause
                    job.breaks += 1
                if job.breaks >= BREAKS:
                    job.answer.set_exception(BotBroke())
                else:
                    self._queue(job, front=True)
                if pool is self.pool:
                    self.replace()
                    return
            else:
                job.answer.set_exception(BotFailed(repr(error)))
        self._pump()

    def _late(self, job: Job, running: Future[str]) -> None:
        if job.running is not running:
            return
        self._stop(job)
        if not job.answer.done():
            job.answer.set_exception(BotLate())
        self.replace()


def _call_soon(loop: asyncio.AbstractEventLoop, fn: Callable[..., None], *args: Any) -> None:
    """Run ``fn`` on the event loop (a worker's future completes on the pool's own thread)."""
    with contextlib.suppress(RuntimeError):  # the loop is closed: the server is stopping
        loop.call_soon_threadsafe(fn, *args)
