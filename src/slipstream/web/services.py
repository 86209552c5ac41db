"""What every job of the hub shares: the database and where its calls run, the background tasks, the
server's limits, and this process among the others that share the database (``peer_poll`` > 0)."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from .limits import Limits
from .storage import Store

T = TypeVar("T")
PRESENCE_EVERY = 10.0
"""Seconds between the stored sightings of the players a process sees (several processes), at most."""


class Services:
    """The store, its threads, the tasks running in the background, the limits and the other processes."""

    def __init__(self, store: Store, limits: Limits, peer_poll: float = 0.0) -> None:
        self.store = store
        self.limits = limits
        self.peer_poll = peer_poll
        """Seconds between looks at the matches other server processes changed (0: one process)."""
        self.db_pool = ThreadPoolExecutor(1 if store.is_sqlite else 4, thread_name_prefix="slipstream-db")
        self.tasks: set[asyncio.Task[None]] = set()
        """Every task the hub started and that has not ended (cancelled at ``Hub.shutdown``)."""
        self.process_id = secrets.token_hex(8)
        """This server process among those sharing the database (its stored presence rows)."""
        self.presence_every = min(PRESENCE_EVERY, limits.claim_grace / 4)
        """Seconds between the stored sightings of the players here (several processes only)."""

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a storage call: on the database threads for PostgreSQL (network round trips), on the
        event loop itself for SQLite, where a call is a local read or a commit without fsync (WAL) that
        costs less than the thread hop (the hop's GIL hand-overs delayed every other move by
        milliseconds under load)."""
        if self.store.is_sqlite:
            return fn(*args)
        return await asyncio.get_running_loop().run_in_executor(self.db_pool, fn, *args)

    def spawn(self, job: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run ``job`` in the background, kept in ``tasks`` until it ends."""
        task = asyncio.get_running_loop().create_task(job)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    @property
    def several(self) -> bool:
        """Whether other server processes may share the database (they are watched: ``peers``)."""
        return self.peer_poll > 0

    @property
    def remote_window(self) -> float:
        """Seconds within which another process's stored sighting of a player means they are there
        (``Room.here``): a few of its sightings' intervals; 0 with one process."""
        return 2.5 * self.presence_every if self.peer_poll > 0 else 0.0

    def close(self) -> None:
        """The database threads end (after their calls) and the store closes."""
        self.db_pool.shutdown(wait=True)
        self.store.close()
