"""Persistence: matches, seats and the append-only list of moves, in SQLite or PostgreSQL.

A match is stored as its record (game, options, seed) plus one row per applied action, so the
server restores a match by replaying its moves through the engine. Every method is synchronous;
the app calls them on its database thread so the event loop never waits on disk.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import create_engine, event, func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from . import clock
from .tables import (
    Base,
    ChanceKeyRow,
    ChatRow,
    ListingRow,
    MatchRow,
    MoveRow,
    MuteRow,
    PaceRow,
    PresenceRow,
    RematchRow,
    RevisionRow,
    SeatHoldRow,
    SeatRow,
    TurnTimerRow,
)

T = TypeVar("T")
log = logging.getLogger("slipstream.web")

DEFAULT_SQLITE = "slipstream.sqlite3"


@dataclass
class SeatData:
    seat: int
    kind: str = "open"
    name: str = ""
    bot: str | None = None
    token_hash: str | None = None


@dataclass
class MoveData:
    ply: int
    action: str
    seat: int | None = None
    client_id: str | None = None
    at: float | None = None
    """When the move was stored (``clock.now()``): a decision it began counts its turn timer from
    then, across restarts. ``None``: not stamped yet (stored with the commit's time)."""


@dataclass
class MatchData:
    id: str
    game_id: str
    version: str
    options: dict[str, Any]
    seed: int
    status: str
    title: str
    host_hash: str
    created_at: float
    updated_at: float
    seats: list[SeatData] = field(default_factory=list)
    moves: list[MoveData] = field(default_factory=list)
    chance_key: str | None = None
    """256 secret bits (hex) the server draws this match's chance outcomes from."""
    turn_seconds: int | None = None
    """Seconds a player has for each decision before a bot plays it (``None``: no timer)."""
    pace: str = "live"
    """``live`` or a turn-based pace (``web/pace.py``; ``PaceRow``)."""
    rev: int | None = None
    """The match's revision as read (``RevisionRow``); ``None``: stored before revisions existed."""
    public: bool = False
    """Whether the host lists the match publicly (``ListingRow``)."""
    holds: dict[int, tuple[str, float]] = field(default_factory=dict)
    """Seats a rematch holds for their players: seat -> (name, until) (``SeatHoldRow``)."""
    rematch_id: str | None = None
    """The id of this match's rematch, once one was made (``RematchRow``) ..."""
    rematch_until: float | None = None
    """... and until when it holds its players' seats (``SeatHoldRow``)."""


@dataclass
class ChatLine:
    """One line of a match's table chat (``ChatRow``)."""

    kind: str
    seat: int | None
    viewer: str
    name: str
    text: str
    ply: int
    at: float
    id: int | None = None
    shown: str | None = None
    """A note's place in each seat's log (``ChatRow.shown``)."""


@dataclass(frozen=True)
class Mark:
    """What a server process saw of a match when it decided a write: the revision and the stored moves
    (how many, and the last one's action). A conditional write (``Store.take_back``, ``set_seats``,
    ``set_status``) is made only if the database still holds exactly that."""

    rev: int
    moves: int
    last: str | None


class Stale(Exception):
    """A conditional write found the match changed since the process read it (another process moved it
    on, undid a step or changed a seat): nothing was written; the process catches up and decides again."""


def normalize_url(url: str) -> str:
    """A SQLAlchemy URL: ``postgresql://`` uses psycopg 3, a bare path means a SQLite file."""
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    if "://" not in url:
        return f"sqlite:///{Path(url).resolve()}"
    return url


STAMP_SECONDS = 60.0
"""A live match's ``updated_at`` is written with its moves at most this often (see ``Store.append_many``)."""
PING_AFTER = 1.0
"""Seconds unused after which the commit connection is pinged before its next commit."""
INSERT_ROWS = 500
"""Moves per ``INSERT`` statement on SQLite (it takes at most 32,766 values in one)."""
INSERT_MOVES = "INSERT INTO moves (match_id, ply, action, seat, client_id, at) "
"""The moves' columns, in the order ``append_many`` gives their values."""
CONDITIONAL_ACTION = "CASE WHEN (SELECT rev FROM revisions WHERE match_id = {p}) = {p} THEN {p} END"
"""SQLite: a move's action, or none (which its column refuses, so the whole ``INSERT`` fails) when its
match is no longer at the revision the process read (parameters: match id, revision, action)."""
INSERT_MOVES_FROM_ARRAYS = INSERT_MOVES + (
    "SELECT u.match_id, u.ply, CASE WHEN (SELECT r.rev FROM revisions r WHERE r.match_id = u.match_id FOR SHARE) "
    "= u.rev THEN u.action END, u.seat, u.client_id, u.at "
    "FROM unnest(%s::varchar[], %s::integer[], %s::varchar[], %s::integer[], %s::varchar[], %s::float8[], "
    "%s::integer[]) AS u(match_id, ply, action, seat, client_id, at, rev)"
)
"""PostgreSQL: every move of a commit as seven arrays, one per column and the revision it was decided at.
The statement's text is the same whatever the number of moves, so psycopg converts it once (a ``VALUES``
list of as many rows as moves is new text nearly every commit: parsing it for placeholders cost the
server a tenth of its time at 1,000 games) and, after a few runs, prepares it on the server. A move whose
match is no longer at its revision gets no action, which the column refuses: the statement fails as a
whole. The revision is read ``FOR SHARE``: a conditional write (``Store._guarded``) holding the row
locked makes it wait, and then read the new revision."""


INSERT_CHAT = (
    "INSERT INTO chat_lines (match_id, kind, seat, viewer, name, text, ply, at, shown) "
    "VALUES ({p}, {p}, {p}, {p}, {p}, {p}, {p}, {p}, {p}) RETURNING id"
)
"""A chat line (``ChatLine``'s fields after its match id; ``p``: the driver's placeholder), and its id."""


def _run(cursor: Any, statements: Sequence[tuple[str, Sequence[Any], bool]]) -> None:
    """Execute ``(sql, parameters, many)`` statements on a driver cursor (``many``: ``executemany``)."""
    for sql, params, many in statements:
        if many:
            cursor.executemany(sql, params)
        else:
            cursor.execute(sql, params)


CHECKPOINT_EVERY = 0.5
"""Seconds between the ``Checkpointer``'s copies of SQLite's write-ahead log into the database file."""


class Checkpointer(threading.Thread):
    """SQLite: copies the write-ahead log into the database file (a passive checkpoint) every
    ``CHECKPOINT_EVERY`` seconds on its own thread and connection, while the server's connections do no
    checkpoint of their own (``wal_autocheckpoint=0``). SQLite's own checkpoint runs inside the commit
    that fills the log to 1,000 pages, and the server commits on its event loop (``Services.db``): at
    500 games that was a commit of 5-8 ms once a second, every move waiting on the loop held up by it. A
    passive checkpoint never waits for the writer, nor the writer for it; the log is written over from
    its start once a checkpoint has copied all of it."""

    def __init__(self, path: str) -> None:
        super().__init__(name="slipstream-checkpoint", daemon=True)
        self.path = path
        self.stopped = threading.Event()

    def run(self) -> None:
        import sqlite3

        connection = sqlite3.connect(self.path)
        try:
            while not self.stopped.wait(CHECKPOINT_EVERY):
                try:
                    connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error:
                    log.exception("a checkpoint of %s failed; the next one tries again", self.path)
        finally:
            connection.close()

    def stop(self) -> None:
        self.stopped.set()
        self.join(timeout=5)


class Store:
    """The database behind the server."""

    def __init__(self, url: str, checkpoint_thread: bool = False) -> None:
        """``checkpoint_thread``: SQLite in a file checkpoints on a thread of its own (``Checkpointer``),
        never in a commit."""
        self.url = normalize_url(url)
        self.is_sqlite = self.url.startswith("sqlite")
        self._mark = "?" if self.is_sqlite else "%s"
        """The driver's placeholder in raw SQL."""
        kwargs: dict[str, Any] = {}
        if self.is_sqlite:
            kwargs["connect_args"] = {"check_same_thread": False}
        else:
            kwargs["pool_pre_ping"] = True
        self.engine: Engine = create_engine(self.url, **kwargs)
        self._commit_lock = threading.Lock()
        self._commit_conn: Any = None
        """PostgreSQL: the connection ``append_many`` keeps (see ``_commit``)."""
        self._commit_used = 0.0
        self._stamped: dict[str, float] = {}
        """When ``append_many`` last wrote each live match's ``updated_at``."""
        path = self.engine.url.database if self.is_sqlite else None
        self.checkpointer = Checkpointer(path) if checkpoint_thread and path and path != ":memory:" else None
        if self.is_sqlite:
            pragmas = functools.partial(_sqlite_pragmas, auto_checkpoint=self.checkpointer is None)
            event.listen(self.engine, "connect", pragmas)
        Base.metadata.create_all(self.engine)
        if self.checkpointer is not None:
            self.checkpointer.start()

    def close(self) -> None:
        if self.checkpointer is not None:
            self.checkpointer.stop()
        with self._commit_lock:
            if self._commit_conn is not None:
                with contextlib.suppress(Exception):
                    self._commit_conn.close()
                self._commit_conn = None
        self.engine.dispose()

    # --- writes --------------------------------------------------------------------------

    def create_match(self, data: MatchData, rematch_of: str | None = None) -> None:
        """Store a new match (with its seats and chance key); ``rematch_of``: the finished match whose
        rematch it is (linked in the same transaction, so a match has at most one rematch)."""
        p = self._mark
        with self._raw() as cursor:
            cursor.execute(
                "INSERT INTO matches (id, game_id, version, options, seed, status, title, host_hash, created_at, "
                f"updated_at) VALUES ({p}, {p}, {p}, {p}, {p}, {p}, {p}, {p}, {p}, {p})",
                (data.id, data.game_id, data.version, json.dumps(data.options), data.seed, data.status,
                 data.title, data.host_hash, data.created_at, data.updated_at),
            )
            if data.chance_key is not None:
                cursor.execute(f"INSERT INTO chance_keys (match_id, key) VALUES ({p}, {p})", (data.id, data.chance_key))
            if data.turn_seconds is not None:
                cursor.execute(
                    f"INSERT INTO turn_timers (match_id, seconds) VALUES ({p}, {p})", (data.id, data.turn_seconds)
                )
            if data.pace != "live":
                cursor.execute(f"INSERT INTO paces (match_id, pace) VALUES ({p}, {p})", (data.id, data.pace))
            cursor.executemany(
                "INSERT INTO seats (match_id, seat, kind, name, bot, token_hash) "
                f"VALUES ({p}, {p}, {p}, {p}, {p}, {p})",
                [(data.id, s.seat, s.kind, s.name, s.bot, s.token_hash) for s in data.seats],
            )
            cursor.execute(f"INSERT INTO revisions (match_id, rev) VALUES ({p}, {p})", (data.id, data.rev or 0))
            if data.public:
                cursor.execute(f"INSERT INTO listings (match_id) VALUES ({p})", (data.id,))
            if rematch_of is not None:
                cursor.execute(f"INSERT INTO rematches (match_id, next_id) VALUES ({p}, {p})", (rematch_of, data.id))
            cursor.executemany(
                f"INSERT INTO seat_holds (match_id, seat, name, until) VALUES ({p}, {p}, {p}, {p})",
                [(data.id, seat, name, until) for seat, (name, until) in data.holds.items()],
            )

    def rematch_of(self, match_id: str) -> str | None:
        """The id of a match's rematch, if one was made."""
        with Session(self.engine) as session:
            row = session.get(RematchRow, match_id)
            return row.next_id if row is not None else None

    @contextlib.contextmanager
    def _guarded(self, match_id: str, mark: Mark) -> Iterator[Any]:
        """A transaction that goes on only if the match is as ``mark`` says (else ``Stale``, nothing
        written): the revision is the same, and the stored moves are as many with the same last action.
        The revision goes up by one in it. The check and the writes after it are one transaction that
        no new move of the match can slip into: on SQLite the first statement (the check, a write) takes
        the database's write lock; on PostgreSQL the revision's row is locked first, so the check sees
        every move committed before, and a new move (``append_many`` reads the revision ``FOR SHARE``)
        waits for the end and then finds the revision changed."""
        p = self._mark
        with self._raw() as cursor:
            if not self.is_sqlite:
                cursor.execute(f"SELECT rev FROM revisions WHERE match_id = {p} FOR UPDATE", (match_id,))
            cursor.execute(
                f"UPDATE revisions SET rev = rev + 1 WHERE match_id = {p} AND rev = {p} "
                f"AND (SELECT count(*) FROM moves WHERE match_id = {p}) = {p} "
                f"AND COALESCE((SELECT action FROM moves WHERE match_id = {p} AND ply = {p}), '') = {p}",
                (match_id, mark.rev, match_id, mark.moves, match_id, mark.moves - 1, mark.last or ""),
            )
            if cursor.rowcount != 1:
                raise Stale(f"match {match_id} changed since revision {mark.rev} and {mark.moves} moves")
            yield cursor

    def take_back(self, match_id: str, mark: Mark, from_ply: int, kept: Sequence[MoveData] = ()) -> int:
        """Delete the moves from ``from_ply`` on (an undo) and store ``kept`` in their place (other
        seats' secret steps taken after the undone one, each a ply earlier), in one transaction, if the
        stored moves are still those ``mark`` saw (else ``Stale``): the new revision."""
        now = clock.now()
        p = self._mark
        with self._guarded(match_id, mark) as cursor:
            cursor.execute(f"DELETE FROM moves WHERE match_id = {p} AND ply >= {p}", (match_id, from_ply))
            if kept:
                cursor.executemany(
                    INSERT_MOVES + f"VALUES ({p}, {p}, {p}, {p}, {p}, {p})",
                    [(match_id, m.ply, m.action, m.seat, m.client_id, now if m.at is None else m.at) for m in kept],
                )
            cursor.execute(f"UPDATE matches SET updated_at = {p} WHERE id = {p}", (now, match_id))
        return mark.rev + 1

    def set_seats(self, match_id: str, mark: Mark, seats: Sequence[SeatData]) -> int:
        """Change seats in one transaction, if the match is as ``mark`` saw it (else ``Stale``): the new
        revision."""
        p = self._mark
        with self._guarded(match_id, mark) as cursor:
            for seat in seats:
                cursor.execute(
                    f"UPDATE seats SET kind = {p}, name = {p}, bot = {p}, token_hash = {p} "
                    f"WHERE match_id = {p} AND seat = {p}",
                    (seat.kind, seat.name, seat.bot, seat.token_hash, match_id, seat.seat),
                )
                if cursor.rowcount == 0:
                    raise KeyError(f"no seat {seat.seat} in match {match_id}")
            cursor.execute(f"UPDATE matches SET updated_at = {p} WHERE id = {p}", (clock.now(), match_id))
        return mark.rev + 1

    def ensure_revision(self, match_id: str) -> None:
        """Give a match stored before revisions existed its revision row (once; a second call does nothing)."""
        p = self._mark
        with self._raw() as cursor:
            cursor.execute(
                f"INSERT INTO revisions (match_id, rev) VALUES ({p}, 0) ON CONFLICT (match_id) DO NOTHING", (match_id,)
            )

    def set_chance_key(self, match_id: str, key: str) -> None:
        """Give a match stored before chance keys existed its key (once: a second key for it fails)."""
        with Session(self.engine) as session, session.begin():
            session.add(ChanceKeyRow(match_id=match_id, key=key))

    def set_status(self, match_id: str, mark: Mark, status: str) -> int:
        """A new status, if the match is as ``mark`` saw it (else ``Stale``): the new revision."""
        p = self._mark
        with self._guarded(match_id, mark) as cursor:
            cursor.execute(
                f"UPDATE matches SET status = {p}, updated_at = {p} WHERE id = {p}", (status, clock.now(), match_id)
            )
        self._stamped.pop(match_id, None)  # dated just now; a finished match is no longer tracked
        return mark.rev + 1

    def add_chat(self, match_id: str, line: ChatLine) -> int:
        """Store a chat line (committed when this returns): its id (``append_many`` with a line and no
        moves; the server's lines go with the moves' next commit: ``commits.GroupCommit``)."""
        return self.append_many((), lines=[(match_id, line)])[0]

    def chat(self, match_id: str) -> tuple[list[ChatLine], set[str]]:
        """A match's chat lines in the order they were said, and the muted spectators."""
        with Session(self.engine) as session:
            rows = session.scalars(select(ChatRow).where(ChatRow.match_id == match_id).order_by(ChatRow.id)).all()
            muted = set(session.scalars(select(MuteRow.viewer).where(MuteRow.match_id == match_id)).all())
        lines = [ChatLine(r.kind, r.seat, r.viewer, r.name, r.text, r.ply, r.at, r.id, r.shown) for r in rows]
        return lines, muted

    def chat_after(self, ids: Sequence[str], after: int) -> list[tuple[str, ChatLine]]:
        """The chat lines of these matches stored with an id above ``after``, in the order stored, each
        with its match id (a process's poll for the lines said through the others: ``ChatDesk.catch_up``)."""
        if not ids:
            return []
        with Session(self.engine) as session:
            rows = session.scalars(
                select(ChatRow).where(ChatRow.match_id.in_(ids), ChatRow.id > after).order_by(ChatRow.id)
            ).all()
        return [(r.match_id, ChatLine(r.kind, r.seat, r.viewer, r.name, r.text, r.ply, r.at, r.id, r.shown))
                for r in rows]

    def is_muted(self, match_id: str, viewer: str) -> bool:
        """Whether the host muted this spectator in this match's chat (through any process)."""
        with Session(self.engine) as session:
            return session.get(MuteRow, (match_id, viewer)) is not None

    def set_mute(self, match_id: str, viewer: str, muted: bool) -> None:
        """Mute (or unmute) a spectator in a match's chat."""
        with Session(self.engine) as session, session.begin():
            row = session.get(MuteRow, (match_id, viewer))
            if muted and row is None:
                session.add(MuteRow(match_id=match_id, viewer=viewer))
            elif not muted and row is not None:
                session.delete(row)

    def store_presence(self, by: str, rows: Sequence[tuple[str, int, float]]) -> None:
        """Process ``by`` saw these ``(match id, seat, when)`` players (kept one row per process and seat)."""
        if not rows:
            return
        p = self._mark
        with self._raw() as cursor:
            cursor.executemany(
                f"INSERT INTO presence (match_id, seat, by, seen_at) VALUES ({p}, {p}, {p}, {p}) "
                "ON CONFLICT (match_id, seat, by) DO UPDATE SET seen_at = excluded.seen_at",
                [(match_id, seat, by, at) for match_id, seat, at in rows],
            )

    def presence(self, match_ids: Sequence[str], other_than: str) -> dict[str, dict[int, float]]:
        """For each match: when the other processes (not ``other_than``) last saw each seat's player."""
        out: dict[str, dict[int, float]] = {i: {} for i in match_ids}
        if not match_ids:
            return out
        with Session(self.engine) as session:
            rows = session.execute(
                select(PresenceRow.match_id, PresenceRow.seat, func.max(PresenceRow.seen_at))
                .where(PresenceRow.match_id.in_(match_ids), PresenceRow.by != other_than)
                .group_by(PresenceRow.match_id, PresenceRow.seat)
            ).all()
        for match_id, seat, seen_at in rows:
            out[match_id][int(seat)] = float(seen_at)
        return out

    def append_many(
        self,
        batches: Sequence[tuple[str, Sequence[MoveData], str | None, int]],
        now: float | None = None,
        lines: Sequence[tuple[str, ChatLine]] = (),
    ) -> list[int]:
        """Commit several matches' moves (and new statuses) and chat ``lines`` (``(match id, line)``) in
        one transaction, all or none: the lines' ids, in their order.

        Each batch is ``(match id, moves, new status or None, revision)``: its moves are stored only if
        the match is still at that revision (``RevisionRow``) and no move has their plies: a process
        that has not caught up with another's undo or seat change stores nothing. The revision is read
        in the ``INSERT`` itself, per move (``CONDITIONAL_ACTION``: a move whose match changed has no
        action, so the statement fails as a whole, one statement and one round trip as before).

        The hot path of a busy server, so it speaks the driver's own SQL (SQLAlchemy's statement
        building cost about 1 ms a commit, most of a move's time): one ``INSERT`` for the moves (on
        SQLite in chunks of ``INSERT_ROWS``, on PostgreSQL from arrays: ``INSERT_MOVES_FROM_ARRAYS``),
        and a match's ``updated_at`` is written with a new status, else at most once every
        ``STAMP_SECONDS`` (it only dates the match for the expiry of abandoned matches, hours long; each
        move has its own time). A chat line is one ``INSERT ... RETURNING id`` more in the same
        transaction: on SQLite, where commits run on the event loop, a line of its own cost a commit and a
        pooled connection, and at 500 games with a line every 5 moves a seat the lines made the moves
        wait."""
        now = clock.now() if now is None else now
        p = self._mark
        moves = [
            (match_id, m.ply, m.action, m.seat, m.client_id, now if m.at is None else m.at, rev)
            for match_id, batch, _status, rev in batches
            for m in batch
        ]
        stamped = self._stamped
        statuses = [(now, status, match_id) for match_id, _batch, status, _rev in batches if status is not None]
        stamps = [(now, match_id) for match_id, _batch, status, _rev in batches
                  if status is None and (match_id not in stamped or now - stamped[match_id] >= STAMP_SECONDS)]
        statements: list[tuple[str, Sequence[Any], bool]] = []
        if self.is_sqlite:
            row = f"({p}, {p}, {CONDITIONAL_ACTION.format(p=p)}, {p}, {p}, {p})"
            for start in range(0, len(moves), INSERT_ROWS):
                chunk = moves[start:start + INSERT_ROWS]
                statements.append((INSERT_MOVES + "VALUES " + ", ".join([row] * len(chunk)),
                                   [v for match_id, ply, action, seat, client_id, at, rev in chunk
                                    for v in (match_id, ply, match_id, rev, action, seat, client_id, at)], False))
        elif moves:
            statements.append((INSERT_MOVES_FROM_ARRAYS, [list(column) for column in zip(*moves, strict=True)], False))
        if stamps:
            statements.append((f"UPDATE matches SET updated_at = {p} WHERE id = {p}", stamps, True))
        if statuses:
            statements.append((f"UPDATE matches SET updated_at = {p}, status = {p} WHERE id = {p}", statuses, True))
        ids = self._commit(statements, [(match_id, line.kind, line.seat, line.viewer, line.name, line.text,
                                         line.ply, line.at, line.shown) for match_id, line in lines])
        for _now, match_id in stamps:
            stamped[match_id] = now
        for _now, status, match_id in statuses:
            if status in ("open", "running"):
                stamped[match_id] = now
            else:
                stamped.pop(match_id, None)
        return ids

    def _commit(self, statements: Sequence[tuple[str, Sequence[Any], bool]],
                lines: Sequence[tuple[Any, ...]] = ()) -> list[int]:
        """Run ``(sql, parameters, many)`` statements, then insert chat ``lines`` (``INSERT_CHAT``'s
        values), in one transaction, for ``append_many``: the lines' ids.

        On PostgreSQL on a connection of its own, kept open between commits (a connection taken from
        the pool is pinged first: one more round trip a commit) and pinged only after ``PING_AFTER``
        seconds unused; in autocommit mode, so a commit of moves alone, one ``INSERT``, is one round
        trip (several statements go in one transaction). If a commit fails the connection is dropped
        (the next commit opens a new one) and the error raised: the moves were not stored, and the
        caller says so to their senders."""
        insert_chat = INSERT_CHAT.format(p=self._mark)

        def run_all(cursor: Any) -> list[int]:
            _run(cursor, statements)
            ids = []
            for values in lines:
                cursor.execute(insert_chat, values)
                ids.append(int(cursor.fetchone()[0]))
            return ids

        if self.is_sqlite:
            with self._raw() as cursor:
                return run_all(cursor)

        def run(driver: Any) -> list[int]:
            with contextlib.ExitStack() as stack:
                if len(statements) + len(lines) > 1:
                    stack.enter_context(driver.transaction())
                with driver.cursor() as cursor:
                    return run_all(cursor)

        return self._kept(run)

    def _kept(self, work: Callable[[Any], T]) -> T:
        """PostgreSQL: ``work(driver connection)`` on the connection kept for commits (``_commit``), in
        autocommit mode, one caller at a time; a failure drops the connection (the next call opens a new
        one) and is raised."""
        with self._commit_lock:
            conn = self._commit_conn
            if conn is not None and time.monotonic() - self._commit_used > PING_AFTER and not self._alive(conn):
                conn = None
            if conn is None:
                conn = self.engine.raw_connection()  # the pool pings it first
                self._commit_conn = conn
            driver: Any = conn.dbapi_connection
            driver.autocommit = True
            try:
                return work(driver)
            except BaseException:
                self._drop(conn)
                raise
            finally:
                self._commit_used = time.monotonic()

    def _alive(self, conn: Any) -> bool:
        """Whether the kept connection still answers (else it is dropped: a server restarted, or a
        connection cut while the server was quiet, costs no commit)."""
        try:
            conn.dbapi_connection.execute("SELECT 1")
            return True
        except Exception:
            self._drop(conn)
            return False

    def _drop(self, conn: Any) -> None:
        """Forget the kept commit connection and have the pool discard it."""
        self._commit_conn = None
        with contextlib.suppress(Exception):
            conn.invalidate()

    @contextlib.contextmanager
    def _raw(self) -> Iterator[Any]:
        """A cursor of the driver itself, in one transaction: committed when the block ends, rolled back
        if it raises. The frequent writes speak the driver's own SQL (placeholder ``_mark``): SQLAlchemy's
        statement building and ORM sessions cost milliseconds a write, more than a move's other work."""
        conn = self.engine.raw_connection()
        try:
            cursor = conn.cursor()
            yield cursor
            cursor.close()
            conn.commit()
        except BaseException:
            conn.rollback()
            raise
        finally:
            conn.close()

    # --- reads ---------------------------------------------------------------------------

    def first_row(self, sql: str, params: Sequence[Any]) -> tuple[Any, ...] | None:
        """The first row a query in the driver's own SQL finds (``{p}``: its placeholder). For the small
        reads made for every match a busy server creates and joins (is it rated? is a guest's name an
        account's?), where an ORM session cost several times the query on the event loop."""
        with self._raw() as cursor:
            cursor.execute(sql.format(p=self._mark), params)
            row = cursor.fetchone()
        return tuple(row) if row is not None else None

    def load(self, match_id: str) -> MatchData | None:
        with Session(self.engine) as session:
            return self._full(session, match_id)

    def load_active(self) -> list[MatchData]:
        """Every match that is open or running, with its seats and moves."""
        with Session(self.engine) as session:
            ids = session.scalars(
                select(MatchRow.id).where(MatchRow.status.in_(("open", "running"))).order_by(MatchRow.created_at)
            ).all()
            loaded = [self._full(session, i) for i in ids]
            return [data for data in loaded if data is not None]

    def active_among(self, ids: Sequence[str]) -> list[str]:
        """Those of these match ids that are open or running (one query; an unknown id is left out)."""
        if not ids:
            return []
        with Session(self.engine) as session:
            return list(
                session.scalars(
                    select(MatchRow.id).where(MatchRow.id.in_(ids), MatchRow.status.in_(("open", "running")))
                ).all()
            )

    def list_matches(self, status: str | None, limit: int) -> list[tuple[MatchData, int]]:
        """The matches their hosts list publicly (``ListingRow``), newest first (seats and pace, no moves),
        each with its number of moves: four queries in all."""
        with Session(self.engine) as session:
            query = (
                select(MatchRow)
                .join(ListingRow, ListingRow.match_id == MatchRow.id)
                .order_by(MatchRow.created_at.desc())
                .limit(limit)
            )
            if status is not None:
                query = query.where(MatchRow.status == status)
            rows = session.scalars(query).all()
            ids = [r.id for r in rows]
            counts = dict(
                session.execute(
                    select(MoveRow.match_id, func.count())
                    .where(MoveRow.match_id.in_(ids))
                    .group_by(MoveRow.match_id)
                ).all()
            )
            paces = dict(session.execute(select(PaceRow.match_id, PaceRow.pace).where(PaceRow.match_id.in_(ids))).all())
            seats: dict[str, list[SeatData]] = {i: [] for i in ids}
            for s in session.scalars(select(SeatRow).where(SeatRow.match_id.in_(ids)).order_by(SeatRow.seat)):
                seats[s.match_id].append(_seat(s))
            out = []
            for r in rows:
                data = _match(r)
                data.seats = seats[r.id]
                data.pace = paces.get(r.id, "live")
                out.append((data, int(counts.get(r.id, 0))))
            return out

    def activity(self, ids: Sequence[str]) -> dict[str, tuple[float, int, int | None]]:
        """For each match id: when it last changed, how many moves it has and its revision (what a peer
        process compares with its own copy)."""
        if not ids:
            return {}
        with Session(self.engine) as session:
            revs = dict(
                session.execute(
                    select(RevisionRow.match_id, RevisionRow.rev).where(RevisionRow.match_id.in_(ids))
                ).all()
            )
            changed = dict(session.execute(select(MatchRow.id, MatchRow.updated_at).where(MatchRow.id.in_(ids))).all())
            counts = dict(
                session.execute(
                    select(MoveRow.match_id, func.count()).where(MoveRow.match_id.in_(ids)).group_by(MoveRow.match_id)
                ).all()
            )
        return {i: (float(changed[i]), int(counts.get(i, 0)), revs.get(i)) for i in changed}

    def _full(self, session: Session, match_id: str) -> MatchData | None:
        """A match with everything stored about it. The revision is read first: each read is a statement
        of its own (no snapshot), so whatever changes after it (a seat, the status, an undo) also changes
        the revision, and the process's next write, conditional on it, fails and catches up."""
        revision = session.get(RevisionRow, match_id)
        row = session.get(MatchRow, match_id)
        if row is None:
            return None
        data = _match(row)
        data.rev = revision.rev if revision is not None else None
        data.public = session.get(ListingRow, match_id) is not None
        key = session.get(ChanceKeyRow, row.id)
        data.chance_key = key.key if key is not None else None
        timer = session.get(TurnTimerRow, row.id)
        data.turn_seconds = timer.seconds if timer is not None else None
        pace = session.get(PaceRow, row.id)
        data.pace = pace.pace if pace is not None else "live"
        rematch = session.get(RematchRow, row.id)
        if rematch is not None:
            data.rematch_id = rematch.next_id
            data.rematch_until = session.scalar(
                select(func.max(SeatHoldRow.until)).where(SeatHoldRow.match_id == rematch.next_id)
            )
        for hold in session.scalars(select(SeatHoldRow).where(SeatHoldRow.match_id == row.id)):
            data.holds[hold.seat] = (hold.name, hold.until)
        for s in session.scalars(select(SeatRow).where(SeatRow.match_id == row.id).order_by(SeatRow.seat)):
            data.seats.append(_seat(s))
        query = select(MoveRow).where(MoveRow.match_id == row.id).order_by(MoveRow.ply)
        for m in session.scalars(query):
            data.moves.append(MoveData(ply=m.ply, action=m.action, seat=m.seat, client_id=m.client_id, at=m.at))
        return data


def _match(row: MatchRow) -> MatchData:
    return MatchData(
        id=row.id,
        game_id=row.game_id,
        version=row.version,
        options=json.loads(row.options),
        seed=row.seed,
        status=row.status,
        title=row.title,
        host_hash=row.host_hash,
        created_at=row.created_at,
        updated_at=row.updated_at,
    )


def _seat(s: SeatRow) -> SeatData:
    return SeatData(seat=s.seat, kind=s.kind, name=s.name, bot=s.bot, token_hash=s.token_hash)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any, auto_checkpoint: bool = True) -> None:
    """WAL: readers do not block the writer; a commit survives the process being killed. Without
    ``auto_checkpoint`` no commit checkpoints: the ``Checkpointer`` does."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    if not auto_checkpoint:
        cursor.execute("PRAGMA wal_autocheckpoint=0")
    cursor.close()
