"""Writes to the database, each conditional on the match as this process holds it, and steps
committed in batches: a seat's step with the chance steps that follow it in one transaction, and the
moves of many rooms that arrive while a commit runs in the next one (``GroupCommit``).

The database is the truth several server processes share: a write made on a stale room changes nothing
(``Conflict``, ``storage.Stale``); the room catches up (``RoomCache.refresh``) and the change is decided
again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from slipstream.engine.game import CHANCE, State

from . import clock, dice
from .errors import ApiError
from .room import Room
from .rooms import RoomCache
from .services import Services
from .storage import ChatLine, MoveData, Stale

log = logging.getLogger("slipstream.web")
Write = tuple[Callable[..., int], tuple[Any, ...]]
"""A conditional write: a ``Store`` method taking ``(match id, Mark, *args)`` and its ``args``."""
MAX_BATCH = 200
"""Chance steps committed and sent together with the step before them, at most."""
RETRIES = 3
"""Times a write is decided again after another server process changed the match first."""
LINE_WAIT = 0.05
"""Seconds a chat line (or a note of the log) waits for the moves' next commit before it is committed
on its own (``GroupCommit.add_line``): a line costs no commit of its own while moves flow, and at most
this much delay, which nobody reading a chat notices, when none do."""


class Conflict(Exception):
    """Another server process stored this ply of the match first (the database is the shared truth)."""


def is_conflict(exc: BaseException) -> bool:
    """Whether a failed commit was a ply already stored (a unique key broken), not a failing database."""
    import sqlite3

    from sqlalchemy.exc import IntegrityError

    if isinstance(exc, sqlite3.IntegrityError | IntegrityError):
        return True
    try:
        import psycopg
    except ImportError:  # pragma: no cover - psycopg is a dependency
        return False
    return isinstance(exc, psycopg.IntegrityError)


def draw(room: Room, state: State) -> str:
    """The chance outcome at this state, from the match's secret key (never from its seed)."""
    key = room.data.chance_key
    if key is None:  # a match stored before keys existed: ``RoomCache`` gives it one on load
        raise RuntimeError(f"match {room.data.id} has no chance key")
    return dice.draw(key, state.ply, state.chance_outcomes())


def with_chance(room: Room, new: State, move: MoveData) -> list[tuple[State, MoveData]]:
    """A step and the chance steps that follow it (drawn from the match's key), to be committed
    and sent together: one database write and one message per seat instead of one per step."""
    steps = [(new, move)]
    while new.actor == CHANCE and len(steps) < MAX_BATCH:
        outcome = draw(room, new)
        move = MoveData(new.ply, outcome)
        new = new.apply(outcome)
        steps.append((new, move))
    return steps


class Writer:
    """Every write of a room's change: steps (``commit``) and the rest (``conditional``)."""

    def __init__(self, services: Services, cache: RoomCache) -> None:
        self.services = services
        self.cache = cache
        self.batches = GroupCommit(services)

    async def commit(self, room: Room, steps: list[tuple[State, MoveData]]) -> None:
        """Store the steps in one transaction, then change the room and tell every client."""
        new = steps[-1][0]
        status = "finished" if new.is_over else None
        at = clock.now()
        for _state, move in steps:
            if move.at is None:
                move.at = at
        try:
            await self.batches.append(room.data.id, [m for _s, m in steps], status, room.data.rev or 0)
        except Exception as exc:
            if is_conflict(exc):
                raise Conflict(f"match {room.data.id}: ply {steps[0][1].ply} is already stored") from exc
            log.exception("match %s: could not save ply %s", room.data.id, steps[0][1].ply)
            raise ApiError(503, "unavailable", "the action could not be saved; nothing changed") from exc
        for state, move in steps:
            room.set_state(state, move)
        room.data.updated_at = clock.now()
        if status:
            room.data.status = status
            self.cache.evict()
        room.broadcast()

    async def conditional(self, room: Room, decide: Callable[[], Write | None], seat: int | None = None) -> bool:
        """Decide a change and write it, conditional on the match as the room holds it (the caller
        holds the room's lock). ``decide`` checks the request against the room (raising ``ApiError``)
        and gives the write (``None``: nothing to write); the write is made only if the database still
        holds the match as the room does (``Room.mark``), and the room then takes the new revision.
        If another server process changed the match first, nothing is written: the room catches up
        (``RoomCache.refresh``) and ``decide`` runs again on the match as it now is. With several
        processes a refusal is also decided on the caught-up match (the room may be behind). Whether it
        wrote."""
        caught_up = False
        for _attempt in range(RETRIES + 1):
            try:
                planned = decide()
            except ApiError:
                if caught_up or not self.services.several:
                    raise
                caught_up = True
                if not await self.cache.refresh(room):
                    raise
                continue
            if planned is None:
                return False
            write, args = planned
            try:
                room.data.rev = await self.services.db(write, room.data.id, room.mark(), *args)
                return True
            except Stale:
                caught_up = True
                await self.cache.refresh(room)
        raise moved_on(room, seat)


def moved_on(room: Room, seat: int | None = None) -> ApiError:
    """The answer when another process kept changing the match while this one decided (``RETRIES``)."""
    return ApiError(409, "stale", "the match changed in another server process; try again", ply=room.shown(seat))


class GroupCommit:
    """Moves from many rooms, and chat lines, that arrive while a commit runs go to the database
    together in the next one: a busy server makes a few large commits instead of one per move or
    line. A line waits up to ``LINE_WAIT`` for a move to commit with, so while moves flow it costs one
    more INSERT in their commit, not a commit of its own. A batch the database refuses is retried one
    room (or line) at a time, so one room's failure is only that room's.

    Where the commit runs is ``Services.db``'s choice: on the event loop for SQLite (in WAL mode with
    ``synchronous=NORMAL`` a commit does not wait for the disk, about 0.25 ms), on the database threads
    for PostgreSQL."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.pending: list[tuple[str, list[MoveData], str | None, int, asyncio.Future[None]]] = []
        self.lines: list[tuple[str, ChatLine, asyncio.Future[int]]] = []
        self.running = False
        self.line_timer: asyncio.TimerHandle | None = None
        """When the waiting lines are committed on their own if no move came first (``LINE_WAIT``)."""

    async def append(self, match_id: str, moves: list[MoveData], status: str | None, rev: int) -> None:
        """Store ``moves`` (and a new ``status``) if the match is still at revision ``rev``."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.pending.append((match_id, moves, status, rev, future))
        self._start()
        await future

    async def add_line(self, match_id: str, line: ChatLine) -> int:
        """Store a chat line (or a note of the log) of a match: its id."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[int] = loop.create_future()
        self.lines.append((match_id, line, future))
        if not self.running and self.line_timer is None:
            self.line_timer = loop.call_later(LINE_WAIT, self._start)
        return await future

    def _start(self) -> None:
        if self.line_timer is not None:  # this commit takes the waiting lines
            self.line_timer.cancel()
            self.line_timer = None
        if not self.running:
            self.running = True
            self.services.spawn(self._run())

    async def _run(self) -> None:
        store = self.services.store
        try:
            while self.pending or self.lines:
                await asyncio.sleep(0)  # let the moves and lines that are ready join this commit
                batch, self.pending = self.pending, []
                lines, self.lines = self.lines, []
                rows = [(m, moves, st, rev) for m, moves, st, rev, _f in batch]
                said = [(m, line) for m, line, _f in lines]
                futures: list[asyncio.Future[Any]] = [f for *_row, f in batch] + [f for _m, _line, f in lines]
                outcomes: list[object]
                try:
                    ids = await self.services.db(store.append_many, rows, None, said)
                    outcomes = [None] * len(batch) + list(ids)
                except Exception as exc:
                    if len(futures) == 1:
                        outcomes = [exc]
                    else:
                        outcomes = []
                        for row in rows:
                            stored = await self._alone(store.append_many, [row])
                            outcomes.append(stored if isinstance(stored, BaseException) else None)
                        for one in said:
                            outcomes.append(await self._alone(store.add_chat, *one))
                for future, outcome in zip(futures, outcomes, strict=True):
                    if future.done():
                        continue
                    if isinstance(outcome, BaseException):
                        future.set_exception(outcome)
                    else:
                        future.set_result(outcome)
        finally:
            self.running = False

    async def _alone(self, write: Callable[..., Any], *args: Any) -> Any:
        """One write of a refused batch on its own: what it returned, or why it failed."""
        try:
            return await self.services.db(write, *args)
        except Exception as exc:
            return exc
